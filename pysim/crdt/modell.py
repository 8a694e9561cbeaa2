"""Replikate eines CRDT auf dem Cluster: lokal ändern, Zustände verschicken, vereinigen.

``CrdtSim(typ, knoten=("A", "B", "C"))`` legt je Knoten ein Replikat des Typs an (``GCounter``,
``PNCounter``, ``LWWRegister``, ``MVRegister``, ``ORSet``). ``sim["A"]`` ist das Replikat von A:
Seine Operationen (``sim["A"].erhoehe(2)``) ändern nur A und stehen im Verlauf. ``sync()``
schickt den ganzen Zustand eines (oder jedes) Replikats an jedes andere (Verzögerung, Verlust,
Duplikate nach Seed, gewürfelt wie auf einem ``FakeNetz``). Wer einen Zustand bekommt, vereinigt
ihn mit ``merge``. ``trenne`` teilt die Knoten in Gruppen (eine Netzpartition): Eine Nachricht
über die Grenze verwirft der Empfänger, wenn sie ankommt (wie Maelstrom). ``heile`` hebt das auf.
``absturz`` und ``neustart``: Der Zustand eines Replikats liegt auf seiner Platte und übersteht
den Absturz; was ankommt, während es aus ist, verwirft es.

Die Front steht auf einem ``pysim.cluster.Cluster`` aus ``CrdtKnoten`` (``pysim.crdt.knoten``,
``cluster``): Netz, Partitionen und Abstürze sind die des Clusters; die Front ruft ``sync`` und
die lokalen Änderungen bei den Knoten auf und schreibt mit, was geschieht (Verlauf, Nachrichten,
Bild). Alles läuft auf einer ``Zeit``: ``tick(n)`` lässt Zeit vergehen, ``warte()`` so lange, bis
nichts mehr unterwegs ist. ``konvergiert()`` sagt, ob alle Replikate denselben Zustand haben.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..cluster import Cluster
from ..cluster.cluster import EMPFAENGER_AUS, GETRENNT, VERLOREN
from ..cluster.cluster import Sendung as ClusterSendung
from ..fehler import (
    SimFehler,
    UnbekannterKnoten,
    UngueltigeEingabe,
    aufzaehlung,
    nachschlagen,
    pruefe_name,
)
from ..netz import FakeNetz, Sendung
from ..svg import Bild
from ..zeit import AufDerZeit, Zeit
from .bild import verlauf_bild
from .knoten import CrdtKnoten
from .typen import TYPEN, Crdt, kurz_wert

__all__ = [
    "ABSTURZ",
    "HEILUNG",
    "LOKAL",
    "MERGE",
    "NEUSTART",
    "PARTITION",
    "SENDEN",
    "VERWORFEN",
    "CrdtSim",
    "Ereignis",
    "Nachricht",
    "NetzSicht",
    "Replikat",
]

LOKAL = "lokal"
SENDEN = "senden"
MERGE = "merge"
VERWORFEN = "verworfen"
PARTITION = "partition"
HEILUNG = "heilung"
ABSTURZ = "absturz"
NEUSTART = "neustart"


@dataclass(frozen=True)
class Ereignis:
    """Was einem Replikat geschah (``knoten`` ist leer bei Partition, Heilung, Absturz und
    Neustart)."""

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
    stehen danach im Verlauf der Simulation; Lesen (``wert``, ``elemente``) geht direkt. Der
    Zustand ist der auf der Platte des Knotens (``crdt``); ein abgestürztes Replikat ändert
    niemand, bis es neu startet.
    """

    def __init__(self, sim: CrdtSim, name: str) -> None:
        self._sim = sim
        self.name = name

    @property
    def crdt(self) -> Crdt:
        """Der Zustand des Replikats."""
        return self._sim._crdt(self.name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(self.crdt, name)
        if name in type(self.crdt).OPERATIONEN:

            def operation(*args: Any, **kwargs: Any) -> None:
                self._sim._laeuft(self.name, f"{name}(…)")
                attr(*args, **kwargs)
                teile = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
                self._sim._notiere(self.name, LOKAL, f"{name}({', '.join(teile)})")

            return operation
        return attr

    def __repr__(self) -> str:
        return repr(self.crdt)


class NetzSicht:
    """``CrdtSim.netz``: das Netz, wie es ein ``FakeNetz`` zeigte (``sendungen`` mit ihrem
    Schicksal, ``unterwegs``), gelesen aus den Sendungen des Clusters."""

    def __init__(self, sim: CrdtSim, wuerfel: FakeNetz) -> None:
        self._sim = sim
        self.seed = wuerfel.seed
        self.verlust = wuerfel.verlust
        self.duplikat = wuerfel.duplikat
        self.verzoegerung = wuerfel.verzoegerung

    @property
    def sendungen(self) -> list[Sendung]:
        """Jeder gesendete Zustand mit seinem Schicksal (verloren, Ankunftszeiten)."""
        sim = self._sim
        kopien: dict[int, list[ClusterSendung]] = {}
        for s in sim.cluster.sendungen:
            if s.nummer in sim._zu_nachricht:
                kopien.setdefault(sim._zu_nachricht[s.nummer], []).append(s)
        return [
            Sendung(
                n.nummer,
                n,
                n.gesendet,
                kopien[n.nummer][0].ankunft is None,
                tuple(s.ankunft for s in kopien[n.nummer] if s.ankunft is not None),
            )
            for n in sim.nachrichten
        ]

    @property
    def unterwegs(self) -> int:
        """Wie viele Kopien noch unterwegs sind."""
        return sum(1 for s in self._sim._offen if not s.schicksal)

    def __repr__(self) -> str:
        sendungen = self.sendungen
        verloren = sum(1 for s in sendungen if s.verloren)
        angekommen = sum(1 for s in self._sim.cluster.sendungen if s.schicksal and s.ankunft)
        return (
            f"FakeNetz(seed={self.seed}, t={self._sim.now}: {len(sendungen)} gesendet, "
            f"{verloren} verloren, {self.unterwegs} unterwegs, {angekommen} angekommen)"
        )


class _Zeuge:
    """The front's ``Beobachter`` on the cluster: it records every merge (the state before
    and after the node's handler) and, before each, the states dropped since."""

    def __init__(self, sim: CrdtSim) -> None:
        self.sim = sim
        self.vorher: tuple[ClusterSendung, Any] | None = None

    def zustellung(self, sendung: ClusterSendung) -> int | None:
        sim = self.sim
        sim._nachziehen()
        if sendung.nummer in sim._zu_nachricht:  # a state the front sent (not someone's own)
            self.vorher = (sendung, sim._crdt(sim._name[sendung.nachricht.dest]).zustand())
        return sendung.ursache

    def gesendet(self, sendung: ClusterSendung) -> None:
        pass

    def fertig(self, knoten: str, ursache: int | None) -> None:
        if self.vorher is None:
            return
        sendung, vorher = self.vorher
        self.vorher = None
        sim = self.sim
        sim._weg(sendung)
        ziel = sim._name[knoten]
        sim._schreibe(
            ziel,
            MERGE,
            f"merge ← {sim._name[sendung.nachricht.src]}",
            nachricht=sim._zu_nachricht[sendung.nummer],
            geaendert=sim._crdt(ziel).zustand() != vorher,
        )


class CrdtSim(AufDerZeit):
    """Replikate eines CRDT-Typs auf einem unzuverlässigen Netz.

    - ``typ``: ``"GCounter"``, ``"PNCounter"``, ``"LWWRegister"``, ``"MVRegister"``, ``"ORSet"``
      oder die Klasse selbst,
    - ``knoten``: die Namen der Replikate (Standard A, B, C),
    - ``seed``, ``verlust``, ``duplikat``, ``verzoegerung``: wie beim ``FakeNetz`` (Standard:
      nichts geht verloren, nichts doppelt, 1 bis 4 Ticks unterwegs).

    ``cluster``: der ``pysim.cluster.Cluster`` aus ``CrdtKnoten`` darunter (Knoten n1, n2, …
    in der Reihenfolge von ``knoten``).
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
        # Checks the network's settings and draws each message as the FakeNetz of before did,
        # so every run (and every published picture) stays the same on the cluster.
        wuerfel = FakeNetz(
            seed=seed,
            verlust=verlust,
            duplikat=duplikat,
            verzoegerung=verzoegerung,
            sendeabstand=0,
            zeit=self.zeit,
        )
        self.typ = klasse
        self.namen = namen
        #: Replica name -> node ID on the cluster, and back.
        self._id = {n: f"n{i}" for i, n in enumerate(namen, start=1)}
        self._name = {k: n for n, k in self._id.items()}
        knotenklasse = type(
            "CrdtKnoten", (CrdtKnoten,), {"TYP": klasse, "REPLIKATE": dict(self._name)}
        )
        # The cluster runs on the front's clock and draws each message as the FakeNetz did.
        einstellungen: dict[str, Any] = {
            "zeit": self.zeit,
            "netz_wurf": wuerfel.wurf,
            # pysim's own nodes: no loop budget, no limit of events (as RaftSim's)
            "max_ereignisse": 2**62,
            "code_der_leserin": False,
        }
        #: Der Cluster, auf dem die Replikate als ``CrdtKnoten`` laufen.
        self.cluster = Cluster(
            knotenklasse, len(namen), seed=seed, latenz=wuerfel.verzoegerung, **einstellungen
        )
        self.cluster.beobachter = _Zeuge(self)
        #: Das Netz, wie ein ``FakeNetz`` es zeigte (``sendungen``, ``unterwegs``).
        self.netz = NetzSicht(self, wuerfel)
        # The disks of the replicas: the same dicts across a crash (``Knoten.speicher``).
        self._speicher = {n: self._laeuft(n, "starten").speicher for n in namen}
        self._replikate = {n: Replikat(self, n) for n in namen}
        self._gruppe: dict[str, int] = {n: 0 for n in namen}
        self._ereignisse: list[Ereignis] = []
        self.nachrichten: list[Nachricht] = []
        #: The cluster's sendung number -> the number of the state it carries (``Nachricht``).
        self._zu_nachricht: dict[int, int] = {}
        #: Copies on the wire (their drop at a partition or a crashed node is noted later).
        self._offen: list[ClusterSendung] = []

    # --- Replikate ---

    def __getitem__(self, name: str) -> Replikat:
        return nachschlagen(self._replikate, name, UnbekannterKnoten, "Das Replikat", "Replikate")

    def _crdt(self, name: str) -> Crdt:
        crdt: Crdt = self._speicher[name]["crdt"]
        return crdt

    def _knoten(self, name: str) -> CrdtKnoten | None:
        objekt = self.cluster.objekt(self._id[name])
        assert objekt is None or isinstance(objekt, CrdtKnoten)
        return objekt

    def _laeuft(self, name: str, was: str) -> CrdtKnoten:
        """The running node of replica ``name``; a German error naming ``was`` if it crashed."""
        objekt = self._knoten(name)
        if objekt is None:
            raise SimFehler(
                f"{name} ist abgestürzt: {was} geht erst wieder nach sim.neustart({name!r})."
            )
        return objekt

    def werte(self) -> dict[str, Any]:
        """Je Replikat, was ein Leser dort gerade sieht."""
        return {n: self._crdt(n).wert for n in self.namen}

    def konvergiert(self) -> bool:
        """Haben alle Replikate denselben Zustand?"""
        zustaende = [self._crdt(n).zustand() for n in self.namen]
        return all(z == zustaende[0] for z in zustaende)

    # --- Netz ---

    def sync(self, *von: str) -> None:
        """Schickt den Zustand der genannten Replikate (ohne Namen: aller, die laufen) an alle
        anderen."""
        sender = list(von) or [n for n in self.namen if self._knoten(n) is not None]
        for name in sender:
            self[name]
        for name in sender:
            knoten = self._laeuft(name, "sync")
            ereignis = self._notiere(name, SENDEN, "sync →" + ",".join(self._andere(name)))
            vorher = len(self.cluster.sendungen)
            knoten.sync([self._id[n] for n in self._andere(name)])
            for sendung in self.cluster.sendungen[vorher:]:
                if sendung.kopie == 1:
                    self.nachrichten.append(
                        Nachricht(
                            len(self.nachrichten) + 1,
                            name,
                            self._name[sendung.nachricht.dest],
                            sendung.nachricht.body["zustand"],
                            self.now,
                            ereignis.nummer,
                        )
                    )
                self._zu_nachricht[sendung.nummer] = len(self.nachrichten)
                if sendung.ankunft is not None:
                    self._offen.append(sendung)

    def _andere(self, name: str) -> list[str]:
        return [n for n in self.namen if n != name]

    def _nachziehen(self) -> None:
        """Notes every state dropped since the last look (at a partition or a crashed
        receiver), in the order they arrived; nothing else changed those replicas since."""
        weg = [s for s in self._offen if s.schicksal in (GETRENNT, EMPFAENGER_AUS)]
        if not weg:
            return
        for sendung in sorted(weg, key=lambda s: (s.ankunft or 0, s.nummer)):
            self._weg(sendung)
            von = self._name[sendung.nachricht.src]
            grund = "Netzpartition" if sendung.schicksal == GETRENNT else "abgestürzt"
            self._schreibe(
                self._name[sendung.nachricht.dest],
                VERWORFEN,
                f"✗ von {von} ({grund})",
                nachricht=self._zu_nachricht[sendung.nummer],
                zeit=sendung.ankunft,
            )

    def _weg(self, sendung: ClusterSendung) -> None:
        """Takes ``sendung`` off the wire (by identity: a duplicate's copy is another one)."""
        for i, s in enumerate(self._offen):
            if s is sendung:
                del self._offen[i]
                return

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
        seiten = [[n for n in self.namen if neu[n] == i] for i in sorted(set(neu.values()))]
        self.cluster.trenne(*([self._id[n] for n in seite] for seite in seiten))
        text = " | ".join(" ".join(seite) for seite in seiten)
        self._notiere("", PARTITION, f"Netzpartition: {text}")

    def heile(self) -> None:
        """Hebt jede Netzpartition auf: Alle erreichen wieder alle."""
        self._gruppe = {n: 0 for n in self.namen}
        self.cluster.heile()
        self._notiere("", HEILUNG, "Netzpartition aufgehoben")

    def getrennt(self) -> bool:
        """Gibt es gerade eine Netzpartition?"""
        return len(set(self._gruppe.values())) > 1

    def absturz(self, name: str) -> None:
        """Das Replikat stürzt ab: Sein Zustand bleibt auf der Platte, was ankommt, solange es
        aus ist, verwirft es."""
        if self._knoten(self[name].name) is None:
            raise SimFehler(f"{name} ist schon abgestürzt; starte es mit sim.neustart({name!r}).")
        self._notiere("", ABSTURZ, f"{name} stürzt ab")
        self.cluster.absturz(self._id[name])

    def neustart(self, name: str) -> None:
        """Das abgestürzte Replikat startet mit dem Zustand von seiner Platte neu."""
        if self._knoten(self[name].name) is not None:
            raise SimFehler(f"{name} läuft doch; nur ein abgestürztes Replikat startet neu.")
        self._notiere("", NEUSTART, f"{name} startet neu")
        self.cluster.neustart(self._id[name])

    def warte(self) -> None:
        """Lässt die Zeit laufen, bis keine Nachricht mehr unterwegs ist."""
        while self.netz.unterwegs and self.zeit.step():
            pass
        self._nachziehen()

    def verloren(self) -> list[Nachricht]:
        """Nachrichten, die das Netz verloren hat (nie angekommen, nicht mehr unterwegs)."""
        verloren = {
            self._zu_nachricht[s.nummer]
            for s in self.cluster.sendungen
            if s.schicksal == VERLOREN and s.nummer in self._zu_nachricht
        }
        return [n for n in self.nachrichten if n.nummer in verloren]

    # --- Verlauf ---

    @property
    def ereignisse(self) -> list[Ereignis]:
        """Was geschah, in seiner Reihenfolge."""
        self._nachziehen()
        return self._ereignisse

    def _notiere(self, knoten: str, art: str, text: str) -> Ereignis:
        """Records what the front does now, after the drops noticed since."""
        self._nachziehen()
        return self._schreibe(knoten, art, text)

    def _schreibe(
        self,
        knoten: str,
        art: str,
        text: str,
        nachricht: int | None = None,
        geaendert: bool = True,
        zeit: int | None = None,
    ) -> Ereignis:
        wert = kurz_wert(self._crdt(knoten)) if knoten else ""
        e = Ereignis(
            len(self._ereignisse) + 1,
            self.now if zeit is None else zeit,
            knoten,
            art,
            text,
            wert,
            nachricht,
            geaendert,
        )
        self._ereignisse.append(e)
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
        werte = ", ".join(f"{n}={kurz_wert(self._crdt(n))}" for n in self.namen)
        gleich = "konvergiert" if self.konvergiert() else "noch verschieden"
        return f"CrdtSim({self.typ.NAME}, t={self.now}: {werte}; {gleich})"
