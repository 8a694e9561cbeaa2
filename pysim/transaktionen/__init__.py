"""Transaktionen und Isolation (Lektion „Transaktionen und Isolation“).

``Datenbank``: eine Tabelle ``test(id, value)`` mit mehreren Versionen je Zeile und den drei
Isolationsstufen, wie PostgreSQL sie baut (read committed, repeatable read als Snapshot
Isolation, serializable als Serializable Snapshot Isolation). Sitzungen schicken SQL::

    db = Datenbank()
    db.sql("T1", "begin")
    db.sql("T1", "update test set value = 11 where id = 1")
    r = db.sql("T2", "update test set value = 12 where id = 1")
    r.wartet            # True: T1 hält die Sperre der Zeile 1

Teile: ``sql`` (die Befehle, die die Datenbank versteht), ``datenbank`` (Versionen, Sperren,
Schnappschüsse, rw-Abhängigkeiten); ``herausforderung`` (die Last ``txn-rw-register`` der
Herausforderung „Transaktionen“, nicht hier importiert: Sie braucht ``pysim.cluster``).
"""

from __future__ import annotations

from .datenbank import *  # noqa: F403
from .datenbank import __all__ as _datenbank
from .sql import READ_COMMITTED, REPEATABLE_READ, SERIALIZABLE, STUFEN, Bedingung, Befehl, lies

__all__ = [
    *_datenbank,
    "READ_COMMITTED",
    "REPEATABLE_READ",
    "SERIALIZABLE",
    "STUFEN",
    "Befehl",
    "Bedingung",
    "lies",
]
