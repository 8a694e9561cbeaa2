"""Benchmark: how long a challenge's verdict with a huge text holds the page (issue 48).

Prints figures; asserts nothing. Usage (after ./scripts/setup):

    .venv/bin/python benchmarks/bench_challenge_texts.py [--site DIR] [--runs 5]

Builds the site into a temporary folder (or serves an existing build, ``--site``; for a
"before" figure build another commit's copy there), serves it on 127.0.0.1 and drives Debian's
Chromium headless. On the echo challenge (``herausforderungen/echo/``) a reader's node

* ``raise``: raises ``ValueError("x" * 5_000_000)`` in its handler;
* ``echo``: answers every echo with a 2 MB value (``"y" * 2_000_000``);

then presses Prüfen. A ``PerformanceObserver`` for ``longtask`` records every main-thread task
over 50 ms; printed per journey are the median and the maximum (over ``--runs`` fresh pages)
of the longest task from the click until the verdict is on screen and 0.5 s more, and the
characters of the verdict the page shows. Python's own time (running, judging, shrinking)
is in its worker and holds nothing of the page. A ``longtask`` is wall time: on a shared,
loaded machine part of it can be time the main thread waited for a processor.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_freezes import OBSERVE, longest, settle  # noqa: E402
from benchmarks.bench_site import build  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.siteserver import StaticServer  # noqa: E402

PAGE = "herausforderungen/echo/"
EXERCISE = "echo"

JOURNEYS = {
    "raise": (
        "class Werfer(Knoten):\n"
        "    def bei_echo(self, nachricht):\n"
        '        raise ValueError("x" * 5_000_000)\n'
    ),
    "echo": (
        "class Gross(Knoten):\n"
        "    def bei_echo(self, nachricht):\n"
        '        body = {"type": "echo_ok", "echo": "y" * 2_000_000}\n'
        "        self.antworte(nachricht, body)\n"
    ),
}


def one_run(browser: Any, url: str, code: str) -> tuple[float, int]:
    """The longest main-thread task from Prüfen until the verdict shows (s), and the
    characters of the verdict shown."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.add_init_script(OBSERVE)
        page = context.new_page()
        page.set_default_timeout(600_000)
        page.goto(url + PAGE)
        root = page.locator(f"#{EXERCISE}")
        root.scroll_into_view_if_needed()
        editor = root.locator(".cm-content")
        editor.wait_for()
        editor.click()
        page.keyboard.press("Control+A")
        page.keyboard.press("Delete")
        editor.fill(code)
        settle(page)
        since = page.evaluate("performance.now()")
        root.get_by_role("button", name="Übung 1 prüfen").click()
        verdict = root.locator(".lk-challenge__verdict").first
        verdict.wait_for()
        time.sleep(0.5)
        shown = int(
            page.evaluate(
                "document.querySelector('#echo .lk-challenge__results').textContent.length"
            )
        )
        return longest(page, since), shown
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default=",".join(JOURNEYS), help="journeys, comma-separated")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = args.site or Path(folder)
        server = StaticServer(site, cache_seconds=600)
        if args.site is None:
            build(site, server.url)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name in args.only.split(","):
                    figures = [
                        one_run(browser, server.url, JOURNEYS[name]) for _ in range(args.runs)
                    ]
                    tasks = [task for task, _ in figures]
                    print(
                        f"{name}: longest main-thread task {statistics.median(tasks):.2f} s median, "
                        f"{max(tasks):.2f} s max ({args.runs} runs: "
                        + ", ".join(f"{t:.2f}" for t in tasks)
                        + f"; 0.00: no task over 50 ms); the results show {figures[-1][1]:,} "
                        "characters"
                    )
                browser.close()
        finally:
            server.close()


if __name__ == "__main__":
    main()
