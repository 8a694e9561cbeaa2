"""Zeiten der Raft-Lektion (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_raft.py [wiederholungen]
    .venv/bin/python benchmarks/bench_raft.py 5 --alt ALT       # CPython, alt und neu im Wechsel
    .venv/bin/python benchmarks/bench_raft.py 3 --pyodide ALT   # dazu in Pyodide, alt und neu

Misst, was die Lektion „Konsens: Leader-Wahl und Raft“ rechnet: ``pruefe_wahl`` mit der
richtigen Regel (40 Pläne mit 3 Knoten, 10 mit 5, wie die Prüfung der Übung), mit zwei
falschen Regeln (ein Befund und sein Verkleinern), und einen langen Lauf von ``RaftSim``
(5 Knoten, 20 000 Ticks, Schreiben und Störungen). Jede Zeile: das Beste aus den
Wiederholungen, in Millisekunden Rechenzeit dieses Prozesses (``time.process_time``: auf einer
Maschine, die nebenher anderes tut, stabiler als die Uhr).

``--pyodide ALT``: dieselben Fälle in Pyodide unter Node.js (Paket und Speicherabbild der
Seite, ``tests/pyodide.py``), mit ``pysim.raft`` dieses Baums und mit den Dateien von
``pysim/raft/`` aus dem Ordner ``ALT`` (z. B. ``git archive main pysim/raft`` ausgepackt), die
als ``pysim.raftalt`` daneben geladen werden, im Wechsel wie ``--alt`` (bis Sitzung 19 erst alle
Wiederholungen des einen, dann des anderen: Eine Last, die mitten im Lauf kam, traf nur einen).

``--alt ALT``: in CPython alt und neu im Wechsel, Wiederholung um Wiederholung (auf einer
Maschine, die nebenher anderes tut, wandern die Zeiten von Minute zu Minute; im Wechsel
gemessen trifft das beide gleich).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The cases, as source: CPython runs it here, Pyodide in a cell.
FAELLE = r"""
import gc
import time


def faelle(raft):
    def zwei_stimmen(a):
        return a.term == a.mein_term

    def ohne_aktualitaet(a):
        return a.term == a.mein_term and a.meine_stimme in (None, a.kandidat)

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
        assert not sim.verletzungen

    return [
        ("pruefe_wahl, richtige Regel, 40 Pläne, 3 Knoten",
         lambda: raft.pruefe_wahl(raft.raft_stimmregel, seeds=range(40)).ok is True),
        ("pruefe_wahl, richtige Regel, 10 Pläne, 5 Knoten",
         lambda: raft.pruefe_wahl(raft.raft_stimmregel, seeds=range(10), knoten=5).ok is True),
        ("pruefe_wahl, zwei Stimmen je Term (Befund + Verkleinern)",
         lambda: raft.pruefe_wahl(zwei_stimmen, seeds=range(40)).ok is False),
        ("pruefe_wahl, ohne Aktualität (Befund + Verkleinern)",
         lambda: raft.pruefe_wahl(ohne_aktualitaet, seeds=range(40)).ok is False),
        ("RaftSim, 5 Knoten, 20 000 Ticks", lambda: langer_lauf() is None),
    ]


def miss(raft, wiederholungen):
    zeilen = []
    for name, fall in faelle(raft):
        beste = float("inf")
        for _ in range(wiederholungen):
            gc.collect()
            start = time.process_time()
            assert fall()
            beste = min(beste, time.process_time() - start)
        zeilen.append((name, beste * 1000))
    return zeilen


def im_wechsel(alt, neu, wiederholungen):
    zeilen = []
    for (name, fall_alt), (_, fall_neu) in zip(faelle(alt), faelle(neu)):
        beste = [float("inf"), float("inf")]
        for _ in range(wiederholungen):
            for i, fall in enumerate((fall_alt, fall_neu)):
                gc.collect()
                start = time.process_time()
                assert fall()
                beste[i] = min(beste[i], time.process_time() - start)
        zeilen.append((name, beste[0] * 1000, beste[1] * 1000))
    return zeilen
"""


def pyodide(wiederholungen: int, alt: Path) -> dict[str, list[tuple[str, float]]]:
    import json

    from tests.pyodide import output_of_cell

    dateien = {p.name: p.read_text() for p in sorted((alt / "pysim" / "raft").glob("*.py"))}
    zelle = (
        FAELLE
        + f"""
import json, os, sys, importlib
import pysim
os.makedirs("/tmp/alt/raftalt", exist_ok=True)
for name, text in {dateien!r}.items():
    with open("/tmp/alt/raftalt/" + name, "w") as f:
        f.write(text)
pysim.__path__.append("/tmp/alt")
import pysim.raft as neu
alt = importlib.import_module("pysim.raftalt")
zeilen = im_wechsel(alt, neu, {wiederholungen})
print(json.dumps({{"vorher": [(n, v) for n, v, _ in zeilen], "nachher": [(n, w) for n, _, w in zeilen]}}))
"""
    )
    text = output_of_cell(zelle)
    zahlen: dict[str, list[tuple[str, float]]] = json.loads(text.splitlines()[-1])
    return zahlen


def lade_alt(alt: Path) -> Any:
    """The old ``pysim/raft`` of ``alt`` as ``pysim.raftalt``, beside this tree's pysim."""
    import importlib
    import tempfile

    import pysim

    ordner = Path(tempfile.mkdtemp()) / "raftalt"
    ordner.mkdir()
    for datei in sorted((alt / "pysim" / "raft").glob("*.py")):
        (ordner / datei.name).write_text(datei.read_text())
    pysim.__path__.append(str(ordner.parent))
    return importlib.import_module("pysim.raftalt")


def main() -> None:
    argumente = sys.argv[1:]
    alt = None
    if "--alt" in argumente:
        i = argumente.index("--alt")
        vergleich = Path(argumente[i + 1])
        del argumente[i : i + 2]
        wiederholungen = int(argumente[0]) if argumente else 3
        namensraum: dict[str, Any] = {}
        exec(FAELLE, namensraum)
        import pysim.raft

        print(f"CPython {sys.version.split()[0]}, das Beste aus {wiederholungen} Läufen im Wechsel")
        print(f"{'':58} {'vorher':>12} {'nachher':>12}")
        for name, vorher, nachher in namensraum["im_wechsel"](
            lade_alt(vergleich), pysim.raft, wiederholungen
        ):
            print(f"{name:58} {vorher:9.1f} ms {nachher:9.1f} ms")
        return
    if "--pyodide" in argumente:
        i = argumente.index("--pyodide")
        alt = Path(argumente[i + 1])
        del argumente[i : i + 2]
    wiederholungen = int(argumente[0]) if argumente else 3
    namensraum = {}
    exec(FAELLE, namensraum)
    import pysim.raft

    print(f"CPython {sys.version.split()[0]}, das Beste aus {wiederholungen} Läufen")
    for name, ms in namensraum["miss"](pysim.raft, wiederholungen):
        print(f"{name:58} {ms:9.1f} ms")
    if alt is not None:
        zahlen = pyodide(wiederholungen, alt)
        print(f"Pyodide, das Beste aus {wiederholungen} Läufen: vorher ({alt}) und nachher")
        for (name, vorher), (_, nachher) in zip(zahlen["vorher"], zahlen["nachher"], strict=True):
            print(f"{name:58} {vorher:9.1f} ms {nachher:9.1f} ms")


if __name__ == "__main__":
    main()
