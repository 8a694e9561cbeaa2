"""Text from the reader's code is cut before a verdict, a message or a picture quotes it
(``pysim.fehler``: ``gekuerzt``, ``meldung``, ``wert_text``), saying in German what is missing."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from pysim.cluster import Echo, FehlerAntwort, KafkaLog, Knoten, Nachricht, lauf
from pysim.fehler import MAX_MELDUNG, MAX_WERT, gekuerzt, meldung, wert_text
from pysim.pruefer import echo
from pysim.pruefer.urteil import wert

#: What a verdict may grow to for one quoted value: the value, its note and some slack.
KNAPP = MAX_WERT + 60


def test_a_long_text_keeps_its_start_and_says_how_much_is_missing() -> None:
    assert gekuerzt("kurz", 10) == "kurz"
    assert gekuerzt("x" * 5_000_000, 10) == "xxxxxxxxxx… (4.999.990 Zeichen mehr, gekürzt)"


def test_an_exception_with_5_mb_of_text_becomes_its_start_and_a_note() -> None:
    text = meldung(ValueError("x" * 5_000_000))
    assert text == f"ValueError: {'x' * MAX_MELDUNG}… (4.999.500 Zeichen mehr, gekürzt)"
    assert meldung(KeyError("k")) == "KeyError: 'k'"
    assert meldung(ValueError()) == "ValueError"


def test_an_exception_whose_text_raises_still_has_a_message() -> None:
    class Boese(Exception):
        def __str__(self) -> str:
            raise RuntimeError("nein")

    assert meldung(Boese()) == "Boese: (Meldung nicht lesbar)"


class Riesig:
    def __repr__(self) -> str:
        return "r" * 1_000_000


class Kaputt:
    def __repr__(self) -> str:
        raise RuntimeError("kein repr")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("y" * 2_000_000, f"'{'y' * MAX_WERT}'… (1.999.900 Zeichen mehr, gekürzt)"),
        (b"y" * 2_000_000, f"b'{'y' * MAX_WERT}'… (1.999.900 Bytes mehr, gekürzt)"),
        (list(range(1_000_000)), "… (1.000.000 Einträge, gekürzt)"),
        ({"k": "v" * 1_000_000}, "… (1 Eintrag, gekürzt)"),
        ([["x" * 1_000_000]], "… (1 Eintrag, gekürzt)"),
        (Riesig(), f"{'r' * MAX_WERT}… (999.900 Zeichen mehr, gekürzt)"),
        (10**5000, "<eine ganze Zahl mit etwa 5.001 Stellen>"),
        ([10**5000], "[<eine ganze Zahl mit etwa 5.001 Stellen>]"),
        (Kaputt(), "<Kaputt>"),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, str) or len(v) > 40 else "",
)
def test_a_huge_value_is_quoted_short_saying_what_is_cut(value: object, shown: str) -> None:
    text = wert_text(value)
    assert text.endswith(shown) or text == shown
    assert len(text) < KNAPP
    assert wert(value) == text  # the checkers' word for it


def selbst() -> list[Any]:
    inner: list[Any] = [1]
    inner.append(inner)
    return inner


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        -3,
        2.5,
        "a'b\n",
        b"\x00x",
        bytearray(b"ab"),
        (),
        (1,),
        [1, "2", (3,), {4: [5]}],
        {"k": [1, 2], 3: None},
        {1, 2},
        frozenset({"a"}),
        set(),
        frozenset(),
        [[], {}],
        selbst(),
        10**4000,
    ],
    ids=lambda v: type(v).__name__,
)
def test_a_value_that_fits_is_quoted_exactly_as_python_writes_it(value: object) -> None:
    assert wert_text(value, 10_000) == repr(value)


class Werfer(Knoten):
    def bei_echo(self, nachricht: Nachricht) -> None:
        raise ValueError("x" * 5_000_000)


def test_a_handlers_5_mb_exception_is_kept_cut() -> None:
    ergebnis = lauf(Werfer, Echo(), knoten=1, seed=1, dauer=5, clients=1, timeout=4)
    fehler = ergebnis.fehler[0]
    assert fehler.fehler == f"ValueError: {'x' * MAX_MELDUNG}… (4.999.500 Zeichen mehr, gekürzt)"
    assert fehler.code == 'raise ValueError("x" * 5_000_000)'
    assert len(str(fehler)) < MAX_MELDUNG + 200


class Langes(Knoten):
    """Answers every echo with 2 MB of something else."""

    def bei_echo(self, nachricht: Nachricht) -> None:
        self.antworte(nachricht, {"type": "echo_ok", "echo": "y" * 2_000_000})


def test_a_verdict_quotes_a_huge_reply_short() -> None:
    # Of the workloads only echo's replies carry text; the others' are numbers, and a reply
    # out of form is named by ``formen.zeige`` (40 characters), never by its checker.
    ergebnis = lauf(Langes, Echo(), knoten=1, seed=1, dauer=20, clients=2)
    urteil = echo(ergebnis.geschichte)
    assert not urteil.ok
    assert "'… (1.999.900 Zeichen mehr, gekürzt) zurück" in urteil.erklaerung
    # Five findings named one by one, each with two short values: no megabytes.
    assert len(urteil.erklaerung) < 5 * (2 * KNAPP + 100)


class Speichernd(Knoten):
    """Writes 2 MB into lin-kv, then a cas that expects something else: the service's error."""

    antworten: ClassVar[list[str]] = []

    async def bei_send(self, nachricht: Nachricht) -> None:
        if Speichernd.antworten:
            return
        await self.frage("lin-kv", {"type": "write", "key": 1, "value": "v" * 2_000_000})
        try:
            await self.frage("lin-kv", {"type": "cas", "key": 1, "from": "w" * 2_000_000, "to": 2})
        except FehlerAntwort as e:
            Speichernd.antworten.append(str(e))


def test_a_services_error_quotes_the_stored_value_short() -> None:
    Speichernd.antworten = []
    lauf(Speichernd, KafkaLog(), knoten=1, seed=1, dauer=100)
    (antwort,) = Speichernd.antworten
    assert antwort.startswith("Fehler 22: der Wert ist 'vvv")
    assert "'… (1.999.900 Zeichen mehr, gekürzt), nicht 'www" in antwort
    assert len(antwort) < 2 * KNAPP + 40
