"""Zeit, Ordnung und Kausalität: Rechner mit eigenen Uhren, Lamport- und Vektoruhren, Versionen.

Teile: ``modell`` (``Welt``, ``Knoten``, Uhren), ``bild`` (das Raum-Zeit-Diagramm), ``versionen`` (last write wins gegen Versionsvektoren).
"""

from __future__ import annotations

from .modell import (
    EMPFANGEN,
    GLEICH,
    LOKAL,
    NACHHER,
    NEBENLAEUFIG,
    SENDEN,
    UEBERGAENGE,
    UNTERWEGS,
    VORHER,
    ZUGESTELLT,
    ZURUECKGEHALTEN,
    Ereignis,
    Knoten,
    LamportUhr,
    Nachricht,
    VektorUhr,
    Welt,
    vereinige,
    vergleiche,
    zufallswelt,
)
from .versionen import (
    BLEIBT,
    ENTSCHEIDUNG,
    ERSETZT,
    Lesung,
    LwwSpeicher,
    Schreibvorgang,
    Version,
    VersionsSpeicher,
)

__all__ = [
    "BLEIBT",
    "EMPFANGEN",
    "ENTSCHEIDUNG",
    "ERSETZT",
    "GLEICH",
    "LOKAL",
    "NACHHER",
    "NEBENLAEUFIG",
    "SENDEN",
    "UEBERGAENGE",
    "UNTERWEGS",
    "VORHER",
    "ZUGESTELLT",
    "ZURUECKGEHALTEN",
    "Ereignis",
    "Knoten",
    "LamportUhr",
    "Lesung",
    "LwwSpeicher",
    "Nachricht",
    "Schreibvorgang",
    "VektorUhr",
    "Version",
    "VersionsSpeicher",
    "Welt",
    "vereinige",
    "vergleiche",
    "zufallswelt",
]
