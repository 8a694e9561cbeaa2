"""Die Suche nach einer Linearisierung, ohne Wissen über das Modell.

Das Verfahren von Wing & Gong mit Lowes Gedächtnis („just-in-time linearization“), wie es
Porcupine (github.com/anishathalye/porcupine, ``checker.go``, ``checkSingle``) umsetzt:

- Aufrufe und Antworten stehen in einer doppelt verketteten Liste, in der Reihenfolge des
  Verlaufs (ihrer Stellen darin, nicht ihrer Ticks: auch ein Tick hat eine Reihenfolge).
- Die Suche geht die Liste von vorn durch. Einen Aufruf versucht sie jetzt wirken zu lassen
  (das Modell sagt, ob das geht); gelingt es, nimmt sie ihn samt Antwort aus der Liste, merkt
  sich den Zustand davor auf einem Stapel und beginnt wieder vorn.
- Trifft sie auf eine Antwort, deren Aufruf noch nicht gewirkt hat, ist dieser Zweig tot: Die
  Operation hätte vor ihrer Antwort wirken müssen. Sie nimmt den letzten Schritt zurück.
- Das Gedächtnis: ein Paar (Menge der schon wirksamen Operationen als Bitmenge, Zustand), das
  schon einmal erreicht war, führt wieder zu denselben Zweigen und wird übersprungen.

Eine Handlung ohne Ende (``ende=None``) darf zu jeder Zeit nach ihrem Beginn wirken; ganz am
Ende zu wirken heißt für alle anderen: gar nicht. So behandelt die Suche unbestimmte
Operationen (``info``), ohne einen Sonderfall.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

#: (Zustand, Wirkung) -> (erlaubt?, neuer Zustand)
Schritt = Callable[[Hashable, Hashable], tuple[bool, Hashable]]


@dataclass(frozen=True)
class Handlung:
    """Eine Operation, wie die Suche sie sieht: ihr Zeitfenster und ihre Wirkung.

    ``beginn`` und ``ende`` sind Stellen im Verlauf (die Indizes von ``invoke`` und ``ok``),
    keine Ticks: Keine zwei Ereignisse teilen eine Stelle, und die Stelle ordnet auch, was im
    selben Tick geschah. ``ende=None``: ohne Bestätigung (wirkt irgendwann danach oder nie).
    ``rang`` ordnet Handlungen ohne Ende fest (der Index im Verlauf).
    """

    beginn: int
    ende: int | None
    rang: int
    wirkung: Hashable

    def aufruf_stelle(self) -> tuple[float, int, int]:
        """Wo der Aufruf in der Zeitordnung steht: seine Stelle im Verlauf."""
        return (self.beginn, 0, self.rang)

    def antwort_stelle(self) -> tuple[float, int, int]:
        return (math.inf if self.ende is None else self.ende, 1, self.rang)


class Budget:
    """Wie viele Schritte die Suchen noch machen dürfen (für alle Suchen eines Urteils)."""

    def __init__(self, schritte: int) -> None:
        self.rest = schritte
        self.verbraucht = 0


def suche(
    handlungen: Sequence[Handlung],
    schritt: Schritt,
    anfang: Hashable,
    budget: Budget,
    reihenfolge: list[int] | None = None,
) -> bool | None:
    """Lässt sich jede Handlung in ihrem Zeitfenster wirken lassen? ``None``: Budget aufgebraucht.

    ``reihenfolge``: bekommt bei ``True`` die ``rang`` der Handlungen in der gefundenen
    Reihenfolge (die, die nie wirken, fehlen)."""
    stellen = sorted(
        [(a.aufruf_stelle(), i, True) for i, a in enumerate(handlungen)]
        + [(a.antwort_stelle(), i, False) for i, a in enumerate(handlungen)]
    )
    # Entries 1..n in time order; 0 is the head, n + 1 the tail. Arrays instead of node objects:
    # lifting an operation out and back in ("dancing links") is four index writes.
    n = len(stellen)
    ende = n + 1
    nach = [*range(1, n + 2), ende]
    vor = [0, *range(0, n + 1)]
    handlung_von = [-1, *(i for _, i, _ in stellen), -1]
    ist_aufruf = [False, *(aufruf for _, _, aufruf in stellen), False]
    antwort_zu = [0] * (n + 2)
    aufruf_bei = {}
    for stelle, (_, i, aufruf) in enumerate(stellen, start=1):
        if aufruf:
            aufruf_bei[i] = stelle
        else:
            antwort_zu[aufruf_bei[i]] = stelle
    wirkungen = [a.wirkung for a in handlungen]
    bits = [1 << i for i in range(len(handlungen))]

    gesehen: set[tuple[int, Hashable]] = set()
    stapel: list[tuple[int, Hashable]] = []
    wirksam = 0
    zustand = anfang
    e = nach[0]
    schritte = 0
    ergebnis: bool | None = True
    while nach[0] != ende:
        schritte += 1
        if schritte > budget.rest:
            ergebnis = None
            break
        if ist_aufruf[e]:
            i = handlung_von[e]
            erlaubt, neu = schritt(zustand, wirkungen[i])
            if erlaubt:
                merk = (wirksam | bits[i], neu)
                if merk not in gesehen:
                    gesehen.add(merk)
                    stapel.append((e, zustand))
                    wirksam, zustand = merk
                    m = antwort_zu[e]
                    nach[vor[e]] = nach[e]
                    vor[nach[e]] = vor[e]
                    nach[vor[m]] = nach[m]
                    vor[nach[m]] = vor[m]
                    e = nach[0]
                    continue
            e = nach[e]
        else:
            if not stapel:
                ergebnis = False
                break
            e, zustand = stapel.pop()
            wirksam ^= bits[handlung_von[e]]
            m = antwort_zu[e]
            nach[vor[m]] = m
            vor[nach[m]] = m
            nach[vor[e]] = e
            vor[nach[e]] = e
            e = nach[e]
    if ergebnis and reihenfolge is not None:
        # The stack holds the calls that took effect, in the order they did.
        reihenfolge[:] = [handlungen[handlung_von[e]].rang for e, _ in stapel]
    verbraucht = min(schritte, budget.rest)
    budget.rest -= verbraucht
    budget.verbraucht += verbraucht
    return ergebnis
