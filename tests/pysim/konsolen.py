"""What the console tests share: a console after a script, and one line run under the rules
every result keeps."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from pysim.console import ConsoleResult
from pysim.console.basis import BasisKonsole

K = TypeVar("K", bound=BasisKonsole[Any])

#: Übung 1 von Lektion 1: A ist langsam, B und C holen sich Arbeit.
UEBUNG_1 = [
    "send zahlung-1",
    "send zahlung-2",
    "receive as A",
    "tick 2",
    "receive as B",
    "ack 2",
    "tick 2",
    "receive as C",
]

#: Lektion 2: drei Einträge in „orders“, die Gruppe billing hat sie gelesen.
LOG_LEKTION_2 = [
    "create topic orders partitions 3",
    'produce orders key=customer-7 {"order":61,"total":12.40}',
    'produce orders key=order-62 {"order":62}',
    'produce orders {"order":63}',
    "consume orders group billing from-beginning",
]


def vorbereitet(konsole: K, zeilen: Iterable[str]) -> K:
    """``konsole`` after ``zeilen``, each of which must succeed."""
    for zeile in zeilen:
        r = konsole.run(zeile)
        assert r.ok, (zeile, r.text)
    return konsole


def gleicher_zustand(neu: Callable[[], BasisKonsole[Any]], zeilen: Sequence[str]) -> None:
    """The same lines on two new consoles leave the same state (no set order, no wall clock)."""

    def lauf() -> str:
        konsole = neu()
        for zeile in zeilen:
            konsole.run(zeile)
        return konsole.state_dump()

    assert lauf() == lauf()


def ausfuehren(konsole: BasisKonsole[Any], zeile: str) -> ConsoleResult:
    """Runs ``zeile`` and checks what holds for every result: the same JSON fields, a failure
    that says why and changes nothing, a picture that is well-formed SVG."""
    vorher = konsole.state_dump()
    r = konsole.run(zeile)
    assert isinstance(r, ConsoleResult)
    assert sorted(json.loads(r.to_json())) == ["clear", "command", "ok", "svg", "text"]
    if not r.ok:
        assert konsole.state_dump() == vorher, zeile
        assert r.svg is None
        assert r.text
    if r.svg is not None:
        ET.fromstring(r.svg)
    return r


def _fliesstext(zeile: str) -> bool:
    """A line of prose: not indented, no table columns (two spaces)."""
    return bool(zeile) and not zeile[0].isspace() and "  " not in zeile


def absaetze_ganz(text: str) -> None:
    """Every sentence of ``text`` stays on its line: the console never breaks prose itself (the
    browser wraps it, with a hanging indent). A line of prose that does not end a sentence
    followed by one that starts in lower case or with "(" is a sentence broken in two."""
    zeilen = text.split("\n")
    for a, b in itertools.pairwise(zeilen):
        if _fliesstext(a) and _fliesstext(b) and a[-1] not in ".:?!":
            assert not (b[0].islower() or b[0] == "(") or b.startswith("t="), (a, b)
