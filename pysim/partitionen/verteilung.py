"""Wie ein Schlüssel seinen Knoten findet: vier Arten, Daten auf Knoten zu verteilen.

- ``Modulo``: ``streuwert(schluessel) % n`` wählt den Knoten. Einfach, aber kommt ein Knoten
  dazu, ändert sich für fast jeden Schlüssel der Rest: Fast alles zieht um.
- ``Ring``: Konsistentes Hashing. Jeder Knoten setzt ``vknoten`` Marken (Tokens) auf einen Ring
  der Streuwerte; ein Schlüssel gehört dem Knoten der nächsten Marke im Uhrzeigersinn. Ein neuer
  Knoten übernimmt nur die Stücke vor seinen Marken: etwa 1/n der Schlüssel zieht um, und alle
  zu ihm (Cassandras Tokens und vnodes, Dynamo).
- ``Slots``: eine feste Zahl von Partitionen (Redis Cluster: 16384 Hash-Slots, CRC16 des
  Schlüssels); Knoten besitzen ganze Partitionen. Ein neuer Knoten bekommt ganze Partitionen von
  den anderen, kein Schlüssel wechselt die Partition (Redis Cluster, Kafka, Riak, Couchbase).
- ``Bereiche``: Schlüsselbereiche nach der Sortierung (``a`` bis ``h``, ``h`` bis ``p`` …);
  Knoten besitzen ganze Bereiche. Bereichsabfragen bleiben auf wenigen Partitionen, aber eine
  Folge von Schlüsseln (Zeitstempel, fortlaufende Nummern) trifft immer denselben Bereich
  (HBase, Bigtable, MongoDB mit Bereichs-Sharding).

Jede Verteilung ist unveränderlich: ``plus("n4")`` und ``ohne("n2")`` geben eine neue zurück, die
alte bleibt für den Vergleich. ``umzug(alt, neu, schluessel)`` sagt, welche Schlüssel von wem zu
wem ziehen. Alles ist deterministisch (kein ``hash()`` von Texten, der in Python je Prozess
anders ist): ``streuwert`` nimmt MD5 wie Cassandras ``RandomPartitioner``, ``slot`` die CRC16 von
Redis Cluster mit dessen Hash-Tags (``{user1}.name``).

Vereinfacht: Keine Replikation (jede Partition hat genau einen Knoten), keine Gewichte je
Knoten, und wie eine Partition beim Umzug ihre Daten kopiert, zählt hier nur als Bytes.
"""

from __future__ import annotations

import binascii
import hashlib
from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..fehler import UngueltigeEingabe

__all__ = [
    "REDIS_SLOTS",
    "STRATEGIEN",
    "Bereiche",
    "Modulo",
    "Ring",
    "Slots",
    "Umzug",
    "Verteilung",
    "hash_tag",
    "slot",
    "streuwert",
    "umzug",
]

#: Redis Cluster's number of hash slots (not configurable there).
REDIS_SLOTS = 16384
#: The ring's hash space: 64 bits of MD5.
RING_GROESSE = 2**64
#: At most so many nodes (a console and its picture stay readable).
MAX_KNOTEN = 12


def streuwert(text: str) -> int:
    """Ein 64-Bit-Streuwert von ``text``: die ersten 8 Bytes seines MD5, in jedem Prozess gleich."""
    return int.from_bytes(hashlib.md5(text.encode("utf-8")).digest()[:8], "big")


def hash_tag(schluessel: str) -> str:
    """Der Teil eines Schlüssels, der in Redis Cluster seinen Slot bestimmt: Steht zwischen der
    ersten ``{`` und der ersten ``}`` danach mindestens ein Zeichen, nur das; sonst alles."""
    auf = schluessel.find("{")
    if auf >= 0:
        zu = schluessel.find("}", auf + 1)
        if zu > auf + 1:
            return schluessel[auf + 1 : zu]
    return schluessel


def slot(schluessel: str, anzahl: int = REDIS_SLOTS) -> int:
    """Der Slot eines Schlüssels wie in Redis Cluster: CRC16 (XMODEM) seines Hash-Tags, modulo
    ``anzahl``. Mit 16384 ist das ``CLUSTER KEYSLOT``: ``slot("somekey") == 11058``."""
    return binascii.crc_hqx(hash_tag(schluessel).encode("utf-8"), 0) % anzahl


def _pruefe_knoten(knoten: Sequence[str]) -> tuple[str, ...]:
    liste = tuple(knoten)
    if not liste:
        raise UngueltigeEingabe("Ohne Knoten gibt es nichts zu verteilen: mindestens einer.")
    if len(liste) > MAX_KNOTEN:
        raise UngueltigeEingabe(f"Höchstens {MAX_KNOTEN} Knoten, nicht {len(liste)}.")
    doppelt = sorted({k for k in liste if liste.count(k) > 1})
    if doppelt:
        raise UngueltigeEingabe(f"Den Knoten {', '.join(doppelt)} gibt es schon.")
    return liste


class Verteilung(ABC):
    """Was jede Verteilung kann: ``besitzer``, ``partition``, ``plus``, ``ohne``."""

    #: The strategy's name, as the console and the lesson say it.
    NAME: str = ""

    def __init__(self, knoten: Sequence[str]) -> None:
        self.knoten = _pruefe_knoten(knoten)

    @abstractmethod
    def besitzer(self, schluessel: str) -> str:
        """Der Knoten, dem ``schluessel`` gehört."""

    @abstractmethod
    def partition(self, schluessel: str) -> str:
        """Wo ``schluessel`` liegt, in Worten: ``Slot 11058``, ``Rest 2``, ``Bereich h–p``."""

    @abstractmethod
    def plus(self, knoten: str) -> Verteilung:
        """Eine neue Verteilung, in der ``knoten`` dazukam."""

    @abstractmethod
    def ohne(self, knoten: str) -> Verteilung:
        """Eine neue Verteilung ohne ``knoten``; was ihm gehörte, übernehmen die anderen."""

    def _neuer(self, knoten: str) -> tuple[str, ...]:
        if knoten in self.knoten:
            raise UngueltigeEingabe(f"Den Knoten {knoten} gibt es schon.")
        return _pruefe_knoten((*self.knoten, knoten))

    def _ohne(self, knoten: str) -> tuple[str, ...]:
        if knoten not in self.knoten:
            raise UngueltigeEingabe(
                f"Einen Knoten {knoten} gibt es nicht. Es gibt: {', '.join(self.knoten)}."
            )
        if len(self.knoten) == 1:
            raise UngueltigeEingabe(f"{knoten} ist der letzte Knoten; ohne ihn bleibt nichts.")
        return tuple(k for k in self.knoten if k != knoten)

    def anteile(self, schluessel: Iterable[str]) -> dict[str, int]:
        """Wie viele der ``schluessel`` jedem Knoten gehören (jeder Knoten, auch mit 0)."""
        zahlen = dict.fromkeys(self.knoten, 0)
        for s in schluessel:
            zahlen[self.besitzer(s)] += 1
        return zahlen

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.knoten)!r})"


class Modulo(Verteilung):
    """``streuwert(schluessel) % n``: der Rest wählt den Knoten (in der Reihenfolge von ``knoten``)."""

    NAME = "modulo"

    def besitzer(self, schluessel: str) -> str:
        return self.knoten[streuwert(schluessel) % len(self.knoten)]

    def partition(self, schluessel: str) -> str:
        n = len(self.knoten)
        return f"Rest {streuwert(schluessel) % n} (Streuwert % {n})"

    def plus(self, knoten: str) -> Modulo:
        return Modulo(self._neuer(knoten))

    def ohne(self, knoten: str) -> Modulo:
        return Modulo(self._ohne(knoten))


class Ring(Verteilung):
    """Konsistentes Hashing: ``vknoten`` Marken je Knoten auf dem Ring der 64-Bit-Streuwerte.

    Die Marke ``i`` von ``n2`` liegt bei ``streuwert("n2#i")``; ein Schlüssel gehört dem Knoten
    der ersten Marke, die bei seinem Streuwert oder danach liegt (nach der letzten: der ersten).
    """

    NAME = "ring"

    def __init__(self, knoten: Sequence[str], vknoten: int = 8) -> None:
        super().__init__(knoten)
        if not 1 <= vknoten <= 256:
            raise UngueltigeEingabe(
                f"Ein Knoten hat 1 bis 256 virtuelle Knoten (Marken), nicht {vknoten}."
            )
        self.vknoten = vknoten
        marken = sorted((streuwert(f"{k}#{i}"), k) for k in self.knoten for i in range(vknoten))
        self._werte = [w for w, _ in marken]
        self._knoten = [k for _, k in marken]

    def marken(self) -> list[tuple[int, str]]:
        """Die Marken auf dem Ring, aufsteigend: ``(streuwert, knoten)``."""
        return list(zip(self._werte, self._knoten, strict=True))

    def _stelle(self, schluessel: str) -> int:
        return bisect_left(self._werte, streuwert(schluessel)) % len(self._werte)

    def besitzer(self, schluessel: str) -> str:
        return self._knoten[self._stelle(schluessel)]

    def partition(self, schluessel: str) -> str:
        i = self._stelle(schluessel)
        return f"vor Marke {self._werte[i] * 100 // RING_GROESSE} % des Rings ({self._knoten[i]})"

    def plus(self, knoten: str) -> Ring:
        return Ring(self._neuer(knoten), self.vknoten)

    def ohne(self, knoten: str) -> Ring:
        return Ring(self._ohne(knoten), self.vknoten)


class _Partitioniert(Verteilung):
    """Eine feste Zahl von Partitionen, jede ganz bei einem Knoten (``zuordnung``).

    Anfangs bekommt jeder Knoten einen zusammenhängenden Block. Kommt ein Knoten dazu, nimmt er
    den anderen so lange je eine Partition ab (immer dem, der gerade die meisten hat, und von dem
    die höchste), bis er so viele hat wie der Durchschnitt abgerundet; geht einer, bekommt seine
    Partitionen der Reihe nach der, der gerade die wenigsten hat. So zieht nur um, was muss.
    """

    def __init__(self, knoten: Sequence[str], anzahl: int, zuordnung: Sequence[str] | None) -> None:
        super().__init__(knoten)
        self.anzahl = anzahl
        if zuordnung is None:
            n = len(self.knoten)
            zuordnung = [self.knoten[i * n // anzahl] for i in range(anzahl)]
        self.zuordnung = tuple(zuordnung)

    @abstractmethod
    def nummer(self, schluessel: str) -> int:
        """Die Nummer der Partition von ``schluessel`` (0 bis ``anzahl - 1``)."""

    @abstractmethod
    def _mit(self, knoten: tuple[str, ...], zuordnung: list[str]) -> _Partitioniert: ...

    def besitzer(self, schluessel: str) -> str:
        return self.zuordnung[self.nummer(schluessel)]

    def partitionen_von(self, knoten: str) -> list[int]:
        """Die Partitionen, die ``knoten`` besitzt, aufsteigend."""
        return [i for i, k in enumerate(self.zuordnung) if k == knoten]

    def plus(self, knoten: str) -> _Partitioniert:
        alle = self._neuer(knoten)
        zuordnung = list(self.zuordnung)
        besitz: dict[str, list[int]] = {k: [] for k in self.knoten}
        for i, k in enumerate(zuordnung):
            besitz[k].append(i)
        for _ in range(self.anzahl // len(alle)):
            # the node with the most partitions gives its highest; ties: the first in order
            geber = max(self.knoten, key=lambda k: (len(besitz[k]), -self.knoten.index(k)))
            zuordnung[besitz[geber].pop()] = knoten
        return self._mit(alle, zuordnung)

    def ohne(self, knoten: str) -> _Partitioniert:
        rest = self._ohne(knoten)
        zuordnung = list(self.zuordnung)
        zahlen = {r: 0 for r in rest}
        for k in zuordnung:
            if k != knoten:
                zahlen[k] += 1
        for i, k in enumerate(zuordnung):
            if k == knoten:
                # the node with the fewest partitions takes the next; ties: the first in order
                nehmer = min(rest, key=lambda r: (zahlen[r], rest.index(r)))
                zuordnung[i] = nehmer
                zahlen[nehmer] += 1
        return self._mit(rest, zuordnung)


class Slots(_Partitioniert):
    """Feste Partitionen wie die Hash-Slots von Redis Cluster: ``slot(schluessel, anzahl)``."""

    NAME = "slots"

    def __init__(
        self,
        knoten: Sequence[str],
        anzahl: int = REDIS_SLOTS,
        zuordnung: Sequence[str] | None = None,
    ) -> None:
        if not 1 <= anzahl <= REDIS_SLOTS:
            raise UngueltigeEingabe(f"1 bis {REDIS_SLOTS} Slots, nicht {anzahl}.")
        super().__init__(knoten, anzahl, zuordnung)

    def nummer(self, schluessel: str) -> int:
        return slot(schluessel, self.anzahl)

    def partition(self, schluessel: str) -> str:
        return f"Slot {self.nummer(schluessel)}"

    def _mit(self, knoten: tuple[str, ...], zuordnung: list[str]) -> Slots:
        return Slots(knoten, self.anzahl, zuordnung)


class Bereiche(_Partitioniert):
    """Schlüsselbereiche: ``grenzen`` teilen die sortierten Schlüssel; Bereich ``i`` reicht von
    ``grenzen[i-1]`` (einschließlich) bis ``grenzen[i]`` (ausschließlich)."""

    NAME = "bereiche"

    def __init__(
        self,
        knoten: Sequence[str],
        grenzen: Sequence[str] = ("e", "i", "m", "r", "v"),
        zuordnung: Sequence[str] | None = None,
    ) -> None:
        liste = tuple(grenzen)
        if list(liste) != sorted(set(liste)):
            raise UngueltigeEingabe(
                "Die Grenzen der Bereiche müssen aufsteigend sortiert sein, ohne doppelte."
            )
        self.grenzen = liste
        super().__init__(knoten, len(liste) + 1, zuordnung)

    def nummer(self, schluessel: str) -> int:
        return bisect_right(self.grenzen, schluessel)

    def bereich(self, nummer: int) -> str:
        """Bereich ``nummer`` in Worten: ``h–p``, ``Anfang–e``, ``v–Ende``."""
        von = self.grenzen[nummer - 1] if nummer > 0 else "Anfang"
        bis = self.grenzen[nummer] if nummer < len(self.grenzen) else "Ende"
        return f"{von}–{bis}"

    def partition(self, schluessel: str) -> str:
        return f"Bereich {self.bereich(self.nummer(schluessel))}"

    def _mit(self, knoten: tuple[str, ...], zuordnung: list[str]) -> Bereiche:
        return Bereiche(knoten, self.grenzen, zuordnung)


#: The strategies by name, as the console's ``strategie`` option takes them.
STRATEGIEN: dict[str, type[Verteilung]] = {
    Modulo.NAME: Modulo,
    Ring.NAME: Ring,
    Slots.NAME: Slots,
    Bereiche.NAME: Bereiche,
}


@dataclass(frozen=True)
class Umzug:
    """Was sich zwischen zwei Verteilungen ändert: ``bewegt`` je Schlüssel ``(von, nach)``."""

    bewegt: dict[str, tuple[str, str]]
    schluessel: int
    bytes: int

    @property
    def anzahl(self) -> int:
        """So viele Schlüssel ziehen um."""
        return len(self.bewegt)

    @property
    def anteil(self) -> float:
        """Der Anteil der Schlüssel, die umziehen (0 bis 1)."""
        return self.anzahl / self.schluessel if self.schluessel else 0.0

    def wege(self) -> dict[tuple[str, str], int]:
        """Je Weg ``(von, nach)`` die Zahl der Schlüssel, sortiert nach Weg."""
        zahlen: dict[tuple[str, str], int] = {}
        for weg in self.bewegt.values():
            zahlen[weg] = zahlen.get(weg, 0) + 1
        return dict(sorted(zahlen.items()))

    def __str__(self) -> str:
        if not self.bewegt:
            return f"Kein Schlüssel zieht um (von {self.schluessel})."
        wege = ", ".join(f"{a} → {b}: {n}" for (a, b), n in self.wege().items())
        prozent = round(100 * self.anteil)
        return (
            f"{self.anzahl} von {self.schluessel} Schlüsseln ziehen um ({prozent} %), "
            f"{self.bytes} Bytes: {wege}"
        )


def umzug(alt: Verteilung, neu: Verteilung, schluessel: Mapping[str, str] | Iterable[str]) -> Umzug:
    """Welche der ``schluessel`` zwischen ``alt`` und ``neu`` den Knoten wechseln. Ist
    ``schluessel`` ein dict (Schlüssel → Wert), zählen die Bytes von Schlüssel und Wert."""
    werte: Mapping[str, str] = (
        schluessel if isinstance(schluessel, Mapping) else dict.fromkeys(schluessel, "")
    )
    bewegt: dict[str, tuple[str, str]] = {}
    groesse = 0
    for s, w in werte.items():
        a, b = alt.besitzer(s), neu.besitzer(s)
        if a != b:
            bewegt[s] = (a, b)
            groesse += len(s.encode("utf-8")) + len(w.encode("utf-8"))
    return Umzug(bewegt, len(werte), groesse)
