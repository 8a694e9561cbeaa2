"""Nachschlagen in einer Übergangstabelle (Zustand × Ereignis → neuer Zustand): eine Regel für alle.

Die Modelle halten ihre Regeln in einer Tabelle wie h11 (``pysim.queue.UEBERGAENGE``,
``pysim.saga.UEBERGAENGE``, ``pysim.last.schutzschalter.UEBERGAENGE``); Zustände und
Ereignisse sind Konstanten des Modells. Eine ``Regeltabelle`` wird wie bei h11 je Zustand
geschrieben (``Regeltabelle.je_zustand``) und schlägt in sich selbst nach (``uebergang``,
``wechsel``). Für jede Tabelle gilt dasselbe:

- ein Paar mit einem Zustand: erlaubt, danach gilt dieser Zustand;
- ein Paar mit ``None``: erlaubt, es ändert sich nichts (eine doppelte oder verspätete Meldung);
- ein Paar, das fehlt: kann nicht vorkommen. Die öffentlichen Methoden prüfen die Eingaben des
  Lesers vorher; kommt es doch vor, ist es ein Fehler in pysim (``ZustandsFehler``, der
  Zustand und Ereignis nennt), nie ein stiller Übergang.
"""

from __future__ import annotations

from collections.abc import Mapping

from .fehler import SimFehler


class ZustandsFehler(SimFehler, AssertionError):
    """Ein Ereignis, das die Tabelle im aktuellen Zustand nicht vorsieht (ein Fehler in pysim)."""


def schlage_nach(
    tabelle: Mapping[tuple[str, str], str | None],
    zustand: str,
    ereignis: str,
    *,
    muss_aendern: bool = False,
) -> str | None:
    """Der neue Zustand nach ``ereignis`` (``None``: erlaubt, ändert nichts).

    ``muss_aendern``: Das Modell verlässt sich darauf, dass sich der Zustand ändert; ein
    ``None`` in der Tabelle ist dann genauso ein Fehler wie ein fehlendes Paar.
    """
    if (zustand, ereignis) not in tabelle:
        # The lesson "Sagas" prints this message, and its TypeScript twin the same words.
        raise ZustandsFehler(
            f"Interner Fehler: „{ereignis}“ ist im Zustand „{zustand}“ nicht vorgesehen."
        )
    neu = tabelle[(zustand, ereignis)]
    if neu is None and muss_aendern:
        raise ZustandsFehler(
            f"Interner Fehler: „{ereignis}“ ändert im Zustand „{zustand}“ nichts; "
            "hier muss es den Zustand ändern."
        )
    return neu


def wechsle(tabelle: Mapping[tuple[str, str], str | None], zustand: str, ereignis: str) -> str:
    """Wie ``schlage_nach`` für ein Ereignis, das den Zustand immer ändert."""
    neu = schlage_nach(tabelle, zustand, ereignis, muss_aendern=True)
    assert neu is not None
    return neu


class Regeltabelle(dict[tuple[str, str], str | None]):
    """Eine Tabelle (Zustand, Ereignis) -> neuer Zustand, die in sich nachschlägt: ein ``dict``
    wie jede Tabelle, dazu ``uebergang`` und ``wechsel`` mit der Regel oben. Ein Modul gibt die
    beiden als seine eigenen Funktionen weiter (``uebergang = UEBERGAENGE.uebergang``)."""

    @classmethod
    def je_zustand(cls, regeln: Mapping[str, Mapping[str, str | None]]) -> Regeltabelle:
        """Die Tabelle aus den Regeln je Zustand, geschrieben wie h11 seine Tabellen schreibt:
        ``{zustand: {ereignis: neuer Zustand oder None}}``. So steht an einer Stelle, was in
        einem Zustand geschehen darf."""
        return cls({(z, e): neu for z, regel in regeln.items() for e, neu in regel.items()})

    def uebergang(self, zustand: str, ereignis: str) -> str | None:
        """Der neue Zustand nach ``ereignis`` laut dieser Tabelle (``None``: ändert nichts)."""
        return schlage_nach(self, zustand, ereignis)

    def wechsel(self, zustand: str, ereignis: str) -> str:
        """Wie ``uebergang`` für ein Ereignis, das den Zustand immer ändert."""
        return wechsle(self, zustand, ereignis)
