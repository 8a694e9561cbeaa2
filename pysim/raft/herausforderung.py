"""Herausforderung 8 „Raft selbst gebaut“: die Last, unter der der Raft-Knoten der Leserin läuft,
und die Invarianten von Raft, nach jedem Ereignis geprüft.

Stufe 1, ``RaftWahl`` (Last ``raft-wahl``): keine Clients, nur Wahlen unter Netzpartitionen,
Pausen und Abstürzen. Der Knoten zeigt in ``zustand()``, was die Prüfung liest::

    {"rolle": "Leader", "term": 4, "stimme": "n2"}

(``rolle``: ``"Follower"``, ``"Kandidat"`` oder ``"Leader"``, die Wörter von
``pysim.raft.regeln``; ``term`` und ``stimme`` wie in ``self.speicher``). ``RaftKnoten``, der
Knoten von Lektion 10, zeigt dasselbe und besteht dieselbe Prüfung.

Nach jedem Ereignis des Laufs (``Cluster.invariante``) gilt:

- **Ein Leader je Term** (Election Safety, Abbildung 3 des Raft-Papers): In keinem Term werden
  zwei Knoten Leader, auch nicht nacheinander.
- **Eine Stimme je Term**: Ein Knoten ändert seine Stimme nicht, solange sein Term gleich bleibt.
- **Der Term wächst**: Der Term eines Knotens sinkt nie, auch nicht über einen Absturz.

Die erste, die nicht gilt, hält den Lauf an; das Urteil nennt sie mit Term und Knoten. Gilt
alles, prüft ``pruefe`` am Ende, ``RUHE`` und mehr Ticks nach dem Heilen aller Störungen, die
Lebendigkeit: Genau ein Knoten ist Leader, und alle Knoten sind in seinem Term.

Stufe 2, ``RaftLog`` (Last ``raft-kv``, Seite ``docs/herausforderungen/raft-log.md``): Clients lesen
und schreiben wie bei ``lin-kv`` (ohne ``cas``), jeder über seinen Knoten. Der Knoten zeigt in
``zustand()`` zusätzlich ``log`` (die Einträge, jeder eine Liste, die mit seinem Term beginnt)
und ``commit``. Nach jedem Ereignis gelten die drei Invarianten der Wahl und die der Logs aus
Abbildung 3 des Papers: **Log Matching** (haben zwei Logs an einem Index Einträge desselben
Terms, sind sie bis dorthin gleich), **State Machine Safety** (an einem Index wird nirgends
etwas anderes committet) und **Leader Completeness** (ein Leader eines späteren Terms hat jeden
committeten Eintrag). Am Ende, nach dem Heilen, gilt die Lebendigkeit der Wahl (wie in Stufe 1),
der Leader hat einen Eintrag seines Terms committet, jedes letzte Lesen der Clients
(``Register.abschluss``) hat eine Antwort bekommen, und der Verlauf ist linearisierbar.

Stufe 3, ``RaftAbsturz`` (Last ``raft-absturz``, Seite ``docs/herausforderungen/raft-absturz.md``):
dieselben Clients und Invarianten unter Abstürzen und Neustarts. Die Beobachter gehören der
Last, nicht dem Knoten: Sie sehen über einen Neustart hinweg, ob ein Knoten seinen Term (**Der
Term wächst**), seine Stimme (**Eine Stimme je Term**) oder committete Einträge (**Leader
Completeness**, **State Machine Safety**) verloren hat. Am Ende gilt zusätzlich: Jeder Knoten hat
die Einträge, die der Leader committet hat (ein neu gestarteter ist wieder dabei).

Stufe 4, ``RaftFigur8`` (Last ``raft-figur8``, optional, auf derselben Seite): fünf Knoten, keine
Clients bis zu den letzten Lesen; eine Regie (``_Regie``) führt die Folge aus Abbildung 8 des
Papers herbei, jeden Schritt, sobald die Knoten so weit sind. Ein Leader, der einen Eintrag eines
früheren Terms committet, weil eine Mehrheit ihn hat, verliert ihn an einen späteren Leader
(**Leader Completeness**).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import pruefer
from ..cluster.lasten import Geplant, Last, Register
from ..cluster.lauf import RUHE
from ..cluster.stoerungen import Stoerung
from .regeln import LEADER

if TYPE_CHECKING:
    from ..cluster.cluster import Cluster, Zustaende
    from ..cluster.lauf import Lauf

__all__ = [
    "HERAUSFORDERUNG_LASTEN",
    "INVARIANTEN",
    "INVARIANTEN_LOG",
    "RaftAbsturz",
    "RaftFigur8",
    "RaftLog",
    "RaftWahl",
]

#: The invariants' names, as the verdict says them.
EIN_LEADER = "Ein Leader je Term"
EINE_STIMME = "Eine Stimme je Term"
TERM_WAECHST = "Der Term wächst"
INVARIANTEN = (EIN_LEADER, EINE_STIMME, TERM_WAECHST)
#: Stage 2's invariants on the logs (Figure 3 of the Raft paper).
LOG_MATCHING = "Log Matching"
STATE_MACHINE = "State Machine Safety"
LEADER_COMPLETENESS = "Leader Completeness"
INVARIANTEN_LOG = (LOG_MATCHING, STATE_MACHINE, LEADER_COMPLETENESS)


#: What the checks read in every node's ``zustand()``.
FELDER = ("rolle", "term", "stimme")


def _fehlt(zustaende: Zustaende) -> str | None:
    """What a node does not show in ``zustand()`` that the checks read, in German, or None."""
    for name, z in zustaende.items():
        fehlt = [feld for feld in FELDER if feld not in z]
        if fehlt:
            zeigt = ", ".join(f"„{k}“" for k in z) or "nichts"
            return (
                f"{name} zeigt in zustand() kein „{fehlt[0]}“. Die Prüfung liest dort „rolle“, "
                f"„term“ und „stimme“; er zeigt: {zeigt}."
            )
        if type(z["term"]) is not int:
            return f"{name} zeigt als „term“ {z['term']!r}, keine ganze Zahl."
    return None


class _Beobachter:
    """What the invariants remember between two events of a run: the first leader of every
    term, each node's last term and vote, and the leaders in the order they came."""

    def __init__(self) -> None:
        self.leader_je_term: dict[int, str] = {}
        self.zuletzt: dict[str, tuple[int, object]] = {}
        #: (tick, node, term) of every node that became leader, in order.
        self.leader: list[tuple[int, str, int]] = []
        self.uhr: Callable[[], int] = lambda: 0

    def ein_leader(self, zustaende: Zustaende) -> bool | str:
        for name, z in zustaende.items():
            if z["rolle"] != LEADER:
                continue
            term: Any = z["term"]  # an int: _fehlt checked it first
            erster = self.leader_je_term.get(term)
            if erster is None:
                self.leader_je_term[term] = name
                self.leader.append((self.uhr(), name, term))
            elif erster != name:
                return f"Term {term}: zwei Leader, {erster} und {name}."
        return True

    def term_waechst(self, zustaende: Zustaende) -> bool | str:
        fehlt = _fehlt(zustaende)  # the first check of every event: the others read the fields
        if fehlt is not None:
            return fehlt
        for name, z in zustaende.items():
            vorher = self.zuletzt.get(name)
            term: Any = z["term"]  # an int: _fehlt checked it first
            if vorher is not None and term < vorher[0]:
                return f"{name} war in Term {vorher[0]} und ist jetzt in Term {term}."
        return True

    def eine_stimme(self, zustaende: Zustaende) -> bool | str:
        for name, z in zustaende.items():
            term: Any = z["term"]
            stimme = z["stimme"]
            vorher = self.zuletzt.get(name)
            self.zuletzt[name] = (term, stimme)
            if vorher is None:
                continue
            alt_term, alt_stimme = vorher
            if term == alt_term and alt_stimme is not None and stimme != alt_stimme:
                if stimme is None:
                    # a restart that forgot the vote: the second vote is not cast yet, but
                    # nothing stops it any more
                    return (
                        f"{name} vergaß in Term {term} seine Stimme für {alt_stimme}: Jetzt "
                        "könnte er im selben Term einem zweiten Kandidaten zustimmen."
                    )
                return f"{name} gab in Term {term} zwei Stimmen: erst {alt_stimme}, dann {stimme}."
        return True


#: What the log checks read besides ``FELDER``: the log (a list of entries, each a list whose
#: first item is its term) and the commit index (entries 1 to ``commit`` are committed).
FELDER_LOG = ("log", "commit")


def _fehlt_log(zustaende: Zustaende) -> str | None:
    """What a node does not show of its log in ``zustand()``, in German, or None."""
    for name, z in zustaende.items():
        fehlt = [feld for feld in FELDER_LOG if feld not in z]
        if fehlt:
            return (
                f"{name} zeigt in zustand() kein „{fehlt[0]}“. Die Prüfung der Stufe „Log“ liest "
                "dort auch „log“ (die Einträge, jeder eine Liste, die mit seinem Term beginnt) "
                "und „commit“ (bis zu welchem Index committet ist)."
            )
        log, commit = z["log"], z["commit"]
        if not isinstance(log, (list, tuple)) or not all(
            isinstance(e, (list, tuple)) and e and type(e[0]) is int for e in log
        ):
            return f"{name} zeigt als „log“ keine Liste von Einträgen, die mit ihrem Term beginnen."
        if type(commit) is not int or not 0 <= commit <= len(log):
            return f"{name} zeigt „commit“ {commit!r} bei einem Log aus {len(log)} Einträgen."
    return None


def _eintrag(e: Any) -> str:
    return f"Term {e[0]}" + (f", {list(e[1:])}" if len(e) > 1 else "")


def _nicht_passend(a: str, b: str, index: int, anders: int, la: Any, lb: Any) -> str:
    """Log Matching broken: ``a`` and ``b`` have an entry of the same term at ``index`` but
    differ at ``anders`` (at or before it)."""
    term = la[index - 1][0]
    beide = f"{a} ({_eintrag(la[anders - 1])}), {b} ({_eintrag(lb[anders - 1])})"
    if anders == index:
        return (
            f"Index {index}: {a} und {b} haben dort verschiedene Einträge aus Term {term}: {beide}."
        )
    return (
        f"Index {index}: {a} und {b} haben dort einen Eintrag aus Term {term}, aber davor "
        f"verschiedene, an Index {anders}: {beide}."
    )


class _LogBeobachter:
    """What the log checks remember: every committed entry (index -> the entry, who committed
    it first, the lowest term of a node that had it committed) and every leader seen."""

    def __init__(self) -> None:
        self.committet: dict[int, tuple[tuple[Any, ...], str, int]] = {}
        self.leader: set[tuple[str, int]] = set()

    def log_matching(self, zustaende: Zustaende) -> bool | str:
        fehlt = _fehlt_log(zustaende)
        if fehlt is not None:
            return fehlt
        namen = list(zustaende)
        for i, a in enumerate(namen):
            for b in namen[i + 1 :]:
                la: Any = zustaende[a]["log"]
                lb: Any = zustaende[b]["log"]
                # the last index where both have an entry of the same term: all before agree
                for index in range(min(len(la), len(lb)), 0, -1):
                    if la[index - 1][0] == lb[index - 1][0]:
                        anders = next((j for j in range(index) if list(la[j]) != list(lb[j])), None)
                        if anders is not None:
                            return _nicht_passend(a, b, index, anders + 1, la, lb)
                        break
        return True

    def state_machine(self, zustaende: Zustaende) -> bool | str:
        for name, z in zustaende.items():
            log: Any = z["log"]
            term: Any = z["term"]
            for index in range(1, z["commit"] + 1):  # type: ignore[operator]
                eintrag = tuple(log[index - 1])
                frueher = self.committet.get(index)
                if frueher is None:
                    self.committet[index] = (eintrag, name, term)
                elif frueher[0] != eintrag:
                    return (
                        f"Index {index} ist auf {name} committet als ({_eintrag(eintrag)}), auf "
                        f"{frueher[1]} als ({_eintrag(frueher[0])})."
                    )
                elif term < frueher[2]:
                    self.committet[index] = (frueher[0], frueher[1], term)
        return True

    def leader_completeness(self, zustaende: Zustaende) -> bool | str:
        for name, z in zustaende.items():
            if z["rolle"] != LEADER:
                continue
            term: Any = z["term"]
            if (name, term) in self.leader:
                continue
            self.leader.add((name, term))
            log: Any = z["log"]
            for index, (eintrag, wer, gesehen) in sorted(self.committet.items()):
                if gesehen >= term:
                    continue  # a late win of an older term: it need not have it
                if index > len(log) or tuple(log[index - 1]) != eintrag:
                    return (
                        f"Term {term}: Dem Leader {name} fehlt der committete Eintrag an Index "
                        f"{index} ({_eintrag(eintrag)}, committet auf {wer})."
                    )
        return True


class RaftWahl(Last):
    """Stufe 1 „Wahl“: keine Clients; die Invarianten nach jedem Ereignis und am Ende ein
    Leader, dessen Term alle Knoten haben (siehe das Modul)."""

    name = "raft-wahl"

    def __init__(self) -> None:
        self._beobachter = _Beobachter()

    def plane(self, zufall: random.Random, dauer: int, clients: int) -> list[Geplant]:
        return []  # elections only: no client operations

    def vorbereiten(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        # one instance serves every run of a challenge: a fresh memory per run
        beobachter = self._beobachter = _Beobachter()
        beobachter.uhr = lambda: cluster.zeit.now
        # In this order: term_waechst reads the last terms that eine_stimme then updates; a
        # second vote shows before the second leader it makes, and says more about the cause.
        cluster.invariante(TERM_WAECHST, beobachter.term_waechst)
        cluster.invariante(EINE_STIMME, beobachter.eine_stimme)
        cluster.invariante(EIN_LEADER, beobachter.ein_leader)

    @property
    def leader(self) -> list[tuple[int, str, int]]:
        """``(tick, knoten, term)`` je Knoten, der im letzten Lauf Leader wurde, der Reihe nach."""
        return list(self._beobachter.leader)

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        if lauf.verletzung is not None:
            return pruefer.Urteil(False, str(lauf.verletzung))
        return lebendig(lauf.zustaende, lauf.geheilt, lauf.cluster.zeit.now)


def lebendig(zustaende: Zustaende, geheilt: int, jetzt: int) -> pruefer.Urteil:
    """Nach dem Heilen: genau ein Leader, und alle Knoten in seinem Term."""
    fehlt = _fehlt(zustaende)  # a run with no event checked no invariant
    if fehlt is not None:
        return pruefer.Urteil(False, fehlt)
    seit = f"{jetzt - geheilt} Ticks nach dem Heilen (t={jetzt})"
    leader = [k for k, z in zustaende.items() if z.get("rolle") == LEADER]
    terme = {k: z.get("term") for k, z in zustaende.items()}
    if not leader:
        liste = ", ".join(
            f"{k} in Term {t} ({zustaende[k].get('rolle')})" for k, t in terme.items()
        )
        return pruefer.Urteil(
            False, f"Kein Leader {seit}: {liste}. Raft soll bald nach dem Heilen einen wählen."
        )
    if len(leader) > 1:
        liste = " und ".join(f"{k} in Term {terme[k]}" for k in leader)
        return pruefer.Urteil(
            False,
            f"Zwei Leader {seit}: {liste}. Ein Leader, der einen höheren Term sieht, bleibt "
            "nicht Leader.",
        )
    term = terme[leader[0]]
    andere = [f"{k} in Term {t}" for k, t in terme.items() if t != term]
    if andere:
        return pruefer.Urteil(
            False,
            f"Nicht alle im Term des Leaders {seit}: {leader[0]} ist Leader in Term "
            f"{term}, aber {', '.join(andere)}.",
        )
    return pruefer.Urteil(
        True, f"Alle Invarianten galten; {seit} ist {leader[0]} Leader in Term {term}."
    )


class RaftLog(Register):
    """Stufe 2 „Log“: Clients lesen und schreiben Schlüssel wie bei ``lin-kv`` (ohne ``cas``),
    jeder über seinen Knoten; geprüft werden die Invarianten der Wahl und der Logs nach jedem
    Ereignis und am Ende die Linearisierbarkeit des Verlaufs. Der Knoten zeigt in ``zustand()``
    zusätzlich ``log`` (die Einträge, jeder eine Liste, die mit seinem Term beginnt) und
    ``commit``."""

    name = "raft-kv"

    def __init__(self, schluessel: int = 2) -> None:
        super().__init__(schluessel)
        self._wahl = _Beobachter()
        self._log = _LogBeobachter()

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        key = zufall.randrange(self.schluessel)
        if zufall.random() < 0.5:
            return "read", key, None
        return "write", key, zufall.randint(0, 4)

    def vorbereiten(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        wahl = self._wahl = _Beobachter()
        log = self._log = _LogBeobachter()
        wahl.uhr = lambda: cluster.zeit.now
        cluster.invariante(TERM_WAECHST, wahl.term_waechst)
        cluster.invariante(EINE_STIMME, wahl.eine_stimme)
        cluster.invariante(EIN_LEADER, wahl.ein_leader)
        cluster.invariante(LOG_MATCHING, log.log_matching)
        cluster.invariante(STATE_MACHINE, log.state_machine)
        cluster.invariante(LEADER_COMPLETENESS, log.leader_completeness)

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        if lauf.verletzung is not None:
            return pruefer.Urteil(False, str(lauf.verletzung))
        wahl = lebendig(lauf.zustaende, lauf.geheilt, lauf.cluster.zeit.now)
        if not wahl.ok:
            return wahl
        leer = _fortschritt(lauf)
        if leer is not None:
            return leer
        return pruefer.linearisierbar(lauf.geschichte)


def _fortschritt(lauf: Lauf) -> pruefer.Urteil | None:
    """Liveness of the log (``lebendig`` found exactly one leader): at the end the leader has
    committed an entry of its own term, and the clients had at least one write and one read
    answered."""
    leader, z = next((k, z) for k, z in lauf.zustaende.items() if z.get("rolle") == LEADER)
    log: Any = z["log"]
    commit: Any = z["commit"]
    if not any(e[0] == z["term"] for e in log[:commit]):
        return pruefer.Urteil(
            False,
            f"Am Ende (t={lauf.cluster.zeit.now}) hat der Leader {leader} in Term {z['term']} "
            f"keinen Eintrag seines Terms committet (Log: {len(log)} Einträge, Commit-Index "
            f"{commit}). Ein Leader schickt AppendEntries, bis eine Mehrheit seine Einträge hat.",
        )
    # the final reads (``Register.abschluss``; their processes start at 10,000)
    offen = [
        e for e in lauf.geschichte if e["process"] >= 10_000 and e["type"] not in ("invoke", "ok")
    ]
    offen = [e for e in offen if e["type"] == "info"]
    if offen:
        e = offen[0]
        return pruefer.Urteil(
            False,
            f"Das letzte Lesen von Schlüssel {e['key']} über {e['node']}, {RUHE} Ticks nach dem "
            f"Heilen, bekam keine Antwort. Ein Leader antwortet, sobald die Anfrage committet und "
            "angewendet ist; ein Knoten, der nicht Leader ist, sofort mit Fehler 11.",
        )
    return None


class RaftAbsturz(RaftLog):
    """Stufe 3 „Absturz“: dieselben Clients und Invarianten wie ``RaftLog``, unter Abstürzen
    und Neustarts. Am Ende gilt zusätzlich: Jeder Knoten, auch einer, der abgestürzt war, hat
    die Einträge, die der Leader committet hat (er ist wieder dabei)."""

    name = "raft-absturz"

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        urteil = super().pruefe(lauf)
        if not urteil.ok:
            return urteil
        zurueck = _nicht_dabei(lauf)
        return urteil if zurueck is None else zurueck


def _nicht_dabei(lauf: Lauf) -> pruefer.Urteil | None:
    """A node whose log lacks an entry the leader committed, after the healing (``RaftLog``'s
    checks found exactly one leader), as a verdict; None when every node has them all."""
    leader, z = next((k, z) for k, z in lauf.zustaende.items() if z.get("rolle") == LEADER)
    log: Any = z["log"]
    commit: Any = z["commit"]
    for name, andere in lauf.zustaende.items():
        seiner: Any = andere["log"]
        index = next(
            (i for i in range(1, commit + 1) if i > len(seiner) or seiner[i - 1] != log[i - 1]),
            None,
        )
        if index is not None:
            return pruefer.Urteil(
                False,
                f"{lauf.cluster.zeit.now - lauf.geheilt} Ticks nach dem Heilen "
                f"(t={lauf.cluster.zeit.now}) fehlt {name} der "
                f"Eintrag an Index {index} ({_eintrag(log[index - 1])}), den der Leader {leader} "
                f"in Term {z['term']} committet hat: {name} ist nicht wieder dabei.",
            )
    return None


#: Figure 8's director: the key its own writes go to (the clients' final reads read key 0 only,
#: so no read meets a value no client wrote).
FIGUR8_SCHLUESSEL = "figur8"
#: Ticks the director waits, once a majority has the old entry, for the acknowledgements to
#: reach the leader (a message takes 1 to 5 ticks).
FIGUR8_WARTEN = 6


class _Regie:
    """Figure 8 of the Raft paper as a run: after every event it reads the nodes' states and
    sets off the next step when the one before is there (like a targeted nemesis, but of five
    steps). ``n`` is a node's name; ``i`` the index of the old entry, ``T1`` its term.

    0. A leader L1 is there: the network splits into L1 with one follower F and the rest, and
       a write goes to L1 (index i, term T1).
    1. F has the entry: L1 crashes.
    2. The rest elects L2: it is cut off alone, and a write goes to it (index i, term T2 > T1).
    3. L2 has it: L2 crashes, the network heals, L1 restarts.
    4. L1 or F leads (L3) and has sent the entry of T1 to a majority; FIGUR8_WARTEN ticks later
       L3 crashes, L2 restarts, and F is cut off, so that only L2 can win: its last entry's
       term T2 beats the others' T1. Had L3 committed index i by counting its replicas (an
       entry of an older term), L2 lacks a committed entry: Leader Completeness.
    """

    def __init__(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        self.cluster, self.senden = cluster, senden
        self.schritt = 0
        self.unten: set[str] = set()
        self.l1 = self.f = self.l2 = ""
        self.index = self.term1 = self.term2 = 0

    def _jetzt(self, art: str, knoten: str = "", *seiten: list[str]) -> None:
        self._spaeter(0, (art, knoten, *seiten))

    def _spaeter(self, ticks: int, *schritte: tuple[Any, ...], danach: int | None = None) -> None:
        """The faults ``(art, knoten, *seiten)`` first thing in the tick ``ticks`` from now, then
        step ``danach``: at a tick, not at whichever event of that tick comes first (a node
        that orders its timers differently sees the same faults at the same moment)."""
        for art, knoten, *_ in schritte:
            if art == "absturz":
                self.unten.add(knoten)
            elif art == "neustart":
                self.unten.discard(knoten)
        self.cluster.zeit.schedule_zuerst(ticks, self._ausfuehren, schritte, danach)

    def _ausfuehren(self, schritte: tuple[tuple[Any, ...], ...], danach: int | None) -> None:
        jetzt = self.cluster.zeit.now
        for art, knoten, *seiten in schritte:
            Stoerung(jetzt, art, knoten, tuple(tuple(s) for s in seiten)).anwenden(self.cluster)
        if danach is not None:
            self.schritt = danach

    def _schreibe(self, an: str) -> None:
        self.senden(an, {"type": "write", "key": FIGUR8_SCHLUESSEL, "value": self.schritt})

    def _leader(self, zustaende: Zustaende, unter: Iterable[str]) -> str | None:
        return next(
            (k for k in unter if k not in self.unten and zustaende[k].get("rolle") == LEADER),
            None,
        )

    def _hat(self, z: Mapping[str, object], term: int) -> bool:
        log: Any = z.get("log")
        return (
            isinstance(log, (list, tuple))
            and len(log) >= self.index
            and log[self.index - 1][0] == term
        )

    def __call__(self, zustaende: Zustaende) -> bool:
        ids = list(self.cluster.ids)
        if self.schritt == 0:
            l1 = self._leader(zustaende, ids)
            if l1 is not None:
                self.l1, self.f = l1, next(k for k in ids if k != l1)
                z1: Any = zustaende[l1]
                self.index, self.term1 = len(z1["log"]) + 1, z1["term"]
                self._jetzt("teile", "", [l1, self.f], [k for k in ids if k not in (l1, self.f)])
                self._schreibe(l1)
                self.schritt = 1
        elif self.schritt == 1:
            if self._hat(zustaende[self.f], self.term1):
                self._jetzt("absturz", self.l1)
                self.schritt = 2
        elif self.schritt == 2:
            rest = [k for k in ids if k not in (self.l1, self.f)]
            l2 = self._leader(zustaende, rest)
            if l2 is not None:
                self.l2, self.term2 = l2, zustaende[l2]["term"]  # type: ignore[assignment]
                andere = [k for k in rest if k != l2]
                self._jetzt("teile", "", [l2], [self.l1, self.f], andere)
                self._schreibe(l2)
                self.schritt = 3
        elif self.schritt == 3:
            if self._hat(zustaende[self.l2], self.term2):
                self._jetzt("absturz", self.l2)
                # what L2 sent of its entry is lost at the cut: heal once it has arrived
                self._spaeter(FIGUR8_WARTEN, ("heile", ""), ("neustart", self.l1), danach=5)
                self.schritt = 4
        elif self.schritt == 5:
            l3 = self._leader(zustaende, [self.l1, self.f])
            haben = sum(self._hat(z, self.term1) for z in zustaende.values())
            if l3 is not None and haben > len(ids) // 2:
                # the acknowledgements reach L3; then only L2 can win
                andere = [k for k in ids if k not in (self.l1, self.f)]
                self._spaeter(
                    FIGUR8_WARTEN,
                    ("absturz", l3),
                    ("neustart", self.l2),
                    ("teile", "", andere, [self.f]),
                    danach=7,
                )
                self.schritt = 6
        return True


class RaftFigur8(RaftAbsturz):
    """Stufe 4 „Figur 8“ (optional): fünf Knoten, keine Clients bis zum Schluss; eine Regie
    (``_Regie``) führt die Folge aus Abbildung 8 des Raft-Papers herbei, Schritt für Schritt, wenn
    der Zustand der Knoten so weit ist. Ein Leader, der einen Eintrag eines früheren Terms
    committet, weil eine Mehrheit ihn hat, verliert ihn (Leader Completeness); wer nur Einträge
    des eigenen Terms zählt, besteht. Geprüft wird wie in Stufe 3."""

    name = "raft-figur8"
    #: What the page says of the run's faults (``Vorgabe.beschreibung``): they are the director's.
    eigene_stoerungen = (
        "die Störungen aus Abbildung 8 des Raft-Papers, Schritt für Schritt herbeigeführt "
        "(drei Netzpartitionen, drei Abstürze, zwei Neustarts)"
    )

    def plane(self, zufall: random.Random, dauer: int, clients: int) -> list[Geplant]:
        return []  # the director writes; the clients read at the end

    def vorbereiten(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        super().vorbereiten(cluster, senden)
        self.regie = _Regie(cluster, senden)
        # registered last: it acts on what the checks of the same event have seen
        cluster.invariante("Regie: Abbildung 8", self.regie)


#: The challenge's workloads by name (beside ``pysim.cluster.lasten.LASTEN``).
HERAUSFORDERUNG_LASTEN: dict[str, type[Last]] = {
    RaftWahl.name: RaftWahl,
    RaftLog.name: RaftLog,
    RaftAbsturz.name: RaftAbsturz,
    RaftFigur8.name: RaftFigur8,
}
