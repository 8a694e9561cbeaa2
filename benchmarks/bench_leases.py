"""Zeiten der Lektion „Leases, Sperren und Fencing Tokens“ (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_leases.py [wiederholungen]
    .venv/bin/python benchmarks/bench_leases.py --pyodide ALT   # zufallssim in Pyodide, alt und neu

Misst die Zellen der Lektion, die ``LeaseSim`` rechnen (mit Protokoll und Bild, wie
veröffentlicht), einen einzelnen ``zufallssim``-Lauf im Mittel über 1000 Seeds und die Zelle
„viele“ (2 × 1000 Läufe von ``zufallssim``). Jede Zeile: das Beste aus den Wiederholungen,
in Millisekunden Rechenzeit dieses Prozesses (``time.process_time``). ``PYSIM=<ordner>``
misst das ``pysim`` eines anderen Stands (etwa ``git archive main pysim``), mit denselben
Zellen. ``--pyodide ALT``: 2 × 200 Läufe von ``zufallssim`` in Pyodide unter Node.js (Paket und
Speicherabbild der Seite, ``tests/pyodide.py``; zuvor ein Bau der Seite), mit ``pysim.leases``
des Ordners ``ALT`` (als ``pysim.leasesalt`` neben diesem Baum) und dieses Baums, im Wechsel.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, os.environ.get("PYSIM") or str(Path(__file__).resolve().parents[1]))

from pysim.leases import zufallssim

LEKTION = Path(__file__).resolve().parents[1] / "docs" / "lektionen" / "leases-fencing.md"


def zellen() -> list[Callable[[], None]]:
    """The lesson's visible cells that run a ``LeaseSim``, as published, each as one run that
    also draws the picture (output thrown away)."""
    muster = r"```pycell session=\"[\w-]+\"\n(.*?)```"
    quellen = [t for t in re.findall(muster, LEKTION.read_text(), re.S) if "LeaseSim(" in t]
    return [partial(_zelle, q) for q in quellen]


def _zelle(quelle: str) -> None:
    namensraum: dict[str, Any] = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(quelle, namensraum)
        namensraum["sim"].bild()


def viele() -> None:
    for fencing in (False, True):
        for seed in range(1000):
            zufallssim(seed, fencing)


def beste(lauf: Callable[[], None], n: int) -> float:
    zeiten = []
    for _ in range(n):
        start = time.process_time()
        lauf()
        zeiten.append(time.process_time() - start)
    return min(zeiten) * 1000


def pyodide(alt: Path) -> str:
    """Times ``zufallssim`` in Pyodide: the old ``pysim/leases`` of ``alt`` and this tree's."""
    from tests.pyodide import output_of_cell

    dateien = {p.name: p.read_text() for p in sorted((alt / "pysim" / "leases").glob("*.py"))}
    return output_of_cell(f"""
import importlib, pathlib, time
import pysim, pysim.leases as neu
ordner = pathlib.Path("/tmp/alt/leasesalt")
ordner.mkdir(parents=True, exist_ok=True)
[(ordner / name).write_text(text) for name, text in {dateien!r}.items()]
pysim.__path__.append(str(ordner.parent))
alt = importlib.import_module("pysim.leasesalt")
beste = {{"vorher": [], "nachher": []}}
for _ in range(3):
    for name, modul in (("vorher", alt), ("nachher", neu)):
        start = time.perf_counter()
        for seed in range(200):
            modul.zufallssim(seed, seed % 2 == 0)
        beste[name].append((time.perf_counter() - start) / 200 * 1000)
print(f"Pyodide, zufallssim, ein Lauf: vorher {{min(beste['vorher']):.3f}} ms, "
      f"nachher {{min(beste['nachher']):.3f}} ms")
""")


def main() -> None:
    if "--pyodide" in sys.argv:
        print(pyodide(Path(sys.argv[sys.argv.index("--pyodide") + 1])))
        return
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for i, zelle in enumerate(zellen(), 1):
        print(f"Zelle {i} (LeaseSim, Protokoll, Bild): {beste(zelle, n):8.2f} ms")
    gesamt = beste(viele, max(1, n // 2))
    print(f"zufallssim, ein Lauf (Mittel aus 2000):   {gesamt / 2000:8.3f} ms")
    print(f"Zelle „viele“ (2 × 1000 zufallssim):      {gesamt:8.1f} ms")


if __name__ == "__main__":
    main()
