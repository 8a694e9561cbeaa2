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
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import pruefer
from ..cluster.lasten import Geplant, Last
from .regeln import LEADER

if TYPE_CHECKING:
    from ..cluster.cluster import Cluster, Zustaende
    from ..cluster.lauf import Lauf

__all__ = ["HERAUSFORDERUNG_LASTEN", "INVARIANTEN", "RaftWahl"]

#: The invariants' names, as the verdict says them.
EIN_LEADER = "Ein Leader je Term"
EINE_STIMME = "Eine Stimme je Term"
TERM_WAECHST = "Der Term wächst"
INVARIANTEN = (EIN_LEADER, EINE_STIMME, TERM_WAECHST)


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
                return (
                    f"{name} gab in Term {term} zwei Stimmen: erst {alt_stimme}, dann "
                    f"{stimme if stimme is not None else 'keine mehr'}."
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


#: The challenge's workloads by name (beside ``pysim.cluster.lasten.LASTEN``).
HERAUSFORDERUNG_LASTEN: dict[str, type[Last]] = {RaftWahl.name: RaftWahl}
