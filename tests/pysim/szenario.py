"""Ein festes Drehbuch durch alle Modelle von pysim, mit Mitschrift auf stdout.

Eigenständig (nur pysim und die Standardbibliothek), damit es unverändert in CPython und in Pyodide
läuft. Die Ausgabe muss in beiden Byte für Byte gleich sein: keine Objekt-IDs, keine Zeiten, keine
Mengen in ungeordneter Reihenfolge.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from pathlib import Path

# Aus dem Repository gestartet: das pysim des Arbeitsbaums nehmen.
_datei = globals().get("__file__")
if _datei:
    _eltern = Path(_datei).resolve().parents
    if len(_eltern) > 2 and (_eltern[2] / "pysim" / "__init__.py").exists():
        sys.path.insert(0, str(_eltern[2]))

from pysim import (  # noqa: E402
    EventStore,
    FakeNetz,
    Log,
    Projektor,
    Queue,
    SimFehler,
    bestand,
    kontostand,
)
from pysim.stoerung import absturz_bei_aufruf, absturz_nach  # noqa: E402


def zeige(titel: str) -> None:
    print(f"\n== {titel} ==")


def fehler(aufruf) -> None:
    try:
        aufruf()
    except SimFehler as e:
        print(f"{type(e).__name__}: {e}")
    else:
        print("kein Fehler")


def bild(name: str, svg: str) -> None:
    digest = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    print(f"SVG {name}: {len(svg)} Zeichen, sha256 {digest}")


def szenario(variante: str) -> tuple[int, int]:
    """Queue, Übung 2: Ein erster Consumer stürzt ab, ein zweiter, korrekter arbeitet danach."""
    q = Queue(visibility_timeout=3)
    q.send("mail an kunde-7")
    wirkungen = 0
    m = q.receive(consumer="K1")
    assert m is not None
    if variante == "ack_zuerst":
        q.ack(m["id"])  # … und stirbt vor der Arbeit
    elif variante == "wirkung_dann_tod":
        wirkungen += 1  # Arbeit erledigt, stirbt vor dem Ack
    elif variante != "sofort_tod":
        raise ValueError(variante)
    q.tick(3)
    m2 = q.receive(consumer="K2")
    if m2 is not None:
        wirkungen += 1
        q.ack(m2["id"])
    return (wirkungen, q.offen())


def verarbeite(con, msg):
    """Der idempotente Consumer aus Lektion 1: Eintrag und Wirkung in einer Transaktion."""
    with con:
        try:
            con.execute("INSERT INTO gesehen (msg_id) VALUES (?)", (msg["id"],))
        except sqlite3.IntegrityError:
            return False
        con.execute(
            "UPDATE punkte SET stand = stand + ? WHERE kunde = ?",
            (msg["body"]["punkte"], msg["body"]["kunde"]),
        )
        return True


def netz() -> None:
    zeige("FakeNetz")
    n = FakeNetz(seed=300)
    for i in range(1, 6):
        n.send(f"bestellung-{i}")
    print(n.empfangen())
    print(n)
    for a in n.ankuenfte:
        print(a)
    for s in n.sendungen:
        print(s)
    for seed in (1, 7, 42):
        m = FakeNetz(seed=seed, verlust=0.3, duplikat=0.3, verzoegerung=(0, 9), sendeabstand=0)
        for i in range(8):
            m.send(i)
        print(seed, m.empfangen())
    fehler(lambda: FakeNetz(verlust=2))


def queue() -> None:
    zeige("Queue: Übung 1")
    q = Queue(visibility_timeout=3)
    q.send("zahlung-1")
    q.send("zahlung-2")
    verarbeitet = []
    a = q.receive(consumer="A")
    q.tick(2)
    b = q.receive(consumer="B")
    verarbeitet.append(b["body"])
    q.ack(b["id"])
    q.tick(2)
    c = q.receive(consumer="C")
    verarbeitet.append(c["body"])
    q.ack(c["id"])
    verarbeitet.append(a["body"])
    print("ack von A:", q.ack(a["id"]))
    print((verarbeitet.count("zahlung-1"), c["versuche"], q.offen()))
    print(q)
    for e in q.verlauf():
        print(e)
    bild("queue-uebung-1", q._repr_svg_())

    zeige("Queue: Übung 2")

    print(tuple(szenario(v) for v in ("ack_zuerst", "wirkung_dann_tod", "sofort_tod")))

    zeige("Queue: DLQ")
    q = Queue(visibility_timeout=2, max_versuche=2)
    q.send({"bestellung": 61})
    q.send("gift")
    q.send("gut")
    m = q.receive(consumer="A")
    q.ack(m["id"])
    for runde in range(3):
        m = q.receive(consumer=f"K{runde}")
        print(runde, m)
        print(q.sichtbar(), q.unterwegs())
        q.tick(2)
    print(q)
    print(q.dlq)
    bild("queue-dlq", q._repr_svg_())
    fehler(lambda: q.ack(99))
    fehler(lambda: q.tick(-1))


def log() -> None:
    zeige("Log")
    log = Log()
    print(log.create_topic("orders", partitions=3))
    print(log.produce("orders", {"order": 61, "total": 12.40}, key="customer-7"))
    for event in ("placed", "paid", "shipped"):
        print(log.produce("orders", {"order": 61, "event": event}, key="order-61"))
    for order in (62, 63, 64):
        print(log.produce("orders", {"order": order}))
    print(log.read("orders"))
    print(log.read("orders", partition=1, start=2))
    print(log.consume("orders", "billing", from_beginning=True))
    print(log.consume("orders", "email", from_beginning=True, max=2))
    print(log.consume("orders", "analytics"))
    print(log.produce("orders", {"order": 65}, key="customer-8"))
    print(log.consume("orders", "billing", member="billing-2"))
    print(log.consume("orders", "email", commit=False))
    print(log.describe("billing"))
    print(log.offsets("orders"))
    print(log.reset("analytics", to=0))
    print(log.reset("email", to=99))
    print(log.group("billing"))
    print(log.topic("orders"))
    print(log.topics(), log.groups(), log.members("billing"))
    print(log)
    bild("topic-orders", log.topic("orders")._repr_svg_())
    bild("orders-mit-gruppen", log.bild("orders").svg)
    bild("gruppe-billing", log.group("billing")._repr_svg_())
    fehler(lambda: log.update("orders", 0, 0, {}))
    fehler(lambda: log.delete("orders", 0, 0))
    fehler(lambda: log.create_topic("orders", partitions=3))
    fehler(lambda: log.read("ordres"))
    fehler(lambda: log.describe("billin"))
    fehler(lambda: log.reset("billing", to="anfang"))
    fehler(lambda: log.consume("orders", "billing", max=0))
    fehler(lambda: setattr(log.read("orders")[0], "offset", 3))

    zeige("Log: stock")
    log.create_topic("stock", partitions=3)
    for change, why in ((24, "delivery"), (-4, "sale"), (-3, "sale")):
        log.produce("stock", {"product": 7, "change": change, "why": why}, key="product-7")
    print(log.produce("stock", {"product": 7, "change": 1, "why": "returned"}, key="product-7"))


def eventstore() -> None:
    zeige("EventStore")
    s = EventStore()
    p = Projektor(s, kontostand, praefix="konto-")
    v = Projektor(s, bestand, verzoegerung=2, praefix="produkt-")
    print(s.append("konto-1", [{"typ": "einzahlung", "betrag": 100}], expected_version=0))
    print("Abfrage vor dem Projektor:", p.abfrage("konto-1"), p)
    p.run()
    print("Abfrage danach:", p.abfrage("konto-1"), p)
    s.tick(1)
    print(s.append("konto-1", [{"typ": "auszahlung", "betrag": 30}], expected_version=1))
    fehler(lambda: s.append("konto-1", [{"typ": "auszahlung", "betrag": 80}], expected_version=1))
    print(s.read("konto-1"))
    print(s.verlauf("konto-1", kontostand))
    print(s.zustand("konto-1", kontostand, zeit=0))
    for change in (24, -4, -3, 1):
        s.append("produkt-7", [{"product": 7, "change": change}])
        s.tick(1)
        print("Lesemodell Bestand:", v.abfrage("produkt-7"), v)
    s.tick(1)
    print("Lesemodell Bestand:", v.abfrage("produkt-7"), v)
    print(s.snapshot("produkt-7", bestand))
    print(s.rekonstruiere("produkt-7", bestand))
    print(s)
    fehler(lambda: s.read("produkt-8"))
    fehler(lambda: s.read("konto-1")[0].daten.update({"betrag": 1}))


def stoerung() -> None:
    zeige("Störung")

    for n in (1, 2):
        con = sqlite3.connect(":memory:")
        con.execute("CREATE TABLE punkte (kunde TEXT PRIMARY KEY, stand INTEGER)")
        con.execute("CREATE TABLE gesehen (msg_id INTEGER PRIMARY KEY)")
        con.execute("INSERT INTO punkte VALUES ('anna', 0)")
        con.commit()
        msg = {"id": 7, "body": {"kunde": "anna", "punkte": 50}}
        fehler(lambda con=con, n=n, msg=msg: verarbeite(absturz_nach(con, n), msg))
        print(
            con.execute("SELECT stand FROM punkte").fetchall(),
            con.execute("SELECT * FROM gesehen").fetchall(),
        )
        print(
            verarbeite(con, msg),
            verarbeite(con, msg),
            con.execute("SELECT stand FROM punkte").fetchall(),
        )
    gesendet: list[str] = []
    senden = absturz_bei_aufruf(gesendet.append, 2)
    senden("a")
    fehler(lambda: senden("b"))
    print(gesendet, senden)


if __name__ == "__main__":
    netz()
    queue()
    log()
    eventstore()
    stoerung()
