"""Zeiten der CRDT- und der Replikationslektion (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_crdt_replik.py [wiederholungen]

Misst die beiden Zellen der Lektion „CRDTs und Local-First“, die ``CrdtSim`` rechnen (der
PN-Counter mit Duplikaten, das OR-Set mit einer Netzpartition, je mit Bild), einen langen Lauf
(5 Replikate eines G-Counters, 300 Runden aus Erhöhen, ``sync`` und Ticks, mit Verlust,
Duplikaten und Partitionen) und einen Lauf von ``ReplikSpeicher`` (Leader mit Lag, Failover,
Quorum). Jede Zeile: das Beste aus den Wiederholungen, in Millisekunden Rechenzeit dieses
Prozesses (``time.process_time``).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pysim.crdt import CrdtSim
from pysim.replikation import ReplikSpeicher

LEKTION = Path(__file__).resolve().parents[1] / "docs" / "lektionen" / "crdts.md"


def zellen() -> list[str]:
    """The lesson's cells that run a ``CrdtSim`` (their source, as published)."""
    teile = re.findall(r"```pycell session=\"\w+\"\n(.*?)```", LEKTION.read_text(), re.S)
    return [t for t in teile if "CrdtSim(" in t]


def zelle(quelle: str) -> Callable[[], None]:
    def lauf() -> None:
        namensraum: dict[str, object] = {}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(quelle, namensraum)  # its last line draws the picture (``sim.bild()``)

    return lauf


def langer_crdt_lauf() -> None:
    namen = ["A", "B", "C", "D", "E"]
    sim = CrdtSim("GCounter", knoten=namen, seed=9, verlust=0.2, duplikat=0.2)
    for runde in range(300):
        sim[namen[runde % 5]].erhoehe()
        if runde % 50 == 10:
            sim.trenne(["A", "B"], ["C", "D", "E"])
        if runde % 50 == 30:
            sim.heile()
        sim.sync(namen[(runde * 3) % 5])
        sim.tick(2)
    sim.heile()
    sim.sync()
    sim.warte()


def replikation_lauf() -> None:
    s = ReplikSpeicher(repliken=5, verzoegerung=2, sync=1)
    s.setze_lag("n3", 6)
    for i in range(60):
        s.write("x", i, prozess=f"c{i % 3}")
        s.read("x", von=f"n{1 + i % 5}", prozess="leser")
        if i == 30:
            s.trenne("n1")
            s.failover("n2")
            s.heile("n1")
    s.tick(20)
    s.urteil()
    q = ReplikSpeicher(repliken=5, verzoegerung=2)
    q.quorum(5, 3, 3)
    for i in range(60):
        q.write("y", i, prozess=f"q{i % 3}")
        q.read("y", prozess="qleser")
    q.urteil()


ZAEHLER, MENGE = zellen()
FAELLE: list[tuple[str, Callable[[], None]]] = [
    ("CrdtSim: Zelle PN-Counter (duplikat=0.5) mit Bild", zelle(ZAEHLER)),
    ("CrdtSim: Zelle OR-Set mit Netzpartition, mit Bild", zelle(MENGE)),
    ("CrdtSim: 5 G-Counter, 300 Runden, Verlust, Duplikate, Partitionen", langer_crdt_lauf),
    ("ReplikSpeicher: 5 Replikate, Lag, Failover, Quorum, Urteil", replikation_lauf),
]


def main() -> None:
    wiederholungen = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for name, fall in FAELLE:
        beste = float("inf")
        for _ in range(wiederholungen):
            start = time.process_time()
            fall()
            beste = min(beste, time.process_time() - start)
        print(f"{beste * 1000:8.1f} ms  {name}")


if __name__ == "__main__":
    main()
