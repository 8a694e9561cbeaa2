"""Eine Stimmregel auf die Probe stellen: ``pruefe_wahl`` lässt Raft mit ihr durch viele
erzeugte Störungspläne laufen und sucht nach der ersten Verletzung der Sicherheit.

Ein Störungsplan (``Plan``) ist eine Folge von Schritten (``Schritt``): eine Weile warten, dann
eine Störung oder eine Anfrage eines Clients (abstürzen, neu starten, den Leader oder einen Knoten
abtrennen, heilen, anhalten, schreiben, lesen). Aus jedem Seed entsteht ein Plan
(``erzeuge_plan``); derselbe Seed steuert auch die Simulation, also ist jeder Lauf wiederholbar.
Nach dem letzten Schritt heilt alles, jeder Knoten läuft wieder, und die Uhr läuft noch
``NACHLAUF`` Ticks.

Geprüft wird, was Raft verspricht (Abschnitt 5 und Abbildung 3 des Raft-Papers):

- höchstens ein Leader je Term („Zwei Leader in Term 4: n1 und n3.“);
- ein committeter Eintrag steht im Log jedes späteren Leaders („Der committete
  Eintrag 3 (Term 2, x = 5) fehlt im Log von n2, Leader in Term 5.“), und kein Knoten
  schreibt an einer Stelle etwas anderes fest;
- was die Clients sahen, ist linearisierbar (``pysim.pruefer.linearisierbar``).

Scheitert ein Plan, verkleinert ``pruefe_wahl`` ihn wie Hypothesis (``pysim.schrumpfen``): Es
lässt Schritte weg und verkürzt Wartezeiten, solange der Lauf noch scheitert, höchstens
``MAX_VERSUCHE`` Läufe lang. Das Ergebnis (``Wahlbefund``) nennt die
erste Verletzung mit ihrem Seed, den kleinsten Plan und zeigt mit ``bild()`` den Cluster im
Augenblick der Verletzung.

Beispiel::

    def regel(a):
        return a.meine_stimme in (None, a.kandidat)

    befund = pruefe_wahl(regel)
    befund.ok, befund.text
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ..fehler import UngueltigeEingabe, pruefe_ganzzahl
from ..pruefer import linearisierbar
from ..schrumpfen import Durchgang, bloecke_weglassen, einzeln_ersetzen, gleichwertig, schrumpfe
from ..svg import Bild
from .modell import RaftSim, Stimmregel, raft_stimmregel
from .regeln import ABGESTUERZT

__all__ = [
    "AKTIONEN",
    "NACHLAUF",
    "WARTEN",
    "Plan",
    "Schritt",
    "Wahlbefund",
    "alles_heilen",
    "erzeuge_plan",
    "fuehre_aus",
    "pruefe_wahl",
]

#: So viele Ticks läuft die Uhr nach dem letzten Schritt noch (alles geheilt).
NACHLAUF = 150

#: Ein Schritt, der nur wartet (entsteht beim Verkleinern aus einem, der nichts bewirkte).
WARTEN = "warte"

#: Was ein Schritt tun kann (``erzeuge_plan`` würfelt daraus).
AKTIONEN = (
    "absturz",
    "neustart",
    "trenne_leader",
    "trenne",
    "heile",
    "pausiere",
    "schreibe",
    "lies",
)


@dataclass(frozen=True)
class Schritt:
    """``warten`` Ticks warten, dann ``aktion`` mit dem Knoten Nummer ``knoten`` (0-basiert,
    modulo der Zahl der Knoten) und der Zahl ``zahl`` (Wert, Dauer, Größe der Gruppe)."""

    warten: int
    aktion: str
    knoten: int = 0
    zahl: int = 0

    def text(self, namen: list[str]) -> str:
        """Der Schritt in Worten, z. B. ``nach 12 Ticks: n2 stürzt ab``."""
        name = namen[self.knoten % len(namen)]
        mit = self.zahl % (len(namen) // 2)
        was = {
            WARTEN: "nichts",
            "absturz": f"{name} stürzt ab",
            "neustart": f"{name} startet neu",
            "trenne_leader": "eine Netzpartition schneidet den Leader"
            + ("" if not mit else " und einen Follower" if mit == 1 else f" und {mit} Follower")
            + " ab",
            "trenne": f"eine Netzpartition schneidet {name} ab",
            "heile": "die Netzpartition heilt",
            "pausiere": f"{name} hält {5 + 10 * (self.zahl % 5)} Ticks an",
            "schreibe": f"ein Client schreibt {self.zahl} über den Leader",
            "lies": "ein Client liest über den Leader",
        }[self.aktion]
        if self.aktion == WARTEN:
            return f"{self.warten} Ticks warten" if self.warten != 1 else "1 Tick warten"
        wann = (
            "sofort"
            if self.warten == 0
            else "nach 1 Tick"
            if self.warten == 1
            else f"nach {self.warten} Ticks"
        )
        return f"{wann}: {was}"


#: Ein Störungsplan: die Schritte nacheinander.
Plan = tuple[Schritt, ...]


def alles_heilen(sim: RaftSim) -> None:
    """Das Ende der Störungen: heilt das Netz und startet jeden abgestürzten Knoten neu."""
    sim.heile()
    for name, k in sim.knoten.items():
        if k.rolle == ABGESTUERZT:
            sim.neustart(name)


def erzeuge_plan(seed: int, knoten: int = 3, schritte: int = 30) -> Plan:
    """Der Störungsplan zum ``seed``: ``schritte`` zufällige Schritte (``random.Random(seed)``).

    Abtrennen des Leaders und Schreiben sind häufiger als der Rest: Sie bringen Logs
    auseinander, und daran scheitern falsche Stimmregeln."""
    zufall = random.Random(seed)
    gewichte = (2, 2, 3, 1, 2, 1, 4, 1)
    plan = []
    for wert in range(1, schritte + 1):
        aktion = zufall.choices(AKTIONEN, gewichte)[0]
        plan.append(Schritt(zufall.randint(1, 30), aktion, zufall.randrange(knoten), wert))
    return tuple(plan)


@dataclass(frozen=True)
class _Lauf:
    sim: RaftSim
    verletzung: str | None


def fuehre_aus(
    plan: Iterable[Schritt],
    *,
    seed: int = 0,
    knoten: int = 3,
    stimmregel: Stimmregel | None = None,
    anhalten: bool = True,
    beobachte: Callable[[RaftSim], None] | None = None,
) -> tuple[RaftSim, str | None]:
    """Führt den Plan aus; gibt die Simulation und die erste Verletzung (oder ``None``).

    Mit ``anhalten`` steht die Simulation im Augenblick der ersten Verletzung still (für das
    Bild); sonst läuft sie zu Ende. ``beobachte(sim)`` läuft nach jedem Tick."""
    lauf = _laufe(tuple(plan), seed, knoten, stimmregel, anhalten, beobachte)
    return lauf.sim, lauf.verletzung


def _laufe(
    plan: Plan,
    seed: int,
    knoten: int,
    regel: Stimmregel | None,
    anhalten: bool,
    beobachte: Callable[[RaftSim], None] | None = None,
) -> _Lauf:
    sim = RaftSim(knoten, seed=seed, stimmregel=regel)
    namen = sim.namen
    n = len(namen)
    clients = 0

    def ticke(t: int) -> bool:
        if beobachte is None and not sim.verletzungen:  # the loop below, without a call per tick
            if anhalten:
                return sim._tick_bis_verletzung(t)
            sim.tick(t)
            return False
        for _ in range(t):
            sim.tick(1)
            if beobachte is not None:
                beobachte(sim)
            if sim.verletzungen and anhalten:
                return True
        return False

    for s in plan:
        if ticke(s.warten):
            return _Lauf(sim, sim.verletzungen[0])
        name = namen[s.knoten % n]
        k = sim.knoten[name]
        leader = sim.leader()
        if s.aktion == "absturz" and k.rolle != ABGESTUERZT:
            sim.absturz(name)
        elif s.aktion == "neustart" and k.rolle == ABGESTUERZT:
            sim.neustart(name)
        elif s.aktion == "trenne_leader" and leader is not None:
            mit = [x for x in namen if x != leader][: s.zahl % (n // 2)]
            sim.trenne([leader, *mit])
        elif s.aktion == "trenne":
            sim.trenne([name])
        elif s.aktion == "heile":
            sim.heile()
        elif s.aktion == "pausiere" and k.rolle != ABGESTUERZT and k.pausiert_bis is None:
            sim.pausiere(name, 5 + 10 * (s.zahl % 5))
        elif s.aktion in ("schreibe", "lies"):
            clients += 1  # a new client for every request: none waits for another
            client = f"c{clients}"
            if s.aktion == "schreibe":
                sim.schreibe(client, s.zahl, an=leader)
            else:
                sim.lies(client, an=leader)
    alles_heilen(sim)
    if ticke(NACHLAUF) or sim.verletzungen:
        return _Lauf(sim, sim.verletzungen[0])
    urteil = linearisierbar(sim.verlauf)
    if urteil.entschieden and not urteil.ok:
        return _Lauf(sim, "Der Verlauf der Clients ist nicht linearisierbar: " + urteil.erklaerung)
    return _Lauf(sim, None)


def _als_warten(s: Schritt) -> list[Schritt]:
    """A step as a plain wait of the same length (one that had no effect keeps its timing so)."""
    return [] if s.aktion == WARTEN else [Schritt(s.warten, WARTEN)]


def _kuerzer(s: Schritt) -> list[Schritt]:
    """The same step after no wait, then after half the wait."""
    return [replace(s, warten=w) for w in (0, s.warten // 2) if w < s.warten]


def _einfachheit(plan: Plan) -> tuple[int, int, int]:
    """The order "simpler than": fewer steps, then fewer that do something, then less waiting."""
    return (len(plan), sum(s.aktion != WARTEN for s in plan), sum(s.warten for s in plan))


def _falte_warten(plan: Plan) -> Plan:
    """A wait followed by a step is the same as that step waiting longer (same run)."""
    neu: list[Schritt] = []
    vorher = 0
    for s in plan:
        if s.aktion == WARTEN:
            vorher += s.warten
            continue
        neu.append(replace(s, warten=s.warten + vorher))
        vorher = 0
    if vorher:
        neu.append(Schritt(vorher, WARTEN))
    return tuple(neu)


#: The shrinker's passes, in this order each round (``pysim.schrumpfen``).
_DURCHGAENGE: list[Durchgang[Plan]] = [
    bloecke_weglassen(name="Schritte weglassen"),
    einzeln_ersetzen(_als_warten, name="Schritt nur warten lassen"),
    gleichwertig(_falte_warten, name="Warten zusammenfassen"),
    einzeln_ersetzen(_kuerzer, name="kürzer warten"),
]
#: Runs the shrinker may spend on one plan (with 30 steps it needs well under 200).
MAX_VERSUCHE = 1_000


def _verkleinere(plan: Plan, scheitert: Callable[[Plan], bool]) -> Plan:
    """Like Hypothesis' shrinker (``pysim.schrumpfen``), while the run still fails: drop chunks
    and single steps; turn a step into a plain wait; fold waits into the next step; shorten
    waits; until a round changes nothing or ``MAX_VERSUCHE`` runs are spent."""
    return schrumpfe(plan, scheitert, _DURCHGAENGE, ordnung=_einfachheit, budget=MAX_VERSUCHE)


@dataclass(frozen=True)
class Wahlbefund:
    """Das Ergebnis von ``pruefe_wahl``.

    ``ok``: kein Plan verletzte die Sicherheit. ``text``: deutsch; nennt die erste Verletzung
    mit ihrem Seed. ``seed``, ``plan``: der scheiternde Seed und der kleinste Plan, der mit ihm
    noch scheitert (sonst ``None`` und leer). ``geprueft``: so viele Seeds liefen."""

    ok: bool
    text: str
    knoten: int
    geprueft: int
    seed: int | None = None
    plan: Plan = ()
    stimmregel: Stimmregel | None = None

    def schritte(self) -> list[str]:
        """Der kleinste scheiternde Plan in Worten, ein Schritt je Zeile."""
        namen = [f"n{i}" for i in range(1, self.knoten + 1)]
        return [s.text(namen) for s in self.plan]

    def simulation(self) -> RaftSim:
        """Die Simulation des kleinsten scheiternden Plans, angehalten bei der Verletzung."""
        if self.seed is None:
            raise UngueltigeEingabe("Kein Plan ist gescheitert; es gibt keinen Lauf zu zeigen.")
        sim, _ = fuehre_aus(
            self.plan, seed=self.seed, knoten=self.knoten, stimmregel=self.stimmregel
        )
        return sim

    def bild(self) -> Bild:
        """Das Bild des Clusters im Augenblick der Verletzung (``RaftSim.bild``)."""
        return self.simulation().bild()

    def __str__(self) -> str:
        if self.ok:
            return self.text
        if not self.plan:
            return (
                f"{self.text}\nKleinster Plan: keine Störung; es genügt, die Uhr laufen zu lassen."
            )
        return "\n".join([self.text, "Kleinster Plan:", *("  " + z for z in self.schritte())])

    def __repr__(self) -> str:
        return f"Wahlbefund(ok={self.ok}, text={self.text!r})"


def pruefe_wahl(
    stimmregel: Stimmregel | None = None,
    *,
    seeds: Iterable[int] = range(40),
    knoten: int = 3,
    schritte: int = 30,
) -> Wahlbefund:
    """Lässt Raft mit der ``stimmregel`` (ohne: ``raft_stimmregel``) durch den Störungsplan
    jedes Seeds in ``seeds`` laufen; bei der ersten Verletzung verkleinert es den Plan.

    ``knoten``: 3 oder 5; ``schritte``: so viele Schritte hat jeder Plan."""
    regel = stimmregel if stimmregel is not None else raft_stimmregel
    pruefe_ganzzahl(schritte, "Die Zahl der Schritte", 1)
    geprueft = 0
    for seed in seeds:
        pruefe_ganzzahl(seed, "Der Seed")
        geprueft += 1
        plan = erzeuge_plan(seed, knoten, schritte)
        lauf = _laufe(plan, seed, knoten, regel, True)
        if lauf.verletzung is None:
            continue

        def scheitert(p: Plan, seed: int = seed) -> bool:
            return _laufe(p, seed, knoten, regel, True).verletzung is not None

        klein = _verkleinere(plan, scheitert)
        verletzung = _laufe(klein, seed, knoten, regel, True).verletzung
        return Wahlbefund(
            False,
            f"Seed {seed}: {verletzung}",
            knoten,
            geprueft,
            seed,
            klein,
            regel,
        )
    if not geprueft:
        raise UngueltigeEingabe("Gib mindestens einen Seed an, z. B. seeds=range(20).")
    return Wahlbefund(
        True,
        f"Keine Verletzung in {geprueft} Störungsplänen mit je {schritte} Schritten "
        f"({knoten} Knoten).",
        knoten,
        geprueft,
        stimmregel=regel,
    )
