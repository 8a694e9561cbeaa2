"""``broadcast``: Jeder bestätigte Wert kommt bei jedem Knoten an (Maelstroms ``broadcast``).

- ``f="broadcast"``: ``value`` ist die Nachricht (bei Maelstrom ``message``).
- ``f="read"``: das ``ok`` trägt in ``value`` die Liste der Nachrichten, die der Knoten kennt;
  ``node`` (am ``invoke`` oder am Abschluss) nennt den Knoten, der das Lesen bediente.

Geprüft wird das letzte erfolgreiche Lesen jedes Knotens, das bei oder nach ``geheilt``
begann (dem Zeitpunkt, ab dem keine Störung mehr wirkt). Maelstrom lässt am Ende eines Laufs
ebenso jeden Client noch einmal lesen, nachdem es die Störungen beendet und gewartet hat
(``:final-generator`` in ``src/maelstrom/core.clj``). Sein Prüfer ist Jepsens ``set-full``,
der jedes Lesen auswertet; dieser hier ist einfacher und sieht nur auf das letzte.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

from .urteil import (
    Befund,
    Urteil,
    aus_befunden,
    sortiert,
    spaeter_und_fehl,
    und,
    wer,
    wert,
    zeiten,
)
from .verlauf import Operation, UngueltigerVerlauf, einfrieren, nur, operationen


def broadcast(
    history: Sequence[Mapping[str, object]],
    *,
    geheilt: int | None = None,
    knoten: Iterable[Hashable] | None = None,
) -> Urteil:
    """Prüft ``history`` (broadcast und read). ``knoten``: wer lesen muss (sonst: wer las).

    ``angaben["sichtbar_nach"]``: je bestätigtem Wert die Ticks vom Beginn seines Broadcasts,
    bis jeder Knoten ihn einmal gelesen hatte (nur Werte, die alle sahen).
    """
    ops = operationen(history)
    nur(ops, ("broadcast", "read"), "broadcast")
    sendungen: dict[Hashable, list[Operation]] = {}
    lesen: list[tuple[Operation, frozenset[Hashable]]] = []
    for op in ops:
        if op.f == "broadcast":
            sendungen.setdefault(einfrieren(op.eingabe, op.index), []).append(op)
        elif op.knoten is None:
            raise UngueltigerVerlauf(
                op.index, "Ein read braucht node: den Knoten, der das Lesen bediente."
            )
        elif op.typ == "ok":
            if not isinstance(op.ausgabe, list | tuple):
                raise UngueltigerVerlauf(
                    op.index_ende, "Ein „ok“ für read trägt die Liste der Nachrichten in value."
                )
            lesen.append((op, frozenset(einfrieren(v, op.index) for v in op.ausgabe)))
    # The caller's nodes in the caller's order; else every node that served a read, sorted.
    alle_knoten = (
        list(dict.fromkeys(knoten))
        if knoten is not None
        else sortiert(dict.fromkeys(o.knoten for o in ops if o.f == "read"))
    )
    bestaetigt = {
        v: next(b for b in bs if b.typ == "ok")
        for v, bs in sendungen.items()
        if any(b.typ == "ok" for b in bs)
    }

    befunde = _erfunden(lesen, sendungen)
    zuletzt: dict[Hashable, tuple[Operation, frozenset[Hashable]]] = {}
    for op, werte in lesen:
        if geheilt is None or op.beginn >= geheilt:
            zuletzt[op.knoten] = (op, werte)
    for n in alle_knoten:
        if n not in zuletzt:
            ab = "" if geheilt is None else f" ab t={geheilt}"
            befunde.append(
                Befund(
                    f"Knoten {n} hat{ab} nie erfolgreich gelesen; ob er alle Werte kennt, bleibt offen.",
                    (),
                )
            )
            continue
        r, werte = zuletzt[n]
        fehlen = [bestaetigt[v] for v in sortiert(bestaetigt) if v not in werte]
        fehlen = [b for b in fehlen if b.vor(r)]
        if fehlen:
            befunde.append(_verloren(n, r, fehlen))

    sichtbar = _sichtbar_nach(bestaetigt, lesen, alle_knoten)
    angaben = {"sichtbar_nach": sichtbar, "bestaetigt": len(bestaetigt), "knoten": alle_knoten}
    dauer = sorted(sichtbar.values())
    wie_lange = (
        f" Bis alle Knoten einen Wert kannten, vergingen höchstens {dauer[-1]} Ticks "
        f"(Median {dauer[(len(dauer) - 1) // 2]})."
        if dauer
        else ""
    )
    return aus_befunden(
        befunde,
        "Broadcast fehlerhaft:",
        f"Broadcast in Ordnung: Alle {len(bestaetigt)} bestätigten Werte kamen bei allen "
        f"{len(alle_knoten)} Knoten an, und kein Knoten las einen Wert, den niemand gesendet "
        f"hatte.{wie_lange}",
        angaben,
    )


def _erfunden(
    lesen: Sequence[tuple[Operation, frozenset[Hashable]]],
    sendungen: Mapping[Hashable, Sequence[Operation]],
) -> list[Befund]:
    """Gelesene Werte, die kein Broadcast bis zum Ende des Lesens gesendet haben kann."""
    befunde = []
    gemeldet: set[Hashable] = set()
    for r, werte in lesen:
        for v in sortiert(werte - gemeldet):
            kandidaten = sendungen.get(v, [])
            if any(b.typ != "fail" and b.begann_vor_ende(r) for b in kandidaten):
                continue
            gemeldet.add(v)
            satz = f"{wer(r)} las bei Knoten {r.knoten} den Wert {wert(v)} ({zeiten(r)}), "
            spaeter, fehl, wann = spaeter_und_fehl(kandidaten, r)
            if spaeter:
                satz += f"dessen Broadcast ({wer(spaeter[0])}) erst {wann} t={spaeter[0].beginn} begann."
            elif fehl:
                satz += (
                    f"obwohl sein Broadcast ({wer(fehl[0])}, {zeiten(fehl[0])}) fehlschlug (fail)."
                )
            else:
                satz += "den niemand per Broadcast gesendet hat."
            befunde.append(Befund(satz, (r, *spaeter[:1], *fehl[:1])))
    return befunde


def _verloren(n: Hashable, r: Operation, fehlen: Sequence[Operation]) -> Befund:
    werte = [wert(b.eingabe) for b in fehlen]
    if len(fehlen) == 1:
        b = fehlen[0]
        satz = (
            f"Knoten {n} kennt {werte[0]} nicht: Der Broadcast ({wer(b)}) war bei t={b.ende} "
            f"bestätigt, doch das letzte Lesen bei {n} ({wer(r)}, {zeiten(r)}) enthält den Wert nicht."
        )
    else:
        gezeigt = werte if len(werte) <= 8 else [*werte[:7], f"{len(werte) - 7} weitere"]
        satz = (
            f"Knoten {n} fehlen {len(fehlen)} bestätigte Werte: {und(gezeigt)}. Ihre Broadcasts "
            f"waren bis t={max(b.ende or 0 for b in fehlen)} bestätigt, doch das letzte Lesen bei "
            f"{n} ({wer(r)}, {zeiten(r)}) enthält sie nicht."
        )
    return Befund(satz, (r, *fehlen))


def _sichtbar_nach(
    bestaetigt: Mapping[Hashable, Operation],
    lesen: Sequence[tuple[Operation, frozenset[Hashable]]],
    alle_knoten: Sequence[Hashable],
) -> dict[Hashable, int]:
    """Je Wert: Ticks vom Beginn des Broadcasts bis zum ersten Lesen, das ihn enthielt, beim
    letzten Knoten, der ihn sah."""
    zuerst: dict[tuple[Hashable, Hashable], int] = {}
    for r, werte in sorted(lesen, key=lambda rw: rw[0].index_ende or 0):
        for v in werte:
            zuerst.setdefault((r.knoten, v), r.ende or 0)
    ergebnis = {}
    for v, b in bestaetigt.items():
        zeiten_ = [zuerst.get((n, v)) for n in alle_knoten]
        if alle_knoten and all(t is not None for t in zeiten_):
            ergebnis[v] = max(t for t in zeiten_ if t is not None) - b.beginn
    return ergebnis
