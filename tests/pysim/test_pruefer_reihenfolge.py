"""The history's order is real time, within a tick too (Jepsen: a process is sequential).

``linearisierbar`` against a brute-force reference that knows nothing of ticks: random small
histories over one or two registers, several processes interleaved, many events in one tick
(a process's whole sequence of operations too), ``info`` and ``fail`` and invokes without an
answer. The reference pairs the events itself and tries every order of the operations that
keeps each confirmed operation before every operation invoked after it in the list.

Plus the issue's example as a plain test, and the same rule in the other checkers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.pruefer import Urteil, broadcast, kafka_log, linearisierbar, operationen, zaehler
from tests.pysim.verlaeufe import alle_reihenfolgen, op

Ereignis = dict[str, Any]


# --- the histories --------------------------------------------------------------------------


@st.composite
def verschraenkt(draw: st.DrawFn, aendern: bool = True) -> list[Ereignis]:
    """A real execution of 1 to 3 processes (up to 8 operations) on one register per key, as a
    history.

    A confirmed operation takes effect at one step between its invoke and its answer, an
    ``info`` or unanswered write or cas at any later step or never, a ``fail`` never; reads get
    what the register held then. Half the histories happen in one tick; in the others time
    moves by 0, 1 or 2 ticks per event, mostly 0: whole sequences of one process and of several
    share a tick. With ``aendern``, mostly one read's value is changed afterwards (often to an
    earlier one: a stale read), which often makes the history non-linearizable.
    """
    prozesse = draw(st.integers(1, 3))
    geplant: list[list[dict[str, Any]]] = [[] for _ in range(prozesse)]
    for _ in range(draw(st.integers(1, 8))):
        p = draw(st.integers(0, prozesse - 1))
        f = draw(st.sampled_from(["read", "read", "write", "write", "cas"]))
        eingabe: Any = None
        if f == "write":
            eingabe = draw(st.integers(0, 2))
        elif f == "cas":
            eingabe = [draw(st.one_of(st.none(), st.integers(0, 2))), draw(st.integers(0, 2))]
        geplant[p].append(
            {
                "f": f,
                "key": draw(st.sampled_from(["x", "x", "y"])),
                "value": eingabe,
                "ausgang": draw(st.sampled_from(["ok", "ok", "ok", "info", "fail", "offen"])),
            }
        )
    register: dict[str, Any] = {}
    verlauf: list[Ereignis] = []
    zeit = 0
    # Half the histories happen in one tick: by ticks everything would overlap.
    schritte_der_zeit = [0] if draw(st.booleans()) else [0, 0, 0, 0, 1, 2]
    laufend: list[dict[str, Any] | None] = [None] * prozesse
    nummer = list(range(prozesse))  # a process number; a new one after an info (Jepsen)
    spaet: list[dict[str, Any]] = []  # effects of indeterminate operations, any step from now

    def wirke(o: dict[str, Any]) -> None:
        f, k, v = o["f"], o["key"], o["value"]
        if f == "read":
            o["gelesen"] = register.get(k)
        elif f == "write":
            register[k] = v
        elif register.get(k) == v[0]:
            register[k] = v[1]
            o["getauscht"] = True

    def ereignis(p: int, o: dict[str, Any], typ: str, value: Any) -> None:
        nonlocal zeit
        zeit += draw(st.sampled_from(schritte_der_zeit))
        e = {"process": nummer[p], "type": typ, "f": o["f"], "key": o["key"], "value": value}
        verlauf.append({**e, "time": zeit})

    while True:
        schritte = [("p", p) for p in range(prozesse) if geplant[p] or laufend[p] is not None]
        if not schritte:
            break  # effects still in ``spaet`` never happen
        schritte += [("s", i) for i in range(len(spaet))]
        art, i = schritte[draw(st.integers(0, len(schritte) - 1))]
        if art == "s":
            wirke(spaet.pop(i))
            continue
        o = laufend[i]
        if o is None:  # the process invokes its next operation
            o = laufend[i] = geplant[i].pop(0)
            ereignis(i, o, "invoke", o["value"])
            o["wirkt"] = o["ausgang"] == "ok"
            if o["ausgang"] in ("info", "offen") and o["f"] != "read" and draw(st.booleans()):
                spaet.append(o)
        elif o["wirkt"]:  # a confirmed operation takes effect before its answer
            wirke(o)
            o["wirkt"] = False
        else:  # the answer
            laufend[i] = None
            if o["ausgang"] == "offen":
                geplant[i] = []  # no answer ever: this process does nothing more
                continue
            typ = o["ausgang"]
            if typ == "ok" and o["f"] == "cas" and not o.get("getauscht"):
                typ = "fail"  # the cas found another value: it said so, definitely
            value = o.get("gelesen") if o["f"] == "read" and typ == "ok" else o["value"]
            ereignis(i, o, typ, value)
            if typ == "info":
                nummer[i] += prozesse
    lesende = [i for i, e in enumerate(verlauf) if e["type"] == "ok" and e["f"] == "read"]
    if aendern and lesende and draw(st.integers(0, 3)):
        # Mostly a stale value: one written before (or None), as a lagging replica would give.
        i = lesende[draw(st.integers(0, len(lesende) - 1))]
        frueher = [None, *(x["value"] for x in verlauf[:i] if x["f"] == "write")]
        verlauf[i]["value"] = draw(st.sampled_from([*frueher, 0, 1, 2]))
    return verlauf


@settings(max_examples=1000, deadline=None)
@given(h=verschraenkt())
def test_linearisierbar_wie_die_referenz(h: list[Ereignis]) -> None:
    u = linearisierbar(h)
    assert u.entschieden
    assert u.ok == alle_reihenfolgen(h), (u.erklaerung, h)


@settings(max_examples=200, deadline=None)
@given(h=verschraenkt(aendern=False))
def test_eine_echte_ausfuehrung_ist_linearisierbar(h: list[Ereignis]) -> None:
    """Every execution the generator makes, unchanged, passes both: the reference is no
    stricter than the truth, whatever shares a tick."""
    assert alle_reihenfolgen(h)
    assert linearisierbar(h).ok


@settings(max_examples=200, deadline=None)
@given(h=verschraenkt(aendern=False), data=st.data())
def test_das_eigene_schreiben_im_selben_tick_ist_nie_gleichzeitig(
    h: list[Ereignis], data: st.DataObject
) -> None:
    """Into any real execution, a new process writes 9 to a key of its own and reads it back in
    the same tick as the history's last event, getting None: never linearizable."""
    t = h[-1]["time"]
    schreiben = {"process": "neu", "f": "write", "key": "z", "value": 9, "time": t}
    lesen = {"process": "neu", "f": "read", "key": "z", "time": t}
    eigene = [
        {**schreiben, "type": "invoke"},
        {**schreiben, "type": "ok"},
        {**lesen, "type": "invoke", "value": None},
        {**lesen, "type": "ok", "value": None},
    ]
    # Anywhere among the events of that tick, before, between or after them.
    erste = next(i for i, e in enumerate(h) if e["time"] == t)
    stelle = data.draw(st.integers(erste, len(h)))
    mit = [*h[:stelle], *eigene, *h[stelle:]]
    assert not alle_reihenfolgen(mit)
    u = linearisierbar(mit)
    assert not u.ok
    assert "Nicht linearisierbar: Schlüssel z. Lesen z → None (Prozess neu)" in u.erklaerung
    assert "Auch im selben Tick gilt die Reihenfolge des Verlaufs" in u.erklaerung


# --- the example --------------------------------------------------------------------


def test_eigenes_schreiben_dann_lesen_im_selben_tick() -> None:
    """Issue 47: a client's "write 3 ok at t=4, then read → None at t=4" is not linearizable."""
    h = [
        {"process": 1, "type": "invoke", "f": "write", "key": "x", "value": 3, "time": 2},
        {"process": 1, "type": "ok", "f": "write", "key": "x", "value": 3, "time": 4},
        {"process": 1, "type": "invoke", "f": "read", "key": "x", "value": None, "time": 4},
        {"process": 1, "type": "ok", "f": "read", "key": "x", "value": None, "time": 4},
    ]
    u = linearisierbar(h)
    assert not u.ok and u.entschieden
    assert u.erklaerung.startswith(
        "Nicht linearisierbar: Schlüssel x. Lesen x → None (Prozess 1) lässt sich nicht "
        "einordnen (t=4). Es begann bei t=4, nachdem Schreiben x=3 (Prozess 1) bei t=4 "
        "bestätigt war. Auch im selben Tick gilt die Reihenfolge des Verlaufs: Die Bestätigung "
        "kam vor dem Beginn."
    ), u.erklaerung
    assert {o.index for o in u.zeugen} == {0, 2}
    # Another client's read that began before the confirmation, in the same tick, overlaps
    # the write and may still see the old value.
    anderer = {**h[2], "process": 2}, {**h[3], "process": 2}
    assert linearisierbar([h[0], anderer[0], h[1], anderer[1]]).ok


def test_zwei_clients_im_selben_tick() -> None:
    """c1's write is confirmed, then c2 begins a read in the same tick: c2 must see it."""
    h = [
        *op(1, "write", 1, 0, 5),
        *op(2, "read", None, 5, 6),
    ]
    assert [e["type"] for e in h] == ["invoke", "ok", "invoke", "ok"]
    u = linearisierbar(h)
    assert not u.ok
    assert "Auch im selben Tick gilt die Reihenfolge des Verlaufs" in u.erklaerung
    # Begun before the confirmation (one tick, other order): they overlap, both values fit.
    h = [h[0], h[2], h[1], h[3]]
    assert linearisierbar(h).ok


def test_nie_geschrieben_spaeter_im_selben_tick() -> None:
    h = [
        *op(3, "read", 9, 4, 4),
        *op(1, "write", 9, 4, 6),
    ]
    u = linearisierbar(h)
    assert not u.ok
    assert (
        "Den Wert 9 hat bis t=4 niemand geschrieben. Schreiben x=9 (Prozess 1) begann erst "
        "danach, ebenfalls bei t=4." in u.erklaerung
    ), u.erklaerung


# --- the same order in the other checkers ---------------------------------------------------


@pytest.mark.parametrize(
    ("pruefer", "h", "satz"),
    [
        (
            zaehler,
            [*op(1, "add", 3, 2, 4, key=None), *op(2, "read", 0, 4, 4, key=None, node="n1")],
            "Der Stand müsste genau 3 sein.",
        ),
        (
            broadcast,
            [*op(1, "broadcast", 7, 1, 3, key=None), *op(2, "read", [], 3, 3, key=None, node="n1")],
            "Knoten n1 kennt 7 nicht",
        ),
    ],
    ids=["zaehler", "broadcast"],
)
def test_bestaetigt_vor_dem_letzten_lesen_im_selben_tick(
    pruefer: Callable[..., Urteil], h: list[Ereignis], satz: str
) -> None:
    u = pruefer(h)
    assert not u.ok
    assert satz in u.erklaerung
    # Still running when the read began (its ok after the read's invoke): either value is fine.
    assert pruefer([h[0], h[2], h[1], h[3]]).ok


def test_broadcast_wert_erst_danach_im_selben_tick_gesendet() -> None:
    h = [
        *op(2, "read", [7], 3, 3, key=None, node="n1"),
        *op(1, "broadcast", 7, 3, 4, key=None),
    ]
    u = broadcast(h)
    assert not u.ok
    assert "erst danach, ebenfalls bei t=3 begann" in u.erklaerung, u.erklaerung


def test_kafka_commit_und_liste_im_selben_tick() -> None:
    h = [
        *op(1, "commit_offsets", None, 2, 5, key=None, eingabe={"k0": 4}),
        *op(2, "list_committed_offsets", {"k0": 1}, 5, 6, key=None, eingabe=["k0"]),
    ]
    u = kafka_log(h)
    assert not u.ok
    assert "Die gespeicherte Position (Commit) von k0 ging zurück" in u.erklaerung
    assert kafka_log([h[0], h[2], h[1], h[3]]).ok


def test_operationen_ordnen_nach_stelle() -> None:
    a, b = operationen([*op(1, "write", 1, 0, 5), *op(2, "read", 1, 5, 5)])
    assert a.vor(b) and not b.vor(a)
    c, d = operationen([*op(1, "write", 1, 0, 5, typ="info"), *op(2, "read", 1, 5, 5)])
    assert not c.vor(d)
