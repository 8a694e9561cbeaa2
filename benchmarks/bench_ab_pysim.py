"""Zwei Stände von ``pysim`` im Wechsel, in einem Prozess: CPython oder Pyodide (Zahlen).

    .venv/bin/python benchmarks/bench_ab_pysim.py ALT [--pyodide] [--runden 5] [--nur raft,wahl,…]

``ALT`` ist ein Ordner mit einem ``pysim/`` (etwa ``git archive main pysim`` ausgepackt); er wird
als Paket ``pysimalt`` neben dem ``pysim`` dieses Baums geladen (beide ganz: Cluster, Zeit,
Raft, Leases, Replikation). Jede Runde rechnet jeden Fall erst mit ALT, dann mit diesem Baum,
dann in der nächsten Runde umgekehrt; jede Zeile: das Beste aus den Runden in Millisekunden
Rechenzeit (``time.process_time``) und das Verhältnis neu / alt. Im Wechsel gemessen trifft
eine Maschine, die nebenher anderes tut, beide Stände gleich, und in Pyodide beide nach dem
Aufwärmen (V8 übersetzt heiße WebAssembly-Funktionen erst nach einer Weile optimiert; die
erste Runde ist langsamer und zählt nur, wenn sie die beste ist). ``--pyodide``: unter Node.js
mit Paket und Speicherabbild dieses Baums (``tests/pyodide.py``).

Fälle: ``wahl`` (``pruefe_wahl``, 40 Pläne, 3 Knoten), ``wahl5`` (10 Pläne, 5 Knoten),
``zwei`` (zwei Stimmen je Term: Befund und Verkleinern), ``raft`` (``RaftSim``, 5 Knoten,
20 000 Ticks), ``leases`` (``zufallssim``, 200 Seeds), ``replikation`` (der lange Lauf von
``bench_crdt_replik.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The cases and the alternation, as source: CPython runs it here, Pyodide in a cell.
FAELLE = r"""
import gc
import importlib
import time


def faelle(p):
    raft = importlib.import_module(p + ".raft")
    leases = importlib.import_module(p + ".leases")
    replikation = importlib.import_module(p + ".replikation")

    def zwei_stimmen(a):
        return a.term == a.mein_term

    def langer_lauf():
        sim = raft.RaftSim(5, seed=3)
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
        return sim.verletzungen == [] and sim.zeit.now

    def zufall():
        return [leases.zufallssim(seed, seed % 2 == 0) is not None for seed in range(200)]

    def repl():
        s = replikation.ReplikSpeicher(repliken=5, verzoegerung=2, sync=1)
        s.setze_lag("n3", 6)
        for i in range(60):
            s.write("x", i, prozess=f"c{i % 3}")
            s.read("x", von=f"n{1 + i % 5}", prozess="leser")
            if i == 30:
                s.trenne("n1")
                s.failover("n2")
                s.heile("n1")
        s.tick(20)
        q = replikation.ReplikSpeicher(repliken=5, verzoegerung=2)
        q.quorum(5, 3, 3)
        for i in range(60):
            q.write("y", i, prozess=f"q{i % 3}")
            q.read("y", prozess="qleser")
        return (str(s.urteil()), str(q.urteil()), len(s.verlauf()), len(q.verlauf()))

    return {
        "wahl": lambda: raft.pruefe_wahl(raft.raft_stimmregel, seeds=range(40)).ok,
        "wahl5": lambda: raft.pruefe_wahl(raft.raft_stimmregel, seeds=range(10), knoten=5).ok,
        "zwei": lambda: str(raft.pruefe_wahl(zwei_stimmen, seeds=range(40))),
        "raft": langer_lauf,
        "leases": zufall,
        "replikation": repl,
    }


def im_wechsel(namen, runden):
    alt, neu = faelle("pysimalt"), faelle("pysim")
    zeilen = []
    for name in namen:
        zeiten = {"alt": [], "neu": []}
        ergebnisse = {}
        for runde in range(runden):
            reihe = ("alt", "neu") if runde % 2 == 0 else ("neu", "alt")
            for wer in reihe:
                fall = (alt if wer == "alt" else neu)[name]
                gc.collect()
                start = time.process_time()
                ergebnisse[wer] = fall()
                zeiten[wer].append((time.process_time() - start) * 1000)
        gleich = "gleich" if ergebnisse["alt"] == ergebnisse["neu"] else "ANDERS"
        a, n = min(zeiten["alt"]), min(zeiten["neu"])
        zeilen.append(f"{name:12} alt {a:8.1f} ms  neu {n:8.1f} ms  neu/alt {n / a:5.2f}  ({gleich})")
    return "\n".join(zeilen)
"""


def dateien(alt: Path) -> dict[str, str]:
    return {
        str(p.relative_to(alt / "pysim")): p.read_text()
        for p in sorted((alt / "pysim").rglob("*.py"))
    }


def main() -> None:
    argumente = sys.argv[1:]

    def wert(name: str, vorgabe: str) -> str:
        if name in argumente:
            i = argumente.index(name)
            text = argumente[i + 1]
            del argumente[i : i + 2]
            return text
        return vorgabe

    runden = int(wert("--runden", "5"))
    namen = wert("--nur", "wahl,wahl5,zwei,raft,leases,replikation").split(",")
    pyodide = "--pyodide" in argumente
    if pyodide:
        argumente.remove("--pyodide")
    alt = Path(argumente[0]).resolve()
    laden = f"""
import pathlib, sys
for name, text in {dateien(alt)!r}.items():
    ziel = pathlib.Path("/tmp/ab/pysimalt") / name
    ziel.parent.mkdir(parents=True, exist_ok=True)
    ziel.write_text(text)
sys.path.insert(0, "/tmp/ab")
"""
    aufruf = f"print(im_wechsel({namen!r}, {runden}))"
    if pyodide:
        from tests.pyodide import output_of_cell

        print(f"Pyodide, ALT = {alt}, {runden} Runden im Wechsel")
        print(output_of_cell(laden + FAELLE + aufruf))
        return
    import shutil
    import tempfile

    ordner = Path(tempfile.mkdtemp())
    shutil.copytree(alt / "pysim", ordner / "pysimalt")
    sys.path.insert(0, str(ordner))
    namensraum: dict[str, object] = {}
    exec(FAELLE, namensraum)
    print(f"CPython {sys.version.split()[0]}, ALT = {alt}, {runden} Runden im Wechsel")
    exec(aufruf, namensraum)
    shutil.rmtree(ordner)


if __name__ == "__main__":
    main()
