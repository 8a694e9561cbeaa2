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
result (so a changed result shows).
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


def main() -> None:
    print(f"Python {sys.version.split()[0]} ({sys.implementation.name}), bester von 3 Läufen")
    cluster()
    raft()
    pruefer()


if __name__ == "__main__":
    main()
