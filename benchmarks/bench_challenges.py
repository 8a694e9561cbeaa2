"""Which wrong nodes pass "Prüfen" today, on which seed each first fails, and what a run costs.

    .venv/bin/python benchmarks/bench_challenges.py               # seeds 1..30, every stage
    .venv/bin/python benchmarks/bench_challenges.py --seeds 100 --jobs 2
    .venv/bin/python benchmarks/bench_challenges.py --challenge leader-lease --all-seeds

For every challenge stage of the course (each ``herausforderung`` fence, read and built as the
site builds it: ``tests/lessonkit/wrong_nodes.page_challenges``) it runs, under the stage's
``Vorgabe``, the page's solution, its starting code, its own ``--- fehlversuch`` sections and
every wrong node of ``tests/lessonkit/wrong_nodes.WRONG_NODES`` that names the stage, over
seeds 1..N. A seed is what "Prüfen" does for it without shrinking or drawing: ``Vorgabe.laufe``
and ``lessonkit.runtime.challenges.judge`` (a run that hits the event limit fails with its message).

Per stage and node it prints: whether it passes the seeds Prüfen runs (1..``Vorgabe.seeds``),
the first failing seed in 1..N and how many of N fail (a node stops at its first failing seed
unless ``--all-seeds``), and the time per run (median and maximum, CPython). The lines
marked ``!!`` are what issue 47 must change: a wrong node that passes Prüfen's seeds, or a
solution that fails a seed. The last line counts them; ``--json FILE`` writes every figure.

This is the acceptance harness for the checker and the nemesis of issue 47: it uses only what
every branch has (the pages, ``Vorgabe``, ``judge``, ``load_node``), so it runs on any of them.

``--speed`` measures instead what a reader waits for, per stage: "Prüfen" as the page does it
(one ``challenge.seed`` call through ``lessonkit.runtime.bridge.call`` per seed, stopping at the first
failing seed, which is shrunk and drawn), for the solution and for the starting code, and a
node that floods. It prints the time to the first seed's result (the page's first "1 von N
Läufen bestanden" or a verdict) and to the whole verdict, in CPython and, with ``--pyodide``,
in Pyodide under Node.js (the site's packages and memory snapshot, tests/pyodide.py):

    .venv/bin/python benchmarks/bench_challenges.py --speed --pyodide
    .venv/bin/python benchmarks/bench_challenges.py --speed --pyodide --every-seed  # as before

Measure only when the machine is otherwise idle, or say that it was not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@dataclass
class Entry:
    """One node to run against one stage."""

    challenge: str
    role: str  # "loesung", "start", "seite", "falsch"
    name: str
    code: str
    listed: bool = False


@dataclass
class Result:
    challenge: str
    role: str
    name: str
    listed: bool
    seeds_pruefen: int
    #: Seeds run and whether each passed (in order).
    passed: dict[int, bool] = field(default_factory=dict)
    #: The verdict of the first failing seed (its first sentence).
    first_verdict: str = ""
    #: Seconds per run (run + judge).
    times: list[float] = field(default_factory=list)
    error: str = ""

    @property
    def first_failing(self) -> int | None:
        return next((seed for seed, ok in self.passed.items() if not ok), None)

    @property
    def passes_pruefen(self) -> bool:
        return not self.error and all(
            self.passed.get(seed, True) for seed in range(1, self.seeds_pruefen + 1)
        )

    @property
    def should_pass(self) -> bool:
        return self.role == "loesung"

    @property
    def alarm(self) -> bool:
        return self.passes_pruefen != self.should_pass


def entries(only: set[str] | None) -> Iterator[tuple[Any, Entry]]:
    from tests.lessonkit.wrong_nodes import WRONG_NODES, page_challenges

    for found in page_challenges():
        challenge = found.exercise
        if only and challenge.id not in only:
            continue
        yield challenge, Entry(challenge.id, "loesung", "Lösung", challenge.loesung)
        yield challenge, Entry(challenge.id, "start", "Startcode", challenge.start)
        for number, attempt in enumerate(challenge.fehlversuche, 1):
            first = attempt.text.strip().splitlines()[0]
            name = first[2:] if first.startswith("# ") else f"fehlversuch {number}"
            yield challenge, Entry(challenge.id, "seite", name[:70], attempt.text)
        for node in WRONG_NODES:
            if challenge.id in node.challenges:
                yield challenge, Entry(challenge.id, "falsch", node.name, node.code, node.listed)


def run_entry(vorgabe: Any, pruefung: str, entry: Entry, seeds: int, all_seeds: bool) -> Result:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges
    from pysim.cluster import LaufAbgebrochen

    result = Result(
        entry.challenge, entry.role, entry.name, entry.listed, seeds_pruefen=vorgabe.seeds
    )
    klasse, error = run_sync(lambda: challenges.load_node(entry.code))
    if klasse is None:
        result.error = (error or "").strip().splitlines()[-1] if error else "no node"
        return result
    for seed in range(1, max(seeds, vorgabe.seeds) + 1):
        start = time.perf_counter()
        try:
            run = vorgabe.laufe(klasse, seed)
            teile = challenges.judge(run, vorgabe, pruefung)
            ok = all(teil.ok for teil in teile)
            verdict = next((t.erklaerung for t in teile if not t.ok), "")
        except LaufAbgebrochen as abbruch:
            ok, verdict = False, str(abbruch)
        result.times.append(time.perf_counter() - start)
        result.passed[seed] = ok
        if not ok and not result.first_verdict:
            result.first_verdict = verdict.split(". ")[0][:160]
        if not ok and not all_seeds and entry.role != "loesung":
            break  # a wrong node needs one failing seed; a solution runs them all
    return result


def _work(args: tuple[str, Entry, int, bool]) -> Result:
    """In a worker process: find the stage again (classes do not pickle) and run."""
    challenge_id, entry, seeds, all_seeds = args
    from tests.lessonkit.wrong_nodes import page_challenges

    challenge = next(c.exercise for c in page_challenges() if c.exercise.id == challenge_id)
    return run_entry(challenge.vorgabe, challenge.pruefung, entry, seeds, all_seeds)


def describe(result: Result, seeds: int) -> str:
    mark = "!!" if result.alarm else "  "
    if result.error:
        return f"{mark} {result.role:7} {result.name:44} does not load: {result.error}"
    ran = len(result.passed)
    failing = sum(1 for ok in result.passed.values() if not ok)
    first = result.first_failing
    verdict = "passes Prüfen" if result.passes_pruefen else "fails Prüfen "
    where = f"first fails at seed {first:3}" if first else f"passes all {ran:3} seeds  "
    median = statistics.median(result.times) if result.times else 0.0
    slowest = max(result.times, default=0.0)
    return (
        f"{mark} {result.role:7} {result.name:44} {verdict} {where} "
        f"({failing}/{ran} fail)  {median * 1000:6.0f} ms/run (max {slowest * 1000:.0f})"
    )


#: What "Prüfen" does on the page, as one function: the same in CPython and in Pyodide.
#: ``ALLE``: as the page did before issue 47, every seed (each failing one shrunk and drawn).
PRUEFEN = """
import json, time
from lessonkit.runtime import bridge
ALLE = {alle}

async def pruefen(code, vorgabe, pruefung):
    start = time.perf_counter()
    erster = None
    gescheitert = None
    for seed in range(1, vorgabe["seeds"] + 1):
        antwort = json.loads(await bridge.call("challenge.seed", json.dumps({
            "code": code, "vorgabe": vorgabe, "seed": seed,
            "pruefung": pruefung, "urteilen": True})))
        if erster is None:
            erster = time.perf_counter() - start
        if antwort["error"] is not None or not antwort["ok"]:
            gescheitert = gescheitert or seed
            if not ALLE:
                break
    ok = gescheitert is None
    return erster, time.perf_counter() - start, vorgabe["seeds"] if ok else gescheitert, ok

async def messen(faelle):
    ergebnisse = []
    for name, code, vorgabe, pruefung in faelle:
        ergebnisse.append([name, *(await pruefen(code, vorgabe, pruefung))])
    return ergebnisse
"""


#: ``--every-seed``: time the page as it was before issue 47 (every seed, each failure shrunk).
ALLE = False


def latest_failing(challenge: Any) -> tuple[int, str] | None:
    """The page's ``fehlversuch`` of ``challenge`` that fails latest within its seeds (CPython):
    the slowest verdict a wrong node gets on that page."""
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges
    from pysim.cluster import LaufAbgebrochen

    latest: tuple[int, str] | None = None
    for attempt in challenge.fehlversuche:
        klasse, _ = run_sync(lambda code=attempt.text: challenges.load_node(code))
        if klasse is None:
            continue
        for seed in range(1, challenge.vorgabe.seeds + 1):
            try:
                run = challenge.vorgabe.laufe(klasse, seed)
                ok = all(t.ok for t in challenges.judge(run, challenge.vorgabe, challenge.pruefung))
            except LaufAbgebrochen:
                ok = False
            if not ok:
                if latest is None or seed > latest[0]:
                    latest = (seed, attempt.text)
                break
    return latest


def speed_cases(only: set[str] | None) -> list[tuple[str, str, dict[str, Any], str]]:
    """(name, code, vorgabe, pruefung): each stage's solution, starting code and the page's
    wrong node that fails latest (when it fails after seed 1), and a flood."""
    from tests.lessonkit.wrong_nodes import page_challenges

    cases = []
    flood = None
    for found in page_challenges():
        challenge = found.exercise
        for attempt in challenge.fehlversuche:
            if challenge.id == "broadcast-viele" and "circle" in attempt.text:
                flood = (f"{challenge.id}: Flut", attempt.text, challenge.vorgabe.als_dict(), "")
        if only and challenge.id not in only:
            continue
        spec = challenge.vorgabe.als_dict()
        cases.append((f"{challenge.id}: Lösung", challenge.loesung, spec, challenge.pruefung))
        cases.append((f"{challenge.id}: Startcode", challenge.start, spec, challenge.pruefung))
        latest = latest_failing(challenge)
        if latest is not None and latest[0] > 1:
            name = f"{challenge.id}: Fehlversuch (Seed {latest[0]})"
            cases.append((name, latest[1], spec, challenge.pruefung))
    if flood is not None:
        cases.append(flood)
    return cases


def speed_cpython(cases: list[tuple[str, str, dict[str, Any], str]]) -> list[list[Any]]:
    from lessonkit.build.execute import run_sync

    namespace: dict[str, Any] = {}
    exec(PRUEFEN.replace("{alle}", str(ALLE)), namespace)
    return run_sync(lambda: namespace["messen"](cases))  # type: ignore[no-any-return]


def speed_pyodide(cases: list[tuple[str, str, dict[str, Any], str]]) -> list[list[Any]]:
    from tests import pyodide

    cell = PRUEFEN.replace("{alle}", str(ALLE)) + f"\nprint(json.dumps(await messen({cases!r})))\n"
    text = pyodide.output_of_cell(cell)
    return json.loads(text.splitlines()[-1])  # type: ignore[no-any-return]


def speed(only: set[str] | None, in_pyodide: bool) -> None:
    cases = speed_cases(only)
    figures = {"CPython": speed_cpython(cases)}
    if in_pyodide:
        figures["Pyodide"] = speed_pyodide(cases)
    print(f"{'':52}" + "".join(f"{name:>30}" for name in figures))
    print(f"{'':52}" + "".join(f"{'first seed / verdict':>30}" for _ in figures))
    for i, (name, *_rest) in enumerate(cases):
        row = f"{name:52}"
        for results in figures.values():
            _, first, whole, seed, ok = results[i]
            how = f"✓ {seed}" if ok else f"✗ seed {seed}"
            row += f"{first:8.2f} s {whole:7.2f} s {how:>10}"
        print(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30, help="seeds 1..N (N up to 100)")
    parser.add_argument("--challenge", action="append", help="only this stage (repeatable)")
    parser.add_argument(
        "--all-seeds", action="store_true", help="run every seed, not up to the first failure"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (2 cores here)")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument("--speed", action="store_true", help="time Prüfen as the page runs it")
    parser.add_argument("--pyodide", action="store_true", help="with --speed: in Pyodide too")
    parser.add_argument(
        "--every-seed",
        action="store_true",
        help="with --speed: every seed, as the page did before issue 47 (the 'before' figures)",
    )
    args = parser.parse_args()
    global ALLE
    ALLE = args.every_seed
    seeds = max(1, min(args.seeds, 100))
    only = set(args.challenge) if args.challenge else None
    if args.speed:
        speed(only, args.pyodide)
        return

    work = list(entries(only))
    print(
        f"Python {sys.version.split()[0]}, seeds 1..{seeds}, {len(work)} nodes on "
        f"{len({e.challenge for _, e in work})} stages"
    )
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(
                pool.map(_work, [(e.challenge, e, seeds, args.all_seeds) for _, e in work])
            )
    else:
        results = [run_entry(c.vorgabe, c.pruefung, e, seeds, args.all_seeds) for c, e in work]
    current = ""
    for (challenge, _), result in zip(work, results, strict=True):
        if challenge.id != current:
            current = challenge.id
            print(f"\n{challenge.id}: {challenge.vorgabe.beschreibung()}")
        print(describe(result, seeds))
        if not result.passes_pruefen and result.role == "loesung" and result.first_verdict:
            print(f"     {result.first_verdict}")
    print("\nseeds each stage needs (the latest first failing seed of its wrong nodes):")
    for challenge_id in dict.fromkeys(r.challenge for r in results):
        stage = [r for r in results if r.challenge == challenge_id]
        wrong_here = [r for r in stage if r.role != "loesung" and not r.error]
        never = [r.name for r in wrong_here if r.first_failing is None]
        needed = max((r.first_failing or 0 for r in wrong_here), default=0)
        solution = next((r for r in stage if r.role == "loesung"), None)
        per_run = statistics.median(solution.times) if solution and solution.times else 0.0
        now = stage[0].seeds_pruefen
        line = (
            f"  {challenge_id:26} {needed:3} (now {now:3}; solution {per_run * 1000:4.0f} ms/run)"
        )
        if never:
            line += f"; never failed in 1..{seeds}: {', '.join(never)}"
        print(line)
    alarms = [r for r in results if r.alarm]
    wrong = [r for r in results if r.role in ("seite", "falsch", "start")]
    times = [t for r in results for t in r.times]
    print(
        f"\n{sum(1 for r in wrong if r.passes_pruefen)} of {len(wrong)} wrong nodes pass Prüfen "
        f"(issue 47's list: {sum(1 for r in wrong if r.listed and r.passes_pruefen)} of "
        f"{sum(1 for r in wrong if r.listed)}); "
        f"{sum(1 for r in results if r.role == 'loesung' and not r.passes_pruefen)} solutions "
        f"fail; {len(alarms)} lines marked !!"
    )
    if times:
        print(
            f"{len(times)} runs in {time.perf_counter() - started:.0f} s: median "
            f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms per run"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        **asdict(r),
                        "passes_pruefen": r.passes_pruefen,
                        "first_failing": r.first_failing,
                    }
                    for r in results
                ],
                ensure_ascii=False,
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
