"""Leases as nodes on the cluster (issue 50): ``LeaseKnoten`` on a plain ``Cluster`` with the
``lease`` and ``fence-kv`` services, a fault aimed at the lease holder, the invariant "at most
one node acts on a lease", and what the cluster gained for ``LeaseSim`` (``sofort``, a service
in ``latenz_zwischen``, ``neuer_knoten``, ``LeaseDienst``'s ttl and expiry appointment)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, FencingKV, Knoten, LeaseDienst, Nachricht, plan_aus_text
from pysim.cluster.cluster import InvarianteVerletzt
from pysim.leases import FERTIG, INHABER, LeaseKnoten, LeaseSim, ein_inhaber


def _cluster(ttl: int = 30, plan: str = "", invariante: bool = True) -> tuple[Cluster, FencingKV]:
    cluster = Cluster(LeaseKnoten, 3, seed=1, latenz=(1, 2), code_der_leserin=False)
    LeaseDienst(cluster, ttl=ttl)
    speicher = FencingKV(cluster)
    if invariante:
        cluster.invariante("ein Inhaber", ein_inhaber)
    for stoerung in plan_aus_text(plan, cluster.ids):
        cluster.zeit.schedule_zuerst(stoerung.zeit, stoerung.anwenden, cluster)
    return cluster, speicher


def _objekt(cluster: Cluster, knoten: str) -> LeaseKnoten:
    objekt = cluster.objekt(knoten)
    assert isinstance(objekt, LeaseKnoten)
    return objekt


def test_lease_nodes_on_a_plain_cluster_take_turns_and_the_invariant_holds() -> None:
    cluster, speicher = _cluster()
    cluster.laufe(200)
    assert cluster.verletzung is None
    objekte = [_objekt(cluster, k) for k in cluster.ids]
    assert [o.stand for o in objekte] == [FERTIG] * 3
    assert sorted(o.token or 0 for o in objekte) == [1, 2, 3]
    letzter = max(objekte, key=lambda o: o.token or 0)
    assert speicher.werte["daten"] == f"{letzter.id} schreibt" and speicher.hoechster == 3
    assert cluster.zustand(letzter.id) == {"stand": FERTIG, "token": 3}


def test_a_fault_aimed_at_the_lease_holder_crashes_it_and_the_lease_runs_out() -> None:
    # without the invariant: a crashed node shows what it showed last (the holder's state)
    cluster, speicher = _cluster(ttl=20, plan="5:absturz:[Inhaber]", invariante=False)
    cluster.laufe(200)
    absturz = cluster.ereignisse[0]
    assert absturz.art == "absturz" and absturz.text.endswith("(Rolle Inhaber)")
    (getroffen,) = absturz.knoten
    assert cluster.getroffen[INHABER] == [getroffen] and not cluster.laeuft(getroffen)
    # its lease (#1) was never released: the others wait until the service lets it expire
    andere = [_objekt(cluster, k) for k in cluster.ids if k != getroffen]
    assert sorted(o.token or 0 for o in andere) == [2, 3]
    assert [o.stand for o in andere] == [FERTIG, FERTIG] and speicher.hoechster == 3


def test_the_invariant_stops_the_run_when_a_paused_holder_wakes_beside_a_new_one() -> None:
    cluster, _ = _cluster(ttl=6, plan="5:pause:[Inhaber];20:weiter:[Inhaber]")
    with pytest.raises(InvarianteVerletzt, match="handeln zugleich mit einer Lease"):
        cluster.laufe(200)
    verletzung = cluster.verletzung
    assert verletzung is not None and verletzung.name == "ein Inhaber"
    assert 6 <= verletzung.zeit < 20  # while the old holder is still paused
    halter = [k for k, z in verletzung.zustaende.items() if z["stand"] in ("hält", "schreibt")]
    assert len(halter) == 2


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3))
def test_without_faults_and_with_a_long_ttl_every_node_writes_once_in_token_order(
    seed: int, latenz: int
) -> None:
    def lauf() -> tuple[Cluster, FencingKV]:
        cluster = Cluster(LeaseKnoten, 3, seed=seed, latenz=(1, latenz), code_der_leserin=False)
        LeaseDienst(cluster, ttl=50)
        speicher = FencingKV(cluster)
        cluster.invariante("ein Inhaber", ein_inhaber)
        cluster.laufe(400)
        return cluster, speicher

    (eins, speicher), (zwei, _) = lauf(), lauf()
    assert eins.verletzung is None and speicher.hoechster == 3
    assert [_objekt(eins, k).stand for k in eins.ids] == [FERTIG] * 3
    # same seed, same run
    assert [(s.nachricht.src, s.nachricht.dest, s.ankunft) for s in eins.sendungen] == [
        (s.nachricht.src, s.nachricht.dest, s.ankunft) for s in zwei.sendungen
    ]


def test_leasesim_clients_are_nodes_and_an_invariant_sees_the_paused_writer() -> None:
    sim = LeaseSim(ttl=10)
    sim.client("a", arbeit=4, pausen=[(5, 12)])
    sim.client("b", start=2)
    assert sim.cluster.ids == ["n1", "n2"] and sim["b"].knoten == "n2"
    sim.cluster.invariante("ein Inhaber", ein_inhaber)
    with pytest.raises(InvarianteVerletzt):
        sim.lauf()
    verletzung = sim.cluster.verletzung
    assert verletzung is not None and verletzung.zeit == 10
    assert verletzung.zustaende["n1"] == {"stand": "schreibt", "token": 1}
    assert verletzung.zustaende["n2"] == {"stand": "hält", "token": 2}


# --- what the cluster and the lock service gained -----------------------------------------


class _Reihenfolge(Knoten):
    """Sends to a service at latency 0 in one timer; another timer of the same tick notes."""

    GESEHEN: ClassVar[list[str]] = []

    def beim_start(self) -> None:
        self.spaeter(1, lambda: self.sende("echo", {"type": "ping"}))
        self.spaeter(1, lambda: self.GESEHEN.append("timer"))


@pytest.mark.parametrize(
    ("sofort", "reihenfolge"), [(False, ["timer", "dienst"]), (True, ["dienst", "timer"])]
)
def test_sofort_hands_a_message_of_latency_0_over_before_the_rest_of_its_tick(
    sofort: bool, reihenfolge: list[str]
) -> None:
    _Reihenfolge.GESEHEN = []
    cluster = Cluster(_Reihenfolge, 1, latenz=(0, 0), sofort=sofort)
    cluster.anmelden("echo", lambda n: _Reihenfolge.GESEHEN.append("dienst"))
    cluster.laufe(5)
    assert _Reihenfolge.GESEHEN == reihenfolge


def test_a_link_to_a_service_can_be_slow_one_way_and_nodes_can_join_later() -> None:
    cluster = Cluster(Knoten, 0, latenz=(0, 0))
    assert cluster.ids == []
    assert cluster.neuer_knoten() == "n1" and cluster.ids == ["n1"]
    FencingKV(cluster)
    cluster.latenz_zwischen("n1", "fence-kv", (3, 3), nur_hin=True)
    cluster.sende("n1", "fence-kv", {"type": "write", "key": 0, "value": 1})
    cluster.laufe(10)
    hin, zurueck = cluster.sendungen
    assert (hin.gesendet, hin.ankunft) == (0, 3) and (zurueck.gesendet, zurueck.ankunft) == (3, 3)
    with pytest.raises(Exception, match="Einen Knoten 'x' gibt es nicht"):
        cluster.latenz_zwischen("n1", "x", (1, 1))


class _Mitschrift(LeaseDienst):
    def __init__(self, cluster: Cluster, **optionen: Any) -> None:
        self.zeilen: list[str] = []
        super().__init__(cluster, **optionen)

    def vergeben(self, wer: str, token: int, bis: int) -> None:
        self.zeilen.append(f"{wer} #{token} bis {bis}")

    def abgewiesen(self, wer: str, halter: str) -> None:
        self.zeilen.append(f"{wer} abgewiesen, {halter} hält")

    def abgelaufen(self, wer: str, token: int) -> None:
        self.zeilen.append(f"#{token} von {wer} abgelaufen")

    def freigegeben(self, wer: str, token: object, galt: bool) -> None:
        self.zeilen.append(f"{wer} gibt frei, galt {galt}")


@pytest.mark.parametrize(("termin", "n2_bekommt"), [(False, True), (True, False)])
def test_an_expiry_appointment_keeps_the_lease_for_a_request_entered_before_it(
    termin: bool, n2_bekommt: bool
) -> None:
    cluster = Cluster(Knoten, 2)
    antworten: list[tuple[str, dict[str, Any]]] = []
    cluster.sende = lambda src, dest, body, **_: antworten.append((dest, body))  # type: ignore[method-assign]
    # n2 asks in the lease's last tick, entered before n1 got the lease
    cluster.zeit.schedule(10, lambda: dienst.empfang(Nachricht("n2", "lease", {"type": "acquire"})))
    dienst = _Mitschrift(cluster, ttl=10, ablauf_als_termin=termin)
    dienst.empfang(Nachricht("n1", "lease", {"type": "acquire"}))
    cluster.laufe(10)
    assert antworten[0] == ("n1", {"type": "acquire_ok", "token": 1, "ttl": 10})
    assert (antworten[1][1]["type"] == "acquire_ok") is n2_bekommt
    if termin:
        assert dienst.zeilen == ["n1 #1 bis 10", "n2 abgewiesen, n1 hält", "#1 von n1 abgelaufen"]
        dienst.empfang(Nachricht("n1", "lease", {"type": "release", "token": 1}))
        assert dienst.zeilen[-1] == "n1 gibt frei, galt False"
        dienst.empfang(Nachricht("n2", "lease", {"type": "acquire"}))
        assert antworten[-1][1]["token"] == 2


def test_the_lock_service_keeps_its_default_ttl_of_5() -> None:
    assert LeaseDienst(Cluster(Knoten, 1)).ttl == LeaseDienst.TTL == 5
