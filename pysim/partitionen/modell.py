"""Der Zustand hinter der Partitions-Konsole: eine Verteilung, die geschriebenen Schlüssel, was
zuletzt umzog und wie die letzte Last ausging.

    >>> p = Partitionierung("slots", ["n1", "n2", "n3"])
    >>> p.fuelle(100)
    >>> print(p.dazu("n4"))
    25 von 100 Schlüsseln ziehen um (25 %), 246 Bytes: n1 → n4: 8, n2 → n4: 8, n3 → n4: 9
"""

from __future__ import annotations

from collections.abc import Sequence

from ..fehler import UngueltigeEingabe
from .last import Belastung, anfragen, belaste
from .verteilung import STRATEGIEN, Bereiche, Ring, Slots, Umzug, Verteilung, umzug

__all__ = ["MAX_SCHLUESSEL", "Partitionierung", "neue_verteilung"]

#: At most so many keys (the picture counts them; a console stays fast).
MAX_SCHLUESSEL = 10_000
#: The console's slot count: Redis' 16384 would make ``status`` unreadable; few slots show
#: whole partitions moving.
SLOTS_KONSOLE = 12


def neue_verteilung(strategie: str, knoten: Sequence[str]) -> Verteilung:
    """Eine Verteilung nach ``strategie`` (``modulo``, ``ring``, ``slots``, ``bereiche``)."""
    if strategie == Slots.NAME:
        return Slots(knoten, SLOTS_KONSOLE)
    if strategie == Ring.NAME:
        return Ring(knoten)
    if strategie == Bereiche.NAME:
        return Bereiche(knoten)
    try:
        return STRATEGIEN[strategie](knoten)
    except KeyError:
        raise UngueltigeEingabe(
            f"Eine Strategie „{strategie}“ gibt es nicht. Es gibt: {', '.join(STRATEGIEN)}."
        ) from None


class Partitionierung:
    """Schlüssel auf Knoten, verteilt nach einer Strategie; ``dazu``/``weg`` zählen den Umzug."""

    def __init__(self, strategie: str = "slots", knoten: Sequence[str] = ("n1", "n2", "n3")):
        self.verteilung = neue_verteilung(strategie, knoten)
        self.daten: dict[str, str] = {}
        #: The distribution before the last change and what moved (the picture shows it).
        self.vorher: Verteilung | None = None
        self.letzter_umzug: Umzug | None = None
        self.letzte_last: Belastung | None = None

    @property
    def strategie(self) -> str:
        """Der Name der Strategie der jetzigen Verteilung."""
        return self.verteilung.NAME

    def schreibe(self, schluessel: str, wert: str) -> str:
        """Schreibt einen Schlüssel; gibt seinen Knoten zurück."""
        if schluessel not in self.daten and len(self.daten) >= MAX_SCHLUESSEL:
            raise UngueltigeEingabe(f"Höchstens {MAX_SCHLUESSEL} Schlüssel.")
        self.daten[schluessel] = wert
        self.letzte_last = None
        return self.verteilung.besitzer(schluessel)

    def fuelle(self, anzahl: int, praefix: str = "user") -> None:
        """Schreibt ``praefix:1`` bis ``praefix:anzahl`` mit den Werten ``v1`` …"""
        if len(self.daten) + anzahl > MAX_SCHLUESSEL:
            raise UngueltigeEingabe(
                f"Höchstens {MAX_SCHLUESSEL} Schlüssel; es sind schon {len(self.daten)}."
            )
        for i in range(1, anzahl + 1):
            self.daten[f"{praefix}:{i}"] = f"v{i}"
        self.letzte_last = None

    def _wechsle(self, neu: Verteilung) -> Umzug:
        alt = self.verteilung
        bewegt = umzug(alt, neu, self.daten)
        self.vorher, self.verteilung, self.letzter_umzug = alt, neu, bewegt
        self.letzte_last = None
        return bewegt

    def dazu(self, knoten: str) -> Umzug:
        """Ein Knoten kommt dazu; gibt zurück, was umzieht."""
        return self._wechsle(self.verteilung.plus(knoten))

    def weg(self, knoten: str) -> Umzug:
        """Ein Knoten geht; gibt zurück, was umzieht."""
        return self._wechsle(self.verteilung.ohne(knoten))

    def wechsle_strategie(self, strategie: str) -> Umzug:
        """Verteilt dieselben Schlüssel auf dieselben Knoten nach einer anderen Strategie."""
        return self._wechsle(neue_verteilung(strategie, self.verteilung.knoten))

    def vergleiche(self, knoten: str) -> dict[str, Umzug]:
        """Was je Strategie umzöge, käme ``knoten`` zu den jetzigen Knoten dazu (nichts ändert sich)."""
        ergebnis: dict[str, Umzug] = {}
        for name in STRATEGIEN:
            vorher = neue_verteilung(name, self.verteilung.knoten)
            ergebnis[name] = umzug(vorher, vorher.plus(knoten), self.daten)
        return ergebnis

    def heiss(
        self, promi: str, prozent: int, anzahl: int = 2000, je_tick: int = 40, seed: int = 0
    ) -> Belastung:
        """Eine Last von ``anzahl`` Anfragen auf die Schlüssel, ``prozent`` davon auf ``promi``;
        jeder Knoten schafft so viele je Tick, dass die Summe ohne Promi gut reicht."""
        if not self.daten:
            raise UngueltigeEingabe("Noch keine Schlüssel: erst schreiben, z. B. fuelle 100.")
        if promi not in self.daten:
            raise UngueltigeEingabe(f"Den Schlüssel {promi} gibt es nicht; erst schreiben.")
        n = len(self.verteilung.knoten)
        # room for a fair share and half again: the sum copes, one hot node does not
        kapazitaet = max(1, (je_tick * 3) // (2 * n))
        folge = anfragen(sorted(self.daten), anzahl, promi=promi, anteil=prozent / 100, seed=seed)
        self.letzte_last = belaste(self.verteilung, folge, je_tick, kapazitaet)
        return self.letzte_last
