"""Figure 8 of the Raft paper: a leader must not commit an entry of an earlier term by
counting its replicas; it becomes committed only with an entry of the leader's own term.

The scenario turns off the empty entry of a new leader (as in the paper's figure; with it,
every acknowledgement to a new leader covers an entry of its term). The second variant also
turns off the current-term check (``_alte_terme_zaehlen``) and shows the committed entry
being lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysim.raft import LEADER, RaftSim


@dataclass
class Lage:
    sim: RaftSim
    alt: str  # the leader of (a), whose entry 2 is the old one
    b: str  # the leader of (b), with a competing entry 2 of a later term
    a: str  # the leader of (c), which replicates the old entry to a majority
    alter_eintrag_term: int


def waehle(sim: RaftSim, unter: set[str], ticks: int = 400) -> str:
    for _ in range(ticks):
        sim.tick(1)
        leader = sim.leader()
        if leader in unter and sim.knoten[leader].term == max(sim.knoten[n].term for n in unter):
            return leader
    raise AssertionError(f"no leader among {sorted(unter)}: {sim.status()}")


def bis_figur_8c(alte_terme_zaehlen: bool, seed: int) -> Lage:
    sim = RaftSim(5, seed=seed)
    sim._ohne_leeren_eintrag = True
    sim._alte_terme_zaehlen = alte_terme_zaehlen
    alle = set(sim.namen)
    alt = waehle(sim, alle)
    sim.schreibe("c0", 1)  # entry 1, committed everywhere
    sim.tick(30)
    assert all(k.commit == 1 for k in sim.knoten.values())
    # (a) the leader replicates entry 2 to one follower only, then crashes
    mit = next(n for n in sim.namen if n != alt)
    sim.trenne([alt, mit])
    sim.schreibe("c1", 2, an=alt)
    sim.tick(8)
    assert len(sim.knoten[mit].log) == 2
    alter_term = sim.knoten[alt].log[1].term
    sim.absturz(alt)
    # (b) the other three elect a leader, which takes entry 2 of its term alone, then crashes
    rest = alle - {alt, mit}
    b = waehle(sim, rest)
    sim.trenne([b])
    sim.schreibe("c2", 3, an=b)
    sim.tick(1)
    assert sim.knoten[b].log[1].term > alter_term
    sim.absturz(b)
    sim.tick(5)  # what it sent is dropped at the partition
    # (c) the old leader restarts; it or its follower leads and replicates the old entry 2
    sim.heile()
    sim.neustart(alt)
    a = waehle(sim, alle - {b})
    assert a in (alt, mit)
    sim.tick(20)
    haben = [n for n, k in sim.knoten.items() if len(k.log) >= 2 and k.log[1].term == alter_term]
    assert len(haben) >= sim.mehrheit  # on a majority now
    assert all(k.log[1].term == alter_term for n, k in sim.knoten.items() if n != b)
    return Lage(sim, alt, b, a, alter_term)


SEEDS = range(6)


def test_an_old_term_entry_on_a_majority_is_not_committed_until_one_of_the_term_is() -> None:
    for seed in SEEDS:
        lage = bis_figur_8c(False, seed)
        sim = lage.sim
        sim_a = sim.knoten[lage.a]
        assert sim_a.rolle == LEADER and sim_a.term > lage.alter_eintrag_term
        # replicated on a majority, not committed (a restarted leader knows no commit index)
        assert sim_a.commit < 2 and 2 not in sim.festgeschrieben, sim.status()
        # an entry of the current term commits, and entry 2 with it
        sim.schreibe("c3", 4, an=lage.a)
        sim.tick(20)
        assert sim_a.commit == 3, sim.status()
        assert sim.festgeschrieben[2][0].term == lage.alter_eintrag_term
        # (d) the leader of (b) comes back: it cannot win, and entry 2 stays
        sim.absturz(lage.a)
        sim.neustart(lage.b)
        sim.tick(300)
        assert sim.verletzungen == [], sim.verletzungen
        assert all(k.log[1].term == lage.alter_eintrag_term for k in sim.knoten.values())


def test_counting_old_replicas_loses_a_committed_entry() -> None:
    verloren = 0
    for seed in SEEDS:
        lage = bis_figur_8c(True, seed)
        sim = lage.sim
        a = sim.knoten[lage.a]
        assert a.commit == 2, sim.status()  # counted the old entry's replicas: committed
        # (d) the leader crashes; the leader of (b) returns and wins with its later term
        sim.absturz(lage.a)
        sim.trenne([n for n in sim.namen if n not in (lage.b, lage.a)][:1])
        sim.neustart(lage.b)
        sim.tick(300)
        neu = sim.knoten[lage.b]
        assert neu.log[1].term > lage.alter_eintrag_term
        fehlt = [v for v in sim.verletzungen if "Der committete Eintrag 2 " in v]
        assert fehlt and f"fehlt im Log von {lage.b}" in fehlt[0], sim.verletzungen
        verloren += 1
    assert verloren == len(SEEDS)
