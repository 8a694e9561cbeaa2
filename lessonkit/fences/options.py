"""Readers of fence options: the raw text from a fence's header line -> its value.

Each raises ``ValueError`` with a German message that says what was wrong; the
validator (``lessonkit.fences.validate``) adds the fence and its file:line.
``superfences_validator`` makes a validator that superfences can call.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markdown import Markdown

from lessonkit.runtime.consoles import KINDS

#: The internal option that ``extension.FenceLineTagger`` adds: the fence's line in the file.
LINE_OPTION = "lkline"


@dataclass
class FenceHeader:
    """A fence's header line, as its validator reads it."""

    language: str
    #: The options as the author wrote them, by name (without ``lkline``).
    inputs: dict[str, str]
    #: What the fence's formatter gets: the validator puts the read options here.
    options: dict[str, Any]
    #: The fence's first line in its file; None when ``lessonkit.build.extension`` did not tag it.
    line: int | None
    md: Markdown


#: A validator as pymdownx.superfences calls it: language, inputs, options, attrs, md.
Validator = Callable[[str, dict[str, str], dict[str, Any], dict[str, Any], Markdown], bool]


def superfences_validator(check: Callable[[FenceHeader], None]) -> Validator:
    """The validator superfences calls, around ``check`` (which raises on a bad header)."""

    # The check's name and module: Zensical pickles its configuration, which finds a
    # function by that name (a closure's own name would not be found).
    @functools.wraps(check)
    def validate(
        language: str,
        inputs: dict[str, str],
        options: dict[str, Any],
        attrs: dict[str, Any],
        md: Markdown,
    ) -> bool:
        line = int(inputs.pop(LINE_OPTION, "0")) or None
        check(FenceHeader(language, inputs, options, line, md))
        return True

    return validate


def matching(pattern: str, problem: str) -> Callable[[str], str]:
    """A value that ``pattern`` matches; ``problem`` (with ``{value}``) says why not."""
    compiled = re.compile(pattern)

    def read(value: str) -> str:
        if not compiled.match(value):
            raise ValueError(problem.format(value=value))
        return value

    return read


def flag(name: str) -> Callable[[str], bool]:
    """A switch without a value (``hidden``)."""

    def read(value: str) -> bool:
        if value == name:  # superfences gives a bare ``hidden`` the value "hidden"
            return True
        raise ValueError(
            f"„{name}“ ist ein Schalter ohne Wert: schreibe einfach `{name}`, oder lass ihn weg."
        )

    return read


session = matching(
    r"^[A-Za-z0-9_-]{1,40}$",
    "session=„{value}“ ist kein gültiger Name: erlaubt sind Buchstaben, Ziffern, "
    "„-“ und „_“ (höchstens 40 Zeichen).",
)

exception_name = matching(
    r"^[A-Za-z_][A-Za-z0-9_]*$",
    'raises=„{value}“ ist kein Name einer Ausnahme, z. B. raises="ValueError".',
)


def positive_int(name: str) -> Callable[[str], str]:
    def read(value: str) -> str:
        if not value.isdigit() or int(value) < 1:
            raise ValueError(f'{name}=„{value}“ ist keine ganze Zahl ab 1, z. B. {name}="3".')
        return value

    return read


def console_kind(value: str) -> str:
    """``kind``: which console a console task has (``lessonkit.runtime.consoles.KINDS``)."""
    if value not in KINDS:
        known = " oder ".join(f'kind="{name}"' for name in KINDS)
        raise ValueError(f"kind=„{value}“ gibt es nicht: {known}.")
    return value


#: ``id``: names an exercise on its page (and its progress in the browser).
exercise_id = matching(
    r"^[a-z0-9][a-z0-9-]{0,60}$",
    'id=„{value}“ ist keine gültige id: Kleinbuchstaben, Ziffern und „-“, z. B. id="uebung-1".',
)


def placeholder(value: str) -> str:
    """``platzhalter="z. B. [1, 2]"``: the grey hint in a prediction's answer box."""
    if not value.strip() or len(value) > 60:
        raise ValueError(
            "platzhalter braucht einen kurzen Text (1 bis 60 Zeichen), z. B. „z. B. [1, 2]“."
        )
    return value
