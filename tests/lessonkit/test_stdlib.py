"""The standard library on demand (lessonkit/runtime/stdlib.py, issue 38): a module missing from
the empty zip a snapshot start gets is fetched with the whole library, once; a failed
fetch is a German ModuleNotFoundError. Run natively with a zip of our own at the path."""

from __future__ import annotations

import io
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from lessonkit.runtime import stdlib


def zip_with(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


@pytest.fixture
def empty_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "python3XY.zip"
    path.write_bytes(zip_with({}))
    monkeypatch.setattr(stdlib, "ZIP_PATH", str(path))
    monkeypatch.syspath_prepend(str(path))
    before = list(sys.meta_path)
    yield path
    sys.meta_path[:] = before
    for name in ("lkfach", "lkpaket", "lkpaket.teil"):
        sys.modules.pop(name, None)
    stdlib.set_fetch(None)


def test_a_missing_module_of_the_library_is_fetched_once(empty_library: Path) -> None:
    full = zip_with(
        {"lkfach.py": "WERT = 1\n", "lkpaket/__init__.py": "", "lkpaket/teil.py": "X = 2\n"}
    )
    fetched = []
    stdlib.set_fetch(lambda: fetched.append(1) or full)
    stdlib.install(["lkfach", "lkpaket"])
    import lkfach  # type: ignore[import-not-found]
    import lkpaket.teil  # type: ignore[import-not-found]

    assert (lkfach.WERT, lkpaket.teil.X) == (1, 2)
    assert fetched == [1]
    assert empty_library.read_bytes() == full


def test_other_names_are_not_its_business(empty_library: Path) -> None:
    stdlib.set_fetch(lambda: pytest.fail("fetched for a name outside the library"))
    stdlib.install(["lkfach"])
    with pytest.raises(ModuleNotFoundError, match="No module named 'lkanders'"):
        import lkanders  # type: ignore[import-not-found]  # noqa: F401


@pytest.mark.parametrize("fetch", [None, "fails"])
def test_a_library_that_cannot_be_fetched_is_said_in_german(
    empty_library: Path, fetch: str | None
) -> None:
    def failing() -> bytes:
        raise OSError("HTTP 404")

    stdlib.set_fetch(failing if fetch else None)
    stdlib.install(["lkfach"])
    with pytest.raises(ModuleNotFoundError, match="Standardbibliothek") as raised:
        import lkfach  # type: ignore[import-not-found]  # noqa: F401
    assert raised.value.name == "lkfach"
    assert ("HTTP 404" in str(raised.value)) == bool(fetch)
    assert empty_library.read_bytes() == zip_with({})


def test_installing_twice_adds_one_finder(empty_library: Path) -> None:
    stdlib.install(["lkfach"])
    stdlib.install(["lkfach"])
    assert sum(isinstance(f, stdlib.StdlibOnDemand) for f in sys.meta_path) == 1
