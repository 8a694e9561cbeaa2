"""``linearisierbar``: Lässt sich jede Operation in einem Augenblick zwischen Beginn und
Bestätigung wirken lassen, so dass das Modell jede Antwort erklärt?

Schlüssel sind unabhängig und werden getrennt geprüft (wie Porcupines ``Partition``). Ist ein
Schlüssel nicht linearisierbar, sucht die Erklärung den kleinsten Grund:

1. den kürzesten Anfang des Verlaufs, der schon nicht linearisierbar ist (binäre Suche; ein
   Anfang, der nicht geht, geht auch verlängert nicht). Die Operation, deren Bestätigung ihn
   beendet, lässt sich nicht einordnen.
2. die wenigsten Operationen, die das erzwingen: Die übrigen werden gelockert (als hätten sie
   irgendwann nach ihrem Beginn oder gar nicht gewirkt), solange der Fehler bleibt
   (Delta Debugging). Lockern erlaubt nur mehr Reihenfolgen; was danach noch scheitert, ist
   ein wahrer Grund, kein Zufall der Auswahl.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from ..fehler import UngueltigeEingabe, nachschlagen, pruefe_ganzzahl
from . import register
from .suche import Aufgabe, Budget, Schritt, suche
from .urteil import Urteil, eindeutig, und, wer, wert, zahl, zeiten
from .verlauf import Operation, operationen

#: Schritte, nach denen eine Prüfung abbricht (und ebenso viele für ihre Erklärung). Etwa
#: eine Sekunde in CPython auf dem Entwicklungsrechner (benchmarks/bench_pruefer.py).
MAX_SCHRITTE = 1_000_000

#: So viele Zeugen nennt eine Erklärung beim Namen; alle stehen in ``zeugen``.
GENANNT = 8


@dataclass(frozen=True)
class Modell:
    """Was die Suche und die Erklärung über ein Modell wissen müssen."""

    anfang: Hashable
    schritt: Schritt
    aufgabe: Callable[[Operation], Aufgabe | None]
    gelockert: Callable[[Aufgabe], Aufgabe | None]
    liest: Callable[[Operation], tuple[bool, Hashable]]
    schreibt: Callable[[Operation], tuple[bool, Hashable]]
    beschreibe: Callable[[Operation], str]


MODELLE = {
    register.NAME: Modell(
        register.ANFANG,
        register.schritt,
        register.aufgabe,
        register.gelockert,
        register.liest,
        register.schreibt,
        register.beschreibe,
    )
}


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
    pruefe_ganzzahl(max_schritte, "max_schritte", 1)
    modell = nachschlagen(MODELLE, model, UngueltigeEingabe, "Das Modell", "Modelle")
    ops = operationen(history)
    teile: dict[Hashable, list[Operation]] = {}
    for op in ops:
        teile.setdefault(op.schluessel, []).append(op)
    aufgaben = {k: _aufgaben(modell, teil) for k, teil in teile.items()}

    budget = Budget(max_schritte)
    falsch: list[Hashable] = []
    offen: Hashable | None = None
    abgebrochen = False
    for k, teil in aufgaben.items():
        ergebnis = suche(teil, modell.schritt, modell.anfang, budget)
        if ergebnis is None:
            offen, abgebrochen = k, True
            break
        if not ergebnis:
            falsch.append(k)
    angaben = {"schritte": budget.verbraucht, "schluessel": len(teile)}
    if falsch:
        return _nicht_linearisierbar(modell, falsch, teile, aufgaben, max_schritte, angaben)
    if abgebrochen:
        return _abgebrochen(offen, aufgaben, max_schritte, angaben)
    return Urteil(True, _gut(ops, len(teile)), angaben=angaben)


def _aufgaben(modell: Modell, teil: Sequence[Operation]) -> list[Aufgabe]:
    return [a for op in teil if (a := modell.aufgabe(op)) is not None]


def _gut(ops: Sequence[Operation], schluessel: int) -> str:
    anzahl = {typ: sum(op.typ == typ for op in ops) for typ in ("info", "fail")}
    davon = [
        f"{anzahl['info']} unbestimmt" if anzahl["info"] else "",
        f"{anzahl['fail']} fehlgeschlagen" if anzahl["fail"] else "",
    ]
    klammer = f" (davon {und([d for d in davon if d])})" if any(davon) else ""
    auf = f" auf {schluessel} Schlüsseln" if schluessel > 1 else ""
    return (
        f"Linearisierbar: {len(ops)} Operationen{auf}{klammer} lassen sich so ordnen, dass "
        "jede in einem Augenblick zwischen ihrem Beginn und ihrer Bestätigung wirkt."
    )


def _abgebrochen(
    k: Hashable,
    aufgaben: Mapping[Hashable, Sequence[Aufgabe]],
    max_schritte: int,
    angaben: Mapping[str, object],
) -> Urteil:
    geprueft = list(aufgaben)[: list(aufgaben).index(k)]
    bis_dahin = (
        f"In {und([_name(g, 'dat') for g in geprueft])} fand sie keinen Fehler; {_name(k)} und was "
        "danach kommt bleibt offen."
        if geprueft
        else "Bis dahin fand sie keinen Fehler; das Urteil bleibt offen."
    )
    text = (
        f"Die Prüfung brach nach {zahl(max_schritte)} Schritten ab: {_gross(_name(k))} hat bis zu "
        f"{_gleichzeitig(aufgaben[k])} gleichzeitige Operationen, und die Zahl der möglichen "
        f"Reihenfolgen wächst mit ihnen exponentiell. {bis_dahin} Ein kürzerer Verlauf oder "
        "ein größeres max_schritte entscheidet es."
    )
    return Urteil(False, text, entschieden=False, angaben=angaben)


def _gleichzeitig(teil: Sequence[Aufgabe]) -> int:
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
        return f"Schlüssel {k}"
    return "dem Register" if fall == "dat" else "das Register"


def _gross(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the explanation -------------------------------------------------------------------


def _nicht_linearisierbar(
    modell: Modell,
    falsch: Sequence[Hashable],
    teile: Mapping[Hashable, Sequence[Operation]],
    aufgaben: Mapping[Hashable, Sequence[Aufgabe]],
    max_schritte: int,
    angaben: Mapping[str, object],
) -> Urteil:
    k = falsch[0]
    budget = Budget(max_schritte)
    schuldig, fest, vollstaendig = _kleinster_grund(modell, aufgaben[k], budget)
    nach_index = {op.index: op for op in teile[k]}
    c = nach_index[schuldig.rang]
    andere = [nach_index[a.rang] for a in fest]
    quellen = _quellen(modell, [c, *andere], teile[k])
    saetze = ["Nicht linearisierbar." if k is None else f"Nicht linearisierbar: {_name(k)}."]
    saetze.append(_satz_schuldig(modell, c, andere))
    saetze.extend(q.text for q in quellen)
    genannt = eindeutig([c, *andere, *(op for q in quellen for op in q.zeugen)])
    # Without other witnesses and with nobody who wrote the value, the sentence above is the
    # whole reason; the general one would only repeat it.
    if andere or any(q.geschrieben for q in quellen):
        saetze.append(_satz_schluss(modell, c))
    uebrige = len(teile[k]) - len(genannt)
    if uebrige:
        auf = "" if k is None else f" auf {k}"
        saetze.append(
            f"Die übrige Operation{auf} ändert daran nichts, selbst wenn sie zu einer "
            "beliebigen Zeit nach ihrem Beginn oder gar nicht gewirkt hätte."
            if uebrige == 1
            else f"Die übrigen {uebrige} Operationen{auf} ändern daran nichts, selbst wenn "
            "sie zu einer beliebigen Zeit nach ihrem Beginn oder gar nicht gewirkt hätten."
        )
    if not vollstaendig:
        saetze.append(
            f"(Die Suche nach den wenigsten Zeugen brach nach {zahl(max_schritte)} Schritten "
            "ab; es können mehr Operationen genannt sein als nötig.)"
        )
    if len(falsch) > 1:
        weitere = [_name(w) for w in falsch[1:]]
        saetze.append(
            f"Auch {und(weitere)} {'ist' if len(weitere) == 1 else 'sind'} nicht linearisierbar."
        )
    return Urteil(False, " ".join(saetze), genannt, angaben={**angaben, "fehler_in": list(falsch)})


def _kleinster_grund(
    modell: Modell, teil: Sequence[Aufgabe], budget: Budget
) -> tuple[Aufgabe, list[Aufgabe], bool]:
    """(die Operation, die sich nicht einordnen lässt, die Operationen, die das erzwingen,
    ob die Suche danach zu Ende kam)."""

    def scheitert(aufgaben: list[Aufgabe]) -> bool:
        # Only a definite "no" counts: an exhausted budget must never shrink the reason.
        return suche(aufgaben, modell.schritt, modell.anfang, budget) is False

    kandidaten = sorted((a for a in teil if a.ende is not None), key=Aufgabe.antwort_stelle)
    unten, oben = 0, len(kandidaten) - 1  # the whole history fails: so does its last prefix
    while unten < oben:
        mitte = (unten + oben) // 2
        if scheitert(_anfang(modell, teil, kandidaten[mitte])):
            oben = mitte
        else:
            unten = mitte + 1
    schuldig = kandidaten[oben]
    praefix = _anfang(modell, teil, schuldig)
    fest = [a for a in praefix if a.ende is not None and a.rang != schuldig.rang]
    locker = [a for a in praefix if a.ende is None]

    def ohne(behalten: list[Aufgabe]) -> list[Aufgabe]:
        bleibt = {a.rang for a in behalten}
        gelockert = [modell.gelockert(a) for a in fest if a.rang not in bleibt]
        return [schuldig, *behalten, *locker, *(a for a in gelockert if a is not None)]

    # Delta debugging over the confirmed operations: loosen a block at a time, halve the block.
    behalten = fest
    block = max(1, len(behalten) // 2)
    while True:
        i = 0
        while i < len(behalten):
            versuch = behalten[:i] + behalten[i + block :]
            if scheitert(ohne(versuch)):
                behalten = versuch
            else:
                i += block
        if block == 1:
            break
        block = max(1, block // 2)
    return schuldig, behalten, budget.rest > 0


def _anfang(modell: Modell, teil: Sequence[Aufgabe], letzte: Aufgabe) -> list[Aufgabe]:
    """Der Verlauf bis zur Antwort von ``letzte``: später Beantwortetes wird gelockert,
    später Begonnenes fällt weg."""
    schnitt = letzte.antwort_stelle()
    ergebnis = []
    for a in teil:
        if a.aufruf_stelle() >= schnitt:
            continue
        b = a if a.antwort_stelle() <= schnitt else modell.gelockert(a)
        if b is not None:
            ergebnis.append(b)
    return ergebnis


def _op(modell: Modell, op: Operation) -> str:
    return f"{modell.beschreibe(op)} ({wer(op)})"


def _aufzaehlen(teile: Sequence[str], wort: str = "und", weitere: str = "weitere") -> str:
    """Höchstens ``GENANNT`` Teile beim Namen, der Rest gezählt (``weitere``: im Fall des Satzes)."""
    if len(teile) > GENANNT:
        rest = len(teile) - GENANNT + 1
        teile = [*teile[: GENANNT - 1], f"{rest} {weitere}"]
    return und(teile, wort)


def _satz_schuldig(modell: Modell, c: Operation, andere: Sequence[Operation]) -> str:
    vorher = sorted((w for w in andere if w.vor(c)), key=lambda w: (w.ende, w.index))
    zugleich = sorted((w for w in andere if not w.vor(c)), key=lambda w: (w.beginn, w.index))
    satz = f"{_op(modell, c)} lässt sich nicht einordnen ({zeiten(c)})."
    if vorher:
        war = "war" if len(vorher) == 1 else "waren"
        liste = _aufzaehlen([f"{_op(modell, w)} bei t={w.ende}" for w in vorher])
        satz += f" Es begann bei t={c.beginn}, nachdem {liste} bestätigt {war}."
    if zugleich:
        lief = "lief" if len(zugleich) == 1 else "liefen"
        liste = _aufzaehlen([f"{modell.beschreibe(w)} ({wer(w)}, {zeiten(w)})" for w in zugleich])
        satz += f" Gleichzeitig {lief} {liste}."
    return satz


@dataclass(frozen=True)
class _Quelle:
    """Ein Satz, woher ein gelesener Wert kam (``geschrieben``: ob es jemand sein kann)."""

    text: str
    zeugen: list[Operation]
    geschrieben: bool


def _quellen(
    modell: Modell, zeugen: Sequence[Operation], alle: Sequence[Operation]
) -> list[_Quelle]:
    """Woher die gelesenen Werte der Zeugen kommen konnten: je ein Satz und seine Operationen.

    Ein Zeuge, der einen Wert liest, den kein anderer Zeuge schreibt, braucht den Satz: Erst
    mit der Schreibenden ist zu sehen, welche Reihenfolge das Lesen verlangt hätte.
    """
    geschrieben = {modell.schreibt(w)[1] for w in zeugen if modell.schreibt(w)[0]}
    saetze: list[_Quelle] = []
    erklaert: set[Hashable] = set()
    for leser in zeugen:
        liest, v = modell.liest(leser)
        if not liest or v == modell.anfang or v in geschrieben or v in erklaert:
            continue
        erklaert.add(v)
        schreiber = [w for w in alle if w is not leser and modell.schreibt(w) == (True, v)]
        moeglich = [w for w in schreiber if w.typ != "fail" and w.beginn <= (leser.ende or 0)]
        if moeglich:
            liste = _aufzaehlen(
                [f"{modell.beschreibe(w)} ({wer(w)}, {zeiten(w)})" for w in moeglich],
                "oder",
                "weiteren",
            )
            saetze.append(_Quelle(f"Der Wert {wert(v)} stammt von {liste}.", moeglich, True))
            continue
        satz = f"Den Wert {wert(v)} hat bis t={leser.ende} niemand geschrieben."
        spaeter = [w for w in schreiber if w.typ != "fail"]
        fehl = [w for w in schreiber if w.typ == "fail"]
        if spaeter:
            satz += f" {_op(modell, spaeter[0])} begann erst bei t={spaeter[0].beginn}."
        if fehl:
            satz += (
                f" {modell.beschreibe(fehl[0])} ({wer(fehl[0])}, {zeiten(fehl[0])}) schlug "
                "fehl (fail) und hat deshalb nicht gewirkt."
            )
        saetze.append(_Quelle(satz, spaeter[:1] + fehl[:1], False))
    return saetze


def _satz_schluss(modell: Modell, c: Operation) -> str:
    liest, v = modell.liest(c)
    wo = "im Register" if c.schluessel is None else f"in {c.schluessel}"
    folge = (
        f"steht {wert(v)} {wo}, wenn {_op(modell, c)} wirkt" if liest else "erklärt alle Antworten"
    )
    return (
        "Jede Operation wirkt in einem Augenblick zwischen ihrem Beginn und ihrer Bestätigung; "
        f"in keiner solchen Reihenfolge {folge}."
    )
