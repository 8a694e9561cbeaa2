"""One seed's verdict when the reader's node produces huge text, in CPython (issue 48).

    .venv/bin/python benchmarks/bench_long_texts.py [--runs 5]
    .venv/bin/python benchmarks/bench_long_texts.py --root /tmp/before   # another checkout

Runs ``lessonkit.runtime.challenges.seed_outcome`` for seed 1 of the echo stage (``Vorgabe("echo")``:
the run, the verdict, shrinking the failing run and its picture, as "Prüfen" does for the first
failing seed) with two nodes: one whose handler raises ``ValueError("x" * 5_000_000)``, one
that answers every echo with 2 MB of other text. Prints per node the median and the maximum
time of ``--runs`` runs, the length of the verdict and of the outcome as JSON (what the page
receives from Python).

``--root DIR`` imports ``pysim`` and ``lessonkit`` from another checkout, e.g. the commit
before the texts were capped: ``git archive <commit> | tar -x -C /tmp/before`` (importing needs
no built assets). Measure when the machine is otherwise idle, or say that it was not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

NODES = {
    "ValueError('x' * 5_000_000)": """
class K(Knoten):
    def bei_echo(self, nachricht):
        raise ValueError("x" * 5_000_000)
""",
    "2 MB echo (other text)": """
class K(Knoten):
    def bei_echo(self, nachricht):
        self.antworte(nachricht, {"type": "echo_ok", "echo": "y" * 2_000_000})
""",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))

    from lessonkit.runtime.challenges import Vorgabe, load_node, seed_outcome

    print(f"pysim and lessonkit from {args.root}, {args.runs} runs each (seed 1, echo)")
    for name, code in NODES.items():
        klasse, error = asyncio.run(load_node(code))
        assert klasse is not None, error
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            outcome = seed_outcome(klasse, Vorgabe("echo"), 1, "")
            data = json.dumps(outcome, ensure_ascii=False)
            times.append(time.perf_counter() - start)
        verdict = sum(len(part) for part in outcome["urteil"])
        print(
            f"  {name:30} median {statistics.median(times):.3f} s, max {max(times):.3f} s; "
            f"verdict {verdict:,} characters, outcome as JSON {len(data):,}"
        )


if __name__ == "__main__":
    main()
