"""RaftKnoten as plain nodes on pysim.cluster: elections under faults, clients, the vote rule
as a method, and a node that holds no way to the cluster."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, InvarianteVerletzt
from pysim.cluster.stoerungen import plan_aus_text
from pysim.fehler import SimFehler
from pysim.raft import LEADER, Eintrag, RaftKnoten, RaftSim, Stimmanfrage, pruefe_wahl
from pysim.raft.knoten import Aufsicht
from pysim.zeit import Zeit
from tests.pysim.erreichbar import verweise


class Zeuge:
    """An ``Aufsicht`` that records every leader of a term and every committed entry."""

    def __init__(self) -> None:
        self.leader_je_term: dict[int, list[str]] = {}
        self.eintraege: dict[int, Eintrag] = {}
        self.fehler: list[str] = []
        self.notizen: list[tuple[int, str]] = []

    def notiere(self, zeit: int, text: str) -> None:
        self.notizen.append((zeit, text))

    def leader(self, zeit: int, knoten: str, term: int, log: Sequence[Eintrag]) -> None:
        self.leader_je_term.setdefault(term, []).append(knoten)

    def committet(self, zeit: int, knoten: str, term: int, index: int, eintrag: Eintrag) -> None:
        if self.eintraege.setdefault(index, eintrag) != eintrag:
            self.fehler.append(f"{knoten} committet an {index} etwas anderes")

    def verletzung(self, zeit: int, text: str) -> None:
        self.fehler.append(text)

    def regelfehler(self, fehler: SimFehler) -> None:
        raise fehler


def beobachtet(basis: type[RaftKnoten], zeuge: Aufsicht) -> type[RaftKnoten]:
    class Beobachtet(basis):  # type: ignore[valid-type,misc]
        AUFSICHT: ClassVar[Aufsicht | None] = zeuge

    return Beobachtet


def stoere(cluster: Cluster, zufall: random.Random, runden: int) -> None:
    """Partitions, crashes and pauses at random, between runs of 7 ticks."""
    ids = cluster.ids
    for _ in range(runden):
        wahl = zufall.randrange(6)
        k = zufall.choice(ids)
        if wahl == 0:
            cluster.trenne([k], [x for x in ids if x != k])
        elif wahl == 1:
            cluster.heile()
        elif wahl == 2:
            cluster.absturz(k)
        elif wahl == 3:
            cluster.neustart(k)
        elif wahl == 4:
            cluster.pausiere(k)
        else:
            cluster.fortsetzen(k)
        cluster.laufe(cluster.zeit.now + 7)
    cluster.heile()
    for k in ids:
        cluster.neustart(k)
        cluster.fortsetzen(k)
    cluster.laufe(cluster.zeit.now + 150)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from((3, 5)), st.integers(0, 40))
def test_raft_nodes_on_a_plain_cluster_elect_one_leader_per_term(
    seed: int, anzahl: int, runden: int
) -> None:
    zeuge = Zeuge()
    cluster = Cluster(beobachtet(RaftKnoten, zeuge), anzahl, seed=seed, latenz=(1, 3))
    stoere(cluster, random.Random(seed), runden)
    assert not cluster.fehler
    assert all(len(namen) == 1 for namen in zeuge.leader_je_term.values()), zeuge.leader_je_term
    assert not zeuge.fehler
    # after the faults, a quiet cluster has a leader every running node follows
    leader = [k for k in cluster.ids if getattr(cluster.objekt(k), "rolle", None) == LEADER]
    assert len(leader) == 1
    terme = {cluster.objekt(k).term for k in cluster.ids}  # type: ignore[union-attr]
    assert len(terme) == 1


def test_a_client_writes_through_the_leader_and_a_follower_refuses() -> None:
    cluster = Cluster(RaftKnoten, 3, seed=4, latenz=(1, 3))
    antworten: list[dict[str, Any]] = []
    cluster.anmelden("c1", lambda n: antworten.append(n.body), client=True)
    cluster.laufe(60)
    leader = next(k for k in cluster.ids if cluster.objekt(k).rolle == LEADER)  # type: ignore[union-attr]
    follower = next(k for k in cluster.ids if k != leader)
    cluster.sende("c1", follower, {"type": "write", "key": "x", "value": 7, "msg_id": 1})
    cluster.sende("c1", leader, {"type": "write", "key": "x", "value": 8, "msg_id": 2})
    cluster.laufe(80)
    cluster.sende("c1", leader, {"type": "read", "key": "x", "msg_id": 3})
    cluster.laufe(100)
    assert antworten == [
        {"type": "error", "code": 11, "text": "nicht Leader", "in_reply_to": 1},
        {"type": "write_ok", "in_reply_to": 2},
        {"type": "read_ok", "value": 8, "in_reply_to": 3},
    ]
    for k in cluster.ids:  # term, vote and log in speicher; the register in the object
        objekt = cluster.objekt(k)
        assert isinstance(objekt, RaftKnoten)
        assert objekt.speicher["log"][-2:] == [
            Eintrag(objekt.term, "write", "x", 8, "c1", 2),
            Eintrag(objekt.term, "read", "x", None, "c1", 3),
        ]
        assert objekt.register == {"x": 8}


def test_term_vote_and_log_survive_a_crash_the_rest_does_not() -> None:
    cluster = Cluster(RaftKnoten, 3, seed=2, latenz=(1, 3))
    cluster.laufe(60)
    objekt = cluster.objekt("n1")
    assert isinstance(objekt, RaftKnoten) and objekt.commit >= 1
    vorher = (objekt.term, objekt.stimme, list(objekt.log))
    cluster.absturz("n1")
    cluster.neustart("n1")
    neu = cluster.objekt("n1")
    assert isinstance(neu, RaftKnoten) and neu is not objekt
    assert (neu.term, neu.stimme, list(neu.log)) == vorher
    assert (neu.rolle, neu.commit, neu.register) == ("Follower", 0, {})


class Grosszuegig(RaftKnoten):
    """A wrong rule as the override a reader writes: a vote for everyone in its own term."""

    def stimmt_fuer(self, anfrage: Stimmanfrage) -> bool:
        return anfrage.term == anfrage.mein_term


def test_the_vote_rule_is_a_method_and_a_wrong_one_makes_two_leaders() -> None:
    zwei = 0
    for seed in range(30):
        zeuge = Zeuge()
        cluster = Cluster(beobachtet(Grosszuegig, zeuge), 5, seed=seed, latenz=(1, 3))
        stoere(cluster, random.Random(seed), 20)
        zwei += any(len(namen) > 1 for namen in zeuge.leader_je_term.values())
    assert zwei > 0


def zwei_stimmen(a: Stimmanfrage) -> bool:
    return a.term == a.mein_term


def test_pruefe_wahl_catches_a_rule_that_votes_twice_per_term() -> None:
    befund = pruefe_wahl(zwei_stimmen, seeds=range(40))
    assert not befund.ok
    assert "Zwei Leader in Term" in befund.text or "fehlt im Log" in befund.text


def test_a_rule_that_raises_stops_the_tick_where_it_raised() -> None:
    def kaputt(a: Stimmanfrage) -> bool:
        raise ValueError("kaputt")

    sim = RaftSim(3, seed=1, stimmregel=kaputt)
    try:
        sim.tick(40)
    except SimFehler as fehler:
        assert "Stimmregel „kaputt“ ist bei der Anfrage von n2 (Term 1)" in str(fehler)
        assert isinstance(fehler.__cause__, ValueError)
    else:
        raise AssertionError("the rule's error must reach the caller")
    # as before the cluster: the clock stands at the first RequestVote (n2's, sent at t=17)
    assert sim.now == 19
    assert sim.knoten["n3"].term == 0 and sim.knoten["n1"].rolle == "Kandidat"


def test_a_node_holds_no_reference_to_the_cluster() -> None:
    sim = RaftSim(3, seed=4)
    sim.tick(80)
    sim.schreibe("c1", 5)
    sim.tick(20)
    for name in sim.namen:
        objekt = sim.cluster.objekt(name)
        assert isinstance(objekt, RaftKnoten)
        erreichbar = verweise(objekt)
        assert not [x for x in erreichbar if isinstance(x, Cluster | RaftSim | Zeit)]
        # its class carries the simulation's settings and watcher, which hold values only
        klasse = type(objekt)
        assert not [
            x for x in verweise(dict(vars(klasse))) if isinstance(x, Cluster | RaftSim | Zeit)
        ]
        assert isinstance(objekt.speicher["log"][0], Eintrag)


def hoechstens_ein_leader_je_term(zustaende: Any) -> object:
    """Raft's Election Safety as the cluster's invariant, on each node's ``zustand()``."""
    leader: dict[object, list[str]] = {}
    for knoten, zustand in sorted(zustaende.items()):
        if zustand.get("rolle") == LEADER:
            leader.setdefault(zustand["term"], []).append(knoten)
    doppelt = {term: namen for term, namen in leader.items() if len(namen) > 1}
    return not doppelt or "; ".join(
        f"Term {term}: {' und '.join(namen)}" for term, namen in doppelt.items()
    )


def test_a_fault_aimed_at_the_leader_hits_it_and_a_new_leader_follows_under_the_invariant() -> None:
    cluster = Cluster(RaftKnoten, 5, seed=3, latenz=(1, 3))
    cluster.invariante("höchstens ein Leader je Term", hoechstens_ein_leader_je_term)
    for stoerung in plan_aus_text("60:absturz:[Leader];140:neustart:[Leader]", cluster.ids):
        cluster.zeit.schedule_zuerst(stoerung.zeit, stoerung.anwenden, cluster)
    cluster.laufe(59)
    erster = [k for k, z in cluster.zustaende().items() if z["rolle"] == LEADER]
    assert len(erster) == 1
    cluster.laufe(200)
    assert f"{erster[0]} stürzt ab (Rolle {LEADER})" in [e.text for e in cluster.ereignisse]
    zustaende = cluster.zustaende()
    neu = [k for k, z in zustaende.items() if z["rolle"] == LEADER]
    assert len(neu) == 1 and neu != erster
    assert zustaende[neu[0]]["term"] > 1 and cluster.verletzung is None


def test_a_wrong_vote_rule_breaks_the_invariant_at_the_event_that_made_a_second_leader() -> None:
    for seed in range(30):
        cluster = Cluster(Grosszuegig, 5, seed=seed, latenz=(1, 3))
        cluster.invariante("höchstens ein Leader je Term", hoechstens_ein_leader_je_term)
        try:
            stoere(cluster, random.Random(seed), 20)
            cluster.laufe(cluster.zeit.now + 100)
        except InvarianteVerletzt as verletzt:
            v = verletzt.verletzung
            assert v.name == "höchstens ein Leader je Term" and " und " in str(v.grund)
            assert sum(z["rolle"] == LEADER for z in v.zustaende.values()) >= 2
            return
    raise AssertionError("no seed gave the wrong rule a second leader in a term")
