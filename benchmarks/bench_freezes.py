"""Benchmark: the longest main-thread task a reader's journey causes in a console (issue 28).

Prints figures; asserts nothing. Usage (after ./scripts/setup):

    .venv/bin/python benchmarks/bench_freezes.py [--site DIR] [--only log,saga,paste,many]

Builds the site into a temporary folder (or serves an existing build, ``--site``; for a
"before" figure build another commit's copy there), serves it on 127.0.0.1 and drives Debian's
Chromium headless. A ``PerformanceObserver`` for ``longtask`` records every main-thread task
over 50 ms. The journeys, each on a fresh page:

* ``log``: 200 consumer groups in a log console (``consume bench group gNNN``), then one more
  command;
* ``saga``: ``start b7`` and 500 × ``tick 100`` in the saga console, then one more command;
* ``paste``: a 10 MB line pasted into a console's command line and run (the console refuses it);
* ``many``: 5,000 commands in a log console (the transcript grows), then one more
  (``--many N`` for another number; 5,000 take ~15 minutes on two shared cores).

For each it prints the longest task while the journey ran, the longest task of the last command
(from its submit until its answer is on screen and 0.5 s more), and the journey's wall time.
The commands are submitted from inside the page (no Playwright round trip per command), each
once the previous answer is in the transcript.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_site import build  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.siteserver import StaticServer  # noqa: E402

LOG_PAGE = "lektionen/ereignisstroeme/"
SAGA_PAGE = "lektionen/sagas/"

OBSERVE = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
"""

#: Submits each line in the console ``root`` once the previous answer is in its transcript;
#: returns the time (performance.now) the last line was submitted.
DRIVE = """
async ([kind, lines]) => {
  const root = document.querySelector(`[data-lk-console][data-kind=${kind}]`);
  const input = root.querySelector(".lk-console__input");
  const form = root.querySelector("form.lk-console__prompt");
  const entries = () => root.querySelectorAll(".lk-console__entry").length;
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  let last = 0;
  for (const line of lines) {
    const before = entries();
    while (input.disabled) await settled();
    input.value = line;
    last = performance.now();
    form.requestSubmit();
    while (entries() === before) await new Promise((r) => requestAnimationFrame(r));
  }
  await new Promise((r) => setTimeout(r, 500));
  return last;
}
"""


def longest(page: Any, since: float = 0.0) -> float:
    tasks = page.evaluate("window.__longtasks")
    return max([d for s, d in tasks if s + d >= since] + [0.0]) / 1000


def journey(browser: Any, url: str, kind: str, lines: list[str], last: str) -> dict[str, float]:
    page = browser.new_page()
    try:
        page.add_init_script(OBSERVE)
        page.goto(url)
        # Polled from here: the page's Content-Security-Policy forbids wait_for_function's eval.
        while not page.evaluate("() => Boolean(window.lessonkit?.runtime?.readyAt)"):
            time.sleep(0.1)
        page.wait_for_timeout(1000)
        start = page.evaluate("performance.now()")
        began = time.perf_counter()
        page.evaluate(DRIVE, [kind, lines])
        wall = time.perf_counter() - began
        during = longest(page, start)
        submitted = page.evaluate(DRIVE, [kind, [last]])
        return {
            "longest task during": during,
            "last command": longest(page, submitted),
            "wall s": wall,
        }
    finally:
        page.close()


JOURNEYS = {
    "log": (
        LOG_PAGE,
        "log",
        ["create topic bench partitions 3"]
        + [f"produce bench key=k{i} {{}}" for i in range(10)]
        + [f"consume bench group g{n:03d}" for n in range(200)],
        "consume bench group g042",
    ),
    "saga": (SAGA_PAGE, "saga", ["start bench"] + ["tick 100"] * 500, "tick"),
    "paste": (LOG_PAGE, "log", [], "x" * 10_000_000),
    "many": (
        LOG_PAGE,
        "log",
        ["create topic bench partitions 3"] + ["topics"] * 5_000,
        "topics",
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site to serve instead of building")
    parser.add_argument("--only", default="log,saga,paste,many")
    parser.add_argument("--many", type=int, default=5_000, help="commands of the many journey")
    args = parser.parse_args()
    page_, kind_, _, last_ = JOURNEYS["many"]
    JOURNEYS["many"] = (
        page_,
        kind_,
        ["create topic bench partitions 3"] + ["topics"] * args.many,
        last_,
    )
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = args.site or Path(folder)
        server = StaticServer(site, cache_seconds=600)
        if args.site is None:
            build(site, server.url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name in args.only.split(","):
                page, kind, lines, last = JOURNEYS[name]
                figures = journey(browser, server.url + page, kind, lines, last)
                print(
                    f"{name:6} longest task during the journey {figures['longest task during']:.2f} s, "
                    f"of the last command {figures['last command']:.2f} s "
                    f"(journey {figures['wall s']:.0f} s)",
                    flush=True,
                )
            browser.close()
        server.close()


if __name__ == "__main__":
    main()
