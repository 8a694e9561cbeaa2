"""The same sources make the same runtime files, so a deployment that changes no Python
changes neither their names nor sw.js (issue 28): returning readers keep what they have."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from lessonkit.build import assets
from lessonkit.build.assets import NODE_SCRIPTS, OUT, ROOT, build_packages, package_zip

pytestmark = pytest.mark.pyodide


def make_snapshot(packages: Path, out: Path) -> bytes:
    """A snapshot made by a Node.js process of its own."""
    done = subprocess.run(
        ["node", str(NODE_SCRIPTS / "make_snapshot.mjs"), str(packages), str(out)],
        cwd=ROOT,
        capture_output=True,
    )
    assert done.returncode == 0, (done.stdout + done.stderr).decode(errors="replace")
    return out.read_bytes()


def test_a_new_snapshot_is_the_same_bytes_as_the_kept_one(tmp_path: Path) -> None:
    # The kept one was made by another process, earlier (this run's generated assets, or a
    # run before it): a snapshot made now from the same packages must equal it byte for byte.
    packages = build_packages(OUT)
    kept = assets.build_snapshot(packages, OUT)
    assert kept is not None
    new = make_snapshot(OUT / packages, tmp_path / "neu.lks")
    assert kept.endswith(f"-{hashlib.sha256(new).hexdigest()}.lks.zst"), kept
    assert assets.compress_zstd(new) == (OUT / kept).read_bytes()
    # A snapshot holds Python's memory: 31 MB, most of it zero or the module's own start.
    assert len(new) > 1_000_000


def test_the_package_zip_follows_its_sources_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = package_zip()
    for folder in {folder for folder, _ in assets.PACKAGED}:
        shutil.copytree(ROOT / folder, tmp_path / folder, dirs_exist_ok=True)
    monkeypatch.setattr(assets, "ROOT", tmp_path)
    assert package_zip() == original  # another checkout, the same bytes
    init = tmp_path / "pysim" / "__init__.py"
    init.write_text(init.read_text() + "\n# a change\n")
    assert package_zip() != original


def test_the_bytecode_files_are_the_same_bytes_when_made_again(tmp_path: Path) -> None:
    # As the snapshot: a new deployment of the same Python keeps the bytecode's names.
    packages = build_packages(OUT)
    kept = assets.build_bytecode(packages, OUT)
    assert kept is not None
    made = {part: tmp_path / f"{part}.zip" for part in ("stdlib", "packages")}
    done = subprocess.run(
        [
            "node",
            str(NODE_SCRIPTS / "make_bytecode.mjs"),
            str(OUT / packages),
            *map(str, made.values()),
        ],
        cwd=ROOT,
        capture_output=True,
    )
    assert done.returncode == 0, (done.stdout + done.stderr).decode(errors="replace")
    for part, path in made.items():
        assert assets.compress_zstd(path.read_bytes()) == (OUT / kept[part]).read_bytes(), part
