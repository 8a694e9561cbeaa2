"""``transaktionen``: Anomalien in einem Verlauf von Transaktionen, wie Jepsens Elle sie findet.

- ``f="txn"``: ``value`` ist eine Liste von Mikro-Operationen ``["r", key, wert]`` und
  ``["w", key, wert]`` (wie Maelstroms ``txn-rw-register``); am ``invoke`` steht beim Lesen
  ``None``, am ``ok`` der gelesene Wert. ``ok``: bestätigt; ``fail``: sicher nicht gewirkt;
  ``info``: unbestimmt (zählt mit, wenn jemand las, was sie schrieb).

Jeder Wert wird je Schlüssel höchstens einmal geschrieben (so weiß der Prüfer, wer schrieb, was
jemand las); anfangs hat jeder Schlüssel ``None``. Die Reihenfolge der Versionen eines Schlüssels
schließt der Prüfer wie Elle aus dem, was Transaktionen lasen, bevor sie schrieben: Wer ``x = 1``
las und dann ``x = 2`` schrieb, legte 2 hinter 1 (eine Annahme, die jede Stufe ab Snapshot
Isolation erfüllt); ``None`` liegt vor jedem Wert.

Daraus baut er den Abhängigkeitsgraphen (Adya): ``ww`` (T2 überschrieb, was T1 schrieb), ``wr``
(T2 las, was T1 schrieb), ``rw`` (T1 las eine Version, die T2 danach ersetzte), und benennt, was
er findet: **G0** (ein Kreis nur aus ww: Dirty Write), **G1a** (gelesen, was eine gescheiterte
Transaktion schrieb), **G1b** (ein Zwischenstand einer Transaktion gelesen), **G1c** (ein Kreis
aus ww und wr), **Lost Update** (zwei lasen dieselbe Version und überschrieben sie beide),
**G-single** (ein Kreis mit genau einer rw-Kante: Read Skew), **G2-item** (ein Kreis mit mehreren
rw-Kanten: Write Skew). Auf jeder Stufe ein Fehler: ein gelesener Wert, den niemand schrieb,
und ein Lesen, das das eigene Schreiben davor nicht sieht. ``stufe`` sagt, was verboten ist:
``read uncommitted`` (nur G0), ``read committed`` (G0, G1a–c), ``snapshot isolation`` (dazu Lost
Update und G-single), ``serialisierbar`` (alles).

**Der Endstand** (``endstand={key: wert}``, freiwillig): was jeder genannte Schlüssel am Ende hat,
nachdem alle Störungen geheilt sind und die Knoten sich einig wurden (die Last liest es mit einem
letzten Lesen auf jedem Knoten). Daraus schließt der Prüfer: Jede andere bestätigte Schreibung
des Schlüssels liegt vor dieser letzten Version (``ww`` zu ihrem Schreiber, ``rw`` von jedem,
der eine frühere las). Ohne das bliebe ein Dirty Write unsichtbar, wenn niemand vor dem Schreiben
las: zwei Transaktionen, die beide ``x`` und ``y`` schreiben, und am Ende hat ``x`` den Wert der
einen, ``y`` den der anderen. Ist der Endstand ``None``, obwohl eine bestätigte Transaktion den
Schlüssel schrieb, ist das ein eigener Fehler („Verloren“), ebenso ein Endstand, den niemand
schrieb. So schließt der Prüfer nur, was in jeder seriellen Reihenfolge gilt, die mit diesem
Stand endet (``tests/pysim/test_pruefer_transaktionen.py`` prüft es gegen alle Reihenfolgen).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from ..fehler import UngueltigeEingabe
from .urteil import Befund, Urteil, aus_befunden, name, wer, wert
from .verlauf import Operation, UngueltigerVerlauf, einfrieren, nur, operationen

#: What each level forbids, in the order the checker looks.
STUFEN: dict[str, tuple[str, ...]] = {
    "read uncommitted": ("G0",),
    "read committed": ("G0", "G1a", "G1b", "G1c"),
    "snapshot isolation": ("G0", "G1a", "G1b", "G1c", "Lost Update", "G-single"),
    "serialisierbar": ("G0", "G1a", "G1b", "G1c", "Lost Update", "G-single", "G2-item"),
}
#: Each level as a verdict names it.
STUFEN_NAMEN = {
    "read uncommitted": "Read Uncommitted",
    "read committed": "Read Committed",
    "snapshot isolation": "Snapshot Isolation",
    "serialisierbar": "Serialisierbarkeit",
}
#: What each anomaly is called in a sentence.
NAMEN = {
    "G0": "G0 (Dirty Write: ein Kreis aus Überschreibungen)",
    "G1a": "G1a (Aborted Read: gelesen, was eine gescheiterte Transaktion schrieb)",
    "G1b": "G1b (Intermediate Read: ein Zwischenstand gelesen)",
    "G1c": "G1c (Circular Information Flow: ein Kreis aus Schreiben und Lesen)",
    "Lost Update": "Lost Update (zwei lasen dieselbe Version und überschrieben sie beide)",
    "G-single": "G-single (Read Skew: ein Kreis mit genau einer rw-Kante)",
    "G2-item": "G2-item (Write Skew: ein Kreis mit mehreren rw-Kanten)",
}

Schluessel = Hashable


@dataclass(frozen=True)
class _Txn:
    op: Operation
    #: Micro-operations as (f, key, value), the value frozen.
    mops: tuple[tuple[str, Schluessel, Hashable], ...]

    @property
    def text(self) -> str:
        """``Client c7 (#12)``: who ran it and the index of its ``invoke`` in the history."""
        return f"{wer(self.op)} (#{self.op.index})"

    def externe_lesungen(self) -> list[tuple[Schluessel, Hashable]]:
        """Reads of a key before this transaction wrote it (the others are internal)."""
        geschrieben: set[Schluessel] = set()
        aus: list[tuple[Schluessel, Hashable]] = []
        for f, k, v in self.mops:
            if f == "w":
                geschrieben.add(k)
            elif k not in geschrieben:
                aus.append((k, v))
        return aus

    def letzte_schreibungen(self) -> dict[Schluessel, Hashable]:
        return {k: v for f, k, v in self.mops if f == "w"}


def _mops(op: Operation) -> tuple[tuple[str, Schluessel, Hashable], ...]:
    roh = op.ausgabe if op.typ == "ok" else op.eingabe
    if not isinstance(roh, list | tuple):
        raise UngueltigerVerlauf(
            op.index,
            'Der Wert eines txn ist eine Liste wie [["r", "x", None], ["w", "y", 1]], '
            f"nicht {wert(roh)}.",
        )
    aus = []
    for m in roh:
        if not (isinstance(m, list | tuple) and len(m) == 3 and m[0] in ("r", "w")):
            raise UngueltigerVerlauf(
                op.index,
                f'Eine Mikro-Operation ist ["r", key, wert] oder ["w", key, wert], nicht {wert(m)}.',
            )
        aus.append((str(m[0]), einfrieren(m[1], op.index), einfrieren(m[2], op.index)))
    return tuple(aus)


def transaktionen(
    history: Sequence[Mapping[str, object]],
    *,
    stufe: str = "serialisierbar",
    endstand: Mapping[object, object] | None = None,
) -> Urteil:
    """Sucht in ``history`` die Anomalien, die ``stufe`` verbietet; ``endstand``: was jeder
    genannte Schlüssel am Ende hat (siehe oben)."""
    if stufe not in STUFEN:
        raise UngueltigeEingabe(
            f"Die Stufe „{stufe}“ kennt der Prüfer nicht; es gibt "
            + ", ".join(f"„{s}“" for s in STUFEN)
            + "."
        )
    ops = operationen(history)
    nur(ops, ("txn",), "transaktionen")
    txns = [_Txn(op, _mops(op)) for op in ops]
    ende = {einfrieren(k, None): einfrieren(v, None) for k, v in (endstand or {}).items()}
    befunde, kreise = _befunde(txns, STUFEN[stufe], ende)
    angaben = {
        "transaktionen": len(txns),
        "anomalien": [b.text.split(":")[0] for b in befunde],
        "kreise": kreise,
    }
    name = STUFEN_NAMEN[stufe]
    return aus_befunden(
        befunde,
        f"{name} verletzt:",
        f"{name} eingehalten: keine verbotene Anomalie in {len(txns)} Transaktionen.",
        angaben,
    )


def _befunde(
    txns: Sequence[_Txn],
    verboten: Sequence[str],
    endstand: Mapping[Schluessel, Hashable] | None = None,
) -> tuple[list[Befund], list[dict[str, object]]]:
    schreiber: dict[tuple[Schluessel, Hashable], _Txn] = {}
    zwischen: dict[tuple[Schluessel, Hashable], _Txn] = {}
    for t in txns:
        letzte = t.letzte_schreibungen()
        for f, k, v in t.mops:
            if f != "w":
                continue
            if (k, v) in schreiber or (k, v) in zwischen:
                raise UngueltigerVerlauf(
                    t.op.index,
                    f"Der Wert {wert(v)} für {name(k)} wurde schon einmal geschrieben; der "
                    "Prüfer braucht je Schlüssel verschiedene Werte.",
                )
            if letzte[k] == v:
                schreiber[(k, v)] = t
            else:
                zwischen[(k, v)] = t
    bestaetigt = [t for t in txns if t.op.typ == "ok"]
    befunde: list[Befund] = []
    for t in bestaetigt:
        eigene: dict[Schluessel, Hashable] = {}
        for f, k, v in t.mops:
            if f == "w":
                eigene[k] = v
            elif k in eigene and eigene[k] != v:
                befunde.append(
                    Befund(
                        f"Innen: {t.text} schrieb {name(k)} = {wert(eigene[k])} und las danach "
                        f"{wert(v)}: Eine Transaktion sieht ihr eigenes Schreiben.",
                        (t.op,),
                    )
                )
        for k, v in t.externe_lesungen():
            if schreiber.get((k, v)) is t or zwischen.get((k, v)) is t:
                befunde.append(
                    Befund(
                        f"Innen: {t.text} las {name(k)} = {wert(v)}, bevor sie es selbst schrieb.",
                        (t.op,),
                    )
                )
            elif v is not None and (k, v) not in schreiber and (k, v) not in zwischen:
                befunde.append(
                    Befund(
                        f"Unbekannter Wert: {t.text} las {name(k)} = {wert(v)}, das niemand "
                        "schrieb.",
                        (t.op,),
                    )
                )
            w = schreiber.get((k, v))
            if w is not None and w.op.typ == "fail" and "G1a" in verboten:
                befunde.append(
                    Befund(
                        f"G1a: {t.text} las {name(k)} = {wert(v)}, das {w.text} schrieb, "
                        "die scheiterte.",
                        (t.op, w.op),
                    )
                )
            z = zwischen.get((k, v))
            if z is not None and z is not t and "G1b" in verboten:
                befunde.append(
                    Befund(
                        f"G1b: {t.text} las {name(k)} = {wert(v)}, einen Zwischenstand von "
                        f"{z.text}, die {name(k)} danach noch einmal schrieb.",
                        (t.op, z.op),
                    )
                )
    # the graph: committed transactions and unknown ones someone read from
    gelesen_von = {
        id(schreiber[(k, v)])
        for t in bestaetigt
        for k, v in t.externe_lesungen()
        if (k, v) in schreiber
    }
    knoten = [t for t in txns if t.op.typ == "ok" or (t.op.typ == "info" and id(t) in gelesen_von)]
    im_graph = {id(t) for t in knoten}
    # version order per key: None first; read v then wrote w -> v before w
    nach: dict[tuple[Schluessel, Hashable], list[tuple[Schluessel, Hashable]]] = {}
    for t in knoten:
        lesen = dict(t.externe_lesungen()[::-1])
        for k, v in t.letzte_schreibungen().items():
            if k in lesen:
                nach.setdefault((k, lesen[k]), []).append((k, v))
    for (k, v), w in schreiber.items():
        if id(w) in im_graph:
            nach.setdefault((k, None), [])
            if (k, v) not in nach[(k, None)]:
                nach[(k, None)].append((k, v))
    befunde += _endstand(endstand or {}, schreiber, zwischen, knoten, nach)
    kanten: dict[tuple[int, int], str] = {}

    def kante(a: _Txn, b: _Txn, art: str) -> None:
        if a is b or id(a) not in im_graph or id(b) not in im_graph:
            return
        # one edge per pair, the strongest for the cycle's name: ww, then wr, then rw
        alt = kanten.get((id(a), id(b)))
        if alt is None or "ww wr rw".index(art) < "ww wr rw".index(alt):
            kanten[(id(a), id(b))] = art

    lesende: dict[tuple[Schluessel, Hashable], list[_Txn]] = {}
    for t in knoten:
        for k, v in t.externe_lesungen():
            lesende.setdefault((k, v), []).append(t)
            w = schreiber.get((k, v))
            if w is not None:
                kante(w, t, "wr")
    for (k, v), folgende in nach.items():
        vorher = schreiber.get((k, v))
        for kw in folgende:
            spaeter = schreiber.get(kw)
            if spaeter is None:
                continue
            if vorher is not None and v is not None:
                kante(vorher, spaeter, "ww")
            for leser in lesende.get((k, v), []):
                kante(leser, spaeter, "rw")
    if "Lost Update" in verboten:
        # two committed transactions that both read (k, v) and both wrote k
        ueberschrieben: dict[tuple[Schluessel, Hashable], list[_Txn]] = {}
        for t in bestaetigt:
            lesen = dict(t.externe_lesungen()[::-1])
            for k in t.letzte_schreibungen():
                if k in lesen:
                    ueberschrieben.setdefault((k, lesen[k]), []).append(t)
        for (k, v), ueber in sorted(ueberschrieben.items(), key=lambda e: repr(e[0])):
            if len(ueber) > 1:
                a, b = ueber[0], ueber[1]
                befunde.append(
                    Befund(
                        f"Lost Update: {a.text} und {b.text} lasen beide {name(k)} = {wert(v)} "
                        "und schrieben beide darüber; eine der beiden Änderungen ging verloren.",
                        (a.op, b.op),
                    )
                )
    nr = {id(t): t for t in knoten}
    kreise = _kreise(knoten, kanten, nr, verboten)
    befunde += [b for b, _ in kreise]
    return befunde, [k for _, k in kreise]


def _endstand(
    endstand: Mapping[Schluessel, Hashable],
    schreiber: Mapping[tuple[Schluessel, Hashable], _Txn],
    zwischen: Mapping[tuple[Schluessel, Hashable], _Txn],
    knoten: Sequence[_Txn],
    nach: dict[tuple[Schluessel, Hashable], list[tuple[Schluessel, Hashable]]],
) -> list[Befund]:
    """The final state as a source of version order: every other write of a key by a
    transaction in the graph precedes its final version (added to ``nach``). A final None
    where a committed transaction wrote the key, or a final value nobody wrote, is a finding."""
    im_graph = {id(t) for t in knoten}
    befunde: list[Befund] = []
    for k, ende in sorted(endstand.items(), key=lambda e: repr(e[0])):
        geschrieben = sorted(
            ((v, w) for (k2, v), w in schreiber.items() if k2 == k and id(w) in im_graph),
            key=lambda e: e[1].op.index,
        )
        if ende is None:
            bestaetigt = [(v, w) for v, w in geschrieben if w.op.typ == "ok"]
            if bestaetigt:
                v, w = bestaetigt[0]
                befunde.append(
                    Befund(
                        f"Verloren: {w.text} schrieb {name(k)} = {wert(v)} und wurde bestätigt, "
                        f"aber am Ende hat {name(k)} keinen Wert (None).",
                        (w.op,),
                    )
                )
            continue
        if (k, ende) not in schreiber:
            if (k, ende) not in zwischen:
                befunde.append(
                    Befund(
                        f"Unbekannter Endstand: Am Ende hat {name(k)} den Wert {wert(ende)}, "
                        "den niemand schrieb.",
                        (),
                    )
                )
            continue  # an intermediate value: the final reads name it (G1b)
        for v, _ in geschrieben:
            if v != ende and (k, ende) not in nach.setdefault((k, v), []):
                nach[(k, v)].append((k, ende))
    return befunde


def _kreise(
    knoten: Sequence[_Txn],
    kanten: Mapping[tuple[int, int], str],
    nr: Mapping[int, _Txn],
    verboten: Sequence[str],
) -> list[tuple[Befund, dict[str, object]]]:
    """The first cycle of each forbidden kind, found as Elle does: G0 among ww edges, G1c
    among ww and wr, G-single as one rw edge closed by ww/wr, G2-item by two or more rw.
    Each with the cycle for ``kreis_bild``: its transactions in order and the edge after each."""
    reihenfolge = [id(t) for t in knoten]
    aus: dict[int, list[tuple[int, str]]] = {i: [] for i in reihenfolge}
    for (a, b), art in kanten.items():
        aus[a].append((b, art))
    for liste in aus.values():
        liste.sort(key=lambda e: reihenfolge.index(e[0]))

    def pfad(von: int, nach: int, arten: str) -> list[tuple[int, str]] | None:
        """Shortest path von -> nach over edges of ``arten`` (breadth first, fixed order)."""
        vorg: dict[int, tuple[int, str]] = {}
        rand, gesehen = [von], {von}
        while rand:
            neu = []
            for a in rand:
                for b, art in aus[a]:
                    if art not in arten or b in gesehen:
                        continue
                    vorg[b] = (a, art)
                    if b == nach:
                        schritte = []
                        x = b
                        while x != von:
                            a2, art2 = vorg[x]
                            schritte.append((x, art2))
                            x = a2
                        return schritte[::-1]
                    gesehen.add(b)
                    neu.append(b)
            rand = neu
        return None

    def kreis_text(start: int, schritte: list[tuple[int, str]]) -> str:
        teile = [nr[start].text]
        for b, art in schritte:
            teile.append(f"→{art} {nr[b].text}")
        return " ".join(teile)

    befunde: list[tuple[Befund, dict[str, object]]] = []
    gesucht = [
        ("G0", "ww", None),
        ("G1c", "ww wr", "wr"),
        ("G-single", "ww wr", "rw"),
        ("G2-item", "ww wr rw", "rw"),
    ]
    for anomalie, arten, noetig in gesucht:
        if anomalie not in verboten:
            continue
        gefunden = None
        for (a, b), art in sorted(
            kanten.items(), key=lambda e: (reihenfolge.index(e[0][0]), reihenfolge.index(e[0][1]))
        ):
            if noetig is not None and art != noetig:
                continue
            if noetig is None and art != "ww":
                continue
            zurueck = pfad(b, a, arten)
            if zurueck is None:
                continue
            rw = sum(1 for _, x in zurueck if x == "rw") + (art == "rw")
            if anomalie == "G2-item" and rw < 2:
                continue
            gefunden = kreis_text(a, [(b, art), *zurueck])
            zeugen = tuple(
                sorted(
                    {
                        nr[a].op.index: nr[a].op,
                        **{nr[x].op.index: nr[x].op for x, _ in zurueck},
                    }.values(),
                    key=lambda o: o.index,
                )
            )
            schritte = [(b, art), *zurueck]
            kreis: dict[str, object] = {
                "anomalie": anomalie,
                "transaktionen": [nr[a].text] + [nr[x].text for x, _ in schritte[:-1]],
                "kanten": [k for _, k in schritte],
            }
            befunde.append((Befund(f"{anomalie}: {gefunden}.", zeugen), kreis))
            break
    return befunde


__all__ = ["NAMEN", "STUFEN", "transaktionen"]
