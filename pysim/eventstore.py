"""Ein Event-Store: Event Sourcing und CQRS im Kleinen.

- Ein **Stream** ist der Verlauf einer Sache (``konto-1``, ``produkt-7``). Jedes Ereignis darin
  bekommt die nächste **Version** (1, 2, 3, …) und eine fortlaufende **Position** im ganzen Store.
- ``append(stream, ereignisse, expected_version=n)`` schreibt nur, wenn der Stream noch bei
  Version ``n`` steht (optimistische Nebenläufigkeit). Sonst: ``VersionsKonflikt``.
- Eine **Projektion** faltet Ereignisse zu einem Zustand: Bestand = Summe der Änderungen,
  Kontostand = Einzahlungen − Auszahlungen. ``zustand`` rechnet ihn für jetzt, eine frühere
  Version oder einen früheren Tick aus, ``verlauf`` zeigt ihn nach jedem Ereignis.
- Ein **Snapshot** merkt sich einen fertigen Zustand, damit nicht jedes Mal alles gefaltet wird.
- Ein **Projektor** füllt ein Lesemodell (Read Model) asynchron: erst wenn er läuft
  (``step``/``run`` oder nach ``verzoegerung`` Ticks), sieht eine Abfrage das neue Ereignis.
  So hinkt die Abfrage dem Befehl hinterher und holt dann auf (Eventual Consistency).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .eingefroren import einfrieren, felder_fest
from .fehler import (
    UnbekannterStream,
    UngueltigeEingabe,
    UnveraenderlichFehler,
    VersionsKonflikt,
    nachschlagen,
    pruefe_ganzzahl,
    pruefe_name,
)
from .zeit import AufDerZeit, Zeit

UNVERAENDERLICH = (
    "Ereignisse sind unveränderlich: Sie sind schon geschehen. "
    "Eine Korrektur ist ein neues Ereignis, das mit append angehängt wird."
)


@felder_fest(UNVERAENDERLICH)
@dataclass(frozen=True, slots=True)
class Event:
    """Ein gespeichertes Ereignis (unveränderlich)."""

    stream: str
    version: int
    position: int
    zeit: int
    daten: Any

    def __repr__(self) -> str:
        return f"Event({self.stream} v{self.version} t={self.zeit} {self.daten!r})"


@dataclass(frozen=True)
class Projektion:
    """Wie aus Ereignissen ein Zustand wird: ``start`` und ``falte(zustand, daten) -> zustand``."""

    name: str
    start: Any
    falte: Callable[[Any, Any], Any]

    def anwenden(
        self, ereignisse: Sequence[Event], zustand: Any = None, ab_start: bool = True
    ) -> Any:
        """Faltet die Ereignisse, beginnend bei ``start`` (oder bei ``zustand``)."""
        z = copy.deepcopy(self.start) if ab_start else zustand
        for e in ereignisse:
            z = self.falte(z, e.daten)
        return z

    def __repr__(self) -> str:
        return f"Projektion(„{self.name}“, Start {self.start!r})"


def _bestand(stand: int, daten: Any) -> int:
    if not isinstance(daten, dict) or "change" not in daten:
        raise UngueltigeEingabe(
            f"Der Bestand braucht Ereignisse mit „change“, z. B. {{'change': -4}}, nicht {daten!r}."
        )
    neu: int = stand + daten["change"]
    return neu


def _kontostand(stand: int, daten: Any) -> int:
    typ = daten.get("typ") if isinstance(daten, dict) else None
    if typ == "einzahlung":
        neu: int = stand + daten["betrag"]
        return neu
    if typ == "auszahlung":
        neu = stand - daten["betrag"]
        return neu
    raise UngueltigeEingabe(
        f"Der Kontostand kennt die Typen „einzahlung“ und „auszahlung“, nicht {typ!r}."
    )


#: Bestand eines Produkts: Summe von ``change`` (z. B. ``{"product": 7, "change": -4}``).
bestand = Projektion("Bestand", 0, _bestand)

#: Kontostand: ``{"typ": "einzahlung", "betrag": 100}`` minus ``{"typ": "auszahlung", …}``.
kontostand = Projektion("Kontostand", 0, _kontostand)


@dataclass(frozen=True)
class Snapshot:
    """Ein gemerkter Zustand eines Streams nach einer Version."""

    stream: str
    projektion: str
    version: int
    zustand: Any

    def __repr__(self) -> str:
        return (
            f"Snapshot({self.stream}, „{self.projektion}“ nach Version {self.version}: "
            f"{self.zustand!r})"
        )


@dataclass(frozen=True)
class Rekonstruktion:
    """Ein Zustand und wie er entstand: ab welchem Snapshot, wie viele Ereignisse gefaltet."""

    zustand: Any
    version: int
    snapshot_version: int | None
    gefaltet: int

    def __repr__(self) -> str:
        basis = (
            f"ab Snapshot nach Version {self.snapshot_version}"
            if self.snapshot_version is not None
            else "ab Start"
        )
        return (
            f"Rekonstruktion(Version {self.version}: {self.zustand!r}, {basis}, "
            f"{self.gefaltet} Ereignisse gefaltet)"
        )


class EventStore(AufDerZeit):
    """Streams von Ereignissen mit Versionen."""

    def __init__(self, zeit: Zeit | None = None) -> None:
        self.zeit = zeit if zeit is not None else Zeit()
        self._streams: dict[str, list[Event]] = {}
        self._alle: list[Event] = []
        self._snapshots: dict[tuple[str, str], list[Snapshot]] = {}
        self._abonnenten: list[Callable[[list[Event]], None]] = []

    # --- Schreiben ---

    def append(
        self, stream: str, events: Sequence[Any], expected_version: int | None = None
    ) -> int:
        """Hängt Ereignisse an einen Stream und gibt die neue Version zurück.

        ``expected_version``: die Version, bei der der Stream stehen muss (0 = neuer Stream).
        ``None`` prüft nichts. Steht er woanders, wird nichts geschrieben (``VersionsKonflikt``).
        """
        pruefe_name(stream, "Der Name des Streams")
        if isinstance(events, str | bytes | dict) or not isinstance(events, Sequence):
            raise UngueltigeEingabe(
                "append erwartet eine Liste von Ereignissen, z. B. "
                "[{'typ': 'einzahlung', 'betrag': 100}], auch für ein einzelnes Ereignis."
            )
        if not events:
            raise UngueltigeEingabe("append braucht mindestens ein Ereignis.")
        aktuell = self.version(stream)
        if expected_version is not None:
            pruefe_ganzzahl(expected_version, "expected_version", 0)
            if expected_version != aktuell:
                wie = "ist noch leer" if aktuell == 0 else f"steht aber bei Version {aktuell}"
                raise VersionsKonflikt(
                    f"Konflikt im Stream „{stream}“: erwartet war Version {expected_version}, "
                    f"der Stream {wie}. Jemand anderes hat inzwischen geschrieben. Lies den "
                    f"Stream neu, prüfe die Entscheidung und versuche es mit "
                    f"expected_version={aktuell}."
                )
        daten = [einfrieren(e) for e in events]
        neu = [
            Event(stream, aktuell + i + 1, len(self._alle) + i, self.zeit.now, d)
            for i, d in enumerate(daten)
        ]
        self._streams.setdefault(stream, []).extend(neu)
        self._alle.extend(neu)
        for abonnent in self._abonnenten:
            abonnent(neu)
        return aktuell + len(neu)

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Gibt es nicht: Ereignisse ändern sich nie. Löst immer einen Fehler aus."""
        raise UnveraenderlichFehler(UNVERAENDERLICH)

    def delete(self, *args: Any, **kwargs: Any) -> None:
        """Gibt es nicht: Ereignisse werden nicht gelöscht. Löst immer einen Fehler aus."""
        raise UnveraenderlichFehler(UNVERAENDERLICH)

    # --- Lesen ---

    def version(self, stream: str) -> int:
        """Die aktuelle Version eines Streams (0, wenn er noch leer ist)."""
        return len(self._streams.get(stream, ()))

    def streams(self) -> list[str]:
        """Die Namen aller Streams, sortiert."""
        return sorted(self._streams)

    def read(
        self, stream: str, from_version: int = 1, to_version: int | None = None
    ) -> list[Event]:
        """Die Ereignisse eines Streams von ``from_version`` bis einschließlich ``to_version``."""
        ereignisse = self._stream(stream)
        pruefe_ganzzahl(from_version, "from_version", 1)
        if to_version is not None:
            pruefe_ganzzahl(to_version, "to_version", 0)
        return ereignisse[from_version - 1 : to_version]

    def read_all(self, from_position: int = 0) -> list[Event]:
        """Alle Ereignisse aller Streams in der Reihenfolge, in der sie geschrieben wurden."""
        pruefe_ganzzahl(from_position, "from_position", 0)
        return self._alle[from_position:]

    def _stream(self, stream: str) -> list[Event]:
        return nachschlagen(
            self._streams,
            stream,
            UnbekannterStream,
            "Den Stream",
            "Streams",
            warum=" (noch kein Ereignis)",
        )

    # --- Projektionen ---

    def _bis_version(self, stream: str, version: int | None, zeit: int | None) -> int:
        ereignisse = self._stream(stream)
        if version is not None and zeit is not None:
            raise UngueltigeEingabe("Gib entweder version oder zeit an, nicht beides.")
        if version is not None:
            pruefe_ganzzahl(version, "version", 0)
            if version > len(ereignisse):
                raise UngueltigeEingabe(
                    f"Der Stream „{stream}“ hat erst Version {len(ereignisse)}, nicht {version}."
                )
            return version
        if zeit is not None:
            pruefe_ganzzahl(zeit, "zeit")
            return sum(1 for e in ereignisse if e.zeit <= zeit)
        return len(ereignisse)

    def rekonstruiere(
        self,
        stream: str,
        projektion: Projektion,
        version: int | None = None,
        zeit: int | None = None,
    ) -> Rekonstruktion:
        """Der Zustand nach ``version`` (oder am Tick ``zeit``, oder jetzt), mit Herkunft.

        Gibt es einen passenden Snapshot, wird nur ab ihm gefaltet.
        """
        bis = self._bis_version(stream, version, zeit)
        basis: Snapshot | None = None
        for s in self._snapshots.get((stream, projektion.name), []):
            if s.version <= bis:
                basis = s
        ereignisse = self._streams[stream]
        if basis is None:
            zustand = projektion.anwenden(ereignisse[:bis])
            return Rekonstruktion(zustand, bis, None, bis)
        zustand = projektion.anwenden(
            ereignisse[basis.version : bis], copy.deepcopy(basis.zustand), ab_start=False
        )
        return Rekonstruktion(zustand, bis, basis.version, bis - basis.version)

    def zustand(
        self,
        stream: str,
        projektion: Projektion,
        version: int | None = None,
        zeit: int | None = None,
    ) -> Any:
        """Der Zustand eines Streams jetzt, nach einer Version oder an einem früheren Tick."""
        return self.rekonstruiere(stream, projektion, version, zeit).zustand

    def verlauf(self, stream: str, projektion: Projektion) -> list[tuple[int, Any]]:
        """``[(version, zustand), …]``: der Zustand nach jedem Ereignis."""
        zustand = copy.deepcopy(projektion.start)
        ergebnis = []
        for e in self._stream(stream):
            zustand = projektion.falte(zustand, e.daten)
            ergebnis.append((e.version, copy.deepcopy(zustand)))
        return ergebnis

    def snapshot(self, stream: str, projektion: Projektion) -> Snapshot:
        """Merkt sich den aktuellen Zustand; spätere Rekonstruktionen beginnen dort."""
        r = self.rekonstruiere(stream, projektion)
        s = Snapshot(stream, projektion.name, r.version, copy.deepcopy(r.zustand))
        liste = self._snapshots.setdefault((stream, projektion.name), [])
        if not liste or liste[-1].version != s.version:
            liste.append(s)
        return s

    def snapshots(self, stream: str) -> list[Snapshot]:
        """Die gemerkten Snapshots eines Streams."""
        self._stream(stream)
        return [
            s
            for (name, _), liste in sorted(self._snapshots.items())
            if name == stream
            for s in liste
        ]

    def _abonnieren(self, abonnent: Callable[[list[Event]], None]) -> None:
        self._abonnenten.append(abonnent)

    def __repr__(self) -> str:
        zeilen = [
            f"EventStore t={self.zeit.now}: {len(self._streams)} Streams, "
            f"{len(self._alle)} Ereignisse"
        ]
        for name in self.streams():
            zeilen.append(f"  {name}: Version {len(self._streams[name])}")
        return "\n".join(zeilen)


class Projektor:
    """Füllt ein Lesemodell aus dem Store, asynchron: nur wenn er läuft.

    - ``step()`` verarbeitet das nächste ausstehende Ereignis, ``run()`` alle.
    - Mit ``verzoegerung=n`` verarbeitet er jedes Ereignis von selbst, ``n`` Ticks nachdem es
      geschrieben wurde (``store.tick(n)``).
    - ``abfrage(stream)`` liest das Lesemodell: Was der Projektor noch nicht gesehen hat, fehlt.
    - ``praefix``: nur Streams, deren Name so beginnt (z. B. ``"konto-"``); andere überspringt er.
    """

    def __init__(
        self,
        store: EventStore,
        projektion: Projektion,
        verzoegerung: int | None = None,
        praefix: str = "",
    ) -> None:
        if verzoegerung is not None:
            pruefe_ganzzahl(verzoegerung, "verzoegerung", 0)
        if not isinstance(praefix, str):
            raise UngueltigeEingabe(f"praefix muss ein Text sein, nicht {praefix!r}.")
        self.store = store
        self.projektion = projektion
        self.verzoegerung = verzoegerung
        self.praefix = praefix
        self.position = 0  # wie viele Ereignisse des Stores verarbeitet sind
        self._lesemodell: dict[str, Any] = {}
        if verzoegerung is not None:
            store._abonnieren(self._geschrieben)

    def _geschrieben(self, neu: list[Event]) -> None:
        assert self.verzoegerung is not None
        self.store.zeit.schedule(self.verzoegerung, self._bis, neu[-1].position + 1)

    def _bis(self, position: int) -> None:
        while self.position < position:
            self.step()

    @property
    def rueckstand(self) -> int:
        """Wie viele geschriebene Ereignisse der Projektor noch nicht verarbeitet hat."""
        return len(self.store._alle) - self.position

    def step(self) -> Event | None:
        """Verarbeitet das nächste Ereignis; ``None``, wenn nichts aussteht."""
        if self.position >= len(self.store._alle):
            return None
        e = self.store._alle[self.position]
        if e.stream.startswith(self.praefix):
            alt = self._lesemodell.get(e.stream, copy.deepcopy(self.projektion.start))
            self._lesemodell[e.stream] = self.projektion.falte(alt, e.daten)
        self.position += 1
        return e

    def run(self) -> int:
        """Verarbeitet alles Ausstehende; gibt zurück, wie viele Ereignisse es waren."""
        n = 0
        while self.step() is not None:
            n += 1
        return n

    def abfrage(self, stream: str) -> Any:
        """Der Zustand im Lesemodell (Start, wenn der Projektor den Stream noch nicht kennt)."""
        return copy.deepcopy(self._lesemodell.get(stream, self.projektion.start))

    @property
    def lesemodell(self) -> dict[str, Any]:
        """Eine Kopie des ganzen Lesemodells, nach Stream sortiert."""
        return {k: copy.deepcopy(self._lesemodell[k]) for k in sorted(self._lesemodell)}

    def __repr__(self) -> str:
        return (
            f"Projektor(„{self.projektion.name}“: {self.position} verarbeitet, "
            f"Rückstand {self.rueckstand})"
        )
