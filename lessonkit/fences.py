"""The ``pycell`` fence: a runnable Python cell in a lesson page.

Authors write::

    ```pycell
    print("Hallo")
    ```

Options go into the fence's header line, as pymdownx.superfences reads them:

* ``session="name"``: run in another namespace than the page's shared ``main``;
* ``hidden``: setup code that runs (at build time and in the browser, before
  the cells after it) but is not shown;
* ``raises="ValueError"``: the cell is meant to raise this exception; the build
  fails if it does not.

Like markdown-exec, there is one validator and a table of formatters; the
formatter only registers the cell and leaves a placeholder, because cells must
run in page order and superfences formats nested fences (in tabs, admonitions)
later than top-level ones. ``lessonkit.extension`` runs them and fills in the
placeholders.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown import Markdown

from lessonkit.errors import LessonError
from lessonkit.source import SourceLocation

#: The internal option that ``extension.FenceLineTagger`` adds: the fence's line in the file.
LINE_OPTION = "lkline"

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_EXCEPTION = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Cell:
    """One ``pycell`` block of a page, as the author wrote it."""

    slot: int  # order in which superfences met it; names its placeholder
    line: int  # line of the opening fence in the Markdown file
    code: str
    session: str = "main"
    hidden: bool = False
    raises: str | None = None
    label: str = "Zelle"  # "Zelle 3": set once the page order is known


@dataclass
class PageState:
    """What the build knows about the page being converted."""

    location: SourceLocation
    cells: list[Cell] = field(default_factory=list)


def placeholder(slot: int) -> str:
    """The marker a formatter leaves where the finished cell goes."""
    return f"<!--lessonkit-cell-{slot}-->"


PLACEHOLDER = re.compile(r"<!--lessonkit-cell-(\d+)-->")


def _flag(name: str, value: str) -> bool:
    if value in (name, "true", "1", "ja"):
        return True
    if value in ("false", "0", "nein"):
        return False
    raise ValueError(f'„{name}“ ist ein Schalter: schreibe einfach `{name}` (oder {name}="false").')


def _session(value: str) -> str:
    if not _NAME.match(value):
        raise ValueError(
            f"session=„{value}“ ist kein gültiger Name: erlaubt sind Buchstaben, Ziffern, "
            "„-“ und „_“ (höchstens 40 Zeichen)."
        )
    return value


def _exception_name(value: str) -> str:
    if not _EXCEPTION.match(value):
        raise ValueError(
            f'raises=„{value}“ ist kein Name einer Ausnahme, z. B. raises="ValueError".'
        )
    return value


#: Allowed options of the ``pycell`` fence and how each value is read.
CELL_OPTIONS: dict[str, Callable[[str], Any]] = {
    "session": _session,
    "hidden": lambda value: _flag("hidden", value),
    "raises": _exception_name,
}


def _page(md: Markdown) -> PageState:
    page = getattr(md, "lessonkit_page", None)
    if page is None:
        raise LessonError(
            "<Konfiguration>",
            None,
            "Der Block `pycell` braucht die Erweiterung `lessonkit.extension` unter "
            "`markdown_extensions` in mkdocs.yml.",
        )
    return page


def validate_cell(
    language: str,
    inputs: dict[str, str],
    options: dict[str, Any],
    attrs: dict[str, Any],
    md: Markdown,
) -> bool:
    """superfences validator: check every option, with a precise message on error."""
    page = _page(md)
    line = int(inputs.pop(LINE_OPTION, "0")) or None
    options[LINE_OPTION] = line
    for key, raw in inputs.items():
        reader = CELL_OPTIONS.get(key)
        if reader is None:
            allowed = ", ".join(sorted(CELL_OPTIONS))
            raise _fence_error(
                page, line, f"Unbekannte Option „{key}“ im Block `{language}`. Erlaubt: {allowed}."
            )
        try:
            options[key] = reader(raw)
        except ValueError as exc:
            raise _fence_error(page, line, f"Block `{language}`: {exc}") from None
    return True


def _fence_error(page: PageState, line: int | None, message: str) -> Exception:
    # superfences swallows every exception of a validator except its own type,
    # so wrap ours in it; the message still names file and line.
    from pymdownx.superfences import SuperFencesException

    error = LessonError(page.location.path, line, message)
    wrapped = SuperFencesException(str(error))
    wrapped.__cause__ = error
    return wrapped


def format_cell(
    src: str, language: str, class_name: str, options: dict[str, Any], md: Markdown, **kwargs: Any
) -> str:
    """superfences formatter: register the cell, leave a placeholder for it."""
    page = _page(md)
    cell = Cell(
        slot=len(page.cells),
        line=options.get(LINE_OPTION) or 0,
        code=src,
        session=options.get("session", "main"),
        hidden=options.get("hidden", False),
        raises=options.get("raises"),
    )
    page.cells.append(cell)
    return placeholder(cell.slot)
