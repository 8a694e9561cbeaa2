"""Die Queue (Lektion 1): Ack pro Zustellung, Visibility Timeout, Dead Letter Queue.

Teile: ``modell`` (``Queue``), ``regeln`` (Zustände, Ereignisse, die Zustandstabelle), ``bild`` (die Zeitleiste einer Nachricht), ``konsole`` (die Queue-Konsole).
"""

from __future__ import annotations

from .modell import (
    Queue,
    QueueEreignis,
)
from .regeln import (
    ACK,
    ACK_VERALTET,
    AUSGELIEFERT,
    AUSLIEFERN,
    BESTAETIGT,
    GESENDET,
    IN_DLQ,
    SICHTBAR,
    TIMEOUT,
    TIMEOUT_NACH_LETZTEM_VERSUCH,
    UEBERGAENGE,
    UNERLEDIGT,
    UNTERWEGS,
    WIEDER_SICHTBAR,
    uebergang,
    wechsel,
)

__all__ = [
    "ACK",
    "ACK_VERALTET",
    "AUSGELIEFERT",
    "AUSLIEFERN",
    "BESTAETIGT",
    "GESENDET",
    "IN_DLQ",
    "SICHTBAR",
    "TIMEOUT",
    "TIMEOUT_NACH_LETZTEM_VERSUCH",
    "UEBERGAENGE",
    "UNERLEDIGT",
    "UNTERWEGS",
    "WIEDER_SICHTBAR",
    "Queue",
    "QueueEreignis",
    "uebergang",
    "wechsel",
]
