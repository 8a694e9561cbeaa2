"""Heiße Schlüssel: eine schiefe Last und die Wartezeit, die sie auf einem Knoten macht.

``anfragen(schluessel, anzahl, promi=…, anteil=…)`` erzeugt eine Folge von Anfragen: jede trifft
einen zufälligen Schlüssel, ein Anteil davon aber immer denselben (den Promi, etwa das Konto mit
Millionen Followern). ``belaste(verteilung, folge, je_tick, kapazitaet)`` schickt die Anfragen der
Reihe nach, ``je_tick`` in jedem Tick, an den Besitzer ihres Schlüssels; jeder Knoten erledigt
``kapazitaet`` Anfragen je Tick, der Rest wartet in seiner Schlange. Das Ergebnis nennt je Knoten,
wie viele Anfragen er bekam, wie lange sie im Mittel und höchstens warteten, und wie lang seine
Schlange wurde. Die Summe der Kapazitäten reicht; trotzdem staut sich alles auf dem einen Knoten,
dem der Promi gehört. Mehr Knoten helfen dagegen nicht, nur ein anderer Schlüssel:
``salze("promi", 10)`` verteilt ihn auf zehn (``promi#0`` … ``promi#9``), wie es DynamoDB für
heiße Partitionsschlüssel rät (Write Sharding), und wer liest, muss alle zehn fragen.

Vereinfacht: eine Anfrage kostet immer gleich viel, Ticks statt Millisekunden, kein Netz.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from ..fehler import UngueltigeEingabe
from .verteilung import Verteilung

__all__ = ["Belastung", "KnotenLast", "anfragen", "belaste", "salze"]

#: At most so many requests in one run (a console command stays fast in Pyodide).
MAX_ANFRAGEN = 20_000


def salze(schluessel: str, teile: int) -> list[str]:
    """Ein heißer Schlüssel, auf ``teile`` Schlüssel verteilt: ``promi#0`` … ``promi#9``."""
    if not 1 <= teile <= 100:
        raise UngueltigeEingabe(f"Einen Schlüssel in 1 bis 100 Teile salzen, nicht {teile}.")
    return [f"{schluessel}#{i}" for i in range(teile)]


def anfragen(
    schluessel: Sequence[str],
    anzahl: int,
    *,
    promi: str | Sequence[str] | None = None,
    anteil: float = 0.0,
    seed: int = 0,
) -> list[str]:
    """``anzahl`` Anfragen: jede an einen zufälligen der ``schluessel``, ein ``anteil`` (0 bis 1)
    aber an ``promi`` (ein Schlüssel, oder mehrere gesalzene: dann reihum)."""
    if not schluessel:
        raise UngueltigeEingabe("Ohne Schlüssel gibt es keine Anfragen.")
    if not 0 <= anzahl <= MAX_ANFRAGEN:
        raise UngueltigeEingabe(f"0 bis {MAX_ANFRAGEN} Anfragen, nicht {anzahl}.")
    if not 0.0 <= anteil <= 1.0:
        raise UngueltigeEingabe(f"Der Anteil des Promis liegt zwischen 0 und 1, nicht {anteil}.")
    heiss = [promi] if isinstance(promi, str) else list(promi or [])
    if anteil and not heiss:
        raise UngueltigeEingabe("Ein Anteil für den Promi braucht einen Promi-Schlüssel.")
    zufall = random.Random(seed)
    folge: list[str] = []
    for _ in range(anzahl):
        if heiss and zufall.random() < anteil:
            folge.append(heiss[len(folge) % len(heiss)])
        else:
            folge.append(schluessel[zufall.randrange(len(schluessel))])
    return folge


def ticks(n: int) -> str:
    """``1 Tick``, ``5 Ticks``."""
    return f"{n} Tick" if n == 1 else f"{n} Ticks"


def _komma(x: float) -> str:
    """``4.8`` → ``4,8`` (German decimal comma)."""
    return f"{x:.1f}".replace(".", ",")


@dataclass(frozen=True)
class KnotenLast:
    """Was ein Knoten in einem Lauf von ``belaste`` bekam und wie lange es wartete."""

    knoten: str
    anfragen: int
    mittel: float
    hoechstens: int
    schlange: int


@dataclass(frozen=True)
class Belastung:
    """Das Ergebnis von ``belaste``: je Knoten eine ``KnotenLast``, dazu die Ticks des Laufs."""

    knoten: tuple[KnotenLast, ...]
    ticks: int
    kapazitaet: int
    #: The ticks in which requests arrived (the run goes on until every queue is empty).
    ankunft: int = 0

    @property
    def schafft(self) -> int:
        """So viele Anfragen schafft ein Knoten, solange Anfragen ankommen."""
        return self.kapazitaet * self.ankunft

    def heissester(self) -> KnotenLast:
        """Der Knoten mit der längsten Wartezeit (bei Gleichstand der erste)."""
        return max(self.knoten, key=lambda k: k.hoechstens)

    def __str__(self) -> str:
        zeilen = [
            f"{k.knoten}: {k.anfragen} Anfragen, Wartezeit im Mittel {_komma(k.mittel)}, "
            f"höchstens {ticks(k.hoechstens)}, "
            f"Schlange bis {k.schlange}"
            for k in self.knoten
        ]
        return "\n".join(zeilen)


def belaste(
    verteilung: Verteilung, folge: Sequence[str], je_tick: int, kapazitaet: int
) -> Belastung:
    """Schickt ``folge`` mit ``je_tick`` Anfragen je Tick an die Besitzer; jeder Knoten erledigt
    ``kapazitaet`` je Tick in der Reihenfolge der Ankunft. Wartezeit: Ticks von der Ankunft bis
    zum Tick, in dem die Anfrage erledigt wird (0: im selben Tick). Schlange: so viele Anfragen
    warteten am Ende eines Ticks höchstens auf den nächsten."""
    if je_tick < 1 or kapazitaet < 1:
        raise UngueltigeEingabe("Anfragen je Tick und Kapazität sind mindestens 1.")
    schlangen: dict[str, deque[int]] = {k: deque() for k in verteilung.knoten}
    zahl = dict.fromkeys(verteilung.knoten, 0)
    summe = dict.fromkeys(verteilung.knoten, 0)
    hoechst = dict.fromkeys(verteilung.knoten, 0)
    laengste = dict.fromkeys(verteilung.knoten, 0)
    besitzer = {s: verteilung.besitzer(s) for s in set(folge)}
    tick, i = 0, 0
    while i < len(folge) or any(schlangen.values()):
        for s in folge[i : i + je_tick]:
            k = besitzer[s]
            schlangen[k].append(tick)
            zahl[k] += 1
        i += je_tick
        for k, schlange in schlangen.items():
            for _ in range(min(kapazitaet, len(schlange))):
                warte = tick - schlange.popleft()
                summe[k] += warte
                hoechst[k] = max(hoechst[k], warte)
            # what is left after this tick's work waits for the next
            laengste[k] = max(laengste[k], len(schlange))
        tick += 1
    return Belastung(
        tuple(
            KnotenLast(k, zahl[k], summe[k] / zahl[k] if zahl[k] else 0.0, hoechst[k], laengste[k])
            for k in verteilung.knoten
        ),
        tick,
        kapazitaet,
        -(-len(folge) // je_tick),
    )
