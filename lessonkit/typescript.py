"""Run the TypeScript of ``ts-run`` fences with Node.js, at build time.

The "Von JS/TS her gedacht" parts of a lesson show TypeScript beside Python.
Their output is produced by Node.js (types stripped by esbuild), never typed
by hand, and the test suite runs them again to check.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

RUNNER = Path(__file__).resolve().parent / "node" / "run_ts.mjs"
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class TsResult:
    output: str
    error: str | None


def run_typescript(snippets: list[str]) -> list[TsResult]:
    """Run each snippet as its own ES module in one Node.js process."""
    if not snippets:
        return []
    done = subprocess.run(
        ["node", str(RUNNER)],
        input=json.dumps(snippets),
        capture_output=True,
        text=True,
        cwd=ROOT,  # esbuild comes from the project's node_modules
        timeout=120,
    )
    if done.returncode != 0:
        raise RuntimeError(f"Node.js konnte die TypeScript-Blöcke nicht ausführen:\n{done.stderr}")
    return [TsResult(item["output"], item["error"]) for item in json.loads(done.stdout)]
