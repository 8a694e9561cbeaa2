"""Der kleinste wahre Grund, warum ein Schlüssel nicht linearisierbar ist.

1. Die häufigsten Fälle zuerst, direkt aus der Reihenfolge des Verlaufs, ohne Suche: das erste bestätigte Lesen
   (oder cas), dessen Wert niemand geschrieben haben kann, oder das veraltet ist: Jede
   Operation, die den Wert schreiben konnte, war bestätigt, bevor eine andere Operation
   begann, nach der ein anderer Wert im Register stand (ein Schreiben, oder ein Lesen, das ihn
   sah), und diese war bestätigt, bevor das Lesen begann.
2. Sonst die Operation, die sich nicht einordnen lässt: Der kürzeste Anfang des Verlaufs, der
   schon nicht linearisierbar ist, endet mit ihrer Bestätigung (binäre Suche; ein Anfang, der
   nicht geht, geht auch verlängert nicht).
3. Dazu ``pysim.schrumpfen``: Die übrigen Operationen werden blockweise gelockert (als hätten
   sie irgendwann nach ihrem Beginn oder gar nicht gewirkt), solange der Fehler bleibt; erst
   Lesende (sie fallen weg, das ist billig), dann Schreibende, bis sich nichts mehr ändert. Lockern erlaubt nur mehr Reihenfolgen: Was
   danach noch scheitert, ist ein wahrer Grund. Was bleibt, ist nötig: Jede einzelne weitere
   Lockerung machte den Rest linearisierbar.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from ..schrumpfen import Durchgang, Linse, bloecke_weglassen, schrumpfe
from .modell import Modell
from .suche import Budget, Handlung
from .verlauf import Operation


@dataclass(frozen=True)
class Grund:
    """``schuldig`` lässt sich nicht einordnen.

    Veraltet: Nach ``ueberschreibend`` stand ein anderer Wert im Register; sie wirkte nach
    jeder der ``quellen`` (allen, die den Wert schreiben konnten) und vor ``schuldig``. Sonst: ``andere`` erzwingen es.
    ``vollstaendig`` ist ``False``, wenn das Budget nicht reichte, die Zeugen zu verringern.
    """

    schuldig: Operation
    andere: list[Operation] = field(default_factory=list)
    ueberschreibend: Operation | None = None
    quellen: list[Operation] = field(default_factory=list)
    vollstaendig: bool = True


def finde(
    modell: Modell, ops: Sequence[Operation], handlungen: Sequence[Handlung], budget: Budget
) -> Grund:
    """Der Grund für einen Schlüssel mit den Operationen ``ops``, dessen Handlungen scheitern."""

    def scheitert(auswahl: Sequence[Handlung]) -> bool:
        # Only a definite "no" counts: an exhausted budget must never shrink the reason.
        return modell.pruefe(auswahl, budget) is False

    einfach = _einfacher_grund(modell, ops)
    if einfach is not None:
        return einfach
    nach_index = {op.index: op for op in ops}
    kandidaten = sorted((a for a in handlungen if a.ende is not None), key=Handlung.antwort_stelle)
    unten, oben = 0, len(kandidaten) - 1  # the whole history fails: so does its last prefix
    while unten < oben:
        mitte = (unten + oben) // 2
        if scheitert(anfang(modell, handlungen, kandidaten[mitte])):
            oben = mitte
        else:
            unten = mitte + 1
    schuldig = kandidaten[oben]
    c = nach_index[schuldig.rang]
    praefix = anfang(modell, handlungen, schuldig)
    fest = [a for a in praefix if a.ende is not None and a.rang != schuldig.rang]
    locker = [a for a in praefix if a.ende is None]

    def ohne(behalten: Sequence[Handlung]) -> list[Handlung]:
        bleibt = {a.rang for a in behalten}
        gelockert = [modell.gelockert(a) for a in fest if a.rang not in bleibt]
        return [schuldig, *behalten, *locker, *(a for a in gelockert if a is not None)]

    fallen = tuple(a for a in fest if modell.gelockert(a) is None)
    wirken = tuple(a for a in fest if modell.gelockert(a) is not None)
    # Readers first (they drop out: cheap), then writers; the shrinker repeats both passes
    # until neither changes anything (loosening only allows more orders, so a second round
    # finds nothing new and only proves it).
    fallen, wirken = schrumpfe(
        (fallen, wirken),
        lambda paar: scheitert(ohne([*paar[0], *paar[1]])),
        _DURCHGAENGE,
        ordnung=lambda paar: len(paar[0]) + len(paar[1]),
        form=lambda paar: (tuple(a.rang for a in paar[0]), tuple(a.rang for a in paar[1])),
        budget=MAX_VERSUCHE,
    )
    andere = sorted((nach_index[a.rang] for a in [*fallen, *wirken]), key=lambda op: op.index)
    return Grund(c, andere=andere, vollstaendig=budget.rest > 0)


_Paar = tuple[tuple[Handlung, ...], tuple[Handlung, ...]]

#: The shrinker's passes: blocks of readers (they drop out), then of writers (loosened).
_DURCHGAENGE: list[Durchgang[_Paar]] = [
    bloecke_weglassen(Linse(lambda p: p[0], lambda p, neu: (neu, p[1])), "Lesende weglassen"),
    bloecke_weglassen(Linse(lambda p: p[1], lambda p, neu: (p[0], neu)), "Schreibende lockern"),
]
#: Tries of the shrinker (each a search within the shared step budget).
MAX_VERSUCHE = 1_000


def anfang(modell: Modell, handlungen: Sequence[Handlung], letzte: Handlung) -> list[Handlung]:
    """Der Verlauf bis zur Antwort von ``letzte``: später Beantwortetes wird gelockert,
    später Begonnenes fällt weg."""
    schnitt = letzte.antwort_stelle()
    ergebnis = []
    for a in handlungen:
        if a.aufruf_stelle() >= schnitt:
            continue
        b = a if a.antwort_stelle() <= schnitt else modell.gelockert(a)
        if b is not None:
            ergebnis.append(b)
    return ergebnis


def _einfacher_grund(modell: Modell, ops: Sequence[Operation]) -> Grund | None:
    """Das erste bestätigte Lesen (oder cas), das einen nie oder nur früher geschriebenen
    Wert vorfindet; ``None``, wenn es keins gibt.

    Wahr, weil: Ein Wert, den bis zum Ende des Lesens niemand zu schreiben begann (außer dem
    Anfangszustand), kann nicht im Register stehen. „Bis“, „bevor“ und „nach“ meinen hier die
    Stellen im Verlauf, nicht die Ticks. Und veraltet: Jede Quelle war bestätigt,
    bevor die Überschreibende begann, die war bestätigt, bevor das Lesen begann; in jeder
    passenden Reihenfolge wirkt sie nach allen Quellen und vor dem Lesen. Gleich nach ihr
    stand ein anderer Wert im Register, und danach schreibt niemand mehr den gelesenen. Der
    Anfangszustand liegt vor jeder Operation.
    """
    schreiber: dict[Hashable, list[Operation]] = {}
    for w in ops:
        schreibt, v = modell.schreibt(w)
        if schreibt and w.typ != "fail":
            schreiber.setdefault(v, []).append(w)
    # Confirmed operations after which the register's value is known; latest end first.
    sicher = sorted(
        (o for o in ops if o.typ == "ok" and o.index_ende is not None and modell.nachher(o)[0]),
        key=lambda o: o.index_ende or 0,
        reverse=True,
    )
    lesende = [c for c in ops if c.typ == "ok" and c.index_ende is not None and modell.liest(c)[0]]
    for c in sorted(lesende, key=lambda c: c.index_ende or 0):
        _, v = modell.liest(c)
        quellen = [w for w in schreiber.get(v, []) if w is not c and w.begann_vor_ende(c)]
        if not quellen and v != modell.anfang:
            return Grund(c)
        if any(q.typ != "ok" for q in quellen):
            continue  # an indeterminate writer may have acted at any later time
        zuletzt = max((q.index_ende or 0 for q in quellen), default=-1)
        ueber = next(
            (o for o in sicher if o.vor(c) and o.index > zuletzt and modell.nachher(o)[1] != v),
            None,
        )
        if ueber is not None:
            return Grund(c, ueberschreibend=ueber, quellen=quellen)
    return None
