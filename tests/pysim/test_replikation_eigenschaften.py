"""Properties of the replicated store for every run (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.replikation import SCHRITT, ReplikSpeicher

EINSTELLUNGEN = settings(max_examples=120, deadline=None)

SCHLUESSEL = st.sampled_from(["x", "y"])

#: A client's operations: write, read (anywhere), let time pass, change a lag.
operationen = st.lists(
    st.one_of(
        st.tuples(st.just("write"), SCHLUESSEL, st.integers(0, 99)),
        st.tuples(st.just("read"), SCHLUESSEL, st.none()),
        st.tuples(st.just("tick"), st.integers(0, 4), st.none()),
        st.tuples(st.just("lag"), st.integers(1, 5), st.integers(0, 4)),
    ),
    max_size=25,
)


@st.composite
def quorum(draw: st.DrawFn) -> tuple[int, int, int]:
    n = draw(st.integers(1, 5))
    w = draw(st.integers(1, n))
    r = draw(st.integers(n - w + 1, n))  # w + r > n
    return n, w, r


@EINSTELLUNGEN
@given(q=quorum(), lags=st.lists(st.integers(0, 4), min_size=5, max_size=5), ops=operationen)
def test_overlapping_quorums_read_the_last_acknowledged_write(q, lags, ops) -> None:
    """With w + r > n and no failure, a read returns the last acknowledged write."""
    n, w, r = q
    s = ReplikSpeicher()
    s.quorum(n, w, r)
    for name, lag in zip(s.namen, lags, strict=False):
        s.setze_lag(name, lag)
    letzter: dict[str, int] = {}
    for op, a, b in ops:
        if op == "write":
            assert s.write(a, b).ok  # lags <= 4: a round trip fits the timeout
            letzter[a] = b
        elif op == "read":
            antwort = s.read(a)
            assert antwort.ok
            assert antwort.wert == letzter.get(a)
        elif op == "tick":
            s.tick(a)
        elif a <= n:
            s.setze_lag(f"n{a}", b)
    assert s.urteil().ok


@EINSTELLUNGEN
@given(ops=operationen)
def test_reads_from_the_leader_are_always_linearizable(ops) -> None:
    s = ReplikSpeicher(repliken=3)
    for op, a, b in ops:
        if op == "write":
            s.write(a, b)
        elif op == "read":
            s.read(a)
        elif op == "tick":
            s.tick(a)
        elif a <= 3:
            s.setze_lag(f"n{a}", b)
    assert s.urteil().ok


@EINSTELLUNGEN
@given(
    d=st.integers(SCHRITT + 1, 6),
    vorher=st.integers(0, 5),
    follower=st.sampled_from(["n2", "n3"]),
    wert=st.integers(1, 99),
)
def test_an_async_follower_lags_behind_an_acknowledged_write(d, vorher, follower, wert) -> None:
    """Right after an asynchronous write, a follower whose messages take longer than one
    client step still has the old value, and the checker names that read."""
    s = ReplikSpeicher(verzoegerung=d)
    s.write("x", 0)
    s.tick(d + vorher)
    assert s.write("x", wert).ok
    alt = s.read("x", von=follower)
    assert alt.wert == 0
    urteil = s.urteil()
    assert not urteil.ok
    gelesen = [op for op in urteil.zeugen if op.f == "read"]
    assert [(op.knoten, op.wert, op.beginn) for op in gelesen] == [(follower, 0, alt.beginn)]
    s.tick(d)
    assert s.read("x", von=follower).wert == wert


schreibplan = st.lists(
    st.tuples(SCHLUESSEL, st.integers(0, 99), st.integers(0, 3)), min_size=1, max_size=12
)


@EINSTELLUNGEN
@given(
    lags=st.tuples(st.integers(0, 4), st.integers(0, 4)),
    plan=schreibplan,
    neu=st.sampled_from([None, "n2", "n3"]),
)
def test_failover_loses_exactly_the_unreplicated_acknowledged_writes(lags, plan, neu) -> None:
    s = ReplikSpeicher(verzoegerung=1)
    s.setze_lag("n2", lags[0])
    s.setze_lag("n3", lags[1])
    bestaetigt = []
    for key, value, pause in plan:
        antwort = s.write(key, value)
        assert antwort.ok
        bestaetigt.append((key, value, antwort.lsn))
        s.tick(pause)
    s.absturz("n1")
    ziel = neu or max(["n2", "n3"], key=lambda n: (s.stand(n), -int(n[1])))
    stand = s.stand(ziel)
    f = s.failover(neu)
    assert f.neu == ziel
    verloren = [(e.key, e.value, e.lsn) for e in f.bestaetigt_verloren]
    assert verloren == [b for b in bestaetigt if b[2] > stand]
    behalten = {k: v for k, v, lsn in bestaetigt if lsn <= stand}
    assert s.inhalt(ziel) == dict(sorted(behalten.items()))
    # Everyone ends up with the new leader's log, the old leader too once it is back.
    s.neustart("n1")
    s.tick(20)
    for name in s.namen:
        assert s.replik(name).log == s.replik(ziel).log, name


@EINSTELLUNGEN
@given(lags=st.tuples(st.integers(0, 4), st.integers(0, 4)), plan=schreibplan)
def test_fully_synchronous_replication_loses_nothing_acknowledged(lags, plan) -> None:
    s = ReplikSpeicher(verzoegerung=1, sync=2)
    s.setze_lag("n2", lags[0])
    s.setze_lag("n3", lags[1])
    for key, value, pause in plan:
        assert s.write(key, value).ok
        s.tick(pause)
    s.absturz("n1")
    assert s.failover().bestaetigt_verloren == ()
