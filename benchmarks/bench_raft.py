"""Zeiten der Raft-Lektion (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_raft.py [wiederholungen]

Misst, was die Lektion „Konsens: Leader-Wahl und Raft“ rechnet: ``pruefe_wahl`` mit der
richtigen Regel (40 Pläne mit 3 Knoten, 10 mit 5, wie die Prüfung der Übung), mit einer
falschen Regel (zwei Stimmen je Term: ein Befund und sein Verkleinern), und einen langen Lauf
von ``RaftSim`` (5 Knoten, 20 000 Ticks, Schreiben und Störungen). Jede Zeile: das Beste aus
den Wiederholungen, in Millisekunden Rechenzeit dieses Prozesses
(``time.process_time``: auf einer Maschine, die nebenher anderes tut, stabiler als die Uhr).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pysim.raft import RaftSim, Stimmanfrage, pruefe_wahl, raft_stimmregel


def zwei_stimmen(a: Stimmanfrage) -> bool:
    """A broken rule: a vote for everyone in its own term (two leaders in one term)."""
    return a.term == a.mein_term


def ohne_aktualitaet(a: Stimmanfrage) -> bool:
    """The lesson's first wrong attempt: one vote per term, no up-to-date check."""
    return a.term == a.mein_term and a.meine_stimme in (None, a.kandidat)


def richtig_3() -> None:
    assert pruefe_wahl(raft_stimmregel, seeds=range(40)).ok


def richtig_5() -> None:
    assert pruefe_wahl(raft_stimmregel, seeds=range(10), knoten=5).ok


def falsch_zwei_stimmen() -> None:
    assert not pruefe_wahl(zwei_stimmen, seeds=range(40)).ok


def falsch_ohne_aktualitaet() -> None:
    assert not pruefe_wahl(ohne_aktualitaet, seeds=range(40)).ok


def langer_lauf() -> None:
    sim = RaftSim(5, seed=3)
    for runde in range(200):
        sim.tick(90)
        sim.schreibe(f"c{runde}", runde)
        if runde % 7 == 3:
            leader = sim.leader()
            if leader is not None:
                sim.trenne([leader])
        if runde % 7 == 5:
            sim.heile()
        sim.tick(10)
    assert not sim.verletzungen


FAELLE: list[tuple[str, Callable[[], None]]] = [
    ("pruefe_wahl, richtige Regel, 40 Pläne, 3 Knoten", richtig_3),
    ("pruefe_wahl, richtige Regel, 10 Pläne, 5 Knoten", richtig_5),
    ("pruefe_wahl, zwei Stimmen je Term (Befund + Verkleinern)", falsch_zwei_stimmen),
    ("pruefe_wahl, ohne Aktualität (Befund + Verkleinern)", falsch_ohne_aktualitaet),
    ("RaftSim, 5 Knoten, 20 000 Ticks", langer_lauf),
]


def miss(fall: Callable[[], None], wiederholungen: int) -> float:
    beste = float("inf")
    for _ in range(wiederholungen):
        gc.collect()
        start = time.process_time()
        fall()
        beste = min(beste, time.process_time() - start)
    return beste * 1000


def main() -> None:
    wiederholungen = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"Python {sys.version.split()[0]}, das Beste aus {wiederholungen} Läufen")
    for name, fall in FAELLE:
        print(f"{name:58} {miss(fall, wiederholungen):9.1f} ms")


if __name__ == "__main__":
    main()
