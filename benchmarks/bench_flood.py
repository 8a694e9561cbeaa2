"""Benchmark: input delay while a cell floods the page (issue 49). Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_flood.py [--site DIR] [junk forged alternate print]

Builds the site into a temporary folder (or serves a build made for
http://127.0.0.1:8000/, ``--site``: for a "before" figure build another commit there),
serves it on 127.0.0.1 and drives Debian's Chromium headless. On "Erste Schritte" cell 6
runs a flood while the reader types into cell 5's editor (21 keys, 0.3 s apart):

* ``junk``: ``js.postMessage(i)`` 2,000,000 times; ``forged``: the same with a protocol
  chunk for an id no run has; ``alternate``: 10**6 × ``print('a')`` and
  ``print('b', file=sys.stderr)``, each without a newline; ``print``: 10**7 lines.

It prints, from the Event Timing API (``PerformanceObserver`` type ``event``, key events
over 16 ms): the longest input delay (``processingStart - startTime``) and the longest
event duration (key to the next paint); the longest gap of a 10 ms ``setInterval``
(timers starved), the longest task, and when the typed text was in the editor.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.bench_site import build  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.siteserver import StaticServer, copy_site  # noqa: E402

BUILT_FOR = "http://127.0.0.1:8000/"

FLOODS = {
    "junk": "import js\nfor i in range(2_000_000):\n    js.postMessage(i)",
    "forged": "import js\nfrom pyodide.ffi import to_js\nm = to_js({'type': 'chunk', 'id': 99999, 'stream': 'stdout', 'text': 'x'}, dict_converter=js.Object.fromEntries)\nfor i in range(2_000_000):\n    js.postMessage(m)",
    "alternate": "import sys\nfor i in range(10**6):\n    print('a', end='')\n    print('b', end='', file=sys.stderr)",
    "print": "for i in range(10**7):\n    print(i)",
}
OBSERVE = """
window.__ev = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__ev.push([e.name, e.startTime, e.processingStart - e.startTime, e.duration]); })
  .observe({ type: "event", buffered: true, durationThreshold: 16 });
window.__gap = 0; let last = performance.now();
setInterval(() => { const now = performance.now(); window.__gap = Math.max(window.__gap, now - last - 10); last = now; }, 10);
window.__lt = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push(e.duration); }).observe({ type: "longtask", buffered: true });
"""


def measure(server: StaticServer, which: list[str]) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in which:
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            page = ctx.new_page()
            page.set_default_timeout(120_000)
            page.goto(server.url + "erste-schritte/")
            while not page.evaluate("() => Boolean(window.lessonkit?.runtime?.readyAt)"):
                time.sleep(0.1)
            cells = page.locator("[data-lk-cell]:not([hidden])")
            target, other = cells.nth(5), cells.nth(4)
            target.scroll_into_view_if_needed()
            target.locator(".cm-content").fill(FLOODS[name])
            other.scroll_into_view_if_needed()
            ed = other.locator(".cm-content")
            ed.click()
            page.keyboard.press("End")
            time.sleep(1)
            page.evaluate(OBSERVE)
            t0 = time.perf_counter()
            page.evaluate(
                "document.querySelectorAll('[data-lk-cell]:not([hidden])')[5].querySelector('button.lk-button--run').click()"
            )
            time.sleep(1.0)
            t1 = time.perf_counter()
            presses = []
            for ch in "#abcdefghijklmnopqrst":
                a = time.perf_counter()
                page.keyboard.press(ch if ch != "#" else "Shift+3")
                presses.append(time.perf_counter() - a)
                time.sleep(0.3)
            t2 = time.perf_counter()
            print(f"  press round trips: max {max(presses):.2f} s, sum {sum(presses):.2f} s")
            while not page.evaluate(
                "document.querySelectorAll('[data-lk-cell]:not([hidden])')[4].querySelector('.cm-content').textContent.includes('abcdefghijklmnopqrst')"
            ):
                time.sleep(0.05)
            t3 = time.perf_counter()
            deadline = time.time() + 120
            while time.time() < deadline:
                st = page.evaluate(
                    "document.querySelectorAll('[data-lk-cell]:not([hidden])')[5].dataset.state"
                )
                if st not in ("running", "queued"):
                    break
                time.sleep(0.2)
            t4 = time.perf_counter()
            ev = page.evaluate("window.__ev")
            keys = [
                e for e in ev if e[0] in ("keydown", "keypress", "keyup", "beforeinput", "input")
            ]
            out = page.evaluate(
                "document.querySelectorAll('[data-lk-cell]:not([hidden])')[5].querySelector('output').innerText.slice(0, 300)"
            )
            print(
                f"{name}: typing 21 keys (0.3 s apart) took {t2 - t1:.2f} s, in editor after {t3 - t1:.2f} s; cell ended ({st}) {t4 - t0:.1f} s after start"
            )
            delay = max([e[2] for e in keys] + [0])
            duration = max([e[3] for e in keys] + [0])
            gap = page.evaluate("window.__gap")
            longest = max([*page.evaluate("window.__lt"), 0])
            print(
                f"  max input delay {delay:.0f} ms, max event duration {duration:.0f} ms "
                f"({len(keys)} slow key events), max timer gap {gap:.0f} ms, "
                f"longest task {longest:.0f} ms"
            )
            print("  output:", out.replace("\n", " | ")[:300])
            ctx.close()
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help=f"a build made for {BUILT_FOR}")
    parser.add_argument("floods", nargs="*", default=list(FLOODS), choices=list(FLOODS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        served = Path(folder) / "site"
        server = StaticServer(served)
        if args.site:
            copy_site(args.site, BUILT_FOR, served, server.url)
        else:
            build(served, server.url)
        try:
            measure(server, args.floods)
        finally:
            server.close()


if __name__ == "__main__":
    main()
