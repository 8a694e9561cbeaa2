"""Herausforderung „Transaktionen“: die Last ``txn-rw-register`` nach Maelstrom und Gossip Glomers
(„Totally-Available Transactions“, 6a bis 6c), geprüft von ``pysim.pruefer.transaktionen``.

Jeder Client schickt seinem Knoten Transaktionen aus Mikro-Operationen::

    {"type": "txn", "txn": [["r", 1, None], ["w", 1, 30], ["w", 0, 31]]}

und erwartet ``txn_ok`` mit derselben Liste, die Lesen ausgefüllt (``["r", 1, 20]``; ``None``,
wenn der Schlüssel nie geschrieben wurde). Eine Transaktion darf der Knoten abbrechen (Fehler 30,
``txn-conflict``: sicher nicht geschehen), aber höchstens ``ABBRUECHE_HOECHSTENS`` der
Transaktionen eines Laufs (ab ``ABBRUECHE_AB`` Transaktionen). Jeder geschriebene Wert kommt je
Lauf nur einmal vor (Operation ``n``, Mikro-Operation ``i``: ``10 * (n + 1) + i``), so weiß der
Prüfer, wer schrieb, was jemand las.

Nach dem Heilen aller Störungen und ``RUHE`` Ticks Ruhe liest auf jedem Knoten ein letzter
Client jeden Schlüssel (eine Transaktion). Sind die Knoten sich nicht einig, ist das ein eigenes
Urteil (nicht konvergiert: Schlüssel, Knoten, Werte). Sind sie einig, ist dieser Stand der
Endstand, den der Prüfer als letzte Version jedes Schlüssels nimmt (``endstand``): Sonst bliebe
ein Dirty Write (G0) unsichtbar, wenn keine Transaktion vor dem Schreiben las.

``isolation`` sagt, was der Prüfer verbietet (``pysim.pruefer.transaktionen.STUFEN``): Stufe 1
(ein Knoten) ``serialisierbar``, Stufe 2 ``read uncommitted`` (G0), Stufe 3 ``read committed``
(G0, G1a, G1b, G1c). Dazu gilt auf jeder Stufe **totale Verfügbarkeit**: Jede Transaktion
bekommt eine Antwort, auch während einer Netzpartition (Maelstroms ``--availability total``);
ein Timeout ist ein Fehler.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import pruefer
from ..cluster.formen import FORMFEHLER
from ..cluster.lasten import Last
from ..cluster.lauf import RUHE
from ..fehler import UngueltigeEingabe
from ..pruefer.transaktionen import STUFEN
from ..pruefer.urteil import name, wert
from ..pruefer.verlauf import Operation, operationen

if TYPE_CHECKING:
    from ..cluster.lauf import Lauf

__all__ = [
    "ABBRUECHE_AB",
    "ABBRUECHE_HOECHSTENS",
    "HERAUSFORDERUNG_LASTEN",
    "TxnRwRegister",
    "endstand",
]

#: At most this share of a run's transactions may be aborted (error 30): a node that aborts
#: everything would be trivially read committed. Only runs of at least ``ABBRUECHE_AB`` client
#: transactions are held to it: a shrunk run of two transactions keeps the anomaly it shows
#: (a read of an aborted write) instead of failing for the abort alone.
ABBRUECHE_HOECHSTENS = 0.25
ABBRUECHE_AB = 8
#: The final reads' processes start here (``Clients.zusatz``).
_SCHLUSS = 10_000


class TxnRwRegister(Last):
    """``txn`` mit Lesen und Schreiben auf ``schluessel`` Schlüsseln (0, 1, …), 1 bis 4
    Mikro-Operationen je Transaktion; ``isolation``: die Stufe, die der Prüfer verlangt."""

    name = "txn-rw-register"
    abstand = 3

    def __init__(self, schluessel: int = 2, isolation: str = "serialisierbar") -> None:
        if isolation not in STUFEN:
            raise UngueltigeEingabe(
                f"isolation=„{isolation}“ kennt der Prüfer nicht; es gibt "
                + ", ".join(f"„{s}“" for s in STUFEN)
                + "."
            )
        if not isinstance(schluessel, int) or schluessel < 1:
            raise UngueltigeEingabe(f"schluessel ist eine ganze Zahl ab 1, nicht {schluessel!r}.")
        self.schluessel = schluessel
        self.isolation = isolation

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        mops: list[list[Any]] = []
        for i in range(zufall.randint(1, 4)):
            key = zufall.randrange(self.schluessel)
            if zufall.random() < 0.5:
                mops.append(["r", key, None])
            else:
                mops.append(["w", key, 10 * (nummer + 1) + i])
        return "txn", None, mops

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        # a copy: a node that fills in its request in place must not change the history
        return {"type": "txn", "txn": [list(m) for m in value]}

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        return [list(m) for m in antwort["txn"]]

    def abschluss(self, knoten: list[str]) -> list[tuple[str, str, Any, Any]]:
        """Nach dem Heilen und ``RUHE`` Ticks liest jeder Knoten jeden Schlüssel."""
        return [
            (k, "txn", None, [["r", key, None] for key in range(self.schluessel)]) for k in knoten
        ]

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        return urteil(lauf.geschichte, self.isolation)


def _passt(aufruf: Sequence[Any], antwort: Sequence[Any]) -> str | None:
    """What differs between a transaction asked for and the one answered (German), or None."""
    if len(aufruf) != len(antwort):
        return f"{len(antwort)} Mikro-Operationen statt {len(aufruf)}"
    for i, (a, b) in enumerate(zip(aufruf, antwort, strict=True)):
        if not isinstance(b, list | tuple) or len(b) != 3:
            return f"an Stelle {i} {wert(b)}, keine Mikro-Operation [f, key, wert]"
        if b[0] != a[0] or b[1] != a[1] or (a[0] == "w" and b[2] != a[2]):
            return f"an Stelle {i} {wert(list(b))}, gefragt war {wert(list(a))}"
    return None


def endstand(
    ops: Sequence[Operation], history: Sequence[Mapping[str, Any]] = ()
) -> tuple[dict[Any, Any] | None, str | None, tuple[Operation, ...]]:
    """The final reads (processes from 10,000 on): ``(stand, None, ())`` when every node
    answered and all agree, else ``(None, sentence, witnesses)`` in German. ``history``: the
    events of ``ops``, to say what a final read got instead of an answer."""
    schluss = [op for op in ops if isinstance(op.prozess, int) and op.prozess >= _SCHLUSS]
    stand: dict[Any, tuple[Any, str]] = {}
    for op in schluss:
        if op.typ != "ok":
            fehler = _fehler(op, history)
            bekam = (
                "eine Antwort in falscher Form"
                if isinstance(fehler, list | tuple) and fehler[0] == FORMFEHLER
                else f"Fehler {fehler[0]}"
                if isinstance(fehler, list | tuple)
                else "keine Antwort"
            )
            return (
                None,
                f"Das letzte Lesen auf {op.knoten}, {RUHE} Ticks nach dem Heilen, bekam {bekam}; "
                "ein Knoten antwortet auf jede Transaktion mit txn_ok.",
                (op,),
            )
    for op in schluss:
        antwort: Any = op.ausgabe
        for f, k, v in antwort:
            if f != "r":
                continue
            if k in stand and stand[k][0] != v:
                anderer = next(o for o in schluss if o.knoten == stand[k][1])
                return (
                    None,
                    f"Nicht konvergiert: Nach dem Heilen und {RUHE} Ticks Ruhe hat Schlüssel "
                    f"{name(k)} auf {stand[k][1]} den Wert {wert(stand[k][0])}, auf {op.knoten} "
                    f"den Wert {wert(v)}. Total verfügbar heißt: Jeder Knoten antwortet allein, "
                    "und nach dem Heilen gleichen sie sich an.",
                    (anderer, op),
                )
            stand.setdefault(k, (v, str(op.knoten)))
    return {k: v for k, (v, _) in stand.items()}, None, ()


def urteil(history: Sequence[Mapping[str, Any]], isolation: str) -> pruefer.Urteil:
    """Das Urteil über einen Lauf von ``txn-rw-register``: Antworten, die nicht zur Anfrage
    passen, dann die Anomalien der Stufe (mit dem Endstand, wenn die Knoten sich einig sind),
    ob sie sich einig wurden, und die totale Verfügbarkeit; alles, was fehlt, in einem Urteil."""
    ops = operationen(history)
    for op in ops:
        if op.typ == "ok":
            aufruf: Any = op.eingabe
            antwort: Any = op.ausgabe
            falsch = _passt(aufruf, antwort)
            if falsch is not None:
                return pruefer.Urteil(
                    False,
                    f"{_wer(op)}, txn bei t={op.ende}: Die Antwort passt nicht zur Anfrage "
                    f"({falsch}). txn_ok trägt dieselben Mikro-Operationen, nur die Lesen "
                    "ausgefüllt.",
                    (op,),
                )
    stand, nicht_einig, einig_zeugen = endstand(ops, history)
    anomalien = pruefer.transaktionen(history, stufe=isolation, endstand=stand)
    saetze: list[str] = []
    zeugen: list[Operation] = []
    if not anomalien.ok:
        saetze.append(anomalien.erklaerung)
        zeugen += anomalien.zeugen
    if nicht_einig is not None:
        saetze.append(nicht_einig)
        zeugen += einig_zeugen
    verfuegbar = _verfuegbarkeit(ops, history)
    if verfuegbar is not None:
        saetze.append(verfuegbar[0])
        zeugen += verfuegbar[1]
    if not saetze:
        return anomalien
    return pruefer.Urteil(False, " ".join(saetze), tuple(zeugen), angaben=anomalien.angaben)


def _fehler(op: Operation, history: Sequence[Mapping[str, Any]]) -> Any:
    """The ``error`` of the event that ended ``op`` (``[code, text]``), or None."""
    if op.index_ende is None or op.index_ende >= len(history):
        return None
    return history[op.index_ende].get("error")


def _wer(op: Operation) -> str:
    return f"Client {op.client}" if op.client else f"Prozess {op.prozess}"


def _verfuegbarkeit(
    ops: Sequence[Operation], history: Sequence[Mapping[str, Any]]
) -> tuple[str, tuple[Operation, ...]] | None:
    """Total availability: every client transaction answered (a malformed answer is said by
    the form check already), at most ``ABBRUECHE_HOECHSTENS`` of them aborted."""
    eigene = [op for op in ops if not (isinstance(op.prozess, int) and op.prozess >= _SCHLUSS)]
    offen = [
        op
        for op in eigene
        if op.typ == "info"
        and not (isinstance(f := _fehler(op, history), list | tuple) and f[0] == FORMFEHLER)
    ]
    if offen:
        op = offen[0]
        mehr = f" (und {len(offen) - 1} weitere)" if len(offen) > 1 else ""
        code = _fehler(op, history)
        grund = (
            f"bekam Fehler {code[0]}" if isinstance(code, list | tuple) else "bekam keine Antwort"
        )
        return (
            f"Nicht total verfügbar: {_wer(op)}, txn bei t={op.beginn} auf {op.knoten}, {grund}"
            f"{mehr}. Ein Knoten antwortet auf jede Transaktion selbst, auch wenn er die anderen "
            "nicht erreicht.",
            (op,),
        )
    abgebrochen = [op for op in eigene if op.typ == "fail"]
    if len(eigene) >= ABBRUECHE_AB and len(abgebrochen) > ABBRUECHE_HOECHSTENS * len(eigene):
        return (
            f"Zu viele Abbrüche: {len(abgebrochen)} von {len(eigene)} Transaktionen endeten mit "
            f"einem Fehler (erlaubt: höchstens {round(ABBRUECHE_HOECHSTENS * 100)} %).",
            tuple(abgebrochen[:1]),
        )
    return None


#: The challenge's workloads by name (beside ``pysim.cluster.lasten.LASTEN``).
HERAUSFORDERUNG_LASTEN: dict[str, type[Last]] = {TxnRwRegister.name: TxnRwRegister}
