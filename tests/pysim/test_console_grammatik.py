"""Completion and parsing agree: both walk the same grammar.

Property: every completion a console offers leads to a line that the parser accepts or that
only asks for more (``EingabeFehlt``), never to a line it rejects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.console import LogKonsole, QueueKonsole, SagaKonsole
from pysim.console.basis import BasisKonsole
from pysim.console.parser import EingabeFehler, EingabeFehlt
from pysim.console.werte import waehle_namen
from pysim.raft.konsole import RaftKonsole
from tests.pysim.konsolen import vorbereitet

LOG_VORBEREITUNG = [
    "create topic orders partitions 3",
    "create topic stock",
    'produce orders key=customer-7 {"order":61}',
    'produce orders {"order":62}',
    "consume orders group billing",
    "consume orders group billing as billing-2 no-commit",
    "consume stock group analytics from-beginning",
    "max-poll 3",
    "tick 2",
    "consume orders group billing",
    "tick 2",
]
QUEUE_VORBEREITUNG = ["send a", "send b", "receive as A", "receive as B", "tick 4", "ack 2"]
SAGA_VORBEREITUNG = ["start b7", "stoerung ablehnen versand", "tick 3"]


def log_konsole() -> LogKonsole:
    return vorbereitet(LogKonsole(), LOG_VORBEREITUNG)


def queue_konsole() -> QueueKonsole:
    return vorbereitet(QueueKonsole(max_versuche=2), QUEUE_VORBEREITUNG)


def saga_konsole() -> SagaKonsole:
    return vorbereitet(SagaKonsole(), SAGA_VORBEREITUNG)


def raft_konsole() -> RaftKonsole:
    return vorbereitet(RaftKonsole(), ["tick 40", "write x 1", "partition n1", "tick 5"])


def urteil(konsole: BasisKonsole[Any], zeile: str) -> str:
    """``ok``, ``mehr`` (the line is a prefix of a command) or the parser's error."""
    try:
        konsole.parse(zeile)
    except EingabeFehlt:
        return "mehr"
    except EingabeFehler as e:
        return str(e)
    return "ok"


def pruefe_gang(konsole: BasisKonsole[Any], data: st.DataObject) -> None:
    """Walks a line word by word through completions, checking each offered word."""
    zeile = ""
    for _ in range(9):
        kandidaten = konsole.complete(zeile)
        if not kandidaten:
            return
        for kandidat in kandidaten:
            assert urteil(konsole, zeile + kandidat) in ("ok", "mehr"), (zeile, kandidat)
        wahl = data.draw(st.sampled_from(kandidaten))
        # A started word offers what starts with it, the chosen word among them.
        anfang = wahl[: data.draw(st.integers(1, len(wahl)))]
        assert wahl in konsole.complete(zeile + anfang)
        assert all(k.lower().startswith(anfang.lower()) for k in konsole.complete(zeile + anfang))
        # "key=" is the start of a word: the key itself follows without a space.
        zeile += wahl + ("customer-7 " if wahl.endswith("=") else " ")
        if data.draw(st.booleans()) and urteil(konsole, zeile) == "ok":
            konsole.run(zeile)  # change the state now and then; later completions follow it
            zeile = ""


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_log_completion_leads_to_lines_the_parser_accepts(data: st.DataObject) -> None:
    pruefe_gang(log_konsole(), data)


@pytest.mark.parametrize("konsole", [queue_konsole, saga_konsole, raft_konsole])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_completion_leads_to_lines_the_parser_accepts(
    konsole: Callable[[], BasisKonsole[Any]], data: st.DataObject
) -> None:
    pruefe_gang(konsole(), data)


@pytest.mark.parametrize(
    ("zeile", "erwartet"),
    [
        ("consume orders group billing", "ok"),
        ("consume orders group", "mehr"),
        ("consume orders", "mehr"),
        ("produce orders key=", "mehr"),
        ("reset group billing to", "mehr"),
        ("tick", "ok"),
        ("", "ok"),
        ("# nur ein Kommentar", "ok"),
    ],
)
def test_parse_tells_complete_from_unfinished(zeile: str, erwartet: str) -> None:
    assert urteil(log_konsole(), zeile) == erwartet


def test_parse_rejects_without_changing_anything() -> None:
    c = log_konsole()
    vorher = c.state_dump()
    assert "gibt es nicht" in urteil(c, "read nirgends")
    assert "Zu viele Wörter" in urteil(c, "topics extra")
    assert c.state_dump() == vorher


@pytest.mark.parametrize(
    ("text", "wer", "liste", "erwartet"),
    [
        ("n2", "Den Knoten", "Es gibt", "n2"),
        ("N2", "Den Knoten", "Es gibt", "n2"),
        ("n9", "Den Knoten", "Es gibt", "Den Knoten „n9“ gibt es nicht. Es gibt: n1, n2."),
        ("N9", "Das Replikat", "Es gibt", "Das Replikat „N9“ gibt es nicht. Es gibt: n1, n2."),
        (
            "x" * 40,
            "Einen Schritt",
            "Schritte",
            f"Einen Schritt „{'x' * 29}…“ gibt es nicht. Schritte: n1, n2.",
        ),
    ],
)
def test_waehle_namen_lowercases_or_names_what_there_is(
    text: str, wer: str, liste: str, erwartet: str
) -> None:
    try:
        gelesen = waehle_namen(text, ["n1", "n2"], wer, liste=liste)
    except EingabeFehler as e:
        gelesen = str(e)
    assert gelesen == erwartet
