"""The start from bytecode's files (lessonkit/node/make_bytecode.mjs, issue 53): what they
hold, so a reader's Python boots and imports from them without a source compiled."""

from __future__ import annotations

import io
import zipfile

import pytest
import zstandard

from lessonkit.build.assets import OUT, build_bytecode, build_packages

pytestmark = pytest.mark.pyodide

#: PEP 552: a hash-based .pyc that nothing checks against a source.
UNCHECKED_HASH = (1).to_bytes(4, "little")


@pytest.fixture(scope="module")
def bytecode() -> dict[str, zipfile.ZipFile]:
    packages = build_packages(OUT)
    names = build_bytecode(packages, OUT)
    assert names is not None, "no bytecode could be made"
    inflate = zstandard.ZstdDecompressor().decompress
    return {
        part: zipfile.ZipFile(io.BytesIO(inflate((OUT / name).read_bytes())))
        for part, name in names.items()
    }


def test_the_lean_library_holds_what_the_course_imports_as_bytecode_only(
    bytecode: dict[str, zipfile.ZipFile],
) -> None:
    archive = bytecode["stdlib"]
    names = archive.namelist()
    assert all(name.endswith(".pyc") for name in names), [n for n in names if ".pyc" not in n]
    # Pyodide's own start, the bridge's and the lessons' imports (course_imports.mjs).
    for needed in ("encodings/__init__.pyc", "_pyodide/__init__.pyc", "asyncio/__init__.pyc"):
        assert needed in names
    for needed in ("json/__init__.pyc", "dataclasses.pyc", "sqlite3/__init__.pyc"):
        assert needed in names
    # ... and not the whole library: that comes on demand (lessonkit/runtime/stdlib.py).
    assert "email/__init__.pyc" not in names and "xml/__init__.pyc" not in names
    assert len(names) < 250
    for name in names:
        assert archive.read(name)[4:8] == UNCHECKED_HASH, name
    assert all(info.compress_type == zipfile.ZIP_STORED for info in archive.infolist())


def test_the_lean_library_names_the_full_one(bytecode: dict[str, zipfile.ZipFile]) -> None:
    # For the finder that fetches the full library on demand: its top-level names.
    data = bytecode["stdlib"].read("_lessonkit_stdlib_names.pyc")
    for name in (b"email", b"xml", b"zoneinfo", b"asyncio"):
        assert name in data, name


def test_the_packages_come_as_bytecode_only(bytecode: dict[str, zipfile.ZipFile]) -> None:
    # The kernel's tracebacks show the reader's frames only: pysim's sources stay at home.
    names = set(bytecode["packages"].namelist())
    with zipfile.ZipFile(OUT / build_packages(OUT)) as packages:
        sources = set(packages.namelist())
    assert all(name.endswith(".py") for name in sources)
    assert names == {name + "c" for name in sources}
    assert "lessonkit/runtime/bridge.pyc" in names
    for name in names:
        assert bytecode["packages"].read(name)[4:8] == UNCHECKED_HASH, name
