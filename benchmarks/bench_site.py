"""Benchmark: how fast a reader gets the first output of a cell.

Prints figures; asserts nothing. Usage (after ./scripts/setup):

    .venv/bin/python benchmarks/bench_site.py [--runs 3] [--build]

Serves ``site/`` on 127.0.0.1 with ``Cache-Control: max-age=600`` (what GitHub
Pages sends) and drives Debian's Chromium:

* cold: a new browser profile; navigate and click ``Ausführen`` at once;
  time from navigation start until the cell's output is on screen;
* warm: the same profile again (files come from the HTTP cache);
* second run: clicking ``Ausführen`` once Python is loaded;
* console: a command's round trip (typed, Enter, answer and picture on screen)
  once Python is loaded; and the build time the site's consoles add;
* bytes: what the cold visit transferred (raw, and gzip-compressed as a
  static host would serve it).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

PAGE = "erste-schritte/"
CELL = "[data-lk-cell]:not([hidden])"


class CachingHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(CachingHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def first_output(page: object, url: str) -> float:
    """Navigate, click the first cell's Ausführen as soon as it exists; seconds to output."""
    page.goto(url, wait_until="commit")  # type: ignore[attr-defined]
    button = page.locator(CELL).first.get_by_role("button", name="Zelle 1 ausführen")  # type: ignore[attr-defined]
    button.click()
    page.locator(CELL).first.and_(page.locator("[data-state=done]")).wait_for()  # type: ignore[attr-defined]
    return page.evaluate("performance.now()") / 1000  # type: ignore[attr-defined]


def second_run(page: object) -> float:
    return page.evaluate(  # type: ignore[attr-defined]
        """async () => {
            const cell = document.querySelector('[data-lk-cell]:not([hidden])');
            const start = performance.now();
            cell.querySelector('.lk-button--run').click();
            while (cell.dataset.state !== 'done') await new Promise(r => setTimeout(r, 1));
            return (performance.now() - start) / 1000;
        }"""
    )


def console_round_trip(page: object) -> float:
    """Seconds from submitting a console command until its answer is in the page."""
    return page.evaluate(  # type: ignore[attr-defined]
        """async () => {
            const root = document.querySelector('[data-lk-console]');
            const input = root.querySelector('input');
            const before = root.querySelectorAll('.lk-console__entry').length;
            const start = performance.now();
            input.value = 'offsets orders';
            input.form.requestSubmit();
            while (root.querySelectorAll('.lk-console__entry').length === before)
                await new Promise(r => setTimeout(r, 0));
            return (performance.now() - start) / 1000;
        }"""
    )


def console_build_seconds(site: Path) -> tuple[int, float]:
    """How long the build spends on the site's consoles: (count, seconds)."""
    import json

    from bs4 import BeautifulSoup

    from lessonkit.consoles import ConsoleSessions

    setups = []
    for path in site.rglob("*.html"):
        for element in BeautifulSoup(path.read_text(), "html.parser").select(".lk-console__data"):
            data = json.loads(element["data-lk-json"])
            setups.append((data["kind"], data["options"], data["setup"]))
    start = time.perf_counter()
    for kind, options, setup in setups:
        ConsoleSessions().get("k", kind, options, setup)
    return len(setups), time.perf_counter() - start


def measure(site: Path, runs: int) -> None:
    from playwright.sync_api import sync_playwright

    server, base = serve(site)
    cold, warm, again, ready, console = [], [], [], [], []
    raw_bytes = gzip_bytes = 0
    with sync_playwright() as playwright:
        for run in range(runs):
            with tempfile.TemporaryDirectory() as profile:
                context = playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                page = context.new_page()
                sizes: dict[str, bytes] = {}
                page.on("response", lambda r, sizes=sizes: sizes.setdefault(r.url, r.body()))
                cold.append(first_output(page, base + PAGE))
                ready.append(page.evaluate("window.lessonkit.runtime.readySeconds"))
                again.append(statistics.median(second_run(page) for _ in range(5)))
                console.append(statistics.median(console_round_trip(page) for _ in range(10)))
                page.close()
                if run == 0:
                    raw_bytes = sum(len(body) for body in sizes.values())
                    gzip_bytes = sum(len(gzip.compress(body, 6)) for body in sizes.values())
                page = context.new_page()
                warm.append(first_output(page, base + PAGE))
                context.close()
    server.shutdown()

    def line(name: str, values: list[float], unit: float = 1.0, suffix: str = "s") -> None:
        shown = ", ".join(f"{v * unit:.3f}" for v in values)
        print(f"{name:<44} median {statistics.median(values) * unit:7.3f} {suffix}   ({shown})")

    print(f"Page: /{PAGE}, {runs} runs, Chromium headless on 127.0.0.1")
    line("cold profile: navigation -> first output", cold)
    line("  of which worker start -> Python ready", ready)
    line("warm profile: navigation -> first output", warm)
    line("second run: click -> output", again, 1000, "ms")
    line("console command: Enter -> answer on screen", console, 1000, "ms")
    count, seconds = console_build_seconds(site)
    print(f"{'build time of the site consoles':<44} {seconds * 1000:7.1f} ms for {count} consoles")
    print(f"{'bytes of a cold visit (raw)':<44} {raw_bytes / 1e6:7.2f} MB")
    print(f"{'bytes of a cold visit (gzip -6, as served)':<44} {gzip_bytes / 1e6:7.2f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--build", action="store_true", help="build the site first")
    args = parser.parse_args()
    site = ROOT / "site"
    if args.build or not (site / PAGE / "index.html").exists():
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=ROOT, check=True
        )
    time.sleep(0.1)
    measure(site, args.runs)


if __name__ == "__main__":
    main()
