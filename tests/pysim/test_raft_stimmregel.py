"""The replaceable vote rule of RaftSim and ``pruefe_wahl``, which puts a rule through
generated fault schedules."""

from __future__ import annotations

import pytest

from pysim.fehler import SimFehler, UngueltigeEingabe
from pysim.raft import (
    LEADER,
    WARTEN,
    Eintrag,
    RaftKnoten,
    RaftSim,
    Schritt,
    Stimmanfrage,
    erzeuge_plan,
    fuehre_aus,
    pruefe_wahl,
    raft_stimmregel,
)


def aktuell(a: Stimmanfrage) -> bool:
    mein = (a.mein_letzter_term, a.mein_letzter_index)
    return (a.letzter_term, a.letzter_index) >= mein


def ohne_aktualitaet(a: Stimmanfrage) -> bool:
    return a.term == a.mein_term and a.meine_stimme in (None, a.kandidat)


def stimmt_fuer_alle(a: Stimmanfrage) -> bool:
    return a.term == a.mein_term and aktuell(a)


def ignoriert_terme(a: Stimmanfrage) -> bool:
    # neither the candidate's term nor the terms in the logs: only the length
    laenger = a.letzter_index >= a.mein_letzter_index
    return a.meine_stimme in (None, a.kandidat) and laenger


def ohne_termvergleich(a: Stimmanfrage) -> bool:
    # only Figure 2's "reply false if term < currentTerm" is missing
    return a.meine_stimme in (None, a.kandidat) and aktuell(a)


FALSCHE = [ohne_aktualitaet, stimmt_fuer_alle, ignoriert_terme]


def test_the_default_rule_is_figure_2s_and_gives_the_same_run() -> None:
    ohne = RaftSim(5, seed=4)
    mit = RaftSim(5, seed=4, stimmregel=raft_stimmregel)
    for sim in (ohne, mit):
        sim.tick(60)
        sim.schreibe("c1", 1)
        sim.tick(40)
    assert ohne.protokoll == mit.protokoll
    assert ohne.verlauf == mit.verlauf


def test_the_rule_sees_what_the_voter_knows_and_its_yes_is_recorded() -> None:
    gesehen: list[Stimmanfrage] = []

    def regel(a: Stimmanfrage) -> bool:
        gesehen.append(a)
        return raft_stimmregel(a)

    sim = RaftSim(3, seed=1, stimmregel=regel)
    sim.tick(80)
    leader = sim.leader()
    assert leader is not None
    # a higher term moved the voter into it first, without a vote
    assert all(a.mein_term >= a.term for a in gesehen)
    assert any(a.mein_term == a.term and a.meine_stimme is None for a in gesehen)
    assert gesehen[0].letzter_index == gesehen[0].mein_letzter_index == 0
    ja = [a for a in gesehen if a.kandidat == leader and a.term == sim.knoten[leader].term]
    assert ja
    assert any(k.stimme == leader for n, k in sim.knoten.items() if n != leader)


def test_a_rule_that_always_says_no_elects_nobody() -> None:
    def nie(a: Stimmanfrage) -> bool:
        return False

    sim = RaftSim(3, seed=2, stimmregel=nie)
    sim.tick(300)
    assert all(k.rolle != LEADER for k in sim.knoten.values())


def test_a_rule_that_raises_or_returns_no_bool_is_named_in_german() -> None:
    def kaputt(a: Stimmanfrage) -> bool:
        return 1 / 0 > 0

    def zahl(a: Stimmanfrage) -> bool:
        return 1  # type: ignore[return-value]

    sim = RaftSim(3, seed=1, stimmregel=kaputt)
    with pytest.raises(SimFehler, match="Stimmregel „kaputt“ ist bei der Anfrage von n"):
        sim.tick(80)
    sim = RaftSim(3, seed=1, stimmregel=zahl)
    with pytest.raises(
        SimFehler, match=r"„zahl“ muss True oder False zurückgeben, nicht 1 \(int\)"
    ):
        sim.tick(80)
    with pytest.raises(UngueltigeEingabe, match="Stimmregel muss eine Funktion sein"):
        RaftSim(3, stimmregel=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("knoten", [3, 5])
def test_the_correct_rule_passes_every_schedule(knoten: int) -> None:
    befund = pruefe_wahl(raft_stimmregel, seeds=range(150), knoten=knoten)
    assert befund.ok, str(befund)
    assert befund.geprueft == 150
    assert befund.text.startswith("Keine Verletzung in 150 Störungsplänen")
    with pytest.raises(UngueltigeEingabe):
        befund.bild()


def test_leaving_out_only_the_term_comparison_is_safe_here() -> None:
    # the answer carries the voter's higher term: the stale candidate steps down
    assert pruefe_wahl(ohne_termvergleich, seeds=range(60)).ok


@pytest.mark.parametrize("regel", FALSCHE, ids=lambda r: r.__name__)
@pytest.mark.parametrize("knoten", [3, 5])
def test_each_wrong_rule_fails_in_the_default_seeds(regel: object, knoten: int) -> None:
    befund = pruefe_wahl(regel, knoten=knoten)  # type: ignore[arg-type]
    assert not befund.ok
    assert befund.seed is not None and befund.text.startswith(f"Seed {befund.seed}: ")
    # the shrunk schedule still fails, with the same text, and is no longer than the first
    sim, verletzung = fuehre_aus(
        befund.plan,
        seed=befund.seed,
        knoten=knoten,
        stimmregel=regel,  # type: ignore[arg-type]
    )
    assert befund.text == f"Seed {befund.seed}: {verletzung}"
    assert len(befund.plan) <= len(erzeuge_plan(befund.seed, knoten))
    assert sim.verletzungen and sim.verletzungen[0] == verletzung
    assert "<svg" in befund.bild().svg
    assert str(befund).splitlines()[1].startswith("Kleinster Plan:")
    # locally smallest: without any one step, or with it only waiting, the run passes
    for i, s in enumerate(befund.plan):
        ohne = befund.plan[:i] + befund.plan[i + 1 :]
        warten = (*befund.plan[:i], Schritt(s.warten, WARTEN), *befund.plan[i + 1 :])
        for p in (ohne, warten) if s.aktion != WARTEN else (ohne,):
            _, v = fuehre_aus(p, seed=befund.seed, knoten=knoten, stimmregel=regel)  # type: ignore[arg-type]
            assert v is None, (i, s)


def test_the_texts_name_the_violation() -> None:
    zwei = pruefe_wahl(stimmt_fuer_alle, seeds=range(10))
    assert zwei.text.startswith(f"Seed {zwei.seed}: Zwei Leader in Term ")
    fehlt = pruefe_wahl(ohne_aktualitaet, seeds=range(40))
    assert "Der committete Eintrag " in fehlt.text
    assert ", Leader in Term " in fehlt.text


def test_a_schedule_is_deterministic_and_seeded() -> None:
    assert erzeuge_plan(7) == erzeuge_plan(7)
    assert erzeuge_plan(7) != erzeuge_plan(8)
    assert pruefe_wahl(ignoriert_terme).text == pruefe_wahl(ignoriert_terme).text
    with pytest.raises(UngueltigeEingabe, match="mindestens einen Seed"):
        pruefe_wahl(raft_stimmregel, seeds=[])


def test_a_history_that_is_not_linearizable_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    # a broken state machine: writes are answered but never applied, so reads see None
    richtig = RaftKnoten._wende_an

    def vergesslich(self: RaftKnoten, index: int, e: Eintrag) -> None:
        if e.f == "write":
            e = Eintrag(e.term, "noop", client=e.client, nummer=e.nummer)
        richtig(self, index, e)

    monkeypatch.setattr(RaftKnoten, "_wende_an", vergesslich)
    befund = pruefe_wahl(raft_stimmregel, seeds=range(20))
    assert not befund.ok
    assert "Der Verlauf der Clients ist nicht linearisierbar: " in befund.text
    assert any("liest" in z for z in befund.schritte())


def test_a_step_in_words() -> None:
    namen = ["n1", "n2", "n3", "n4", "n5"]
    assert Schritt(0, "absturz", 1).text(namen) == "sofort: n2 stürzt ab"
    assert Schritt(1, "trenne_leader", 0, 1).text(namen) == (
        "nach 1 Tick: eine Netzpartition schneidet den Leader und einen Follower ab"
    )
    assert Schritt(12, "trenne_leader", 0, 2).text(namen) == (
        "nach 12 Ticks: eine Netzpartition schneidet den Leader ab"
    )
    assert Schritt(7, "pausiere", 2, 1).text(namen) == "nach 7 Ticks: n3 hält 15 Ticks an"
    assert Schritt(7, WARTEN).text(namen) == "7 Ticks warten"
