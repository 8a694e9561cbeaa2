"""Scenarios of the Raft simulation: elections, commit, crash, partition, pause, errors."""

from __future__ import annotations

import pytest

from pysim.fehler import SimFehler, UnbekannterKnoten, UngueltigeEingabe
from pysim.pruefer import linearisierbar
from pysim.raft import ABGESTUERZT, FOLLOWER, LEADER, UEBERGAENGE, RaftSim
from pysim.uebergaenge import ZustandsFehler, schlage_nach
from pysim.zeit import Zeit


def gewaehlt(knoten: int = 3, seed: int = 1) -> RaftSim:
    sim = RaftSim(knoten, seed=seed)
    sim.tick(80)
    assert sim.leader() is not None
    return sim


def ergebnisse(sim: RaftSim) -> list[tuple[str, str, str]]:
    return [(e["process"], e["type"], e["f"]) for e in sim.verlauf if e["type"] != "invoke"]


def test_a_cluster_elects_one_leader_and_all_agree_on_its_term() -> None:
    for seed in range(10):
        sim = gewaehlt(seed=seed)
        leader = sim.knoten[sim.leader() or ""]
        rollen = sorted(k.rolle for k in sim.knoten.values())
        assert rollen == [FOLLOWER, FOLLOWER, LEADER]
        assert {k.term for k in sim.knoten.values()} == {leader.term}
        assert all(len(v) == 1 for v in sim.leader_je_term.values())


def test_writes_and_reads_through_the_leader_are_linearizable() -> None:
    sim = gewaehlt()
    sim.schreibe("c1", 5)
    sim.tick(10)
    sim.lies("c2")
    sim.tick(10)
    assert ergebnisse(sim) == [("c1", "ok", "write"), ("c2", "ok", "read")]
    assert sim.verlauf[-1]["value"] == 5
    assert linearisierbar(sim.verlauf).ok
    # every node applied the committed write
    assert all(k.register == {"x": 5} for k in sim.knoten.values())


def test_a_follower_refuses_a_client_with_fail() -> None:
    sim = gewaehlt()
    follower = next(n for n, k in sim.knoten.items() if k.rolle == FOLLOWER)
    sim.schreibe("c1", 1, an=follower)
    sim.tick(1)
    assert sim.verlauf[-1]["type"] == "fail"
    assert sim.verlauf[-1]["error"] == "nicht Leader"


def test_a_minority_partition_cannot_elect_or_commit() -> None:
    sim = gewaehlt(knoten=5, seed=3)
    leader = sim.leader()
    folger = [n for n in sim.namen if n != leader][:2]
    commit = {n: sim.knoten[n].commit for n in folger}
    sim.trenne(folger)
    sim.tick(300)
    for n in folger:
        k = sim.knoten[n]
        assert k.rolle != LEADER
        assert k.commit == commit[n]
        assert k.term > sim.knoten[folger[0]].log[-1].term  # they tried, in vain
    assert sim.leader() == leader


def test_an_old_leader_in_a_minority_accepts_writes_it_never_commits() -> None:
    sim = gewaehlt(knoten=5, seed=2)
    alt = sim.leader()
    assert alt is not None
    mit = next(n for n in sim.namen if n != alt)
    sim.trenne([alt, mit])
    sim.schreibe("c1", 41, an=alt)
    sim.tick(1)
    assert sim.knoten[alt].log[-1].value == 41  # accepted into its log
    commit = sim.knoten[alt].commit
    sim.tick(100)
    assert sim.knoten[alt].commit == commit  # but never committed
    assert sim.knoten[alt].rolle == LEADER  # it still believes it leads
    assert sim.verlauf[-1]["type"] == "info"  # the client cannot know
    neu = sim.leader()
    assert neu not in (alt, mit, None)
    sim.schreibe("c2", 7)
    sim.tick(20)
    assert sim.verlauf[-1]["type"] == "ok"
    sim.heile()
    sim.tick(60)
    k = sim.knoten[alt]
    assert k.rolle == FOLLOWER
    assert all(e.value != 41 for e in k.log)  # its uncommitted entry was replaced
    assert k.register == {"x": 7}
    assert sim.verletzungen == []
    assert linearisierbar(sim.verlauf).ok


def test_a_cluster_of_three_survives_a_crash_and_elects_again() -> None:
    sim = gewaehlt()
    alt = sim.leader()
    assert alt is not None
    term = sim.knoten[alt].term
    sim.schreibe("c1", 1)
    sim.tick(10)
    sim.absturz(alt)
    sim.tick(80)
    neu = sim.leader()
    assert neu not in (None, alt)
    assert sim.knoten[neu or ""].term > term
    sim.schreibe("c1", 2)
    sim.tick(10)
    assert [e["type"] for e in sim.verlauf[1::2]] == ["ok", "ok"]
    sim.neustart(alt)
    sim.tick(40)
    assert sim.knoten[alt].register == {"x": 2}
    assert sim.verletzungen == [] and linearisierbar(sim.verlauf).ok


def test_term_vote_and_log_survive_a_restart() -> None:
    sim = gewaehlt()
    sim.schreibe("c1", 3)
    sim.tick(10)
    k = sim.knoten["n1"]
    vorher = (k.term, k.stimme, list(k.log))
    sim.absturz("n1")
    assert k.rolle == ABGESTUERZT and k.commit == 0 and k.register == {}
    assert (k.term, k.stimme, list(k.log)) == vorher
    sim.neustart("n1")
    assert k.rolle == FOLLOWER and (k.term, k.stimme, list(k.log)) == vorher


def test_two_of_three_crashed_means_no_leader_and_no_commit() -> None:
    sim = gewaehlt()
    rest = [n for n in sim.namen if n != sim.leader()]
    sim.absturz(rest[0])
    sim.absturz(rest[1])
    sim.schreibe("c1", 9)
    sim.tick(200)
    assert sim.verlauf[-1]["type"] == "info"
    sim.lies("c2", an=rest[0])  # a crashed node does not answer at all
    sim.tick(100)
    assert sim.verlauf[-1]["error"] == "Zeitüberschreitung"


def test_the_up_to_date_rule_keeps_a_stale_node_from_leading() -> None:
    sim = gewaehlt(seed=4)
    leader = sim.leader()
    assert leader is not None
    alt, frisch = [n for n in sim.namen if n != leader]
    sim.trenne([alt])
    for i in range(3):
        sim.schreibe("c1", i)
        sim.tick(10)
    sim.absturz(leader)
    sim.heile()
    sim.tick(200)
    assert sim.leader() == frisch  # alt's log lacks committed entries: no vote for it
    assert len(sim.leader_je_term) >= 2
    assert sim.verletzungen == []


def test_a_paused_leader_is_replaced_and_steps_down_when_it_wakes() -> None:
    sim = gewaehlt()
    alt = sim.leader()
    assert alt is not None
    sim.schreibe("c1", 1, an=alt)
    sim.pausiere(alt, 100)
    sim.tick(80)
    neu = sim.leader()
    assert neu not in (None, alt)
    sim.tick(40)
    assert sim.knoten[alt].rolle == FOLLOWER
    assert sim.knoten[alt].term == sim.knoten[neu or ""].term
    assert sim.verletzungen == [] and linearisierbar(sim.verlauf).ok


def test_the_same_seed_gives_the_same_run() -> None:
    def lauf(seed: int) -> list[object]:
        sim = gewaehlt(seed=seed)
        sim.absturz(sim.leader() or "")
        sim.schreibe("c", 1)
        sim.tick(100)
        return [*sim.verlauf, sim.protokoll]

    assert lauf(5) == lauf(5)
    assert lauf(5) != lauf(6) or lauf(5) != lauf(7)


def test_a_shared_clock() -> None:
    uhr = Zeit()
    sim = RaftSim(seed=1, zeit=uhr)
    uhr.tick(80)
    assert sim.now == 80 and sim.leader() is not None


def test_errors_are_german_and_change_nothing() -> None:
    with pytest.raises(UngueltigeEingabe, match="3 oder 5 Knoten"):
        RaftSim(4)
    with pytest.raises(UngueltigeEingabe, match="Heartbeat"):
        RaftSim(herzschlag=20, wahl_frist=(10, 20))
    sim = gewaehlt()
    with pytest.raises(UnbekannterKnoten, match="Den Knoten „n9“ gibt es nicht"):
        sim.absturz("n9")
    with pytest.raises(SimFehler, match="läuft doch"):
        sim.neustart("n1")
    sim.schreibe("c1", 1)
    with pytest.raises(SimFehler, match="wartet noch"):
        sim.schreibe("c1", 2)
    assert len(sim.verlauf) == 1
    with pytest.raises(UngueltigeEingabe, match="zwei Gruppen"):
        sim.trenne(sim.namen)
    with pytest.raises(UngueltigeEingabe, match="nur in einer Gruppe"):
        sim.trenne(["n1"], ["n1", "n2"])
    assert sim.gruppen is None


def test_the_table_refuses_what_cannot_happen() -> None:
    assert schlage_nach(UEBERGAENGE, LEADER, "absturz") == ABGESTUERZT
    with pytest.raises(ZustandsFehler):
        schlage_nach(UEBERGAENGE, LEADER, "leader_gesehen")  # two leaders in one term


def test_status_names_every_node() -> None:
    sim = gewaehlt()
    text = sim.status()
    assert all(f"{n}:" in text for n in sim.namen) and "Leader" in text
