"""The replicated store: leader and followers, lag, failover, split brain, quorum; its rules
table, German errors, picture and console."""

from __future__ import annotations

import pytest

from lessonkit.runtime.consoles import KINDS
from pysim import SimFehler
from pysim.console import arten
from pysim.replikation import (
    FOLLOWER,
    GLEICHRANGIG,
    LEADER,
    UEBERGAENGE,
    FalscherModus,
    ReplikSpeicher,
    uebergang,
)
from pysim.replikation.konsole import ReplikKonsole
from pysim.uebergaenge import ZustandsFehler
from tests.pysim.konsolen import absaetze_ganz, ausfuehren, gleicher_zustand
from tests.pysim.svg_regeln import NS, allgemeine_regeln

# --- the model ---


def test_an_async_follower_lags_and_the_checker_names_the_stale_read() -> None:
    s = ReplikSpeicher(verzoegerung=2)
    w = s.write("x", 1)
    assert (w.typ, w.beginn, w.ende, w.lsn) == ("ok", 0, 0, 1)
    alt = s.read("x", von="n2")
    assert (alt.wert, alt.lsn, alt.beginn) == (None, 0, 1)
    s.tick(2)
    assert s.read("x", von="n2").wert == 1
    urteil = s.urteil()
    assert not urteil.ok
    assert [op.index for op in urteil.zeugen] == [0, 2]
    assert urteil.zeugen[1].f == "read" and urteil.zeugen[1].knoten == "n2"
    assert "Lesen x → None" in urteil.erklaerung


def test_reads_from_the_leader_are_linearizable() -> None:
    s = ReplikSpeicher()
    for v in range(5):
        s.write("x", v)
        assert s.read("x").wert == v
    assert s.urteil().ok


def test_a_sync_write_waits_for_a_round_trip() -> None:
    s = ReplikSpeicher(verzoegerung=3, sync=1)
    w = s.write("x", 1)
    assert (w.typ, w.beginn, w.ende) == ("ok", 0, 6)
    assert s.read("x", von="n2").wert == 1


def test_a_sync_write_without_a_follower_stays_indeterminate() -> None:
    s = ReplikSpeicher(sync=1)
    s.absturz("n2")
    s.absturz("n3")
    w = s.write("x", 1)
    assert w.typ == "info" and w.ende - w.beginn == s.timeout
    assert s.verlauf()[1]["type"] == "info"
    assert s.inhalt("n1") == {"x": 1}  # on the leader's disk all the same


def test_a_follower_refuses_writes_and_a_crashed_replica_fails() -> None:
    s = ReplikSpeicher()
    assert s.write("x", 1, an="n2").typ == "fail"
    s.absturz("n3")
    assert s.read("x", von="n3").typ == "fail"
    assert [e["type"] for e in s.verlauf()] == ["invoke", "fail", "invoke", "fail"]


def test_failover_loses_what_the_new_leader_had_not_received() -> None:
    s = ReplikSpeicher(verzoegerung=2)
    s.write("x", 1)
    s.tick(3)
    s.write("x", 2)
    s.absturz("n1")
    f = s.failover()
    assert (f.alt, f.neu, f.epoche) == ("n1", "n2", 2)
    assert [(e.key, e.value, e.lsn) for e in f.bestaetigt_verloren] == [("x", 2, 2)]
    assert s.read("x").wert == 1
    s.neustart("n1")
    s.tick(5)
    assert [s.inhalt(n) for n in s.namen] == [{"x": 1}] * 3
    assert s.rolle("n1") == FOLLOWER


def test_split_brain_two_leaders_until_the_partition_heals() -> None:
    s = ReplikSpeicher(verzoegerung=1)
    s.write("x", 1)
    s.tick(2)
    s.trenne("n1")
    s.failover("n2")
    assert s.write("x", 5, an="n1").ok  # the old leader still takes writes
    assert s.write("x", 6).ok
    assert [s.rolle(n) for n in s.namen] == [LEADER, LEADER, FOLLOWER]
    s.heile("n1")
    s.tick(3)
    assert [s.rolle(n) for n in s.namen] == [FOLLOWER, LEADER, FOLLOWER]
    assert s.inhalt("n1") == {"x": 6}
    texte = [e.text for e in s.ereignisse()]
    assert any("n1 verwirft x=5 (LSN 2)" in t for t in texte)


def test_old_epoch_messages_are_refused() -> None:
    s = ReplikSpeicher(verzoegerung=3)
    s.write("x", 1)
    s.failover("n3")  # n1 keeps running and is told at once
    s.tick(5)
    assert any("Epoche 1 ist veraltet" in e.text for e in s.ereignisse())
    assert s.inhalt("n1") == {} and s.rolle("n1") == FOLLOWER


def _geschrieben_als_n3_ausfiel(w: int, r: int) -> ReplikSpeicher:
    """Quorum mode n=3 with ``w`` and ``r``: x=1 written (and acknowledged) while n3 was down,
    then n3 back."""
    s = ReplikSpeicher()
    s.quorum(3, w, r)
    s.setze_lag("n3", 0)
    s.absturz("n3")
    assert s.write("x", 1).ok
    s.neustart("n3")
    return s


def test_quorum_overlap_reads_the_latest_write_with_one_node_down() -> None:
    s = _geschrieben_als_n3_ausfiel(2, 2)
    assert s.read("x").wert == 1
    assert s.urteil().ok


def test_quorum_without_overlap_reads_stale() -> None:
    s = _geschrieben_als_n3_ausfiel(1, 1)
    r = s.read("x")
    assert (r.wert, r.lsn) == (None, 0)
    assert not s.urteil().ok


def test_quorum_with_w_equal_n_cannot_write_with_a_node_down() -> None:
    s = ReplikSpeicher()
    s.quorum(3, 3, 1)
    s.absturz("n2")
    assert s.write("x", 1).typ == "info"


@pytest.mark.parametrize(
    ("aktion", "meldung"),
    [
        (lambda s: s.write("x y", 1), "ohne Leerzeichen"),
        (lambda s: s.write("x", ""), "nicht leerer Text"),
        (lambda s: s.write("x", 1.5), "ganze Zahl oder ein nicht leerer Text"),
        (lambda s: s.read("x", von="n9"), "Das Replikat „n9“ gibt es nicht"),
        (lambda s: s.setze_sync(3), "höchstens 2"),
        (lambda s: s.setze_lag("n2", 99), "höchstens 50"),
        (lambda s: s.quorum(3, 4, 1), "w ist höchstens n=3"),
        (lambda s: s.failover("n1"), "schon der Leader"),
        (lambda s: s.neustart("n2"), "läuft schon"),
        (lambda s: s.heile("n2"), "nicht abgetrennt"),
    ],
)
def test_bad_input_is_a_german_error_that_changes_nothing(aktion, meldung) -> None:
    s = ReplikSpeicher()
    vorher = ReplikKonsole(s).state_dump()
    with pytest.raises(SimFehler, match=meldung):
        aktion(s)
    assert ReplikKonsole(s).state_dump() == vorher


def test_quorum_mode_refuses_leader_commands_and_a_late_switch() -> None:
    s = ReplikSpeicher()
    s.write("x", 1)
    with pytest.raises(FalscherModus, match="vor dem ersten Schreiben"):
        s.quorum(3, 2, 2)
    q = ReplikSpeicher()
    q.quorum(5, 3, 3)
    assert q.namen == ["n1", "n2", "n3", "n4", "n5"]
    assert {q.rolle(n) for n in q.namen} == {GLEICHRANGIG}
    with pytest.raises(FalscherModus, match="keinen Leader"):
        q.failover()


def test_the_rules_table() -> None:
    assert uebergang(FOLLOWER, "befördern") == LEADER
    assert uebergang(LEADER, "neuer_leader") == FOLLOWER
    assert all(len(k) == 2 for k in UEBERGAENGE)
    with pytest.raises(ZustandsFehler, match="nicht vorgesehen"):
        uebergang(LEADER, "befördern")


def test_the_same_script_gives_the_same_state() -> None:
    gleicher_zustand(
        ReplikKonsole, ["write x 1", "lag n3 5", "write y 2", "absturz n1", "failover", "tick 9"]
    )


# --- the picture ---


def test_the_picture_shows_replicas_messages_and_the_verdict() -> None:
    s = ReplikSpeicher()
    s.write("x", 1)
    s.read("x", von="n2")
    svg = s.bild().svg
    root = allgemeine_regeln(svg)
    assert root.get("viewBox", "").startswith("0 0 380 ")
    texte = [t.text or "" for t in root.iter(NS + "text")]
    assert "n1" in texte and "Leader" in texte
    assert "Urteil: nicht linearisierbar ✗" in texte
    assert any(t.startswith("Unterwegs (") for t in texte)
    zeugen = [t for t in root.iter(NS + "text") if t.get("class") == "zeuge"]
    assert len(zeugen) == 2
    desc = root.find(NS + "desc")
    assert desc is not None and "nicht linearisierbar" in (desc.text or "")


def test_the_picture_of_an_empty_store_and_a_quorum() -> None:
    allgemeine_regeln(ReplikSpeicher().bild().svg)
    q = ReplikSpeicher()
    q.quorum(3, 2, 2)
    q.write("x", 1)
    svg = q.bild().svg
    allgemeine_regeln(svg)
    assert "x=1 v1" in svg and "Quorum n=3 w=2 r=2" in svg


# --- the console ---


def test_the_console_tells_a_stale_read_and_the_verdict() -> None:
    k = ReplikKonsole()
    assert ausfuehren(k, "write x 1").text == (
        "t=0: n1 schreibt x=1 (LSN 1) und bestätigt sofort (asynchron)."
    )
    r = ausfuehren(k, "read x from n2")
    assert r.text.splitlines()[0] == "t=1: n2 liest x → None (Stand LSN 0)."
    assert "t=2: n2 übernimmt x=1 (LSN 1)." in r.text
    r = ausfuehren(k, "history")
    assert "Nicht linearisierbar" in r.text and "Lesen x → None" in r.text
    absaetze_ganz(r.text)


def test_the_console_failover_names_lost_writes_and_split_brain() -> None:
    k = ReplikKonsole()
    for zeile in ("write x 1", "tick 3", "partition n1", "write x 2"):
        assert ausfuehren(k, zeile).ok
    r = ausfuehren(k, "failover")
    assert "Verloren: x=2 (LSN 2, bestätigt)." in r.text
    assert "Split Brain" in r.text
    r = ausfuehren(k, "status")
    assert "Leader n2 (Epoche 2)" in r.text


def test_the_console_completes_commands_and_replicas() -> None:
    k = ReplikKonsole()
    assert "write" in k.complete("wr")
    assert k.complete("read x from ") == ["n1", "n2", "n3"]
    assert k.complete("failover n") == ["n1", "n2", "n3"]


def test_the_descriptor() -> None:
    art = arten()["replik"]
    assert art.klasse is ReplikKonsole and art.block == "replik-konsole"
    k = KINDS["replik"]({"repliken": "5", "verzoegerung": "0"})
    assert k.modell.namen == ["n1", "n2", "n3", "n4", "n5"]
    assert k.modell.lag["n5"] == 0
