"""Verläufe von Hand bauen: eine Operation als Paar von Ereignissen, nach Zeit gemischt."""

from __future__ import annotations

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
