"""Raft: ein Cluster aus 3 oder 5 Knoten, der sich trotz Ausfällen auf ein Log einigt.

So arbeitet die Simulation (``RaftSim``), alles auf einer simulierten Uhr (``pysim.zeit.Zeit``):

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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

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
from .regeln import ABGESTUERZT, FOLLOWER, KANDIDAT, LEADER, uebergang

__all__ = [
    "Eintrag",
    "Knoten",
    "Nachricht",
    "RaftSim",
    "Stimmanfrage",
    "Stimmregel",
    "raft_stimmregel",
]

#: Höchstens so viele Ticks auf einmal (ein Schutz vor endlosen Läufen in der Konsole).
MAX_TICKS = 100_000


@dataclass(frozen=True)
class Eintrag:
    """Ein Eintrag im Log: der Term, in dem ein Leader ihn anlegte, und die Operation.

    ``f`` ist ``"noop"`` (der leere Eintrag eines neuen Leaders), ``"write"`` oder ``"read"``.
    """

    term: int
    f: str
    key: str | None = None
    value: Any = None
    client: str | None = None
    nummer: int | None = None  # the client's operation, to answer it

    def beschreibe(self) -> str:
        """``Term 2, x = 5`` (für Meldungen): Term und Operation in Worten."""
        if self.f == "write":
            return f"Term {self.term}, {self.key} = {self.value!r}"
        if self.f == "read":
            return f"Term {self.term}, lies {self.key}"
        return f"Term {self.term}, leer"

    def kurz(self) -> str:
        """``3:w=5``, ``3:r``, ``3:-`` (Term und Operation, für Bild und Status)."""
        if self.f == "write":
            return f"{self.term}:w={self.value}"
        if self.f == "read":
            return f"{self.term}:r"
        return f"{self.term}:-"


@dataclass(frozen=True)
class Stimmanfrage:
    """Was ein Knoten weiß, wenn ein Kandidat um seine Stimme bittet (RequestVote).

    ``kandidat``, ``term``, ``letzter_index`` und ``letzter_term``: der Kandidat, sein Term und
    Index und Term des letzten Eintrags in seinem Log. ``mein_term``, ``meine_stimme`` (``None``
    oder der Name, dem der Knoten in ``mein_term`` schon seine Stimme gab),
    ``mein_letzter_index`` und ``mein_letzter_term``: dasselbe beim gefragten Knoten. Hatte der
    Kandidat einen höheren Term, ist der Knoten schon in diesen Term gewechselt (ohne Stimme).
    """

    kandidat: str
    term: int
    letzter_index: int
    letzter_term: int
    mein_term: int
    meine_stimme: str | None
    mein_letzter_index: int
    mein_letzter_term: int


#: Eine Stimmregel: ``True``, wenn der Knoten dem Kandidaten seine Stimme gibt.
Stimmregel = Callable[[Stimmanfrage], bool]


def raft_stimmregel(a: Stimmanfrage) -> bool:
    """Die Regel aus Abbildung 2 des Raft-Papers (RequestVote, Empfänger): nur im eigenen Term,
    höchstens eine Stimme je Term, und nur für ein Log, das mindestens so aktuell ist wie das
    eigene (letzter Term größer, oder gleich und das Log mindestens so lang)."""
    aktuell = (a.letzter_term, a.letzter_index) >= (a.mein_letzter_term, a.mein_letzter_index)
    return a.term == a.mein_term and a.meine_stimme in (None, a.kandidat) and aktuell


def _regelname(regel: object) -> str:
    return str(getattr(regel, "__name__", None) or repr(regel))


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


@dataclass(eq=False)
class Knoten:
    """Ein Raft-Knoten. ``term``, ``stimme`` und ``log`` überstehen einen Absturz."""

    name: str
    # persistent
    term: int = 0
    stimme: str | None = None
    log: list[Eintrag] = field(default_factory=list)
    # volatile
    rolle: str = FOLLOWER
    commit: int = 0
    angewendet: int = 0
    register: dict[str, Any] = field(default_factory=dict)
    stimmen: set[str] = field(default_factory=set)
    next_index: dict[str, int] = field(default_factory=dict)
    match_index: dict[str, int] = field(default_factory=dict)
    leader_bekannt: str | None = None
    pausiert_bis: int | None = None
    aufgeschoben: list[tuple[Any, tuple[Any, ...]]] = field(default_factory=list)
    frist: Termin | None = None
    herz: Termin | None = None
    #: The current timer's number: a timer deferred by a pause that was replaced since is stale.
    uhr_nr: int = 0
    offen: dict[int, tuple[str, int]] = field(default_factory=dict)  # index -> (client, nr)

    @property
    def letzter_index(self) -> int:
        return len(self.log)

    @property
    def letzter_term(self) -> int:
        return self.log[-1].term if self.log else 0

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
        #: Wer wem seine Stimme gibt (``raft_stimmregel``, wenn nichts anderes angegeben ist).
        self.stimmregel: Stimmregel = stimmregel or raft_stimmregel
        #: Only for the Figure-8 scenario (tests): a new leader appends no empty entry (as in
        #: the paper's Figure 8), and, the broken variant, the leader counts replicas of
        #: entries of earlier terms too. With the empty entry every acknowledgement of a new
        #: leader covers an entry of its term, so counting old entries would change nothing.
        self._ohne_leeren_eintrag = False
        self._alte_terme_zaehlen = False
        self.zeit = zeit if zeit is not None else Zeit()
        self.seed = seed
        self._zufall = random.Random(seed)
        self.knoten: dict[str, Knoten] = {f"n{i}": Knoten(f"n{i}") for i in range(1, knoten + 1)}
        self.namen = list(self.knoten)
        self.mehrheit = knoten // 2 + 1
        self.gruppen: list[set[str]] | None = None
        self.verlauf: list[dict[str, Any]] = []
        #: Die Nachrichten, die gerade unterwegs sind (``gesendet`` zählt alle).
        self.unterwegs: list[Nachricht] = []
        self.gesendet = 0
        #: term -> every node that became leader in it (Election Safety: at most one).
        self.leader_je_term: dict[int, list[str]] = {}
        #: index -> the entry committed there, when it was first seen committed, and the
        #: lowest term of a node that saw it committed (every leader of a later term has it).
        self.festgeschrieben: dict[int, tuple[Eintrag, int, int]] = {}
        #: Verletzungen der Sicherheit, als deutsche Sätze (leer in einem korrekten Lauf).
        self.verletzungen: list[str] = []
        self.protokoll: list[tuple[int, str]] = []
        self._clients: dict[str, _ClientOp | None] = {}
        self._nummer = 0
        for k in self.knoten.values():
            self._starte_frist(k)

    # --- helpers ---

    def _k(self, name: str) -> Knoten:
        return nachschlagen(self.knoten, name, UnbekannterKnoten, "Den Knoten", "Knoten")

    def _notiere(self, text: str) -> None:
        self.protokoll.append((self.now, text))

    def _rolle(self, k: Knoten, ereignis: str) -> None:
        alt = k.rolle
        k.rolle = uebergang(alt, ereignis)
        if alt == LEADER and k.rolle != LEADER:
            self._leader_ab(k)

    def _starte_frist(self, k: Knoten) -> None:
        if k.frist is not None:
            k.frist.absagen()
        dauer = self._zufall.randint(*self.wahl_frist)
        k.uhr_nr += 1
        k.frist = self.zeit.schedule(dauer, self._wecke, k.name, "_frist_ab", (k.uhr_nr,))

    def _wecke(self, name: str, methode: str, args: tuple[Any, ...]) -> None:
        """Everything a node does starts here: a crashed node does nothing, a paused one later."""
        k = self.knoten[name]
        if k.rolle == ABGESTUERZT:
            return
        if k.pausiert_bis is not None:
            k.aufgeschoben.append((methode, args))
            return
        getattr(self, methode)(k, *args)

    def _sende(self, von: Knoten, an: str, art: str, daten: dict[str, Any]) -> None:
        dauer = self._zufall.randint(*self.latenz)
        n = Nachricht(art, von.name, an, von.term, self.now, self.now + dauer, daten)
        self.unterwegs.append(n)
        self.gesendet += 1
        self.zeit.schedule(dauer, self._ankunft, n)

    def getrennt(self, a: str, b: str) -> bool:
        """Trennt die Partition ``a`` und ``b`` gerade?"""
        if self.gruppen is None:
            return False
        return not any(a in g and b in g for g in self.gruppen)

    def _ankunft(self, n: Nachricht) -> None:
        self.unterwegs.remove(n)
        if self.getrennt(n.von, n.an):  # dropped at the receiver, as Maelstrom does
            return
        self._wecke(n.an, "_empfange", (n,))

    def _empfange(self, k: Knoten, n: Nachricht) -> None:
        if n.term > k.term:
            self._neuer_term(k, n.term)
        getattr(self, "_bei_" + n.art)(k, n)

    def _neuer_term(self, k: Knoten, term: int) -> None:
        if k.rolle == LEADER:
            self._notiere(f"{k.name} sieht Term {term} und ist nicht mehr Leader")
        k.term = term
        k.stimme = None
        k.leader_bekannt = None
        self._rolle(k, "hoeherer_term")
        if k.herz is not None:
            k.herz.absagen()
            k.herz = None
        if k.frist is None or k.frist.erledigt or k.frist.abgesagt:
            self._starte_frist(k)

    # --- elections ---

    def _frist_ab(self, k: Knoten, nr: int) -> None:
        if k.rolle == LEADER or nr != k.uhr_nr:
            return
        self._rolle(k, "timeout")
        k.term += 1
        k.stimme = k.name
        k.stimmen = {k.name}
        k.leader_bekannt = None
        self._notiere(f"{k.name} wird Kandidat in Term {k.term}")
        self._starte_frist(k)
        if len(k.stimmen) >= self.mehrheit:
            self._werde_leader(k)
            return
        for an in self.namen:
            if an != k.name:
                self._sende(
                    k,
                    an,
                    "RequestVote",
                    {"letzter_index": k.letzter_index, "letzter_term": k.letzter_term},
                )

    def _bei_RequestVote(self, k: Knoten, n: Nachricht) -> None:
        anfrage = Stimmanfrage(
            kandidat=n.von,
            term=n.term,
            letzter_index=n.daten["letzter_index"],
            letzter_term=n.daten["letzter_term"],
            mein_term=k.term,
            meine_stimme=k.stimme,
            mein_letzter_index=k.letzter_index,
            mein_letzter_term=k.letzter_term,
        )
        ja = self._frage_regel(anfrage)
        if ja:
            k.stimme = n.von
            self._starte_frist(k)
        self._sende(k, n.von, "Stimme", {"ja": ja})

    def _frage_regel(self, a: Stimmanfrage) -> bool:
        regel = self.stimmregel
        try:
            ja = regel(a)
        except Exception as fehler:
            raise SimFehler(
                f"Die Stimmregel „{_regelname(regel)}“ ist bei der Anfrage von {a.kandidat} "
                f"(Term {a.term}) mit {type(fehler).__name__} abgebrochen: {fehler}"
            ) from fehler
        if not isinstance(ja, bool):
            raise SimFehler(
                f"Die Stimmregel „{_regelname(regel)}“ muss True oder False zurückgeben, "
                f"nicht {ja!r} ({type(ja).__name__}); bei der Anfrage von {a.kandidat} "
                f"(Term {a.term})."
            )
        return ja

    def _bei_Stimme(self, k: Knoten, n: Nachricht) -> None:
        if k.rolle != KANDIDAT or n.term != k.term or not n.daten["ja"]:
            return
        k.stimmen.add(n.von)
        if len(k.stimmen) >= self.mehrheit:
            self._werde_leader(k)

    def _werde_leader(self, k: Knoten) -> None:
        self._rolle(k, "mehrheit")
        self.leader_je_term.setdefault(k.term, []).append(k.name)
        if len(self.leader_je_term[k.term]) > 1:
            namen = self.leader_je_term[k.term]
            self.verletzungen.append(
                f"Zwei Leader in Term {k.term}: {', '.join(namen[:-1])} und {namen[-1]}."
            )
        for index, (eintrag, _, term) in sorted(self.festgeschrieben.items()):
            if term >= k.term:
                continue  # a stale candidate's late win: it leads an older term
            if index > k.letzter_index or k.log[index - 1] != eintrag:
                self.verletzungen.append(
                    f"Der committete Eintrag {index} ({eintrag.beschreibe()}) fehlt im "
                    f"Log von {k.name}, Leader in Term {k.term}."
                )
        self._notiere(f"{k.name} ist Leader in Term {k.term}")
        if k.frist is not None:
            k.frist.absagen()
            k.frist = None
        k.uhr_nr += 1
        k.leader_bekannt = k.name
        k.next_index = {a: k.letzter_index + 1 for a in self.namen if a != k.name}
        k.match_index = {a: 0 for a in self.namen if a != k.name}
        if not self._ohne_leeren_eintrag:
            k.log.append(Eintrag(k.term, "noop"))
        self._herzschlag(k, k.uhr_nr)

    # --- replication ---

    def _herzschlag(self, k: Knoten, nr: int) -> None:
        if k.rolle != LEADER or nr != k.uhr_nr:
            return
        for an in k.next_index:
            self._repliziere(k, an)
        k.herz = self.zeit.schedule(self.herzschlag, self._wecke, k.name, "_herzschlag", (nr,))

    def _repliziere(self, k: Knoten, an: str) -> None:
        vor = k.next_index[an] - 1
        self._sende(
            k,
            an,
            "AppendEntries",
            {
                "vor_index": vor,
                "vor_term": k.term_bei(vor),
                "eintraege": tuple(k.log[vor:]),
                "commit": k.commit,
            },
        )

    def _bei_AppendEntries(self, k: Knoten, n: Nachricht) -> None:
        d = n.daten
        if n.term < k.term or k.rolle == LEADER:
            # a leader hears another leader of its own term only after a broken vote rule
            # made two (recorded in ``verletzungen``); it keeps its log
            self._sende(k, n.von, "AppendAntwort", {"erfolg": False, "index": 0})
            return
        self._rolle(k, "leader_gesehen")
        k.leader_bekannt = n.von
        self._starte_frist(k)
        vor = d["vor_index"]
        if vor > k.letzter_index or k.term_bei(vor) != d["vor_term"]:
            hinweis = min(vor - 1, k.letzter_index)
            self._sende(k, n.von, "AppendAntwort", {"erfolg": False, "index": hinweis})
            return
        for i, e in enumerate(d["eintraege"], start=vor + 1):
            if i <= k.letzter_index:
                if k.log[i - 1].term == e.term:
                    continue
                if i <= k.commit:
                    self.verletzungen.append(
                        f"{k.name} soll den committeten Eintrag {i} "
                        f"({k.log[i - 1].beschreibe()}) überschreiben."
                    )
                weg = k.letzter_index - i + 1
                self._notiere(
                    f"{k.name} verwirft ab Index {i} "
                    + ("einen Eintrag, den" if weg == 1 else f"{weg} Einträge, die")
                    + f" der Leader {n.von} so nicht hat"
                )
                del k.log[i - 1 :]
            k.log.append(e)
        letzter_neuer = vor + len(d["eintraege"])
        if d["commit"] > k.commit:
            self._commit(k, min(d["commit"], letzter_neuer))
        self._sende(k, n.von, "AppendAntwort", {"erfolg": True, "index": letzter_neuer})

    def _bei_AppendAntwort(self, k: Knoten, n: Nachricht) -> None:
        if k.rolle != LEADER or n.term != k.term:
            return
        if n.daten["erfolg"]:
            index = n.daten["index"]
            if index > k.match_index[n.von]:
                k.match_index[n.von] = index
            k.next_index[n.von] = max(k.next_index[n.von], index + 1)
            self._pruefe_commit(k)
        else:
            k.next_index[n.von] = max(1, min(k.next_index[n.von] - 1, n.daten["index"] + 1))
            self._repliziere(k, n.von)

    def _pruefe_commit(self, k: Knoten) -> None:
        for index in range(k.letzter_index, k.commit, -1):
            if k.log[index - 1].term != k.term and not self._alte_terme_zaehlen:
                break  # only entries of the current term count (Raft, section 5.4.2)
            haben = 1 + sum(1 for m in k.match_index.values() if m >= index)
            if haben >= self.mehrheit:
                self._commit(k, index)
                break

    def _commit(self, k: Knoten, index: int) -> None:
        if index <= k.commit:
            return
        alt, k.commit = k.commit, index
        if k.rolle == LEADER:  # the followers learn it later; telling only the leader is enough
            welche = f"Eintrag {index}" if index == alt + 1 else f"Einträge {alt + 1}–{index}"
            self._notiere(f"{k.name} committet {welche} (Commit-Index {index})")
        for i in range(alt + 1, index + 1):
            e = k.log[i - 1]
            frueher = self.festgeschrieben.get(i)
            if frueher is None:
                self.festgeschrieben[i] = (e, self.now, k.term)
            elif frueher[0] != e:
                self.verletzungen.append(
                    f"Eintrag {i} ist auf {k.name} committet als ({e.beschreibe()}), "
                    f"vorher als ({frueher[0].beschreibe()})."
                )
            elif k.term < frueher[2]:
                self.festgeschrieben[i] = (frueher[0], frueher[1], k.term)
        while k.angewendet < k.commit:
            k.angewendet += 1
            self._wende_an(k, k.angewendet, k.log[k.angewendet - 1])

    def _wende_an(self, k: Knoten, index: int, e: Eintrag) -> None:
        ergebnis = None
        if e.f == "write":
            assert e.key is not None
            k.register[e.key] = e.value
            ergebnis = e.value
        elif e.f == "read":
            assert e.key is not None
            ergebnis = k.register.get(e.key)
        wartend = k.offen.pop(index, None)
        if wartend is not None and k.rolle == LEADER:
            self._antworte(wartend[0], wartend[1], "ok", ergebnis, k.name)

    def _leader_ab(self, k: Knoten) -> None:
        """A leader that loses office cannot tell whether its pending entries will commit."""
        for client, nummer in list(k.offen.values()):
            self._antworte(client, nummer, "info", None, k.name, "Leader abgesetzt")
        k.offen.clear()

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
        self.zeit.schedule(0, self._wecke, ziel, "_bei_client", (op,))

    def _bei_client(self, k: Knoten, op: _ClientOp) -> None:
        if k.rolle != LEADER:
            self._antworte(op.client, op.nummer, "fail", None, k.name, "nicht Leader")
            return
        k.log.append(Eintrag(k.term, op.f, op.key, op.value, op.client, op.nummer))
        k.offen[k.letzter_index] = (op.client, op.nummer)
        for an in k.next_index:
            self._repliziere(k, an)

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
        self._rolle(k, "absturz")
        for t in (k.frist, k.herz):
            if t is not None:
                t.absagen()
        k.frist = k.herz = None
        k.commit = k.angewendet = 0
        k.register = {}
        k.stimmen = set()
        k.next_index, k.match_index = {}, {}
        k.offen = {}  # its clients hear nothing and time out
        k.leader_bekannt = None
        k.pausiert_bis = None
        k.aufgeschoben = []
        self._notiere(f"{name} stürzt ab")

    def neustart(self, name: str) -> None:
        """Der Knoten startet als Follower mit Term, Stimme und Log von der Platte."""
        k = self._k(name)
        if k.rolle != ABGESTUERZT:
            raise SimFehler(f"{name} läuft doch ({k.rolle}); nur ein abgestürzter startet neu.")
        self._rolle(k, "neustart")
        self._starte_frist(k)
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
        self._notiere("Netzpartition: " + " | ".join(" ".join(sorted(g)) for g in mengen))

    def heile(self) -> None:
        """Die Partition endet: Ab jetzt kommen alle Nachrichten an."""
        self.gruppen = None
        self._notiere("Netzpartition geheilt")

    def pausiere(self, name: str, dauer: int) -> None:
        """Der Knoten hält ``dauer`` Ticks an; danach holt er nach, was anstand."""
        k = self._k(name)
        pruefe_ganzzahl(dauer, "Die Dauer der Pause", 1)
        if k.rolle == ABGESTUERZT:
            raise SimFehler(f"{name} ist abgestürzt; eine Pause ändert nichts.")
        if k.pausiert_bis is not None:
            raise SimFehler(f"{name} ist schon bis t={k.pausiert_bis} angehalten.")
        k.pausiert_bis = self.now + dauer
        self.zeit.schedule(dauer, self._weiter, name)
        self._notiere(f"{name} hält {dauer} Ticks an")

    def _weiter(self, name: str) -> None:
        k = self.knoten[name]
        if k.pausiert_bis != self.now:
            return  # crashed during the pause
        k.pausiert_bis = None
        anstehend, k.aufgeschoben = k.aufgeschoben, []
        for methode, args in anstehend:
            self._wecke(name, methode, args)

    # --- reading the state ---

    def leader(self) -> str | None:
        """Der laufende Knoten, der sich mit dem höchsten Term für Leader hält (oder ``None``)."""
        beste = [k for k in self.knoten.values() if k.rolle == LEADER]
        if not beste:
            return None
        return max(beste, key=lambda k: (k.term, k.name)).name

    def tick(self, n: int = 1) -> None:
        pruefe_ganzzahl(n, "Die Anzahl der Ticks", 0)
        if n > MAX_TICKS:
            raise UngueltigeEingabe(f"Höchstens {MAX_TICKS} Ticks auf einmal, nicht {n}.")
        self.zeit.tick(n)

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
