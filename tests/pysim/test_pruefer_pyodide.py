"""Die Prüfer urteilen in Pyodide (unter Node.js) Wort für Wort wie in CPython."""

from __future__ import annotations

import json

import pytest

from tests.pyodide import PyodideRunner, output_natively, same_in_pyodide

#: Builds its histories itself: only pysim is on Pyodide's path, not the tests.
SKRIPT = """
import json
from pysim.pruefer import (
    broadcast, eindeutige_ids, kafka_log, kennzahlen, linearisierbar, zaehler,
)


def op(p, f, wert, beginn, ende, key="x", typ="ok", eingabe="=", **extra):
    eingabe = (None if f == "read" else wert) if eingabe == "=" else eingabe
    felder = {"f": f, **({} if key is None else {"key": key}), **extra}
    e = [{"process": p, "type": "invoke", "value": eingabe, "time": beginn, **felder}]
    if ende is not None:
        e.append({"process": p, "type": typ, "value": wert, "time": ende, **felder})
    return e


def verlauf(*ops):
    return sorted((e for o in ops for e in o), key=lambda e: e["time"])


def zeige(u):
    print(json.dumps([u.ok, u.entschieden, u.erklaerung, [o.index for o in u.zeugen]],
                     ensure_ascii=False))


register = verlauf(
    op(1, "write", 1, 0, 10), op(2, "write", 2, 0, 10), op(3, "read", 2, 11, 12),
    op(4, "read", 1, 13, 14), op(5, "cas", [1, 3], 2, None), op(6, "write", {"a": [1]}, 3, 4, key="y"),
    op(7, "read", {"a": [1]}, 5, 6, key="y"), op(8, "read", None, 0, 1, key="z"),
)
zeige(linearisierbar(register))
zeige(linearisierbar([e for e in register if e["key"] != "x"]))
viele = [op(p, "write", p, 0, 100) for p in range(1, 15)]
viele += [op(p, "read", p, 101 + p, 101 + p) for p in range(1, 15)]
zeige(linearisierbar(verlauf(*viele), max_schritte=5000))
zeige(eindeutige_ids(verlauf(op(1, "generate", 7, 0, 2, key=None), op(2, "generate", 7, 1, 3, key=None))))
zeige(broadcast(verlauf(
    op(1, "broadcast", 1, 0, 2, key=None), op(2, "broadcast", 2, 1, 3, key=None),
    op(3, "read", [1, 2], 20, 21, key=None, node="n1"), op(4, "read", [1, 9], 20, 22, key=None, node="n2"),
), geheilt=10))
zeige(zaehler(verlauf(
    op(1, "add", 5, 0, None, key=None), op(2, "add", 5, 0, None, key=None), op(3, "read", 7, 20, 21, key=None),
)))
zeige(kafka_log(verlauf(
    op(1, "send", 0, 0, 1, key="k1", eingabe="a"), op(2, "send", 1, 0, 2, key="k1", eingabe="b"),
    op(3, "poll", {"k1": [[1, "b"]]}, 5, 6, key=None, eingabe={"k1": 0}),
    op(4, "commit_offsets", None, 7, 8, key=None, eingabe={"k1": 1}),
    op(4, "list_committed_offsets", {"k1": 0}, 9, 10, key=None, eingabe=["k1"]),
)))
print(kennzahlen(register, nachrichten=40))
"""


def test_skript_laeuft_nativ() -> None:
    zeilen = output_natively(SKRIPT).splitlines()
    urteile = [json.loads(z) for z in zeilen[:-1]]
    assert [u[0] for u in urteile] == [False, True, False, False, False, False, False]
    assert urteile[2][1] is False  # the budget stopped it
    assert zeilen[-1].startswith("8 Operationen: 7 ok, 0 fehlgeschlagen, 1 unbestimmt")


@pytest.mark.pyodide
def test_urteile_gleich_in_cpython_und_pyodide(pyodide: PyodideRunner) -> None:
    same_in_pyodide(pyodide, "pruefer", SKRIPT)
