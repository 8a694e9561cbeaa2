"""Idempotenzschlüssel und Atomarität (Lektion 0): Clients, ein Netz, das Antworten verliert,
Wiederholungen, doppelte Anfragen und ein Zahlungsdienst mit ``sqlite3``-Datenbank.

Teile: ``modell`` (``ZahlungsSim``), ``regeln`` (die Zustände eines Schlüssels als Tabelle),
``bild`` (die Zeitleiste).
"""

from __future__ import annotations

from . import modell
from .modell import *  # noqa: F403
from .regeln import UEBERGAENGE

__all__ = [*modell.__all__, "UEBERGAENGE"]
