"""Benchmark: the course's half of bench_peer.py for several built sites, interleaved, and
where the processor went (issue 53).

Prints figures; asserts nothing. Each visit is bench_peer.py's for this course (a fresh
Chromium profile, the first visible editor scrolled into view, ``print(6 * 7)`` typed,
``Ausführen`` clicked), on the project's test server as it is (the fast connection). Per
site, the medians of: the first editor in the page, the typing done, Python ready, the
first live output (ms since navigation), and the worker's stages (``start:…``, ``snapshot``,
``loadPyodide``; ms since navigation). With ``--cpu``: the processor time of Chromium's
threads during the visit (``/proc``, Linux only), summed by thread name, so a change can be
told apart from work that only moved (on two cores the fast path is bound by the
processor: what starts earlier takes the processor from something else). Usage, e.g.:

    SITE_URL=http://127.0.0.1:8148/ .venv/bin/mkdocs build -q -d /tmp/a   # one commit
    SITE_URL=http://127.0.0.1:8148/ .venv/bin/mkdocs build -q -d /tmp/b   # another
    flock /work/briefs/browser.lock .venv/bin/python benchmarks/bench_typed.py /tmp/a /tmp/b --runs 8 [--cpu]
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_peer import COURSES, EXPECTED, FOCUS, RUN, TYPED, WATCH  # noqa: E402
from bench_site import open_profile  # noqa: E402

from tests.siteserver import StaticServer  # noqa: E402

#: Thread names that stand for one kind (Chromium numbers its pool threads).
POOLS = ("ThreadPoolForeg", "ThreadPoolSingl", "ThreadPoolBackg")
STAGES = ("start:snapshot", "start:bytecode", "snapshot", "loadPyodide", "bridge")


def chromium_threads() -> dict[tuple[str, str], tuple[str, float]]:
    """(pid, tid) -> (thread name, milliseconds on a processor) of every Chromium thread."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[tuple[str, str], tuple[str, float]] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if "chromium" not in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"):
                continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
                name = stat[stat.index("(") + 1 : stat.rindex(")")]
                fields = stat[stat.rindex(")") + 2 :].split()
                name = next((pool for pool in POOLS if name.startswith(pool)), name)
                found[(pid, tid)] = (name, (int(fields[11]) + int(fields[12])) * 1000 / ticks)
        except (FileNotFoundError, ProcessLookupError, PermissionError, ValueError):
            continue
    return found


def one_visit(playwright: object, url: str, cpu: bool) -> dict[str, float]:
    """Milliseconds since navigation of each mark, and with ``cpu`` each thread kind's time."""
    _name, page_path, box, editor, run, output = COURSES[0]
    with tempfile.TemporaryDirectory() as folder:
        context = open_profile(playwright, folder, None)
        context.add_init_script(  # type: ignore[attr-defined]
            WATCH.replace("CONTAINER", repr(box)).replace("EDITOR", repr(editor))
        )
        page = context.new_page()  # type: ignore[attr-defined]
        page.goto("about:blank")
        before = chromium_threads() if cpu else {}
        page.goto(url + page_path, wait_until="commit")
        marks = {"editor": page.evaluate("window.lkEditor")}
        page.evaluate(FOCUS, [box, editor])
        page.keyboard.press("Control+A")
        page.keyboard.type(TYPED)
        marks["typed"] = page.evaluate("performance.now()")
        marks["output"] = page.evaluate(RUN, [box, run, output, EXPECTED])
        marks["ready"] = page.evaluate("window.lessonkit.runtime.readyAt")
        stages = page.evaluate("window.lessonkit.runtime.readyStages")
        # The worker's clock starts with the worker: its last stage is when it said "ready".
        offset = marks["ready"] - max(stages.values())
        marks.update({name: stages[name] + offset for name in STAGES if name in stages})
        if cpu:
            spent: dict[str, float] = collections.defaultdict(float)
            for key, (name, ms) in chromium_threads().items():
                spent[f"cpu {name}"] += ms - before.get(key, (name, 0.0))[1]
            marks.update(spent)
            marks["cpu, all threads"] = sum(spent.values())
        context.close()  # type: ignore[attr-defined]
    return marks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sites", type=Path, nargs="+", help="built sites (mkdocs build -d DIR)")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--cpu", action="store_true", help="processor time per thread kind")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    servers = [StaticServer(site, cache_seconds=600, gzip=True) for site in args.sites]
    seen: list[dict[str, list[float]]] = [collections.defaultdict(list) for _ in servers]
    try:
        with sync_playwright() as playwright:
            for round_ in range(args.runs):
                order = list(range(len(servers)))
                if round_ % 2:
                    order.reverse()
                for index in order:
                    for name, value in one_visit(playwright, servers[index].url, args.cpu).items():
                        seen[index][name].append(value)
    finally:
        for server in servers:
            server.close()
    print(f"fast connection, cold profiles, {args.runs} interleaved rounds, medians in ms")
    for site, marks in zip(args.sites, seen, strict=True):
        print(f"  {site}")
        for name, values in marks.items():
            if name.startswith("cpu ") and statistics.median(values) < 10:
                continue
            print(f"    {name:32s} {statistics.median(values):7.0f}")


if __name__ == "__main__":
    main()
