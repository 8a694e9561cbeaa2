"""Mistakes of an author that the build would otherwise let through to the reader.

Each check names the file and line and says in German what is wrong and what to do:

- a misspelt fence (```` ```pycel ````): superfences would make it a plain code block,
  so the reader sees code that does not run;
- a backtick fence inside an exercise's section: it ends the exercise's own fence there;
- an ``import`` of a module the browser's Python does not have (``import requests``): the
  build's CPython may have it, the reader's Pyodide does not;
- a check that cannot fail (``assert True``, a ``pruefung`` without a single ``assert``).

The build runs them (``lessonkit.build.extension`` for the fences, each kind's
``validate_page`` for the code), before any block runs.
"""

from __future__ import annotations

import ast
import difflib
import functools
import importlib.util
import re
import sys
import zipfile
from pathlib import Path

from lessonkit.build.assets import OUT, PACKAGED, ROOT

#: Python's standard library as the site ships it to the browser (Pyodide's zip).
STDLIB_ZIP = OUT / "pyodide" / "python_stdlib.zip"


def misspelt_fence(language: str, known: set[str]) -> str | None:
    """The message for a fence whose language is close to one of lessonkit's, else None."""
    if not language or language in known:
        return None
    close = difflib.get_close_matches(language, sorted(known), n=1, cutoff=0.8)
    if not close:
        return None
    return (
        f"Den Block ```{language} gibt es nicht; so wird er ein gewöhnlicher Codeblock, der "
        f"nicht läuft. Meintest du ```{close[0]}?"
    )


def nested_fence(outer: str, fence: str) -> str:
    """The message for a backtick fence inside the exercise ``outer`` (its own fence)."""
    return (
        f"Ein Codeblock mit {fence} im Block `{outer}` beendet den Block der Übung hier, "
        "und der Rest fehlt ihm. Schreibe den inneren Codeblock mit ~~~ (oder den Block "
        f"der Übung mit einem Zeichen mehr: {fence[0] * (len(fence) + 1)}{outer})."
    )


#: Compiled modules of CPython that Pyodide leaves out (its docs, "Python standard
#: library": no terminal, no GUI, no dbm, no users).
NOT_IN_PYODIDE = frozenset(
    {"_tkinter", "_curses", "_curses_panel", "_dbm", "_gdbm", "readline", "pwd", "grp"}
)


def _compiled(name: str) -> bool:
    """A standard module that CPython has as compiled code, not as a ``.py`` file or
    package (``math``, ``_json``): Pyodide builds those into its WebAssembly."""
    if name in sys.builtin_module_names:
        return True
    spec = importlib.util.find_spec(name)
    return spec is not None and spec.origin is not None and spec.origin.endswith(".so")


@functools.cache
def shipped_modules() -> frozenset[str]:
    """Top-level modules the reader's Python can import: Pyodide's standard library as the
    site serves it (its zip of Python files), the compiled ones, and the course's packages."""
    names = {folder for folder, _ in PACKAGED}
    names |= {n for n in sys.stdlib_module_names if n not in NOT_IN_PYODIDE and _compiled(n)}
    if STDLIB_ZIP.exists():  # made by lessonkit.build.assets before any page is built
        with zipfile.ZipFile(STDLIB_ZIP) as stdlib:
            for name in stdlib.namelist():
                top = name.split("/", 1)[0]
                names.add(top.removesuffix(".pyc").removesuffix(".py"))
    else:  # only outside a build: then CPython's own list stands in
        names |= set(sys.stdlib_module_names)
    return frozenset(names)


def foreign_imports(code: str) -> list[tuple[int, str]]:
    """``(row, module)`` for each import (0-based row in ``code``) the browser cannot load."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []  # the run reports it with its line
    shipped = shipped_modules()
    # Of lessonkit only the browser's part is shipped (lessonkit.build.assets.PACKAGED).
    lessonkit = {"lessonkit"} | {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for folder, files in PACKAGED
        if folder.startswith("lessonkit")
        for path in (ROOT / folder).glob(files)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        for module in modules:
            top = module.split(".", 1)[0]
            if top not in shipped or (top == "lessonkit" and module not in lessonkit):
                found.append((node.lineno - 1, module))
    return found


def import_message(label: str, module: str) -> str:
    return (
        f"{label}: `import {module}` läuft beim Build, aber nicht im Browser: Das Python der "
        f"Seite (Pyodide) hat „{module}“ nicht. Es hat die Standardbibliothek, pysim und den "
        "Teil von lessonkit, den die Seite mitbringt; schreib den Code damit."
    )


def _trivial(test: ast.expr) -> bool:
    """An assertion that always holds: a true constant, or the same thing on both sides."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        same = ast.dump(test.left) == ast.dump(test.comparators[0])
        return same and isinstance(test.ops[0], ast.Eq | ast.Is | ast.LtE | ast.GtE)
    return False


def cannot_fail(body: list[ast.stmt]) -> bool:
    """Statements that check nothing: no ``raise``, no call that could raise, and every
    ``assert`` one that always holds (``assert True``, ``assert x == x``)."""
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Raise | ast.Call):
                return False
            if isinstance(node, ast.Assert) and not _trivial(node.test):
                return False
            if isinstance(node, ast.Subscript | ast.Attribute | ast.BinOp):
                return False  # a lookup or arithmetic can fail on its own
            if isinstance(node, ast.While | ast.For | ast.Await | ast.With | ast.Name):
                return False  # may not end, or fail on what it reads (the run decides)
    return True


def checks_that_cannot_fail(pruefung: str) -> list[tuple[int, str]]:
    """``(row, name)`` of each ``@pruefe`` function of ``pruefung`` that cannot fail."""
    try:
        tree = ast.parse(pruefung)
    except SyntaxError:
        return []
    found = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names = [
            d.args[0].value
            for d in node.decorator_list
            if isinstance(d, ast.Call)
            and isinstance(d.func, ast.Name)
            and d.func.id == "pruefe"
            and d.args
            and isinstance(d.args[0], ast.Constant)
        ]
        if names and cannot_fail(node.body):
            found.append((node.decorator_list[0].lineno - 1, str(names[0])))
    return found


def cell_cannot_fail(code: str) -> bool:
    """A hidden check of the prose (``pycell pruefung``) that checks nothing."""
    try:
        return cannot_fail(ast.parse(code).body)
    except SyntaxError:
        return False


#: The sections of each exercise kind whose code runs in the reader's browser.
CODE_SECTIONS: dict[str, tuple[str, ...]] = {
    "vorhersage": ("code",),
    "aufgabe": ("vorbereitung", "start", "loesung"),
    "herausforderung": ("start", "loesung"),
}


def cannot_fail_message(label: str, name: str) -> str:
    return (
        f"{label}: Die Prüfung „{name}“ kann nicht scheitern (kein `assert`, das falsch "
        "werden kann, kein Aufruf, kein `raise`): Sie prüft nichts. Prüfe, was die "
        'Aufgabe verlangt, z. B. `assert ergebnis == 42, "…"`.'
    )


_GLOSSARY_LINK = re.compile(r"glossar\.md#([A-Za-z0-9_-]+)")


def glossary_anchors(docs_dir: str) -> set[str]:
    """The anchors of the glossary's entries (``### Begriff {#anker}``)."""
    path = Path(docs_dir) / "glossar.md"
    if not path.exists():
        return set()
    return set(re.findall(r"\{#([a-z0-9-]+)\}", path.read_text(encoding="utf-8")))


def broken_glossary_link(line: str, anchors: set[str]) -> str | None:
    """The message for a link into the glossary whose entry does not exist, else None."""
    for anchor in _GLOSSARY_LINK.findall(line):
        if anchor not in anchors:
            close = difflib.get_close_matches(anchor, sorted(anchors), n=1, cutoff=0.6)
            hint = f" Meintest du „{close[0]}“?" if close else ""
            return (
                f"Den Eintrag glossar.md#{anchor} gibt es nicht.{hint} Ein Eintrag trägt seinen "
                "Anker in der Überschrift: „### Begriff {#anker}“."
            )
    return None
