"""pysim.cluster.protokoll: what a node notes and prints is kept per run with its tick and node,
``sys.stdout`` is the caller's again after every call of a node's code, and the log, a line and
a message's text are bounded, saying what they left out."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from pysim.cluster import (
    Broadcast,
    Cluster,
    Echo,
    Knoten,
    LaufAbgebrochen,
    LeaseRegister,
    Nachricht,
    lauf,
)
from pysim.cluster.bild import raumzeit
from pysim.cluster.lauf import lauf_aus_kennung
from pysim.cluster.protokoll import (
    MAX_INHALT,
    MAX_ZEICHEN,
    MAX_ZEILEN,
    Protokoll,
    inhalt_text,
)
from tests.pysim.knoten_beispiele import LEASE_MIT_TOKEN, WEITERSAGER, klasse
from tests.pysim.svg_regeln import NS, allgemeine_regeln


class Redselig(Knoten):
    """Prints in every place a node's code runs, and notes once."""

    def __init__(self) -> None:
        print("gebaut")

    def beim_start(self) -> None:
        print("start", self.id, end="")  # a line ended by the next print
        print(" fertig")
        self.spaeter(3, self.wecker)

    def wecker(self) -> None:
        print(f"wecker {self.id}", file=sys.stderr)

    async def bei_echo(self, nachricht: Nachricht) -> None:
        print("echo", nachricht["echo"])
        await self.warte(2)
        self.notiz(f"nach dem Warten {self.uhr()}")
        print("zwei\nZeilen", end="")  # the call ends inside a line: it is a line of its own
        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})


def test_prints_and_notes_are_kept_with_tick_and_node_in_order() -> None:
    ergebnis = lauf(Redselig, Echo(), knoten=2, seed=1, dauer=6, clients=1)
    zeilen = [str(z) for z in ergebnis.protokoll]
    assert zeilen[:4] == [
        "t=0 n1: gebaut",
        "t=0 n1: start n1 fertig",
        "t=0 n2: gebaut",
        "t=0 n2: start n2 fertig",
    ], zeilen
    assert "t=3 n1: wecker n1" in zeilen and "t=3 n2: wecker n2" in zeilen
    echo = next(z for z in ergebnis.protokoll if z.text.startswith("echo "))
    danach = [
        z
        for z in ergebnis.protokoll[ergebnis.protokoll.index(echo) + 1 :]
        if z.knoten == echo.knoten and not z.text.startswith("wecker")
    ]
    # After the await: two ticks later, the note, then both printed lines.
    assert [(z.zeit - echo.zeit, z.art, z.text) for z in danach[:3]] == [
        (2, "notiz", f"nach dem Warten {echo.zeit + 2}"),
        (2, "ausgabe", "zwei"),
        (2, "ausgabe", "Zeilen"),
    ]
    assert {z.knoten for z in ergebnis.protokoll} == {"n1", "n2"}
    # The same run again, from its identity: the same log.
    wieder = lauf_aus_kennung(Redselig, Echo(), ergebnis.kennung, clients=1)
    assert wieder.protokoll == ergebnis.protokoll


def test_a_node_without_a_handler_is_noted_in_the_log() -> None:
    ergebnis = lauf(Knoten, Echo(), knoten=1, seed=1, dauer=4)
    assert any(
        z.art == "notiz" and "hat keinen Handler bei_echo" in z.text for z in ergebnis.protokoll
    )


class Wirft(Knoten):
    def bei_echo(self, nachricht: Nachricht) -> None:
        print("vor dem Fehler")
        raise ValueError("kaputt")


class Umleiter(Knoten):
    """Sets ``sys.stdout`` itself: the cluster puts the caller's back."""

    def bei_echo(self, nachricht: Nachricht) -> None:
        sys.stdout = sys.stderr = None  # type: ignore[assignment]
        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})


class EndlosMitAusgabe(Knoten):
    def bei_echo(self, nachricht: Nachricht) -> None:
        while True:
            print("noch einmal")


@pytest.mark.parametrize("knoten", [Redselig, Wirft, Umleiter])
def test_stdout_is_the_caller_s_again_after_every_call(
    knoten: type[Knoten], capsys: pytest.CaptureFixture[str]
) -> None:
    vorher = sys.stdout, sys.stderr
    ergebnis = lauf(knoten, Echo(), knoten=2, seed=2, dauer=10)
    assert (sys.stdout, sys.stderr) == vorher
    print("danach")
    assert capsys.readouterr().out == "danach\n"  # nothing of the nodes' output escaped
    if knoten is Wirft:
        assert ergebnis.fehler and "vor dem Fehler" in {z.text for z in ergebnis.protokoll}


def test_stdout_is_the_caller_s_again_when_the_loop_budget_ends_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    vorher = sys.stdout
    with pytest.raises(LaufAbgebrochen, match="endet nicht") as abbruch:
        lauf(EndlosMitAusgabe, Echo(), knoten=1, seed=1, dauer=5)
    assert sys.stdout is vorher
    assert capsys.readouterr().out == ""
    teil = abbruch.value.lauf
    assert teil is not None
    zeilen = teil.protokoll
    assert zeilen[0].text == "noch einmal" and zeilen[-1].text == "noch einmal"
    assert len(zeilen) == MAX_ZEILEN + 1  # the first and last lines, and how many were left out


class Laut(Knoten):
    def beim_start(self) -> None:
        print("x" * 5_000_000)
        for i in range(3 * MAX_ZEILEN):
            print(f"Zeile {i}")
        self.notiz("y" * (MAX_ZEICHEN + 1))


def test_the_log_keeps_its_first_and_last_lines_and_cuts_long_ones_saying_so() -> None:
    cluster = Cluster(Laut, 1)
    zeilen = cluster.protokoll.zeilen()
    assert len(zeilen) == MAX_ZEILEN + 1
    lang = zeilen[0].text
    assert lang.startswith("x" * MAX_ZEICHEN + " … (gekürzt: 5.000.000 Zeichen")
    assert len(lang) < MAX_ZEICHEN + 60
    luecke = zeilen[MAX_ZEILEN // 2]
    weg = 3 * MAX_ZEILEN + 2 - MAX_ZEILEN
    assert luecke.art == "ausgelassen"
    assert luecke.text == (
        f"… {weg} Zeilen ausgelassen: Ein Lauf hebt höchstens {MAX_ZEILEN} auf, die ersten "
        f"und die letzten {MAX_ZEILEN // 2}."
    )
    assert zeilen[MAX_ZEILEN // 2 - 1].text == f"Zeile {MAX_ZEILEN // 2 - 2}"
    assert zeilen[-2].text == f"Zeile {3 * MAX_ZEILEN - 1}"
    assert zeilen[-1].art == "notiz" and "(gekürzt: 301 Zeichen" in zeilen[-1].text


def test_one_huge_write_keeps_only_what_the_log_keeps_and_counts_the_rest() -> None:
    protokoll = Protokoll()
    strom = protokoll.strom(7, "n3")
    geschrieben = []
    schreibe = protokoll.schreibe
    protokoll.schreibe = lambda *a, **k: geschrieben.append(a) or schreibe(*a, **k)  # type: ignore[method-assign]
    strom.write("\n".join(f"z{i}" for i in range(200_000)) + "\nohne Ende")
    strom.write("\n" * 1_000_000)
    strom.schliesse()
    # Of each write only the lines the log can keep were cut out (the first ones while there
    # is room at its beginning, the last ones); the others were counted.
    assert len(geschrieben) == MAX_ZEILEN + 1 + MAX_ZEILEN // 2
    zeilen = protokoll.zeilen()
    assert protokoll.geschrieben == 200_000 + 1_000_000
    assert [z.text for z in zeilen[: MAX_ZEILEN // 2]] == [f"z{i}" for i in range(MAX_ZEILEN // 2)]
    assert zeilen[MAX_ZEILEN // 2].text.startswith("… 1.199.800 Zeilen ausgelassen")
    assert {z.text for z in zeilen[-MAX_ZEILEN // 2 :]} == {""}
    assert all((z.zeit, z.knoten) == (7, "n3") for z in zeilen if z.art == "ausgabe")
    # Lines split across writes are one line; a write that is not text is refused.
    protokoll = Protokoll()
    strom = protokoll.strom(1, "n1")
    for teil in ("a", "b\nc", "", "d\n"):
        strom.write(teil)
    strom.schliesse()
    assert [z.text for z in protokoll.zeilen()] == ["ab", "cd"]
    with pytest.raises(TypeError, match="must be str"):
        strom.write(b"bytes")  # type: ignore[arg-type]


def test_a_body_is_short_json_cut_with_an_ellipsis() -> None:
    assert inhalt_text({"type": "echo", "msg_id": 1, "echo": "hallo"}) == (
        '{"type": "echo", "msg_id": 1, "echo": "hallo"}'
    )
    lang = inhalt_text({"type": "echo", "echo": "ä" * 2_000_000})
    assert len(lang) == MAX_INHALT and lang.endswith("…")
    assert (
        inhalt_text({"s": {"b", "a", "c"}, "z": {3, 1, 2}})
        == '{"s": ["a", "b", "c"], "z": [1, 2, 3]}'
    )

    class Eigen:
        def __repr__(self) -> str:
            raise AssertionError("the reader's repr never runs")

    assert inhalt_text({"o": Eigen(), 1: 2**300}) == (
        '{"o": <Eigen>, "1": <ganze Zahl mit 301 Bit>}'
    )
    assert inhalt_text([[[[[[[[1]]]]]]]]) == "[[[[[[[…]]]]]]]"

    class Gezaehlt(list[int]):
        gelesen = 0

        def __iter__(self) -> Iterator[int]:
            for wert in super().__iter__():
                Gezaehlt.gelesen += 1
                yield wert

    assert len(inhalt_text({"v": Gezaehlt(range(1_000_000))})) == MAX_INHALT
    assert Gezaehlt.gelesen < MAX_INHALT  # only what is shown is written


def test_every_arrow_of_the_picture_carries_its_message_as_title() -> None:
    Lease = klasse(LEASE_MIT_TOKEN)
    ergebnis = lauf(Lease, LeaseRegister(), knoten=3, seed=4, dauer=30)
    svg = raumzeit(ergebnis).svg
    root = allgemeine_regeln(svg)
    gruppen = [g for g in root.iter(NS + "g") if g.get("class") == "nachricht"]
    assert gruppen, svg[:500]
    titel = [_titel(g) for g in gruppen]
    # Who sent what to whom and when, what became of it, its body: a token is readable.
    assert any(
        re.match(r"lease → n\d, t=\d+ → t=\d+ angekommen: \{.*\"token\": \d", t) for t in titel
    )
    for g in gruppen:
        linien = [el for el in g if el.tag == NS + "line"]
        # An invisible wide line under the arrow takes the pointer.
        assert "stroke-opacity:0" in (linien[0].get("style") or "")


def _titel(g: ET.Element) -> str:
    titel = g.find(NS + "title")
    assert titel is not None and titel.text
    return titel.text


def test_a_lost_message_says_where_it_was_lost() -> None:
    ergebnis = lauf(
        klasse(WEITERSAGER),
        Broadcast(),
        knoten=3,
        seed=1,
        dauer=40,
        stoerungen="10:isoliere:n1|n2.n3;30:heile",
    )
    root = allgemeine_regeln(raumzeit(ergebnis).svg)
    titel = [_titel(g) for g in root.iter(NS + "g") if g.get("class") == "nachricht"]
    assert any("verworfen: Netzpartition" in t for t in titel), titel
