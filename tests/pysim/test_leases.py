"""The lease simulation (issue 33): lock service, clients with pauses and drift, storage."""

from __future__ import annotations

import pytest

import pysim
from pysim.leases import (
    ABGELAUFEN,
    AUFGEGEBEN,
    FERTIG,
    FREIGEGEBEN,
    UEBERGAENGE,
    LeaseSim,
    Speicher,
    zufallssim,
)
from pysim.leases.bild import MAX_CLIENTS
from pysim.uebergaenge import ZustandsFehler, schlage_nach
from tests.pysim.svg_regeln import NS, allgemeine_regeln


def pause_nach_pruefung(fencing: bool) -> LeaseSim:
    """a checks at t=4 and is paused before it sends; b takes over at t=10."""
    sim = LeaseSim(ttl=10, fencing=fencing)
    sim.client("a", arbeit=4, pausen=[(5, 12)])
    sim.client("b", start=2)
    sim.lauf()
    return sim


def test_without_fencing_the_paused_holder_overwrites_the_new_one() -> None:
    sim = pause_nach_pruefung(fencing=False)
    assert [(le.token, le.client, le.vergeben, le.zustand) for le in sim.leases] == [
        (1, "a", 0, ABGELAUFEN),
        (2, "b", 10, FREIGEGEBEN),
    ]
    assert [(a.client, a.token, a.angekommen) for a in sim.angenommen()] == [
        ("b", 2, 15),
        ("a", 1, 18),
    ]
    assert [a.client for a in sim.veraltet_angenommen()] == ["a"]
    assert sim.speicher.daten == ["b schreibt", "a schreibt"]  # type: ignore[attr-defined]


def test_with_fencing_the_storage_rejects_the_older_token() -> None:
    sim = pause_nach_pruefung(fencing=True)
    assert [(a.client, a.token, a.angenommen) for a in sim.auftraege] == [
        ("b", 2, True),
        ("a", 1, False),
    ]
    assert sim["a"].zustand == FERTIG and sim["a"].ergebnis is not None
    assert "lehnt ab: 'a schreibt' mit Token #1" in [e.text for e in sim.protokoll][-2]


def test_a_slow_clock_lets_the_holder_believe_too_long() -> None:
    # a works 11 ticks with ttl 10; its clock runs 20 % slow, so it sees 8 ticks (< 10)
    sim = LeaseSim(ttl=10)
    sim.client("a", arbeit=11, drift=-200)
    sim.client("b", start=1, arbeit=1)
    sim.lauf()
    von_a = [(a.angenommen, a.lease_gueltig) for a in sim.auftraege if a.client == "a"]
    assert von_a == [(True, False)]
    richtig = LeaseSim(ttl=10)
    richtig.client("a", arbeit=11)
    richtig.lauf()
    assert richtig["a"].zustand == AUFGEGEBEN and not richtig.auftraege


def test_a_client_that_does_not_check_writes_anyway() -> None:
    sim = LeaseSim(ttl=5)
    sim.client("a", arbeit=8, prueft=False)
    sim.lauf()
    assert [(a.angenommen, a.lease_gueltig) for a in sim.auftraege] == [(True, False)]


def test_a_released_lease_goes_to_the_next_one_at_once() -> None:
    sim = LeaseSim(ttl=10)
    sim.client("a", arbeit=1)
    sim.client("b", start=1, wiederholen=1)
    sim.lauf()
    assert [(le.client, le.vergeben) for le in sim.leases] == [("a", 0), ("b", 4)]
    belegt = [e.text for e in sim.protokoll if "belegt" in e.text]
    assert len(belegt) == 1  # repeated requests of one wait are logged once


def test_the_table_rules() -> None:
    assert schlage_nach(UEBERGAENGE, ABGELAUFEN, "freigeben") is None
    with pytest.raises(ZustandsFehler, match="nicht vorgesehen"):
        schlage_nach(UEBERGAENGE, FREIGEGEBEN, "ablaufen")


def test_a_reader_storage_is_used() -> None:
    class Immer:
        fencing = True

        def __init__(self) -> None:
            self.gesehen: list[int] = []

        def schreibe(self, von: str, wert: object, token: int) -> bool:
            self.gesehen.append(token)
            return von == "b"

    speicher = Immer()
    sim = LeaseSim(ttl=10, speicher=speicher)
    sim.client("a", arbeit=4, pausen=[(5, 12)])
    sim.client("b", start=2)
    sim.lauf()
    assert speicher.gesehen == [2, 1] and sim.fencing


@pytest.mark.parametrize(
    ("aufruf", "meldung"),
    [
        (lambda s: s.client("a"), "gibt es schon"),
        (lambda s: s.client("x", pausen=[(1, 0)]), "pausen ist eine Liste"),
        (lambda s: s.client("x", drift=5000), "drift liegt zwischen"),
        (lambda s: s.client("x", arbeit=-1), "arbeit muss mindestens 0"),
        (lambda s: s.client("x y"), "ohne Leerzeichen"),
        (lambda s: s["zz"], "gibt es nicht"),
    ],
)
def test_german_errors(aufruf: object, meldung: str) -> None:
    sim = LeaseSim()
    sim.client("a")
    with pytest.raises(pysim.SimFehler, match=meldung):
        aufruf(sim)  # type: ignore[operator]


def test_bad_storage_and_bad_answer() -> None:
    with pytest.raises(pysim.SimFehler, match="schreibe"):
        LeaseSim(speicher=object())  # type: ignore[arg-type]

    class Falsch:
        def schreibe(self, von: str, wert: object, token: int) -> object:
            return "ja"

    sim = LeaseSim(speicher=Falsch())  # type: ignore[arg-type]
    sim.client("a", arbeit=0)
    with pytest.raises(pysim.SimFehler, match=r"True \(angenommen\) oder False"):
        sim.lauf()


def test_storage_alone() -> None:
    s = Speicher(fencing=True)
    assert s.schreibe("a", 1, 3) and not s.schreibe("b", 2, 2) and s.schreibe("c", 3, 3)
    assert s.daten == [1, 3] and s.groesster_token == 3
    assert Speicher().schreibe("b", 2, 1)


def test_same_seed_same_run() -> None:
    a, b = zufallssim(7, True), zufallssim(7, True)
    assert [str(e) for e in a.protokoll] == [str(e) for e in b.protokoll]
    assert a.bild().svg == b.bild().svg


def test_picture_rules_and_description() -> None:
    sim = pause_nach_pruefung(fencing=False)
    root = allgemeine_regeln(sim.bild().svg)
    desc = root.find(NS + "desc")
    assert desc is not None and desc.text is not None
    assert "obwohl die Lease schon abgelaufen war" in desc.text
    klassen = [el.get("class") for el in root.iter()]
    assert klassen.count("lease") == 2 and klassen.count("pause") == 1
    assert klassen.count("nach-ablauf") == 1 and klassen.count("angenommen") == 2
    assert sim._repr_svg_() == sim.bild().svg
    allgemeine_regeln(LeaseSim().bild().svg)


def test_picture_stays_bounded() -> None:
    sim = LeaseSim(ttl=3)
    for i in range(MAX_CLIENTS + 5):
        sim.client(f"c{i}", start=i * 10, arbeit=1)
    sim.lauf()
    root = allgemeine_regeln(sim.bild().svg)
    assert len(list(root.iter())) < 2_000 and int(root.get("viewBox", "").split()[2]) < 1_000
    assert any(el.get("class") == "weitere" for el in root.iter())
    assert any(el.get("class") == "fenster" for el in root.iter())
