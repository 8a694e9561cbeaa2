"""One whole cluster run (faults, shrinking, replay, picture) is the same in CPython and in
Pyodide (under Node.js), byte for byte."""

from __future__ import annotations

import json

import pytest

from tests.pyodide import PyodideRunner, run_natively

LAUF = """
import hashlib, json
from pysim.cluster import Broadcast, Knoten, KeineAntwort, lauf
from pysim.cluster.bild import raumzeit
from pysim.cluster.lauf import verkleinere

class Flut(Knoten):
    def beim_start(self):
        self.werte, self.nachbarn = set(), []
    def bei_topology(self, n):
        self.nachbarn = n["topology"][self.id]
        self.antworte(n, {"type": "topology_ok"})
    def bei_broadcast(self, n):
        if "msg_id" in n.body:
            self.antworte(n, {"type": "broadcast_ok"})
        if n["message"] not in self.werte:
            self.werte.add(n["message"])
            for k in self.nachbarn:
                self.sende(k, {"type": "broadcast", "message": n["message"]})
    def bei_read(self, n):
        self.antworte(n, {"type": "read_ok", "messages": sorted(self.werte)})

def fehlt(l):
    ok = {e["value"] for e in l.geschichte if e["type"] == "ok" and e["f"] == "broadcast"}
    return any(ok - set(e["value"]) for e in l.geschichte
               if e["type"] == "ok" and e["f"] == "read" and e["process"] >= 10_000)

start = lauf(Flut, Broadcast(), knoten=5, seed=7, dauer=120, stoerungen="zufall",
             arten=("teilung", "absturz", "pause", "uhr", "bruecke"), verlust=0.05)
klein = verkleinere(start, fehlt)
print(json.dumps({
    "kennung": start.kennung,
    "geschichte": hashlib.sha256(json.dumps(start.geschichte).encode()).hexdigest(),
    "nachrichten": start.cluster.zaehle(),
    "klein": klein.kennung,
    "bild": hashlib.sha256(raumzeit(klein).svg.encode()).hexdigest(),
}))
"""


def test_the_run_fails_and_shrinks_natively() -> None:
    [ergebnis] = run_natively([{"session": "c", "code": LAUF, "label": "lauf"}])
    assert ergebnis["error"] is None, ergebnis["error"]
    daten = json.loads("".join(chunk for _, chunk in ergebnis["output"]))
    assert daten["nachrichten"]["verloren"] > 0
    assert "/o" in daten["klein"]


@pytest.mark.pyodide
def test_a_cluster_run_is_the_same_in_cpython_and_pyodide(pyodide: PyodideRunner) -> None:
    cells = [{"session": "c", "code": LAUF, "label": "lauf"}]
    [theirs] = pyodide.run([{"name": "cluster", "cells": cells}])["pages"][0]["results"]
    [ours] = run_natively(cells)
    assert ours["error"] is None, ours["error"]
    assert theirs == ours
