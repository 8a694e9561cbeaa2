"""Verläufe von Hand bauen: eine Operation als Paar von Ereignissen, nach Zeit gemischt."""

from __future__ import annotations

import itertools
import math
from typing import Any

Ereignis = dict[str, Any]


def op(
    prozess: int | str,
    f: str,
    wert: Any,
    beginn: int,
    ende: int | None,
    *,
    key: Any = "x",
    typ: str = "ok",
    eingabe: Any = "wie-wert",
    **extra: Any,
) -> list[Ereignis]:
    """``invoke`` bei ``beginn`` und Abschluss ``typ`` bei ``ende`` (``None``: keiner).

    ``wert`` steht im Abschluss; im ``invoke`` steht ``eingabe`` (ohne Angabe: ``wert``,
    bei ``read`` ``None``).
    """
    if eingabe == "wie-wert":
        eingabe = None if f == "read" else wert
    felder = {"f": f, **({} if key is None else {"key": key}), **extra}
    ereignisse = [
        {"process": prozess, "type": "invoke", "value": eingabe, "time": beginn, **felder}
    ]
    if ende is not None:
        ereignisse.append({"process": prozess, "type": typ, "value": wert, "time": ende, **felder})
    return ereignisse


def verlauf(*ops: list[Ereignis]) -> list[Ereignis]:
    """Die Ereignisse aller ``ops`` nach Zeit; bei gleicher Zeit in der angegebenen Reihenfolge."""
    return sorted((e for o in ops for e in o), key=lambda e: e["time"])


def index(history: list[Ereignis], prozess: int | str, beginn: int) -> int:
    """Der Index des ``invoke`` von ``prozess`` bei ``beginn``."""
    return next(
        i
        for i, e in enumerate(history)
        if e["process"] == prozess and e["type"] == "invoke" and e["time"] == beginn
    )


def alle_reihenfolgen(h: list[Ereignis]) -> bool:
    """Linearisierbar (Modell register)? Durch Ausprobieren jeder Reihenfolge, nur für wenige
    Operationen. Unabhängig von ``pysim.pruefer``: Es paart die Ereignisse selbst, und seine
    einzige Uhr ist die Stelle in ``h`` (Ticks ordnen nichts). Unbestimmte Operationen stehen
    irgendwo nach ihrem Beginn; ganz hinten heißt: nie.
    """
    offen: dict[Any, dict[str, Any]] = {}
    ops: list[dict[str, Any]] = []
    for i, e in enumerate(h):
        if e["type"] == "invoke":
            o = {"start": i, "ende": math.inf, "typ": "info", "e": e, "aus": None}
            offen[e["process"]] = o
            ops.append(o)
        else:
            o = offen.pop(e["process"])
            o["typ"] = e["type"]
            o["aus"] = e.get("value")
            if e["type"] == "ok":
                o["ende"] = i
    teile: dict[Any, list[tuple[float, float, tuple[Any, ...]]]] = {}
    for o in ops:
        f, wert = o["e"]["f"], o["e"].get("value")
        if o["typ"] == "fail" or (f == "read" and o["typ"] != "ok"):
            continue  # did nothing / constrains nothing
        if f == "read":
            wirkung: tuple[Any, ...] = ("r", o["aus"])
        elif f == "write":
            wirkung = ("w", wert)
        else:
            wirkung = ("c" if o["typ"] == "ok" else "c?", wert[0], wert[1])
        teile.setdefault(o["e"].get("key"), []).append((o["start"], o["ende"], wirkung))
    return all(_ein_register(teil) for teil in teile.values())


def _ein_register(teil: list[tuple[float, float, tuple[Any, ...]]]) -> bool:
    for folge in itertools.permutations(teil):
        # Whatever was confirmed before another was invoked comes first. An operation without
        # confirmation may stand anywhere after its start; at the very end it never acted.
        if any(b[1] < a[0] for i, a in enumerate(folge) for b in folge[i + 1 :]):
            continue
        zustand: Any = None
        for _, _, w in folge:
            if w[0] == "r" and zustand != w[1]:
                break
            if w[0] == "w":
                zustand = w[1]
            elif w[0] == "c":
                if zustand != w[1]:
                    break
                zustand = w[2]
            elif w[0] == "c?" and zustand == w[1]:
                zustand = w[2]
        else:
            return True
    return False
