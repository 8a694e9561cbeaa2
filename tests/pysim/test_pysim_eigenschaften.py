"""Eigenschaften, die für jeden Ablauf gelten (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import EventStore, FakeNetz, Log, Queue, SimFehler, bestand
from pysim.log.regeln import zuteilen
from pysim.queue.regeln import UNERLEDIGT

EINSTELLUNGEN = settings(max_examples=150, deadline=None)

# --- Queue ---

queue_ops = st.lists(
    st.one_of(
        st.tuples(st.just("send"), st.integers(0, 9)),
        st.tuples(st.just("receive"), st.sampled_from(["A", "B", None])),
        st.tuples(st.just("ack"), st.integers(1, 12)),
        st.tuples(st.just("tick"), st.integers(0, 4)),
    ),
    max_size=60,
)


@EINSTELLUNGEN
@given(ops=queue_ops, vt=st.integers(1, 4), max_versuche=st.one_of(st.none(), st.integers(1, 3)))
def test_bestaetigte_nachricht_wird_nie_wieder_ausgeliefert(ops, vt, max_versuche) -> None:
    q = Queue(visibility_timeout=vt, max_versuche=max_versuche)
    bestaetigt: set[int] = set()
    gesendet = 0
    for op, arg in ops:
        if op == "send":
            q.send(arg)
            gesendet += 1
        elif op == "receive":
            m = q.receive(consumer=arg)
            if m is not None:
                assert m["id"] not in bestaetigt
                assert m["versuche"] >= 1
                if max_versuche is not None:
                    assert m["versuche"] <= max_versuche
        elif op == "ack":
            if arg <= gesendet:
                if q.ack(arg):
                    assert arg not in bestaetigt
                    bestaetigt.add(arg)
            else:
                vorher = repr(q)
                try:
                    q.ack(arg)
                except SimFehler:
                    assert repr(q) == vorher
                else:
                    raise AssertionError("unbekannte ID ohne Fehler")
        else:
            q.tick(arg)
        offen = sum(1 for i in q.ids() if q.zustand(i) in UNERLEDIGT)
        assert q.offen() == offen == len(q.sichtbar()) + len(q.unterwegs())
        dlq = q.dlq.offen() if q.dlq is not None else 0
        assert offen + len(bestaetigt) + dlq == gesendet


@EINSTELLUNGEN
@given(
    anzahl=st.integers(1, 6),
    abstuerze=st.lists(st.sampled_from(["vor_arbeit", "nach_arbeit", "vor_ack", "keiner"])),
    vt=st.integers(1, 3),
)
def test_idempotenter_consumer_wirkt_genau_einmal(anzahl, abstuerze, vt) -> None:
    q = Queue(visibility_timeout=vt)
    for i in range(anzahl):
        q.send(f"zahlung-{i}")
    gesehen: set[int] = set()  # die Dedup-Tabelle
    wirkungen: dict[str, int] = {}
    naiv: dict[str, int] = {}
    plan = iter(abstuerze)
    schritte = 0
    while q.offen():
        schritte += 1
        assert schritte < 10_000
        m = q.receive(consumer="K")
        if m is None:
            q.tick(1)
            continue
        absturz = next(plan, "keiner")
        if absturz == "vor_arbeit":
            continue
        naiv[m["body"]] = naiv.get(m["body"], 0) + 1
        if m["id"] not in gesehen:  # Wirkung und Merken in einem Schritt (eine Transaktion)
            gesehen.add(m["id"])
            wirkungen[m["body"]] = wirkungen.get(m["body"], 0) + 1
        if absturz in ("nach_arbeit", "vor_ack"):
            continue
        q.ack(m["id"])
    namen = {f"zahlung-{i}" for i in range(anzahl)}
    assert wirkungen == dict.fromkeys(namen, 1)
    assert set(naiv) == namen and all(n >= 1 for n in naiv.values())  # at-least-once


# --- Log ---

log_ops = st.lists(
    st.one_of(
        st.tuples(st.just("produce"), st.sampled_from([None, "a", "customer-7", "order-61", "xy"])),
        st.tuples(
            st.just("consume"),
            st.sampled_from(["billing", "email"]),
            st.sampled_from([None, "m-1", "m-2", "m-3", "m-4"]),
            st.one_of(st.none(), st.integers(-1, 3)),
            st.booleans(),
            st.booleans(),
        ),
        st.tuples(
            st.just("reset"),
            st.sampled_from(["billing", "email", "nope"]),
            st.sampled_from([0, 1, 5, -1, "earliest", "latest", "falsch"]),
        ),
        st.tuples(
            st.just("leave"), st.sampled_from(["billing", "email"]), st.sampled_from(["m-1", "m-2"])
        ),
        st.tuples(st.just("read"), st.integers(-1, 3), st.integers(-1, 3)),
    ),
    max_size=50,
)


def log_zustand(log: Log) -> str:
    teile = [repr(log), repr(log.read("orders")), repr(log.offsets("orders"))]
    teile += [repr(log.group(g)) for g in log.groups()]
    return "\n".join(teile)


@EINSTELLUNGEN
@given(ops=log_ops, partitionen=st.integers(1, 4))
def test_log_regeln_gelten_immer(ops, partitionen) -> None:
    log = Log()
    log.create_topic("orders", partitions=partitionen)
    enden = [0] * partitionen
    for op in ops:
        vorher = log_zustand(log)
        positionen_vorher = log.offsets("orders").gruppen
        try:
            if op[0] == "produce":
                p, offset = log.produce("orders", {"n": sum(enden)}, key=op[1])
                assert offset == enden[p]  # Offsets wachsen um genau 1
                enden[p] += 1
            elif op[0] == "consume":
                _, gruppe, mitglied, maximum, von_anfang, commit = op
                gelesen = log.consume("orders", gruppe, mitglied, maximum, von_anfang, commit)
                if maximum is not None:
                    assert len(gelesen) <= maximum
                adressen = [(r.partition, r.offset) for r in gelesen]
                assert adressen == sorted(adressen)  # Partition für Partition
                if not commit:
                    assert log.offsets("orders").gruppen.get(gruppe) == positionen_vorher.get(
                        gruppe
                    )
            elif op[0] == "reset":
                log.reset(op[1], to=op[2], topic="orders")
            elif op[0] == "leave":
                log.leave(op[1], op[2])
            else:
                _, p, start = op
                log.read("orders", partition=p if p >= 0 else None, start=start)
                assert log_zustand(log) == vorher  # read ändert nichts
        except SimFehler:
            assert log_zustand(log) == vorher  # ein Fehler ändert nichts
        assert log.offsets("orders").enden == tuple(enden)
        for p in range(partitionen):
            assert [r.offset for r in log.read("orders", partition=p)] == list(range(enden[p]))
        for g in log.groups():
            zeilen = log.describe(g)
            for z in zeilen:
                if z.position is None:  # no member of this partition has stored a position
                    assert z.lag is None
                    continue
                assert 0 <= z.position <= z.end
                assert z.lag == z.end - z.position >= 0
            mitglieder = log.members(g)
            if zeilen and mitglieder:
                gehalten = [z.member for z in zeilen]
                assert len(gehalten) == partitionen
                assert all(m in mitglieder for m in gehalten)


@EINSTELLUNGEN
@given(
    mitglieder=st.lists(st.text("abc-123", min_size=1, max_size=4), unique=True, max_size=6),
    partitionen=st.integers(1, 8),
)
def test_jede_partition_genau_ein_mitglied(mitglieder, partitionen) -> None:
    zuteilung = zuteilen(mitglieder, partitionen)
    if not mitglieder:
        assert zuteilung == {}
        return
    assert sorted(zuteilung) == list(range(partitionen))
    assert set(zuteilung.values()) <= set(mitglieder)
    anzahl = [sum(1 for m in zuteilung.values() if m == n) for n in sorted(mitglieder)]
    assert anzahl == sorted(anzahl, reverse=True)  # die ersten bekommen die Extra-Partition
    assert max(anzahl) - min(anzahl) <= 1
    besitzer = [zuteilung[p] for p in range(partitionen)]
    assert besitzer == sorted(besitzer)  # zusammenhängende Blöcke in Namensreihenfolge


# --- Determinismus ---


@EINSTELLUNGEN
@given(
    seed=st.integers(0, 2**32),
    verlust=st.floats(0, 0.5),
    duplikat=st.floats(0, 0.5),
    ticks=st.lists(st.integers(0, 3), min_size=1, max_size=10),
)
def test_gleicher_seed_gleicher_lauf(seed, verlust, duplikat, ticks) -> None:
    def lauf() -> tuple:
        netz = FakeNetz(seed=seed, verlust=verlust, duplikat=duplikat)
        for i, t in enumerate(ticks):
            netz.send(f"n-{i}")
            netz.tick(t)
        netz.empfangen()
        return (repr(netz.ankuenfte), repr(netz.sendungen), repr(netz))

    assert lauf() == lauf()


@EINSTELLUNGEN
@given(aenderungen=st.lists(st.integers(-5, 10), min_size=1, max_size=20), snap=st.integers(0, 20))
def test_snapshot_aendert_das_ergebnis_nie(aenderungen, snap) -> None:
    s = EventStore()
    for i, a in enumerate(aenderungen):
        s.append("p", [{"change": a}], expected_version=i)
        if i == snap:
            s.snapshot("p", bestand)
    verlauf = s.verlauf("p", bestand)
    for version, stand in verlauf:
        assert s.zustand("p", bestand, version=version) == stand
    assert s.zustand("p", bestand) == sum(aenderungen)
