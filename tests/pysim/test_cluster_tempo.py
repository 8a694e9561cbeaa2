"""The cluster's lean hot path (issue 50): timers a node can cancel, the same draws in fewer
calls, and a body pysim's own node sends without a copy. The runs stay the same: the
published outputs and tests/pysim/test_raft*.py prove that for Raft."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, Knoten, Nachricht
from pysim.cluster.cluster import zwischen
from pysim.fehler import UngueltigeEingabe
from pysim.raft import RaftSim


class Abgesagt(Knoten):
    """Sets two timers and cancels the first: only the second runs."""

    def beim_start(self) -> None:
        self.gelaufen: list[str] = []
        self.erster = self.spaeter(5, lambda: self.gelaufen.append("erster"))
        self.spaeter(7, lambda: self.gelaufen.append("zweiter"))
        self.erster.absagen()


def _instanz(cluster: Cluster, knoten: str = "n1") -> Any:
    return cluster.objekt(knoten)


def test_a_cancelled_timer_never_runs_and_leaves_the_calendar() -> None:
    cluster = Cluster(Abgesagt, 1)
    assert cluster.zeit.geplant == 1  # the cancelled one is no longer pending
    cluster.laufe(20)
    assert _instanz(cluster).gelaufen == ["zweiter"]


def test_cancelling_twice_or_after_it_ran_changes_nothing() -> None:
    cluster = Cluster(Abgesagt, 1)
    instanz = _instanz(cluster)
    instanz.erster.absagen()
    cluster.laufe(20)
    instanz.erster.absagen()
    assert instanz.gelaufen == ["zweiter"]


class InDerPause(Knoten):
    def beim_start(self) -> None:
        self.gelaufen: list[int] = []
        self.timer = self.spaeter(5, lambda: self.gelaufen.append(self.uhr()))


def test_a_timer_due_in_a_pause_and_cancelled_before_it_ends_does_not_run() -> None:
    cluster = Cluster(InDerPause, 1)
    cluster.pausiere("n1")
    cluster.laufe(10)  # due at 5, held back by the pause
    _instanz(cluster).timer.absagen()
    cluster.fortsetzen("n1")
    cluster.laufe(20)
    assert _instanz(cluster).gelaufen == []


def test_an_uncancelled_timer_due_in_a_pause_runs_after_it() -> None:
    cluster = Cluster(InDerPause, 1)
    cluster.pausiere("n1")
    cluster.laufe(10)
    cluster.fortsetzen("n1")
    assert _instanz(cluster).gelaufen == [10]


def test_the_timer_leads_nowhere_and_says_so_in_german() -> None:
    cluster = Cluster(Abgesagt, 1)
    timer = _instanz(cluster).erster
    assert dir(timer) == ["absagen", "verschiebe"]
    assert repr(timer) == "<Timer, abgesagt>"
    for name in ("_termin", "termin", "cluster", "_cluster", "__dict__"):
        with pytest.raises(AttributeError, match="eigenen Aufrufe"):
            getattr(timer, name)
    with pytest.raises(AttributeError, match="eigenen Aufrufe"):
        timer.x = 1
    # what it holds is the node's own gate (guarded itself) and a number
    assert repr(timer._tor).startswith("<Netzzugang von n1")
    with pytest.raises(AttributeError, match="eigenen Aufrufe"):
        getattr(timer._tor, "cluster")  # noqa: B009


class Vergesslich(Knoten):
    """Replaces its timer at every message, as Raft's election timeout does."""

    def beim_start(self) -> None:
        self.feuer = 0
        self.timer = self.spaeter(10, self.ab)

    def ab(self) -> None:
        self.feuer += 1

    def bei_ping(self, nachricht: Nachricht) -> None:
        self.timer.absagen()
        self.timer = self.spaeter(10, self.ab)


def test_replaced_timers_cost_nothing_when_they_would_have_fired() -> None:
    cluster = Cluster(Vergesslich, 1)
    cluster.anmelden("c1", lambda n: None, client=True)
    for _ in range(100):
        cluster.sende("c1", "n1", {"type": "ping"})
        cluster.laufe(cluster.zeit.now + 1)
    # only the live timer is left: the 100 replaced ones left the calendar unrun
    assert cluster.zeit.geplant == 1
    assert cluster._plaetze["n1"].timer.keys() == {101}
    cluster.laufe(cluster.zeit.now + 10)
    assert _instanz(cluster).feuer == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(-5, 40), st.integers(0, 40))
def test_zwischen_draws_what_randint_draws(seed: int, a: int, breite: int) -> None:
    eins, zwei = random.Random(seed), random.Random(seed)
    b = a + breite
    assert [zwischen(eins, a, b) for _ in range(20)] == [zwei.randint(a, b) for _ in range(20)]
    assert eins.random() == zwei.random()  # and leaves the stream where randint leaves it


def test_zwischen_raises_what_randint_raises() -> None:
    with pytest.raises(ValueError):
        zwischen(random.Random(1), 3, 2)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_raft_runs_are_the_same_for_the_same_seed(seed: int) -> None:
    def lauf() -> tuple[Any, ...]:
        sim = RaftSim(5, seed=seed)
        sim.tick(60)
        sim.schreibe("c1", 1)
        leader = sim.leader()
        if leader is not None:
            sim.trenne([leader])
        sim.tick(60)
        sim.heile()
        sim.tick(60)
        return (sim.status(), sim.protokoll, sim.verlauf, sim.gesendet)

    assert lauf() == lauf()


def test_a_readers_node_still_sends_a_copy_of_its_body() -> None:
    class Sammler(Knoten):
        def beim_start(self) -> None:
            self.werte = [1, 2]
            self.sende("n2", {"type": "werte", "werte": self.werte})
            self.werte.append(3)

    cluster = Cluster(Sammler, 2)
    gesendet = [s.nachricht.body["werte"] for s in cluster.sendungen]
    assert gesendet == [[1, 2], [1, 2]]  # a reader's node: the body as it was when sent


class Plaudernd(Knoten):
    """Tells every other node its clock every 3 ticks, and answers a client's ping."""

    def beim_start(self) -> None:
        self.alle(3, self.plaudere)

    def plaudere(self) -> None:
        for k in self.knoten:
            if k != self.id:
                self.sende(k, {"type": "uhr", "uhr": self.uhr()})

    def bei_uhr(self, nachricht: Nachricht) -> None:
        pass

    def bei_ping(self, nachricht: Nachricht) -> None:
        self.antworte(nachricht, {"type": "pong"})


def _auf_der_leitung(cluster: Cluster) -> list[tuple[int, str, str, int, int | None, int]]:
    return [
        (s.nummer, s.nachricht.src, s.nachricht.dest, s.gesendet, s.ankunft, s.kopie)
        for s in cluster.unterwegs()
    ]


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from([(0.0, 0.0), (0.2, 0.3)]),
    st.lists(st.integers(1, 15), min_size=1, max_size=8),
)
def test_a_cluster_that_keeps_no_sendungen_runs_the_same_and_knows_what_is_on_the_wire(
    seed: int, netz: tuple[float, float], schritte: list[int]
) -> None:
    """``sendungen_behalten=False`` (RaftSim's cluster): the same run, ``unterwegs()`` and
    ``gesendet()`` as a cluster that keeps every message, and ``sendungen`` stays empty."""
    verlust, duplikat = netz
    behaelt, vergisst = (
        Cluster(Plaudernd, 3, seed=seed, verlust=verlust, duplikat=duplikat, **extra)
        for extra in ({}, {"sendungen_behalten": False})
    )
    for cluster in (behaelt, vergisst):
        cluster.anmelden("c1", lambda n: None, client=True)
    for i, ticks in enumerate(schritte):
        for cluster in (behaelt, vergisst):
            if i % 2:
                cluster.trenne(["n1"])
            else:
                cluster.heile()
            cluster.sende("c1", f"n{1 + i % 3}", {"type": "ping"})
            cluster.laufe(cluster.zeit.now + ticks)
        erwartet = [
            (s.nummer, s.nachricht.src, s.nachricht.dest, s.gesendet, s.ankunft, s.kopie)
            for s in behaelt.sendungen
            if not s.schicksal
        ]
        assert _auf_der_leitung(behaelt) == erwartet
        assert _auf_der_leitung(vergisst) == erwartet
        assert vergisst.gesendet() == behaelt.gesendet() == behaelt.zaehle()["gesendet"]
    assert vergisst.sendungen == [] and len(behaelt.sendungen) > 0


def test_a_cluster_that_keeps_no_sendungen_does_not_count_their_fates() -> None:
    cluster = Cluster(Plaudernd, 2, sendungen_behalten=False)
    cluster.laufe(10)
    with pytest.raises(UngueltigeEingabe, match="behält seine Sendungen nicht"):
        cluster.zaehle()


def test_raft_keeps_no_message_history_but_shows_what_is_on_the_wire() -> None:
    sim = RaftSim(3, seed=1)
    sim.tick(40)
    sim.schreibe("c1", 5)
    sim.tick(1)
    assert sim.cluster.sendungen == []  # nothing for the collector to walk, run after run
    assert sim.gesendet > 0
    assert sim.unterwegs and all(n.gesendet <= sim.now < n.ankunft for n in sim.unterwegs)


class Frist(Knoten):
    """Restarts one timeout at every ping (``ticks`` in the message), as Raft's follower does
    at every AppendEntries; every 3 ticks it notes the clock, so same-tick order shows."""

    VERSCHIEBEN = True

    def beim_start(self) -> None:
        self.frist: Any = None
        self.nr = 0
        self.alle(3, lambda: self.notiz(f"alle {self.uhr()}"))

    def bei_ping(self, nachricht: Nachricht) -> None:
        self.nr += 1
        nr, ticks = self.nr, nachricht["ticks"]

        def ab() -> None:
            self.notiz(f"frist {nr} bei {self.uhr()}")
            self.sende("n2" if self.id == "n1" else "n1", {"type": "gemerkt", "nr": nr})

        if self.frist is not None and self.VERSCHIEBEN:
            self.frist = self.frist.verschiebe(ticks, ab)
        else:
            if self.frist is not None:
                self.frist.absagen()
            self.frist = self.spaeter(ticks, ab)

    def bei_gemerkt(self, nachricht: Nachricht) -> None:
        self.notiz(f"gemerkt {nachricht['nr']} bei {self.uhr()}")


class FristNeu(Frist):
    VERSCHIEBEN = False


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 6),  # ticks before
            st.integers(1, 2),  # node
            st.integers(0, 12),  # the timeout's ticks
            st.sampled_from(["", "", "pause", "weiter", "absturz", "neustart"]),
        ),
        min_size=1,
        max_size=25,
    ),
    st.booleans(),
)
def test_a_moved_timer_runs_as_a_cancelled_one_and_a_new_one_would(
    schritte: list[tuple[int, int, int, str]], leserin: bool
) -> None:
    """``Timer.verschiebe`` (Raft's election timeout at every heartbeat): the same run as
    ``absagen()`` and ``spaeter(…)``, in every tick and order, with pauses and crashes."""
    laeufe = []
    for klasse in (Frist, FristNeu):
        cluster = Cluster(klasse, 2, seed=3, code_der_leserin=leserin)
        cluster.anmelden("c1", lambda n: None, client=True)
        for warten, knoten, ticks, stoerung in schritte:
            cluster.laufe(cluster.zeit.now + warten)
            name = f"n{knoten}"
            if stoerung == "pause":
                cluster.pausiere(name)
            elif stoerung == "weiter":
                cluster.fortsetzen(name)
            elif stoerung == "absturz":
                cluster.absturz(name)
            elif stoerung == "neustart":
                cluster.neustart(name)
            cluster.sende("c1", name, {"type": "ping", "ticks": ticks})
        cluster.fortsetzen("n1")
        cluster.fortsetzen("n2")
        cluster.laufe(cluster.zeit.now + 30)
        zeilen = [(z.zeit, z.knoten, z.text) for z in cluster.protokoll.zeilen()]
        laeufe.append((zeilen, cluster.protokoll.geschrieben, cluster.zeit.geplant))
    assert laeufe[0] == laeufe[1]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 400), st.booleans())
def test_raft_stops_at_the_first_violation_as_a_look_after_every_tick_would(
    seed: int, ticks: int, fuenf: bool
) -> None:
    """``RaftSim._tick_bis_verletzung`` (``pruefe_wahl``'s run of the clock): the same tick,
    state and picture as ``tick(1)`` with a look at ``verletzungen`` after each."""

    def zwei_leader(a: Any) -> bool:
        return bool(a.term == a.mein_term)  # a vote for everyone: two leaders

    def sim() -> RaftSim:
        s = RaftSim(5 if fuenf else 3, seed=seed, stimmregel=zwei_leader)
        s.tick(seed % 7)
        s.schreibe("c1", 1)
        return s

    schrittweise = sim()
    for _ in range(ticks):
        schrittweise.tick(1)
        if schrittweise.verletzungen:
            break
    am_stueck = sim()
    angehalten = am_stueck._tick_bis_verletzung(ticks)
    assert angehalten == bool(schrittweise.verletzungen)
    assert am_stueck.now == schrittweise.now
    assert am_stueck.zeit.geplant == schrittweise.zeit.geplant
    assert (am_stueck.status(), am_stueck.protokoll, am_stueck.verletzungen, am_stueck.verlauf) == (
        schrittweise.status(),
        schrittweise.protokoll,
        schrittweise.verletzungen,
        schrittweise.verlauf,
    )
    assert am_stueck.bild().svg == schrittweise.bild().svg
    am_stueck.tick(30)  # and it runs on from there as the other does
    schrittweise.tick(30)
    assert am_stueck.status() == schrittweise.status()
