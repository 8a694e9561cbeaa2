"""CRDTs und Local-First: Datentypen, deren Replikate sich ohne Absprache vereinigen.

Teile: ``typen`` (``GCounter``, ``PNCounter``, ``LWWRegister``, ``MVRegister``, ``ORSet``, jeder mit
``merge``), ``modell`` (``CrdtSim``: Replikate auf dem ``FakeNetz`` mit ``sync``, Partitionen und
Verlauf), ``bild`` (der Verlauf als Bild).
"""

from __future__ import annotations

from .modell import (
    HEILUNG,
    LOKAL,
    MERGE,
    PARTITION,
    SENDEN,
    VERWORFEN,
    CrdtSim,
    Ereignis,
    Nachricht,
    Replikat,
)
from .typen import TYPEN, Crdt, GCounter, LWWRegister, MVRegister, ORSet, PNCounter

__all__ = [
    "HEILUNG",
    "LOKAL",
    "MERGE",
    "PARTITION",
    "SENDEN",
    "TYPEN",
    "VERWORFEN",
    "Crdt",
    "CrdtSim",
    "Ereignis",
    "GCounter",
    "LWWRegister",
    "MVRegister",
    "Nachricht",
    "ORSet",
    "PNCounter",
    "Replikat",
]
