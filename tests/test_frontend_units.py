"""The front-end's unit tests (frontend/test/*.test.ts) under Node's test runner.

They cover what the browser tests reach only through Chromium: PythonRuntime's queue
and restarts, console history, stored progress, the snapshot format and the service
worker's routing and integrity checks, the WebAssembly from its Zstandard copy.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT


def test_frontend_unit_tests_pass() -> None:
    done = subprocess.run(
        ["node", "frontend/test/run.mjs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "LK_PYTHON": sys.executable},  # zstandard, for wasm.test.ts
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "# fail 0" in done.stdout
