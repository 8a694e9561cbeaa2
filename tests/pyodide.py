"""Run cells in real Pyodide under Node.js (tests/node/run_cells.mjs), one process per session.

The package zip and the memory snapshot are the site's own (``docs/assets/generated``,
made by ``lessonkit.build.assets`` and reused while their inputs are unchanged), so the tests
run exactly what a reader's browser gets.
"""

from __future__ import annotations

import json
import select
import subprocess
from pathlib import Path
from typing import IO, Any, Literal

from lessonkit.build.assets import OUT, ROOT, build_bytecode, build_packages, build_snapshot
from lessonkit.build.execute import run_sync
from lessonkit.runtime.kernel import Kernel

#: How Pyodide starts (tests/node/run_cells.mjs).
Start = Literal["plain", "snapshot", "bytecode"]

#: Seconds a job may take: the largest (every cell of the site) must fit on a busy CI machine.
JOB_TIMEOUT = 600.0


class PyodideRunner:
    """One Node.js process with Pyodide; ``run`` sends it a job and waits for the answer."""

    def __init__(self, log: Path) -> None:
        packages = build_packages(OUT)
        snapshot = build_snapshot(packages, OUT)
        assert snapshot is not None, "no snapshot could be made"
        bytecode = build_bytecode(packages, OUT)
        assert bytecode is not None, "no bytecode could be made"
        self.log_path = log
        self._log: IO[bytes] = log.open("wb")
        self.process = subprocess.Popen(
            [
                "node",
                "tests/node/run_cells.mjs",
                str(OUT / packages),
                str(OUT / snapshot),
                str(OUT / bytecode["stdlib"]),
                str(OUT / bytecode["packages"]),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
        )

    def run(self, pages: list[dict[str, Any]], start: Start = "plain") -> dict[str, Any]:
        """``pages``: [{"name", "cells": [{"session", "code", "label"}]}] -> results per page.

        ``start``: how Pyodide starts — plainly, from the memory snapshot the site ships,
        or from its bytecode files (the two starts the site's worker chooses from).
        """
        self.send(pages, start)
        return self.receive()

    def send(self, pages: list[dict[str, Any]], start: Start = "plain") -> None:
        """Start ``run``'s job and return at once: the test may work meanwhile (CPython
        on the other core); ``receive`` waits for the answer."""
        assert self.process.stdin is not None
        job = json.dumps({"start": start, "pages": pages}) + "\n"
        try:
            self.process.stdin.write(job.encode("utf-8"))
            self.process.stdin.flush()
        except BrokenPipeError:
            raise AssertionError(f"Pyodide under Node.js has ended:\n{self.errors()}") from None

    def receive(self) -> dict[str, Any]:
        """The answer to the job ``send`` started."""
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], JOB_TIMEOUT)
        line = self.process.stdout.readline() if ready else b""
        assert line, f"Pyodide under Node.js did not answer:\n{self.errors()}"
        answer: dict[str, Any] = json.loads(line)
        assert "error" not in answer, answer.get("error")
        return answer

    def errors(self) -> str:
        """The end of what Node.js wrote to stderr."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-3000:]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()


def output_of_cell(code: str) -> str:
    """What one cell prints in Pyodide started from the site's memory snapshot (for the
    benchmarks: ``benchmarks/bench_challenges.py``, ``benchmarks/bench_raft.py``)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        runner = PyodideRunner(Path(folder) / "node.txt")
        try:
            answer = runner.run(
                [{"name": "cell", "cells": [{"session": "s", "code": code, "label": "s"}]}],
                start="snapshot",
            )
        finally:
            runner.close()
    result = answer["pages"][0]["results"][0]
    text = "".join(chunk for _, chunk in result["output"]).strip()
    assert text, result
    return text


def run_natively(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same cells in CPython, with the build's kernel: [{"session", "code", "label"}]."""

    async def run_all() -> list[dict[str, Any]]:
        kernel = Kernel()
        return [(await kernel.run(c["session"], c["code"], c["label"])).to_dict() for c in cells]

    return run_sync(run_all)


def output_natively(code: str) -> str:
    """What one cell prints in CPython with the build's kernel; the cell must not fail."""
    [result] = run_natively([{"session": "s", "code": code, "label": "s"}])
    assert result["error"] is None, result["error"]
    return "".join(chunk for _, chunk in result["output"])


def same_in_pyodide(
    pyodide: PyodideRunner, name: str, code: str, *, only_output: bool = False
) -> str:
    """One cell runs without an error and gives the same result in Pyodide as natively (with
    ``only_output``: the same output); returns what it printed."""
    cells = [{"session": name, "code": code, "label": name}]
    [theirs] = pyodide.run([{"name": name, "cells": cells}])["pages"][0]["results"]
    [ours] = run_natively(cells)
    assert ours["error"] is None and theirs["error"] is None, (ours, theirs)
    if only_output:
        assert theirs["output"] == ours["output"], "Pyodide weicht von CPython ab"
    else:
        assert theirs == ours, "Pyodide weicht von CPython ab"
    return "".join(chunk for _, chunk in ours["output"])
