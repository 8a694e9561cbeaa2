"""Dasselbe Konsolen-Skript gibt in CPython und in Pyodide (unter Node.js) denselben Text und
dieselben Bilder, Byte für Byte."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.pyodide import PyodideRunner, run_natively
from tests.pysim.konsolen import UEBUNG_1

LOG_SKRIPT = [
    "create topic orders partitions 3",
    'produce orders key=customer-7 {"order":61,"total":12.40}',
    'produce orders key=order-61 {"order":61,"event":"placed","preis":0.1}',
    'produce orders {"order":63,"text":"Käse „alt“ <b>&"}',
    "produce orders 1.5e3",
    "read orders",
    "consume orders group billing from-beginning",
    "consume orders group billing as billing-2",
    "consume orders group billing as billing-3 no-commit",
    "consume orders group billing as billing-4",
    "consume orders group analytics from-beginning max 2",
    "offsets orders",
    "describe group billing",
    "groups",
    "reset group analytics to 0",
    "topics",
    "hilfe",
    "hilfe consume",
    "consum orders",
    "consume orders",
    'produce orders {"order":61,}',
    "produce orders [1,2,]",
    'produce orders {"a" 1}',
    "produce orders {'a':1}",
    'produce orders {"a":"\\x"}',
    'produce orders {"a":"\\u12"}',
    'produce orders "offen',
    "produce orders NaN",
    "update orders",
    "describe group bill",
    "create topic x partitions 99",
    "clear",
]

QUEUE_SKRIPT = [
    *UEBUNG_1,
    "status",
    "ack 1",
    "ack 1",
    "tick 5",
    "status",
    "ack 9",
    "recieve",
]

REPLIK_SKRIPT = [
    "write x 1",
    "read x from n2",
    "lag n3 5",
    "sync 1",
    "write x „neu“",
    "write y käse",
    "partition n1",
    "write x 3",
    "failover",
    "write x 4 to n1 as A",
    "heal n1",
    "tick 6",
    "history",
    "status",
    "read x from n9",
]

VORSPANN = """\
from pysim.console import LogKonsole, QueueKonsole
from pysim.replikation.konsole import ReplikKonsole

konsole = LogKonsole()
queue = QueueKonsole(max_versuche=2)
replik = ReplikKonsole()


def zeigen(k, zeilen):
    for zeile in zeilen:
        print(k.run(zeile).to_json())
        print(json.dumps(k.complete(zeile[:9]), ensure_ascii=False))
    print(k.state_dump())
import json
"""


def zellen() -> list[dict[str, Any]]:
    """Ein Vorspann, dann je Zelle ein paar Befehle (die Ausgabe einer Zelle ist begrenzt)."""
    ergebnis = [{"session": "konsole", "code": VORSPANN, "label": "vorspann"}]
    for name, skript in (
        ("konsole", LOG_SKRIPT),
        ("queue", QUEUE_SKRIPT),
        ("replik", REPLIK_SKRIPT),
    ):
        for start in range(0, len(skript), 4):
            teil = skript[start : start + 4]
            ergebnis.append(
                {
                    "session": "konsole",
                    "code": f"zeigen({name}, {teil!r})",
                    "label": f"{name}-{start}",
                }
            )
    return ergebnis


def nativ(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return run_natively(cells)


def test_zellen_laufen_nativ() -> None:
    ergebnisse = nativ(zellen())
    for e in ergebnisse:
        assert e["error"] is None, e["error"]
        assert not e["truncated"]
    texte = "".join(chunk for e in ergebnisse for _, chunk in e["output"])
    zeilen = [json.loads(z) for z in texte.splitlines() if z.startswith('{"ok"')]
    assert len(zeilen) == len(LOG_SKRIPT) + len(QUEUE_SKRIPT) + len(REPLIK_SKRIPT)
    assert zeilen[1]["text"].startswith("→ Partition 1, Offset 0")
    assert "Dieses Komma ist zu viel" in zeilen[LOG_SKRIPT.index("produce orders [1,2,]")]["text"]


@pytest.mark.pyodide
def test_konsole_gleich_in_cpython_und_pyodide(pyodide: PyodideRunner) -> None:
    cells = zellen()
    antwort = pyodide.run([{"name": "konsole", "cells": cells}])
    assert antwort["python"].startswith("3.14")
    theirs = antwort["pages"][0]["results"]
    ours = nativ(cells)
    for cell, a, b in zip(cells, ours, theirs, strict=True):
        assert a["error"] is None, a["error"]
        assert b == a, f"{cell['label']}: Pyodide weicht von CPython ab"
