"""Where the test suite's time goes: `./scripts/test` in a fresh clone, timed by layer.

    .venv/bin/python benchmarks/bench_suite.py [--commit HEAD] [--keep DIR] [-- pytest args]

Clones the commit into a fresh folder (nothing of this checkout's .venv, node_modules,
generated assets or caches comes along), runs `./scripts/setup` and then the README's
test command there with `--durations=0`, and prints:

- the wall time of the setup and of `./scripts/test`, and the tests collected;
- the time by layer: the sum of each test's setup, call and teardown (in two test
  processes, as `./scripts/test` runs them, the sums exceed the wall time), sorted into
  Chromium (`browser`), Pyodide (`pyodide`), Firefox/WebKit (`firefox`, `webkit`) and the
  rest (unit tests, fences, content); the whole-course builds (the session fixtures that
  build the site with MkDocs and Zensical, charged to the first test that needs them)
  are a layer of their own, "builds";
- the slowest files;
- per test process: when its first test started and its last ended, how long it ran
  tests, and its idle stretches of more than 5 s (tests/conftest.py writes the timeline
  when LK_TIMELINE names a file).

The browsers must be installed (`./scripts/test` installs them as root). A figure is
true for the machine and the load of its minute: run it on an idle machine, and see
benchmarks/README.md for the dated figures.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S.*?)\s*$")
MARKERS = {
    "browser": "Chromium",
    "pyodide": "Pyodide",
    "firefox": "Firefox/WebKit",
    "webkit": "Firefox/WebKit",
}


def run(command: list[str], cwd: Path, log: Path, env: dict[str, str] | None = None) -> float:
    """Run ``command`` with its output into ``log``; its wall time in seconds."""
    start = time.monotonic()
    with log.open("w") as out:
        subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=False, env=env)
    return time.monotonic() - start


def print_timeline(timeline: Path) -> None:
    """Per test process: its span, its time in tests, and where it stood idle."""
    runs: dict[str, list[tuple[float, float, str]]] = collections.defaultdict(list)
    for line in timeline.read_text().splitlines():
        worker, start, end, test_id = line.split("\t", 3)
        runs[worker].append((float(start), float(end), test_id))
    first = min(start for tests in runs.values() for start, _, _ in tests)
    print("\nprocess   first   last   in tests   idle stretches > 5 s (from s, for s, before)")
    for worker, tests in sorted(runs.items()):
        tests.sort()
        busy = sum(end - start for start, end, _ in tests)
        gaps = [
            f"{before[1] - first:.0f}+{after[0] - before[1]:.0f} {after[2].split('::')[0]}"
            for before, after in itertools.pairwise(tests)
            if after[0] - before[1] > 5
        ]
        print(
            f"{worker:8} {tests[0][0] - first:5.0f} {tests[-1][1] - first:6.0f} {busy:9.0f}"
            f"   {'; '.join(gaps) or '-'}"
        )


def layer_of(clone: Path) -> dict[str, str]:
    """Each test's layer by its marker (the rest: "unit and build checks")."""
    layers: dict[str, str] = {}
    for marker, name in MARKERS.items():
        listed = subprocess.run(
            [".venv/bin/python", "-m", "pytest", "-q", "--collect-only", "-m", marker],
            cwd=clone,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        for line in listed.splitlines():
            if "::" in line:
                layers[line.strip()] = name
    return layers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--keep", type=Path, help="clone into this folder and keep it")
    parser.add_argument(
        "--read",
        nargs=4,
        metavar=("CLONE", "LOG", "SETUP_S", "TEST_S"),
        help="only read the log of a run made before in CLONE (with its two wall times)",
    )
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    if args.read:
        clone, log = Path(args.read[0]), Path(args.read[1])
        setup, test, folder = float(args.read[2]), float(args.read[3]), log.parent
    else:
        folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-suite-"))
        clone = folder / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "-q", args.commit], cwd=clone, check=True)
        setup = run(["./scripts/setup"], clone, folder / "setup.log")
        log = folder / "test.log"
        env = {**os.environ, "LK_TIMELINE": str(folder / "timeline.tsv")}
        test = run(["./scripts/test", "--durations=0", *args.pytest_args], clone, log, env)
    text = log.read_text(errors="replace")
    summary = [line for line in text.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    layers = layer_of(clone)

    # One process: "collected N items"; xdist's workers: "2 workers [N items]".
    collected = re.search(r"collected (\d+) items|workers \[(\d+) items\]", text)
    total = int(collected[1] or collected[2]) if collected else 0
    per_layer: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
    for name in layers.values():
        per_layer[name][0] += 1
    per_layer["unit and build checks"][0] = total - len(layers)
    per_file: dict[str, float] = collections.defaultdict(float)
    for line in text.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        seconds, phase, test_id = float(match[1]), match[2], match[3]
        # A setup of more than 20 s is a session fixture's: the whole-course builds.
        if phase == "setup" and seconds > 20:
            layer = "builds"
        else:
            layer = layers.get(test_id, "unit and build checks")
        per_layer[layer][1] += seconds
        per_file[test_id.split("::")[0]] += seconds

    print(
        f"commit {subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=clone, capture_output=True, text=True).stdout.strip()}"
    )
    print(f"setup (./scripts/setup, fresh clone): {setup:.0f} s")
    print(
        f"./scripts/test: {test:.0f} s wall; {summary[-1].strip('= ') if summary else 'no summary'}"
    )
    print(f"together: {setup + test:.0f} s = {(setup + test) / 60:.1f} min")
    print("\nlayer                   tests   seconds")
    for name, (count, seconds) in sorted(per_layer.items(), key=lambda item: -item[1][1]):
        print(f"{name:22} {count:6} {seconds:9.0f}")
    summed = sum(s for _, s in per_layer.values())
    if re.search(r"created: \d+/\d+ workers", text):
        print(
            f"(sums of test durations over the test processes together: {summed:.0f} s in"
            f" {test:.0f} s of wall time; a test shares the cores with the other process's)"
        )
    else:
        print(f"(sum of test durations; lint, mypy, tsc and collection: {test - summed:.0f} s)")
    print("\nslowest files")
    for name, seconds in sorted(per_file.items(), key=lambda item: -item[1])[:15]:
        print(f"  {seconds:6.0f} s  {name}")
    if (folder / "timeline.tsv").exists():
        print_timeline(folder / "timeline.tsv")
    print(f"\nlogs in {folder}")
    sys.exit(0 if summary and "failed" not in summary[-1] else 1)


if __name__ == "__main__":
    main()
