"""Run cells in real Pyodide under Node.js (tests/node/run_cells.mjs)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from lessonkit.assets import build_packages, build_snapshot
from lessonkit.execute import run_sync
from lessonkit.kernel import Kernel
from tests.conftest import ROOT


def run_in_pyodide(
    pages: list[dict[str, Any]], tmp_path: Path, snapshot: bool = False
) -> dict[str, Any]:
    """``pages``: [{"name", "cells": [{"session", "code", "label"}]}] -> results per page.

    With ``snapshot``, Pyodide starts from the memory snapshot the site ships.
    """
    name = build_packages(tmp_path)
    job: dict[str, Any] = {"packages": str(tmp_path / name), "pages": pages}
    if snapshot:
        snapshot_name = build_snapshot(name, tmp_path)
        assert snapshot_name is not None, "no snapshot could be made"
        job["snapshot"] = str(tmp_path / snapshot_name)
    done = subprocess.run(
        ["node", str(ROOT / "tests" / "node" / "run_cells.mjs")],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def run_natively(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same cells in CPython, with the build's kernel: [{"session", "code", "label"}]."""

    async def run_all() -> list[dict[str, Any]]:
        kernel = Kernel()
        return [(await kernel.run(c["session"], c["code"], c["label"])).to_dict() for c in cells]

    return run_sync(run_all)
