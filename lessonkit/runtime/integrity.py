"""Is the judging in this Python still the course's own?

The reader's code runs in the same interpreter that judges exercises and challenges, so a
cell can replace what judges: ``import lessonkit.runtime.challenges as C; C._bestanden = lambda
teile: True`` made every challenge "solved" (issue 49). Before the reader's first code
runs (the first run or call of the page, ``lessonkit.runtime.bridge``; for a start from the
memory snapshot already when the snapshot is made, ``lessonkit/node/make_snapshot.mjs``,
which spares the reader's first run the ~70 ms it takes in Pyodide), ``JudgingRecord`` notes
every function and class of the modules a verdict depends on (``JUDGING``), the functions
and classes inside those classes and the functions inside their module-level dicts (the
bridge's ``CALLS``). Each judging call compares before and after it judges; any
difference raises ``JudgingChanged`` with a German message instead of a verdict, so the
page shows no verdict and stores no progress, and says to restart Python.

What it does not promise: it notes objects, not data (a constant set to another value is
not seen) and not the modules outside ``JUDGING``; code that knows this module can find
the record in memory and change it too. It catches a replaced checker, not a reader who
sets out to fool their own browser (whose progress is their own record anyway).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import FunctionType, ModuleType
from typing import Any

#: Modules whose functions and classes decide a verdict (prefixes end with a dot).
JUDGING = ("lessonkit.", "pysim.", "builtins", "json", "json.", "ast")

#: Packages whose classes' functions are noted too.
OWN = ("lessonkit.", "pysim.")

#: Names whose value changes in ordinary use: the REPL's last value (builtins._) and the
#: standard library fetcher the worker installs at start (lessonkit/runtime/stdlib.py).
CHANGING = frozenset({"builtins._", "lessonkit.runtime.stdlib._fetch"})

#: How many changed names a message lists.
NAMED = 3


class JudgingChanged(Exception):
    """The judging modules differ from their record: no verdict (German message)."""


def _judging(name: str) -> bool:
    return any(name.startswith(p) if p.endswith(".") else name == p for p in JUDGING)


#: One noted part: the namespace (a module's, a class's or a dict) and the key in it, the
#: object it held, for a function the code and defaults it had, and its name for messages.
Part = tuple[Any, str, Any, Any, Any, Any, str]


def _noted(value: Any) -> bool:
    """Functions and classes, the things that behave (data is not noted)."""
    return (callable(value) and not isinstance(value, ModuleType)) or isinstance(
        value, (staticmethod, classmethod, property)
    )


def _part(space: Any, key: str, value: Any, path: str) -> Part:
    if isinstance(value, FunctionType):
        return (space, key, value, value.__code__, value.__defaults__, value.__kwdefaults__, path)
    return (space, key, value, None, None, None, path)


def _module_parts(name: str, module: ModuleType) -> Iterator[Part]:
    own = getattr(module, "__dict__", {})
    for key, value in list(own.items()):
        if f"{name}.{key}" in CHANGING:
            continue
        if isinstance(value, dict):  # a table of functions, such as the bridge's CALLS
            for item, member in list(value.items()):
                if isinstance(item, str) and isinstance(member, FunctionType):
                    yield _part(value, item, member, f"{name}.{key}[{item!r}]")
            continue
        if not _noted(value):
            continue
        yield _part(own, key, value, f"{name}.{key}")
        # The course's own classes (Python's built-in types cannot be changed anyway).
        if isinstance(value, type) and value.__module__ == name and name.startswith(OWN):
            for attribute, member in list(vars(value).items()):
                if _noted(member):
                    yield _part(value, attribute, member, f"{name}.{key}.{attribute}")


def _current(space: Any, key: str) -> Any:
    if isinstance(space, dict):
        return space.get(key)
    return vars(space).get(key)


def _unchanged(part: Part) -> bool:
    space, key, value, code, defaults, kwdefaults, _ = part
    if _current(space, key) is not value:
        return False
    if code is None:
        return True
    return (
        value.__code__ is code
        and value.__defaults__ is defaults
        and value.__kwdefaults__ is kwdefaults
    )


class JudgingRecord:
    """The judging modules as they were when ``take`` ran (before any reader code)."""

    def __init__(self) -> None:
        self._parts: list[Part] | None = None
        self._modules: set[str] = set()

    def _note_new_modules(self) -> None:
        assert self._parts is not None
        for name, module in list(sys.modules.items()):
            if name in self._modules or module is None or not _judging(name):
                continue
            self._modules.add(name)
            self._parts.extend(_module_parts(name, module))

    def take(self) -> None:
        """Note the judging modules, once (later calls do nothing)."""
        if self._parts is None:
            self._parts = []
            self._note_new_modules()

    def changed(self) -> list[str]:
        """The noted parts that are now different or gone. A judging module imported
        later is noted when first seen: only a change after that counts."""
        if self._parts is None:
            return []
        changed: list[str] = []
        for part in self._parts:
            if not _unchanged(part) and part[6] not in changed:
                changed.append(part[6])
        self._note_new_modules()
        return changed

    def ensure(self) -> None:
        """Raise ``JudgingChanged`` when a noted part differs (German message)."""
        changed = self.changed()
        if not changed:
            return
        named = ", ".join(changed[:NAMED]) + (
            f" und {len(changed) - NAMED} weitere" if len(changed) > NAMED else ""
        )
        raise JudgingChanged(
            "Die Prüfung des Kurses wurde in diesem Python verändert (" + named + "), "
            "zum Beispiel von Code in einer Zelle. Deshalb gibt es hier kein Urteil, und "
            "nichts wurde als gelöst gespeichert. Starte Python neu (der Knopf „Python neu "
            "starten“) und prüfe noch einmal."
        )
