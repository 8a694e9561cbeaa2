"""Die Befehlskonsolen des Kurses und was sie gemeinsam haben.

    from pysim.console import LogKonsole, QueueKonsole, ConsoleResult

    c = LogKonsole()
    r = c.run("create topic orders partitions 3")
    r.ok, r.text, r.svg          # True, deutscher Text, Bild des Topics
    c.complete("consume orders g")   # ["group"]

``run`` löst nie eine Ausnahme aus: Jede Eingabe bekommt eine Antwort, und ein fehlgeschlagener
Befehl ändert nichts. ``parse`` prüft eine Zeile, ohne sie auszuführen.

Hier liegt nur, was alle Konsolen teilen: ``parser`` (die Grammatik und ihr einer Weg, für
Prüfung und Vervollständigung), ``basis`` (``BasisKonsole``: ausführen, vervollständigen,
``hilfe``, ``clear``, ``tick``), ``befehle`` (eine Tabellenzeile je Befehl, gemeinsame Arten
von Werten), ``hilfe`` (Hilfetexte aus den Befehlstabellen), ``werte``
(JSON, Namen, Tabellen), ``ergebnis`` und ``art`` (``KonsolenArt``, ``arten()``). Jede Konsole
selbst liegt bei ihrer Simulation: ``pysim/log/konsole.py`` (``LogKonsole``),
``pysim/queue/konsole.py`` (``QueueKonsole``), ``pysim/saga/konsole.py`` (``SagaKonsole``).
Der frühere Name ``SagaConsole`` gilt weiter (eine Zelle von Lektion 7 hat ihn importiert).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .art import KonsolenArt, KonsolenOption, arten
from .ergebnis import ConsoleResult

if TYPE_CHECKING:
    from ..log.konsole import LogKonsole
    from ..queue.konsole import QueueKonsole
    from ..saga.konsole import SagaKonsole
    from ..saga.konsole import SagaKonsole as SagaConsole

#: Name -> (Modul, Klasse). Erst beim Zugriff geladen: Die Konsolen importieren dieses Paket
#: (``basis``, ``parser``), es darf sie darum nicht beim eigenen Import laden.
_KONSOLEN = {
    "LogKonsole": ("pysim.log.konsole", "LogKonsole"),
    "QueueKonsole": ("pysim.queue.konsole", "QueueKonsole"),
    "SagaKonsole": ("pysim.saga.konsole", "SagaKonsole"),
    # the earlier name a published cell imported (lesson 7, c15b1ab to 908f989)
    "SagaConsole": ("pysim.saga.konsole", "SagaKonsole"),
}


def __getattr__(name: str) -> Any:
    if name in _KONSOLEN:
        modul, klasse = _KONSOLEN[name]
        return getattr(importlib.import_module(modul), klasse)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ConsoleResult",
    "KonsolenArt",
    "KonsolenOption",
    "LogKonsole",
    "QueueKonsole",
    "SagaConsole",
    "SagaKonsole",
    "arten",
]
