"""The cluster's hot path of session 18 (issue 50, speed parity): appointments without a
``Termin``, pysim's own nodes' handlers from a table per class, and messages without a
``Sendung`` in a cluster that keeps no history. Every run stays the same: these tests compare
the lean paths with the general ones; the published outputs prove it for the lessons."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, Knoten, Nachricht
from pysim.cluster.cluster import zwischen
from pysim.raft import RaftKnoten
from pysim.zeit import Zeit


def test_an_entry_without_a_termin_runs_in_its_place_and_counts_as_pending() -> None:
    uhr = Zeit()
    lauf: list[str] = []
    uhr.schedule(2, lauf.append, "a")
    uhr._eintragen_fest(2, lauf.append, "b")  # same tick: after "a", in the order entered
    weg = uhr.schedule(1, lauf.append, "weg")
    uhr._eintragen_fest(1, lauf.append, "c")
    uhr._eintragen_zuerst_fest(2, lauf.append, "zuerst")  # before every ordinary one of t=2
    weg.absagen()
    assert uhr.geplant == 4  # the cancelled one no longer, the ones without a Termin too
    naechster = uhr.naechster()
    assert naechster is not None and (naechster.zeit, naechster.argumente) == (1, ("c",))
    assert uhr.step() and lauf == ["c"]
    uhr.run(until=5)
    assert lauf == ["c", "zuerst", "a", "b"]
    assert uhr.geplant == 0 and uhr.now == 5


class Eigen(Knoten):
    """A node with a handler of each kind: plain, inherited, async, raising, a static
    method, and a request of a type it has no handler for (answered with error 10)."""

    def beim_start(self) -> None:
        self.gesehen: list[str] = []
        if self.id == "n1":
            self.alle(4, self.los)

    def los(self) -> None:
        for typ in ("hallo", "geerbt", "warte", "wirf", "statisch", "unbekannt"):
            self.sende("n2", {"type": typ, "msg_id": len(self.gesehen) + 1})
        self.gesehen.append("los")

    def bei_hallo(self, n: Nachricht) -> None:
        self.gesehen.append(f"hallo von {n.src}")

    async def bei_warte(self, n: Nachricht) -> None:
        await self.warte(2)
        self.gesehen.append("gewartet")

    def bei_wirf(self, n: Nachricht) -> None:
        raise ValueError("mit Absicht")

    @staticmethod
    def bei_statisch(n: Nachricht) -> None:
        pass

    def bei_error(self, n: Nachricht) -> None:
        self.gesehen.append(f"Fehler {n['code']}")


class Basis(Knoten):
    def bei_geerbt(self, n: Nachricht) -> None:
        self.gesehen.append("geerbt")  # type: ignore[attr-defined]


class Abgeleitet(Eigen, Basis):
    pass


def _lauf(cluster: Cluster) -> tuple[Any, ...]:
    return (
        [(f.zeit, f.knoten, f.was, f.fehler) for f in cluster.fehler],
        {k: getattr(cluster.objekt(k), "gesehen", None) for k in cluster.ids},
        [
            (s.gesendet, s.nachricht.src, s.nachricht.dest, s.nachricht.typ)
            for s in cluster.sendungen
        ],
    )


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 1000), st.integers(16, 40))
def test_pysims_own_nodes_find_their_handlers_as_a_readers_node_does(seed: int, bis: int) -> None:
    """``code_der_leserin=False`` takes a handler from the table of its class (``_handler``),
    else ``getattr`` by name: the same handlers, errors, replies and order."""
    eigen, leserin = (
        Cluster(Abgeleitet, 2, seed=seed, code_der_leserin=art) for art in (False, True)
    )
    for cluster in (eigen, leserin):
        cluster.laufe(bis)
    assert _lauf(eigen) == _lauf(leserin)
    assert "Fehler 10" in (_lauf(eigen)[1]["n1"] or [])  # no handler for „unbekannt“


class Pingend(Knoten):
    def beim_start(self) -> None:
        self.sende("n2" if self.id == "n1" else "n1", {"type": "ping"})

    def bei_ping(self, n: Nachricht) -> None:
        pass


def test_a_cluster_without_history_makes_no_sendung_until_asked_what_is_on_the_wire() -> None:
    cluster = Cluster(Pingend, 2, seed=4, sendungen_behalten=False)
    assert cluster.sende("n1", "n2", {"type": "ping"}) is None  # a tuple in the calendar only
    auf_der_leitung = cluster.unterwegs()
    assert [(s.nummer, s.nachricht.src, s.nachricht.dest) for s in auf_der_leitung] == [
        (0, "n1", "n2"),
        (1, "n2", "n1"),
        (2, "n1", "n2"),
    ]
    assert all(
        s.gesendet == 0 and s.ankunft is not None and s.ankunft >= 1 for s in auf_der_leitung
    )
    behaelt = Cluster(Pingend, 2, seed=4)
    behaelt.sende("n1", "n2", {"type": "ping"})
    assert [(s.ankunft, s.kopie) for s in behaelt.unterwegs()] == [
        (s.ankunft, s.kopie) for s in auf_der_leitung
    ]


#: A fault by name, applied to a cluster and a node.
STOERUNGEN: dict[str, Any] = {
    "trenne": lambda cluster, name: cluster.trenne([name]),
    "heile": lambda cluster, name: cluster.heile(),
    "pause": Cluster.pausiere,
    "weiter": Cluster.fortsetzen,
    "absturz": Cluster.absturz,
    "neustart": Cluster.neustart,
}


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10_000),
    st.lists(
        st.tuples(
            st.integers(1, 25),
            st.integers(1, 3),
            st.sampled_from(["", "trenne", "heile", "pause", "weiter", "absturz", "neustart"]),
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_raft_on_a_cluster_without_history_runs_as_one_that_keeps_it(
    seed: int, schritte: list[tuple[int, int, str]]
) -> None:
    """RaftSim's cluster (``sendungen_behalten=False``: messages without a ``Sendung``, each
    made only when a partition, a crash, a pause or ``unterwegs()`` needs it) runs as one that
    keeps every message: the same states and the same messages on the wire after every step."""
    laeufe = [
        Cluster(RaftKnoten, 3, seed=seed, latenz=(1, 3), **extra)
        for extra in ({}, {"sendungen_behalten": False})
    ]
    for ticks, knoten, stoerung in schritte:
        stand = []
        for cluster in laeufe:
            if stoerung:
                STOERUNGEN[stoerung](cluster, f"n{knoten}")
            cluster.laufe(cluster.zeit.now + ticks)
            unterwegs = [
                (
                    s.nummer,
                    s.nachricht.src,
                    s.nachricht.dest,
                    s.gesendet,
                    s.ankunft,
                    s.nachricht.typ,
                )
                for s in cluster.unterwegs()
            ]
            stand.append((cluster.zustaende(), unterwegs, cluster.gesendet()))
        assert stand[0] == stand[1]


class Zufall(random.Random):
    """A subclass with its own ``random()``: ``_randbelow`` draws without ``getrandbits``."""

    def random(self) -> float:
        return super().random()


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.integers(-5, 5), st.integers(0, 40))
def test_zwischen_draws_what_randint_draws_for_a_subclass_too(
    seed: int, a: int, breite: int
) -> None:
    for art in (random.Random, Zufall):
        eins, zwei = art(seed), art(seed)
        assert [zwischen(eins, a, a + breite) for _ in range(20)] == [
            zwei.randint(a, a + breite) for _ in range(20)
        ]


def test_only_a_cluster_of_the_readers_nodes_arms_the_loop_budget(monkeypatch: Any) -> None:
    """``grenze.an`` switches ``sys.monitoring``'s events on (Pyodide); pysim's own nodes run
    without a budget, so their runs leave them off (benchmarks/README.md, session 19)."""
    from pysim.cluster import grenze
    from pysim.leases import zufallssim

    gerufen: list[str] = []
    monkeypatch.setattr(grenze, "an", lambda: gerufen.append("an"))
    zufallssim(3, True)  # a LeaseSim: a cluster of pysim's own nodes, run by laufe_bis_ruhe
    cluster = Cluster(Knoten, 2, code_der_leserin=False)
    cluster.laufe(10)
    assert gerufen == []
    Cluster(Knoten, 2).laufe(10)
    assert gerufen == ["an"]
