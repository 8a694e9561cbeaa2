"""Replication as nodes of the cluster: ReplikKnoten on a plain Cluster, the coordinator's
``await self.erste``, the cluster's additions it needs (a latency per link, extra nodes,
dropped messages reported, a front's call into a node), and the front on top of them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, Knoten
from pysim.cluster.cluster import GETRENNT, InvarianteVerletzt, Sendung
from pysim.cluster.nachricht import Nachricht
from pysim.cluster.stoerungen import plan_aus_text
from pysim.replikation import LEADER, ReplikSpeicher
from pysim.replikation.knoten import (
    KoordinatorKnoten,
    ReplikKnoten,
    kein_bestaetigtes_verloren,
)

# --- replicas on a plain cluster ------------------------------------------------------------


def _cluster(sync: int) -> tuple[Cluster, list[dict[str, Any]]]:
    """Three replicas (n1 leads) whose followers hear the leader late (8 ticks), a client c1
    that writes x=1 at t=1 and promotes n2 at t=4, and the leader crashed at t=3 by a fault
    aimed at its role."""

    class Replik(ReplikKnoten):
        SYNC = sync

    cluster = Cluster(Replik, 3, latenz=(1, 1))
    cluster.latenz_zwischen("n1", ["n2", "n3"], (8, 8))
    antworten: list[dict[str, Any]] = []
    cluster.anmelden("c1", lambda n: antworten.append(n.body), client=True)
    zeit = cluster.zeit
    zeit.schedule(
        1, cluster.sende, "c1", "n1", {"type": "write", "key": "x", "value": 1, "msg_id": 1}
    )
    for stoerung in plan_aus_text("3:absturz:[Leader]", cluster.ids):
        zeit.schedule_zuerst(stoerung.zeit, stoerung.anwenden, cluster)
    zeit.schedule(4, cluster.sende, "c1", "n2", {"type": "befoerdere", "epoche": 2})
    cluster.invariante("kein bestätigtes Schreiben verloren", kein_bestaetigtes_verloren)
    return cluster, antworten


def test_async_replicas_lose_an_acknowledged_write_when_the_fault_hits_the_leader() -> None:
    cluster, antworten = _cluster(sync=0)
    with pytest.raises(InvarianteVerletzt) as info:
        cluster.laufe(30)
    assert antworten == [{"type": "write_ok", "lsn": 1, "in_reply_to": 1}]
    assert [e.text for e in cluster.ereignisse][-1] == "n1 stürzt ab (Rolle Leader)"
    v = info.value.verletzung
    assert (v.zeit, v.name) == (4, "kein bestätigtes Schreiben verloren")
    assert v.grund == (
        "Der Leader n2 hat den Eintrag LSN 1 (Epoche 1) nicht, den n1 einem Client als "
        "geschrieben bestätigt hat."
    )
    assert v.zustaende["n1"]["rolle"] == LEADER  # what the crashed leader showed last
    assert v.zustaende["n2"]["rolle"] == LEADER and v.zustaende["n2"]["epoche"] == 2


def test_a_leader_that_waits_for_its_followers_loses_nothing_to_the_same_fault() -> None:
    cluster, antworten = _cluster(sync=2)
    cluster.laufe(30)  # the invariant holds after every event
    assert antworten == []  # n1 crashed before both followers acknowledged: never confirmed
    assert cluster.rollen(LEADER) == ["n2"]
    assert cluster.zustand("n3")["epoche"] == 2
    assert cluster.zustand("n3")["log"] == []  # the new leader's log, taken over
    # the old leader's entry arrives late, from an old epoch (no AUFSICHT: notes in the log)
    assert [str(z) for z in cluster.protokoll.zeilen()] == [
        f"t=9 {k}: {k} weist x=1 (LSN 1) von n1 ab: Epoche 1 ist veraltet (sie kennt Epoche 2)."
        for k in ("n2", "n3")
    ]


def test_a_follower_refuses_a_clients_write() -> None:
    cluster = Cluster(ReplikKnoten, 2)
    antworten: list[dict[str, Any]] = []
    cluster.anmelden("c1", lambda n: antworten.append(n.body), client=True)
    cluster.sende("c1", "n2", {"type": "write", "key": "x", "value": 1, "msg_id": 7})
    cluster.laufe(1)
    assert antworten == [
        {
            "type": "error",
            "code": 11,
            "text": "n2 ist Follower und nimmt kein Schreiben an.",
            "in_reply_to": 7,
        }
    ]


# --- what the cluster gained for it (additive) ----------------------------------------------


class _Still(Knoten):
    def bei_ping(self, nachricht: Nachricht) -> None:
        self.notiz(f"ping von {nachricht.src}")


class _Fragt(Knoten):
    async def alle_fragen(self, k: int) -> None:
        ziele = [n for n in self.knoten if n != self.id]
        antworten = await self.erste(k, [self.frage(z, {"type": "echo"}) for z in ziele])
        self.notiz(f"{k} Antworten von {' '.join(a.src for a in antworten)}")


class _Echo(Knoten):
    def bei_echo(self, nachricht: Nachricht) -> None:
        self.antworte(nachricht, {"type": "echo_ok"})


def test_a_link_draw_knows_both_ends() -> None:
    gefragt: list[tuple[str, str]] = []

    def leitung(von: str, nach: str) -> tuple[int, ...]:
        gefragt.append((von, nach))
        return (int(nach[1:]) * 2,)  # to n2: 4 ticks, to n3: 6 ticks

    cluster = Cluster(_Still, 3, netz_leitung=leitung)
    a = cluster.sende("n1", "n2", {"type": "ping"})
    b = cluster.sende("n1", "n3", {"type": "ping"})
    assert a is not None and b is not None
    assert (a.ankunft, b.ankunft) == (4, 6)
    assert gefragt == [("n1", "n2"), ("n1", "n3")]


def test_extra_nodes_have_their_own_name_and_class_and_a_front_calls_into_one() -> None:
    cluster = Cluster(_Echo, 3, weitere={"chef": _Fragt}, latenz=(2, 2))
    assert cluster.ids == ["n1", "n2", "n3", "chef"]
    chef = cluster.objekt("chef")
    assert isinstance(chef, _Fragt) and chef.knoten == cluster.ids
    cluster.absturz("n3")
    cluster.rufe("chef", chef.alle_fragen, 2)  # an async method runs as the node's handler
    cluster.laufe(30)
    assert [str(z) for z in cluster.protokoll.zeilen()] == ["t=4 chef: 2 Antworten von n1 n2"]


def test_the_cluster_reports_each_message_its_receiver_drops() -> None:
    cluster = Cluster(_Still, 3, latenz=(1, 1))
    verworfen: list[Sendung] = []
    cluster.bei_verworfen = verworfen.append
    cluster.trenne(["n1"], ["n2", "n3"])
    cluster.sende("n1", "n2", {"type": "ping"})
    cluster.sende("n3", "n2", {"type": "ping"})
    cluster.laufe(5)
    assert [(s.nachricht.src, s.nachricht.dest, s.schicksal) for s in verworfen] == [
        ("n1", "n2", GETRENNT)
    ]


# --- the front on the cluster ---------------------------------------------------------------


def test_the_store_runs_its_replicas_and_coordinator_as_nodes_of_one_cluster() -> None:
    s = ReplikSpeicher(verzoegerung=1)
    assert s.cluster.ids == ["n1", "n2", "n3", "koordinator"]
    assert all(isinstance(s.cluster.objekt(n), ReplikKnoten) for n in s.namen)
    assert s.cluster.rollen(LEADER) == ["n1"]
    s.write("x", 1)
    s.trenne("n1")
    s.failover("n2")
    assert s.cluster.rollen(LEADER) == ["n1", "n2"]  # split brain, as the lesson shows
    s.heile("n1")
    s.tick(3)
    assert s.cluster.rollen(LEADER) == ["n2"]
    q = ReplikSpeicher()
    cluster = q.cluster
    q.quorum(3, 2, 2)  # the same n: the same cluster, the roles change
    assert q.cluster is cluster and cluster.rollen(LEADER) == []
    assert isinstance(cluster.objekt("koordinator"), KoordinatorKnoten)


def test_another_n_builds_a_new_cluster_on_the_same_clock() -> None:
    s = ReplikSpeicher()
    alt = s.cluster
    s.trenne("n2")
    s.heile("n2")  # the leader's log is on its way to n2 on the old cluster
    s.quorum(5, 3, 3)
    assert s.cluster is not alt and s.cluster.zeit is alt.zeit
    assert s.namen == ["n1", "n2", "n3", "n4", "n5"]
    s.absturz("n5")
    assert s.write("x", 1).ok and s.read("x").wert == 1
    assert s.ereignisse()[-1].text.endswith("verloren: n5 ist ausgefallen.")


@settings(max_examples=60, deadline=None)
@given(
    lags=st.lists(st.integers(0, 4), min_size=3, max_size=3),
    ops=st.lists(
        st.one_of(
            st.tuples(st.just("write"), st.integers(0, 9)),
            st.tuples(st.just("tick"), st.integers(0, 4)),
            st.tuples(st.just("absturz"), st.integers(1, 3)),
            st.tuples(st.just("failover"), st.just(0)),
        ),
        max_size=20,
    ),
)
def test_with_every_follower_synchronous_no_acknowledged_write_is_lost(
    lags: list[int], ops: list[tuple[str, int]]
) -> None:
    """sync = all followers: whatever crashes and whoever takes over, the leader holds every
    write a client saw acknowledged (the invariant on the cluster's states after each step)."""
    s = ReplikSpeicher(sync=2)
    for name, lag in zip(s.namen, lags, strict=True):
        s.setze_lag(name, lag)
    for op, a in ops:
        if op == "write":
            s.write("x", a)
        elif op == "tick":
            s.tick(a)
        elif op == "absturz" and not s.ausgefallen(f"n{a}"):
            s.absturz(f"n{a}")
        elif op == "failover" and any(
            s.rolle(n) != LEADER and not s.ausgefallen(n) for n in s.namen
        ):
            assert s.failover().bestaetigt_verloren == ()
        assert kein_bestaetigtes_verloren(s.cluster.zustaende()) is True
