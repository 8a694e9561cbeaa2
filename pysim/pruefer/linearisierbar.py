"""``linearisierbar``: Lässt sich jede Operation in einem Augenblick zwischen Beginn und
Bestätigung wirken lassen, so dass das Modell jede Antwort erklärt?

Schlüssel sind unabhängig und werden getrennt geprüft (wie Porcupines ``Partition``); die
Suche steht in ``pysim.pruefer.suche``, der kleinste Grund eines Fehlers in
``pysim.pruefer.grund``, sein Text in ``pysim.pruefer.erklaerung``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from ..fehler import UngueltigeEingabe, nachschlagen, pruefe_ganzzahl
from . import register
from .erklaerung import erklaere
from .grund import anfang, finde
from .modell import Modell
from .suche import Budget, Handlung
from .urteil import Urteil, name, und, zahl
from .verlauf import Operation, operationen

#: Schritte, nach denen eine Prüfung abbricht (und ebenso viele für ihre Erklärung): 0,3 bis 1 s
#: in CPython auf dem geteilten Entwicklungsrechner, in Pyodide bis zu viermal so lang
#: (benchmarks/README.md, „pysim.pruefer“).
MAX_SCHRITTE = 500_000

MODELLE = {register.NAME: register.REGISTER}


def linearisierbar(
    history: Sequence[Mapping[str, object]],
    model: str = "register",
    *,
    max_schritte: int = MAX_SCHRITTE,
) -> Urteil:
    """Prüft ``history`` auf Linearisierbarkeit im Modell ``model`` (nur ``"register"``).

    Nach ``max_schritte`` Schritten der Suche bricht die Prüfung ab; das Urteil ist dann
    ``entschieden=False`` (und ``ok=False``), es sei denn, ein Fehler war schon gefunden.
    """
    modell, ops, teile = _teile(history, model, max_schritte)
    handlungen = {k: _handlungen(modell, teil) for k, teil in teile.items()}

    budget = Budget(max_schritte)
    falsch: list[Hashable] = []
    offen: Hashable | None = None
    abgebrochen = False
    for k, teil in handlungen.items():
        ergebnis = modell.pruefe(teil, budget)
        if ergebnis is None:
            offen, abgebrochen = k, True
            break
        if not ergebnis:
            falsch.append(k)
    angaben = {"schritte": budget.verbraucht, "schluessel": len(teile)}
    if falsch:
        return _nicht_linearisierbar(modell, falsch, teile, handlungen, max_schritte, angaben)
    if abgebrochen:
        return _abgebrochen(offen, handlungen, max_schritte, angaben)
    return Urteil(True, _gut(ops, len(teile)), angaben=angaben)


def linearisierungspunkte(
    history: Sequence[Mapping[str, object]],
    model: str = "register",
    *,
    max_schritte: int = MAX_SCHRITTE,
) -> dict[int, int]:
    """Wann jede Operation wirkte: Index ihres ``invoke`` im Verlauf -> Tick (ihr
    Linearisierungspunkt, wie Porcupines Visualisierung ihn zeigt).

    Die Reihenfolge ist die, die die Suche für jeden Schlüssel findet; jeder Punkt liegt im
    Zeitfenster seiner Operation und keiner vor dem seiner Vorgänger. Ist ein Schlüssel nicht
    linearisierbar, gelten die Punkte des längsten Anfangs seines Verlaufs, der es ist. Eine
    Operation ohne Punkt (fehlgeschlagen, nie gewirkt, nach jenem Anfang, oder wenn das
    Budget nicht reichte) fehlt."""
    modell, ops, teile = _teile(history, model, max_schritte)
    nach_index = {op.index: op for op in ops}
    budget = Budget(max_schritte)
    punkte: dict[int, int] = {}
    for teil in teile.values():
        handlungen = _handlungen(modell, teil)
        reihenfolge: list[int] = []
        ergebnis = modell.pruefe(handlungen, budget, reihenfolge)
        if ergebnis is False:
            reihenfolge = _laengster_anfang(modell, handlungen, budget)
        punkt = 0
        for rang in reihenfolge:
            punkt = max(punkt, nach_index[rang].beginn)
            punkte[rang] = punkt
    return punkte


def _teile(
    history: Sequence[Mapping[str, object]], model: str, max_schritte: int
) -> tuple[Modell, list[Operation], dict[Hashable, list[Operation]]]:
    """The model, the operations and the operations of each key (checked separately)."""
    pruefe_ganzzahl(max_schritte, "max_schritte", 1)
    modell = nachschlagen(MODELLE, model, UngueltigeEingabe, "Das Modell", "Modelle")
    ops = operationen(history)
    teile: dict[Hashable, list[Operation]] = {}
    for op in ops:
        teile.setdefault(op.schluessel, []).append(op)
    return modell, ops, teile


def _laengster_anfang(modell: Modell, handlungen: Sequence[Handlung], budget: Budget) -> list[int]:
    """The order of the longest prefix (up to a response) that is linearizable: a binary
    search, as ``grund`` finds the shortest that is not."""
    kandidaten = sorted((a for a in handlungen if a.ende is not None), key=Handlung.antwort_stelle)
    unten, oben = -1, len(kandidaten) - 1  # the last prefix is the whole, which fails
    beste: list[int] = []
    while unten < oben - 1:
        mitte = (unten + oben) // 2
        reihenfolge: list[int] = []
        if modell.pruefe(anfang(modell, handlungen, kandidaten[mitte]), budget, reihenfolge):
            unten, beste = mitte, reihenfolge
        else:
            oben = mitte
    return beste


def _handlungen(modell: Modell, teil: Sequence[Operation]) -> list[Handlung]:
    return [a for op in teil if (a := modell.handlung(op)) is not None]


def _gut(ops: Sequence[Operation], schluessel: int) -> str:
    anzahl = {typ: sum(op.typ == typ for op in ops) for typ in ("info", "fail")}
    davon = [
        f"{anzahl['info']} unbestimmt" if anzahl["info"] else "",
        f"{anzahl['fail']} fehlgeschlagen" if anzahl["fail"] else "",
    ]
    klammer = f" (davon {und([d for d in davon if d])})" if any(davon) else ""
    auf = f" auf {schluessel} Schlüsseln" if schluessel > 1 else ""
    if len(ops) == 1:
        return (
            f"Linearisierbar: Die eine Operation{klammer} wirkt in einem Augenblick zwischen "
            "ihrem Beginn und ihrer Bestätigung."
        )
    return (
        f"Linearisierbar: {len(ops)} Operationen{auf}{klammer} lassen sich so ordnen, dass "
        "jede in einem Augenblick zwischen ihrem Beginn und ihrer Bestätigung wirkt."
    )


def _abgebrochen(
    k: Hashable,
    handlungen: Mapping[Hashable, Sequence[Handlung]],
    max_schritte: int,
    angaben: Mapping[str, object],
) -> Urteil:
    schluessel = list(handlungen)
    geprueft = schluessel[: schluessel.index(k)]
    danach = len(schluessel) - len(geprueft) - 1
    offen = _name(k) + (f" und {danach} weitere Schlüssel" if danach else "")
    bis_dahin = (
        f"In {und([_name(g, 'dat') for g in geprueft])} fand sie keinen Fehler; {offen} "
        f"{'bleiben' if danach else 'bleibt'} offen."
        if geprueft
        else "Bis dahin fand sie keinen Fehler; das Urteil bleibt offen."
    )
    text = (
        f"Die Prüfung brach nach {zahl(max_schritte)} Schritten ab: {_gross(_name(k))} hat bis zu "
        f"{_gleichzeitig(handlungen[k])} gleichzeitige Operationen, und die Zahl der möglichen "
        f"Reihenfolgen wächst mit ihnen exponentiell. {bis_dahin} Ein kürzerer Verlauf oder "
        "ein größeres max_schritte entscheidet es."
    )
    return Urteil(False, text, entschieden=False, angaben=angaben)


def _gleichzeitig(teil: Sequence[Handlung]) -> int:
    """Die größte Zahl von Operationen, die zugleich offen sind (ohne Ende: bis zuletzt)."""
    stellen = sorted(
        [(a.aufruf_stelle(), 1) for a in teil] + [(a.antwort_stelle(), -1) for a in teil]
    )
    offen = hoechstens = 0
    for _, d in stellen:
        offen += d
        hoechstens = max(hoechstens, offen)
    return hoechstens


def _name(k: Hashable, fall: str = "nom") -> str:
    """``Schlüssel x``; ohne Schlüssel ``das Register`` (``fall="dat"``: ``dem Register``)."""
    if k is not None:
        return f"Schlüssel {name(k)}"
    return "dem Register" if fall == "dat" else "das Register"


def _gross(text: str) -> str:
    return text[:1].upper() + text[1:]


def _nicht_linearisierbar(
    modell: Modell,
    falsch: Sequence[Hashable],
    teile: Mapping[Hashable, Sequence[Operation]],
    handlungen: Mapping[Hashable, Sequence[Handlung]],
    max_schritte: int,
    angaben: Mapping[str, object],
) -> Urteil:
    k = falsch[0]
    budget = Budget(max_schritte)
    grund = finde(modell, teile[k], handlungen[k], budget)
    saetze, zeugen = erklaere(modell, grund, teile[k], max_schritte)
    kopf = "Nicht linearisierbar." if k is None else f"Nicht linearisierbar: {_name(k)}."
    if len(falsch) > 1:
        weitere = [_name(w) for w in falsch[1:]]
        ist = "ist" if len(weitere) == 1 else "sind"
        saetze.append(f"Auch {und(weitere)} {ist} nicht linearisierbar.")
    text = " ".join([kopf, *saetze])
    mehr = {"fehler_in": list(falsch), "schritte_erklaerung": budget.verbraucht}
    return Urteil(False, text, zeugen, angaben={**angaben, **mehr})
