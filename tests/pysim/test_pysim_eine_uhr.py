"""One clock: a Queue and a FakeNetz that share a Zeit see their events in one order."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import FakeNetz, Log, Queue, UngueltigeEingabe, Zeit
from pysim.queue.regeln import IN_DLQ, SICHTBAR, UNTERWEGS, WIEDER_SICHTBAR


def _szenario() -> tuple[list[tuple[int, str, Any]], Queue]:
    """The network delivers into the queue; a consumer takes each message and never acks.

    Only the network's clock calls advance time, so every queue timeout below fires because
    the shared clock reached it, not because the queue was asked.
    """
    uhr = Zeit()
    q = Queue(visibility_timeout=2, max_versuche=2, zeit=uhr)
    protokoll: list[tuple[int, str, Any]] = []

    def ankunft(nachricht: Any) -> None:
        q.send(nachricht)
        protokoll.append((uhr.now, "ankunft", nachricht))
        m = q.receive(consumer="A")
        assert m is not None
        protokoll.append((uhr.now, "receive", (m["id"], m["versuche"])))

    netz = FakeNetz(seed=7, verlust=0, duplikat=0, verzoegerung=(1, 3), zeit=uhr)
    for i in range(1, 5):
        netz.send(f"m{i}", an=ankunft)
    for _ in range(12):
        netz.tick(1)
        for e in q.verlauf():
            eintrag = (e.zeit, e.art, e.id)
            if e.art in (WIEDER_SICHTBAR, IN_DLQ) and eintrag not in protokoll:
                protokoll.append(eintrag)
    assert q.ids() == [1, 2, 3, 4]
    return protokoll, q


def test_timeouts_fire_when_another_model_moves_the_shared_clock() -> None:
    uhr = Zeit()
    q = Queue(visibility_timeout=3, zeit=uhr)
    netz = FakeNetz(seed=1, verlust=0, duplikat=0, verzoegerung=(1, 1), zeit=uhr)
    q.send("a")
    m = q.receive(consumer="A")
    assert m is not None
    netz.tick(2)
    assert q.zustand(m["id"]) == UNTERWEGS
    netz.tick(1)  # t=3: only the network ticks, the queue's timeout still fires
    assert q.zustand(m["id"]) == SICHTBAR
    assert [(e.zeit, e.art) for e in q.verlauf()] == [
        (0, "gesendet"),
        (0, "ausgeliefert"),
        (3, "wieder_sichtbar"),
    ]


def test_same_tick_runs_in_scheduling_order() -> None:
    """A network arrival and a queue timeout due at the same tick run in the order they were
    scheduled: the arrival (sent at t=0) before the timeout (delivered at t=1)."""
    uhr = Zeit()
    q = Queue(visibility_timeout=2, zeit=uhr)
    netz = FakeNetz(seed=1, verlust=0, duplikat=0, verzoegerung=(3, 3), zeit=uhr)
    gesehen: list[str] = []
    netz.send("x", an=lambda _n: gesehen.append(q.zustand(1)))
    q.send("a")
    uhr.tick(1)
    q.receive()  # due at t=3, like the arrival
    uhr.tick(2)
    assert gesehen == [UNTERWEGS]  # the arrival ran first: the timeout had not yet fired
    assert q.zustand(1) == SICHTBAR


def test_shared_clock_order_is_deterministic() -> None:
    erster, q1 = _szenario()
    zweiter, q2 = _szenario()
    assert erster == zweiter
    assert [str(e) for e in q1.verlauf()] == [str(e) for e in q2.verlauf()]
    # At t=4 the arrival of m3 (scheduled at t=0) runs before the timeout of message 2
    # (scheduled by its delivery at t=2): its receive gets message 1 again, not message 2.
    assert [str(e) for e in q1.verlauf()] == [
        "t=1: Nachricht 1 gesendet",
        "t=1: Nachricht 1 ausgeliefert an A (Versuch 1, unsichtbar bis t=3)",
        "t=2: Nachricht 2 gesendet",
        "t=2: Nachricht 2 ausgeliefert an A (Versuch 1, unsichtbar bis t=4)",
        "t=3: Nachricht 1 wieder sichtbar",
        "t=4: Nachricht 3 gesendet",
        "t=4: Nachricht 1 ausgeliefert an A (Versuch 2, unsichtbar bis t=6)",
        "t=4: Nachricht 2 wieder sichtbar",
        "t=5: Nachricht 4 gesendet",
        "t=5: Nachricht 2 ausgeliefert an A (Versuch 2, unsichtbar bis t=7)",
        "t=6: Nachricht 1 in die DLQ verschoben",
        "t=7: Nachricht 2 in die DLQ verschoben",
    ]
    assert q1.dlq is not None and q1.dlq.ids() == [1, 2]
    zeiten = [t for t, _, _ in erster]
    assert zeiten == sorted(zeiten)


def test_ack_cancels_the_timeout_event() -> None:
    uhr = Zeit()
    q = Queue(visibility_timeout=5, zeit=uhr)
    q.send("a")
    q.send("b")
    a, b = q.receive(), q.receive()
    assert a is not None and b is not None
    assert uhr.geplant == 1  # one event for the tick at which both are due
    q.ack(a["id"])
    assert uhr.geplant == 1
    q.ack(b["id"])
    assert uhr.geplant == 0
    uhr.run()  # nothing left: time does not jump to the cancelled deadline
    assert uhr.now == 0
    assert q.offen() == 0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.booleans(), st.integers(0, 3)), min_size=1, max_size=200
    )
)
def test_zeit_runs_what_is_not_cancelled_in_time_and_scheduling_order(
    plan: list[tuple[int, bool, int]],
) -> None:
    """Cancelling many appointments (which compacts the heap) never changes what runs, or in
    which order: time first, then the order of scheduling."""
    uhr = Zeit()
    gelaufen: list[int] = []
    erwartet: list[tuple[int, int]] = []
    for nummer, (verzoegerung, absagen, tick) in enumerate(plan):
        termin = uhr.schedule(verzoegerung, gelaufen.append, nummer)
        if absagen:
            termin.absagen()
        else:
            erwartet.append((termin.zeit, nummer))
        if tick:
            uhr.tick(tick)
    uhr.run()
    assert gelaufen == [n for _, n in sorted(erwartet)]
    assert uhr.geplant == 0


def test_old_names_stay_aliases() -> None:
    q = Queue(visibility_timeout=1, max_versuche=2)
    assert q.max_receive_count == q.max_versuche == 2
    assert q.dlq is not None
    with pytest.raises(UngueltigeEingabe, match="alte Name"):
        Queue(max_receive_count=2, max_versuche=2)
    log = Log(max_poll_interval=1)
    log.create_topic("orders")
    log.consume("orders", "billing")
    log.consume("orders", "billing", member="billing-2")
    log.tick(1)
    log.consume("orders", "billing")
    (weg,) = log.tick(1)
    assert (weg.gruppe, weg.mitglied, weg.frist) == ("billing", "billing-2", 1)
    assert (weg.group, weg.member) == (weg.gruppe, weg.mitglied)


def test_cancelled_appointments_do_not_pile_up() -> None:
    """A queue whose deliveries are all acked leaves no events behind on its clock."""
    uhr = Zeit()
    q = Queue(visibility_timeout=30, zeit=uhr)
    for i in range(5000):
        q.send(i)
        m = q.receive()
        assert m is not None
        q.ack(m["id"])
        if i % 7 == 0:
            uhr.tick(1)
    assert uhr.geplant == 0
    assert len(uhr._heap) <= 2 * 64 + 1  # rebuilt once cancelled ones are the majority
    assert len(q._fristen) == 0
