"""The standard library on demand, for a Python started from the memory snapshot.

The snapshot already holds every module the course imports, so a reader's first visit
does without Pyodide's 2.5 MB ``python_stdlib.zip``: the worker starts from the snapshot
with an empty one in its place (``lessonkit/build/assets.py``, issue 38). The first import of a
standard-library module that is not in memory yet fetches the whole library then, once,
and the import goes on as if it had been there all along.

``install(names)`` (called by the snapshot maker, so it is part of the snapshot)
puts a finder at the end of ``sys.meta_path``: it is asked only when every other finder
came up empty, and only for a top-level name of the full library (``names``). ``fetch``
(set by the worker after the start, ``set_fetch``) returns the full zip's bytes
synchronously (a synchronous XMLHttpRequest in the browser's worker, a file read under
Node.js); without it, or when it fails, the import fails with a German message.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import zipimport
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

#: Where Pyodide keeps the standard library (``/lib/python3XY.zip``).
ZIP_PATH = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"

_fetch: Callable[[], Any] | None = None


def forget_zip_contents() -> None:
    """Drop what Python remembers of the standard library's zip (its table of contents,
    the importers for it): the reader's file at that path is another one."""
    zipimport._zip_directory_cache.pop(ZIP_PATH, None)  # type: ignore[attr-defined]
    for path in [
        p for p in sys.path_importer_cache if p == ZIP_PATH or p.startswith(ZIP_PATH + "/")
    ]:
        del sys.path_importer_cache[path]


def set_fetch(fetch: Callable[[], Any] | None) -> None:
    """How to get the full zip's bytes (a function without arguments)."""
    global _fetch
    _fetch = fetch


class StdlibOnDemand(importlib.abc.MetaPathFinder):
    """Loads the full standard library the first time a module of it is missing."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)
        self.loaded = False

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if self.loaded or fullname.partition(".")[0] not in self.names:
            return None
        self.load(fullname)
        return importlib.machinery.PathFinder.find_spec(fullname, path)

    def load(self, fullname: str) -> None:
        problem = "der Browser kann sie gerade nicht laden"
        if _fetch is not None:
            try:
                answer = _fetch()
                data = answer.to_bytes() if hasattr(answer, "to_bytes") else bytes(answer)
            except Exception as error:  # any failure becomes the German message
                problem = f"das Laden schlug fehl ({error})"
            else:
                with open(ZIP_PATH, "wb") as file:
                    file.write(data)
                forget_zip_contents()
                importlib.invalidate_caches()
                self.loaded = True
                return
        raise ModuleNotFoundError(
            f"Das Modul „{fullname}“ gehört zu Pythons Standardbibliothek, die diese Seite "
            f"erst bei Bedarf lädt, und {problem}. Prüfe die Verbindung und führe die "
            "Zelle noch einmal aus.",
            name=fullname,
        )


def install(names: Sequence[str]) -> None:
    """Put the finder for ``names`` (the full library's top-level names) last in
    ``sys.meta_path`` (once) and forget the zip's contents."""
    if not any(isinstance(finder, StdlibOnDemand) for finder in sys.meta_path):
        sys.meta_path.append(StdlibOnDemand(names))
    forget_zip_contents()


def top_level_names() -> list[str]:
    """The top-level module and package names in the standard library's zip, from what
    zipimport read of it (call after an import from it, before ``install``)."""
    entries = zipimport._zip_directory_cache[ZIP_PATH]  # type: ignore[attr-defined]
    names = set()
    for entry in entries:
        first, _, rest = entry.replace("\\", "/").partition("/")
        if rest:
            names.add(first)
        elif first.endswith((".py", ".pyc")):
            names.add(first.rsplit(".", 1)[0])
    return sorted(names)
