"""Wie schnell ein Lauf von pysim.cluster geht, geprüft und verkleinert (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_cluster.py

1. Broadcast mit 5 Knoten, etwa 100 Operationen und drei Trennungen, der Knoten mit
   Wiederholungen (besteht): Lauf plus Prüfung. Ziel: höchstens 1 s in CPython.
2. Derselbe Lauf mit dem Knoten ohne Wiederholungen (scheitert): Lauf, Prüfung und Verkleinern
   bis zum kleinsten scheiternden Lauf, wie „Prüfen“ es je Seed tut.
3. Eine ganze Herausforderung mit 5 Seeds (lessonkit.runtime.challenges), bestanden und nicht bestanden.
4. Mit ``--pyodide``: 1 und 2 in Pyodide unter Node.js (die Pakete und der Snapshot der Seite),
   als Verhältnis zu CPython.
5. Was die Grenze für Handler kostet, die nicht enden (``pysim.cluster.grenze``): Lauf 1 mit
   und ohne sie, in CPython und (mit ``--pyodide``) in Pyodide.
6. Was Invarianten kosten (``Cluster.invariante``): Lauf 1 ohne, mit einer, die immer gilt,
   und mit einer, die den Zustand jedes Knotens liest, in CPython (CPU-Zeit). Ohne Invariante
   läuft die Schleife von ``Zeit`` wie zuvor.

Each figure is the best of five runs (the machine is shared; the minimum is the least noisy).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lessonkit.build.execute import run_sync
from lessonkit.runtime import challenges
from pysim.cluster import Broadcast, lauf
from pysim.cluster.lauf import verkleinere
from tests.lessonkit.test_challenges import LOESUNG, START
from tests.pysim.test_cluster import Flut, MitWiederholung


def best(
    step: Callable[[], object], times: int = 5, uhr: Callable[[], float] = time.perf_counter
) -> float:
    """The least time of ``times`` runs (``uhr=time.process_time``: CPU time, less noisy)."""
    dauern = []
    for _ in range(times):
        start = uhr()
        step()
        dauern.append(uhr() - start)
    return min(dauern)


def broadcast_run(klasse: type, **optionen: object) -> object:
    run = lauf(
        klasse,
        Broadcast(),
        knoten=5,
        seed=3,
        dauer=50,
        stoerungen="zufall",
        anzahl_stoerungen=3,
        **optionen,  # type: ignore[arg-type]
    )
    return run, run.last.pruefe(run)


def invarianten_kosten() -> str:
    """Figure 6: run 1 without invariants, with one that always holds, with one that reads
    every node's state (milliseconds of CPU time)."""
    immer = {"gilt": lambda z: True}
    liest = {"höchstens 1000 Werte": lambda z: all(len(s) < 1000 for s in z.values())}
    cpu = time.process_time
    ohne = best(lambda: broadcast_run(MitWiederholung), 15, cpu)
    eine = best(lambda: broadcast_run(MitWiederholung, invarianten=immer), 15, cpu)
    lesend = best(lambda: broadcast_run(MitWiederholung, invarianten=liest), 15, cpu)
    return (
        f"ohne {ohne * 1000:.0f} ms, immer wahr {eine * 1000:.0f} ms, liest {lesend * 1000:.0f} ms"
    )


PYODIDE_ZELLE = """
import sys, time
from pysim.cluster import Broadcast, lauf
from pysim.cluster.lauf import verkleinere
from tests_knoten import MIT_WIEDERHOLUNG, WEITERSAGER, klasse

def messe(schritt, mal=5):
    dauern = []
    for _ in range(mal):
        start = time.perf_counter()
        schritt()
        dauern.append(time.perf_counter() - start)
    return min(dauern)

def lauf_und_urteil(k):
    r = lauf(k, Broadcast(), knoten=5, seed=3, dauer=50, stoerungen="zufall", anzahl_stoerungen=3)
    return r, r.last.pruefe(r)

gut, schlecht = klasse(MIT_WIEDERHOLUNG), klasse(WEITERSAGER)
eins = messe(lambda: lauf_und_urteil(gut))
zwei = messe(lambda: verkleinere(lauf_und_urteil(schlecht)[0], lambda r: not r.last.pruefe(r).ok))
print(f"{eins} {zwei}")

from pysim.cluster import grenze
mit, mit_an = grenze.rufe, grenze.an
def ohne_grenze(an):
    grenze.aus()
    grenze.rufe = mit if an else (lambda m, a, *x: a(*x))
    grenze.an = mit_an if an else (lambda: None)
paare = []
for _ in range(3):
    ohne_grenze(True); a = messe(lambda: lauf_und_urteil(gut))
    ohne_grenze(False); b = messe(lambda: lauf_und_urteil(gut))
    paare.append((a, b))
ohne_grenze(True)
print(" ".join(f"{a} {b}" for a, b in paare))
"""


def grenze_kosten() -> list[tuple[float, float]]:
    """Figure 5 in CPython: run 1 with and without the limit, three pairs (seconds)."""
    import pysim.cluster.cluster as cc
    from pysim.cluster import grenze

    mit = grenze.rufe
    paare = []
    try:
        for _ in range(3):
            cc.grenze.rufe = mit  # type: ignore[attr-defined]
            a = best(lambda: broadcast_run(MitWiederholung))
            cc.grenze.rufe = lambda m, a, *x: a(*x)  # type: ignore[attr-defined]
            b = best(lambda: broadcast_run(MitWiederholung))
            paare.append((a, b))
    finally:
        cc.grenze.rufe = mit  # type: ignore[attr-defined]
    return paare


def _paare(paare: list[tuple[float, float]]) -> str:
    return ", ".join(f"{a * 1000:.0f} ms statt {b * 1000:.0f} ms" for a, b in paare)


def in_pyodide() -> tuple[float, float, list[tuple[float, float]]]:
    """Figures 1, 2 and 5 measured in Pyodide under Node.js (seconds)."""
    import inspect
    import tempfile

    from tests import pyodide
    from tests.pysim import knoten_beispiele

    modul = inspect.getsource(knoten_beispiele)
    cells = [
        {
            "session": "b",
            "code": f"import sys, types\nm = types.ModuleType('tests_knoten')\nexec({modul!r}, m.__dict__)\nsys.modules['tests_knoten'] = m",
            "label": "modul",
        },
        {"session": "b", "code": PYODIDE_ZELLE, "label": "messung"},
    ]
    with tempfile.TemporaryDirectory() as ordner:
        runner = pyodide.PyodideRunner(Path(ordner) / "node.txt")
        try:
            ergebnis = runner.run([{"name": "bench", "cells": cells}], snapshot=True)
        finally:
            runner.close()
    text = "".join(chunk for _, chunk in ergebnis["pages"][0]["results"][1]["output"])
    erste, zweite = text.strip().splitlines()
    eins, zwei = (float(x) for x in erste.split())
    z = [float(x) for x in zweite.split()]
    return eins, zwei, list(zip(z[::2], z[1::2], strict=True))


def main() -> None:
    run, urteil = broadcast_run(MitWiederholung)  # type: ignore[misc]
    operationen = len(run.geplant)
    print(f"1. broadcast, 5 Knoten, {operationen} Operationen, 3 Trennungen, besteht={urteil.ok}:")
    print(
        f"   Lauf + Prüfung {best(lambda: broadcast_run(MitWiederholung)) * 1000:.0f} ms (Ziel ≤ 1000 ms)"
    )

    def failing() -> object:
        run, _ = broadcast_run(Flut)  # type: ignore[misc]
        return verkleinere(run, lambda r: not r.last.pruefe(r).ok)

    klein = failing()
    print(
        f"2. derselbe Lauf ohne Wiederholungen, verkleinert auf {len(klein.geplant)} Operation(en):"
    )  # type: ignore[attr-defined]
    print(f"   Lauf + Prüfung + Verkleinern {best(failing) * 1000:.0f} ms")
    vorgabe = challenges.Vorgabe("broadcast", knoten=5, stoerungen=("teilung",), seeds=5)
    for name, code in (("Lösung", LOESUNG), ("Startcode", START)):
        klasse, _ = run_sync(lambda code=code: challenges.load_node(code))
        assert klasse is not None

        def alle(klasse: type = klasse) -> object:
            return [challenges.seed_outcome(klasse, vorgabe, seed, "") for seed in range(1, 6)]

        ergebnis = alle()
        bestanden = sum(1 for o in ergebnis if o["ok"])  # type: ignore[attr-defined, index]
        print(
            f"3. Herausforderung, 5 Seeds, {name}: {bestanden} bestanden, {best(alle, 3) * 1000:.0f} ms"
        )
    print(f"5. Grenze für Handler, Lauf 1 in CPython: {_paare(grenze_kosten())}")
    print(f"6. Invarianten, Lauf 1 in CPython (CPU-Zeit): {invarianten_kosten()}")
    if "--pyodide" in sys.argv:
        eins, zwei, paare = in_pyodide()
        cp_eins = best(lambda: broadcast_run(MitWiederholung))
        cp_zwei = best(failing)
        print(
            f"4. Pyodide unter Node.js: 1. {eins * 1000:.0f} ms ({eins / cp_eins:.1f}× CPython), "
            f"2. {zwei * 1000:.0f} ms ({zwei / cp_zwei:.1f}× CPython)"
        )
        print(f"5. Grenze für Handler, Lauf 1 in Pyodide: {_paare(paare)}")


if __name__ == "__main__":
    main()
