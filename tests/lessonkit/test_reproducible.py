"""The same sources make the same runtime files, so a deployment that changes no Python
changes neither their names nor sw.js (issue 28): returning readers keep what they have."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from lessonkit import assets
from lessonkit.assets import NODE_SCRIPTS, OUT, ROOT, build_packages, package_zip

pytestmark = pytest.mark.pyodide


def make_snapshots(packages: Path, *outs: Path) -> list[bytes]:
    """A snapshot into each of ``outs``, each made by a Node.js process of its own, at
    the same time (one on each core)."""
    made = [
        subprocess.Popen(
            ["node", str(NODE_SCRIPTS / "make_snapshot.mjs"), str(packages), str(out)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for out in outs
    ]
    for process in made:
        output, _ = process.communicate()
        assert process.returncode == 0, output.decode(errors="replace")
    return [out.read_bytes() for out in outs]


def test_two_snapshots_of_the_same_packages_are_the_same_bytes(tmp_path: Path) -> None:
    packages = OUT / build_packages(OUT)
    first, second = make_snapshots(packages, tmp_path / "eins.lks", tmp_path / "zwei.lks")
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest()
    assert assets.compress_snapshot(first) == assets.compress_snapshot(second)
    # A snapshot holds Python's memory: 31 MB, most of it zero or the module's own start.
    assert len(first) > 1_000_000


def test_the_package_zip_follows_its_sources_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = package_zip()
    for folder in {folder for folder, _ in assets.PACKAGED}:
        shutil.copytree(ROOT / folder, tmp_path / folder)
    monkeypatch.setattr(assets, "ROOT", tmp_path)
    assert package_zip() == original  # another checkout, the same bytes
    init = tmp_path / "pysim" / "__init__.py"
    init.write_text(init.read_text() + "\n# a change\n")
    assert package_zip() != original
