"""Properties of the lease simulation for generated schedules of pauses, drifts and work."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.leases import LeaseSim

pausen = st.lists(st.tuples(st.integers(0, 60), st.integers(1, 30)), max_size=3)
client = st.fixed_dictionaries(
    {
        "start": st.integers(0, 30),
        "arbeit": st.integers(0, 18),
        "drift": st.integers(-500, 500),
        "pausen": pausen,
        "latenz": st.integers(1, 6),
        "prueft": st.booleans(),
        "wiederholen": st.integers(1, 4),
    }
)
plan = st.tuples(st.integers(2, 15), st.lists(client, min_size=1, max_size=4))


def laufe(ttl: int, clients: list[dict[str, Any]], fencing: bool) -> LeaseSim:
    sim = LeaseSim(ttl=ttl, fencing=fencing)
    for i, c in enumerate(clients):
        sim.client(f"c{i}", **c)
    sim.lauf()
    return sim


@settings(max_examples=200, deadline=None)
@given(plan)
def test_with_fencing_no_write_with_an_older_token_is_ever_accepted(p: Any) -> None:
    ttl, clients = p
    sim = laufe(ttl, clients, fencing=True)
    vergeben = {le.token: le.vergeben for le in sim.leases}
    groesster = 0
    for a in sim.auftraege:
        if a.angenommen:
            # never older than the latest accepted token, nor granted before its lease
            assert a.token >= groesster
            if groesster:
                assert vergeben[a.token] >= vergeben[groesster]
            groesster = a.token
        else:
            assert a.token < groesster  # only an older token is refused
    assert len(sim.auftraege) == sum(c.ergebnis is not None for c in sim.clients.values())


@settings(max_examples=200, deadline=None)
@given(plan)
def test_the_service_never_grants_two_valid_leases_at_once(p: Any) -> None:
    ttl, clients = p
    sim = laufe(ttl, clients, fencing=False)
    assert all(a.angenommen for a in sim.auftraege)  # no fencing: everything lands
    leases = sim.leases
    assert [le.token for le in leases] == list(range(1, len(leases) + 1))
    for frueher, spaeter in itertools.pairwise(leases):
        assert frueher.ende is not None and frueher.ende <= spaeter.vergeben
        assert frueher.ende <= frueher.ablauf


@settings(max_examples=100, deadline=None)
@given(
    ttl=st.integers(8, 15),
    arbeit=st.integers(0, 2),
    extra=st.integers(0, 20),
    arbeit_b=st.integers(0, 4),
)
def test_a_pause_after_the_check_lets_two_holders_write(
    ttl: int, arbeit: int, extra: int, arbeit_b: int
) -> None:
    """a checks in time, then pauses at least ttl: a's stale write lands without fencing and
    is refused with fencing whenever b wrote first."""
    ergebnisse = {}
    for fencing in (False, True):
        sim = LeaseSim(ttl=ttl, fencing=fencing)
        sim.client("a", arbeit=arbeit, pausen=[(arbeit + 1, ttl + extra)])
        sim.client("b", start=1, arbeit=arbeit_b, wiederholen=1)
        sim.lauf()
        ergebnisse[fencing] = {a.client: a for a in sim.auftraege}
    ohne = ergebnisse[False]
    assert ohne["a"].angenommen and ohne["b"].angenommen
    assert not ohne["a"].lease_gueltig and ohne["b"].lease_gueltig
    mit = ergebnisse[True]
    assert mit["b"].angenommen
    if mit["a"].angekommen > mit["b"].angekommen:
        assert not mit["a"].angenommen
    else:  # nobody newer wrote yet: the token is still the largest the storage saw
        assert mit["a"].angenommen
