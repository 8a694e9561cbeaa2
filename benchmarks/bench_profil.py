"""Wohin die Zeit geht, in Pyodide und in CPython (Profile, keine Prüfungen).

    .venv/bin/python benchmarks/bench_profil.py [--pyodide] [--zeilen 25] [--nur leases,replikation,raft]
    .venv/bin/python benchmarks/bench_profil.py --zeiten [--pyodide] [--wiederholungen 5]

Drei Läufe: ``zufallssim`` der Leases über 200 Seeds, der lange Lauf der Replikation
(``bench_crdt_replik.replikation_lauf``: 5 Replikate, Lag, Failover, Quorum, Urteil) und der
lange Lauf von ``RaftSim`` (``bench_raft.py``: 5 Knoten, 20 000 Ticks). Ohne ``--zeiten``: jeder
Lauf einmal unter ``cProfile``, die Funktionen nach eigener Zeit (``tottime``) und die
Aufrufzahlen; mit ``--zeiten``: jeder Lauf ohne Profil, das Beste aus den Wiederholungen in
Millisekunden Rechenzeit (``time.process_time``). ``--pyodide``: dasselbe in Pyodide unter
Node.js (Paket und Speicherabbild dieses Baums, ``tests/pyodide.py``), sonst CPython.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: Profile and times of the runs, as source (the runs are ``bench_ab_pysim.py``'s).
LAEUFE = r"""
import cProfile
import io
import pstats


def profil(namen, zeilen):
    laeufe = alle_faelle("pysim")
    for name in namen:
        p = cProfile.Profile()
        gc.collect()
        p.enable()
        laeufe[name]()
        p.disable()
        puffer = io.StringIO()
        stats = pstats.Stats(p, stream=puffer)
        stats.sort_stats("tottime").print_stats(zeilen)
        text = puffer.getvalue().replace(str(ROOT), "")
        print(f"=== {name}")
        # the table, without pstats' preamble
        print(text[text.index("   ncalls") :] if "   ncalls" in text else text)


def zeiten(namen, wiederholungen):
    laeufe = alle_faelle("pysim")
    for name in namen:
        alle = []
        for _ in range(wiederholungen):
            gc.collect()
            start = time.process_time()
            laeufe[name]()
            alle.append((time.process_time() - start) * 1000)
        folge = " ".join(f"{t:.0f}" for t in alle)
        print(f"{name:12} {min(alle):9.1f} ms   (der Reihe nach: {folge})")
"""


def quelle(root: str) -> str:
    from bench_ab_pysim import quelle as faelle

    return f"ROOT = {root!r}\n" + faelle() + LAEUFE


def main() -> None:
    argumente = sys.argv[1:]

    def wert(name: str, vorgabe: str) -> str:
        if name in argumente:
            i = argumente.index(name)
            return argumente[i + 1]
        return vorgabe

    namen = wert("--nur", "leases,replikation,raft").split(",")
    aufruf = (
        f"zeiten({namen!r}, {int(wert('--wiederholungen', '5'))})"
        if "--zeiten" in argumente
        else f"profil({namen!r}, {int(wert('--zeilen', '25'))})"
    )
    if "--pyodide" in argumente:
        from tests.pyodide import output_of_cell

        print(f"Pyodide\n{output_of_cell(quelle('') + chr(10) + aufruf)}")
        return
    root = str(Path(__file__).resolve().parents[1])
    namensraum: dict[str, object] = {}
    exec(quelle(root), namensraum)
    print(f"CPython {sys.version.split()[0]}")
    exec(aufruf, namensraum)


if __name__ == "__main__":
    main()
