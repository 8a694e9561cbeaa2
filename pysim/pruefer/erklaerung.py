"""Ein ``Grund`` (``pysim.pruefer.grund``) als deutscher Text, mit seinen Zeugen."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from .grund import Grund
from .modell import Modell
from .urteil import eindeutig, name, spaeter_und_fehl, und, wer, wert, zahl, zeiten
from .verlauf import Operation

#: So viele Operationen nennt ein Satz beim Namen; alle stehen in den Zeugen.
GENANNT = 8

WIRKT = "Jede Operation wirkt in einem Augenblick zwischen ihrem Beginn und ihrer Bestätigung"

#: Said when an order the verdict relies on falls within one tick.
IM_SELBEN_TICK = (
    "Auch im selben Tick gilt die Reihenfolge des Verlaufs: Die Bestätigung kam vor dem Beginn."
)


def erklaere(
    modell: Modell, grund: Grund, ops: Sequence[Operation], max_schritte: int
) -> tuple[list[str], tuple[Operation, ...]]:
    """(die Sätze, die Zeugen) für ``grund`` in einem Schlüssel mit den Operationen ``ops``."""
    c = grund.schuldig
    if grund.ueberschreibend is not None:
        # Where the overwriting read's value came from, if it is a read.
        dazu = _quellen(modell, [c, grund.ueberschreibend, *grund.quellen], ops)
        saetze = _veraltet(modell, c, grund.ueberschreibend, grund.quellen, [q.text for q in dazu])
        genannt = eindeutig(
            [c, grund.ueberschreibend, *grund.quellen, *(op for q in dazu for op in q.zeugen)]
        )
    else:
        quellen = _quellen(modell, [c, *grund.andere], ops)
        saetze = [_satz_schuldig(modell, c, grund.andere), *(q.text for q in quellen)]
        genannt = eindeutig([c, *grund.andere, *(op for q in quellen for op in q.zeugen)])
        # Without other witnesses and with nobody who wrote the value, the sentence above is
        # the whole reason; the general one would only repeat it.
        if grund.andere or any(q.geschrieben for q in quellen):
            saetze.append(_satz_schluss(modell, c))
    # A failed operation did not act, by definition; had it, it might change the verdict.
    namen = {op.index for op in genannt}
    uebrige = sum(op.typ != "fail" and op.index not in namen for op in ops)
    auf = "" if c.schluessel is None else f" auf {name(c.schluessel)}"
    if uebrige == 1:
        saetze.append(
            f"Die übrige Operation{auf} ändert daran nichts, selbst wenn sie zu einer "
            "beliebigen Zeit nach ihrem Beginn oder gar nicht gewirkt hätte."
        )
    elif uebrige:
        saetze.append(
            f"Die übrigen {uebrige} Operationen{auf} ändern daran nichts, selbst wenn sie zu "
            "einer beliebigen Zeit nach ihrem Beginn oder gar nicht gewirkt hätten."
        )
    if not grund.vollstaendig:
        saetze.append(
            f"(Die Suche nach den wenigsten Zeugen brach nach {zahl(max_schritte)} Schritten "
            "ab; es können mehr Operationen genannt sein als nötig.)"
        )
    return saetze, genannt


def _op(modell: Modell, op: Operation) -> str:
    return f"{modell.beschreibe(op)} ({wer(op)})"


def _mit_zeit(modell: Modell, op: Operation) -> str:
    return f"{modell.beschreibe(op)} ({wer(op)}, {zeiten(op)})"


def _aufzaehlen(teile: Sequence[str], wort: str = "und", weitere: str = "weitere") -> str:
    """Höchstens ``GENANNT`` Teile beim Namen, der Rest gezählt (``weitere``: im Fall des Satzes)."""
    if len(teile) > GENANNT:
        rest = len(teile) - GENANNT + 1
        teile = [*teile[: GENANNT - 1], f"{rest} {weitere}"]
    return und(teile, wort)


def _satz_schuldig(modell: Modell, c: Operation, andere: Sequence[Operation]) -> str:
    vorher = sorted((w for w in andere if w.vor(c)), key=lambda w: w.index_ende or 0)
    zugleich = sorted((w for w in andere if not w.vor(c)), key=lambda w: w.index)
    satz = f"{_op(modell, c)} lässt sich nicht einordnen ({zeiten(c)})."
    if vorher:
        war = "war" if len(vorher) == 1 else "waren"
        liste = _aufzaehlen([f"{_op(modell, w)} bei t={w.ende}" for w in vorher])
        satz += f" Es begann bei t={c.beginn}, nachdem {liste} bestätigt {war}."
        if any(w.ende == c.beginn for w in vorher):
            satz += f" {IM_SELBEN_TICK}"
    if zugleich:
        lief = "lief" if len(zugleich) == 1 else "liefen"
        satz += f" Gleichzeitig {lief} {_aufzaehlen([_mit_zeit(modell, w) for w in zugleich])}."
    return satz


def _veraltet(
    modell: Modell,
    c: Operation,
    ueber: Operation,
    quellen: Sequence[Operation],
    dazu: Sequence[str],
) -> list[str]:
    _, v = modell.liest(c)
    _, u = modell.nachher(ueber)
    saetze = [_satz_schuldig(modell, c, [ueber])]
    if quellen:
        letzte = max(quellen, key=lambda q: q.index_ende or 0)
        davor = len(quellen) - 1
        anfang = ", davor vom Anfang" if v == modell.anfang else ""
        bevor = f"bevor {modell.beschreibe(ueber)} bei t={ueber.beginn} begann"
        saetze.append(
            f"Der Wert {wert(v)} stammt zuletzt von {_mit_zeit(modell, letzte)}, davor von "
            f"{davor} weiteren{anfang}; alle waren bestätigt, {bevor}."
            if davor
            else f"Der Wert {wert(v)} stammt von {_mit_zeit(modell, letzte)}{anfang}, "
            f"bestätigt, {bevor}."
        )
        nach = f"nach jedem Schreiben von {wert(v)}"
    else:
        wo = "das Register" if c.schluessel is None else name(c.schluessel)
        saetze.append(f"Den Wert {wert(v)} hatte {wo} nur am Anfang.")
        nach = "nach dem Anfang"
    saetze.extend(dazu)
    wo = "im Register" if c.schluessel is None else f"in {name(c.schluessel)}"
    saetze.append(
        f"{WIRKT}; also stand {wert(u)} {wo} gleich nach {modell.beschreibe(ueber)}, {nach} "
        f"und vor {modell.beschreibe(c)}, das {wert(v)} so nicht mehr vorfinden kann."
    )
    return saetze


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
        moeglich = [w for w in schreiber if w.typ != "fail" and w.begann_vor_ende(leser)]
        if moeglich:
            liste = _aufzaehlen([_mit_zeit(modell, w) for w in moeglich], "oder", "weiteren")
            saetze.append(_Quelle(f"Der Wert {wert(v)} stammt von {liste}.", moeglich, True))
            continue
        satz = f"Den Wert {wert(v)} hat bis t={leser.ende} niemand geschrieben."
        spaeter, fehl, wann = spaeter_und_fehl(schreiber, leser)
        if spaeter:
            satz += f" {_op(modell, spaeter[0])} begann erst {wann} t={spaeter[0].beginn}."
        if fehl:
            satz += (
                f" {_mit_zeit(modell, fehl[0])} schlug fehl (fail) und hat deshalb nicht gewirkt."
            )
        saetze.append(_Quelle(satz, spaeter[:1] + fehl[:1], False))
    return saetze


def _satz_schluss(modell: Modell, c: Operation) -> str:
    liest, v = modell.liest(c)
    wo = "im Register" if c.schluessel is None else f"in {name(c.schluessel)}"
    folge = (
        f"steht {wert(v)} {wo}, wenn {_op(modell, c)} wirkt" if liest else "erklärt alle Antworten"
    )
    return f"{WIRKT}; in keiner solchen Reihenfolge {folge}."
