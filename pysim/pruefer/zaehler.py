"""``zaehler``: ein Grow-only Counter (Maelstroms ``g-counter``).

- ``f="add"``: ``value`` ist der Zuwachs (ganze Zahl >= 0, bei Maelstrom ``delta``).
- ``f="read"``: das ``ok`` trägt den gelesenen Stand in ``value``.

Angelehnt an Maelstroms Prüfer (``src/maelstrom/workload/pn_counter.clj``): Das letzte Lesen
jedes Knotens (``node``; ohne ``node``: jedes Prozesses), das ab ``geheilt`` begann, muss die Summe der Adds sein, die vor ihm bestätigt waren,
plus eine beliebige Auswahl der übrigen, die vor seinem Ende begonnen hatten („vor“: im Verlauf
davor, auch im selben Tick). Maelstrom
zählt dort nur unbestimmte Adds; hier zählen auch bestätigte, die noch während des Lesens
liefen (bei Maelstrom liest der Client erst, wenn alle Adds vorbei sind). Jedes andere Lesen
darf zurückliegen (der Zähler ist nur schließlich konsistent), aber nie mehr zeigen, als bis
dahin hinzugefügt sein kann.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from .urteil import Befund, Urteil, aus_befunden, und, wer, zeiten
from .verlauf import Operation, ganzzahl, nur, operationen

#: Bis zu dieser Summe unsicherer Adds rechnet der Prüfer jede erreichbare Summe genau aus
#: (als Bitmenge); darüber nur den Bereich von kleinster bis größter.
GENAU_BIS = 100_000


def zaehler(history: Sequence[Mapping[str, object]], *, geheilt: int | None = None) -> Urteil:
    """Prüft die Lesewerte eines Grow-only Counters gegen die Adds in ``history``."""
    ops = operationen(history)
    nur(ops, ("add", "read"), "zaehler")
    # Validated numbers by the operation's index: the checks below never see a non-integer.
    zahl = {
        op.index: ganzzahl(op.eingabe, op.index, "Der Zuwachs (value) eines add")
        for op in ops
        if op.f == "add"
    }
    lesen = [op for op in ops if op.f == "read" and op.typ == "ok"]
    for r in lesen:
        zahl[r.index] = ganzzahl(r.ausgabe, r.index_ende, "Der gelesene Stand (value)")
    wirksam = [op for op in ops if op.f == "add" and op.typ != "fail"]

    # The final read of each node (each process, without nodes): who must show the sum.
    letzte: dict[Hashable, Operation] = {}
    for r in lesen:
        if geheilt is None or r.beginn >= geheilt:
            letzte[r.prozess if r.knoten is None else r.knoten] = r
    befunde = []
    for r in lesen:
        sicher = [a for a in wirksam if a.typ == "ok" and a.vor(r)]
        unsicher = [a for a in wirksam if not (a.typ == "ok" and a.vor(r)) and a.begann_vor_ende(r)]
        basis = sum(zahl[a.index] for a in sicher)
        extra = [zahl[a.index] for a in unsicher]
        if letzte.get(r.prozess if r.knoten is None else r.knoten) is r:
            befund = _letztes(r, zahl[r.index], basis, extra, unsicher)
        else:
            befund = _zu_hoch(r, zahl[r.index], basis + sum(extra))
        if befund:
            befunde.append(befund)
    if not letzte:
        ab = "" if geheilt is None else f" ab t={geheilt}"
        befunde.append(Befund(f"Niemand las{ab} erfolgreich; der Endstand bleibt ungeprüft.", ()))

    summe = sum(zahl[a.index] for a in wirksam if a.typ == "ok")
    offen = sum(zahl[a.index] for a in wirksam if a.typ == "info")
    angaben = {
        "bestaetigt": summe,
        "unbestimmt": offen,
        "letzte": {wer_: zahl[r.index] for wer_, r in letzte.items()},
    }
    dazu = f", dazu unbestimmte über {offen}" if offen else ""
    return aus_befunden(
        befunde,
        "Zähler fehlerhaft:",
        f"Zähler in Ordnung: {len(letzte)} letzte Lesen passen zu den Adds (bestätigt: "
        f"{summe}{dazu}), und kein Lesen zeigte mehr, als hinzugefügt sein konnte.",
        angaben,
    )


def _letztes(
    r: Operation, v: int, basis: int, extra: Sequence[int], unsicher: Sequence[Operation]
) -> Befund | None:
    if _erreichbar(v - basis, extra):
        return None
    bei = "" if r.knoten is None else f" bei {r.knoten}"
    satz = (
        f"Das letzte Lesen{bei} ({wer(r)}, {zeiten(r)}) ergab {v}. Bis zu seinem Beginn waren "
        f"Adds mit der Summe {basis} bestätigt"
    )
    if extra:
        moeglich = _moegliche(basis, extra)
        gezeigt = und([str(d) for d in extra[:8]]) + (" …" if len(extra) > 8 else "")
        adds = (
            "ein unbestimmtes oder gleichzeitiges Add über"
            if len(extra) == 1
            else f"{len(extra)} unbestimmte oder gleichzeitige Adds über"
        )
        satz += (
            f"; dazu {'kann' if len(extra) == 1 else 'können'} {adds} {gezeigt} kommen. "
            f"Möglich {'ist' if moeglich.startswith('genau') else 'sind'} {moeglich}."
        )
    else:
        satz += f", und mehr kam nicht dazu: Der Stand müsste genau {basis} sein."
    return Befund(satz, (r, *unsicher))


def _zu_hoch(r: Operation, v: int, hoechstens: int) -> Befund | None:
    if v <= hoechstens:
        return None
    return Befund(
        f"{wer(r)} las {v} ({zeiten(r)}), doch bis dahin konnten höchstens {hoechstens} "
        "hinzugefügt sein.",
        (r,),
    )


def _summen(extra: Sequence[int]) -> int:
    """Die erreichbaren Summen einer Auswahl aus ``extra`` als Bitmenge (Bit s: Summe s)."""
    summen = 1
    for d in extra:
        summen |= summen << d
    return summen


def _erreichbar(ziel: int, extra: Sequence[int]) -> bool:
    """Ist ``ziel`` die Summe einer Auswahl aus ``extra``?"""
    if ziel < 0 or ziel > sum(extra):
        return False
    if sum(extra) > GENAU_BIS:
        return True  # too large to enumerate: the range is all we check
    return bool(_summen(extra) >> ziel & 1)


def _moegliche(basis: int, extra: Sequence[int]) -> str:
    """Die möglichen Stände als Text: ``genau 10``, ``10, 13, 15 oder 18``, ``10 bis 90``."""
    if sum(extra) > GENAU_BIS:
        return f"Werte von {basis} bis {basis + sum(extra)}"
    summen = _summen(extra)
    werte = [basis + s for s in range(sum(extra) + 1) if summen >> s & 1]
    if len(werte) == 1:
        return f"genau {werte[0]}"
    if len(werte) <= 6:
        return und([str(w) for w in werte], "oder")
    luecken = "" if len(werte) == werte[-1] - werte[0] + 1 else ", aber nicht jeder dazwischen"
    return f"Werte von {werte[0]} bis {werte[-1]}{luecken}"
