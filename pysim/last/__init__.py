"""Last auf einem Dienst (Lektion „Timeouts, Retries und Backpressure“).

Teile: ``modell`` (``Lastsim``), ``schutzschalter`` (``Schutzschalter``), ``bild`` (Verlauf, Wellen, Perzentile).
"""

from __future__ import annotations

from ..uebergaenge import ZustandsFehler
from .modell import (
    ARTEN,
    MAX_VERSUCHE,
    SCHWANZ_ANTEIL,
    SCHWANZ_FAKTOR,
    VERTEILUNGEN,
    Anfrage,
    Ergebnis,
    Lastsim,
    Strategie,
    Wiederholung,
)
from .schutzschalter import (
    ERFOLG,
    FEHLER,
    GESCHLOSSEN,
    HALBOFFEN,
    OFFEN,
    PAUSE_VORBEI,
    SCHWELLE,
    UEBERGAENGE,
    Schutzschalter,
    Wechsel,
)

__all__ = [
    "ARTEN",
    "ERFOLG",
    "FEHLER",
    "GESCHLOSSEN",
    "HALBOFFEN",
    "MAX_VERSUCHE",
    "OFFEN",
    "PAUSE_VORBEI",
    "SCHWANZ_ANTEIL",
    "SCHWANZ_FAKTOR",
    "SCHWELLE",
    "UEBERGAENGE",
    "VERTEILUNGEN",
    "Anfrage",
    "Ergebnis",
    "Lastsim",
    "Schutzschalter",
    "Strategie",
    "Wechsel",
    "Wiederholung",
    "ZustandsFehler",
]
