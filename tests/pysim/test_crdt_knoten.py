"""CrdtKnoten as plain nodes on pysim.cluster: convergence under loss, partitions and crashes,
the state on disk, local updates through messages, and a node that holds no way to the
cluster; CrdtSim as the front on such a cluster (crashes, the same run from the same seed)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster
from pysim.crdt import SYNC, TYPEN, CrdtKnoten, CrdtSim
from pysim.fehler import SimFehler
from pysim.zeit import Zeit
from tests.pysim.erreichbar import verweise

#: Per type: the local updates a client may ask for, as (op, args).
OPERATIONEN: dict[str, st.SearchStrategy[tuple[str, list[Any]]]] = {
    "GCounter": st.tuples(st.just("erhoehe"), st.lists(st.integers(1, 3), min_size=1, max_size=1)),
    "PNCounter": st.tuples(
        st.sampled_from(["erhoehe", "verringere"]),
        st.lists(st.integers(1, 3), min_size=1, max_size=1),
    ),
    "LWWRegister": st.tuples(
        st.just("setze"), st.lists(st.sampled_from("xyz"), min_size=1, max_size=1)
    ),
    "MVRegister": st.tuples(
        st.just("setze"), st.lists(st.sampled_from("xyz"), min_size=1, max_size=1)
    ),
    "ORSet": st.tuples(
        st.sampled_from(["hinzufuegen", "entfernen"]),
        st.lists(st.sampled_from(["milch", "brot"]), min_size=1, max_size=1),
    ),
}


def _klasse(typ: str, gossip: int | None = 4) -> type[CrdtKnoten]:
    return type("Replikat", (CrdtKnoten,), {"TYP": TYPEN[typ], "GOSSIP": gossip})


class _Client:
    """A client beside the nodes: sends local updates, keeps the replies."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster, self.antworten = cluster, []
        self.nummer = 0
        self.gesendet: dict[int, list[Any]] = {}
        cluster.anmelden("c1", self.antworten.append, client=True)

    def aendere(self, knoten: str, op: str, args: list[Any]) -> None:
        self.nummer += 1
        self.gesendet[self.nummer] = args
        self.cluster.sende(
            "c1", knoten, {"type": "aendere", "op": op, "args": args, "msg_id": self.nummer}
        )


def _schritte() -> st.SearchStrategy[list[tuple[Any, ...]]]:
    knoten = st.sampled_from(["n1", "n2", "n3"])
    return st.lists(
        st.one_of(
            st.tuples(st.just("op"), knoten, st.integers(0, 1000)),
            st.tuples(st.just("teile"), knoten),
            st.just(("heile",)),
            st.tuples(st.just("absturz"), knoten),
            st.tuples(st.just("neustart"), knoten),
            st.tuples(st.just("tick"), st.integers(1, 12)),
        ),
        max_size=25,
    )


@settings(max_examples=60, deadline=None)
@given(
    typ=st.sampled_from(list(OPERATIONEN)),
    seed=st.integers(0, 10_000),
    verlust=st.sampled_from([0.0, 0.2]),
    schritte=_schritte(),
    data=st.data(),
)
def test_replicas_converge_after_partitions_crashes_and_loss_heal(
    typ: str,
    seed: int,
    verlust: float,
    schritte: list[tuple[Any, ...]],
    data: st.DataObject,
) -> None:
    cluster = Cluster(_klasse(typ), 3, seed=seed, verlust=verlust, code_der_leserin=False)
    client = _Client(cluster)
    for schritt in schritte:
        if schritt[0] == "op":
            op, args = data.draw(OPERATIONEN[typ])
            client.aendere(schritt[1], op, args)
        elif schritt[0] == "teile":
            cluster.trenne([schritt[1]])
        elif schritt[0] == "heile":
            cluster.heile()
        elif schritt[0] == "absturz":
            cluster.absturz(schritt[1])
        elif schritt[0] == "neustart":
            cluster.neustart(schritt[1])
        else:
            cluster.laufe(cluster.zeit.now + schritt[1])
        cluster.laufe(cluster.zeit.now)  # the client's request arrives in this tick
    cluster.heile()
    for k in cluster.ids:
        cluster.neustart(k)
    cluster.laufe(cluster.zeit.now + 80)
    zustaende = [cluster.objekt(k).crdt.zustand() for k in cluster.ids]  # type: ignore[union-attr]
    assert zustaende[0] == zustaende[1] == zustaende[2]
    if typ == "GCounter":  # every acknowledged increment is on disk: none lost, none twice
        bestaetigt = [
            client.gesendet[a.body["in_reply_to"]][0]
            for a in client.antworten
            if a.body["type"] == "aendere_ok"
        ]
        assert cluster.objekt("n1").crdt.wert == sum(bestaetigt)  # type: ignore[union-attr]


def test_every_acknowledged_increment_survives_crashes() -> None:
    cluster = Cluster(_klasse("GCounter"), 3, seed=5, code_der_leserin=False)
    client = _Client(cluster)
    for i in range(6):
        client.aendere(f"n{1 + i % 3}", "erhoehe", [2])
        cluster.laufe(cluster.zeit.now + 1)
    cluster.absturz("n1")
    client.aendere("n1", "erhoehe", [5])  # reaches nobody: n1 is down
    cluster.laufe(cluster.zeit.now + 3)
    cluster.neustart("n1")
    cluster.laufe(cluster.zeit.now + 40)
    assert [a.body["type"] for a in client.antworten] == ["aendere_ok"] * 6
    assert [cluster.objekt(k).crdt.wert for k in cluster.ids] == [12, 12, 12]  # type: ignore[union-attr]


def test_a_restarted_node_finds_its_state_on_disk_and_drops_what_came_while_it_was_down() -> None:
    cluster = Cluster(_klasse("ORSet", gossip=None), 2, latenz=(2, 2), code_der_leserin=False)
    eins = cluster.objekt("n1")
    assert isinstance(eins, CrdtKnoten)
    eins.crdt.hinzufuegen("milch")  # type: ignore[attr-defined]
    zwei = cluster.objekt("n2")
    assert isinstance(zwei, CrdtKnoten)
    zwei.crdt.hinzufuegen("brot")  # type: ignore[attr-defined]
    zwei.sync()
    cluster.absturz("n1")
    cluster.laufe(5)
    assert cluster.sendungen[-1].schicksal == "empfänger aus"
    cluster.neustart("n1")
    neu = cluster.objekt("n1")
    assert isinstance(neu, CrdtKnoten) and neu is not eins
    assert neu.crdt.wert == ["milch"] and neu.replikat == "n1"
    assert neu.zustand() == {"wert": "{milch}"}


def test_local_updates_come_as_messages_and_a_wrong_one_is_an_error() -> None:
    cluster = Cluster(_klasse("PNCounter", gossip=None), 2, code_der_leserin=False)
    client = _Client(cluster)
    client.aendere("n1", "verringere", [3])
    client.aendere("n1", "setze", [3])
    client.aendere("n1", "erhoehe", [0])
    cluster.sende("c1", "n1", {"type": "lies", "msg_id": 99})
    cluster.laufe(1)
    bodies = [a.body for a in client.antworten]
    assert bodies[0] == {"type": "aendere_ok", "wert": -3, "in_reply_to": 1}
    assert bodies[1]["code"] == 12 and "erhoehe, verringere" in bodies[1]["text"]
    assert bodies[2]["code"] == 22
    assert bodies[3] == {"type": "lies_ok", "wert": -3, "in_reply_to": 99}


def test_a_state_of_another_type_changes_nothing() -> None:
    cluster = Cluster(_klasse("GCounter", gossip=None), 2, code_der_leserin=False)
    cluster.sende("n2", "n1", {"type": SYNC, "zustand": TYPEN["ORSet"]("n2")})
    cluster.laufe(10)
    assert cluster.objekt("n1").crdt == TYPEN["GCounter"]("n1")  # type: ignore[union-attr]
    assert cluster.fehler == []


def test_a_node_holds_no_reference_to_the_cluster() -> None:
    sim = CrdtSim("ORSet", seed=2)
    sim["A"].hinzufuegen("milch")
    sim.sync()
    sim.warte()
    for k in sim.cluster.ids:
        objekt = sim.cluster.objekt(k)
        assert isinstance(objekt, CrdtKnoten)
        verboten = (Cluster, CrdtSim, Zeit)
        assert not [x for x in verweise(objekt) if isinstance(x, verboten)]
        assert not [x for x in verweise(dict(vars(type(objekt)))) if isinstance(x, verboten)]
    assert sim.cluster.objekt("n1").replikat == "A"  # type: ignore[union-attr]


# --- the front ---


def _lauf(seed: int, verlust: float, duplikat: float) -> CrdtSim:
    sim = CrdtSim("ORSet", seed=seed, verlust=verlust, duplikat=duplikat)
    sim["A"].hinzufuegen("milch")
    sim.sync()
    sim.tick(2)
    sim.trenne("A", ["B", "C"])
    sim["B"].hinzufuegen("brot")
    sim.absturz("C")
    sim.sync()
    sim.warte()
    sim.neustart("C")
    sim.heile()
    sim.sync()
    sim.warte()
    return sim


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    verlust=st.sampled_from([0.0, 0.3]),
    duplikat=st.sampled_from([0.0, 0.4]),
)
def test_the_same_seed_gives_the_same_run(seed: int, verlust: float, duplikat: float) -> None:
    a, b = _lauf(seed, verlust, duplikat), _lauf(seed, verlust, duplikat)
    assert repr(a.ereignisse) == repr(b.ereignisse)
    assert repr(a.netz.sendungen) == repr(b.netz.sendungen)
    assert a.bild().svg == b.bild().svg


def test_a_crashed_replica_keeps_its_state_drops_states_and_takes_no_updates() -> None:
    sim = CrdtSim("GCounter", seed=1)
    sim["C"].erhoehe(3)
    sim.absturz("C")
    assert sim.werte()["C"] == 3  # on disk
    with pytest.raises(SimFehler, match=r"C ist abgestürzt: erhoehe\(…\) geht erst wieder"):
        sim["C"].erhoehe()
    with pytest.raises(SimFehler, match="C ist abgestürzt: sync"):
        sim.sync("C")
    with pytest.raises(SimFehler, match="C ist schon abgestürzt"):
        sim.absturz("C")
    with pytest.raises(SimFehler, match="läuft doch"):
        sim.neustart("A")
    sim["A"].erhoehe()
    sim.sync()  # only the running replicas send
    sim.warte()
    weg = [e for e in sim.ereignisse if e.art == "verworfen"]
    assert [(e.knoten, e.text) for e in weg] == [
        ("C", "✗ von A (abgestürzt)"),
        ("C", "✗ von B (abgestürzt)"),
    ]
    assert not sim.konvergiert()
    sim.neustart("C")
    sim.sync()
    sim.warte()
    assert sim.konvergiert() and sim.werte() == {"A": 4, "B": 4, "C": 4}
    arten = [e.art for e in sim.ereignisse if not e.knoten]
    assert arten == ["absturz", "neustart"]
    assert "C stürzt ab" in sim.bild().svg


def test_the_front_shows_its_network_as_the_fake_network_did() -> None:
    sim = CrdtSim("PNCounter", seed=4, duplikat=0.5)
    sim["A"].erhoehe(5)
    sim.sync("A")
    kopien = [len(s.ankunftszeiten) for s in sim.netz.sendungen]
    assert len(kopien) == 2 and sim.netz.unterwegs == sum(kopien) > 2  # one came twice
    assert "2 gesendet" in repr(sim.netz)
    sim.warte()
    assert sim.netz.unterwegs == 0 and sim.verloren() == []
    assert sim.nachrichten[0].zustand == sim["A"].crdt
    assert sim.nachrichten[0].zustand is not sim["A"].crdt  # a copy went on the wire


def test_a_message_the_front_did_not_send_is_merged_but_not_recorded() -> None:
    sim = CrdtSim("GCounter", knoten=["A", "B"])
    fremd = TYPEN["GCounter"]("B")
    fremd.erhoehe(7)  # type: ignore[attr-defined]
    sim.cluster.sende("n2", "n1", {"type": SYNC, "zustand": fremd})
    sim.tick(10)
    assert sim.werte() == {"A": 7, "B": 0}
    assert sim.ereignisse == [] and sim.nachrichten == []
