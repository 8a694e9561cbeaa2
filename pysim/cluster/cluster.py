"""Der Cluster: Knoten, Clients und Dienste auf einer simulierten Zeit, verbunden durch ein Netz.

Alles läuft in einer Schleife auf ``pysim.Zeit``: Jede Zustellung, jeder Timer, jede Störung ist
ein Termin im selben Kalender. Gewürfelt wird nur mit Zufallszahlen aus dem Seed. Derselbe Code,
derselbe Seed und derselbe Störplan geben darum denselben Lauf, Bit für Bit, in CPython wie in
Pyodide.

Das Netz (wie Maelstroms ``net.clj``): Zwischen Knoten (und zu Diensten) dauert eine Nachricht
``latenz`` Ticks, gewürfelt je Nachricht, darum überholen sich Nachrichten. Mit ``verlust`` geht
eine verloren, mit ``duplikat`` kommt sie zweimal an. Clients sitzen wie bei Maelstrom direkt neben
ihrem Knoten (Laufzeit 0). Eine Netzpartition (``teile``) verwirft beim Empfänger jede Nachricht
von einem Knoten der anderen Seite, auch eine, die schon unterwegs war. Eine Leitung kann ihre
eigene Laufzeit haben (``latenz_zwischen``, in beide Richtungen oder nur in eine, auch zu einem
Dienst, bis ``heile``): ein Replikat, das hinterherhinkt; ohne solche Leitungen wird gewürfelt
wie zuvor. Eine Front kann jede Leitung selbst bestimmen (``netz_leitung``), erfährt jede
Nachricht, die ein Empfänger verwirft (``bei_verworfen``), und gibt ihren Knoten Arbeit (``rufe``).
Was ein Failover ist (``failover``, eine Störung wie ein Absturz), sagt die Front
(``bei_failover``): Sie befördert einen Follower ihres Protokolls.

Invarianten (``invariante``, wie die Zustandsprädikate von DSLabs) prüft der Cluster nach jedem
Ereignis (Zustellung, Timer, Störung) an dem, was jeder Knoten zeigt (``zustaende``, aus
``Knoten.zustand``); die erste, die nicht gilt, hält den Lauf an (``InvarianteVerletzt``,
``verletzung``). Ohne Invarianten läuft die Schleife von ``Zeit`` ohne jede Prüfung.

Ein Knoten sieht den Cluster nur durch sein ``Netzzugang`` (``_Tor``, ein neues bei jedem Start):
Das Objekt lässt keinen Weg zum Cluster, zu anderen Knoten oder zum Verlauf offen.

Was ein Knoten notiert (``self.notiz``) oder druckt (``print``), steht mit Tick und Knoten im
``protokoll`` des Clusters (``pysim.cluster.protokoll``): Solange Code eines Knotens läuft, sind
``sys.stdout`` und ``sys.stderr`` sein Strom dorthin, danach wieder, was sie vorher waren.

Ein ``Beobachter`` (der gezielte Nemesis, ``pysim.cluster.stoerungen``) sieht jede Nachricht,
die gesendet oder einem Knoten zugestellt wird, und jede Nachricht trägt ihre ``ursache``: das
Schreiben eines Clients, dessen Bearbeitung sie auslöste (oder ``None``).
"""

from __future__ import annotations

import random
import re
import sys
import traceback
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from heapq import heappush
from pathlib import Path
from types import CoroutineType, FunctionType, MappingProxyType
from typing import Any, Protocol

from ..fehler import (
    MAX_WERT,
    SimFehler,
    UngueltigeEingabe,
    gekuerzt,
    kurz,
    meldung,
    pruefe_ganzzahl,
    pruefe_verzoegerung,
    pruefe_wahrscheinlichkeit,
)
from ..prozess import Fortsetzung, Prozess
from ..zeit import Termin, Zeit
from . import grenze
from .knoten import (
    WARTBAR,
    FehlerAntwort,
    KeineAntwort,
    Knoten,
    Timer,
    falsch_gewartet,
    nur_eigene_api,
)
from .nachricht import _BODY, _DEST, _SRC, Nachricht, UngueltigeNachricht, inhalt, ziel
from .protokoll import NOTIZ, Protokoll
from .stoerungen import Stoerung

_PYSIM = str(Path(__file__).resolve().parent.parent)

#: What became of a message (``Sendung.schicksal``).
ZUGESTELLT, VERLOREN, GETRENNT, EMPFAENGER_AUS = (
    "zugestellt",
    "verloren",
    "getrennt",
    "empfänger aus",
)


#: What a predicate of ``Cluster.invariante`` gets: node -> field -> value, read-only.
Zustaende = Mapping[str, Mapping[str, object]]


@dataclass(frozen=True)
class Verletzung:
    """Die erste Invariante, die nicht galt: wann, nach welchem Ereignis, welche und warum;
    ``zustaende``: was jeder Knoten da zeigte (``Knoten.zustand``)."""

    zeit: int
    ereignis: str
    name: str
    grund: str
    zustaende: Zustaende

    def __str__(self) -> str:
        grund = f": {self.grund}" if self.grund else "."
        return (
            f"t={self.zeit}, nach {self.ereignis}: Die Invariante „{self.name}“ gilt nicht{grund}"
        )


class InvarianteVerletzt(SimFehler):
    """Eine Invariante des Clusters galt nach einem Ereignis nicht: Der Lauf hält dort an.
    ``verletzung``: was, wann, warum; ``lauf``: bei ``pysim.cluster.lauf`` der Lauf bis dahin."""

    lauf: Any = None

    def __init__(self, verletzung: Verletzung) -> None:
        super().__init__(f"Der Lauf hält an. {verletzung}")
        self.verletzung = verletzung


class LaufAbgebrochen(SimFehler):
    """Der Lauf hat seine Grenze an Ereignissen erreicht (ein Knoten, der ohne Ende Nachrichten
    oder Timer erzeugt): Er endet mit einer deutschen Meldung statt zu hängen. ``lauf``: bei
    ``pysim.cluster.lauf`` der Lauf bis zum Abbruch (sonst ``None``)."""

    lauf: Any = None


@dataclass(slots=True)  # slots: a run keeps every one, and the collector walks them all
class Sendung:
    """Eine gesendete Nachricht und was aus ihr wurde (für Bild, Zählung und Prüfer)."""

    nummer: int
    nachricht: Nachricht
    gesendet: int
    ankunft: int | None  # None: lost on the wire
    schicksal: str = ""  # set when it arrives (ZUGESTELLT, GETRENNT, EMPFAENGER_AUS) or is lost
    kopie: int = 1
    #: The client's write whose handling sent it (a number the ``Beobachter`` gave), or None.
    ursache: int | None = None


class Beobachter(Protocol):
    """Sees every message of a run (the targeted nemesis): what is sent, what a node is handed,
    and when a node's handling of a message ends. It must not change the run by itself (no
    draws from the cluster's random numbers): what it does, it does as a fault on ``Zeit``."""

    def zustellung(self, sendung: Sendung) -> int | None:
        """A node is about to handle ``sendung``: the cause its handling works for (``ursache``)."""
        ...

    def gesendet(self, sendung: Sendung) -> None:
        """``sendung`` was just sent (its ``ursache`` set)."""
        ...

    def fertig(self, knoten: str, ursache: int | None) -> None:
        """``knoten`` finished handling a message it was handed for ``ursache``."""
        ...


@dataclass
class HandlerFehler:
    """Ein Handler der Leserin warf: wo (Knoten, Nachricht, Zeile ihres Codes) und was."""

    zeit: int
    knoten: str
    was: str
    fehler: str
    zeile: int | None
    code: str

    def __str__(self) -> str:
        wo = f" (Zeile {self.zeile}: {self.code})" if self.zeile else ""
        return f"t={self.zeit}: {self.knoten} warf bei {self.was} {self.fehler}{wo}"


@dataclass
class Ereignis:
    """Etwas, das der Nemesis tat (für das Bild); was ein Knoten notiert, steht im ``protokoll``."""

    zeit: int
    art: str  # "absturz", "neustart", "pause", "weiter", "teilung", "heilung", "uhr", "verlust", "failover"
    knoten: tuple[str, ...]
    text: str
    #: Why the nemesis chose it, for a targeted fault (``stoerungen.ANLASS``), else "".
    anlass: str = ""


@dataclass
class _Platz:
    """Where a node lives: its class, its current object and what outlasts a crash."""

    klasse: type[Knoten]
    instanz: Knoten | None = None
    inkarnation: int = 0
    laeuft: bool = True
    pausiert: bool = False
    rueckstau: list[tuple[Callable[..., Any], tuple[Any, ...]]] = field(default_factory=list)
    speicher: dict[str, Any] = field(default_factory=dict)
    offen: dict[int, tuple[Fortsetzung, Any]] = field(default_factory=dict)
    msg_id: int = 0  # outlasts a crash: a reply to the old incarnation must not match a new request
    versatz: int = 0
    drift: float = 0.0
    drift_seit: int = 0
    #: The node's running ``async`` handlers, in the order they started (a dict: ordered).
    prozesse: dict[Prozess, None] = field(default_factory=dict)
    #: What the node showed last before it crashed (``Knoten.zustand``).
    letzter_zustand: Mapping[str, object] = field(default_factory=dict)
    #: The pending timers of ``Knoten.spaeter`` by their number (``_Timer`` holds the number,
    #: not the appointment, which leads to the clock and the cluster).
    timer: dict[int, Termin] = field(default_factory=dict)
    #: Message type -> the handler of ``klasse`` for it (``_handler``), filled as types come.
    handler: dict[str, Callable[..., Any] | None] = field(default_factory=dict)


class Cluster:
    """``anzahl`` Knoten der Klasse ``klasse`` (n1, n2, …) auf einem Netz.

    - ``seed``: woraus gewürfelt wird (Laufzeiten, Verlust, Dienste),
    - ``latenz``: kleinste und größte Laufzeit zwischen Knoten in Ticks (Standard 1 bis 5),
    - ``verlust``, ``duplikat``: Wahrscheinlichkeiten je Nachricht zwischen Knoten (Standard 0),
    - ``absturz_bei_fehler``: wirft ein Handler, stürzt sein Knoten ab (sonst läuft er weiter),
    - ``max_ereignisse``: Grenze des Laufs (Zustellungen und Timer, gezählt, sobald sie
      geplant sind),
    - ``max_schritte``: wie weit ein Aufruf eines Handlers höchstens läuft,
      in Schleifendurchläufen (``pysim.cluster.grenze``); wer mehr braucht, endet nicht, und
      der Lauf bricht mit ``LaufAbgebrochen`` ab,
    - ``zeit``: die Uhr, die der Cluster mit anderen Modellen teilt (ohne: eine eigene),
    - ``netz_zufall``: woraus das Netz die Laufzeiten würfelt (ohne: aus ``seed``); eine Front
      wie ``pysim.raft.RaftSim`` gibt hier den Zufall, aus dem auch ihre Knoten würfeln, damit
      ihre Läufe dieselben bleiben,
    - ``netz_wurf``: was aus einer Nachricht zwischen Knoten wird, als Funktion der Spanne der
      Laufzeit (kleinste, größte): die Laufzeit jeder Kopie, ``()`` für verloren (ohne: aus
      ``netz_zufall`` nach ``verlust`` und ``duplikat``); eine Front wie ``pysim.crdt.CrdtSim``
      würfelt hier wie ihr altes Netz, damit ihre Läufe dieselben bleiben,
    - ``netz_leitung``: wie ``netz_wurf``, aber als Funktion von Absender und Empfänger (hat
      Vorrang vor ``netz_wurf``): eine Front wie ``pysim.replikation.ReplikSpeicher`` gibt so
      jeder Leitung ihre Laufzeit (der Lag eines Replikats, in der Reihenfolge des Sendens),
    - ``weitere``: Knoten mit eigenem Namen und eigener Klasse nach n1 … (Name → Klasse), etwa
      der Koordinator eines Quorums neben seinen Replikaten,
    - ``code_der_leserin``: ``False`` für Knoten, die pysim selbst mitbringt (``RaftKnoten``
      hinter ``RaftSim``): Ihr Code läuft ohne Grenze an Schleifendurchläufen, und was er
      druckt, geht an ``sys.stdout`` des Aufrufers statt ins ``protokoll``,
    - ``sofort``: Eine Nachricht zwischen Knoten (oder zu einem Dienst) mit Laufzeit 0 kommt
      gleich nach dem Ereignis an, das sie schickte, vor den anderen Ereignissen ihres Ticks,
      wie ein Funktionsaufruf (ohne: am Ende ihres Ticks); eine Front wie
      ``pysim.leases.LeaseSim``, deren Sperrdienst ohne Laufzeit antwortet, behält so ihre
      Reihenfolge,
    - ``sendungen_behalten``: ``False`` für eine Front, die nur zeigt, was unterwegs ist, und
      zählt, was gesendet wurde (``RaftSim``): ``sendungen`` bleibt leer, ``unterwegs()`` und
      ``gesendet()`` sagen es trotzdem; ``zaehle`` gibt es dann nicht. Der Lauf bleibt derselbe,
      er hält nur nicht jede Nachricht fest (Speicher, und Arbeit für Pythons Garbage Collector).

    ``anzahl`` darf 0 sein: Knoten kommen dann mit ``neuer_knoten`` dazu.
    """

    def __init__(
        self,
        klasse: type[Knoten],
        anzahl: int = 3,
        *,
        seed: int = 1,
        latenz: tuple[int, int] = (1, 5),
        verlust: float = 0.0,
        duplikat: float = 0.0,
        absturz_bei_fehler: bool = False,
        max_ereignisse: int = 200_000,
        max_schritte: int = grenze.MAX_SCHRITTE,
        zeit: Zeit | None = None,
        netz_zufall: random.Random | None = None,
        netz_wurf: Callable[[tuple[int, int]], tuple[int, ...]] | None = None,
        netz_leitung: Callable[[str, str], tuple[int, ...]] | None = None,
        weitere: Mapping[str, type[Knoten]] | None = None,
        code_der_leserin: bool = True,
        sofort: bool = False,
        sendungen_behalten: bool = True,
    ) -> None:
        if not (isinstance(klasse, type) and issubclass(klasse, Knoten)):
            raise UngueltigeEingabe(
                f"Der Cluster braucht eine Klasse, die von Knoten erbt (class MeinKnoten(Knoten): …), nicht {klasse!r}."
            )
        pruefe_ganzzahl(anzahl, "Die Zahl der Knoten", 0)
        pruefe_ganzzahl(seed, "Der Seed")
        self.latenz = pruefe_verzoegerung(latenz, 0, (1, 5))
        self.verlust = pruefe_wahrscheinlichkeit(verlust, "verlust")
        self.duplikat = pruefe_wahrscheinlichkeit(duplikat, "duplikat")
        self.absturz_bei_fehler = absturz_bei_fehler
        self.max_ereignisse = pruefe_ganzzahl(max_ereignisse, "max_ereignisse", 1)
        self.max_schritte = pruefe_ganzzahl(max_schritte, "max_schritte", 1)
        self.code_der_leserin = code_der_leserin
        self.seed = seed
        self.zeit = zeit if zeit is not None else Zeit()
        self._netz_zufall = (
            netz_zufall if netz_zufall is not None else random.Random(seed * 7919 + 1)
        )
        self._zufall: random.Random | None = None  # ``zufall``, made when first drawn from
        #: What becomes of a message between nodes: the latency of each copy, () when lost.
        # None: the plain case, one copy with a latency drawn inline (the hot path of Raft's
        # checks; the same draw as ``_wuerfle`` makes without loss and duplicates)
        self._wurf: Callable[[tuple[int, int]], tuple[int, ...]] | None = (
            netz_wurf
            if netz_wurf is not None
            else self._wuerfle
            if self.verlust or self.duplikat or netz_leitung is not None
            else None
        )
        #: A front's draw per link (``netz_leitung``): taken instead of ``_wurf``.
        self._leitung = netz_leitung
        self._klasse = klasse
        self.ids = [f"n{i}" for i in range(1, anzahl + 1)]
        self._plaetze = {k: _Platz(klasse) for k in self.ids}
        for name, art in (weitere or {}).items():
            if name in self._plaetze or not (isinstance(art, type) and issubclass(art, Knoten)):
                raise UngueltigeEingabe(
                    f"weitere: „{name}“ braucht einen neuen Namen und eine Klasse, die von "
                    f"Knoten erbt, nicht {art!r}."
                )
            self.ids.append(name)
            self._plaetze[name] = _Platz(art)
        self._empfaenger: dict[str, Callable[[Nachricht], None]] = {}
        self._clients: set[str] = set()
        self._bekannt: set[str] = set(self._plaetze)
        self.getrennt: set[tuple[str, str]] = set()  # (from, to) pairs the receiver drops
        self._verliert: dict[str, int] = {}  # node -> the tick its services' replies are lost
        #: Every message sent, with its fate (empty with ``sendungen_behalten=False``).
        self.sendungen: list[Sendung] = []
        # What ``sendungen`` holds is kept only when asked to; numbered in both cases.
        self._behalten = bool(sendungen_behalten)
        self._nummer = 0
        #: Messages between nodes sent so far (counted only when ``sendungen`` is not kept).
        self._zwischen_knoten = 0
        self.fehler: list[HandlerFehler] = []
        self.ereignisse: list[Ereignis] = []
        #: What the nodes noted and printed, with tick and node (``pysim.cluster.protokoll``).
        self.protokoll = Protokoll()
        self._gezaehlt = 0
        #: Called with each message the receiver drops (a partition, a crashed receiver): a
        #: front that shows drops as events with their reason (``pysim.replikation``).
        self.bei_verworfen: Callable[[Sendung], None] | None = None
        #: A failover away from a leader (``failover``, the fault): the front promotes the
        #: follower it is given (or, given "", the one it chooses) and returns its name.
        self.bei_failover: Callable[[str, str], str] | None = None
        #: Sees every message (the targeted nemesis); set before the run starts.
        self.beobachter: Beobachter | None = None
        #: The client's write the code running now works for (see ``Sendung.ursache``).
        self._ursache: int | None = None
        #: Links with their own latency (``latenz_zwischen``): (from, to) -> (min, max).
        self._latenzen: dict[tuple[str, str], tuple[int, int]] = {}
        #: Checked after every event while any is set (``invariante``).
        self._invarianten: list[tuple[str, Callable[[Zustaende], object]]] = []
        #: The first invariant that did not hold (the run stopped there), or None.
        self.verletzung: Verletzung | None = None
        #: Per role: the nodes a fault aimed at it hit last (``neustart:[leader]`` restarts them).
        self.getroffen: dict[str, list[str]] = {}
        self._im_lauf = False
        self._timer_nr = 0  # numbers the timers of ``Knoten.spaeter`` (``_Platz.timer``)
        #: ``sofort``: the arrivals of latency 0 not yet handed over, in the order they were
        #: sent (one appointment, ``_liefere_sofort``, hands them over one after the other).
        self._sofort: list[Sendung] = []
        self._liefert = False  # ``_liefere_sofort`` is handing them over
        if sofort:  # an instance attribute: the default hot path stays as it is
            self._unterwegs = self._unterwegs_sofort  # type: ignore[method-assign]
        try:
            for knoten in self.ids:
                self._starte(knoten)
        finally:
            grenze.aus()

    @property
    def zufall(self) -> random.Random:
        """Woraus Dienste und Lasten würfeln (aus ``seed``). Erst beim ersten Wurf angelegt: Ein
        Cluster, der nie würfelt (``pysim.leases.LeaseSim``), spart die Saat."""
        zufall = self._zufall
        if zufall is None:
            zufall = self._zufall = random.Random(self.seed * 7919 + 2)
        return zufall

    # --- endpoints ------------------------------------------------------------------------------

    def anmelden(
        self, name: str, empfang: Callable[[Nachricht], None], *, client: bool = False
    ) -> None:
        """Meldet einen Dienst oder (``client=True``) einen Client ``name`` an: ``empfang``
        bekommt seine Nachrichten. Ein Client sitzt neben den Knoten (Laufzeit 0, nie getrennt)."""
        if name in self._plaetze or name in self._empfaenger:
            raise UngueltigeEingabe(f"Den Namen „{name}“ gibt es im Cluster schon.")
        self._empfaenger[name] = empfang
        self._bekannt.add(name)
        if client:
            self._clients.add(name)

    def neuer_knoten(
        self, klasse: type[Knoten] | None = None, *, speicher: Mapping[str, Any] | None = None
    ) -> str:
        """Ein weiterer Knoten (der nächste Name: n4 nach n1 bis n3), gleich gestartet, der
        Klasse ``klasse`` (ohne: die des Clusters). Gibt seinen Namen zurück. Knoten, die schon
        laufen, sehen ihn in ``self.knoten`` erst nach ihrem nächsten Start. ``speicher``: was
        er schon beim ersten Start in ``self.speicher`` findet (eine Kopie), wie eine Datei auf
        seiner Platte: etwa die Einstellung, die ihm eine Front wie ``pysim.leases.LeaseSim``
        mitgibt."""
        klasse = klasse if klasse is not None else self._klasse
        if not (isinstance(klasse, type) and issubclass(klasse, Knoten)):
            raise UngueltigeEingabe(
                f"Ein Knoten ist eine Klasse, die von Knoten erbt, nicht {klasse!r}."
            )
        knoten = f"n{len(self.ids) + 1}"
        if knoten in self._bekannt:
            raise UngueltigeEingabe(f"Den Namen „{knoten}“ gibt es im Cluster schon.")
        self.ids.append(knoten)
        self._plaetze[knoten] = _Platz(klasse, speicher=dict(speicher) if speicher else {})
        self._bekannt.add(knoten)
        try:
            self._starte(knoten)
        finally:
            if not self._im_lauf:
                grenze.aus()
        return knoten

    def bekannt(self) -> set[str]:
        """Every name a message can go to: nodes, clients, services."""
        return self._bekannt

    def ist_knoten(self, name: str) -> bool:
        return name in self._plaetze

    def ist_client(self, name: str) -> bool:
        return name in self._clients

    # --- sending ---------------------------------------------------------------------------------

    def sende(
        self, src: str, dest: str, body: dict[str, Any], *, frisch: bool = False
    ) -> Sendung | None:
        """Schickt eine Nachricht ins Netz (für Clients und Dienste; Knoten nehmen ``self.sende``).
        ``frisch``: ``body`` ist eigens für diese Nachricht gebaut und wird nie mehr geändert
        (etwa die Antwort des Sperrdienstes): Er geht ohne Kopie hinaus. Gibt die ``Sendung``
        zurück (``None`` bei ``sendungen_behalten=False`` für eine Nachricht zu einem Knoten:
        Sie bleibt ohne eigene ``Sendung``, bis jemand ``unterwegs()`` fragt)."""
        return self._sende(src, dest, body, src, frisch)

    def _sende(
        self, src: str, dest: str, body: object, wer: str, frisch: bool = False
    ) -> Sendung | None:
        # The hot path of every run (benchmarks/bench_raft.py): checks and copies only where
        # needed, the appointment entered without Zeit.schedule's check (the delay is an int
        # from the network's range, never negative).
        bekannt = self._bekannt
        if dest.__class__ is not str or dest not in bekannt:
            dest = ziel(dest, bekannt, wer)
        # A body its sender built for this message alone (``frisch``, pysim's own nodes) needs
        # no copy; a reader's node gets one, as JSON on the wire.
        if not frisch:
            body = inhalt(body, wer)
        nachricht: Nachricht = _neu(Nachricht)  # ``neue_nachricht``, inlined
        _SRC(nachricht, src)
        _DEST(nachricht, dest)
        _BODY(nachricht, body)
        clients = self._clients
        zeit = self.zeit
        jetzt = zeit._now
        sendung: Sendung | None
        if src in clients or dest in clients:  # a client sits beside its node: latency 0
            # positional: the dataclass's __init__ takes them faster than by keyword
            sendung = Sendung(self._nummer, nachricht, jetzt, jetzt, "", 1, self._ursache)
            self._nummer += 1
            if self._behalten:
                self.sendungen.append(sendung)
            self._gezaehlt += 1
            zeit._eintragen_fest(jetzt, self._ankunft, sendung)
        else:
            spanne = self._latenzen.get((src, dest), self.latenz) if self._latenzen else self.latenz
            if self._wurf is None:  # no loss, no duplicates, no front's draw: one copy
                if not self._behalten and src in self._plaetze and dest in self._plaetze:
                    self._zwischen_knoten += 1
                sendung = self._unterwegs(
                    nachricht, jetzt + zwischen(self._netz_zufall, *spanne), 1
                )
            else:
                # the network's draw (``_wuerfle``, or a front's ``netz_wurf``): each copy's
                # latency, none when the message is lost
                dauern = self._wurf(spanne) if self._leitung is None else self._leitung(src, dest)
                if not self._behalten and src in self._plaetze and dest in self._plaetze:
                    self._zwischen_knoten += len(dauern) or 1
                if not dauern:
                    sendung = Sendung(self._nummer, nachricht, jetzt, None, VERLOREN)
                    self._nummer += 1
                    if self._behalten:
                        self.sendungen.append(sendung)
                    return sendung
                sendung = self._unterwegs(nachricht, jetzt + dauern[0], 1)
                for kopie in range(2, len(dauern) + 1):
                    self._unterwegs(nachricht, jetzt + dauern[kopie - 1], kopie)
        if self.beobachter is not None and sendung is not None:  # (with a watcher: never None)
            self.beobachter.gesendet(sendung)
        return sendung

    def _unterwegs(self, nachricht: Nachricht, ankunft: int, kopie: int) -> Sendung | None:
        """One copy of a message on the wire between nodes: kept, counted, its arrival entered.
        Without a history to keep, a watcher or a cause, it is no ``Sendung`` but a tuple
        (``_ankunft_leicht``; ``None`` is returned): RaftSim's every message."""
        zeit = self.zeit
        self._gezaehlt += 1
        # ``zeit._eintragen_fest``, inlined: every message between nodes comes here
        nummer = zeit._zaehler
        zeit._zaehler = nummer + 1
        if not self._behalten and self._ursache is None and self.beobachter is None:
            leicht = (nachricht, zeit._now, self._nummer, kopie)
            self._nummer += 1
            heappush(zeit._heap, (ankunft, nummer, self._ankunft_leicht, leicht))
            return None
        sendung = Sendung(self._nummer, nachricht, zeit._now, ankunft, "", kopie, self._ursache)
        self._nummer += 1
        if self._behalten:  # else only the calendar holds it, until it arrives
            self.sendungen.append(sendung)
        heappush(zeit._heap, (ankunft, nummer, self._ankunft, sendung))
        return sendung

    def _unterwegs_sofort(self, nachricht: Nachricht, ankunft: int, kopie: int) -> Sendung | None:
        """``_unterwegs`` of a cluster made with ``sofort``: a copy with latency 0 arrives right
        after the event that sent it (first in its tick), before the rest of its tick."""
        zeit = self.zeit
        if ankunft != zeit._now:
            return Cluster._unterwegs(self, nachricht, ankunft, kopie)
        sendung = Sendung(self._nummer, nachricht, zeit._now, ankunft, "", kopie, self._ursache)
        self._nummer += 1
        if self._behalten:
            self.sendungen.append(sendung)
        self._gezaehlt += 1
        if self._invarianten or self.beobachter is not None:
            # each arrival its own event: invariants are checked after it, and the targeted
            # nemesis may enter a fault between two arrivals
            zeit._eintragen_zuerst(ankunft, self._ankunft, (sendung,))
            return sendung
        # One appointment for all arrivals of latency 0 sent in a row (an acquire, its answer,
        # the next request …): the same order as one appointment each, in their order of
        # sending right after the event that sent the first (LeaseSim: 2 to 3 per appointment).
        wartend = self._sofort
        wartend.append(sendung)
        if len(wartend) == 1 and not self._liefert:
            zeit._eintragen_zuerst_fest(ankunft, self._liefere_sofort, None)
        return sendung

    def _liefere_sofort(self, _: None = None) -> None:
        """Hands over the waiting arrivals of latency 0, those they send on the way too."""
        wartend = self._sofort
        self._liefert = True
        try:
            while wartend:  # one taken off before it arrives: ``unterwegs`` lists the rest
                self._ankunft(wartend.pop(0))
        finally:
            self._liefert = False
            wartend.clear()

    def _wuerfle(self, spanne: tuple[int, int]) -> tuple[int, ...]:
        """The network's draw for a message between nodes: the latency of each copy (none:
        lost), from ``netz_zufall`` in this order: loss, duplicate, each copy's latency."""
        zufall = self._netz_zufall
        if self.verlust and zufall.random() < self.verlust:
            return ()
        if self.duplikat and zufall.random() < self.duplikat:
            return (zwischen(zufall, *spanne), zwischen(zufall, *spanne))
        return (zwischen(zufall, *spanne),)

    def _ankunft(self, sendung: Sendung) -> None:
        if self._gezaehlt > self.max_ereignisse:
            raise self._abgebrochen()
        nachricht = sendung.nachricht
        dest = nachricht.dest
        if self.getrennt and (nachricht.src, dest) in self.getrennt:
            sendung.schicksal = GETRENNT
            if self.bei_verworfen is not None:
                self.bei_verworfen(sendung)
            return
        if (
            self._verliert
            and self._verliert.get(dest) == self.zeit.now
            and nachricht.src in self._empfaenger
        ):
            if nachricht.src not in self._clients:  # a service's reply, lost (``verliere``)
                sendung.schicksal = VERLOREN
                return
        platz = self._plaetze.get(dest)
        if platz is None:
            sendung.schicksal = ZUGESTELLT
            # A service answers for the write its request worked for; a client works for none.
            vorher = self._ursache
            self._ursache = None if dest in self._clients else sendung.ursache
            try:
                self._empfaenger[dest](nachricht)
            finally:
                self._ursache = vorher
            return
        if not platz.laeuft:
            sendung.schicksal = EMPFAENGER_AUS
            if self.bei_verworfen is not None:
                self.bei_verworfen(sendung)
            return
        sendung.schicksal = ZUGESTELLT
        if platz.pausiert:  # as ``_an``: handled once the node runs again
            platz.rueckstau.append((self._zustellen, (sendung,)))
            return
        if self.beobachter is not None:
            self._zustellen(sendung)
            return
        # pysim's own node (``code_der_leserin=False``), awaiting no reply, and no cause to
        # carry (only a ``Beobachter`` gives one): its handler from the table of its class,
        # called here (``_bearbeite`` and ``_rufe`` in one: every message of Raft comes here)
        if not (
            platz.offen
            or self.code_der_leserin
            or sendung.ursache is not None
            or self._ursache is not None
        ):
            tabelle, typ = platz.handler, nachricht.body["type"]
            handler = tabelle[typ] if typ in tabelle else _handler(platz, typ)
            if handler is not None:
                self._rufe_handler(handler, platz, nachricht)
                return
        # ``_zustellen`` without a watcher, inlined
        vorher, self._ursache = self._ursache, sendung.ursache
        try:
            self._bearbeite(nachricht)
        finally:
            self._ursache = vorher

    def _ankunft_leicht(self, leicht: tuple[Nachricht, int, int, int]) -> None:
        """The arrival of a message sent without a ``Sendung`` (``_unterwegs``: nachricht,
        gesendet, nummer, kopie): to a running node's handler from its table, or else (a
        partition, the receiver crashed, paused or awaiting a reply, the budget spent) as
        the ``Sendung`` it stands for through ``_ankunft``."""
        nachricht = leicht[0]
        platz = self._plaetze.get(nachricht.dest)
        if (
            platz is None
            or platz.pausiert
            or not platz.laeuft
            or platz.offen
            or self.code_der_leserin
            or self._verliert
            or self.beobachter is not None
            or self._gezaehlt > self.max_ereignisse
            or (self.getrennt and (nachricht.src, nachricht.dest) in self.getrennt)
        ):
            self._ankunft(_sendung_aus(leicht, self.zeit._now))
            return
        tabelle, typ = platz.handler, nachricht.body["type"]
        handler = tabelle[typ] if typ in tabelle else _handler(platz, typ)
        if handler is None:  # none of its class's own: by name (``getattr``), or error 10
            self._bearbeite(nachricht)
            return
        self._rufe_handler(handler, platz, nachricht)

    def _rufe_handler(self, handler: Callable[..., Any], platz: _Platz, n: Nachricht) -> None:
        """``_rufe`` for a handler of pysim's own node from its table (``_handler``)."""
        try:
            ergebnis = handler(platz.instanz, n)
        except (grenze.EndetNicht, Exception) as e:
            self._gescheitert(n.dest, handler, n, e)
            return
        if ergebnis is not None and type(ergebnis) is CoroutineType:
            self._prozess(n.dest, ergebnis, _was(handler, n))

    # --- a node's gate: crashed nodes get nothing, paused ones later -----------------------------

    def _an(
        self, knoten: str, inkarnation: int, aktion: Callable[..., Any], *argumente: Any
    ) -> None:
        platz = self._plaetze[knoten]
        if platz.inkarnation != inkarnation or not platz.laeuft:
            return
        if platz.pausiert:
            platz.rueckstau.append((aktion, argumente))
            return
        aktion(*argumente)

    def _geweckt(self, wecker: tuple[str, int, Callable[..., Any], tuple[Any, ...]]) -> None:
        """A node's timer (``_wecker``: knoten, inkarnation, aktion, argumente): counted in
        the event budget, else as ``_an``."""
        if self._gezaehlt > self.max_ereignisse:
            raise self._abgebrochen()
        knoten, inkarnation, aktion, argumente = wecker
        self._an(knoten, inkarnation, aktion, *argumente)

    # Counted when scheduled, checked when run (first thing in ``_ankunft`` and ``_geweckt``):
    # a node that floods has about as many messages on the wire as it has handled, so its run
    # ends after half the work (and the reader's verdict comes twice as soon;
    # benchmarks/README.md, issue 47).

    def _abgebrochen(self) -> LaufAbgebrochen:
        return LaufAbgebrochen(
            f"Der Lauf brach bei t={self.zeit.now} nach {self.max_ereignisse} Ereignissen ab: "
            "Ein Knoten erzeugt ohne Ende Nachrichten oder Timer (z. B. eine Nachricht, die "
            "jede Antwort mit einer neuen Nachricht beantwortet)."
        )

    def _wecker(self, knoten: str, ticks: int, aktion: Callable[..., Any], *argumente: Any) -> None:
        """A node's timer: runs ``aktion`` unless the node crashed meanwhile; late if paused.
        Never cancelled (``Knoten.spaeter`` has its own): an entry without a ``Termin``."""
        self._gezaehlt += 1
        zeit = self.zeit
        zeit._eintragen_fest(
            zeit._now + ticks,
            self._geweckt,
            (knoten, self._plaetze[knoten].inkarnation, aktion, argumente),
        )

    def _alle(self, knoten: str, ticks: int, aktion: Callable[[], Any]) -> None:
        """``Knoten.alle``: the next timer first (a handler that raises keeps its interval)."""
        self._wecker(knoten, ticks, self._alle, knoten, ticks, aktion)
        self._rufe(knoten, aktion)

    def _verschobener_timer(
        self,
        knoten: str,
        inkarnation: int,
        timer: _Timer,
        faellig: int,
        nummer: int,
        aktion: Callable[[], Any],
    ) -> None:
        """A timer's old time, after ``Timer.verschiebe`` moved it later: no event of the node
        (no budget, no gate), only the entry at its new time, with the number it was given
        when it was moved (so it runs where a new timer set then would run). Of a crashed
        incarnation nothing is entered: it would do nothing."""
        platz = self._plaetze[knoten]
        if platz.inkarnation != inkarnation:
            return
        platz.timer[timer._nummer] = self.zeit._eintragen_als(
            faellig,
            nummer,
            self._timer_faellig,
            (knoten, inkarnation, timer, aktion),
        )

    def _timer_faellig(
        self, knoten: str, inkarnation: int, timer: _Timer, aktion: Callable[[], Any]
    ) -> None:
        """A timer of ``Knoten.spaeter`` is due: ``_geweckt`` and ``_rufe_timer`` in one call
        (Raft's timeouts and heartbeats)."""
        platz = self._plaetze[knoten]
        if (
            platz.pausiert
            or not platz.laeuft
            or platz.inkarnation != inkarnation
            or self._gezaehlt > self.max_ereignisse
        ):  # over budget, crashed, or paused: as any timer of the node
            self._geweckt((knoten, inkarnation, self._rufe_timer, (knoten, timer, aktion)))
            return
        platz.timer.pop(timer._nummer, None)
        if timer._abgesagt:
            return
        if self.code_der_leserin:
            self._rufe(knoten, aktion)
            return
        # pysim's own node: ``_rufe`` without its frame (Raft's timeouts and heartbeats)
        try:
            ergebnis = aktion()
        except (grenze.EndetNicht, Exception) as e:
            self._gescheitert(knoten, aktion, "", e)
            return
        if ergebnis is not None and type(ergebnis) is CoroutineType:
            self._prozess(knoten, ergebnis, _was(aktion, ""))

    def _rufe_timer(self, knoten: str, timer: _Timer, aktion: Callable[[], Any]) -> None:
        """``Knoten.spaeter``'s timer: not if it was cancelled (also while a pause held it)."""
        self._plaetze[knoten].timer.pop(timer._nummer, None)
        if not timer._abgesagt:
            self._rufe(knoten, aktion)

    # --- running the reader's code ----------------------------------------------------------------

    def _zustellen(self, sendung: Sendung) -> None:
        nachricht = sendung.nachricht
        beobachter = self.beobachter
        ursache = sendung.ursache if beobachter is None else beobachter.zustellung(sendung)
        vorher, self._ursache = self._ursache, ursache
        try:
            self._bearbeite(nachricht)
        finally:
            self._ursache = vorher
        if beobachter is not None:
            beobachter.fertig(nachricht.dest, ursache)

    def _bearbeite(self, nachricht: Nachricht) -> None:
        platz = self._plaetze[nachricht.dest]
        body = nachricht.body
        antwort_auf = body.get("in_reply_to")
        if platz.offen and isinstance(antwort_auf, int) and antwort_auf in platz.offen:
            fortsetzung, timeout = platz.offen.pop(antwort_auf)
            timeout.absagen()
            if nachricht.typ == "error":
                fortsetzung.weiter(fehler=FehlerAntwort(dict(body)))
            else:
                fortsetzung.weiter(nachricht)
            return
        instanz = platz.instanz
        assert instanz is not None
        # body["type"] is a text (``inhalt`` checked it, or pysim's own node set it)
        handler = getattr(instanz, f"bei_{body['type']}", None)
        if handler is None:
            if antwort_auf is None and "msg_id" in body:
                self._notiz(
                    nachricht.dest,
                    f"hat keinen Handler bei_{nachricht.typ} und antwortet mit Fehler 10 (not-supported)",
                )
                self._sende(
                    nachricht.dest,
                    nachricht.src,
                    {
                        "type": "error",
                        "code": 10,
                        "in_reply_to": body["msg_id"],
                        "text": f"Nachrichtentyp „{kurz(nachricht.typ)}“ wird nicht unterstützt",
                    },
                    nachricht.dest,
                )
            return
        self._rufe(nachricht.dest, handler, nachricht, was=nachricht)

    def rufe(self, knoten: str, aktion: Callable[..., Any], *argumente: Any) -> None:
        """Ruft ``aktion`` (eine Methode des laufenden Knotens ``knoten``) jetzt auf, wie einen
        Handler: Eine ``async`` Methode läuft als Handler des Knotens weiter (``await
        self.erste(…)``). Für eine Front, die ihren Knoten Arbeit gibt (``ReplikSpeicher`` dem
        Koordinator); nie einem Knoten geben."""
        self._platz(knoten)
        self._rufe(knoten, aktion, *argumente, was=f"{getattr(aktion, '__name__', 'Aufruf')}()")

    def _rufe(
        self, knoten: str, aktion: Callable[..., Any], *argumente: Any, was: str | Nachricht = ""
    ) -> None:
        """Calls the reader's ``aktion``; a coroutine becomes a ``HandlerProzess`` run step by step.
        ``was`` names the call in a message (a ``Nachricht``: the message it handles), made
        into text only when needed."""
        try:
            if self.code_der_leserin:
                ergebnis = self.code(knoten, aktion, *argumente)
            else:  # pysim's own nodes: no budget, no capture (``code``), one call less
                ergebnis = aktion(*argumente)
        except (grenze.EndetNicht, Exception) as e:
            self._gescheitert(knoten, aktion, was, e)
            return
        if ergebnis is not None and type(ergebnis) is CoroutineType:
            self._prozess(knoten, ergebnis, _was(aktion, was))

    def _gescheitert(
        self,
        knoten: str,
        aktion: Callable[..., Any],
        was: str | Nachricht,
        fehler: grenze.EndetNicht | Exception,
    ) -> None:
        """A call of a node's code raised: past its loop budget the run stops, anything else
        is the node's ``HandlerFehler``."""
        if isinstance(fehler, grenze.EndetNicht):
            raise self.endet_nicht(
                knoten, getattr(aktion, "__name__", "Timer"), _was(aktion, was), fehler
            ) from None
        self._handler_fehler(knoten, _was(aktion, was), fehler)

    def _prozess(self, knoten: str, coro: CoroutineType[Any, Any, Any], was: str) -> None:
        """An ``async`` handler's coroutine, run as a ``HandlerProzess`` of its node."""
        prozess = HandlerProzess(self, knoten, coro, was)
        self._plaetze[knoten].prozesse[prozess] = None
        prozess.weiter()

    def code(self, knoten: str, aktion: Callable[..., Any], *argumente: Any) -> Any:
        """One call of the code of ``knoten``: within its loop budget (``grenze``), with
        ``sys.stdout`` and ``sys.stderr`` writing into the run's log under this tick and node.
        Both are what they were before when the call ends, however it ends (an exception,
        ``grenze.EndetNicht``, code that set them itself). Nodes pysim brings itself
        (``code_der_leserin=False``) are called plainly: the budget and the capture cost more
        than such a node's handler (``sys.settrace`` in Python 3.11: half of a Raft run)."""
        if not self.code_der_leserin:
            return aktion(*argumente)
        strom = self.protokoll.strom(self.zeit.now, knoten)
        stdout, stderr = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = strom
        try:
            return grenze.rufe(self.max_schritte, aktion, *argumente)
        finally:
            sys.stdout, sys.stderr = stdout, stderr
            if strom.offen:
                strom.schliesse()

    def endet_nicht(
        self, knoten: str, name: str, was: str, e: grenze.EndetNicht
    ) -> LaufAbgebrochen:
        """The German message when one call of the reader's code used up its lines."""
        # a Python handler is bei_<typ>, a TypeScript one on<Typ> (pysim/cluster/ts_knoten.py)
        art = "Handler" if name.startswith("bei_") or re.match(r"on[A-Z]", name) else "Aufruf von"
        wo = f"Zeile {e.zeile}" + (f" („{kurz(e.code, 60)}“)" if e.code else "")
        wofuer = "" if was.endswith("()") else f" für {was}"
        grenze_ = f"{self.max_schritte:,}".replace(",", ".")
        return LaufAbgebrochen(
            f"Der {art} {name} von {knoten} endet nicht: Sein Aufruf{wofuer} (t={self.zeit.now}) "
            f"lief mehr als {grenze_} Schleifendurchläufe, zuletzt in {wo}. Das ist wohl eine "
            "Schleife, die nie endet; der Lauf bricht hier ab."
        )

    def _frage(
        self,
        knoten: str,
        ziel: str,
        body: dict[str, Any],
        timeout: int,
        fortsetzung: Fortsetzung,
    ) -> None:
        platz = self._plaetze[knoten]
        try:
            inhalt_ = inhalt(body, f"{knoten}.frage")
        except UngueltigeNachricht as e:
            fortsetzung.weiter(fehler=e)
            return
        platz.msg_id += 1
        msg_id = platz.msg_id
        inhalt_["msg_id"] = msg_id
        try:
            self._sende(knoten, ziel, inhalt_, f"{knoten}.frage")
        except UngueltigeNachricht as e:
            fortsetzung.weiter(fehler=e)
            return
        inkarnation = platz.inkarnation

        def abgelaufen() -> None:
            if platz.inkarnation == inkarnation and platz.offen.pop(msg_id, None) is not None:
                fortsetzung.weiter(
                    fehler=KeineAntwort(
                        f"{knoten} bekam von {ziel} binnen {timeout} Ticks keine Antwort auf „{inhalt_['type']}“."
                    )
                )

        termin = self.zeit.schedule(timeout, self._an, knoten, inkarnation, abgelaufen)
        platz.offen[msg_id] = (fortsetzung, termin)

    def _handler_fehler(self, knoten: str, was: str, fehler: BaseException) -> None:
        """Keeps what the reader's handler raised, cut before it is kept (``meldung``: a
        ``ValueError("x" * 5_000_000)`` becomes 500 characters and a note of what is missing),
        so no verdict, picture or page data carries megabytes of it."""
        zeile, code = _zeile_der_leserin(fehler)
        self.fehler.append(
            HandlerFehler(
                self.zeit.now, knoten, was, meldung(fehler), zeile, gekuerzt(code, MAX_WERT)
            )
        )
        if self.absturz_bei_fehler and self._plaetze[knoten].laeuft:
            self.absturz(knoten, grund=f"nach {kurz(type(fehler).__name__, 60)}")

    def _lokale_zeit(self, knoten: str) -> int:
        platz = self._plaetze[knoten]
        jetzt = self.zeit.now
        return jetzt + platz.versatz + int((jetzt - platz.drift_seit) * platz.drift)

    def _notiz(self, knoten: str, text: str) -> None:
        self.protokoll.schreibe(self.zeit.now, knoten, NOTIZ, text)

    # --- life and faults (the nemesis calls these) -----------------------------------------------

    def _starte(self, knoten: str) -> None:
        platz = self._plaetze[knoten]
        try:
            instanz: Knoten = self.code(knoten, platz.klasse)  # the reader's __init__, if any
        except grenze.EndetNicht as e:
            raise self.endet_nicht(knoten, "__init__", "__init__()", e) from None
        instanz.id = knoten
        instanz.knoten = list(self.ids)
        instanz.speicher = platz.speicher
        vars(instanz)["_netz"] = _Tor(self, knoten, platz.inkarnation)  # Knoten._netz reads it
        platz.instanz = instanz
        self._rufe(knoten, instanz.beim_start, was="beim_start()")

    def absturz(self, knoten: str, grund: str = "") -> None:
        """Der Knoten stürzt ab: Was er im Speicher hielt und was er gerade tat, ist weg;
        Nachrichten an ihn gehen verloren, bis er neu startet. ``speicher`` bleibt."""
        platz = self._platz(knoten)
        if not platz.laeuft:
            return
        platz.letzter_zustand = self.zustand(knoten)
        platz.laeuft, platz.pausiert = False, False
        platz.inkarnation += 1
        platz.instanz = None
        platz.rueckstau.clear()
        for prozess in list(platz.prozesse):  # every wait of the node ends with it
            prozess.abbrechen()
        platz.prozesse.clear()
        for _, termin in platz.offen.values():
            termin.absagen()
        platz.offen.clear()
        # its timers still run, and do nothing (``_geweckt``, ``_timer_faellig``): counted events stay counted
        platz.timer.clear()
        self.ereignisse.append(
            Ereignis(self.zeit.now, "absturz", (knoten,), f"{knoten} stürzt ab {grund}".strip())
        )

    def neustart(self, knoten: str) -> None:
        """Startet einen abgestürzten Knoten neu: ein neues Objekt, ``speicher`` wie vorher."""
        platz = self._platz(knoten)
        if platz.laeuft:
            return
        platz.laeuft = True
        self.ereignisse.append(
            Ereignis(self.zeit.now, "neustart", (knoten,), f"{knoten} startet neu")
        )
        self._starte(knoten)

    def pausiere(self, knoten: str) -> None:
        """Der Knoten hält an (eine lange GC-Pause, eine angehaltene VM): Er bearbeitet nichts,
        was ankommt, wartet, und seine Timer feuern erst, wenn er weiterläuft."""
        platz = self._platz(knoten)
        if platz.laeuft and not platz.pausiert:
            platz.pausiert = True
            self.ereignisse.append(Ereignis(self.zeit.now, "pause", (knoten,), f"{knoten} hält an"))

    def fortsetzen(self, knoten: str) -> None:
        """Der pausierte Knoten läuft weiter und holt nach, was inzwischen kam, der Reihe nach."""
        platz = self._platz(knoten)
        if not platz.pausiert:
            return
        platz.pausiert = False
        self.ereignisse.append(
            Ereignis(self.zeit.now, "weiter", (knoten,), f"{knoten} läuft weiter")
        )
        rueckstau, platz.rueckstau = platz.rueckstau, []
        for aktion, argumente in rueckstau:
            if platz.pausiert or not platz.laeuft:  # paused or crashed again meanwhile
                platz.rueckstau.append((aktion, argumente))
                continue
            aktion(*argumente)

    def trenne(self, *seiten: Iterable[str]) -> None:
        """Trennt das Netz in ``seiten`` (Mengen von Knoten): Nachrichten zwischen Knoten
        verschiedener Seiten gehen verloren. Ein Knoten in keiner Seite ist eine Seite für sich.
        Eine Brücke: ein Knoten in zwei Seiten hört beide."""
        gruppen = [set(self._pruefe_knoten(seite)) for seite in seiten]
        for k in self.ids:
            if not any(k in g for g in gruppen):
                gruppen.append({k})
        getrennt = set()
        for a in self.ids:
            for b in self.ids:
                if a != b and not any(a in g and b in g for g in gruppen):
                    getrennt.add((a, b))
        self.getrennt = getrennt
        beschreibung = " | ".join(" ".join(sorted(g)) for g in gruppen)
        self.ereignisse.append(
            Ereignis(self.zeit.now, "teilung", tuple(self.ids), f"Netz geteilt: {beschreibung}")
        )

    #: The earlier name of ``trenne`` (ARCHITECTURE.md, "Naming": one word per thing).
    teile = trenne

    def verliere_dienstantworten(self, knoten: str) -> None:
        """Was ein Dienst ``knoten`` geschickt hat und in diesem Tick ankäme, geht verloren
        (eine Verbindung, die abreißt, nachdem der Dienst die Anfrage bearbeitet hat)."""
        self._platz(knoten)
        self._verliert[knoten] = self.zeit.now
        self.ereignisse.append(
            Ereignis(
                self.zeit.now,
                "verlust",
                (knoten,),
                f"Antworten eines Dienstes an {knoten} gehen verloren",
            )
        )

    def failover(self, knoten: str, nach: str = "") -> None:
        """Ein Failover (die Störung ``failover``): ``knoten`` wird als Leader abgelöst, die
        Front des Clusters befördert ``nach`` (ohne: den Follower, den sie wählt). Was das im
        Protokoll heißt, weiß nur die Front (``bei_failover``, etwa ``ReplikSpeicher``); ein
        Cluster ohne sie kennt keinen Failover."""
        self._platz(knoten)
        if nach:
            self._platz(nach)
        if self.bei_failover is None:
            raise UngueltigeEingabe(
                f"Ein Failover (weg von {knoten}) braucht ein Protokoll mit Leader, das weiß, wen "
                "es befördert (etwa ReplikSpeicher); dieser Cluster hat keins. Für einen Leader, "
                "der ausfällt, nimm „absturz“."
            )
        neu = self.bei_failover(knoten, nach)
        self.ereignisse.append(
            Ereignis(
                self.zeit.now,
                "failover",
                (knoten, neu),
                f"Failover: {neu} löst {knoten} als Leader ab",
            )
        )

    def heile(self) -> None:
        """Hebt jede Netzpartition auf, und jede Leitung mit eigener Laufzeit läuft wieder mit
        der des Clusters (``latenz_zwischen``)."""
        if self.getrennt or self._latenzen:
            self.getrennt = set()
            self._latenzen = {}
            self.ereignisse.append(
                Ereignis(self.zeit.now, "heilung", tuple(self.ids), "Netz wieder ganz")
            )

    def latenz_zwischen(
        self,
        von: str | Iterable[str],
        zu: str | Iterable[str],
        latenz: tuple[int, int] | None,
        *,
        nur_hin: bool = False,
    ) -> None:
        """Nachrichten zwischen ``von`` und ``zu`` (je ein Knoten oder mehrere, auch ein Dienst)
        brauchen ab jetzt ``latenz`` Ticks (kleinste und größte, gewürfelt je Nachricht), in
        beide Richtungen (``nur_hin``: nur von ``von`` zu ``zu``): ein Replikat, das
        hinterherhinkt. ``None``: wieder die Laufzeit des Clusters. ``heile`` setzt alle
        Leitungen zurück. Was schon unterwegs ist, bleibt, wie es war."""
        links, rechts = self._pruefe_knoten(von, dienste=True), self._pruefe_knoten(zu, True)
        if latenz is not None:
            latenz = pruefe_verzoegerung(latenz, 0, (8, 12))
        for a in links:
            for b in rechts:
                for paar in ((a, b),) if nur_hin else ((a, b), (b, a)):
                    if a == b:
                        continue
                    if latenz is None:
                        self._latenzen.pop(paar, None)
                    else:
                        self._latenzen[paar] = latenz
        beschreibung = f"{' '.join(links)} und {' '.join(rechts)}"
        if latenz is None:
            art, text = "schnell", f"Leitung zwischen {beschreibung} wieder normal"
        else:
            art, text = (
                "langsam",
                f"Leitung zwischen {beschreibung} langsam: {latenz[0]} bis {latenz[1]} Ticks",
            )
        self.ereignisse.append(
            Ereignis(self.zeit.now, art, tuple(dict.fromkeys([*links, *rechts])), text)
        )

    def verstelle_uhr(self, knoten: str, versatz: int = 0, drift: float = 0.0) -> None:
        """Die Uhr des Knotens springt um ``versatz`` Ticks und geht ab jetzt um ``drift``
        (Anteil, z. B. 0.1 = 10 % zu schnell) falsch."""
        platz = self._platz(knoten)
        platz.versatz = (
            self._lokale_zeit(knoten) - self.zeit.now + pruefe_ganzzahl(versatz, "Der Versatz")
        )
        platz.drift, platz.drift_seit = float(drift), self.zeit.now
        self.ereignisse.append(
            Ereignis(
                self.zeit.now,
                "uhr",
                (knoten,),
                f"Uhr von {knoten}: {versatz:+d} Ticks, Drift {drift:+.0%}",
            )
        )

    def objekt(self, knoten: str) -> Knoten | None:
        """Das laufende Objekt des Knotens (``None``, solange er abgestürzt ist): für eine Front
        wie ``pysim.raft.RaftSim``, die Zustand und Bild zeigt. Nie einem Knoten geben."""
        return self._platz(knoten).instanz

    def laeuft(self, knoten: str) -> bool:
        platz = self._platz(knoten)
        return platz.laeuft and not platz.pausiert

    # --- roles, states and invariants ------------------------------------------------------------

    def rollen(self, rolle: str) -> list[str]:
        """Die Knoten, die gerade ``rolle`` sind (``Knoten.rolle``), in der Reihenfolge ihrer
        IDs; ein abgestürzter Knoten hat keine Rolle, ein angehaltener seine letzte."""
        treffer = []
        for k in self.ids:
            instanz = self._plaetze[k].instanz
            if instanz is not None and self._plaetze[k].laeuft:
                if self._lies(k, partial(getattr, instanz, "rolle", None)) == rolle:
                    treffer.append(k)
        return treffer

    def notiere_stoerung(self, text: str) -> None:
        """Eine Zeile des Nemesis im Protokoll des Laufs (etwa: eine Störung blieb aus)."""
        self.protokoll.schreibe(self.zeit.now, "Nemesis", NOTIZ, text)

    def zustand(self, knoten: str) -> Mapping[str, object]:
        """Was ``knoten`` zeigt (``Knoten.zustand``): jetzt, oder, ist er abgestürzt, was er
        zuletzt davor zeigte."""
        platz = self._platz(knoten)
        instanz = platz.instanz
        if instanz is None or not platz.laeuft:
            return platz.letzter_zustand
        try:
            zustand = self._lies(knoten, instanz.zustand)
        except Exception as e:  # the reader's zustand() failed: the panel says so
            return {"zustand() warf": meldung(e, 200)}
        if not isinstance(zustand, Mapping):
            return {"zustand() gab": f"{type(zustand).__name__} statt eines dict"}
        return zustand

    def zustaende(self) -> dict[str, Mapping[str, object]]:
        """Was jeder Knoten zeigt (``zustand``), Knoten → Feld → Wert: für die Tafel im Bild."""
        return {k: self.zustand(k) for k in self.ids}

    def invariante(self, name: str, praedikat: Callable[[Zustaende], object]) -> None:
        """Prüft ``praedikat`` nach jedem Ereignis des Laufs (jeder Zustellung, jedem Timer,
        jeder Störung), wie die Zustandsprädikate von DSLabs. Es bekommt, was jeder Knoten zeigt
        (``zustaende()``, nur lesbar; ein abgestürzter Knoten mit dem, was er zuletzt zeigte)
        und gibt ``True`` (gilt), ``False`` (gilt nicht) oder einen Text zurück: den Grund,
        warum sie nicht gilt. Die erste, die nicht gilt, hält den Lauf an: ``laufe`` wirft
        ``InvarianteVerletzt``, und ``verletzung`` sagt, wann, wonach und warum."""
        if not callable(praedikat):
            raise UngueltigeEingabe(
                f"invariante(name, praedikat): praedikat ist eine Funktion, die die Zustände "
                f"der Knoten bekommt, nicht {type(praedikat).__name__}."
            )
        self._invarianten.append((str(name), praedikat))

    def _lies(self, knoten: str, aktion: Callable[[], Any]) -> Any:
        """Reads something of the reader's code (a role, a state) within its loop budget."""
        try:
            return self.code(knoten, aktion)
        except grenze.EndetNicht as e:
            raise self.endet_nicht(knoten, getattr(aktion, "__name__", "Aufruf"), "()", e) from None
        finally:
            if not self._im_lauf:
                grenze.aus()

    def _pruefe_invarianten(self, termin: Termin) -> None:
        zustaende = MappingProxyType(
            {k: MappingProxyType(dict(z)) for k, z in self.zustaende().items()}
        )
        for name, praedikat in self._invarianten:
            try:
                ergebnis = self.code("Invariante", praedikat, zustaende)
            except grenze.EndetNicht as e:
                raise self.endet_nicht("Invariante", f"„{name}“", "()", e) from None
            except Exception as e:
                raise UngueltigeEingabe(
                    f"Die Invariante „{name}“ warf bei t={self.zeit.now}: {meldung(e)}"
                ) from None
            if ergebnis is True or ergebnis is None:
                continue
            if ergebnis is not False and not isinstance(ergebnis, str):
                raise UngueltigeEingabe(
                    f"Die Invariante „{name}“ gab {type(ergebnis).__name__} zurück; sie gibt "
                    "True (gilt), False (gilt nicht) oder einen Text zurück (warum nicht)."
                )
            self.verletzung = Verletzung(
                self.zeit.now,
                self._ereignis_text(termin),
                name,
                kurz(ergebnis, 300) if isinstance(ergebnis, str) else "",
                zustaende,
            )
            raise InvarianteVerletzt(self.verletzung)

    def _ereignis_text(self, termin: Termin) -> str:
        """What a scheduled event did, in German (for a violated invariant)."""
        aktion, argumente = termin.aktion, termin.argumente
        funktion = getattr(aktion, "__func__", None)
        ziel = getattr(aktion, "__self__", None)
        if funktion in (Cluster._ankunft, Cluster._ankunft_leicht):
            n = argumente[0].nachricht if funktion is Cluster._ankunft else argumente[0][0]
            return f"der Ankunft von „{kurz(n.typ, 40)}“ von {n.src} bei {n.dest}"
        if funktion in (Cluster._an, Cluster._timer_faellig, Cluster._verschobener_timer):
            return f"einem Timer von {argumente[0]}"
        if funktion is Cluster._geweckt:
            return f"einem Timer von {argumente[0][0]}"
        if isinstance(ziel, Stoerung):
            return f"der Störung „{ziel.als_text()}“"
        return f"einem Ereignis um t={termin.zeit}"

    def _platz(self, knoten: str) -> _Platz:
        try:
            return self._plaetze[knoten]
        except (KeyError, TypeError):
            namen = ", ".join(f"„{k}“" for k in self.ids)
            raise UngueltigeEingabe(
                f"Einen Knoten {knoten!r} gibt es nicht. Es gibt: {namen}."
            ) from None

    def _pruefe_knoten(self, seite: Iterable[str], dienste: bool = False) -> list[str]:
        """The nodes of ``seite`` (with ``dienste``: services may be named too)."""
        knoten = [seite] if isinstance(seite, str) else list(seite)
        for k in knoten:
            if not (dienste and k in self._empfaenger and k not in self._clients):
                self._platz(k)
        return knoten

    # --- running ------------------------------------------------------------------------------

    def laufe(self, bis: int) -> None:
        """Lässt die Zeit bis zum Tick ``bis`` laufen (mit Invarianten: prüft sie nach jedem
        Ereignis und wirft ``InvarianteVerletzt`` bei der ersten, die nicht gilt)."""
        if self.verletzung is not None:
            raise InvarianteVerletzt(self.verletzung)
        if self.code_der_leserin:  # pysim's own nodes run without a budget: no events to arm
            grenze.an()
        self._im_lauf = True
        try:
            if self._invarianten:
                self._laufe_geprueft(bis)
            else:
                self.zeit.run(until=bis)
        finally:
            self._im_lauf = False
            grenze.aus()

    def laufe_bis_ruhe(self, hoechstens: int) -> bool:
        """Lässt die Zeit laufen, bis kein Termin mehr aussteht (die Uhr bleibt beim letzten
        Ereignis), höchstens bis Tick ``hoechstens``: ``False``, wenn danach noch einer aussteht.
        Invarianten prüft es wie ``laufe``."""
        if self.verletzung is not None:
            raise InvarianteVerletzt(self.verletzung)
        pruefe_ganzzahl(hoechstens, "hoechstens")
        zeit = self.zeit
        if self.code_der_leserin:  # as ``laufe``
            grenze.an()
        self._im_lauf = True
        try:
            while (naechste := zeit.peek()) is not None:
                if naechste > hoechstens:
                    return False
                if self._invarianten:
                    self._laufe_geprueft(naechste)
                else:  # the tick's events in Zeit's own loop; the clock stops at the tick
                    zeit.run(until=naechste)
            return True
        finally:
            self._im_lauf = False
            grenze.aus()

    def _laufe_geprueft(self, bis: int) -> None:
        """``Zeit.run`` one event at a time, checking the invariants after each (only when
        there are any: a run without them takes ``Zeit.run``'s own loop)."""
        pruefe_ganzzahl(bis, "bis")
        zeit = self.zeit
        while True:
            termin = zeit.naechster()
            if termin is None or termin.zeit > bis:
                break
            zeit.step()
            self._pruefe_invarianten(termin)
        zeit.run(until=bis)

    def unterwegs(self) -> list[Sendung]:
        """Die Nachrichten, die gerade unterwegs sind, in der Reihenfolge, in der sie gesendet
        wurden (auch mit ``sendungen_behalten=False``: Der Kalender der Uhr hält sie)."""
        auf_der_leitung: list[Sendung] = []
        for eintrag in self.zeit._heap:
            # (zeit, nummer, aktion, sendung), or a Termin (``sofort``'s arrivals)
            if len(eintrag) == 4:
                aktion, sendung = eintrag[2], eintrag[3]
            elif not eintrag[2].abgesagt:
                aktion, sendung = eintrag[2].aktion, eintrag[2].argumente[0]
            else:
                continue
            if getattr(aktion, "__self__", None) is not self:
                continue
            funktion = getattr(aktion, "__func__", None)
            if funktion is Cluster._ankunft:
                auf_der_leitung.append(sendung)
            elif funktion is Cluster._ankunft_leicht:
                auf_der_leitung.append(_sendung_aus(sendung, eintrag[0]))
        auf_der_leitung += self._sofort  # ``sofort``: arrivals of latency 0 not handed over yet
        return sorted(auf_der_leitung, key=lambda s: s.nummer)

    def gesendet(self) -> int:
        """Wie viele Nachrichten zwischen Knoten bisher gesendet wurden (jede Kopie eines
        Duplikats zählt, wie in ``zaehle``)."""
        if not self._behalten:
            return self._zwischen_knoten
        return self.zaehle()["gesendet"]

    def zaehle(self) -> dict[str, int]:
        """Wie viele Nachrichten zwischen Knoten gesendet wurden und was aus ihnen wurde."""
        if not self._behalten:
            raise UngueltigeEingabe(
                "Dieser Cluster behält seine Sendungen nicht (sendungen_behalten=False): Was aus "
                "ihnen wurde, zählt nur ein Cluster, der sie behält; gesendet() zählt sie."
            )
        zaehlung = {"gesendet": 0, ZUGESTELLT: 0, VERLOREN: 0, GETRENNT: 0, EMPFAENGER_AUS: 0}
        for sendung in self.sendungen:
            n = sendung.nachricht
            if self.ist_knoten(n.src) and self.ist_knoten(n.dest):
                zaehlung["gesendet"] += 1
                if sendung.schicksal:
                    zaehlung[sendung.schicksal] += 1
        return zaehlung


class HandlerProzess(Prozess):
    """A running ``async`` handler of a node (``pysim.prozess.Prozess``): each step is one call
    of the reader's code (``Cluster.code``: its loop budget, its output into the run's log);
    what it raises is a ``HandlerFehler`` of its node; it may await only the node's own
    waits (``knoten.WARTBAR``, and ``erste``/``mehrheit``/``eines`` of them)."""

    durchlassen = (LaufAbgebrochen,)

    def __init__(
        self, cluster: Cluster, knoten: str, coro: Coroutine[Any, Any, Any], was: str
    ) -> None:
        super().__init__(
            coro,
            bei_fehler=lambda e: cluster._handler_fehler(knoten, was, e),
            erlaubt=WARTBAR,
            falsch=falsch_gewartet,
            bei_ende=lambda p: cluster._plaetze[knoten].prozesse.pop(p, None),
        )
        self.cluster, self.knoten, self.was = cluster, knoten, was

    def schritt(self, wert: Any, fehler: BaseException | None) -> Any:
        coro = self.coro
        try:
            if fehler is not None:
                return self.cluster.code(self.knoten, coro.throw, fehler)
            return self.cluster.code(self.knoten, coro.send, wert)
        except grenze.EndetNicht as e:
            coro.close()
            name = getattr(coro, "__name__", "Handler")
            raise self.cluster.endet_nicht(self.knoten, name, self.was, e) from None


_lies = object.__getattribute__
_neu = object.__new__


class _Tor:
    """A node's ``Netzzugang``: everything it may do, and nothing to follow to the cluster,
    another node or the history. What it holds is reachable only from pysim's own methods
    (``_innen``, read with its slot's getter ``_INNEN``); a node's code that reaches further
    (``self._netz.cluster``, ``self._netz.__dict__``) gets the German error naming what a node
    may use. A new gate at every start: the gate of a crashed incarnation does nothing any
    more. One slot, read once per call: a read past ``__getattribute__``
    (``object.__getattribute__``) costs about as much as a call of a Python function, and
    every message and timer of a node comes through here (benchmarks/README.md, session 18)."""

    #: ``_innen``: (cluster, knoten, inkarnation, platz), the last outlasting every crash.
    __slots__ = ("_innen",)
    #: The names a node's code may read on its gate (the methods of ``Netzzugang``).
    OFFEN = frozenset(
        {"speicher", "sende", "frage", "warte", "spaeter", "alle", "uhr", "notiz", "__class__"}
    )

    def __init__(self, cluster: Cluster, knoten: str, inkarnation: int) -> None:
        object.__setattr__(self, "_innen", (cluster, knoten, inkarnation, cluster._plaetze[knoten]))

    def __getattribute__(self, name: str) -> Any:
        if name in _Tor.OFFEN:
            return _lies(self, name)
        nur_eigene_api(name)

    def __setattr__(self, name: str, wert: object) -> None:
        nur_eigene_api(name)

    def __dir__(self) -> list[str]:
        return sorted(_Tor.OFFEN - {"__class__"})

    def __repr__(self) -> str:
        return f"<Netzzugang von {_INNEN(self)[1]}>"

    def _lebt(self) -> Cluster | None:
        """The cluster, while this gate's incarnation runs (else None: a crashed node's gate)."""
        cluster, _, inkarnation, platz = _INNEN(self)
        return cluster if platz.laeuft and platz.inkarnation == inkarnation else None

    @property
    def speicher(self) -> dict[str, Any]:
        platz: _Platz = _INNEN(self)[3]
        return platz.speicher

    def sende(self, ziel: str, body: object, wer: str, frisch: bool = False) -> None:
        cluster, knoten, inkarnation, platz = _INNEN(self)  # ``_lebt``, inlined: every message
        if platz.laeuft and platz.inkarnation == inkarnation:
            cluster._sende(knoten, ziel, body, wer, frisch)

    def frage(
        self, ziel: str, body: dict[str, Any], timeout: int, fortsetzung: Fortsetzung
    ) -> None:
        cluster = _Tor._lebt(self)
        if cluster is not None:
            cluster._frage(_INNEN(self)[1], ziel, body, timeout, fortsetzung)

    def warte(self, ticks: int, fortsetzung: Fortsetzung) -> None:
        cluster, knoten, inkarnation, platz = _INNEN(self)  # each step of a lease's client
        if platz.laeuft and platz.inkarnation == inkarnation:
            cluster._wecker(knoten, ticks, fortsetzung.weiter, None)

    def spaeter(self, ticks: int, aktion: Callable[[], Any]) -> _Timer:
        cluster, knoten, inkarnation, platz = _INNEN(self)  # Raft's timeouts come here
        if not platz.laeuft or platz.inkarnation != inkarnation:
            return _neuer_timer(self, 0)
        cluster._timer_nr += 1
        nummer = cluster._timer_nr
        timer: _Timer = object.__new__(_Timer)
        _TOR(timer, self)
        _NUMMER(timer, nummer)
        _ABGESAGT(timer, False)
        # ``Cluster._wecker``, inlined: counted, then entered for the node's incarnation
        cluster._gezaehlt += 1
        zeit = cluster.zeit
        platz.timer[nummer] = zeit._eintragen(
            zeit._now + ticks,
            cluster._timer_faellig,
            (knoten, platz.inkarnation, timer, aktion),
        )
        return timer

    def alle(self, ticks: int, aktion: Callable[[], Any]) -> None:
        cluster = _Tor._lebt(self)
        if cluster is not None:
            knoten = _INNEN(self)[1]
            cluster._wecker(knoten, ticks, cluster._alle, knoten, ticks, aktion)

    def uhr(self) -> int:
        cluster, _, _, platz = _INNEN(self)
        jetzt: int = cluster.zeit._now
        if platz.versatz or platz.drift:  # as ``Cluster._lokale_zeit``
            return jetzt + platz.versatz + int((jetzt - platz.drift_seit) * platz.drift)
        return jetzt

    def notiz(self, text: str) -> None:
        cluster = _Tor._lebt(self)
        if cluster is not None:
            cluster._notiz(_INNEN(self)[1], text)


class _Timer:
    """What ``Knoten.spaeter`` returns: ``absagen()`` cancels the timer. Cancelled before it
    is due, it leaves the calendar unrun (``Termin.absagen``: it costs nothing when it would
    have fired); due while its node was paused, it is not called after the pause either.
    It leads nowhere the node cannot go anyway: it holds the node's own gate and a number
    (the appointment, which leads to the clock and the cluster, stays in ``_Platz.timer``).
    So reading it needs no guard (``absagen`` is on the hot path of Raft's timeouts); any
    other name, and setting one, is the German error naming what a node may use."""

    __slots__ = ("_abgesagt", "_nummer", "_tor")

    def __getattr__(self, name: str) -> Any:
        nur_eigene_api(name)

    def __setattr__(self, name: str, wert: object) -> None:
        nur_eigene_api(name)

    def __dir__(self) -> list[str]:
        return ["absagen", "verschiebe"]

    def __repr__(self) -> str:
        return "<Timer, abgesagt>" if self._abgesagt else "<Timer>"

    def absagen(self) -> None:
        """Streicht den Timer: ``aktion`` läuft nicht mehr (auch nicht nach einer Pause des
        Knotens). Ein zweites Mal, oder nachdem er lief, ändert es nichts."""
        if self._abgesagt:
            return
        _ABGESAGT(self, True)
        platz: _Platz = _INNEN(self._tor)[3]
        termin = platz.timer.pop(self._nummer, None)
        if termin is not None:
            termin.absagen()

    def verschiebe(self, ticks: int, aktion: Callable[[], Any]) -> Timer:
        """Wie ``absagen()`` und danach ``spaeter(ticks, aktion)``, mit demselben Lauf, nur
        billiger (Raft startet so bei jeder Nachricht des Leaders seine Frist neu): Der Timer
        ruft ``aktion`` in ``ticks`` Ticks. Gibt den Timer zurück, der jetzt gilt (diesen,
        oder, lief er schon oder war er abgesagt, einen neuen)."""
        tor = self._tor
        cluster, knoten, inkarnation, platz = _INNEN(tor)
        termin = None if self._abgesagt else platz.timer.get(self._nummer)
        if (
            termin is None
            or termin.erledigt  # due already, its call held back by a pause
            or not platz.laeuft
            or platz.inkarnation != inkarnation
        ):
            self.absagen()
            return _Tor.spaeter(tor, ticks, aktion)
        zeit = cluster.zeit
        cluster._gezaehlt += 1  # counted as the new timer it stands for
        faellig = zeit._now + ticks
        nummer = zeit._reserviere()  # the place in its tick of a timer set now
        if faellig < termin.zeit:  # sooner than its entry: a new entry, the old one out
            termin.absagen()
            platz.timer[self._nummer] = zeit._eintragen_als(
                faellig,
                nummer,
                cluster._timer_faellig,
                (knoten, platz.inkarnation, self, aktion),
            )
        else:  # later (as a timeout restarted): the entry, when due, enters it anew
            termin.aktion = cluster._verschobener_timer
            termin.argumente = (knoten, platz.inkarnation, self, faellig, nummer, aktion)
        return self


#: ``_Tor._innen`` read directly (its slot's getter; the gate's ``__getattribute__`` is the
#: German error for a node's code).
_INNEN: Callable[[_Tor], tuple[Cluster, str, int, _Platz]] = vars(_Tor)["_innen"].__get__

# The timer's slots set directly (its __setattr__ is the German error for a node's code).
_ABGESAGT, _NUMMER, _TOR = (vars(_Timer)[name].__set__ for name in _Timer.__slots__)


def _neuer_timer(tor: _Tor, nummer: int) -> _Timer:
    timer: _Timer = object.__new__(_Timer)
    _TOR(timer, tor)
    _NUMMER(timer, nummer)
    _ABGESAGT(timer, False)
    return timer


def zwischen(zufall: random.Random, a: int, b: int) -> int:
    """``zufall.randint(a, b)``, the same number from the same draws, in fewer calls: the hot
    path of a run draws one per message and per election timeout. ``randint`` is
    ``randrange(a, b + 1)``, which for ``a <= b`` is ``a + _randbelow(b - a + 1)`` in every
    Python from 3.11 on (CPython and Pyodide; ``tests/pysim/test_cluster_tempo.py``)."""
    if a <= b:
        n = b - a + 1
        if zufall.__class__ is not random.Random:  # a subclass may draw otherwise
            zahl: int = a + zufall._randbelow(n)  # type: ignore[attr-defined]
            return zahl
        # ``Random._randbelow_with_getrandbits``, inlined (Python 3.11 to 3.13 alike)
        k = n.bit_length()
        r = zufall.getrandbits(k)
        while r >= n:
            r = zufall.getrandbits(k)
        return a + r
    return zufall.randint(a, b)  # raises what randint raises


def _handler(platz: _Platz, typ: str) -> Callable[..., Any] | None:
    """The function ``bei_<typ>`` of the node's class, as an instance would find it (pysim's
    own nodes set no handler of their own), or None when there is none or it is no plain
    function (then ``_bearbeite`` finds it by name: a missing handler answers with error 10).
    Kept in the node's table (``_Platz.handler``): looked up once per type."""
    name, handler = "bei_" + typ, None
    for art in platz.klasse.__mro__:
        if name in vars(art):
            wert = vars(art)[name]
            handler = wert if type(wert) is FunctionType else None
            break
    platz.handler[typ] = handler
    return handler


def _sendung_aus(leicht: tuple[Nachricht, int, int, int], ankunft: int) -> Sendung:
    """The ``Sendung`` a message sent without one stands for (``Cluster._unterwegs``)."""
    nachricht, gesendet, nummer, kopie = leicht
    return Sendung(nummer, nachricht, gesendet, ankunft, "", kopie, None)


def _was(aktion: Callable[..., Any], was: str | Nachricht) -> str:
    """A call of a node's code in words: ``„echo“ von c1`` for a message, else its name."""
    if isinstance(was, Nachricht):
        return f"„{was.typ}“ von {was.src}"
    return was or f"{getattr(aktion, '__name__', 'Timer')}()"


def _zeile_der_leserin(fehler: BaseException) -> tuple[int | None, str]:
    """The innermost frame of the traceback outside pysim: the line of the reader's code (a
    TypeScript node's error brings its own line, ``ts_knoten.TsFehler``)."""
    zeile, code = (
        getattr(fehler, "zeile_der_leserin", None),
        getattr(fehler, "code_der_leserin", ""),
    )
    if zeile is not None:
        return zeile, code
    for frame in traceback.extract_tb(fehler.__traceback__):
        if not str(Path(frame.filename).resolve()).startswith(_PYSIM) or frame.filename.startswith(
            "<"
        ):
            zeile, code = frame.lineno, (frame.line or "").strip()
    return zeile, code
