"""What made ``LeaseSim`` on the cluster fast again (issue 50, third wave): one node class for
every simulation with each client's settings in its ``speicher`` (``neuer_knoten(speicher=…)``),
services' own replies without a copy (``Cluster.sende(frisch=True)``), a chain of arrivals of
latency 0 handed over by one appointment (``sofort``) in the order one appointment each gave,
the cluster's ``zufall`` made when first drawn from, and a lock service that answers no release
when its clients wait for none. The figures: ``benchmarks/bench_leases.py``."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, Knoten, LeaseDienst, Nachricht
from pysim.leases import LeaseKnoten, LeaseSim, zufallssim
from pysim.leases.knoten import Einstellung


class _Merkt(Knoten):
    """Shows what it found in its ``speicher`` at its start."""

    GEFUNDEN: ClassVar[list[dict[str, Any]]] = []

    def beim_start(self) -> None:
        self.GEFUNDEN.append(dict(self.speicher))


def test_a_new_node_finds_its_speicher_at_its_first_start_and_after_a_restart() -> None:
    _Merkt.GEFUNDEN = []
    cluster = Cluster(_Merkt, 0)
    mitgabe = {"einstellung": 7}
    cluster.neuer_knoten(speicher=mitgabe)
    mitgabe["einstellung"] = 8  # a copy: the node's disk is its own
    cluster.absturz("n1")
    cluster.neustart("n1")
    assert _Merkt.GEFUNDEN == [{"einstellung": 7}, {"einstellung": 7}]


def test_a_lease_node_takes_its_settings_from_its_speicher() -> None:
    cluster = Cluster(LeaseKnoten, 0, latenz=(0, 0), code_der_leserin=False)
    LeaseDienst(cluster)
    cluster.neuer_knoten(speicher={"einstellung": Einstellung(start=4)})
    cluster.neuer_knoten()
    cluster.laufe(3)
    n1, n2 = (cluster.objekt(k) for k in cluster.ids)
    assert isinstance(n1, LeaseKnoten) and isinstance(n2, LeaseKnoten)
    assert n1.e.start == 4 and n2.e == LeaseKnoten.EINSTELLUNG
    assert (n1.token, n2.token) == (None, 1)  # n2 asked at 0; n1 asks at 4


def test_every_leasesim_runs_the_same_node_class() -> None:
    erste, zweite = zufallssim(1), zufallssim(2)
    klassen = {type(s.cluster.objekt(k)) for s in (erste, zweite) for k in s.cluster.ids}
    assert len(klassen) == 1 and next(iter(klassen)).__name__ == "LeaseKnoten"


class _Still(Knoten):
    pass


def test_frisch_sends_the_body_as_it_is_and_otherwise_a_copy() -> None:
    cluster = Cluster(_Still, 1, latenz=(0, 0))
    cluster.anmelden("dienst", lambda n: None)
    body = {"type": "x", "liste": [1]}
    kopie = cluster.sende("dienst", "n1", body)
    frisch = cluster.sende("dienst", "n1", body, frisch=True)
    assert kopie is not None and frisch is not None
    assert kopie.nachricht.body == body and kopie.nachricht.body is not body
    assert frisch.nachricht.body is body


def test_the_lock_service_of_leasesim_answers_no_release_and_a_plain_one_does() -> None:
    sim = zufallssim(3)
    typen = [s.nachricht.typ for s in sim.cluster.sendungen]
    assert "release" in typen and "release_ok" not in typen
    cluster = Cluster(_Still, 1)
    antworten: list[str] = []
    cluster.sende = lambda src, dest, body, **_: antworten.append(body["type"])  # type: ignore[method-assign]
    LeaseDienst(cluster).empfang(Nachricht("n1", "lease", {"type": "release"}))
    assert antworten == ["release_ok"]


def test_the_clusters_random_numbers_are_made_when_first_drawn_and_stay_the_same() -> None:
    cluster = Cluster(_Still, 1, seed=5)
    assert cluster._zufall is None
    assert cluster.zufall.random() == random.Random(5 * 7919 + 2).random()
    assert zufallssim(4).cluster._zufall is None  # LeaseSim never draws


class _Kette(Knoten):
    """Per timer, sends to services at latency 0; each service answers some of them, and the
    node passes some answers on: chains of arrivals of latency 0 in one tick."""

    PLAN: ClassVar[list[tuple[int, list[str]]]] = []
    GESEHEN: ClassVar[list[str]] = []

    def beim_start(self) -> None:
        for zeit, ziele in self.PLAN:
            self.spaeter(zeit, lambda ziele=ziele: self._los(ziele))

    def _los(self, ziele: list[str]) -> None:
        self.GESEHEN.append(f"{self.id} timer")
        for nummer, ziel in enumerate(ziele):
            self.sende(ziel, {"type": "ping", "weiter": nummer % 2 == 0})

    def bei_pong(self, nachricht: Nachricht) -> None:
        self.GESEHEN.append(f"{self.id} pong von {nachricht.src}")
        if nachricht["weiter"]:
            self.sende("b", {"type": "ping", "weiter": False})


def _lauf(plan: list[tuple[int, list[str]]], einzeln: bool) -> list[str]:
    _Kette.PLAN, _Kette.GESEHEN = plan, []
    cluster = Cluster(_Kette, 2, latenz=(0, 0), sofort=True)
    for name in ("a", "b"):

        def empfang(n: Nachricht, name: str = name) -> None:
            _Kette.GESEHEN.append(f"{name} von {n.src}")
            if n["weiter"] or name == "a":
                cluster.sende(name, n.src, {"type": "pong", "weiter": n["weiter"]})

        cluster.anmelden(name, empfang)
    if einzeln:  # an invariant makes every arrival its own appointment
        cluster.invariante("immer", lambda zustaende: True)
    cluster.laufe(10)
    return _Kette.GESEHEN


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.lists(st.sampled_from(["a", "b"]), max_size=3)),
        max_size=4,
    )
)
def test_one_appointment_for_a_chain_of_arrivals_keeps_their_order(
    plan: list[tuple[int, list[str]]],
) -> None:
    assert _lauf(plan, einzeln=False) == _lauf(plan, einzeln=True)


def test_a_chain_of_arrivals_takes_one_appointment() -> None:
    sim = LeaseSim(ttl=5)
    sim.client("a")
    zuerst_vorher = sim.zeit._zuerst
    sim.lauf(0)  # acquire, its acquire_ok: one appointment
    assert sim.zeit._zuerst - zuerst_vorher == 1
    assert [s.nachricht.typ for s in sim.cluster.sendungen] == ["acquire", "acquire_ok"]


def test_arrivals_of_latency_0_not_handed_over_yet_are_on_their_way() -> None:
    cluster = Cluster(_Still, 1, latenz=(0, 0), sofort=True)
    cluster.anmelden("dienst", lambda n: None)
    erste = cluster.sende("dienst", "n1", {"type": "a"})
    zweite = cluster.sende("dienst", "n1", {"type": "b"})
    assert cluster.unterwegs() == [erste, zweite]
    cluster.laufe(0)
    assert cluster.unterwegs() == []
