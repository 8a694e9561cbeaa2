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
* ``paste``: a 10 MB line pasted into a console's command line (from the clipboard, Ctrl+V: the
  input keeps its ``maxlength``, 4,000 characters) and run (the console refuses it);
* ``many``: 5,000 commands in a log console (the transcript grows), then one more
  (``--many N`` for another number; 5,000 take ~15 minutes on two shared cores).

For each it prints the longest task while the journey ran, the longest task of the last command
(from its submit until its answer is on screen and 0.5 s more), and the journey's wall time.
The commands are submitted from inside the page (no Playwright round trip per command), each
once the previous answer is in the transcript. A journey starts once the page has settled
(Python ready, then no long task for a second): the page's own start (its consoles mounting,
Material's script) is not the journey's.

A ``longtask`` is wall time: on a shared, loaded machine most of a long task can be time the
main thread waited for a processor. ``--trace`` records a Chromium trace of each journey and
prints, beside the figures above, the thread (processor) time of the longest tasks and what
they ran, and the processor time of the page's main thread and of the Python worker per
command (traces of the ``saga`` and ``many`` journeys are hundreds of MB; use ``--only log``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
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
#: returns the time (performance.now) the last line was submitted. An answer is in once the
#: transcript's newest entry is another element (it keeps its newest 300 entries: their
#: number stops growing).
DRIVE = """
async ([kind, lines]) => {
  const root = document.querySelector(`[data-lk-console][data-kind=${kind}]`);
  const input = root.querySelector(".lk-console__input");
  const form = root.querySelector("form.lk-console__prompt");
  const newest = () => {
    const all = root.querySelectorAll(".lk-console__entry");
    return all[all.length - 1];
  };
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  let last = 0;
  for (const line of lines) {
    const before = newest();
    while (input.disabled) await settled();
    input.value = line;
    last = performance.now();
    form.requestSubmit();
    while (newest() === before) await new Promise((r) => requestAnimationFrame(r));
  }
  await new Promise((r) => setTimeout(r, 500));
  return last;
}
"""


def longest(page: Any, since: float = 0.0) -> float:
    tasks = page.evaluate("window.__longtasks")
    return max([d for s, d in tasks if s + d >= since] + [0.0]) / 1000


def settle(page: Any, quiet_ms: float = 1000, at_most_s: float = 15) -> None:
    """Waits until Python is ready and no long task ended for ``quiet_ms`` (polled from here:
    the page's Content-Security-Policy forbids wait_for_function's eval)."""
    while not page.evaluate("() => Boolean(window.lessonkit?.runtime?.readyAt)"):
        time.sleep(0.1)
    until = time.perf_counter() + at_most_s
    while time.perf_counter() < until:
        now, ended = page.evaluate(
            "[performance.now(), Math.max(0, ...window.__longtasks.map(([s, d]) => s + d))]"
        )
        if now - ended >= quiet_ms:
            return
        time.sleep(0.2)


#: What a trace records: the main thread's tasks and what runs inside them.
TRACE_CATEGORIES = ["toplevel", "devtools.timeline", "v8.execute", "blink.user_timing"]
TASK = "ThreadControllerImpl::RunTask"


def read_trace(trace: bytes, commands: int) -> list[str]:
    """Lines about the traced journey: the longest main-thread tasks with their thread time
    and the events that took it, and the processor time of the main thread and the worker."""
    data = json.loads(trace)
    events = data["traceEvents"] if isinstance(data, dict) else data
    names = {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    marks = {e["name"]: e["ts"] for e in events if str(e.get("name", "")).startswith("lk-journey")}
    start, end = marks["lk-journey-start"], marks["lk-journey-end"]
    tasks: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("name") == TASK and start <= e["ts"] <= end:
            tasks[(e["pid"], e["tid"])].append(e)
    mains = [k for k in tasks if names.get(k) == "CrRendererMain"]
    main = max(mains, key=lambda k: len(tasks[k]))
    worker = [k for k in tasks if k[0] == main[0] and names.get(k) == "DedicatedWorker thread"]

    def cpu(key: tuple[int, int]) -> float:
        return sum(e.get("tdur", 0) for e in tasks[key]) / 1e6

    def wall(key: tuple[int, int]) -> float:
        return sum(e["dur"] for e in tasks[key]) / 1e6

    lines = [
        f"  main thread: {cpu(main):.1f} s on a processor of {wall(main):.1f} s in tasks "
        f"({1000 * cpu(main) / commands:.0f} ms per command); Python worker "
        + ", ".join(f"{cpu(k):.1f} s" for k in worker)
    ]
    inside = sorted(
        (e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"),
        key=lambda e: (e["ts"], -e.get("dur", 0)),
    )
    for task in sorted(tasks[main], key=lambda e: -e["dur"])[:3]:
        lo, hi = task["ts"], task["ts"] + task["dur"]
        own: dict[str, float] = defaultdict(float)
        stack: list[dict[str, Any]] = []
        for e in inside:
            if not (lo <= e["ts"] and e["ts"] + e.get("dur", 0) <= hi) or e is task:
                continue
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
                stack.pop()
            if stack:
                own[stack[-1]["name"]] -= e.get("tdur", 0)
            own[e["name"]] += e.get("tdur", 0)
            stack.append(e)
        top = sorted(own.items(), key=lambda kv: -kv[1])[:4]
        lines.append(
            f"  task {task['dur'] / 1000:.0f} ms, {task.get('tdur', 0) / 1000:.0f} ms of it on a "
            f"processor, {(lo - start) / 1e6:.1f} s into the journey: "
            + ", ".join(f"{name} {us / 1000:.0f} ms" for name, us in top)
        )
    return lines


#: Pastes the clipboard into the console ``kind``'s command line and runs it, as a reader does
#: (a value set from script would skip the input's ``maxlength``); resolves once the answer is
#: in the transcript and 0.5 s more. Run after ``navigator.clipboard.writeText`` and a focus.
PASTED = """
async (kind) => {
  const root = document.querySelector(`[data-lk-console][data-kind=${kind}]`);
  const all = () => root.querySelectorAll(".lk-console__entry");
  const before = all()[all().length - 1];
  const form = root.querySelector("form.lk-console__prompt");
  const kept = root.querySelector(".lk-console__input").value.length;
  form.requestSubmit();
  while (all()[all().length - 1] === before) await new Promise((r) => requestAnimationFrame(r));
  await new Promise((r) => setTimeout(r, 500));
  return kept;
}
"""


def to_clipboard(page: Any, kind: str, text: str) -> None:
    """Puts ``text`` on the clipboard and focuses the console ``kind``'s command line."""
    field = page.locator(f"[data-lk-console][data-kind={kind}] .lk-console__input").first
    field.scroll_into_view_if_needed()
    field.click()
    page.evaluate("(text) => navigator.clipboard.writeText(text)", text)


def paste(page: Any, kind: str, length: int) -> float:
    """Pastes the clipboard into the console ``kind`` and runs it; returns when it was pasted."""
    pasted = float(page.evaluate("performance.now()"))
    page.keyboard.press("Control+V")
    kept = page.evaluate(PASTED, kind)
    print(f"  pasted {length:,} characters, the command line kept {kept:,}", flush=True)
    return pasted


def journey(
    browser: Any, url: str, kind: str, lines: list[str], last: str, trace: bool = False
) -> dict[str, Any]:
    page = browser.new_page(permissions=["clipboard-read", "clipboard-write"])
    try:
        page.add_init_script(OBSERVE)
        page.goto(url)
        settle(page)
        pasting = len(last) > 4_000
        if pasting:
            to_clipboard(page, kind, last)
        if trace:
            browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        start = page.evaluate("performance.mark('lk-journey-start'), performance.now()")
        began = time.perf_counter()
        page.evaluate(DRIVE, [kind, lines])
        wall = time.perf_counter() - began
        during = longest(page, start)
        if pasting:
            submitted = paste(page, kind, len(last))
        else:
            submitted = page.evaluate(DRIVE, [kind, [last]])
        page.evaluate("performance.mark('lk-journey-end')")
        return {
            "longest task during": during,
            "last command": longest(page, submitted),
            "wall s": wall,
            # The trace covers the journey and its last command.
            "trace": read_trace(browser.stop_tracing(), len(lines) + 1) if trace else [],
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
    parser.add_argument(
        "--trace", action="store_true", help="trace each journey: processor time of its tasks"
    )
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
                figures = journey(browser, server.url + page, kind, lines, last, args.trace)
                print(
                    f"{name:6} longest task during the journey {figures['longest task during']:.2f} s, "
                    f"of the last command {figures['last command']:.2f} s "
                    f"(journey {figures['wall s']:.0f} s)",
                    flush=True,
                )
                for line in figures["trace"]:
                    print(line, flush=True)
            browser.close()
        server.close()


if __name__ == "__main__":
    main()
