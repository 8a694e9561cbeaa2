"""Sekundärindizes auf partitionierten Daten: lokal oder global (DDIA, Kapitel 6).

Ein ``Katalog`` hält Zeilen ``id → farbe`` auf ``partitionen`` Partitionen, verteilt nach der
``id`` (``slot(id, partitionen)``). Gesucht wird aber nach der Farbe. Zwei Indizes gibt es:

- **lokal** (nach Dokument partitioniert): Jede Partition indiziert nur ihre eigenen Zeilen, im
  selben Schritt wie das Schreiben. Wer nach ``rot`` sucht, muss *jede* Partition fragen und die
  Antworten sammeln (Scatter/Gather): So langsam wie die langsamste Partition.
- **global** (nach Begriff partitioniert): Der Eintrag ``farbe=rot`` liegt auf genau einer
  Partition, ``slot("farbe=rot", partitionen)``. Eine Suche fragt nur sie. Dafür trifft ein
  Schreiben zwei Partitionen, und der Index wird später nachgetragen (``verzoegerung`` Ticks),
  wie DynamoDBs globale Sekundärindizes: Kurz nach dem Schreiben fehlt die Zeile in der Suche.

Vereinfacht: ein Attribut, keine Ausfälle, das Nachtragen geht nie verloren.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fehler import UngueltigeEingabe
from .verteilung import slot

__all__ = ["GLOBAL", "LOKAL", "Katalog", "Suche"]

LOKAL = "lokal"
GLOBAL = "global"


@dataclass(frozen=True)
class Suche:
    """Die Antwort einer Suche: die gefundenen ``ids``, die gefragten Partitionen, welche Zeilen
    mit der Farbe der Index (noch) nicht kennt (``fehlt``) und welche er noch nennt, obwohl sie
    die Farbe nicht mehr haben (``zuviel``)."""

    farbe: str
    index: str
    ids: tuple[str, ...]
    gefragt: tuple[int, ...]
    fehlt: tuple[str, ...]
    zuviel: tuple[str, ...] = ()

    def __str__(self) -> str:
        gefunden = ", ".join(self.ids) or "nichts"
        text = (
            f"Suche farbe={self.farbe} ({self.index}er Index): {gefunden}; "
            f"gefragt: {len(self.gefragt)} Partition{'en' if len(self.gefragt) != 1 else ''} "
            f"({', '.join(f'P{p}' for p in self.gefragt)})"
        )
        if self.fehlt:
            text += f". Noch nicht im Index: {', '.join(self.fehlt)}"
        if self.zuviel:
            text += f". Nicht mehr {self.farbe}, aber noch im Index: {', '.join(self.zuviel)}"
        return text


class Katalog:
    """Zeilen ``id → farbe`` auf ``partitionen`` Partitionen, mit lokalem und globalem Index."""

    def __init__(self, partitionen: int = 4, verzoegerung: int = 3) -> None:
        if not 1 <= partitionen <= 16:
            raise UngueltigeEingabe(f"1 bis 16 Partitionen, nicht {partitionen}.")
        if not 0 <= verzoegerung <= 100:
            raise UngueltigeEingabe(f"Eine Verzögerung von 0 bis 100 Ticks, nicht {verzoegerung}.")
        self.partitionen = partitionen
        self.verzoegerung = verzoegerung
        self.jetzt = 0
        self.zeilen: list[dict[str, str]] = [{} for _ in range(partitionen)]
        self.lokal: list[dict[str, set[str]]] = [{} for _ in range(partitionen)]
        self.global_: list[dict[str, set[str]]] = [{} for _ in range(partitionen)]
        #: Global index updates on their way: (due tick, number, farbe, id, add?).
        self._unterwegs: list[tuple[int, int, str, str, bool]] = []
        self._nummer = 0

    def partition_der_zeile(self, id_: str) -> int:
        """Die Partition, auf der die Zeile ``id_`` liegt."""
        return slot(id_, self.partitionen)

    def partition_des_begriffs(self, farbe: str) -> int:
        """Die Partition, auf der der globale Index den Begriff ``farbe=…`` führt."""
        return slot(f"farbe={farbe}", self.partitionen)

    def farbe(self, id_: str) -> str | None:
        """Die Farbe der Zeile ``id_`` (``None``: gibt es nicht)."""
        return self.zeilen[self.partition_der_zeile(id_)].get(id_)

    def schreibe(self, id_: str, farbe: str) -> None:
        """Schreibt die Zeile; der lokale Index ändert sich sofort, der globale nach
        ``verzoegerung`` Ticks (erst das Entfernen des alten Begriffs, dann das Eintragen)."""
        if not id_ or not farbe:
            raise UngueltigeEingabe("Eine Zeile braucht eine id und eine Farbe.")
        p = self.partition_der_zeile(id_)
        alt = self.zeilen[p].get(id_)
        if alt == farbe:
            return
        self.zeilen[p][id_] = farbe
        if alt is not None:
            self.lokal[p][alt].discard(id_)
            self._spaeter(alt, id_, hinzu=False)
        self.lokal[p].setdefault(farbe, set()).add(id_)
        self._spaeter(farbe, id_, hinzu=True)

    def _spaeter(self, farbe: str, id_: str, *, hinzu: bool) -> None:
        self._nummer += 1
        self._unterwegs.append((self.jetzt + self.verzoegerung, self._nummer, farbe, id_, hinzu))
        self._trage_nach()

    def _trage_nach(self) -> None:
        faellig = sorted(u for u in self._unterwegs if u[0] <= self.jetzt)
        self._unterwegs = [u for u in self._unterwegs if u[0] > self.jetzt]
        for _, _, farbe, id_, hinzu in faellig:
            eintrag = self.global_[self.partition_des_begriffs(farbe)].setdefault(farbe, set())
            if hinzu:
                eintrag.add(id_)
            else:
                eintrag.discard(id_)

    def tick(self, n: int = 1) -> None:
        """Lässt ``n`` Ticks vergehen; fällige Einträge des globalen Index werden nachgetragen."""
        if n < 0:
            raise UngueltigeEingabe("Die Zeit läuft nicht rückwärts.")
        self.jetzt += n
        self._trage_nach()

    def unterwegs(self) -> int:
        """So viele Änderungen des globalen Index sind noch nicht nachgetragen."""
        return len(self._unterwegs)

    def suche(self, farbe: str, index: str = LOKAL) -> Suche:
        """Sucht alle Zeilen mit ``farbe`` über den lokalen oder den globalen Index."""
        if index == LOKAL:
            gefragt = tuple(range(self.partitionen))
            ids = set().union(*(self.lokal[p].get(farbe, set()) for p in gefragt))
        elif index == GLOBAL:
            p = self.partition_des_begriffs(farbe)
            gefragt = (p,)
            ids = set(self.global_[p].get(farbe, set()))
        else:
            raise UngueltigeEingabe(f"Einen Index „{index}“ gibt es nicht: {LOKAL} oder {GLOBAL}.")
        wahr = {i for zeilen in self.zeilen for i, f in zeilen.items() if f == farbe}
        return Suche(
            farbe,
            index,
            tuple(sorted(ids)),
            gefragt,
            tuple(sorted(wahr - ids)),
            tuple(sorted(ids - wahr)),
        )
