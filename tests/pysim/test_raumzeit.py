"""The one space-time picture (``pysim.raumzeit``), its panel and the linearization points."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Register, lauf
from pysim.cluster.bild import modell, raumzeit
from pysim.pruefer import linearisierbar, linearisierungspunkte, operationen
from pysim.raumzeit import (
    Abschnitt,
    Bahn,
    Ereignis,
    Fenster,
    Marke,
    Operation,
    Pfeil,
    Raumzeit,
    zeichne,
)
from tests.pysim.knoten_beispiele import REGISTER_ANWENDEN, klasse
from tests.pysim.svg_regeln import NS, allgemeine_regeln


def texte(svg: str) -> list[str]:
    """Every text of the picture in document order (what a screen reader and the comparison
    of published outputs read)."""
    root = allgemeine_regeln(svg)
    return [el.text or "" for el in root.iter() if el.tag in (NS + "text", NS + "title")]


def test_a_hand_made_model_draws_every_part_with_its_texts_in_their_order() -> None:
    r = Raumzeit(
        "Bild",
        (Bahn("n1", 160), Bahn("n2", 160)),
        "zwei Knoten",
        ereignisse=(
            Ereignis("n1", 0, "senden", ("a1", "→n2")),
            Marke(1, "Netzpartition: n1 | n2"),
            Ereignis("n2", 2, "empfangen", ("b1",), markiert=True),
        ),
        pfeile=(Pfeil("n1", "n2", von_ereignis=0, nach_ereignis=2, titel="n1 → n2"),),
        zeitkopf="echt",
        zustand={"n1": {"rolle": "Leader", "term": 3}, "n2": {"": "[1, 2]"}},
        zustand_titel="Zustand",
        hinweise=("… und 3 weitere",),
    )
    svg = zeichne(r).svg
    assert texte(svg) == [
        "Bild",
        "n1",
        "n2",
        "echt",
        "t=0",
        "t=1",
        "Netzpartition: n1 | n2",
        "t=2",
        "n1 → n2",
        "a1",
        "→n2",
        "b1",
        "Zustand",
        "rolle: Leader",
        "term: 3",
        "[1, 2]",
        "… und 3 weitere",
    ]
    assert 'class="markiert"' in svg and svg.count('class="ereignis') == 2
    assert '<g class="nachricht">' in svg and svg.count('class="zustand"') == 3


def test_the_ticks_axis_draws_windows_sections_operations_and_lost_messages() -> None:
    r = Raumzeit(
        "Lauf",
        (Bahn("n1"), Bahn("n2"), Bahn("c1")),
        "ein Lauf",
        achse="ticks",
        fenster=(Fenster(5, 30, ("n1", "n2"), ("Netz geteilt: n1 | n2", "gezielt: Leader")),),
        abschnitte=(
            Abschnitt("n1", 40, 50, "absturz", "gezielt: Leader"),
            Abschnitt("n2", 3, 9, "pause", "Pause"),
        ),
        operationen=(Operation("c1", 2, 4, "ok", zeuge=True, text="write 1", punkt=3),),
        pfeile=(
            Pfeil("c1", "n1", 2, 2, titel="c1 → n1"),
            Pfeil("n1", "n2", 10, None, "verloren", titel="n1 → n2 verloren"),
        ),
        ende=100,
    )
    svg = zeichne(r).svg
    assert texte(svg)[:6] == ["Lauf", "Netz geteilt: n1 | n2", "gezielt: Leader", "n1", "n2", "c1"]
    assert "⋯ 50 Ticks ohne Ereignis" in texte(svg)
    # Sections, then operations, then the messages (each with its title; a lost one's ✕).
    assert texte(svg)[-7:] == [
        "✕",
        "gezielt: Leader",
        "Pause",
        "write 1",
        "c1 → n1",
        "n1 → n2 verloren",
        "✕",
    ]
    assert 'class="linearisierungspunkt"' in svg


def test_a_panel_under_narrow_lanes_has_one_row_per_node() -> None:
    r = Raumzeit(
        "Lauf",
        (Bahn("n1"), Bahn("n2")),
        achse="ticks",
        ende=10,
        zustand={"n1": {"rolle": "Leader", "term": 2}, "n2": {"rolle": "Follower", "log": [1, 2]}},
    )
    assert texte(zeichne(r).svg)[-2:] == [
        "n1: rolle=Leader, term=2",
        "n2: rolle=Follower, log=[1, 2]",
    ]


# --- linearization points ---------------------------------------------------------------------


def register_verlauf(seed: int, operationen_zahl: int) -> list[dict[str, Any]]:
    """A linearizable register history: each operation takes effect at a random moment of its
    window (a tick), reads see the register at that moment."""
    zufall = random.Random(seed)
    geplant = []
    for i in range(operationen_zahl):
        beginn = zufall.randrange(0, 40)
        ende = beginn + zufall.randrange(0, 8)
        wirkt = zufall.uniform(beginn, ende)
        f = zufall.choice(("read", "write"))
        geplant.append((wirkt, i, beginn, ende, f, zufall.randrange(1, 4)))
    register: object = None
    ergebnis: dict[int, object] = {}
    for _, i, _, _, f, wert in sorted(geplant):
        if f == "write":
            register = wert
        else:
            ergebnis[i] = register
    ereignisse = []
    # A process runs one operation at a time: give each operation its own process.
    for _, i, beginn, ende, f, wert in geplant:
        eingabe = wert if f == "write" else None
        ereignisse.append(
            (
                beginn,
                0,
                i,
                {
                    "process": i,
                    "type": "invoke",
                    "f": f,
                    "key": "x",
                    "value": eingabe,
                    "time": beginn,
                },
            )
        )
        ausgabe = wert if f == "write" else ergebnis[i]
        ereignisse.append(
            (
                ende,
                1,
                i,
                {"process": i, "type": "ok", "f": f, "key": "x", "value": ausgabe, "time": ende},
            )
        )
    return [e for *_, e in sorted(ereignisse, key=lambda t: t[:3])]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 12))
def test_each_point_lies_in_its_window_and_follows_real_time(seed: int, zahl: int) -> None:
    verlauf = register_verlauf(seed, zahl)
    assert linearisierbar(verlauf).ok
    punkte = linearisierungspunkte(verlauf)
    ops = {op.index: op for op in operationen(verlauf)}
    assert punkte.keys() <= ops.keys()
    for index, punkt in punkte.items():
        op = ops[index]
        assert op.beginn <= punkt <= (op.ende if op.ende is not None else punkt)
    for a in punkte:
        for b in punkte:
            if ops[a].ende is not None and ops[a].ende < ops[b].beginn:
                assert punkte[a] <= punkte[b]
    # Every confirmed operation took effect.
    assert {i for i, op in ops.items() if op.typ == "ok"} <= punkte.keys()


def test_a_history_that_is_not_linearizable_has_the_points_of_its_longest_good_prefix() -> None:
    verlauf = [
        {"process": 1, "type": "invoke", "f": "write", "key": "x", "value": 1, "time": 0},
        {"process": 2, "type": "invoke", "f": "read", "key": "x", "value": None, "time": 1},
        {"process": 1, "type": "ok", "f": "write", "key": "x", "value": 1, "time": 2},
        {"process": 2, "type": "ok", "f": "read", "key": "x", "value": 1, "time": 3},
        {"process": 3, "type": "invoke", "f": "read", "key": "x", "value": None, "time": 4},
        {"process": 3, "type": "ok", "f": "read", "key": "x", "value": None, "time": 5},
    ]
    assert not linearisierbar(verlauf).ok
    assert linearisierungspunkte(verlauf) == {0: 0, 1: 1}


#: One node holding the register: every history it makes is linearizable.
EIN_REGISTER = klasse(
    "class Einzeln(Knoten):\n"
    + REGISTER_ANWENDEN
    + """
    def beim_start(self):
        self.werte = {}

    def bei_read(self, nachricht):
        self.antworte(nachricht, self.anwenden(nachricht.body))

    bei_write = bei_cas = bei_read
"""
)


def test_the_cluster_picture_draws_the_points_and_a_panel_without_changing_its_texts() -> None:
    ergebnis = lauf(EIN_REGISTER, Register(), knoten=1, seed=2, dauer=40)
    assert linearisierbar(ergebnis.geschichte).ok
    ohne = raumzeit(ergebnis).svg
    punkte = linearisierungspunkte(ergebnis.geschichte)
    assert punkte
    mit = raumzeit(ergebnis, punkte=punkte).svg
    assert texte(mit) == texte(ohne)
    assert mit.count('class="linearisierungspunkt"') == len(punkte)
    gezeichnet = [o.punkt for o in modell(ergebnis, punkte=punkte).operationen]
    assert sorted(p for p in gezeichnet if p is not None) == sorted(punkte.values())
    zustand = {"n1": {"rolle": "Leader", "werte": {"x": 3}}}
    mit_panel = raumzeit(ergebnis, zustand=zustand).svg
    assert texte(mit_panel)[-1:] == ["n1: rolle=Leader, werte={'x': 3}"]
    assert mit_panel.count('class="zustand"') == 1
