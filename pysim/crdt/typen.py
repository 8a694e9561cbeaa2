"""Zustandsbasierte CRDTs (state-based, CvRDT): Datentypen, die sich ohne Absprache vereinigen.

Jedes Replikat ändert seinen Zustand nur lokal (``erhoehe``, ``setze``, ``hinzufuegen``, …) und
schickt ihn irgendwann an die anderen. Wer einen Zustand bekommt, vereinigt ihn mit ``merge``
mit dem eigenen. ``merge`` ist kommutativ (``a.merge(b) == b.merge(a)``), assoziativ
(``a.merge(b).merge(c) == a.merge(b.merge(c))``) und idempotent (``a.merge(a) == a``): Reihenfolge
und Duplikate der Zustellung ändern das Ergebnis nicht. Die Typen und ihre Namen folgen Shapiro,
Preguiça, Baquero und Zawirski, „A comprehensive study of Convergent and Commutative Replicated
Data Types“ (INRIA RR-7506, 2011):

- ``GCounter``: ein Zähler, der nur wächst (je Replikat ein Eintrag, ``merge`` nimmt je Eintrag
  das Maximum, der Wert ist die Summe),
- ``PNCounter``: zwei G-Counter, einer für Plus, einer für Minus,
- ``LWWRegister``: ein Register, in dem der größte Zeitstempel gewinnt (bei Gleichstand der
  größere Name des Replikats),
- ``MVRegister``: ein Register, das gleichzeitige Werte nebeneinander behält
  (Versionsvektoren),
- ``ORSet``: eine Menge, in der ein gleichzeitiges Hinzufügen ein Entfernen schlägt (add wins);
  jedes Hinzufügen bekommt eine eindeutige Marke, ein Entfernen löscht nur die Marken, die es
  gesehen hat. Die gelöschten Marken bleiben als Tombstones im Zustand.

``merge`` verändert keinen der beiden Zustände, sondern gibt einen neuen zurück, der dem
Replikat von ``self`` gehört. ``==`` vergleicht nur die Zustände, nicht, wem sie gehören.
Vereinfachung des Kurses: Ein Replikat schickt immer seinen ganzen Zustand, keine Deltas.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any, ClassVar, TypeVar

from ..fehler import UngueltigeEingabe, pruefe_ganzzahl, pruefe_name

__all__ = [
    "TYPEN",
    "Crdt",
    "GCounter",
    "LWWRegister",
    "MVRegister",
    "ORSet",
    "PNCounter",
    "kurz_wert",
]

C = TypeVar("C", bound="Crdt")

Marke = tuple[str, int]  # (Replikat, laufende Nummer): die Identität eines Hinzufügens


def _sortiert(werte: Iterable[Any]) -> list[Any]:
    """Eine feste Reihenfolge für beliebige Werte (gleich in CPython und Pyodide)."""
    return sorted(werte, key=lambda w: (type(w).__name__, repr(w)))


def _text(wert: Any) -> str:
    return wert if isinstance(wert, str) else repr(wert)


class Crdt:
    """Die gemeinsame Form aller Typen: ``knoten`` (wem der Zustand gehört), ``merge``, ``wert``."""

    #: Die Methoden, die den Zustand lokal ändern (ein ``Replikat`` schreibt sie in den Verlauf).
    OPERATIONEN: ClassVar[tuple[str, ...]] = ()
    #: Der Name des Typs in Meldungen.
    NAME: ClassVar[str] = "CRDT"

    def __init__(self, knoten: str) -> None:
        self.knoten = pruefe_name(knoten, "Der Name des Replikats (knoten)")

    def zustand(self) -> Hashable:
        """Der ganze Zustand als unveränderlicher, vergleichbarer Wert."""
        raise NotImplementedError

    @property
    def wert(self) -> Any:
        """Was ein Leser sieht."""
        raise NotImplementedError

    def merge(self: C, andere: C) -> C:
        """Vereinigt zwei Zustände zu einem neuen; beide bleiben unverändert."""
        raise NotImplementedError

    def kopie(self: C) -> C:
        """Ein unabhängiger Abzug des Zustands (das, was über das Netz geht)."""
        return self.merge(self)

    def __deepcopy__(self: C, memo: dict[int, Any]) -> C:
        # What the cluster's network does to a state in a message (``nachricht.kopie``):
        # ``kopie`` builds the independent state directly, at a fraction of deepcopy's cost.
        return self.kopie()

    def uebernimm(self, andere: Crdt) -> None:
        """Vereinigt ``andere`` in diesen Zustand (``self = self.merge(andere)``)."""
        neu = self.merge(andere)
        self.__dict__.update(neu.__dict__)
        self.knoten = neu.knoten

    def _pruefe_partner(self, andere: object) -> None:
        if type(andere) is not type(self):
            art = type(andere).__name__
            raise UngueltigeEingabe(
                f"Ein {self.NAME} lässt sich nur mit einem {self.NAME} zusammenführen "
                f"(merge), nicht mit {art}."
            )

    def __eq__(self, andere: object) -> bool:
        if type(andere) is not type(self):
            return NotImplemented
        assert isinstance(andere, Crdt)
        return self.zustand() == andere.zustand()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.zustand()))


# --- Zähler ---


class GCounter(Crdt):
    """Grow-only Counter: je Replikat ein Zähler, der nur wächst.

    ``erhoehe(n)`` zählt den Eintrag des eigenen Replikats hoch. ``merge`` nimmt je Replikat das
    Maximum; ``wert`` ist die Summe aller Einträge.
    """

    OPERATIONEN = ("erhoehe",)
    NAME = "GCounter"

    def __init__(self, knoten: str, eintraege: Mapping[str, int] | None = None) -> None:
        super().__init__(knoten)
        self._eintraege: dict[str, int] = {}
        for name, n in (eintraege or {}).items():
            pruefe_name(name, "Der Name eines Replikats")
            pruefe_ganzzahl(n, f"Der Eintrag von {name}", 0)
            if n:
                self._eintraege[name] = n

    def erhoehe(self, n: int = 1) -> None:
        """Zählt den eigenen Eintrag um ``n`` (ab 1) hoch."""
        if isinstance(n, int) and not isinstance(n, bool) and n < 1:
            raise UngueltigeEingabe(
                f"Ein GCounter wächst nur: erhoehe braucht eine ganze Zahl ab 1, nicht {n}. "
                "Zum Abziehen gibt es den PNCounter."
            )
        pruefe_ganzzahl(n, "erhoehe", 1)
        self._eintraege[self.knoten] = self._eintraege.get(self.knoten, 0) + n

    @property
    def eintraege(self) -> dict[str, int]:
        """Je Replikat sein Eintrag (Replikate mit 0 fehlen), nach Namen sortiert."""
        return dict(sorted(self._eintraege.items()))

    @property
    def wert(self) -> int:
        return sum(self._eintraege.values())

    def merge(self, andere: GCounter) -> GCounter:
        self._pruefe_partner(andere)
        neu = dict(self._eintraege)
        for name, n in andere._eintraege.items():
            neu[name] = max(neu.get(name, 0), n)
        return GCounter(self.knoten, neu)

    def zustand(self) -> Hashable:
        return tuple(sorted(self._eintraege.items()))

    def __repr__(self) -> str:
        teile = ", ".join(f"{k}: {n}" for k, n in self.eintraege.items())
        return f"GCounter({self.knoten}, {{{teile}}}, wert={self.wert})"


class PNCounter(Crdt):
    """Positive-Negative Counter: ein ``GCounter`` für Plus (``p``), einer für Minus (``n``).

    ``wert`` ist ``p.wert - n.wert``; ``merge`` vereinigt beide Hälften für sich.
    """

    OPERATIONEN = ("erhoehe", "verringere")
    NAME = "PNCounter"

    def __init__(
        self,
        knoten: str,
        plus: Mapping[str, int] | None = None,
        minus: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(knoten)
        self.p = GCounter(knoten, plus)
        self.n = GCounter(knoten, minus)

    def erhoehe(self, n: int = 1) -> None:
        """Zählt um ``n`` (ab 1) hoch."""
        pruefe_ganzzahl(n, "erhoehe", 1)
        self.p.erhoehe(n)

    def verringere(self, n: int = 1) -> None:
        """Zählt um ``n`` (ab 1) herunter: ein Eintrag im Minus-Zähler, nie ein kleinerer."""
        pruefe_ganzzahl(n, "verringere", 1)
        self.n.erhoehe(n)

    @property
    def wert(self) -> int:
        return self.p.wert - self.n.wert

    def merge(self, andere: PNCounter) -> PNCounter:
        self._pruefe_partner(andere)
        return PNCounter(
            self.knoten,
            self.p.merge(andere.p).eintraege,
            self.n.merge(andere.n).eintraege,
        )

    def zustand(self) -> Hashable:
        return (self.p.zustand(), self.n.zustand())

    def __repr__(self) -> str:
        plus = ", ".join(f"{k}: {n}" for k, n in self.p.eintraege.items())
        minus = ", ".join(f"{k}: {n}" for k, n in self.n.eintraege.items())
        return f"PNCounter({self.knoten}, plus {{{plus}}}, minus {{{minus}}}, wert={self.wert})"


# --- Register ---


class LWWRegister(Crdt):
    """Last-Writer-Wins-Register: Der Wert mit dem größten Zeitstempel gilt.

    ``setze(wert, zeit=None)``: Ohne ``zeit`` nimmt das Register einen Zeitstempel, der größer ist
    als alles, was es gesehen hat (wie eine Lamport-Uhr). Mit ``zeit`` zählt der mitgegebene
    Stempel (die Uhr des Schreibers, wie in Lektion 6); ist er kleiner als der gespeicherte, gilt
    der neue Wert nicht, nicht einmal im eigenen Replikat. Bei gleichem Stempel gewinnt der
    größere Name des Replikats, dann der größere ``repr`` des Werts, damit ``merge`` immer
    eindeutig ist.
    """

    OPERATIONEN = ("setze",)
    NAME = "LWWRegister"

    def __init__(
        self, knoten: str, wert: Any = None, zeit: int = 0, von: str | None = None
    ) -> None:
        super().__init__(knoten)
        self._wert = wert
        self.zeit = pruefe_ganzzahl(zeit, "Der Zeitstempel (zeit)", 0)
        self.von = pruefe_name(von, "Der Schreiber (von)") if von is not None else ""

    def _schluessel(self) -> tuple[int, str, str]:
        return (self.zeit, self.von, repr(self._wert))

    def setze(self, wert: Any, zeit: int | None = None) -> None:
        """Schreibt ``wert`` mit dem Zeitstempel ``zeit`` (ohne: größer als alles Gesehene)."""
        stempel = self.zeit + 1 if zeit is None else pruefe_ganzzahl(zeit, "zeit", 1)
        neu = LWWRegister(self.knoten, wert, stempel, self.knoten)
        if neu._schluessel() > self._schluessel():
            self._wert, self.zeit, self.von = wert, stempel, self.knoten

    @property
    def wert(self) -> Any:
        return self._wert

    def merge(self, andere: LWWRegister) -> LWWRegister:
        self._pruefe_partner(andere)
        sieger = self if self._schluessel() >= andere._schluessel() else andere
        return LWWRegister(self.knoten, sieger._wert, sieger.zeit, sieger.von or None)

    def zustand(self) -> Hashable:
        return self._schluessel()

    def __repr__(self) -> str:
        if not self.von:
            return f"LWWRegister({self.knoten}, leer)"
        return (
            f"LWWRegister({self.knoten}, wert={self._wert!r}, "
            f"Zeitstempel {self.zeit} von {self.von})"
        )


Vektor = tuple[tuple[str, int], ...]


def _unveraenderlich(wert: Any, satz: str) -> None:
    """Refuses a value that cannot be hashed: a set keeps it, a dict would not stay the same."""
    try:
        hash(wert)
    except TypeError:
        raise UngueltigeEingabe(
            f"{satz} (Text, Zahl, Tupel), nicht {type(wert).__name__}."
        ) from None


def _vektor(v: Mapping[str, int]) -> Vektor:
    return tuple(sorted((k, n) for k, n in v.items() if n))


def _enthalten(a: Vektor, b: Vektor) -> bool:
    """Ist ``a`` kleiner oder gleich ``b`` (jeder Eintrag)?"""
    bb = dict(b)
    return all(n <= bb.get(k, 0) for k, n in a)


class MVRegister(Crdt):
    """Multi-Value-Register: gleichzeitige Werte bleiben nebeneinander stehen.

    Jeder Wert trägt einen Versionsvektor. ``setze`` ersetzt alle Werte, die das Replikat kennt
    (sein neuer Vektor enthält ihre). ``merge`` behält jeden Wert, dessen Vektor kein anderer
    echt enthält: Zwei gleichzeitige Schreibvorgänge ergeben zwei Werte (wie die Geschwister
    des ``VersionsSpeicher`` in Lektion 6). ``werte`` zeigt sie in fester Reihenfolge.
    """

    OPERATIONEN = ("setze",)
    NAME = "MVRegister"

    def __init__(
        self, knoten: str, eintraege: Iterable[tuple[Any, Mapping[str, int]]] = ()
    ) -> None:
        super().__init__(knoten)
        self._eintraege: frozenset[tuple[Any, Vektor]] = _ungeschlagen(
            (w, _vektor(v)) for w, v in eintraege
        )

    def setze(self, wert: Any) -> None:
        """Schreibt ``wert``; er ersetzt alle Werte, die dieses Replikat gerade sieht."""
        _unveraenderlich(wert, "Ein MVRegister speichert nur unveränderliche Werte")
        neu: dict[str, int] = {}
        for _, v in self._eintraege:
            for k, n in v:
                neu[k] = max(neu.get(k, 0), n)
        neu[self.knoten] = neu.get(self.knoten, 0) + 1
        self._eintraege = frozenset({(wert, _vektor(neu))})

    @property
    def werte(self) -> list[Any]:
        """Alle Werte, die gerade gelten (mehr als einer: gleichzeitig geschrieben)."""
        return _sortiert(w for w, _ in self._eintraege)

    @property
    def wert(self) -> list[Any]:
        return self.werte

    @property
    def versionen(self) -> list[tuple[Any, dict[str, int]]]:
        """Jeder Wert mit seinem Versionsvektor."""
        return [(w, dict(v)) for w, v in sorted(self._eintraege, key=lambda e: (repr(e[0]), e[1]))]

    def merge(self, andere: MVRegister) -> MVRegister:
        self._pruefe_partner(andere)
        neu = MVRegister(self.knoten)
        neu._eintraege = _ungeschlagen(self._eintraege | andere._eintraege)
        return neu

    def zustand(self) -> Hashable:
        return self._eintraege

    def __repr__(self) -> str:
        teile = ", ".join(
            f"{w!r} {{{', '.join(f'{k}: {n}' for k, n in v.items())}}}" for w, v in self.versionen
        )
        return f"MVRegister({self.knoten}, [{teile}])"


def _ungeschlagen(eintraege: Iterable[tuple[Any, Vektor]]) -> frozenset[tuple[Any, Vektor]]:
    """Die Einträge, deren Vektor kein anderer echt enthält."""
    alle = set(eintraege)
    return frozenset(
        (w, v) for w, v in alle if not any(u != v and _enthalten(v, u) for _, u in alle)
    )


# --- Menge ---


class ORSet(Crdt):
    """Observed-Remove-Set, add wins.

    ``hinzufuegen(e)`` legt ``e`` mit einer neuen Marke ``(knoten, nummer)`` an. ``entfernen(e)``
    legt jede Marke von ``e``, die dieses Replikat gerade sieht, zu den Grabsteinen
    (Tombstones). ``e`` ist in der Menge, solange es eine Marke ohne Grabstein hat. ``merge``
    vereinigt Marken und Grabsteine. Ein gleichzeitiges Hinzufügen hat eine Marke, die das
    Entfernen nicht sah: Es gewinnt. Ein Entfernen eines Elements, das nicht da ist, ändert
    nichts.
    """

    OPERATIONEN = ("hinzufuegen", "entfernen")
    NAME = "ORSet"

    def __init__(
        self,
        knoten: str,
        marken: Iterable[tuple[Hashable, Marke]] = (),
        grabsteine: Iterable[Marke] = (),
    ) -> None:
        super().__init__(knoten)
        self._marken: frozenset[tuple[Hashable, Marke]] = frozenset(marken)
        self._grabsteine: frozenset[Marke] = frozenset(grabsteine)

    def hinzufuegen(self, element: Hashable) -> None:
        """Fügt ``element`` mit einer neuen, eindeutigen Marke hinzu."""
        _unveraenderlich(element, "Ein ORSet speichert nur unveränderliche Elemente")
        eigene = [n for _, (k, n) in self._marken if k == self.knoten]
        marke = (self.knoten, max(eigene, default=0) + 1)
        self._marken = self._marken | {(element, marke)}

    def entfernen(self, element: Hashable) -> None:
        """Entfernt ``element``: Jede Marke, die dieses Replikat von ihm sieht, wird Grabstein."""
        gesehen = {m for e, m in self._marken if e == element}
        self._grabsteine = self._grabsteine | gesehen

    def enthaelt(self, element: Hashable) -> bool:
        """Ist ``element`` in der Menge?"""
        return any(e == element and m not in self._grabsteine for e, m in self._marken)

    @property
    def elemente(self) -> list[Any]:
        """Die Elemente der Menge, in fester Reihenfolge."""
        return _sortiert({e for e, m in self._marken if m not in self._grabsteine})

    @property
    def wert(self) -> list[Any]:
        return self.elemente

    @property
    def marken(self) -> list[tuple[Any, Marke]]:
        """Alle Marken (auch die mit Grabstein), in fester Reihenfolge."""
        return sorted(self._marken, key=lambda em: (em[1], repr(em[0])))

    @property
    def grabsteine(self) -> list[Marke]:
        """Die Marken entfernter Einträge (Tombstones); sie wachsen mit jedem Entfernen."""
        return sorted(self._grabsteine)

    def merge(self, andere: ORSet) -> ORSet:
        self._pruefe_partner(andere)
        return ORSet(
            self.knoten, self._marken | andere._marken, self._grabsteine | andere._grabsteine
        )

    def zustand(self) -> Hashable:
        return (self._marken, self._grabsteine)

    def __repr__(self) -> str:
        marken, grab = len(self._marken), len(self._grabsteine)
        return (
            f"ORSet({self.knoten}, elemente={self.elemente!r}, "
            f"{marken} {'Marke' if marken == 1 else 'Marken'}, "
            f"{grab} {'Tombstone' if grab == 1 else 'Tombstones'})"
        )


TYPEN: dict[str, type[Crdt]] = {
    t.NAME: t for t in (GCounter, PNCounter, LWWRegister, MVRegister, ORSet)
}


def kurz_wert(crdt: Crdt) -> str:
    """Der Wert eines Zustands in wenigen Zeichen (für Bild und Verlauf)."""
    wert = crdt.wert
    if isinstance(crdt, ORSet):
        return "{" + ",".join(_text(w) for w in wert) + "}"
    if isinstance(crdt, MVRegister):
        return "[" + "|".join(_text(w) for w in wert) + "]"
    if isinstance(crdt, LWWRegister) and not crdt.von:
        return "leer"
    return _text(wert)
