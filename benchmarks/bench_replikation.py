"""Zeiten der Lektion „Replikation und Konsistenz“ (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_replikation.py [wiederholungen] [pysim-wurzel]

Misst die typischen Läufe der Lektion: jede Sitzung ihrer Python-Zellen (``lag``, ``monoton``,
``sync``, ``failover``, ``quorum``, ``karte``, ``diagnose``, je alle Zellen einer Sitzung
hintereinander, wie im Browser), die beiden Abläufe der Replikat-Konsole auf der Seite (mit
Bild nach jedem Befehl) und einen langen Lauf (5 Replikate, Lag, Failover, Quorum, Urteil).
Jede Zeile: das Beste aus den Wiederholungen, in Millisekunden Rechenzeit dieses Prozesses
(``time.process_time``). ``pysim-wurzel``: ein anderer Checkout, dessen ``pysim`` gemessen wird
(derselbe Befehl vorher und nachher, etwa gegen ``git archive main``).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

WURZEL = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else Path(__file__).resolve().parents[1]
sys.path.insert(0, str(WURZEL))

from pysim.replikation.konsole import ReplikKonsole  # noqa: E402

LEKTION = Path(__file__).resolve().parents[1] / "docs" / "lektionen" / "replikation.md"


def sitzungen() -> dict[str, str]:
    """The lesson's Python cells, joined per session (as the page runs them, checks included)."""
    text = LEKTION.read_text()
    quellen: dict[str, list[str]] = {}
    for kopf, quelle in re.findall(r"```pycell([^\n]*)\n(.*?)```", text, re.S):
        sitzung = re.search(r'session="(\w+)"', kopf)
        quellen.setdefault(sitzung.group(1) if sitzung else "-", []).append(quelle)
    return {name: "\n".join(teile) for name, teile in quellen.items()}


def konsolen() -> list[list[str]]:
    """The commands of each ``replik-konsole`` block on the page."""
    text = LEKTION.read_text()
    return [
        [z for z in block.splitlines() if z.strip()]
        for block in re.findall(r"```replik-konsole\n(.*?)```", text, re.S)
    ]


def zelle(quelle: str) -> Callable[[], None]:
    def lauf() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(quelle, {"__name__": "__zelle__"})

    return lauf


def konsole(befehle: list[str]) -> Callable[[], None]:
    def lauf() -> None:
        k = ReplikKonsole()
        for befehl in befehle:
            k.run(befehl)  # each with its picture

    return lauf


def langer_lauf() -> None:
    """The long run of ``bench_crdt_replik.py`` (imported here, after this root's pysim)."""
    from bench_crdt_replik import replikation_lauf

    replikation_lauf()


def _sekunden(fall: Callable[[], None]) -> float:
    start = time.process_time()
    fall()
    return time.process_time() - start


FAELLE: list[tuple[str, Callable[[], None]]] = [
    *((f"Zellen der Sitzung {name}", zelle(q)) for name, q in sitzungen().items()),
    *(
        (f"Konsole {i + 1} ({len(b)} Befehle, mit Bild)", konsole(b))
        for i, b in enumerate(konsolen())
    ),
    ("Langer Lauf: 5 Replikate, sync=1, Lag, Failover, Quorum, Urteil", langer_lauf),
]


def main() -> None:
    wiederholungen = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"pysim aus {WURZEL}")
    for name, fall in FAELLE:
        beste = min(_sekunden(fall) for _ in range(wiederholungen))
        print(f"{beste * 1000:8.1f} ms  {name}")


if __name__ == "__main__":
    main()
