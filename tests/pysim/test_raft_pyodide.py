"""A Raft run with faults (history, verdict, picture) is the same in CPython and in Pyodide
(under Node.js), byte for byte."""

from __future__ import annotations

import json

import pytest

from tests.pyodide import PyodideRunner, run_natively

LAUF = """
import hashlib, json
from pysim.pruefer import linearisierbar
from pysim.raft import RaftSim

sim = RaftSim(5, seed=11)
sim.tick(60)
alt = sim.leader()
sim.trenne([alt, "n1" if alt != "n1" else "n2"])
sim.schreibe("c1", 1, an=alt)
sim.tick(70)
sim.schreibe("c2", 2)
sim.absturz(sim.leader())
sim.tick(80)
sim.heile()
sim.pausiere("n3", 25)
sim.lies("c3")
sim.tick(120)
print(json.dumps({
    "verlauf": hashlib.sha256(json.dumps(sim.verlauf).encode()).hexdigest(),
    "protokoll": sim.protokoll,
    "urteil": linearisierbar(sim.verlauf).ok,
    "gesendet": sim.gesendet,
    "bild": hashlib.sha256(sim.bild().svg.encode()).hexdigest(),
}))
"""


def test_the_run_works_natively() -> None:
    [ergebnis] = run_natively([{"session": "r", "code": LAUF, "label": "raft"}])
    assert ergebnis["error"] is None, ergebnis["error"]
    daten = json.loads("".join(chunk for _, chunk in ergebnis["output"]))
    assert daten["urteil"] is True
    assert any("Leader" in text for _, text in daten["protokoll"])


@pytest.mark.pyodide
def test_a_raft_run_is_the_same_in_cpython_and_pyodide(pyodide: PyodideRunner) -> None:
    cells = [{"session": "r", "code": LAUF, "label": "raft"}]
    [theirs] = pyodide.run([{"name": "raft", "cells": cells}])["pages"][0]["results"]
    [ours] = run_natively(cells)
    assert ours["error"] is None, ours["error"]
    assert theirs == ours
