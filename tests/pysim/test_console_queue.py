"""Die Queue-Konsole von Lektion 1: Befehle, Fehler, Zeitleiste, Vervollständigung."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pysim import Queue
from pysim.console import ConsoleResult, QueueKonsole
from tests.pysim.konsolen import UEBUNG_1, ausfuehren, vorbereitet

NS = "{http://www.w3.org/2000/svg}"


def uebung_1() -> QueueKonsole:
    """Die Konsole nach Übung 1 (Visibility Timeout 3)."""
    return vorbereitet(QueueKonsole(visibility_timeout=3), UEBUNG_1)


def test_uebung_1_der_lektion() -> None:
    q = uebung_1()
    assert q.queue.verlauf(1)[-1].consumer == "C"
    assert q.queue.verlauf(1)[-1].versuch == 2
    r = ausfuehren(q, "ack 1")  # C
    assert r.text == "Nachricht 1 bestätigt und gelöscht."
    r = ausfuehren(q, "ack 1")  # A, zu spät
    assert r.ok
    assert r.text.splitlines() == [
        "Nachricht 1 ist schon bestätigt und gelöscht.",
        "Dieses ack ändert nichts.",
    ]
    assert q.queue.offen() == 0


def test_send_receive_tick_texte() -> None:
    q = QueueKonsole()
    assert (
        ausfuehren(q, "send zahlung-1").text == "Nachricht 1 „zahlung-1“ gesendet, jetzt sichtbar."
    )
    assert ausfuehren(q, "send mail an kunde-7").text.startswith("Nachricht 2 „mail an kunde-7“")
    r = ausfuehren(q, "receive as A")
    assert r.text.splitlines() == [
        "A bekommt Nachricht 1 „zahlung-1“ (Versuch 1).",
        "Unsichtbar bis t=3. Ohne ack bis dahin wird sie wieder sichtbar.",
    ]
    r = ausfuehren(q, "tick 3")
    assert r.text.splitlines() == [
        "Zeit: t=3 (+3).",
        "t=3: Nachricht 1 wieder sichtbar (kein ack).",
    ]
    r = ausfuehren(q, "receive")
    assert r.text.startswith("Der Consumer bekommt Nachricht 1 „zahlung-1“ (Versuch 2).")
    assert "schon einmal ausgeliefert" in r.text
    assert ausfuehren(q, "tick").text.startswith("Zeit: t=4 (+1).")
    assert ausfuehren(q, "tick 0").text.startswith("Zeit: t=4 (+0).")


def test_receive_ohne_sichtbare_nachricht() -> None:
    q = QueueKonsole()
    assert ausfuehren(q, "receive").text == "Keine Nachricht sichtbar: receive liefert nichts."
    q.run("send a")
    q.run("receive as A")
    r = ausfuehren(q, "receive as B")
    assert "Unterwegs (unsichtbar): 1 bis t=3" in r.text


def test_ack_einer_wieder_sichtbaren_nachricht() -> None:
    q = QueueKonsole()
    q.run("send a")
    q.run("receive")
    q.run("tick 5")
    r = ausfuehren(q, "ack 1")
    assert "sie war wieder sichtbar" in r.text


def test_status_und_dlq() -> None:
    q = QueueKonsole(max_versuche=2)
    for zeile in [
        "send zahlung-1",
        "send gift",
        "receive as A",
        "receive as B",
        "ack 1",
        "tick 3",
        "receive as C",
    ]:
        q.run(zeile)
    r = ausfuehren(q, "status")
    zeilen = r.text.splitlines()
    assert zeilen[0] == "t=3, Visibility Timeout 3, höchstens 2 Versuche"
    assert zeilen[1].split() == ["ID", "NACHRICHT", "ZUSTAND", "VERSUCHE"]
    assert zeilen[2].split() == ["1", "zahlung-1", "bestätigt", "1"]
    assert zeilen[3] == "2   gift       unterwegs bei C bis t=6  2"
    assert zeilen[1].index("VERSUCHE") == zeilen[3].rindex("2")
    assert zeilen[4:] == ["Offen: 1, bestätigt: 1.", "Dead Letter Queue: leer."]
    r = ausfuehren(q, "tick 3")
    assert "t=6: Nachricht 2 → Dead Letter Queue (2 Versuche ohne ack)." in r.text
    r = ausfuehren(q, "status")
    assert "Dead Letter Queue: 1 („gift“)" in r.text
    assert "in der DLQ" in r.text
    r = ausfuehren(q, "ack 2")
    assert r.ok and "Dead Letter Queue" in r.text and "ändert nichts" in r.text


def test_status_leer() -> None:
    r = QueueKonsole().run("status")
    assert r.text.splitlines() == [
        "t=0, Visibility Timeout 3",
        "Noch keine Nachricht. Sende eine: send zahlung-1",
    ]


def test_vorhandene_queue() -> None:
    modell = Queue(visibility_timeout=5)
    modell.send("x")
    q = QueueKonsole(modell)
    assert q.queue is modell
    assert "bis t=5" in q.run("receive").text


def test_hilfe_und_clear() -> None:
    q = QueueKonsole()
    r = ausfuehren(q, "hilfe")
    for name in ("send", "receive", "ack", "tick", "status", "clear"):
        assert f"  {name} " in r.text
    assert r.svg is None
    assert ausfuehren(q, "hilfe tick").text.startswith("tick [<n>]")
    assert ausfuehren(q, "clear") == ConsoleResult(True, "", None, True, "clear")


def test_zeitleiste() -> None:
    q = uebung_1()
    r = q.run("status")
    root = ET.fromstring(r.svg)
    assert root.find(NS + "title").text == "Zeitleiste der Queue „queue“ bei t=4"
    assert root.get("width") == "100%" and root.get("viewBox", "").startswith("0 0 ")
    texte = [t.text for t in root.iter(NS + "text")]
    assert "1 zahlung-1" in texte and "2 zahlung-2" in texte
    assert "A" in texte  # der erste Versuch, bei A, bis t=3
    assert "C bis t=7" in texte  # gerade unterwegs: bei wem und bis wann
    assert "2× ausgeliefert" in texte and "1× ausgeliefert" in texte
    assert len([t for t in root.iter(NS + "text") if t.get("class") == "ack"]) == 1
    frist = [x for x in root.iter(NS + "rect") if x.get("class") == "frist"]
    assert len(frist) == 1 and "stroke-dasharray" in frist[0].get("style")
    # die Achse reicht bis zum Ende der Frist
    assert "7" in texte
    q.run("ack 1")
    root = ET.fromstring(q.run("status").svg)
    assert not [x for x in root.iter(NS + "rect") if x.get("class") == "frist"]


@pytest.mark.parametrize(
    ("zeile", "erwartet"),
    [
        ("", ["ack", "clear", "hilfe", "receive", "send", "status", "tick"]),
        ("re", ["receive"]),
        ("receive ", ["as"]),
        ("receive as ", ["A", "B", "C"]),
        ("receive as a", ["A"]),
        ("ack ", ["1"]),
        ("tick ", []),
        ("send ", []),
        ("hilfe t", ["tick"]),
    ],
)
def test_complete(zeile: str, erwartet: list[str]) -> None:
    assert uebung_1().complete(zeile) == erwartet


def test_state_dump() -> None:
    q = uebung_1()
    dump = q.state_dump().splitlines()
    assert dump[0] == "queue queue t=4 visibility_timeout=3 max_receive_count=None offen=1"
    assert dump[1] == "  1 'zahlung-1' unterwegs consumer='C' sichtbar_ab=7"
    assert "  t=3: Nachricht 1 wieder sichtbar" in dump
    assert uebung_1().state_dump() == q.state_dump()


def test_ack_as_consumer_wie_receipt_handle() -> None:
    q = QueueKonsole(visibility_timeout=3)
    for zeile in ["send zahlung-1", "send zahlung-2", "receive as A", "tick 2"]:
        assert q.run(zeile).ok
    for zeile in ["receive as B", "ack 2", "tick 1", "receive as C"]:
        assert q.run(zeile).ok
    r = ausfuehren(q, "ack 1 as A")  # late, C holds attempt 2
    assert r.ok
    assert r.text.splitlines() == [
        "A bestätigt Versuch 1, aber Nachricht 1 ist inzwischen Versuch 2 bei C. "
        "Das ack ist veraltet und ändert nichts.",
    ]
    assert q.queue.zustand(1) == "unterwegs"
    r = ausfuehren(q, "ack 1 as B")  # B never had message 1
    assert not r.ok
    assert r.text.startswith("B hat Nachricht 1 nie bekommen:")
    r = ausfuehren(q, "ack 1 as C")
    assert r.text == "Nachricht 1 bestätigt und gelöscht."
    r = ausfuehren(q, "ack 1 as A")
    assert r.text.splitlines()[0] == "Nachricht 1 ist schon bestätigt und gelöscht."
    assert q.queue.offen() == 0
