"""Properties of the Raft simulation over generated seeds and fault schedules.

The checks here watch the nodes from outside, tick by tick, and do not trust the model's
own bookkeeping (``leader_je_term``, ``verletzungen``), which is checked as well.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.pruefer import linearisierbar
from pysim.raft import (
    ABGESTUERZT,
    LEADER,
    Eintrag,
    RaftSim,
    Schritt,
    Stimmanfrage,
    fuehre_aus,
    raft_stimmregel,
)
from pysim.raft import (
    AKTIONEN as PLAN_AKTIONEN,
)
from pysim.raft.wahlpruefung import alles_heilen

AKTIONEN = ("absturz", "neustart", "trenne", "heile", "pausiere", "schreibe", "lies")

schritt = st.tuples(
    st.integers(1, 25),  # ticks before the action
    st.sampled_from(AKTIONEN),
    st.integers(0, 4),  # a node
    st.integers(0, 4),  # a second node, a value, a length
)
plan = st.tuples(
    st.integers(0, 10_000),
    st.sampled_from((3, 5)),
    st.lists(schritt, max_size=40),
)


class Beobachter:
    """Looks at every node after every tick."""

    def __init__(self) -> None:
        self.leader: dict[int, set[str]] = {}
        #: index -> the committed entry and the lowest term of a node that had it committed
        self.fest: dict[int, tuple[Eintrag, int]] = {}
        self.fehler: list[str] = []

    def sieh(self, sim: RaftSim) -> None:
        for k in sim.knoten.values():
            if k.rolle == LEADER:
                self.leader.setdefault(k.term, set()).add(k.name)
                for i, (e, term) in self.fest.items():
                    if term >= k.term:
                        continue  # Leader Completeness speaks of later terms only
                    if i > len(k.log) or k.log[i - 1] != e:
                        self.fehler.append(f"t={sim.now}: leader {k.name} lacks entry {i}")
            if k.rolle == ABGESTUERZT:
                continue
            if k.commit > len(k.log):  # only after a broken vote rule
                self.fehler.append(f"t={sim.now}: {k.name} lost committed entries")
            for i in range(1, min(k.commit, len(k.log)) + 1):
                e = k.log[i - 1]
                vorher, term = self.fest.setdefault(i, (e, k.term))
                if vorher != e:
                    self.fehler.append(f"t={sim.now}: {k.name} committed another entry {i}")
                elif k.term < term:
                    self.fest[i] = (e, k.term)


def laufe(seed: int, n: int, schritte: list[tuple[int, str, int, int]]) -> tuple[RaftSim, Any]:
    sim = RaftSim(n, seed=seed)
    blick = Beobachter()
    namen = sim.namen
    nummer = 0

    def ticke(t: int) -> None:
        for _ in range(t):
            sim.tick(1)
            blick.sieh(sim)

    for warten, aktion, a, b in schritte:
        ticke(warten)
        knoten = namen[a % n]
        k = sim.knoten[knoten]
        if aktion == "absturz" and k.rolle != ABGESTUERZT:
            sim.absturz(knoten)
        elif aktion == "neustart" and k.rolle == ABGESTUERZT:
            sim.neustart(knoten)
        elif aktion == "trenne":
            # often the current leader in the smaller group
            leader = sim.leader() if a % 2 else None
            klein = [leader] if leader else []
            klein += [x for x in namen if x != leader][: b % (n // 2 + 1)]
            if len(klein) in (0, n):
                klein = namen[:1]
            sim.trenne(klein)
        elif aktion == "heile":
            sim.heile()
        elif aktion == "pausiere" and k.rolle != ABGESTUERZT and k.pausiert_bis is None:
            sim.pausiere(knoten, 5 + 10 * b)
        elif aktion in ("schreibe", "lies"):
            client = f"c{b % 3}"
            if sim.wartet(client):
                continue
            an = None if a % 2 else knoten
            if aktion == "schreibe":
                nummer += 1
                sim.schreibe(client, nummer, an=an)
            else:
                sim.lies(client, an=an)
    alles_heilen(sim)
    ticke(200)
    return sim, blick


@settings(max_examples=300, deadline=None)
@given(plan)
def test_safety_under_generated_faults(p: tuple[int, int, list[Any]]) -> None:
    sim, blick = laufe(*p)
    # Election Safety: at most one leader per term
    assert all(len(v) == 1 for v in blick.leader.values()), blick.leader
    assert all(len(v) == 1 for v in sim.leader_je_term.values())
    # State Machine Safety and Leader Completeness
    assert blick.fehler == []
    assert sim.verletzungen == []
    # what the clients saw is linearizable
    urteil = linearisierbar(sim.verlauf)
    assert urteil.ok, urteil.erklaerung


@settings(max_examples=30, deadline=None)
@given(plan)
def test_after_healing_the_cluster_elects_and_converges(p: tuple[int, int, list[Any]]) -> None:
    sim, _ = laufe(*p)
    leader = sim.leader()
    assert leader is not None
    lk = sim.knoten[leader]
    # one more write commits everywhere
    client = "zuletzt"
    sim.schreibe(client, "ende")
    sim.tick(60)
    assert sim.verlauf[-1]["type"] == "ok", sim.verlauf[-1]
    for k in sim.knoten.values():
        assert k.log == lk.log
        assert k.commit == lk.commit == len(lk.log)
        assert k.register.get("x") == "ende"


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((3, 5)),
    st.integers(0, 2),
    st.integers(40, 150),  # longer than any election timeout
    st.integers(0, 3),
)
def test_an_isolated_old_leader_never_commits_and_steps_down(
    seed: int, n: int, mit: int, dauer: int, schreiber: int
) -> None:
    sim = RaftSim(n, seed=seed)
    sim.tick(100)
    alt = sim.leader()
    assert alt is not None
    minderheit = [alt, *[x for x in sim.namen if x != alt][: mit % (n // 2)]]
    commit = sim.knoten[alt].commit
    sim.trenne(minderheit)
    for i in range(schreiber):
        sim.schreibe(f"alt{i}", f"a{i}", an=alt)
    sim.tick(dauer)
    sim.schreibe("neu", "b")
    sim.tick(dauer)
    # the minority commits nothing, and no client of the old leader hears ok
    assert all(sim.knoten[x].commit == commit for x in minderheit)
    alt_term = sim.knoten[alt].term
    sim.heile()
    sim.tick(150)
    assert all(e["type"] != "ok" for e in sim.verlauf if e["process"] != "neu")
    k = sim.knoten[alt]
    assert not (k.rolle == LEADER and k.term == alt_term)  # it stepped down
    neu_ok = any(e["process"] == "neu" and e["type"] == "ok" for e in sim.verlauf)
    if neu_ok:  # the majority moved on: the old leader's entries are gone everywhere
        alte = {f"a{i}" for i in range(schreiber)}
        for x in sim.knoten.values():
            assert not {e.value for e in x.log[: x.commit]} & alte
    assert sim.verletzungen == []
    assert linearisierbar(sim.verlauf).ok


# --- the schedules of pysim.raft.pruefe_wahl, generated by Hypothesis ---

plan_schritt = st.builds(
    Schritt,
    st.integers(1, 30),
    st.sampled_from(PLAN_AKTIONEN),
    st.integers(0, 4),
    st.integers(0, 40),
)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from((3, 5)), st.lists(plan_schritt, max_size=30))
def test_the_correct_vote_rule_is_safe_in_every_checker_schedule(
    seed: int, n: int, schritte: list[Schritt]
) -> None:
    blick = Beobachter()
    sim, verletzung = fuehre_aus(
        schritte, seed=seed, knoten=n, stimmregel=raft_stimmregel, beobachte=blick.sieh
    )
    assert verletzung is None, verletzung
    # at most one leader per term; every committed entry is in every later leader's log
    assert all(len(v) == 1 for v in blick.leader.values()), blick.leader
    assert blick.fehler == []
    # the clients' history is linearizable (fuehre_aus checked it too)
    assert linearisierbar(sim.verlauf).ok


def immer_ja(a: Stimmanfrage) -> bool:
    return True


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10_000), st.lists(plan_schritt, max_size=20))
def test_the_checker_reports_what_an_outside_observer_sees(
    seed: int, schritte: list[Schritt]
) -> None:
    # with a rule that votes for everyone, the observer and the checker agree on two leaders
    blick = Beobachter()
    _, verletzung = fuehre_aus(
        schritte, seed=seed, stimmregel=immer_ja, anhalten=False, beobachte=blick.sieh
    )
    zwei = [t for t, v in blick.leader.items() if len(v) > 1]
    if zwei:
        assert verletzung is not None
    if verletzung is not None and verletzung.startswith("Zwei Leader in Term "):
        term = int(verletzung.split()[4].rstrip(":"))
        assert term in blick.leader
