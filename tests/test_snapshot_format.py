"""The stored snapshot format (lessonkit/node/snapshot_format.mjs) round-trips exactly."""

from __future__ import annotations

import subprocess

from tests.conftest import ROOT


def test_pack_and_unpack_round_trip() -> None:
    done = subprocess.run(
        ["node", "tests/node/snapshot_format_check.mjs"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok ")
