"""Nachschlagen in einer Übergangstabelle (Zustand × Ereignis → neuer Zustand).

Die Modelle halten ihre Regeln in einer Tabelle wie h11 (``warteschlange.UEBERGAENGE``,
``saga.UEBERGAENGE``). Ein Paar, das die Tabelle nicht kennt, ist ein Fehler im Modell,
nie eine Eingabe des Lesers: Die öffentlichen Methoden prüfen Eingaben vorher.
"""

from __future__ import annotations

from collections.abc import Mapping


def schlage_nach(
    tabelle: Mapping[tuple[str, str], str | None], zustand: str, ereignis: str
) -> str | None:
    """Der neue Zustand nach ``ereignis`` (``None``: erlaubt, ändert nichts)."""
    try:
        return tabelle[(zustand, ereignis)]
    except KeyError:
        raise AssertionError(
            f"Interner Fehler: „{ereignis}“ ist im Zustand „{zustand}“ nicht vorgesehen."
        ) from None
