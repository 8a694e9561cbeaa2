"""Raft: ein Cluster aus 3 oder 5 Knoten, der sich trotz Ausfällen auf ein Log einigt.

So arbeitet die Simulation (``RaftSim``), alles auf einer simulierten Uhr (``pysim.zeit.Zeit``).
Sie ist eine Front auf einem ``pysim.cluster.Cluster`` aus ``RaftKnoten`` (``pysim.raft.knoten``):
Netz, Netzpartitionen, Absturz und Pause sind die des Clusters, die Clients sitzen neben den
Knoten (Laufzeit 0, nie getrennt), und was die Knoten tun, steht in ``RaftKnoten``.

- Jeder Knoten hat einen Term, seine Stimme in diesem Term und ein Log. Diese drei liegen auf
  seiner Platte: Sie überstehen einen Absturz. Rolle, Commit-Index und Zustand des Registers
  gehen dabei verloren.
- Hört ein Follower einen Election-Timeout lang nichts von einem Leader, wird er Kandidat: Er erhöht
  seinen Term, stimmt für sich und fragt alle anderen (RequestVote). Die Frist ist zufällig
  (aus dem Seed), zwischen ``wahl_frist[0]`` und ``wahl_frist[1]`` Ticks, neu bei jedem Start.
- Ein Knoten gibt in einem Term höchstens eine Stimme, und nur einem Kandidaten, dessen Log
  mindestens so aktuell ist wie sein eigenes (letzter Term größer, oder gleich und das Log
  mindestens so lang).
- Wer die Mehrheit hat, ist Leader. Er hängt einen leeren Eintrag an: Erst wenn ein Eintrag
  seines Terms festgeschrieben ist, weiß er, welche Einträge festgeschrieben sind, und mit ihm
  sind es auch die früherer Terme. Er schickt alle ``herzschlag`` Ticks AppendEntries an
  jeden Follower: die Einträge ab dessen ``next_index``, mit Index und Term des Eintrags davor.
  Ein Follower nimmt sie nur an, wenn er diesen Eintrag davor hat (Log Matching); sonst geht der
  Leader einen Schritt zurück.
- Der Leader committet einen Eintrag (Commit-Index), sobald eine Mehrheit ihn hat und er
  aus dem aktuellen Term stammt. Committete Einträge wenden alle Knoten auf ihr Register an.
- Jede Nachricht mit einem höheren Term macht den Empfänger zum Follower dieses Terms.
- Clients schreiben (``schreibe``) und lesen (``lies``) über einen Knoten. Ein Knoten, der nicht
  Leader ist, lehnt ab (``fail``: es ist sicher nicht geschehen). Der Leader hängt die Operation
  an sein Log und antwortet ``ok``, wenn er sie angewendet hat. Auch Lesen geht durch das Log.
  Kommt bis ``client_frist`` keine Antwort, oder verliert der Leader sein Amt, bleibt offen, ob
  es geschah (``info``). Der Verlauf (``verlauf``) hat Jepsens Format für
  ``pysim.pruefer.linearisierbar``.
- Störungen: ``absturz``, ``neustart``, ``trenne`` (eine Partition; eine Nachricht über die
  Grenze geht beim Empfänger verloren, wie bei Maelstrom), ``heile``, ``pausiere`` (der Knoten
  hält an, wie bei einer langen Garbage Collection; was in der Pause ankam oder fällig wurde,
  tut er danach).

Vorbild: die Regeln in Abbildung 2 des Raft-Papers von Ongaro und Ousterhout („In Search of an
Understandable Consensus Algorithm“, erweiterte Fassung), die Rollen wie in seiner Abbildung 4;
Einträge früherer Terme zählt der Leader nicht (Abschnitt 5.4.2 und Abbildung 8 des Papers).
Den leeren Eintrag zu Beginn eines Terms beschreiben Abschnitt 8 des Papers und Abschnitt 6.4
von Ongaros Dissertation (https://github.com/ongardie/dissertation, Kapitel „Client
interaction“), dort als Weg des Leaders, seinen Commit-Index zu erfahren.

Abweichung: Die erweiterte Fassung (Abschnitt 6, Änderung der Mitglieder) lässt einen Knoten
RequestVote ignorieren, solange er von einem Leader hört; hier nicht. Ein Knoten, der nach
einer Partition mit höherem Term zurückkommt, setzt deshalb den Leader ab.

Vereinfachungen: Clients erreichen jeden Knoten sofort, auch über eine Partition hinweg; sie
versuchen es nicht von selbst noch einmal. Keine Snapshots, keine Änderung der Mitglieder.
Nachrichten gehen nur über Partitionen und Abstürze verloren, nie zufällig.

Beispiel::

    sim = RaftSim(knoten=3, seed=1)
    sim.tick(40)
    alt = sim.leader()
    sim.trenne([alt])
    sim.schreibe("c1", 5, an=alt)
    sim.tick(60)
    sim.heile()
    sim.tick(40)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cluster import Cluster
from ..cluster.cluster import Sendung
from ..cluster.nachricht import Nachricht as ClusterNachricht
from ..cluster.nachricht import ist_endgueltig
from ..fehler import (
    SimFehler,
    UnbekannterKnoten,
    UngueltigeEingabe,
    nachschlagen,
    pruefe_ganzzahl,
    pruefe_name,
    pruefe_verzoegerung,
)
from ..pruefer import Urteil, linearisierbar
from ..svg import Bild
from ..zeit import AufDerZeit, Termin, Zeit
from .bild import zeichne
from .knoten import (
    ARTEN,
    Eintrag,
    RaftKnoten,
    Stimmanfrage,
    Stimmregel,
    eintrag_aus,
    raft_stimmregel,
    regelname,
)
from .regeln import ABGESTUERZT, LEADER

__all__ = [
    "Eintrag",
    "Knoten",
    "Nachricht",
    "RaftKnoten",
    "RaftSim",
    "Stimmanfrage",
    "Stimmregel",
    "raft_stimmregel",
]

#: Höchstens so viele Ticks auf einmal (ein Schutz vor endlosen Läufen in der Konsole).
MAX_TICKS = 100_000


@dataclass(frozen=True)
class Nachricht:
    """Eine Nachricht zwischen zwei Knoten (für Bild und Zählung)."""

    art: str  # "RequestVote", "Stimme", "AppendEntries", "AppendAntwort"
    von: str
    an: str
    term: int
    gesendet: int
    ankunft: int
    daten: dict[str, Any] = field(default_factory=dict)


def _nachricht(sendung: Sendung) -> Nachricht:
    """A message between nodes as the picture and the console read it."""
    n = sendung.nachricht
    daten = {k: v for k, v in n.body.items() if k not in ("type", "term")}
    if "eintraege" in daten:
        daten["eintraege"] = tuple(eintrag_aus(e) for e in daten["eintraege"])
    assert sendung.ankunft is not None
    return Nachricht(
        ARTEN[n.typ], n.src, n.dest, n.body["term"], sendung.gesendet, sendung.ankunft, daten
    )


class _Abbruch(BaseException):
    """Carries a vote rule's error out of the cluster's run (which keeps a handler's ordinary
    exceptions as ``HandlerFehler`` and goes on), so ``RaftSim.tick`` raises it where it was."""

    def __init__(self, fehler: SimFehler) -> None:
        super().__init__(str(fehler))
        self.fehler = fehler


class _Halt(BaseException):
    """Ends ``RaftSim._tick_bis_verletzung`` before the first event of the tick after the
    first violation (a BaseException: the cluster keeps a node's ordinary ones)."""


def _halt() -> None:
    raise _Halt


class _Aufsicht:
    """What RaftSim watches from outside the nodes (``knoten.Aufsicht``): its log of events,
    every leader of a term, every committed entry, and the violations of safety. It holds
    values only, nothing that leads back to the cluster."""

    def __init__(self) -> None:
        self.protokoll: list[tuple[int, str]] = []
        #: term -> every node that became leader in it (Election Safety: at most one).
        self.leader_je_term: dict[int, list[str]] = {}
        #: index -> the entry committed there, when it was first seen committed, and the
        #: lowest term of a node that saw it committed (every leader of a later term has it).
        self.festgeschrieben: dict[int, tuple[Eintrag, int, int]] = {}
        self.verletzungen: list[str] = []
        #: Called at every violation while set (``RaftSim._tick_bis_verletzung``).
        self.bei_verletzung: Callable[[], None] | None = None

    def notiere(self, zeit: int, text: str) -> None:
        self.protokoll.append((zeit, text))

    def leader(self, zeit: int, knoten: str, term: int, log: Sequence[Eintrag]) -> None:
        namen = self.leader_je_term.setdefault(term, [])
        namen.append(knoten)
        if len(namen) > 1:
            self._melde(f"Zwei Leader in Term {term}: {', '.join(namen[:-1])} und {namen[-1]}.")
        for index, (eintrag, _, gesehen) in sorted(self.festgeschrieben.items()):
            if gesehen >= term:
                continue  # a stale candidate's late win: it leads an older term
            if index > len(log) or log[index - 1] != eintrag:
                self._melde(
                    f"Der committete Eintrag {index} ({eintrag.beschreibe()}) fehlt im "
                    f"Log von {knoten}, Leader in Term {term}."
                )

    def committet(self, zeit: int, knoten: str, term: int, i: int, e: Eintrag) -> None:
        frueher = self.festgeschrieben.get(i)
        if frueher is None:
            self.festgeschrieben[i] = (e, zeit, term)
        elif frueher[0] != e:
            self._melde(
                f"Eintrag {i} ist auf {knoten} committet als ({e.beschreibe()}), "
                f"vorher als ({frueher[0].beschreibe()})."
            )
        elif term < frueher[2]:
            self.festgeschrieben[i] = (frueher[0], frueher[1], term)

    def verletzung(self, zeit: int, text: str) -> None:
        self._melde(text)

    def _melde(self, text: str) -> None:
        self.verletzungen.append(text)
        if self.bei_verletzung is not None:
            self.bei_verletzung()

    def regelfehler(self, fehler: SimFehler) -> None:
        raise _Abbruch(fehler)


#: What a crash takes, and what it is while the node is crashed (``Knoten.__getattr__``).
_FLUECHTIG: dict[str, Callable[[], Any]] = {
    "commit": int,
    "angewendet": int,
    "register": dict,
    "stimmen": set,
    "next_index": dict,
    "match_index": dict,
    "offen": dict,
    "leader_bekannt": lambda: None,
}


class Knoten:
    """Ein Raft-Knoten, wie ``RaftSim`` ihn zeigt: ``term``, ``stimme`` und ``log`` überstehen
    einen Absturz; ``rolle``, ``commit``, ``register`` … liest die Sicht beim laufenden
    ``RaftKnoten`` (abgestürzt: ``ABGESTUERZT``, Commit 0, leeres Register)."""

    def __init__(self, sim: RaftSim, name: str) -> None:
        self._sim = sim
        self.name = name

    def _objekt(self) -> RaftKnoten | None:
        objekt = self._sim.cluster.objekt(self.name)
        assert objekt is None or isinstance(objekt, RaftKnoten)
        return objekt

    @property
    def rolle(self) -> str:
        objekt = self._objekt()
        return ABGESTUERZT if objekt is None else objekt.rolle

    # Typed here, read in __getattr__: what survives a crash, from the node's speicher.
    term: int
    stimme: str | None
    log: list[Eintrag]
    commit: int

    def __getattr__(self, name: str) -> Any:
        """``term``, ``stimme`` and ``log`` from the node's speicher (they survive a crash);
        what a crash takes (``commit``, ``register``, ``next_index`` …) from the running node,
        or empty while it is crashed."""
        if name in ("term", "stimme", "log"):
            return self._sim._speicher[self.name][name]
        if name not in _FLUECHTIG:
            raise AttributeError(f"Ein Raft-Knoten hat kein „{name}“.")
        objekt = self._objekt()
        return _FLUECHTIG[name]() if objekt is None else getattr(objekt, name)

    @property
    def pausiert_bis(self) -> int | None:
        return self._sim._pausiert_bis[self.name]

    @property
    def letzter_index(self) -> int:
        return len(self.log)

    @property
    def letzter_term(self) -> int:
        log = self.log
        return log[-1].term if log else 0

    def term_bei(self, index: int) -> int:
        """Der Term des Eintrags ``index`` (1-basiert; 0 für den Anfang vor dem Log)."""
        return self.log[index - 1].term if index > 0 else 0

    def __repr__(self) -> str:
        return (
            f"Knoten({self.name}, {self.rolle}, Term {self.term}, "
            f"Log {len(self.log)}, Commit {self.commit})"
        )


@dataclass
class _ClientOp:
    client: str
    nummer: int
    f: str
    key: str
    value: Any
    frist: Termin | None = None


class RaftSim(AufDerZeit):
    """Ein Raft-Cluster auf einer simulierten Uhr (siehe das Modul)."""

    def __init__(
        self,
        knoten: int = 3,
        *,
        seed: int = 0,
        zeit: Zeit | None = None,
        wahl_frist: tuple[int, int] = (15, 30),
        herzschlag: int = 5,
        latenz: tuple[int, int] = (1, 3),
        client_frist: int = 40,
        stimmregel: Stimmregel | None = None,
    ) -> None:
        pruefe_ganzzahl(knoten, "Die Zahl der Knoten", 1)
        if knoten not in (3, 5):
            raise UngueltigeEingabe(f"Ein Raft-Cluster hat hier 3 oder 5 Knoten, nicht {knoten}.")
        pruefe_ganzzahl(seed, "Der Seed")
        self.wahl_frist = pruefe_verzoegerung(wahl_frist, 1, (15, 30))
        self.herzschlag = pruefe_ganzzahl(herzschlag, "Der Heartbeat (herzschlag)", 1)
        if self.herzschlag >= self.wahl_frist[0]:
            raise UngueltigeEingabe(
                f"Der Heartbeat (herzschlag={herzschlag}) muss kürzer sein als der kürzeste "
                f"Election-Timeout ({self.wahl_frist[0]}), sonst wählen die Follower ständig neu."
            )
        self.latenz = pruefe_verzoegerung(latenz, 1, (1, 3))
        self.client_frist = pruefe_ganzzahl(client_frist, "Die Client-Frist", 1)
        if stimmregel is not None and not callable(stimmregel):
            raise UngueltigeEingabe(
                f"Die Stimmregel muss eine Funktion sein (def regel(a): ...), nicht "
                f"{type(stimmregel).__name__}."
            )
        self.zeit = zeit if zeit is not None else Zeit()
        self.seed = seed
        # One stream for the election timeouts and the network's delays, drawn in the order
        # the events happen: the runs the lesson shows come from it.
        self._zufall = random.Random(seed)
        self._aufsicht = _Aufsicht()
        self._klasse = self._knotenklasse()
        #: Wer wem seine Stimme gibt (``raft_stimmregel``, wenn nichts anderes angegeben ist).
        self.stimmregel = stimmregel or raft_stimmregel
        self.verlauf: list[dict[str, Any]] = []
        self.gruppen: list[set[str]] | None = None
        self._clients: dict[str, _ClientOp | None] = {}
        self._nummer = 0
        self._pausiert_bis: dict[str, int | None] = {}
        self._speicher: dict[str, dict[str, Any]] = {}
        #: Der Cluster, auf dem die Knoten laufen (``pysim.cluster.Cluster``).
        self.cluster = Cluster(
            self._klasse,
            knoten,
            seed=seed,
            latenz=self.latenz,
            zeit=self.zeit,
            netz_zufall=self._zufall,
            max_ereignisse=2**62,
            code_der_leserin=False,
            # the picture shows only what is on the wire and a count: no history to keep
            sendungen_behalten=False,
        )
        self.namen = list(self.cluster.ids)
        for name in self.namen:
            objekt = self.cluster.objekt(name)
            assert objekt is not None
            self._speicher[name] = objekt.speicher
            self._pausiert_bis[name] = None
        self.knoten: dict[str, Knoten] = {name: Knoten(self, name) for name in self.namen}
        self.mehrheit = knoten // 2 + 1

    def _knotenklasse(self) -> type[RaftKnoten]:
        """This simulation's node class: RaftKnoten with its settings and its watcher."""
        sim_zufall, aufsicht = self._zufall, self._aufsicht

        class SimKnoten(RaftKnoten):
            WAHL_FRIST = self.wahl_frist
            HERZSCHLAG = self.herzschlag
            AUFSICHT = aufsicht
            REGEL: Stimmregel = raft_stimmregel

            def stimmt_fuer(self, anfrage: Stimmanfrage) -> bool:
                return type(self).REGEL(anfrage)

            def regelname(self) -> str:
                return regelname(type(self).REGEL)

            def zufall(self) -> random.Random:
                return sim_zufall

        SimKnoten.__qualname__ = SimKnoten.__name__ = "RaftKnoten"
        return SimKnoten

    # --- settings the nodes read --------------------------------------------------------------

    @property
    def stimmregel(self) -> Stimmregel:
        """Wer wem seine Stimme gibt (``raft_stimmregel``, wenn nichts anderes angegeben ist)."""
        regel: Stimmregel = self._klasse.REGEL  # type: ignore[attr-defined]
        return regel

    @stimmregel.setter
    def stimmregel(self, regel: Stimmregel) -> None:
        self._klasse.REGEL = staticmethod(regel)  # type: ignore[attr-defined]

    @property
    def _ohne_leeren_eintrag(self) -> bool:
        """Only for the Figure-8 scenario (tests): a new leader appends no empty entry (as in
        the paper's Figure 8). With the empty entry every acknowledgement of a new leader
        covers an entry of its term, so counting old entries would change nothing."""
        return self._klasse.OHNE_LEEREN_EINTRAG

    @_ohne_leeren_eintrag.setter
    def _ohne_leeren_eintrag(self, wert: bool) -> None:
        self._klasse.OHNE_LEEREN_EINTRAG = wert

    @property
    def _alte_terme_zaehlen(self) -> bool:
        """Only for the Figure-8 scenario, the broken variant: the leader counts replicas of
        entries of earlier terms too."""
        return self._klasse.ALTE_TERME_ZAEHLEN

    @_alte_terme_zaehlen.setter
    def _alte_terme_zaehlen(self, wert: bool) -> None:
        self._klasse.ALTE_TERME_ZAEHLEN = wert

    # --- what the watcher records -------------------------------------------------------------

    @property
    def protokoll(self) -> list[tuple[int, str]]:
        """Was geschah, als ``(tick, text)``: Wahlen, Commits, Störungen."""
        return self._aufsicht.protokoll

    @property
    def leader_je_term(self) -> dict[int, list[str]]:
        """Term -> jeder Knoten, der in ihm Leader wurde (höchstens einer, wenn alles stimmt)."""
        return self._aufsicht.leader_je_term

    @property
    def festgeschrieben(self) -> dict[int, tuple[Eintrag, int, int]]:
        """Index -> der dort committete Eintrag, wann er zuerst committet war, und der
        kleinste Term eines Knotens, der ihn committet sah."""
        return self._aufsicht.festgeschrieben

    @property
    def verletzungen(self) -> list[str]:
        """Verletzungen der Sicherheit, als deutsche Sätze (leer in einem korrekten Lauf)."""
        return self._aufsicht.verletzungen

    # --- the network, as the picture reads it ---------------------------------------------------

    @property
    def unterwegs(self) -> list[Nachricht]:
        """Die Nachrichten zwischen Knoten, die gerade unterwegs sind (``gesendet`` zählt alle)."""
        knoten = self._speicher
        return [
            _nachricht(s)
            for s in self.cluster.unterwegs()
            if s.nachricht.src in knoten and s.nachricht.dest in knoten
        ]

    @property
    def gesendet(self) -> int:
        """Wie viele Nachrichten zwischen Knoten bisher gesendet wurden."""
        return self.cluster.gesendet()

    def getrennt(self, a: str, b: str) -> bool:
        """Trennt die Partition ``a`` und ``b`` gerade?"""
        if self.gruppen is None:
            return False
        return not any(a in g and b in g for g in self.gruppen)

    # --- helpers ---

    def _k(self, name: str) -> Knoten:
        return nachschlagen(self.knoten, name, UnbekannterKnoten, "Den Knoten", "Knoten")

    def _notiere(self, text: str) -> None:
        self._aufsicht.notiere(self.now, text)

    # --- clients ---

    def schreibe(self, client: str, wert: Any, *, an: str | None = None, key: str = "x") -> None:
        """Der Client schreibt ``wert`` in das Register ``key`` über den Knoten ``an``
        (ohne: über den Leader mit dem höchsten Term)."""
        self._anfrage(client, "write", key, wert, an)

    def lies(self, client: str, *, an: str | None = None, key: str = "x") -> None:
        """Der Client liest das Register ``key`` über den Knoten ``an`` (ohne: den Leader)."""
        self._anfrage(client, "read", key, None, an)

    def _anfrage(self, client: str, f: str, key: str, wert: Any, an: str | None) -> None:
        pruefe_name(client, "Der Name des Clients")
        pruefe_name(key, "Der Schlüssel")
        ziel = self._k(an).name if an is not None else (self.leader() or self.namen[0])
        if self._clients.get(client) is not None:
            raise SimFehler(
                f"Der Client „{client}“ wartet noch auf eine Antwort. Ein Client hat höchstens "
                "eine offene Operation; nimm einen anderen Namen oder warte (tick)."
            )
        if client not in self._clients:
            self.cluster.anmelden(client, self._empfang, client=True)
        self._nummer += 1
        op = _ClientOp(client, self._nummer, f, key, wert)
        self._clients[client] = op
        ereignis: dict[str, Any] = {
            "process": client,
            "type": "invoke",
            "f": f,
            "key": key,
            "value": wert,
            "node": ziel,
            "time": self.now,
        }
        self.verlauf.append(ereignis)
        op.frist = self.zeit.schedule(
            self.client_frist,
            self._antworte,
            client,
            op.nummer,
            "info",
            None,
            ziel,
            "Zeitüberschreitung",
        )
        body: dict[str, Any] = {"type": f, "key": key, "msg_id": op.nummer}
        if f == "write":
            body["value"] = wert
        self.cluster.sende(client, ziel, body)

    def _empfang(self, antwort: ClusterNachricht) -> None:
        """A node's reply reaches its client (beside the node, in the tick it was sent)."""
        body = antwort.body
        if body["type"] == "error":
            typ = "fail" if ist_endgueltig(body.get("code")) else "info"
            self._antworte(
                antwort.dest, body["in_reply_to"], typ, None, antwort.src, body.get("text")
            )
        else:
            self._antworte(antwort.dest, body["in_reply_to"], "ok", body.get("value"), antwort.src)

    def _antworte(
        self,
        client: str,
        nummer: int,
        typ: str,
        wert: Any,
        knoten: str,
        fehler: str | None = None,
    ) -> None:
        op = self._clients.get(client)
        if op is None or op.nummer != nummer:
            return  # answered already (e.g. timed out before the leader applied it)
        self._clients[client] = None
        if op.frist is not None:
            op.frist.absagen()
        ereignis: dict[str, Any] = {
            "process": client,
            "type": typ,
            "f": op.f,
            "key": op.key,
            "value": wert if op.f == "read" else op.value,
            "node": knoten,
            "time": self.now,
        }
        if fehler is not None:
            ereignis["error"] = fehler
        self.verlauf.append(ereignis)

    def wartet(self, client: str) -> bool:
        """Hat der Client eine offene Operation?"""
        return self._clients.get(client) is not None

    # --- faults ---

    def absturz(self, name: str) -> None:
        """Der Knoten stürzt ab: Rolle, Commit-Index und Register sind weg, Term, Stimme und
        Log bleiben auf der Platte."""
        k = self._k(name)
        if k.rolle == ABGESTUERZT:
            raise SimFehler(f"{name} ist schon abgestürzt; starte ihn mit neustart neu.")
        if k.rolle == LEADER:
            # its clients' connections break: whether their entries commit stays open
            for client, nummer in list(k.offen.values()):
                self._antworte(client, nummer, "info", None, name, "Leader abgesetzt")
        self.cluster.absturz(name)
        self._pausiert_bis[name] = None
        self._notiere(f"{name} stürzt ab")

    def neustart(self, name: str) -> None:
        """Der Knoten startet als Follower mit Term, Stimme und Log von der Platte."""
        k = self._k(name)
        if k.rolle != ABGESTUERZT:
            raise SimFehler(f"{name} läuft doch ({k.rolle}); nur ein abgestürzter startet neu.")
        self.cluster.neustart(name)
        self._notiere(f"{name} startet neu (Term {k.term}, Log {k.letzter_index})")

    def trenne(self, *gruppen: Iterable[str]) -> None:
        """Eine Partition: Jede Gruppe hört nur sich selbst; die nicht genannten Knoten bilden
        zusammen eine weitere Gruppe. ``trenne(["n1"])``: n1 allein gegen den Rest."""
        mengen = [{self._k(n).name for n in g} for g in gruppen]
        alle = [n for g in mengen for n in g]
        if len(alle) != len(set(alle)):
            raise UngueltigeEingabe("Ein Knoten kann nur in einer Gruppe der Netzpartition sein.")
        rest = {n for n in self.namen if n not in alle}
        if rest:
            mengen.append(rest)
        mengen = [g for g in mengen if g]
        if len(mengen) < 2:
            raise UngueltigeEingabe("Eine Netzpartition braucht mindestens zwei Gruppen.")
        self.gruppen = mengen
        self.cluster.trenne(*(sorted(g) for g in mengen))
        self._notiere("Netzpartition: " + " | ".join(" ".join(sorted(g)) for g in mengen))

    def heile(self) -> None:
        """Die Partition endet: Ab jetzt kommen alle Nachrichten an."""
        self.gruppen = None
        self.cluster.heile()
        self._notiere("Netzpartition geheilt")

    def pausiere(self, name: str, dauer: int) -> None:
        """Der Knoten hält ``dauer`` Ticks an; danach holt er nach, was anstand."""
        k = self._k(name)
        pruefe_ganzzahl(dauer, "Die Dauer der Pause", 1)
        if k.rolle == ABGESTUERZT:
            raise SimFehler(f"{name} ist abgestürzt; eine Pause ändert nichts.")
        if k.pausiert_bis is not None:
            raise SimFehler(f"{name} ist schon bis t={k.pausiert_bis} angehalten.")
        self._pausiert_bis[name] = self.now + dauer
        self.cluster.pausiere(name)
        self.zeit.schedule(dauer, self._weiter, name)
        self._notiere(f"{name} hält {dauer} Ticks an")

    def _weiter(self, name: str) -> None:
        if self._pausiert_bis[name] != self.now:
            return  # crashed during the pause
        self._pausiert_bis[name] = None
        self.cluster.fortsetzen(name)

    # --- reading the state ---

    def leader(self) -> str | None:
        """Der laufende Knoten, der sich mit dem höchsten Term für Leader hält (oder ``None``)."""
        beste = [k for k in self.knoten.values() if k.rolle == LEADER]
        if not beste:
            return None
        return max(beste, key=lambda k: (k.term, k.name)).name

    def tick(self, n: int = 1) -> None:
        if n.__class__ is not int or n < 0:  # checked only when it is not a plain count
            pruefe_ganzzahl(n, "Die Anzahl der Ticks", 0)
        if n > MAX_TICKS:
            raise UngueltigeEingabe(f"Höchstens {MAX_TICKS} Ticks auf einmal, nicht {n}.")
        zeit = self.zeit
        try:
            # the clock itself, not Cluster.laufe: the nodes are pysim's, no loop budget to arm
            zeit.run(until=zeit._now + n)
        except _Abbruch as abbruch:
            raise abbruch.fehler from abbruch.fehler.__cause__

    def _tick_bis_verletzung(self, n: int) -> bool:
        """``tick(n)``, stopped at the end of the tick in which the first violation of safety
        appears, as ``n`` calls of ``tick(1)`` with a look after each would stop (the checks
        of ``pruefe_wahl``: one run of the clock instead of a call per tick). True: stopped
        there (or the last tick brought one)."""
        zeit = self.zeit
        halt: list[Termin] = []

        def plane_halt() -> None:  # before every event of the next tick (RaftSim has no
            # other appointment that runs first in its tick)
            self._aufsicht.bei_verletzung = None
            halt.append(zeit.schedule_zuerst(1, _halt))

        self._aufsicht.bei_verletzung = plane_halt
        try:
            self.tick(n)
        except _Halt:
            zeit._now -= 1  # the halt's tick has begun, none of its events ran
            return True
        finally:
            self._aufsicht.bei_verletzung = None
            for termin in halt:
                termin.absagen()  # still pending when the violation came in the last tick
        return bool(self.verletzungen)

    def status(self) -> str:
        """Eine Zeile je Knoten: Rolle, Term, Stimme, Commit-Index, Log."""
        zeilen = [f"t={self.now}"]
        for k in self.knoten.values():
            rolle = k.rolle + (" (angehalten)" if k.pausiert_bis is not None else "")
            log = " ".join(e.kurz() for e in k.log) or "leer"
            zeilen.append(
                f"  {k.name}: {rolle}, Term {k.term}, Stimme {k.stimme or '-'}, "
                f"Commit {k.commit}, Log [{log}]"
            )
        return "\n".join(zeilen)

    def urteil(self) -> Urteil:
        """Das Urteil von ``pysim.pruefer.linearisierbar`` über den Verlauf der Clients."""
        return linearisierbar(self.verlauf)

    def bild(self) -> Bild:
        """Das Bild des Clusters jetzt: Rollen, Terme, Logs, Netz, Urteil (``bild.zeichne``)."""
        return zeichne(self)

    def __repr__(self) -> str:
        return f"RaftSim({len(self.knoten)} Knoten, t={self.now}, Leader {self.leader() or '-'})"
