"""What a fresh Python costs the next page (issue 49): instant navigation keeps the worker
when it ran only the author's code, and replaces it once it ran the reader's own.

Prints, per case, the medians of click on the next lesson's link -> first output of its
cell 1 (the reader presses "Ausführen" the moment the cell is mounted), in Chromium.

    .venv/bin/python benchmarks/bench_fresh_worker.py SITE_DIR [--runs 5]

SITE_DIR: a site built with SITE_URL=http://127.0.0.1:8649/ (the address is rewritten).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import expect, sync_playwright

from tests.browser.pages import Cell, go
from tests.siteserver import StaticServer, copy_site

NEXT = re.compile("Queues und Idempotenz")


def once(browser: object, url: str, reader_code: bool) -> float:
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(url + "erste-schritte/")
    page.wait_for_function("() => window.lessonkit && window.lessonkit.runtime.state === 'ready'")
    page.wait_for_function("() => typeof window.document$ === 'object'")
    if reader_code:
        Cell.number(page, 6).run_code("x = 'mein eigener Code'")
    else:
        Cell.number(page, 1).run()
    page.evaluate("window.lkClicked = performance.now()")
    go(page, NEXT, 2)
    Cell.number(page, 1).start()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")
    seconds = page.evaluate("(performance.now() - window.lkClicked) / 1000")
    context.close()
    return float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("site", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        folder = Path(tempfile.mkdtemp())
        server = StaticServer(folder / "site")
        copy_site(args.site, "http://127.0.0.1:8649/", folder / "site", server.url)
        times: dict[str, list[float]] = {"author's code only": [], "reader's code ran": []}
        for _ in range(args.runs):  # interleaved: the machine's drift falls on both
            times["author's code only"].append(once(browser, server.url, False))
            times["reader's code ran"].append(once(browser, server.url, True))
        for name, values in times.items():
            shown = ", ".join(f"{v:.2f}" for v in values)
            print(f"{name}: median {statistics.median(values):.2f} s ({shown})")
        server.close()
        browser.close()


if __name__ == "__main__":
    main()
