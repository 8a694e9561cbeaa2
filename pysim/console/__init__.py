"""Die Befehlskonsolen des Kurses: Log-Konsole (Lektion 2), Queue-Konsole (Lektion 1), Saga-Konsole.

    from pysim.console import Console, QueueConsole, ConsoleResult

    c = Console()
    r = c.run("create topic orders partitions 3")
    r.ok, r.text, r.svg          # True, deutscher Text, Bild des Topics
    c.complete("consume orders g")   # ["group"]

``run`` löst nie eine Ausnahme aus: Jede Eingabe bekommt eine Antwort, und ein fehlgeschlagener
Befehl ändert nichts. ``parse`` prüft eine Zeile, ohne sie auszuführen. Aufbau: ``parser`` (die
Grammatik und ihr einer Weg, für Prüfung und Vervollständigung), ``basis`` (ausführen,
vervollständigen), ``log_console`` und ``queue_console`` (Befehlstabellen und Ausgaben),
``hilfe`` (Hilfetexte aus den Tabellen), ``werte`` (JSON, Namen, Tabellen), ``ergebnis``.
"""

from .ergebnis import ConsoleResult
from .log_console import Console
from .queue_console import QueueConsole
from .saga_console import SagaConsole

__all__ = ["Console", "ConsoleResult", "QueueConsole", "SagaConsole"]
