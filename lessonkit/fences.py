"""The fences of a lesson page: runnable cells and command consoles.

Authors write::

    ```pycell session="netz"
    print("Hallo")
    ```

    ```log-console
    create topic orders partitions 3
    ```

    ```ts-run
    console.log([1, 2].map((x) => x * 2));
    ```

Options go into the fence's header line, as pymdownx.superfences reads them.
Like markdown-exec, there is one validator and a table of fences (``FENCES``):
each names its options and how a block is made from the fence. The formatter
only registers the block and leaves a placeholder, because blocks must run in
page order and superfences formats nested fences (in tabs, admonitions) later
than top-level ones; ``lessonkit.extension`` runs them and fills in the
placeholders.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markdown import Markdown

from lessonkit import exercises
from lessonkit.blocks import (
    Block,
    Cell,
    ConsoleBlock,
    PageState,
    ProgressBlock,
    TsBlock,
    asserts_only,
    placeholder,
)
from lessonkit.errors import LessonError

#: The internal option that ``extension.FenceLineTagger`` adds: the fence's line in the file.
LINE_OPTION = "lkline"

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_EXCEPTION = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _flag(name: str, value: str) -> bool:
    if value == name:  # superfences gives a bare ``hidden`` the value "hidden"
        return True
    raise ValueError(
        f"„{name}“ ist ein Schalter ohne Wert: schreibe einfach `{name}`, oder lass ihn weg."
    )


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


def _positive_int(name: str) -> Callable[[str], str]:
    def read(value: str) -> str:
        if not value.isdigit() or int(value) < 1:
            raise ValueError(f'{name}=„{value}“ ist keine ganze Zahl ab 1, z. B. {name}="3".')
        return value

    return read


def _console_kind(value: str) -> str:
    if value not in ("log", "queue"):
        raise ValueError(f'kind=„{value}“ gibt es nicht: kind="log" oder kind="queue".')
    return value


Options = dict[str, Callable[[str], Any]]


@dataclass(frozen=True)
class Fence:
    """A kind of fence: its options and how a block is made from it."""

    options: Options
    make: Callable[[int, int, str, dict[str, Any]], Block]


def _make_cell(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
    check = options.get("pruefung", False)
    hidden = options.get("hidden", False) or check  # a check is never shown
    if check and options.get("raises"):
        raise exercises.FenceError(
            "Eine Prüfung (`pruefung`) erwartet keine Ausnahme: nimm `raises` heraus "
            "oder `pruefung` (dann zeigt die Zelle den Fehler)."
        )
    return Cell(
        slot=slot,
        line=line,
        code=src,
        session=options.get("session", "main"),
        hidden=hidden,
        raises=options.get("raises"),
        check=check or (hidden and not options.get("raises") and asserts_only(src)),
    )


def _console_maker(kind: str) -> Callable[[int, int, str, dict[str, Any]], Block]:
    def make(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
        rows = [(index, row) for index, row in enumerate(src.splitlines()) if row.strip()]
        extra = {k: v for k, v in options.items() if k in ("visibility_timeout", "max_versuche")}
        return ConsoleBlock(
            slot=slot,
            line=line,
            kind=kind,
            setup=[row for _, row in rows],
            source_rows=[index for index, _ in rows],
            session=options.get("session"),
            hidden=options.get("hidden", False),
            options=extra,
        )

    return make


def _make_progress(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
    return ProgressBlock(
        slot=slot, line=line, pages=[row.strip() for row in src.splitlines() if row.strip()]
    )


def _make_ts(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
    return TsBlock(slot=slot, line=line, code=src)


def _placeholder(value: str) -> str:
    """``platzhalter="z. B. [1, 2]"``: the grey hint in a prediction's answer box."""
    if not value.strip() or len(value) > 60:
        raise ValueError(
            "platzhalter braucht einen kurzen Text (1 bis 60 Zeichen), z. B. „z. B. [1, 2]“."
        )
    return value


_COMMON: Options = {"session": _session, "hidden": lambda value: _flag("hidden", value)}

#: Every fence lessonkit provides, by its name in the Markdown.
FENCES: dict[str, Fence] = {
    "pycell": Fence(
        {
            **_COMMON,
            "raises": _exception_name,
            "pruefung": lambda value: _flag("pruefung", value),
        },
        _make_cell,
    ),
    "log-console": Fence(_COMMON, _console_maker("log")),
    "queue-console": Fence(
        {
            **_COMMON,
            "visibility_timeout": _positive_int("visibility_timeout"),
            "max_versuche": _positive_int("max_versuche"),
        },
        _console_maker("queue"),
    ),
    "ts-run": Fence({}, _make_ts),
    "vorhersage": Fence(
        {"id": exercises.read_id, "session": _session, "platzhalter": _placeholder},
        exercises.make_prediction,
    ),
    "aufgabe": Fence({"id": exercises.read_id}, exercises.make_code_task),
    "konsolen-aufgabe": Fence(
        {
            "id": exercises.read_id,
            "kind": _console_kind,
            "visibility_timeout": _positive_int("visibility_timeout"),
            "max_versuche": _positive_int("max_versuche"),
        },
        exercises.make_console_task,
    ),
    "quiz": Fence(
        {"id": exercises.read_id, "mischen": lambda value: _flag("mischen", value)},
        exercises.make_quiz,
    ),
    "fortschritt": Fence({}, _make_progress),
}


def _page(md: Markdown) -> PageState:
    page = getattr(md, "lessonkit_page", None)
    if page is None:
        raise LessonError(
            "<Konfiguration>",
            None,
            "Die Blöcke von lessonkit brauchen die Erweiterung `lessonkit.extension` unter "
            "`markdown_extensions` in mkdocs.yml (vor pymdownx.superfences).",
        )
    return page


def validate(
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
    allowed = FENCES[language].options
    for key, raw in inputs.items():
        reader = allowed.get(key)
        if reader is None:
            names = ", ".join(sorted(allowed))
            raise _fence_error(
                page, line, f"Unbekannte Option „{key}“ im Block `{language}`. Erlaubt: {names}."
            )
        try:
            options[key] = reader(raw)
        except ValueError as exc:
            raise _fence_error(page, line, f"Block `{language}`: {exc}") from None
    return True


def _fence_error(page: PageState, line: int | None, message: str) -> LessonError:
    return LessonError(page.location.path, line, message)


def format_block(
    src: str, language: str, class_name: str, options: dict[str, Any], md: Markdown, **kwargs: Any
) -> str:
    """superfences formatter: register the block, leave a placeholder for it."""
    page = _page(md)
    line = options.get(LINE_OPTION) or 0
    try:
        block = FENCES[language].make(len(page.blocks), line, src, options)
    except exercises.FenceError as exc:
        where = line + 1 + exc.row if line and exc.row is not None else line or None
        raise LessonError(page.location.path, where, f"Block `{language}`: {exc}") from None
    page.blocks.append(block)
    return placeholder(block.slot)
