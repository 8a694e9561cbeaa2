"""Replikate eines CRDT auf dem Fake-Netz: lokal ändern, Zustände verschicken, vereinigen.

``CrdtSim(typ, knoten=("A", "B", "C"))`` legt je Knoten ein Replikat des Typs an (``GCounter``,
``PNCounter``, ``LWWRegister``, ``MVRegister``, ``ORSet``). ``sim["A"]`` ist das Replikat von A:
Seine Operationen (``sim["A"].erhoehe(2)``) ändern nur A und stehen im Verlauf. ``sync()``
schickt den ganzen Zustand eines (oder jedes) Replikats an jedes andere, über ein ``FakeNetz``
(Verzögerung, Verlust, Duplikate nach Seed). Wer einen Zustand bekommt, vereinigt ihn mit
``merge``. ``trenne`` teilt die Knoten in Gruppen (eine Netzpartition): Eine Nachricht über die
Grenze verwirft der Empfänger, wenn sie ankommt (wie Maelstrom). ``heile`` hebt das auf.

Alles läuft auf einer ``Zeit``: ``tick(n)`` lässt Zeit vergehen, ``warte()`` so lange, bis nichts
mehr unterwegs ist. ``konvergiert()`` sagt, ob alle Replikate denselben Zustand haben.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..fehler import UnbekannterKnoten, UngueltigeEingabe, aufzaehlung, nachschlagen, pruefe_name
from ..netz import FakeNetz
from ..svg import Bild
from ..zeit import AufDerZeit, Zeit
from .bild import verlauf_bild
from .typen import TYPEN, Crdt, kurz_wert

__all__ = [
    "HEILUNG",
    "LOKAL",
    "MERGE",
    "PARTITION",
    "SENDEN",
    "VERWORFEN",
    "CrdtSim",
    "Ereignis",
    "Nachricht",
    "Replikat",
]

LOKAL = "lokal"
SENDEN = "senden"
MERGE = "merge"
VERWORFEN = "verworfen"
PARTITION = "partition"
HEILUNG = "heilung"


@dataclass(frozen=True)
class Ereignis:
    """Was einem Replikat geschah (``knoten`` ist leer bei Partition und Heilung)."""

    nummer: int
    zeit: int
    knoten: str
    art: str
    text: str
    wert: str  # der Wert des Replikats danach, kurz
    nachricht: int | None = None  # bei merge und verworfen: die Nummer der Nachricht
    geaendert: bool = True  # bei merge: hat sich der Zustand geändert?

    def __repr__(self) -> str:
        if not self.knoten:
            return f"Ereignis(t={self.zeit} {self.text})"
        gleich = ", nichts neu" if not self.geaendert else ""
        return f"Ereignis(t={self.zeit} {self.knoten}: {self.text}{gleich} → {self.wert})"


@dataclass(frozen=True)
class Nachricht:
    """Ein Zustand auf dem Weg von ``von`` nach ``an``; ``ereignis``: das Senden."""

    nummer: int
    von: str
    an: str
    zustand: Crdt
    gesendet: int
    ereignis: int


class Replikat:
    """Ein Replikat in einer ``CrdtSim``: reicht alles an seinen Zustand weiter.

    Die Operationen des Typs (``erhoehe``, ``setze``, ``hinzufuegen``, …) ändern den Zustand und
    stehen danach im Verlauf der Simulation; Lesen (``wert``, ``elemente``) geht direkt.
    """

    def __init__(self, sim: CrdtSim, name: str, crdt: Crdt) -> None:
        self._sim = sim
        self.name = name
        self.crdt = crdt

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(self.crdt, name)
        if name in type(self.crdt).OPERATIONEN:

            def operation(*args: Any, **kwargs: Any) -> None:
                attr(*args, **kwargs)
                teile = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
                self._sim._notiere(self.name, LOKAL, f"{name}({', '.join(teile)})")

            return operation
        return attr

    def __repr__(self) -> str:
        return repr(self.crdt)


class CrdtSim(AufDerZeit):
    """Replikate eines CRDT-Typs auf einem unzuverlässigen Netz.

    - ``typ``: ``"GCounter"``, ``"PNCounter"``, ``"LWWRegister"``, ``"MVRegister"``, ``"ORSet"``
      oder die Klasse selbst,
    - ``knoten``: die Namen der Replikate (Standard A, B, C),
    - ``seed``, ``verlust``, ``duplikat``, ``verzoegerung``: wie beim ``FakeNetz`` (Standard:
      nichts geht verloren, nichts doppelt, 1 bis 4 Ticks unterwegs).
    """

    def __init__(
        self,
        typ: str | type[Crdt],
        knoten: Iterable[str] = ("A", "B", "C"),
        seed: int = 1,
        verlust: float = 0.0,
        duplikat: float = 0.0,
        verzoegerung: tuple[int, int] = (1, 4),
        zeit: Zeit | None = None,
    ) -> None:
        if isinstance(typ, str):
            klasse = nachschlagen(TYPEN, typ, UngueltigeEingabe, "Den CRDT-Typ", "Typen")
        elif isinstance(typ, type) and typ in TYPEN.values():
            klasse = typ
        else:
            raise UngueltigeEingabe(
                f"typ ist einer von {aufzaehlung(TYPEN)} (als Text oder Klasse), nicht {typ!r}."
            )
        namen = list(knoten) if not isinstance(knoten, str) else [knoten]
        for n in namen:
            pruefe_name(n, "Der Name eines Replikats")
        if len(namen) < 2 or len(set(namen)) != len(namen):
            raise UngueltigeEingabe(
                f"Eine CrdtSim braucht mindestens zwei verschiedene Replikate, nicht {namen!r}."
            )
        self.zeit = zeit if zeit is not None else Zeit()
        self.netz = FakeNetz(
            seed=seed,
            verlust=verlust,
            duplikat=duplikat,
            verzoegerung=verzoegerung,
            sendeabstand=0,
            zeit=self.zeit,
        )
        self.typ = klasse
        self.namen = namen
        self._replikate = {n: Replikat(self, n, klasse(n)) for n in namen}
        self._gruppe: dict[str, int] = {n: 0 for n in namen}
        self.ereignisse: list[Ereignis] = []
        self.nachrichten: list[Nachricht] = []
        self._angekommen: dict[int, int] = {}

    # --- Replikate ---

    def __getitem__(self, name: str) -> Replikat:
        return nachschlagen(self._replikate, name, UnbekannterKnoten, "Das Replikat", "Replikate")

    def werte(self) -> dict[str, Any]:
        """Je Replikat, was ein Leser dort gerade sieht."""
        return {n: r.crdt.wert for n, r in self._replikate.items()}

    def konvergiert(self) -> bool:
        """Haben alle Replikate denselben Zustand?"""
        zustaende = [r.crdt.zustand() for r in self._replikate.values()]
        return all(z == zustaende[0] for z in zustaende)

    # --- Netz ---

    def sync(self, *von: str) -> None:
        """Schickt den Zustand der genannten Replikate (ohne Namen: aller) an alle anderen."""
        sender = list(von) or self.namen
        for name in sender:
            self[name]
        for name in sender:
            ereignis = self._notiere(name, SENDEN, "sync →" + ",".join(self._andere(name)))
            for ziel in self._andere(name):
                nachricht = Nachricht(
                    len(self.nachrichten) + 1,
                    name,
                    ziel,
                    self._replikate[name].crdt.kopie(),
                    self.now,
                    ereignis.nummer,
                )
                self.nachrichten.append(nachricht)
                self.netz.send(nachricht, an=self._ankunft)

    def _andere(self, name: str) -> list[str]:
        return [n for n in self.namen if n != name]

    def _ankunft(self, nachricht: Nachricht) -> None:
        self._angekommen[nachricht.nummer] = self._angekommen.get(nachricht.nummer, 0) + 1
        if self._gruppe[nachricht.von] != self._gruppe[nachricht.an]:
            self._notiere(
                nachricht.an,
                VERWORFEN,
                f"✗ von {nachricht.von} (Netzpartition)",
                nachricht=nachricht.nummer,
            )
            return
        ziel = self._replikate[nachricht.an].crdt
        vorher = ziel.zustand()
        ziel.uebernimm(nachricht.zustand)
        self._notiere(
            nachricht.an,
            MERGE,
            f"merge ← {nachricht.von}",
            nachricht=nachricht.nummer,
            geaendert=ziel.zustand() != vorher,
        )

    def trenne(self, *gruppen: Iterable[str] | str) -> None:
        """Teilt die Replikate in Gruppen: ``trenne("A", ["B", "C"])``; wer fehlt, ist allein.

        Eine Nachricht, die über eine Grenze geht, verwirft ihr Empfänger bei der Ankunft.
        """
        listen = [[g] if isinstance(g, str) else list(g) for g in gruppen]
        genannt = [n for g in listen for n in g]
        for n in genannt:
            self[n]
        if len(set(genannt)) != len(genannt):
            raise UngueltigeEingabe("Jedes Replikat darf nur in einer Gruppe stehen.")
        if len(listen) < 1:
            raise UngueltigeEingabe('trenne braucht Gruppen, z. B. trenne("A", ["B", "C"]).')
        neu: dict[str, int] = {}
        for i, g in enumerate(listen):
            for n in g:
                neu[n] = i
        rest = len(listen)
        for n in self.namen:
            if n not in neu:
                neu[n] = rest
                rest += 1
        self._gruppe = neu
        text = " | ".join(
            " ".join(n for n in self.namen if neu[n] == i) for i in sorted(set(neu.values()))
        )
        self._notiere("", PARTITION, f"Netzpartition: {text}")

    def heile(self) -> None:
        """Hebt jede Netzpartition auf: Alle erreichen wieder alle."""
        self._gruppe = {n: 0 for n in self.namen}
        self._notiere("", HEILUNG, "Netzpartition aufgehoben")

    def getrennt(self) -> bool:
        """Gibt es gerade eine Netzpartition?"""
        return len(set(self._gruppe.values())) > 1

    def warte(self) -> None:
        """Lässt die Zeit laufen, bis keine Nachricht mehr unterwegs ist."""
        while self.netz.unterwegs and self.zeit.step():
            pass

    def verloren(self) -> list[Nachricht]:
        """Nachrichten, die das Netz verloren hat (nie angekommen, nicht mehr unterwegs)."""
        verloren = {s.nummer for s in self.netz.sendungen if s.verloren}
        return [n for n in self.nachrichten if n.nummer in verloren]

    # --- Verlauf ---

    def _notiere(
        self,
        knoten: str,
        art: str,
        text: str,
        nachricht: int | None = None,
        geaendert: bool = True,
    ) -> Ereignis:
        wert = kurz_wert(self._replikate[knoten].crdt) if knoten else ""
        e = Ereignis(
            len(self.ereignisse) + 1, self.now, knoten, art, text, wert, nachricht, geaendert
        )
        self.ereignisse.append(e)
        return e

    def verlauf(self, knoten: str | None = None) -> list[Ereignis]:
        """Die Ereignisse (optional nur eines Replikats) in ihrer Reihenfolge."""
        if knoten is not None:
            self[knoten]
        return [e for e in self.ereignisse if knoten is None or e.knoten in (knoten, "")]

    def bild(self, titel: str | None = None) -> Bild:
        """Das Bild: je Replikat eine Spalte, die Zeit läuft nach unten, Pfeile sind Zustände."""
        return verlauf_bild(self, titel)

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        werte = ", ".join(f"{n}={kurz_wert(r.crdt)}" for n, r in self._replikate.items())
        gleich = "konvergiert" if self.konvergiert() else "noch verschieden"
        return f"CrdtSim({self.typ.NAME}, t={self.now}: {werte}; {gleich})"
