"""Was das Verkleinern kostet, für jeden seiner drei Nutzer (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_schrumpfen.py

1. ``pysim.cluster.lauf.verkleinere``: der scheiternde Broadcast-Lauf aus
   ``bench_cluster.py`` (5 Knoten, Seed 3, drei Trennungen, Knoten ohne Wiederholungen).
2. ``pysim.raft.pruefe_wahl`` mit zwei falschen Stimmregeln (Seeds 0..39, 3 Knoten): die
   Prüfung samt Verkleinern des ersten scheiternden Plans.
3. ``pysim.pruefer.linearisierbar`` auf Verläufen, deren Grund die Suche braucht
   (``pruefer.grund``: kürzester scheiternder Anfang, dann Lockern der übrigen Operationen).

For each: the best of three wall-clock times (the machine is shared; the minimum is the
least noisy), how many candidates were run (a figure independent of the machine) and the
result (so a changed result shows). With ``--pyodide``: the shrinking of 1 and 2 in Pyodide
under Node.js (the site's packages and snapshot), best of three, in seconds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_pruefer import messen, mit_zwei_cas
from pysim.cluster import Broadcast, lauf
from pysim.cluster.lauf import verkleinere
from pysim.pruefer import linearisierbar
from pysim.pruefer.modell import Modell
from pysim.raft import pruefe_wahl, wahlpruefung
from tests.pysim.test_cluster import Flut

best = messen  # the best of three wall-clock times, with the step's result


def cluster() -> None:
    zaehler = [0]

    def scheitert(r: Any) -> bool:
        zaehler[0] += 1
        return not r.last.pruefe(r).ok

    for seed, dauer in ((3, 50), (1, 100), (2, 100), (4, 100)):
        run = lauf(
            Flut,
            Broadcast(),
            knoten=5,
            seed=seed,
            dauer=dauer,
            stoerungen="zufall",
            anzahl_stoerungen=3,
        )
        if run.last.pruefe(run).ok:
            print(f"verkleinere (Broadcast, Seed {seed}, {dauer} Ticks): besteht, nichts zu tun")
            continue

        def schritt(run: Any = run) -> Any:
            zaehler[0] = 0
            return verkleinere(run, scheitert)

        sekunden, klein = best(schritt)
        print(
            f"verkleinere (Broadcast, Seed {seed}, {dauer} Ticks): {sekunden:.3f} s, "
            f"{zaehler[0]} Läufe"
        )
        print(f"  {run.kennung} -> {klein.kennung}")


def regel_immer(a: Any) -> bool:
    return True


def regel_ohne_log(a: Any) -> bool:
    return bool(a.term >= a.mein_term and a.meine_stimme in (None, a.kandidat))


def raft() -> None:
    original = wahlpruefung._laufe
    zaehler = [0]

    def gezaehlt(*args: Any, **kwargs: Any) -> Any:
        zaehler[0] += 1
        return original(*args, **kwargs)

    wahlpruefung._laufe = gezaehlt  # type: ignore[assignment]
    try:
        for name, regel, knoten in (
            ("immer ja", regel_immer, 3),
            ("ohne Log", regel_ohne_log, 3),
            ("ohne Log", regel_ohne_log, 5),
        ):

            def schritt(regel: Any = regel, knoten: int = knoten) -> Any:
                zaehler[0] = 0
                return pruefe_wahl(regel, seeds=range(40), knoten=knoten)

            sekunden, befund = best(schritt)
            print(
                f"pruefe_wahl ({name}, {knoten} Knoten): {sekunden:.3f} s, {zaehler[0]} Läufe "
                f"(Seed {befund.seed}, {len(befund.plan)} Schritte)"
            )
            print("  " + " | ".join(befund.schritte()))
    finally:
        wahlpruefung._laufe = original  # type: ignore[assignment]


def pruefer() -> None:
    original = Modell.pruefe
    zaehler = [0]

    def gezaehlt(self: Any, *args: Any, **kwargs: Any) -> Any:
        zaehler[0] += 1
        return original(self, *args, **kwargs)

    Modell.pruefe = gezaehlt  # type: ignore[method-assign]
    try:
        for n in (6, 8, 10):
            verlauf = mit_zwei_cas(n)

            def schritt(verlauf: Any = verlauf) -> Any:
                zaehler[0] = 0
                return linearisierbar(verlauf)

            sekunden, urteil = best(schritt)
            print(
                f"linearisierbar, zwei cas nach {n} Schreibenden: {sekunden:.3f} s, "
                f"{zaehler[0]} Prüfungen"
            )
            print(f"  {urteil.erklaerung[:200]}")
    finally:
        Modell.pruefe = original  # type: ignore[method-assign]


#: What runs in Pyodide: the shrinking of the broadcast runs and the Raft plans.
PYODIDE_ZELLE = """
import sys, time, types
sys.modules["tests_knoten"] = knoten = types.ModuleType("tests_knoten")
exec(QUELLE, knoten.__dict__)
from pysim.cluster import Broadcast, lauf
from pysim.cluster.lauf import verkleinere
from pysim.raft import pruefe_wahl
flut = knoten.klasse(knoten.WEITERSAGER)

def am_besten(schritt):
    zeiten = []
    for _ in range(3):
        beginn = time.perf_counter()
        schritt()
        zeiten.append(time.perf_counter() - beginn)
    return min(zeiten)

for seed, dauer in ((3, 50), (1, 100), (2, 100), (4, 100)):
    r = lauf(flut, Broadcast(), knoten=5, seed=seed, dauer=dauer, stoerungen="zufall")
    if not r.last.pruefe(r).ok:
        s = am_besten(lambda: verkleinere(r, lambda x: not x.last.pruefe(x).ok))
        print(f"verkleinere (Broadcast, Seed {seed}, {dauer} Ticks): {s:.3f} s")

def ohne_log(a):
    return bool(a.term >= a.mein_term and a.meine_stimme in (None, a.kandidat))

for name, regel, zahl in (("immer ja", lambda a: True, 3), ("ohne Log", ohne_log, 3),
                          ("ohne Log", ohne_log, 5)):
    s = am_besten(lambda: pruefe_wahl(regel, seeds=range(40), knoten=zahl))
    print(f"pruefe_wahl ({name}, {zahl} Knoten): {s:.3f} s")
"""


def in_pyodide() -> str:
    import inspect
    import tempfile

    from tests import pyodide
    from tests.pysim import knoten_beispiele

    quelle = inspect.getsource(knoten_beispiele)
    code = f"QUELLE = {quelle!r}\n" + PYODIDE_ZELLE
    zelle = {"session": "s", "code": code, "label": "schrumpfen"}
    with tempfile.TemporaryDirectory() as ordner:
        runner = pyodide.PyodideRunner(Path(ordner) / "node.txt")
        try:
            antwort = runner.run([{"name": "bench", "cells": [zelle]}], snapshot=True)
        finally:
            runner.close()
    ergebnis = antwort["pages"][0]["results"][0]
    return "".join(chunk for _, chunk in ergebnis["output"]) or str(ergebnis)


def main() -> None:
    if "--pyodide" in sys.argv:
        print("Pyodide unter Node.js, bester von 3 Läufen")
        print(in_pyodide())
        return
    print(f"Python {sys.version.split()[0]} ({sys.implementation.name}), bester von 3 Läufen")
    cluster()
    raft()
    pruefer()


if __name__ == "__main__":
    main()
