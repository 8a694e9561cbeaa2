"""Zwei Stände von ``pysim`` im Wechsel, in einem Prozess: CPython oder Pyodide (Zahlen).

    .venv/bin/python benchmarks/bench_ab_pysim.py ALT [--pyodide] [--runden 5] [--nur raft,wahl,…]

``ALT`` ist ein Ordner mit einem ``pysim/`` (etwa ``git archive main pysim`` ausgepackt); er wird
als Paket ``pysimalt`` neben dem ``pysim`` dieses Baums geladen (beide ganz: Cluster, Zeit,
Raft, Leases, Replikation). Jede Runde rechnet jeden Fall erst mit ALT, dann mit diesem Baum,
dann in der nächsten Runde umgekehrt; jede Zeile: das Beste aus den Runden in Millisekunden
Rechenzeit (``time.process_time``) und das Verhältnis neu / alt. (Ob beide Stände dieselben
Läufe rechnen, prüft dieses Skript nicht: das tun die Tests und der Vergleich der
veröffentlichten Ausgaben.) Im Wechsel gemessen trifft
eine Maschine, die nebenher anderes tut, beide Stände gleich, und in Pyodide beide nach dem
Aufwärmen (V8 übersetzt heiße WebAssembly-Funktionen erst nach einer Weile optimiert; die
erste Runde ist langsamer und zählt nur, wenn sie die beste ist). ``--pyodide``: unter Node.js
mit Paket und Speicherabbild dieses Baums (``tests/pyodide.py``).

Fälle: ``wahl`` (``pruefe_wahl``, 40 Pläne, 3 Knoten), ``wahl5`` (10 Pläne, 5 Knoten),
``zwei`` (zwei Stimmen je Term: Befund und Verkleinern), ``raft`` (``RaftSim``, 5 Knoten,
20 000 Ticks), ``leases`` (``zufallssim``, 200 Seeds), ``replikation`` (der lange Lauf von
``bench_crdt_replik.py``), ``register-leader`` und ``leader-lease`` (die Lösung der Seite,
jeder Seed ihrer Prüfung ein Lauf wie dort, ohne Urteil und Bild).
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The cases and the alternation, as source: CPython runs it here, Pyodide in a cell. The
#: Raft cases are ``bench_raft.py``'s, the replication run ``bench_crdt_replik.py``'s.
FAELLE = r"""
import gc
import importlib
import time


def alle_faelle(p):
    raft = importlib.import_module(p + ".raft")
    leases = importlib.import_module(p + ".leases")
    replikation = importlib.import_module(p + ".replikation")
    raft_faelle = [fall for _, fall in faelle(raft)]
    namensraum = {"ReplikSpeicher": replikation.ReplikSpeicher}
    exec(REPLIKATION, namensraum)

    def zufall():
        return [leases.zufallssim(seed, seed % 2 == 0) is not None for seed in range(200)]

    lauf = importlib.import_module(p + ".cluster.lauf").lauf
    lasten = importlib.import_module(p + ".cluster.lasten").LASTEN
    stufen = {}
    for stufe, (loesung, v) in STUFEN.items():
        namen = {}
        exec(f"from {p}.cluster import *\n" + loesung.replace("pysim.", p + "."), namen)
        # the class the solution defines (an exec'd class's module is "builtins")
        knoten = next(
            k for k in namen.values() if isinstance(k, type) and k.__module__ == "builtins"
        )

        def stufe_lauf(knoten=knoten, v=v):
            return [
                len(lauf(knoten, lasten[v["last"]](), knoten=v["knoten"], seed=seed,
                         dauer=v["dauer"], stoerungen="zufall", arten=v["arten"],
                         anzahl_stoerungen=v["anzahl"], timeout=v["timeout"]).geschichte)
                for seed in range(1, v["seeds"] + 1)
            ]

        stufen[stufe] = stufe_lauf

    return {
        **stufen,
        "wahl": raft_faelle[0],
        "wahl5": raft_faelle[1],
        "zwei": raft_faelle[2],
        "raft": raft_faelle[4],
        "leases": zufall,
        "replikation": namensraum["replikation_lauf"],
    }


def abwechselnd(namen, runden):
    alt, neu = alle_faelle("pysimalt"), alle_faelle("pysim")
    zeilen = []
    for name in namen:
        zeiten = {"alt": [], "neu": []}
        for runde in range(runden):
            reihe = ("alt", "neu") if runde % 2 == 0 else ("neu", "alt")
            for wer in reihe:
                fall = (alt if wer == "alt" else neu)[name]
                gc.collect()
                start = time.process_time()
                fall()
                zeiten[wer].append((time.process_time() - start) * 1000)
        a, n = min(zeiten["alt"]), min(zeiten["neu"])
        zeilen.append(f"{name:12} alt {a:8.1f} ms  neu {n:8.1f} ms  neu/alt {n / a:5.2f}")
    return "\n".join(zeilen)
"""


def stufen() -> dict[str, tuple[str, dict[str, object]]]:
    """The solutions of challenges 6 and 7 (``register-leader``, ``leader-lease``) with what a
    seed's run takes (the page's fence, as the build reads it)."""
    from tests.lessonkit.wrong_nodes import page_challenges

    ergebnis = {}
    for c in page_challenges():
        e = c.exercise
        if e.id in ("register-leader", "leader-lease"):
            v = e.vorgabe
            ergebnis[e.id] = (
                e.loesung,
                {
                    "last": v.last,
                    "knoten": v.knoten,
                    "dauer": v.dauer,
                    "arten": tuple(v.stoerungen),
                    "anzahl": v.anzahl_stoerungen,
                    "timeout": v.timeout,
                    "seeds": v.seeds,
                },
            )
    return ergebnis


def quelle() -> str:
    """``FAELLE`` with what it takes from the other benchmarks, as one text."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_crdt_replik import replikation_lauf
    from bench_raft import FAELLE as RAFT

    replikation = inspect.getsource(replikation_lauf).replace(" -> None", "")
    return f"REPLIKATION = {replikation!r}\nSTUFEN = {stufen()!r}\n" + RAFT + FAELLE


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
    aufruf = f"print(abwechselnd({namen!r}, {runden}))"
    if pyodide:
        from tests.pyodide import output_of_cell

        print(f"Pyodide, ALT = {alt}, {runden} Runden im Wechsel")
        print(output_of_cell(laden + quelle() + aufruf))
        return
    import shutil
    import tempfile

    ordner = Path(tempfile.mkdtemp())
    shutil.copytree(alt / "pysim", ordner / "pysimalt")
    sys.path.insert(0, str(ordner))
    namensraum: dict[str, object] = {}
    exec(quelle(), namensraum)
    print(f"CPython {sys.version.split()[0]}, ALT = {alt}, {runden} Runden im Wechsel")
    exec(aufruf, namensraum)
    shutil.rmtree(ordner)


if __name__ == "__main__":
    main()
