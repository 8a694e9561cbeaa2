"""Queue: Ack, Visibility Timeout, DLQ, Einblick, Verlauf (Lektion 1)."""

from __future__ import annotations

from typing import Any

import pytest

from pysim import Queue, SimFehler, UnbekannteNachricht, UngueltigeEingabe
from pysim.queue.regeln import BESTAETIGT, IN_DLQ, SICHTBAR, UEBERGAENGE, UNTERWEGS, uebergang
from tests.pysim.szenario import szenario


def test_uebung_1_genau_wie_im_entwurf() -> None:
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    q.send("zahlung-2")
    verarbeitet = []

    a = q.receive()
    q.tick(2)
    b = q.receive()
    verarbeitet.append(b["body"])
    q.ack(b["id"])
    q.tick(2)
    c = q.receive()
    verarbeitet.append(c["body"])
    q.ack(c["id"])
    verarbeitet.append(a["body"])
    q.ack(a["id"])

    antwort = (verarbeitet.count("zahlung-1"), c["versuche"], q.offen())
    assert antwort == (2, 2, 0)
    assert b["body"] == "zahlung-2"
    assert c["body"] == "zahlung-1"


def test_uebung_1_zeitachse() -> None:
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    q.receive()
    q.tick(2)
    assert [m["body"] for m in q.sichtbar()] == []
    q.tick(1)  # t=3: wieder sichtbar
    assert [m["body"] for m in q.sichtbar()] == ["zahlung-1"]


def test_uebung_2_drei_abstuerze() -> None:
    antwort = tuple(szenario(v) for v in ("ack_zuerst", "wirkung_dann_tod", "sofort_tod"))
    assert antwort == ((0, 0), (2, 0), (1, 0))


def test_schritt_3_absturz_vor_dem_ack() -> None:
    q = Queue(visibility_timeout=3)
    q.send("mail an kunde-7")
    mails = []
    m = q.receive()
    mails.append(m["body"])  # Mail verschickt, dann Absturz
    assert q.receive() is None
    q.tick(3)
    m = q.receive()
    mails.append(m["body"])
    q.ack(m["id"])
    assert mails == ["mail an kunde-7", "mail an kunde-7"]
    assert m["versuche"] == 2
    assert q.offen() == 0


def test_send_gibt_fortlaufende_ids() -> None:
    q = Queue()
    assert [q.send(x) for x in "abc"] == [1, 2, 3]


def test_receive_liefert_dict_mit_drei_feldern() -> None:
    q = Queue()
    q.send({"betrag": 30})
    assert q.receive() == {"id": 1, "body": {"betrag": 30}, "versuche": 1}


def test_receive_leer_gibt_none() -> None:
    assert Queue().receive() is None


def test_receive_liefert_die_erste_sichtbare() -> None:
    q = Queue(visibility_timeout=2)
    for body in ("a", "b", "c"):
        q.send(body)
    assert q.receive()["body"] == "a"
    assert q.receive()["body"] == "b"
    q.tick(2)  # a und b wieder sichtbar; a ist die älteste
    assert q.receive()["body"] == "a"
    assert q.receive()["body"] == "b"
    assert q.receive()["body"] == "c"
    assert q.receive() is None


def test_ack_gibt_true_dann_false_ohne_fehler() -> None:
    q = Queue()
    i = q.send("x")
    q.receive()
    assert q.ack(i) is True
    assert q.ack(i) is False
    assert q.offen() == 0


def test_bestaetigte_nachricht_kommt_nie_wieder() -> None:
    q = Queue(visibility_timeout=1)
    i = q.send("x")
    q.receive()
    q.ack(i)
    q.tick(10)
    assert q.receive() is None


def test_ack_einer_sichtbaren_nachricht_loescht_sie() -> None:
    q = Queue(visibility_timeout=1)
    i = q.send("x")
    q.receive()
    q.tick(1)
    assert q.zustand(i) == SICHTBAR
    assert q.ack(i) is True
    assert q.receive() is None


def test_ack_unbekannte_id_ist_fehler_und_aendert_nichts() -> None:
    q = Queue()
    q.send("x")
    vorher = repr(q)
    with pytest.raises(UnbekannteNachricht, match="nie eine Nachricht mit der ID 7"):
        q.ack(7)
    with pytest.raises(UngueltigeEingabe, match="ganze Zahl"):
        q.ack("1")  # type: ignore[arg-type]
    assert repr(q) == vorher


def test_langsame_arbeit_wie_absturz() -> None:
    q = Queue(visibility_timeout=3)
    q.send("x")
    q.receive(consumer="A")
    q.tick(3)
    assert q.receive(consumer="B")["versuche"] == 2


def test_tick_fehler_aendert_nichts() -> None:
    q = Queue()
    with pytest.raises(UngueltigeEingabe):
        q.tick(-1)
    with pytest.raises(UngueltigeEingabe):
        q.tick(1.5)  # type: ignore[arg-type]
    assert q.now == 0


def test_konstruktor_prueft() -> None:
    with pytest.raises(UngueltigeEingabe, match="visibility_timeout"):
        Queue(visibility_timeout=0)
    with pytest.raises(UngueltigeEingabe, match="max_versuche"):
        Queue(max_versuche=0)


def test_receive_mit_ungueltigem_consumer_aendert_nichts() -> None:
    q = Queue()
    q.send("x")
    with pytest.raises(UngueltigeEingabe):
        q.receive(consumer="")
    assert q.receive()["versuche"] == 1


def test_einblick_sichtbar_und_unterwegs() -> None:
    q = Queue(visibility_timeout=3)
    q.send("a")
    q.send("b")
    q.tick(1)
    q.receive(consumer="A")
    assert q.sichtbar() == [{"id": 2, "body": "b", "versuche": 0}]
    assert q.unterwegs() == [
        {"id": 1, "body": "a", "versuche": 1, "consumer": "A", "sichtbar_ab": 4}
    ]
    assert q.zustand(1) == UNTERWEGS
    assert q.offen() == 2


def test_dlq_nach_max_versuchen() -> None:
    q = Queue(visibility_timeout=3, max_versuche=3)
    i = q.send("gift")
    for versuch in (1, 2, 3):
        m = q.receive(consumer=f"K{versuch}")
        assert m["versuche"] == versuch
        q.tick(3)
    assert q.zustand(i) == IN_DLQ
    assert q.receive() is None
    assert q.offen() == 0
    assert q.dlq is not None
    assert q.dlq.offen() == 1
    assert q.dlq.receive() == {"id": i, "body": "gift", "versuche": 1}
    assert q.ack(i) is False  # in der Haupt-Queue ist sie weg
    assert [e.art for e in q.verlauf(i)][-1] == IN_DLQ


def test_dlq_nicht_bei_ack_im_letzten_versuch() -> None:
    q = Queue(visibility_timeout=2, max_versuche=2)
    i = q.send("x")
    q.receive()
    q.tick(2)
    q.receive()
    q.ack(i)
    q.tick(5)
    assert q.zustand(i) == BESTAETIGT
    assert q.dlq.offen() == 0


def test_ohne_max_keine_dlq() -> None:
    assert Queue().dlq is None


def test_dlq_teilt_die_uhr() -> None:
    q = Queue(visibility_timeout=1, max_versuche=1)
    q.send("x")
    q.receive()
    q.tick(1)
    assert q.dlq.now == q.now == 1


def test_verlauf_als_daten() -> None:
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    q.receive(consumer="A")
    q.tick(4)
    q.receive(consumer="C")
    q.ack(1)
    arten = [(e.zeit, e.art, e.consumer, e.bis) for e in q.verlauf(1)]
    assert arten == [
        (0, "gesendet", None, None),
        (0, "ausgeliefert", "A", 3),
        (3, "wieder_sichtbar", None, None),
        (4, "ausgeliefert", "C", 7),
        (4, BESTAETIGT, "C", None),
    ]
    assert str(q.verlauf(1)[1]) == (
        "t=0: Nachricht 1 ausgeliefert an A (Versuch 1, unsichtbar bis t=3)"
    )


def test_verlauf_aller_nachrichten_in_echter_reihenfolge() -> None:
    q = Queue(visibility_timeout=3)
    q.send("a")
    q.send("b")
    q.receive()
    q.ack(1)
    assert [(e.id, e.art) for e in q.verlauf()] == [
        (1, "gesendet"),
        (2, "gesendet"),
        (1, "ausgeliefert"),
        (1, BESTAETIGT),
    ]


def test_repr_deutsch() -> None:
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    q.send("zahlung-2")
    q.receive(consumer="A")
    assert repr(q) == (
        "Queue „queue“ t=0, visibility_timeout=3: 2 offen\n"
        "  sichtbar:  2 'zahlung-2' (Versuche: 0)\n"
        "  unterwegs: 1 'zahlung-1' bei A bis t=3 (Versuche: 1)"
    )


def test_uebergangstabelle_vollstaendig() -> None:
    assert uebergang(SICHTBAR, "ausliefern") == UNTERWEGS
    assert uebergang(BESTAETIGT, "ack") is None
    with pytest.raises(AssertionError):
        uebergang(BESTAETIGT, "ausliefern")
    assert {z for z, _ in UEBERGAENGE} == {SICHTBAR, UNTERWEGS, BESTAETIGT, IN_DLQ}


def test_fehler_sind_simfehler() -> None:
    with pytest.raises(SimFehler):
        Queue().ack(1)


def test_gemeinsame_uhr_timeouts_laufen_auch_ohne_queue_tick() -> None:
    from pysim import FakeNetz

    netz = FakeNetz(seed=300)
    q = Queue(visibility_timeout=2, max_versuche=1, zeit=netz.zeit)
    i = q.send("x")
    q.receive(consumer="A")
    netz.tick(2)  # die Uhr läuft über das Netz weiter
    assert q.dlq.offen() == 1  # die DLQ sieht den Ablauf, ohne dass die Queue berührt wurde
    assert q.zustand(i) == IN_DLQ
    assert [(e.zeit, e.art) for e in q.verlauf(i)] == [
        (0, "gesendet"),
        (0, "ausgeliefert"),
        (2, IN_DLQ),
    ]
    assert [(e.zeit, e.art) for e in q.dlq.verlauf(i)] == [(2, "gesendet")]


def test_verlauf_mit_verspaetet_verarbeitetem_timeout_bleibt_zeitlich_geordnet() -> None:
    q = Queue(visibility_timeout=1)
    q.send("a")
    q.receive(consumer="A")
    q.tick(5)  # Ablauf bei t=1 wird erst jetzt eingetragen
    q.send("b")
    assert [(e.zeit, e.id, e.art) for e in q.verlauf()] == [
        (0, 1, "gesendet"),
        (0, 1, "ausgeliefert"),
        (1, 1, "wieder_sichtbar"),
        (5, 2, "gesendet"),
    ]


def a_zu_langsam() -> tuple[Queue, dict[str, Any], dict[str, Any]]:
    """A is slow, the timeout runs out, C receives the message anew: the queue, A's and C's
    delivery."""
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    a = q.receive("A")
    q.tick(3)
    c = q.receive("C")
    assert a is not None and c is not None
    return q, a, c


def test_ack_mit_versuch_wie_receipt_handle() -> None:
    q, a, c = a_zu_langsam()
    assert (a["versuche"], c["versuche"]) == (1, 2)
    # A's late ack belongs to an earlier delivery: it changes nothing.
    assert q.ack(a["id"], versuch=a["versuche"]) is False
    assert q.zustand(1) == UNTERWEGS and q.offen() == 1
    assert [e.art for e in q.verlauf(1)][-1] == "ausgeliefert"
    # C's ack belongs to the latest delivery and deletes the message.
    assert q.ack(c["id"], versuch=c["versuche"]) is True
    assert q.offen() == 0
    # Afterwards both handles are without effect.
    assert q.ack(1, versuch=1) is False
    assert q.ack(1, versuch=2) is False


def test_ack_mit_versuch_nach_timeout_ohne_neue_auslieferung() -> None:
    # Visible again but not received anew: the last delivery is still A's.
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    a = q.receive("A")
    q.tick(5)
    assert q.zustand(1) == SICHTBAR
    assert q.ack(a["id"], versuch=a["versuche"]) is True
    assert q.offen() == 0


def test_ack_ohne_versuch_bleibt_wie_bisher() -> None:
    q, _, _ = a_zu_langsam()
    assert q.ack(1) is True  # by ID: deletes, whoever holds it
    assert q.offen() == 0


def test_ack_mit_ungueltigem_versuch_ist_fehler_und_aendert_nichts() -> None:
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    q.receive("A")
    with pytest.raises(UngueltigeEingabe, match="einen Versuch 2 gibt es noch nicht"):
        q.ack(1, versuch=2)
    with pytest.raises(UngueltigeEingabe, match="versuch muss mindestens 1 sein"):
        q.ack(1, versuch=0)
    with pytest.raises(UngueltigeEingabe):
        q.ack(1, versuch="1")  # type: ignore[arg-type]
    assert q.zustand(1) == UNTERWEGS and q.offen() == 1


def test_auslieferung_je_consumer() -> None:
    q, _, _ = a_zu_langsam()
    assert q.auslieferung(1, "A") == 1
    assert q.auslieferung(1, "C") == 2
    assert q.auslieferung(1, "B") is None
    assert uebergang(UNTERWEGS, "ack_veraltet") is None
