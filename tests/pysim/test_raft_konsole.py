"""The Raft console (``raft-konsole``): what it tells, its picture, errors that change
nothing, completion, the descriptor."""

from __future__ import annotations

import pytest

from lessonkit.runtime.consoles import KINDS
from pysim.console import arten
from pysim.raft import LEADER, RaftSim
from pysim.raft.konsole import RaftKonsole
from tests.pysim.konsolen import absaetze_ganz, ausfuehren, gleicher_zustand, vorbereitet

from .svg_regeln import NS, allgemeine_regeln


def gewaehlt() -> RaftKonsole:
    k = vorbereitet(RaftKonsole(), ["tick 40"])
    assert k.sim.leader() == "n3"  # seed 0
    return k


def test_an_election_is_told_with_the_time_of_each_event() -> None:
    k = RaftKonsole()
    r = ausfuehren(k, "tick 40")
    assert r.text.splitlines() == [
        "Zeit: t=40 (+40).",
        "t=16: n3 wird Kandidat in Term 1.",
        "t=20: n3 ist Leader in Term 1.",
        "t=23: n3 committet Eintrag 1 (Commit-Index 1).",
    ]
    assert r.svg is not None and "Leader n3" in r.svg
    r = ausfuehren(k, "tick 3")
    assert r.text.splitlines()[1] == "Nichts Neues: n3 schickt als Leader Heartbeats."
    assert ausfuehren(RaftKonsole(), "tick").text.endswith(
        "noch ist kein Election-Timeout abgelaufen."
    )


def test_a_write_is_appended_then_committed_and_a_follower_refuses() -> None:
    k = gewaehlt()
    r = ausfuehren(k, "write x 5")
    assert r.text.splitlines() == [
        "t=40: c1 schreibt x = 5 über n3.",
        "n3 hängt es als Eintrag 2 (Term 1) an sein Log und antwortet, sobald es committet ist.",
    ]
    r = ausfuehren(k, "tick 10")
    assert "t=42: c1 bekommt ok von n3: write x = 5 ist committet." in r.text
    r = ausfuehren(k, "read x from n1 as leser")
    assert "leser bekommt fail von n1 (nicht Leader): read x ist sicher nicht geschehen." in r.text
    ausfuehren(k, "read x")
    r = ausfuehren(k, "tick 10")
    assert "c1 bekommt ok von n3: x = 5." in r.text
    assert all(kn.register == {"x": 5} for kn in k.sim.knoten.values())


def test_an_old_leader_cut_off_leaves_its_client_unsure_and_status_tells_it() -> None:
    k = gewaehlt()
    for zeile in ("partition n3", "write x 9"):
        assert ausfuehren(k, zeile).ok
    r = ausfuehren(k, "tick 60")
    assert r.text.splitlines()[1:] == [
        "t=58: n1 wird Kandidat in Term 2.",
        "t=64: n1 ist Leader in Term 2.",
        "t=66: n1 committet Eintrag 2 (Commit-Index 2).",
        "t=80: c1 bekommt keine klare Antwort (info: Zeitüberschreitung): ob write x = 9 "
        "geschah, ist offen.",
    ]
    zeilen = ausfuehren(k, "status").text.splitlines()
    assert zeilen[0] == "t=100, Leader n1 (Term 2), Mehrheit 2 von 3, Netzpartition n3 | n1 n2"
    assert zeilen[1].split() == ["KNOTEN", "ROLLE", "TERM", "STIMME", "COMMIT", "LOG"]
    assert zeilen[4].split() == ["n3", "Leader", "1", "n3", "1", "1:-", "1:w=9"]
    assert ausfuehren(k, "heal").text == "t=100: Netzpartition geheilt."
    r = ausfuehren(k, "tick 10")
    assert "n3 sieht Term 2 und ist nicht mehr Leader." in r.text
    assert "n3 verwirft ab Index 2 einen Eintrag, den der Leader n1 so nicht hat." in r.text
    assert all(e.value != 9 for e in k.sim.knoten["n3"].log)
    r = ausfuehren(k, "urteil")
    assert r.text.splitlines()[0].startswith("Sicherheit: höchstens ein Leader je Term")
    assert r.text.splitlines()[1].startswith("Verlauf: Linearisierbar")


def test_crash_restart_pause_and_history() -> None:
    k = gewaehlt()
    assert ausfuehren(k, "absturz n3").text == "t=40: n3 stürzt ab."
    r = ausfuehren(k, "tick 40")
    assert r.text.splitlines()[-1] == "t=79: n1 ist Leader in Term 3."
    assert ausfuehren(k, "neustart n3").text == "t=80: n3 startet neu (Term 1, Log 1)."
    leader = k.sim.leader()
    assert leader is not None
    assert ausfuehren(k, f"pause {leader} 30").text == f"t=80: {leader} hält 30 Ticks an."
    ausfuehren(k, "write x 1")
    r = ausfuehren(k, "status")
    assert f"{LEADER} (Pause)" in r.text
    ausfuehren(k, "tick 50")
    r = ausfuehren(k, "history")
    assert r.text.splitlines()[0] == "Verlauf (2 Ereignisse):"
    assert r.text.splitlines()[1].split() == ["T", "CLIENT", "TYP", "F", "KEY", "WERT", "KNOTEN"]
    absaetze_ganz(r.text)
    assert "Noch keine Operation" in ausfuehren(RaftKonsole(), "history").text


def test_the_verdict_names_a_violation() -> None:
    def immer(a: object) -> bool:
        return True

    sim = RaftSim(3, seed=3, stimmregel=immer)
    k = RaftKonsole(sim)
    ausfuehren(k, "tick 60")
    r = ausfuehren(k, "urteil")
    assert r.text.splitlines()[0] == "Sicherheit verletzt (1 Befund):"
    assert r.text.splitlines()[1].startswith("  Zwei Leader in Term 1: ")


def test_two_of_three_nodes_alone_are_a_partition_the_third_is_the_other_side() -> None:
    k = vorbereitet(gewaehlt(), ["write x 1 as a", "absturz n1"])
    assert ausfuehren(k, "partition n1 n2 ").ok
    assert ausfuehren(RaftKonsole(knoten=3), "partition n1 n2").ok


def test_the_picture_shows_ring_messages_logs_and_commit() -> None:
    k = gewaehlt()
    ausfuehren(k, "write x 5")
    r = ausfuehren(k, "tick 1")
    assert r.svg is not None
    root = allgemeine_regeln(r.svg)
    klassen = [el.get("class") for el in root.iter()]
    assert klassen.count("kreis") == 3 and klassen.count("knoten") == 3
    assert klassen.count("nachricht") == len(k.sim.unterwegs) > 0
    texte = [el.text or "" for el in root.iter(NS + "text")]
    assert "T1" in texte and "C1" in texte and "w5" in texte
    assert "AppendEntries" in texte and "RequestVote" in texte  # the legend


def test_the_same_script_gives_the_same_state() -> None:
    gleicher_zustand(
        lambda: RaftKonsole(knoten=5, seed=4),
        ["tick 50", "write x 1", "partition n1 n2", "tick 40", "heal", "tick 30"],
    )


def test_completion() -> None:
    k = RaftKonsole()
    assert k.complete("par") == ["partition"]
    assert k.complete("absturz ") == ["n1", "n2", "n3"]
    assert k.complete("write x 1 to ") == ["n1", "n2", "n3"]


def test_the_descriptor() -> None:
    art = arten()["raft"]
    assert art.klasse is RaftKonsole and art.block == "raft-konsole" and art.modell == "sim"
    k = KINDS["raft"]({"knoten": "5", "seed": "7"})
    assert isinstance(k, RaftKonsole)
    assert k.sim.namen == ["n1", "n2", "n3", "n4", "n5"] and k.sim.seed == 7
    with pytest.raises(Exception, match="3 oder 5 Knoten"):
        KINDS["raft"]({"knoten": "4"})
