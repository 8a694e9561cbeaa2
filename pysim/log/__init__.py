"""Das Log (Lektion „Ereignisströme“): Topics, Partitionen, Offsets und Consumer-Gruppen wie Kafka.

Teile: ``modell`` (``Log``), ``regeln`` (Zuteilung, Commit, Partition eines Schlüssels), ``bild`` (das Bild eines Topics und einer Gruppe), ``konsole`` (die Log-Konsole).
"""

from __future__ import annotations

from .modell import (
    ERLAUBTE_ZEICHEN,
    MAX_POLL_NAME,
    SESSION_NAME,
    UNVERAENDERLICH,
    Entfernt,
    Gruppe,
    GruppenZeile,
    Log,
    Offsets,
    Record,
    Topic,
)

__all__ = [
    "ERLAUBTE_ZEICHEN",
    "MAX_POLL_NAME",
    "SESSION_NAME",
    "UNVERAENDERLICH",
    "Entfernt",
    "Gruppe",
    "GruppenZeile",
    "Log",
    "Offsets",
    "Record",
    "Topic",
]
