"""Ein Raft-Knoten auf ``pysim.cluster``: Wahl, Log und Commit als Handler für Nachrichten.

``RaftKnoten`` ist ein ``pysim.cluster.Knoten`` wie der, den die Leserin schreibt: Er sieht den
Cluster nur durch seine eigenen Aufrufe (``self.sende``, ``self.antworte``, ``self.spaeter``,
``self.uhr``, ``self.speicher``) und hält keinen Verweis auf den Cluster, andere Knoten oder den
Verlauf. ``RaftSim`` (``pysim.raft.modell``) ist die Front der Lektion auf einem ``Cluster``
solcher Knoten.

Was ein Absturz übrig lässt: Term, Stimme und Log liegen in ``self.speicher`` (``"term"``,
``"stimme"``, ``"log"``), wie auf einer Platte. Rolle, Commit-Index, Register, die Stimmen einer
Wahl und was der Leader über seine Follower weiß, hält das Objekt; beim Neustart legt der Cluster
ein neues an, und es beginnt als Follower.

Die Nachrichten, wie bei Maelstrom ein ``body`` mit ``type`` und ``term``:

- ``request_vote`` (``letzter_index``, ``letzter_term``) und die Antwort
  ``request_vote_res`` (``ja``),
- ``append_entries`` (``vor_index``, ``vor_term``, ``eintraege``: je Eintrag
  ``[term, f, key, value, client, nummer]``, ``commit``) und die Antwort
  ``append_entries_res`` (``erfolg``, ``index``: bis wohin das Log nun passt, oder ein Hinweis,
  wo der Leader es weiter vorn versuchen soll),
- von einem Client: ``write`` (``key``, ``value``) und ``read`` (``key``), beide mit ``msg_id``.
  Der Leader antwortet ``write_ok`` oder ``read_ok`` (``value``), sobald er die Operation
  angewendet hat. Ein Knoten, der nicht Leader ist, antwortet mit Fehler 11
  (``temporarily-unavailable``: sicher nicht geschehen); ein Leader, der sein Amt verliert, mit
  Fehler 13 (``crash``: unbestimmt, ob es geschah). Mit ``WEITERLEITEN = True`` (Herausforderung 8,
  Stufe 3) reicht ein Knoten, der den Leader kennt, die Anfrage an ihn weiter (``weitergeleitet``:
  nur einmal) und dessen Antwort zurück, wie in Maelstroms Raft-Anleitung.

Die Stimmregel ist eine Methode: ``stimmt_fuer(anfrage)`` bekommt eine ``Stimmanfrage`` und gibt
``True`` oder ``False``; sie ist ``raft_stimmregel``, bis eine Unterklasse sie überschreibt::

    class Grosszuegig(RaftKnoten):
        def stimmt_fuer(self, anfrage):
            return anfrage.term == anfrage.mein_term  # eine Stimme für jeden: zwei Leader

    cluster = Cluster(Grosszuegig, 3, latenz=(1, 3))

Die Election-Timeouts würfelt der Knoten aus ``zufall()``, zwischen ``WAHL_FRIST[0]`` und
``WAHL_FRIST[1]`` Ticks; der Leader schickt alle ``HERZSCHLAG`` Ticks AppendEntries.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Protocol

from ..cluster.cluster import zwischen
from ..cluster.knoten import FehlerAntwort, KeineAntwort, Knoten, Timer
from ..cluster.nachricht import Nachricht as Sendung
from ..fehler import SimFehler
from .regeln import FOLLOWER, KANDIDAT, LEADER, uebergang

__all__ = [
    "Aufsicht",
    "Eintrag",
    "RaftKnoten",
    "Stimmanfrage",
    "Stimmregel",
    "raft_stimmregel",
]

#: The Maelstrom-style message types and the words the picture and the lesson use for them.
ARTEN = {
    "request_vote": "RequestVote",
    "request_vote_res": "Stimme",
    "append_entries": "AppendEntries",
    "append_entries_res": "AppendAntwort",
}

#: How a message of a Raft node is named in an error (``Netzzugang.sende``'s ``wer``).
SENDE = "RaftKnoten.sende"

#: Error codes a node answers a client with (Maelstrom's table, ``pysim.cluster.FEHLERCODES``).
NICHT_LEADER = 11  # temporarily-unavailable: definite, it did not happen
ABGESETZT = 13  # crash: indefinite, it may have happened
#: Ticks a forwarding node waits for the leader's answer (``RaftKnoten.WEITERLEITEN``): less
#: than a client's 30, so that a late answer still reaches the client.
WEITER_TIMEOUT = 20


#: An entry in words and short: (for messages, for the picture and the status).
_TEXTE = {
    "write": ("Term {t}, {k} = {v!r}", "{t}:w={v}"),
    "read": ("Term {t}, lies {k}", "{t}:r"),
    "noop": ("Term {t}, leer", "{t}:-"),
}


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
        return self._text(0)

    def kurz(self) -> str:
        """``3:w=5``, ``3:r``, ``3:-`` (Term und Operation, für Bild und Status)."""
        return self._text(1)

    def _text(self, form: int) -> str:
        muster = _TEXTE.get(self.f, _TEXTE["noop"])[form]
        return muster.format(t=self.term, k=self.key, v=self.value)

    def als_liste(self) -> list[Any]:
        """Der Eintrag, wie er in ``append_entries`` steht: ``[term, f, key, value, client, nummer]``."""
        return [self.term, self.f, self.key, self.value, self.client, self.nummer]


def eintrag_aus(liste: Sequence[Any]) -> Eintrag:
    """The entry an ``append_entries`` message carries as a list (``Eintrag.als_liste``)."""
    return Eintrag(*liste)


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


class Aufsicht(Protocol):
    """Wer einen Lauf von außen beobachtet (``RaftSim``): Er hört, was ein Knoten notiert, wer
    Leader wird und was festgeschrieben ist, und prüft daran die Sicherheit. Er bekommt Werte
    (das Log nur zum Lesen), keinen Weg zum Knoten zurück; ``zeit`` ist die Uhr des Knotens.
    Eine Unterklasse von ``RaftKnoten`` nennt ihn in ``AUFSICHT``."""

    def notiere(self, zeit: int, text: str) -> None:
        """Eine Zeile fürs Protokoll."""
        ...

    def leader(self, zeit: int, knoten: str, term: int, log: Sequence[Eintrag]) -> None:
        """``knoten`` ist eben Leader in ``term`` geworden, mit diesem Log."""
        ...

    def committet(self, zeit: int, knoten: str, term: int, index: int, eintrag: Eintrag) -> None:
        """``knoten`` (in ``term``) hat ``eintrag`` an ``index`` eben committet."""
        ...

    def verletzung(self, zeit: int, text: str) -> None:
        """Ein Knoten sieht selbst eine Verletzung der Sicherheit (ein committeter Eintrag soll
        überschrieben werden), als deutscher Satz."""
        ...

    def regelfehler(self, fehler: SimFehler) -> None:
        """Die Stimmregel warf oder gab kein ``bool``: Wer den Lauf anhalten will, wirft hier."""
        ...


def regelname(regel: object) -> str:
    """The name of a vote rule for a German message."""
    return str(getattr(regel, "__name__", None) or repr(regel))


class RaftKnoten(Knoten):
    """Ein Raft-Knoten (siehe das Modul): Term, Stimme und Log in ``self.speicher``.

    Zum Überschreiben: ``stimmt_fuer(anfrage)``, die Stimmregel. Zum Lesen (für Status und
    Bild): ``rolle``, ``term``, ``stimme``, ``log``, ``commit``, ``register``, ``next_index``,
    ``match_index``, ``leader_bekannt``.
    """

    #: Election-Timeout: gewürfelt zwischen diesen Ticks, neu bei jedem Start der Frist.
    WAHL_FRIST: ClassVar[tuple[int, int]] = (15, 30)
    #: Abstand der AppendEntries des Leaders in Ticks (kürzer als der kürzeste Timeout).
    HERZSCHLAG: ClassVar[int] = 5
    #: Only for the Figure-8 scenario (tests): no empty entry of a new leader, and, broken,
    #: a leader that counts replicas of entries of earlier terms.
    OHNE_LEEREN_EINTRAG: ClassVar[bool] = False
    ALTE_TERME_ZAEHLEN: ClassVar[bool] = False
    #: Challenge 8, stage 3: a node that is not leader passes a client's request on to the
    #: leader it knows and the leader's answer back (a proxy, as in Maelstrom's Raft guide)
    #: instead of answering error 11. Off in lesson 10 and stage 2, whose outputs show error 11.
    WEITERLEITEN: ClassVar[bool] = False
    #: Who watches the run from outside (``RaftSim``), or None.
    AUFSICHT: ClassVar[Aufsicht | None] = None
    #: Follower, Kandidat or Leader (``pysim.raft.regeln``); faults aimed at a role read it
    #: (``absturz:[Leader]``). Lost in a crash: a node starts as follower.
    rolle: str = FOLLOWER

    # --- what the lesson reads -----------------------------------------------------------

    @property
    def term(self) -> int:
        """Der aktuelle Term (übersteht einen Absturz)."""
        term: int = self.speicher["term"]
        return term

    @property
    def stimme(self) -> str | None:
        """Wem der Knoten in ``term`` seine Stimme gab (übersteht einen Absturz)."""
        stimme: str | None = self.speicher["stimme"]
        return stimme

    @property
    def log(self) -> list[Eintrag]:
        """Das Log (übersteht einen Absturz)."""
        log: list[Eintrag] = self.speicher["log"]
        return log

    @property
    def letzter_index(self) -> int:
        return len(self.speicher["log"])

    @property
    def letzter_term(self) -> int:
        log = self.speicher["log"]
        return log[-1].term if log else 0

    def term_bei(self, index: int) -> int:
        """Der Term des Eintrags ``index`` (1-basiert; 0 für den Anfang vor dem Log)."""
        return self.speicher["log"][index - 1].term if index > 0 else 0

    @property
    def quorum(self) -> int:
        """Wie viele Stimmen (oder Kopien eines Eintrags) eine Mehrheit sind, der Knoten selbst
        mitgezählt. (``self.mehrheit(fragen)`` ist etwas anderes: das Warten auf so viele
        Antworten, ``Knoten.mehrheit``.)"""
        return len(self.knoten) // 2 + 1

    def zustand(self) -> dict[str, object]:
        """Was der Knoten im Bild neben sich zeigt und eine Invariante prüft
        (``Cluster.invariante``): Rolle, Term, Stimme, wie lang sein Log ist und wie weit
        committet."""
        return {
            "rolle": self.rolle,
            "term": self.term,
            "stimme": self.stimme,
            "log": self.letzter_index,
            "commit": getattr(self, "commit", 0),
        }

    # --- what a subclass may replace ------------------------------------------------------

    def stimmt_fuer(self, anfrage: Stimmanfrage) -> bool:
        """Die Stimmregel: ``True``, wenn dieser Knoten ``anfrage.kandidat`` seine Stimme gibt
        (ohne Überschreiben ``raft_stimmregel``)."""
        return raft_stimmregel(anfrage)

    def regelname(self) -> str:
        """Der Name der Stimmregel in Meldungen."""
        return f"{type(self).__name__}.stimmt_fuer"

    def zufall(self) -> random.Random:
        """Woraus die Election-Timeouts gewürfelt werden: ohne Überschreiben ein eigener
        Zufall je Knoten und Start, aus seinem Namen (in jedem Lauf derselbe)."""
        starts = self.speicher.get("starts", 0)
        return random.Random(f"{self.id}/{starts}")

    # --- start ------------------------------------------------------------------------------

    def beim_start(self) -> None:
        s = self.speicher
        if "term" not in s:
            s["term"], s["stimme"], s["log"] = 0, None, []
        self._zufall = self.zufall()
        s["starts"] = s.get("starts", 0) + 1
        self.rolle = FOLLOWER
        self.commit = 0
        self.angewendet = 0
        self.register: dict[str, Any] = {}
        self.stimmen: set[str] = set()
        self.next_index: dict[str, int] = {}
        self.match_index: dict[str, int] = {}
        self.leader_bekannt: str | None = None
        self.offen: dict[int, tuple[str, int]] = {}  # log index -> (client, msg_id)
        #: The current timer's number: a timer replaced since is stale and does nothing
        #: (cancelled as well, so it never runs; one held back by a pause stays stale).
        self.uhr_nr = 0
        #: The pending election timeout and heartbeat (``Knoten.spaeter``'s timers), or None.
        self._frist: Timer | None = None
        self._herz: Timer | None = None
        # The gate's sende, looked up once per start: every message takes this path.
        self._netz_sende = self._netz.sende
        self._netz_spaeter = self._netz.spaeter  # for the validated delays of the timers
        self._uhr = self._netz.uhr  # Knoten.uhr, one call less
        #: The tick the election timeout is due (None: none set, e.g. as leader). From that
        #: tick on it counts as expired, also while a pause holds back its call.
        self.frist_bis: int | None = None
        self._starte_frist()

    # --- helpers ----------------------------------------------------------------------------

    def _notiere(self, text: str) -> None:
        aufsicht = self.AUFSICHT
        if aufsicht is not None:
            aufsicht.notiere(self._uhr(), text)
        else:
            self.notiz(text)

    def _rolle(self, ereignis: str) -> None:
        alt = self.rolle
        self.rolle = uebergang(alt, ereignis)
        if alt == LEADER and self.rolle != LEADER:
            self._leader_ab()

    def _starte_frist(self) -> None:
        dauer = zwischen(self._zufall, *self.WAHL_FRIST)  # randint, in fewer calls
        # ``_timer_ab``, inlined: every AppendEntries restarts the timeout
        self.uhr_nr += 1
        nr = self.uhr_nr
        if self._herz is not None:
            self._herz.absagen()
            self._herz = None
        self.frist_bis = self._uhr() + dauer
        if self._frist is not None:  # the same run as absagen() and a new timer, cheaper
            self._frist = self._frist.verschiebe(dauer, partial(self._frist_ab, nr))
        else:  # (a partial, not a lambda: called without a frame of its own)
            self._frist = self._netz_spaeter(dauer, partial(self._frist_ab, nr))

    def _timer_ab(self) -> None:
        """The pending timers are stale from now on (a new number) and cancelled."""
        self.uhr_nr += 1
        if self._frist is not None:
            self._frist.absagen()
            self._frist = None
        if self._herz is not None:
            self._herz.absagen()
            self._herz = None

    def _sende(self, an: str, typ: str, body: dict[str, Any]) -> None:
        body["type"] = typ
        body["term"] = self.speicher["term"]
        # Knoten.sende, without a name made for every message; the body is built for this
        # message alone and never changed (also its entries' lists): no copy on the wire
        self._netz_sende(an, body, SENDE, True)

    def _vor_dem_handler(self, n: Sendung) -> None:
        term = n.body["term"]
        if term > self.speicher["term"]:
            self._neuer_term(term)

    def _neuer_term(self, term: int) -> None:
        if self.rolle == LEADER:
            self._notiere(f"{self.id} sieht Term {term} und ist nicht mehr Leader")
        self.speicher["term"] = term
        self.speicher["stimme"] = None
        self.leader_bekannt = None
        self._rolle("hoeherer_term")
        if self.frist_bis is None or self.frist_bis <= self._uhr():
            self._starte_frist()

    # --- elections --------------------------------------------------------------------------

    def _frist_ab(self, nr: int) -> None:
        if self.rolle == LEADER or nr != self.uhr_nr:
            return
        self._rolle("timeout")
        s = self.speicher
        s["term"] += 1
        s["stimme"] = self.id
        self.stimmen = {self.id}
        self.leader_bekannt = None
        self._notiere(f"{self.id} wird Kandidat in Term {s['term']}")
        self._starte_frist()
        if len(self.stimmen) >= self.quorum:
            self._werde_leader()
            return
        for an in self.knoten:
            if an != self.id:
                self._sende(
                    an,
                    "request_vote",
                    {"letzter_index": self.letzter_index, "letzter_term": self.letzter_term},
                )

    def bei_request_vote(self, n: Sendung) -> None:
        self._vor_dem_handler(n)
        body = n.body
        anfrage = Stimmanfrage(
            kandidat=n.src,
            term=body["term"],
            letzter_index=body["letzter_index"],
            letzter_term=body["letzter_term"],
            mein_term=self.speicher["term"],
            meine_stimme=self.speicher["stimme"],
            mein_letzter_index=self.letzter_index,
            mein_letzter_term=self.letzter_term,
        )
        ja = self._frage_regel(anfrage)
        if ja:
            self.speicher["stimme"] = n.src
            self._starte_frist()
        self._sende(n.src, "request_vote_res", {"ja": ja})

    def _frage_regel(self, a: Stimmanfrage) -> bool:
        try:
            ja = self.stimmt_fuer(a)
        except Exception as fehler:
            self._regelfehler(
                SimFehler(
                    f"Die Stimmregel „{self.regelname()}“ ist bei der Anfrage von {a.kandidat} "
                    f"(Term {a.term}) mit {type(fehler).__name__} abgebrochen: {fehler}"
                ),
                fehler,
            )
        if not isinstance(ja, bool):
            self._regelfehler(
                SimFehler(
                    f"Die Stimmregel „{self.regelname()}“ muss True oder False zurückgeben, "
                    f"nicht {ja!r} ({type(ja).__name__}); bei der Anfrage von {a.kandidat} "
                    f"(Term {a.term})."
                ),
                None,
            )
        return ja

    def _regelfehler(self, fehler: SimFehler, ursache: BaseException | None) -> None:
        if ursache is not None:
            fehler.__cause__ = ursache  # as ``raise fehler from ursache``
        if self.AUFSICHT is not None:
            self.AUFSICHT.regelfehler(fehler)
        raise fehler

    def bei_request_vote_res(self, n: Sendung) -> None:
        self._vor_dem_handler(n)
        if self.rolle != KANDIDAT or n.body["term"] != self.term or not n.body["ja"]:
            return
        self.stimmen.add(n.src)
        if len(self.stimmen) >= self.quorum:
            self._werde_leader()

    def _werde_leader(self) -> None:
        self._rolle("mehrheit")
        term = self.term
        if self.AUFSICHT is not None:
            self.AUFSICHT.leader(self._uhr(), self.id, term, self.log)
        self._notiere(f"{self.id} ist Leader in Term {term}")
        self.frist_bis = None
        self._timer_ab()
        self.leader_bekannt = self.id
        weiter = self.letzter_index + 1
        self.next_index = {a: weiter for a in self.knoten if a != self.id}
        self.match_index = {a: 0 for a in self.knoten if a != self.id}
        if not self.OHNE_LEEREN_EINTRAG:
            self.log.append(Eintrag(term, "noop"))
        self._herzschlag(self.uhr_nr)

    # --- replication --------------------------------------------------------------------------

    def _herzschlag(self, nr: int) -> None:
        if self.rolle != LEADER or nr != self.uhr_nr:
            return
        for an in self.next_index:
            self._repliziere(an)
        self._herz = self.spaeter(self.HERZSCHLAG, partial(self._herzschlag, nr))

    def _repliziere(self, an: str) -> None:
        vor = self.next_index[an] - 1
        log = self.speicher["log"]
        # ``_sende``, inlined: every heartbeat sends one to each follower
        self._netz_sende(
            an,
            {
                "vor_index": vor,
                "vor_term": log[vor - 1].term if vor > 0 else 0,  # ``term_bei``
                # ``Eintrag.als_liste``, inlined: a lagging follower gets the whole rest
                "eintraege": [[e.term, e.f, e.key, e.value, e.client, e.nummer] for e in log[vor:]],
                "commit": self.commit,
                "type": "append_entries",
                "term": self.speicher["term"],
            },
            SENDE,
            True,
        )

    def bei_append_entries(self, n: Sendung) -> None:
        d = n.body
        term = d["term"]
        if term > self.speicher["term"]:  # ``_vor_dem_handler``, inlined (every heartbeat)
            self._neuer_term(term)
        if term < self.speicher["term"] or self.rolle == LEADER:
            # a leader hears another leader of its own term only after a broken vote rule
            # made two; it keeps its log
            self._sende(n.src, "append_entries_res", {"erfolg": False, "index": 0})
            return
        if self.rolle != FOLLOWER:  # a follower stays one (``regeln.UEBERGAENGE``)
            self._rolle("leader_gesehen")
        self.leader_bekannt = n.src
        self._starte_frist()
        log = self.speicher["log"]
        vor = d["vor_index"]
        if vor > len(log) or (log[vor - 1].term if vor > 0 else 0) != d["vor_term"]:
            hinweis = min(vor - 1, len(log))
            self._sende(n.src, "append_entries_res", {"erfolg": False, "index": hinweis})
            return
        for i, liste in enumerate(d["eintraege"], start=vor + 1):
            if i <= len(log) and log[i - 1].term == liste[0]:
                continue  # it has this entry already (Log Matching): no Eintrag to make
            e = eintrag_aus(liste)
            if i <= len(log):
                if i <= self.commit and self.AUFSICHT is not None:
                    self.AUFSICHT.verletzung(
                        self._uhr(),
                        f"{self.id} soll den committeten Eintrag {i} "
                        f"({log[i - 1].beschreibe()}) überschreiben.",
                    )
                weg = len(log) - i + 1
                self._notiere(
                    f"{self.id} verwirft ab Index {i} "
                    + ("einen Eintrag, den" if weg == 1 else f"{weg} Einträge, die")
                    + f" der Leader {n.src} so nicht hat"
                )
                del log[i - 1 :]
            log.append(e)
        letzter_neuer = vor + len(d["eintraege"])
        if d["commit"] > self.commit:
            self._commit(min(d["commit"], letzter_neuer))
        self._sende(n.src, "append_entries_res", {"erfolg": True, "index": letzter_neuer})

    def bei_append_entries_res(self, n: Sendung) -> None:
        d = n.body
        if d["term"] > self.speicher["term"]:  # ``_vor_dem_handler``, inlined
            self._neuer_term(d["term"])
        if self.rolle != LEADER or d["term"] != self.speicher["term"]:
            return
        von = n.src
        if d["erfolg"]:
            index = d["index"]
            if index > self.match_index[von]:
                self.match_index[von] = index
            self.next_index[von] = max(self.next_index[von], index + 1)
            self._pruefe_commit()
        else:
            self.next_index[von] = max(1, min(self.next_index[von] - 1, d["index"] + 1))
            self._repliziere(von)

    def _pruefe_commit(self) -> None:
        log = self.speicher["log"]
        if len(log) <= self.commit:  # nothing new to count (most heartbeats' answers)
            return
        term = self.speicher["term"]
        for index in range(len(log), self.commit, -1):
            if log[index - 1].term != term and not self.ALTE_TERME_ZAEHLEN:
                break  # only entries of the current term count (Raft, section 5.4.2)
            haben = 1 + sum(1 for m in self.match_index.values() if m >= index)
            if haben >= self.quorum:
                self._commit(index)
                break

    def _commit(self, index: int) -> None:
        if index <= self.commit:
            return
        alt, self.commit = self.commit, index
        if self.rolle == LEADER:  # the followers learn it later; telling only the leader is enough
            welche = f"Eintrag {index}" if index == alt + 1 else f"Einträge {alt + 1}–{index}"
            self._notiere(f"{self.id} committet {welche} (Commit-Index {index})")
        log = self.log
        aufsicht = self.AUFSICHT
        if aufsicht is not None:
            jetzt, term = self._uhr(), self.term
            for i in range(alt + 1, index + 1):
                aufsicht.committet(jetzt, self.id, term, i, log[i - 1])
        while self.angewendet < self.commit:
            self.angewendet += 1
            self._wende_an(self.angewendet, log[self.angewendet - 1])

    def _wende_an(self, index: int, e: Eintrag) -> None:
        ergebnis = None
        if e.f == "write":
            assert e.key is not None
            self.register[e.key] = e.value
            ergebnis = e.value
        elif e.f == "read":
            assert e.key is not None
            ergebnis = self.register.get(e.key)
        wartend = self.offen.pop(index, None)
        if wartend is not None and self.rolle == LEADER:
            client, msg_id = wartend
            if e.f == "read":
                body: dict[str, Any] = {"type": "read_ok", "value": ergebnis}
            else:
                body = {"type": "write_ok"}
            body["in_reply_to"] = msg_id
            self.sende(client, body)

    def _leader_ab(self) -> None:
        """A leader that loses office cannot tell whether its pending entries will commit."""
        for client, msg_id in list(self.offen.values()):
            self.sende(
                client,
                {
                    "type": "error",
                    "in_reply_to": msg_id,
                    "code": ABGESETZT,
                    "text": "Leader abgesetzt",
                },
            )
        self.offen.clear()

    # --- clients ------------------------------------------------------------------------------

    def bei_write(self, n: Sendung) -> Coroutine[Any, Any, None] | None:
        return self._bei_client(n, "write", n.body.get("value"))

    def bei_read(self, n: Sendung) -> Coroutine[Any, Any, None] | None:
        return self._bei_client(n, "read", None)

    def _bei_client(self, n: Sendung, f: str, wert: Any) -> Coroutine[Any, Any, None] | None:
        if self.rolle != LEADER:
            leader = self.leader_bekannt
            if self.WEITERLEITEN and leader is not None and not n.body.get("weitergeleitet"):
                # a coroutine: the cluster runs it as this handler, waiting for the leader
                return self._weiterleiten(n, leader)
            self.antworte(n, {"type": "error", "code": NICHT_LEADER, "text": "nicht Leader"})
            return None
        msg_id = n.body["msg_id"]
        log = self.log
        log.append(Eintrag(self.term, f, n.body["key"], wert, n.src, msg_id))
        self.offen[len(log)] = (n.src, msg_id)
        for an in self.next_index:
            self._repliziere(an)
        return None

    async def _weiterleiten(self, n: Sendung, leader: str) -> None:
        """Passes a client's request on to ``leader`` (once: a forwarded request is not
        forwarded again) and its answer, an error too, back to the client. Without an answer
        it says nothing: nobody knows whether the request happened, and the client's timeout
        makes it ``info``."""
        try:
            antwort = await self.frage(leader, {**n.body, "weitergeleitet": True}, WEITER_TIMEOUT)
            body = dict(antwort.body)
        except FehlerAntwort as e:
            body = dict(e.body)
        except KeineAntwort:
            return
        body.pop("in_reply_to", None)
        self.antworte(n, body)

    def __repr__(self) -> str:
        return (
            f"RaftKnoten({self.id}, {self.rolle}, Term {self.term}, "
            f"Log {len(self.log)}, Commit {self.commit})"
        )
