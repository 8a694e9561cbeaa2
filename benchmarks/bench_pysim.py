"""Durchsatz von pysim (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_pysim.py

Misst 10 000 und 100 000 Nachrichten durch send/receive/ack der Queue, ebenso viele Einträge
durch produce/consume des Logs und ebenso viele Anfragen durch die Lastsimulation. Das Verhältnis
100k/10k sollte nahe 10 liegen (linear).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pysim import Lastsim, Log, Queue, Wiederholung


def queue_lauf(n: int) -> None:
    """n senden, dann n-mal receive + ack (die Queue ist anfangs voll: receive darf nicht suchen)."""
    q = Queue(visibility_timeout=30)
    for i in range(n):
        q.send(i)
    for _ in range(n):
        m = q.receive(consumer="A")
        q.ack(m["id"])
    q.tick(31)
    assert q.offen() == 0


def queue_gemischt(n: int) -> None:
    """send/receive/ack im Wechsel, jede 10. Nachricht ohne Ack (läuft ab und kommt wieder)."""
    q = Queue(visibility_timeout=2)
    for i in range(n):
        q.send(i)
        m = q.receive()
        if m["id"] % 10:
            q.ack(m["id"])
        if i % 100 == 99:
            q.tick(1)
    q.tick(3)
    while (m := q.receive()) is not None:
        q.ack(m["id"])
    assert q.offen() == 0


def log_lauf(n: int) -> None:
    """n Einträge (mit und ohne Schlüssel) in 3 Partitionen, dann als Gruppe in Paketen zu 500."""
    log = Log()
    log.create_topic("orders", partitions=3)
    for i in range(n):
        log.produce(
            "orders", {"order": i, "total": 12.40}, key=f"customer-{i % 50}" if i % 2 else None
        )
    gelesen = 0
    while batch := log.consume("orders", "billing", max=500, from_beginning=True):
        gelesen += len(batch)
    assert gelesen == n


def last_lauf(n: int) -> None:
    """n Anfragen bei 60 % Auslastung, mit Timeout und Retries mit Jitter (wie in Lektion 5).

    Bei 80 % und mehr kippt ein langer Lauf irgendwann in einen Retry-Sturm (Lektion 5,
    Schritt 4); dann misst der Lauf den Sturm, nicht die Simulation.
    """
    pro_sekunde = 60
    sim = Lastsim(
        pro_sekunde=pro_sekunde,
        worker=4,
        bedienzeit=40,
        timeout=250,
        wiederholung=Wiederholung("jitter", versuche=3),
        seed=1,
    )
    e = sim.lauf(dauer=n * 1000 // pro_sekunde)
    assert abs(e.anfragen - n) < n // 20 + 50
    assert e.versuche < 1.1 * e.anfragen, "the run fell into a retry storm"


def messen(lauf: Callable[[int], None], n: int, wiederholungen: int = 3) -> float:
    besten = float("inf")
    for _ in range(wiederholungen):
        gc.collect()
        start = time.perf_counter()
        lauf(n)
        besten = min(besten, time.perf_counter() - start)
    return besten


def main() -> None:
    print(f"Python {sys.version.split()[0]} ({sys.implementation.name}), bester von 3 Läufen")
    print(f"{'Lauf':<36} {'n':>8} {'Sekunden':>9} {'µs/Stück':>9} {'100k/10k':>9}")
    for name, lauf in (
        ("Queue send → receive → ack", queue_lauf),
        ("Queue gemischt (10 % Timeout)", queue_gemischt),
        ("Log produce → consume (max 500)", log_lauf),
        ("Lastsim: Anfragen (60 %, Retries)", last_lauf),
    ):
        zeiten = {}
        for n in (10_000, 100_000):
            zeiten[n] = messen(lauf, n)
            verhaeltnis = f"{zeiten[n] / zeiten[10_000]:.1f}" if n == 100_000 else ""
            print(
                f"{name:<36} {n:>8} {zeiten[n]:>9.3f} {zeiten[n] / n * 1e6:>9.2f} {verhaeltnis:>9}"
            )


if __name__ == "__main__":
    main()
