"""Die Prüfer für eindeutige IDs, Broadcast, Zähler und Kafka-Log, und die Kennzahlen."""

from __future__ import annotations

import pytest

from pysim import SimFehler
from pysim.pruefer import broadcast, eindeutige_ids, kafka_log, kennzahlen, zaehler
from tests.pysim.verlaeufe import op, verlauf


def nennt(erklaerung: str, *saetze: str) -> None:
    """Each sentence stands in the verdict's explanation (the missing ones named)."""
    fehlen = [satz for satz in saetze if satz not in erklaerung]
    assert not fehlen, f"Es fehlt {fehlen} in:\n{erklaerung}"


def gen(p, v, t0, t1, **kw):
    return op(p, "generate", v, t0, t1, key=None, **kw)


def sende(p, v, t0, t1, **kw):
    return op(p, "broadcast", v, t0, t1, key=None, **kw)


def lies(p, knoten, werte, t0, t1, **kw):
    return op(p, "read", werte, t0, t1, key=None, node=knoten, **kw)


def add(p, d, t0, t1, **kw):
    return op(p, "add", d, t0, t1, key=None, **kw)


def stand(p, v, t0, t1, **kw):
    return op(p, "read", v, t0, t1, key=None, **kw)


def send(p, k, nachricht, offset, t0, t1, **kw):
    return op(p, "send", offset, t0, t1, key=k, eingabe=nachricht, **kw)


def poll(p, ab, msgs, t0, t1, **kw):
    return op(p, "poll", msgs, t0, t1, key=None, eingabe=ab, **kw)


def commit(p, offsets, t0, t1, **kw):
    return op(p, "commit_offsets", None, t0, t1, key=None, eingabe=offsets, **kw)


def positionen(p, keys, antwort, t0, t1, **kw):
    return op(p, "list_committed_offsets", antwort, t0, t1, key=None, eingabe=keys, **kw)


# --- unique ids ---


def test_eindeutige_ids() -> None:
    h = verlauf(gen(1, "n1-1", 0, 2), gen(2, "n2-1", 1, 3), gen(2, None, 4, 9, typ="fail"))
    u = eindeutige_ids(h)
    assert u.ok
    assert (
        u.erklaerung
        == "Eindeutig: 2 IDs, keine doppelt. Verfügbarkeit 67%: 2 von 3 Anfragen bestätigt."
    )
    assert u.angaben["verfuegbarkeit"] == pytest.approx(2 / 3)


def test_doppelte_id_wird_mit_beiden_prozessen_genannt() -> None:
    h = verlauf(gen(1, 7, 0, 2), gen(2, 8, 1, 3), gen(3, 7, 2, 4), gen(1, None, 5, None))
    u = eindeutige_ids(h)
    assert not u.ok
    assert (
        "Die ID 7 wurde 2-mal vergeben: an Prozess 1 (t=0–2) und Prozess 3 (t=2–4)." in u.erklaerung
    )
    assert "Verfügbarkeit 75%: 3 von 4 Anfragen bestätigt." in u.erklaerung
    assert [o.prozess for o in u.zeugen] == [1, 3]


# --- broadcast ---


def test_broadcast_in_ordnung_mit_sichtbarkeit() -> None:
    h = verlauf(
        sende(1, 1, 0, 2),
        sende(2, 2, 1, 3),
        lies(3, "n1", [1], 3, 4),
        lies(3, "n1", [1, 2], 20, 21),
        lies(4, "n2", [2, 1], 20, 22),
        lies(5, "n3", [2, 1], 20, 25),
    )
    u = broadcast(h, geheilt=10)
    assert u.ok
    assert "Alle 2 bestätigten Werte kamen bei allen 3 Knoten an" in u.erklaerung
    # Value 1: broadcast began at 0, n3 first had it at 25. Value 2: began at 1, last at 25.
    assert u.angaben["sichtbar_nach"] == {1: 25, 2: 24}
    assert "höchstens 25 Ticks (Median 24)" in u.erklaerung


def test_broadcast_verliert_und_erfindet() -> None:
    h = verlauf(
        sende(1, 1, 0, 2),
        sende(2, 2, 1, 3),
        sende(4, 3, 4, 6, typ="fail"),
        sende(5, 4, 5, None),
        lies(1, "n1", [1], 3, 4),
        lies(2, "n2", [1, 2, 4], 7, 8),
        lies(1, "n1", [1, 2, 3], 20, 21),
        lies(2, "n2", [1, 2, 9], 20, 22),
        lies(3, "n3", [2], 20, 21),
    )
    u = broadcast(h, geheilt=10)
    assert not u.ok
    e = u.erklaerung
    assert e.startswith("Broadcast fehlerhaft:")
    nennt(
        e,
        "Prozess 1 las bei Knoten n1 den Wert 3 (t=20–21), obwohl sein Broadcast (Prozess 4, t=4–6) fehlschlug (fail).",
        "Prozess 2 las bei Knoten n2 den Wert 9 (t=20–22), den niemand per Broadcast gesendet hat.",
        "Knoten n3 kennt 1 nicht: Der Broadcast (Prozess 1) war bei t=2 bestätigt, doch das letzte Lesen bei n3 (Prozess 3, t=20–21) enthält den Wert nicht.",
    )
    # The value 4 was never confirmed, so nobody must know it; it was broadcast, so not invented.
    assert "Wert 4" not in e
    assert {(o.f, o.prozess, o.beginn) for o in u.zeugen} >= {("broadcast", 1, 0), ("read", 3, 20)}


def test_broadcast_knoten_ohne_letztes_lesen() -> None:
    h = verlauf(sende(1, 1, 0, 2), lies(2, "n1", [1], 3, 4), lies(2, "n1", [1], 20, 21))
    u = broadcast(h, geheilt=10, knoten=["n1", "n2"])
    assert not u.ok
    assert (
        "Knoten n2 hat ab t=10 nie erfolgreich gelesen; ob er alle Werte kennt, bleibt offen."
        in u.erklaerung
    )
    # Only reads from t=10 on count as final.
    assert not broadcast(verlauf(sende(1, 1, 0, 2), lies(2, "n1", [1], 3, 4)), geheilt=10).ok


def test_broadcast_viele_verlorene_werte_in_einem_satz() -> None:
    ops = [sende(1, v, 2 * v, 2 * v + 1) for v in range(12)]
    h = verlauf(*ops, lies(2, "n1", list(range(12)), 50, 51), lies(3, "n2", [0, 1], 50, 52))
    u = broadcast(h)
    assert (
        "Knoten n2 fehlen 10 bestätigte Werte: 2, 3, 4, 5, 6, 7, 8 und 3 weitere." in u.erklaerung
    )


# --- grow-only counter ---


def test_zaehler_endstand_mit_unbestimmten_adds() -> None:
    basis = [
        add(1, 3, 0, 2),
        add(2, 5, 1, 3),
        add(1, 4, 4, 6, typ="info"),
        add(2, 10, 5, 7, typ="fail"),
    ]
    for v in (8, 12):
        assert zaehler(verlauf(*basis, stand(1, v, 20, 21)), geheilt=15).ok
    u = zaehler(verlauf(*basis, stand(1, 10, 20, 21)), geheilt=15)
    assert not u.ok
    assert (
        "Das letzte Lesen (Prozess 1, t=20–21) ergab 10. Bis zu seinem Beginn waren Adds mit der "
        "Summe 8 bestätigt; dazu kann ein unbestimmtes oder gleichzeitiges Add über 4 kommen. "
        "Möglich sind 8 oder 12." in u.erklaerung
    )
    ok = zaehler(verlauf(*basis, stand(1, 12, 20, 21)), geheilt=15)
    assert ok.erklaerung.startswith(
        "Zähler in Ordnung: 1 letzte Lesen passen zu den Adds (bestätigt: 8, dazu unbestimmte über 4)"
    )
    assert ok.angaben["letzte"] == {1: 12}


def test_zaehler_genaue_summen_nicht_nur_der_bereich() -> None:
    basis = [add(1, 5, 0, None), add(2, 5, 0, None)]
    assert zaehler(verlauf(*basis, stand(3, 10, 20, 21))).ok
    u = zaehler(verlauf(*basis, stand(3, 7, 20, 21)))
    assert not u.ok and "Möglich sind 0, 5 oder 10." in u.erklaerung


def test_zaehler_zwischenstand_darf_zurueckliegen_aber_nicht_vorauseilen() -> None:
    basis = [add(1, 3, 0, 2), add(2, 5, 1, 3)]
    assert zaehler(verlauf(*basis, stand(3, 0, 4, 5), stand(3, 8, 20, 21))).ok
    u = zaehler(verlauf(*basis, stand(3, 30, 4, 5), stand(3, 8, 20, 21)))
    assert not u.ok
    assert (
        "Prozess 3 las 30 (t=4–5), doch bis dahin konnten höchstens 8 hinzugefügt sein."
        in u.erklaerung
    )


def test_zaehler_ohne_letztes_lesen() -> None:
    u = zaehler(verlauf(add(1, 3, 0, 2), stand(3, 3, 4, 5)), geheilt=10)
    assert (
        not u.ok
        and "Niemand las ab t=10 erfolgreich; der Endstand bleibt ungeprüft." in u.erklaerung
    )


def test_zaehler_nimmt_nur_zuwachs() -> None:
    with pytest.raises(
        SimFehler,
        match=r"Ereignis 0: Der Zuwachs \(value\) eines add ist eine ganze Zahl >= 0, nicht -1.",
    ):
        zaehler(verlauf(add(1, -1, 0, 2)))


# --- Kafka-style log ---


def vier_sends():
    return [
        send(1, "k1", "a", 0, 0, 1),
        send(2, "k1", "b", 1, 0, 2),
        send(1, "k1", "c", 2, 2, 3),
        send(2, "k1", "d", 3, 3, 4),
    ]


def test_kafka_in_ordnung() -> None:
    h = verlauf(
        *vier_sends(),
        poll(3, {"k1": 0}, {"k1": [[0, "a"], [1, "b"]]}, 5, 6),
        poll(3, {"k1": 2}, {"k1": [[2, "c"]]}, 7, 8),
        commit(3, {"k1": 2}, 9, 10),
        positionen(4, ["k1"], {"k1": 2}, 11, 12),
    )
    u = kafka_log(h)
    assert u.ok, u.erklaerung
    assert "1 bestätigte sends lieferte noch kein poll" in u.erklaerung
    assert u.angaben["unbeobachtet"] == 1


def test_kafka_verlorene_nachricht() -> None:
    h = verlauf(*vier_sends(), poll(3, {"k1": 2}, {"k1": [[2, "c"], [3, "d"]]}, 5, 6))
    u = kafka_log(h)
    assert not u.ok
    assert (
        "Verloren: send 'a' an k1 (Prozess 1, t=0–1) bekam Offset 0, doch kein poll lieferte ihn, "
        "obwohl der poll von Prozess 3 (t=5–6) schon Offset 3 von k1 las." in u.erklaerung
    )
    assert "send 'b' an k1 (Prozess 2, t=0–2) bekam Offset 1" in u.erklaerung


def test_kafka_uebersprungene_und_fallende_offsets() -> None:
    h = verlauf(
        *vier_sends(),
        poll(3, {"k1": 0}, {"k1": [[0, "a"], [2, "c"]]}, 5, 6),
        poll(4, {"k1": 1}, {"k1": [[2, "c"]]}, 5, 6),
        poll(3, {"k1": 3}, {"k1": [[3, "d"], [1, "b"]]}, 7, 8),
        poll(4, {"k1": 3}, {"k1": [[2, "c"]]}, 7, 8),
    )
    e = kafka_log(h).erklaerung
    nennt(
        e,
        "Der poll von Prozess 3 (t=5–6) liefert für k1 nach Offset 0 gleich 2, obwohl Offset 1 existiert: Er überspringt Nachrichten.",
        "Der poll von Prozess 4 (t=5–6) fragte k1 ab Offset 1 an und beginnt bei 2, obwohl Offset 1 existiert",
        "Der poll von Prozess 3 (t=7–8) liefert für k1 Offset 1 nach Offset 3: In einem poll müssen die Offsets aufsteigen.",
        "Der poll von Prozess 4 (t=7–8) fragte k1 ab Offset 3 an, lieferte aber zuerst Offset 2.",
    )


def test_kafka_ein_offset_zwei_nachrichten() -> None:
    h = verlauf(
        send(1, "k1", "a", 0, 0, 1),
        send(2, "k1", "b", 0, 0, 2),
        poll(3, {"k1": 0}, {"k1": [[0, "x"]]}, 5, 6),
    )
    e = kafka_log(h).erklaerung
    nennt(
        e,
        "Offset 0 von k1 wurde 2-mal vergeben: an send 'a' an k1 (Prozess 1, t=0–1) und send 'b' an k1 (Prozess 2, t=0–2).",
        "Offset 0 von k1 trägt zwei Nachrichten: send 'a' an k1 (Prozess 1, t=0–1) bekam ihn, doch der poll von Prozess 3 (t=5–6) liefert dort 'x'.",
    )


def test_kafka_gespeicherte_position_geht_zurueck() -> None:
    h = verlauf(
        commit(3, {"k1": 1}, 9, 10),
        positionen(4, ["k1", "k2"], {"k1": 0}, 11, 12),
        positionen(3, ["k1"], {"k1": 3}, 13, 14),
        positionen(4, ["k1"], {"k1": 2}, 15, 16),
        positionen(5, ["k1"], {}, 15, 17),
        positionen(6, ["k1"], {"k1": 1}, 12, 13),  # concurrent with the list that said 0 and 3
    )
    u = kafka_log(h)
    assert not u.ok
    e = u.erklaerung
    nennt(
        e,
        "Die gespeicherte Position (Commit) von k1 ging zurück: commit_offsets k1=1 (Prozess 3) war bei t=10 bestätigt, doch list_committed_offsets von Prozess 4 (t=11–12) meldet 0.",
        "list_committed_offsets von Prozess 3 meldete bei t=14 3, doch list_committed_offsets von Prozess 4 (t=15–16) meldet 2.",
    )
    assert "list_committed_offsets von Prozess 5 (t=15–17) meldet keine." in e
    assert len(u.angaben["befunde"]) == 3


def test_kafka_falsche_formen() -> None:
    with pytest.raises(SimFehler, match="Ereignis 0: Ein send braucht key"):
        kafka_log(verlauf(send(1, None, "a", 0, 0, 1)))
    with pytest.raises(
        SimFehler,
        match=r"Ereignis 1: Der Offset \(value, oder \[nachricht, offset\]\) eines „ok“ für send ist eine ganze Zahl >= 0, nicht 'a'.",
    ):
        kafka_log(verlauf(send(1, "k", "a", "a", 0, 1)))
    with pytest.raises(
        SimFehler,
        match=r"Ereignis 1: Für k1 erwartet ein poll eine Liste von \[offset, nachricht\]",
    ):
        kafka_log(verlauf(poll(1, {"k1": 0}, {"k1": [0, "a"]}, 0, 1)))
    with pytest.raises(SimFehler, match=r"Ereignis 0: Ein poll trägt \{key: offset\} in value"):
        kafka_log(verlauf(poll(1, ["k1"], {}, 0, 1)))


# --- figures ---


def test_kennzahlen() -> None:
    h = verlauf(
        *(op(p, "read", None, 10 * p, 10 * p + p, key=None) for p in range(1, 11)),
        op(20, "write", 1, 0, 3, key=None, typ="fail"),
        op(21, "write", 1, 0, None, key=None),
    )
    k = kennzahlen(h, nachrichten=30)
    assert (k.operationen, k.ok, k.fehlgeschlagen, k.unbestimmt) == (12, 10, 1, 1)
    assert k.verfuegbarkeit == pytest.approx(10 / 12)
    assert (k.latenz_p50, k.latenz_p99, k.latenz_max) == (5, 10, 10)
    assert k.nachrichten_je_operation == 2.5
    assert str(k) == (
        "12 Operationen: 10 ok, 1 fehlgeschlagen, 1 unbestimmt (Verfügbarkeit 83%). "
        "Latenz in Ticks: p50 5, p99 10, max 10. 30 Nachrichten, 2,5 je Operation."
    )
    assert kennzahlen(h) == kennzahlen(list(h)) and kennzahlen(h).nachrichten_je_operation is None


def test_kennzahlen_leer() -> None:
    k = kennzahlen([])
    assert k.verfuegbarkeit is None and k.latenz_max is None
    assert str(k) == "0 Operationen: 0 ok, 0 fehlgeschlagen, 0 unbestimmt."
    with pytest.raises(SimFehler, match="nachrichten muss mindestens 0 sein"):
        kennzahlen([], nachrichten=-1)


def test_kafka_in_der_form_von_pysim_cluster() -> None:
    """Wie ``pysim.cluster`` schreibt: ``ok`` eines send mit ``[nachricht, offset]``, polls und
    Abfragen ohne Anfrage im ``invoke`` (``value`` None), Zusatzfelder wie ``index``."""
    h = verlauf(
        send(1, "k0", 7, [7, 0], 0, 1, client="c1"),
        send(2, "k0", 8, [8, 1], 0, 2, client="c2"),
        poll(3, None, {"k0": [[1, 8]]}, 5, 6, client="c3"),
        commit(3, None, 7, 8),
        positionen(4, None, {"k0": 1}, 9, 10),
        positionen(4, None, {"k0": 0}, 11, 12),
        poll(5, None, None, 13, 14),
    )
    for i, e in enumerate(h):
        e["index"] = i
    e = kafka_log(h).erklaerung
    # With a ``client`` the verdict names it as the picture does; without one, the process.
    assert "Verloren: send 7 an k0 (Client c1, t=0–1) bekam Offset 0" in e
    assert (
        "list_committed_offsets von Prozess 4 meldete bei t=10 1, doch list_committed_offsets von Prozess 4 (t=11–12) meldet 0."
        in e
    )


def test_zaehler_letztes_lesen_je_knoten() -> None:
    # Each node's last read counts, whichever process made it (pysim.cluster reads each node
    # once more with a new process at the end).
    basis = [add(1, 3, 0, 2, node="n1"), add(2, 5, 1, 3, node="n2")]
    lesen = [
        stand(1, 0, 4, 5, node="n1"),
        stand(7, 8, 20, 21, node="n1"),
        stand(8, 3, 20, 21, node="n2"),
    ]
    u = zaehler(verlauf(*basis, *lesen), geheilt=15)
    assert not u.ok
    assert "Das letzte Lesen bei n2 (Prozess 8, t=20–21) ergab 3." in u.erklaerung
    assert "bei n1" not in u.erklaerung
    assert u.angaben["letzte"] == {"n1": 8, "n2": 3}
