"""A Raft run with faults (history, verdict, picture) is the same in CPython and in Pyodide
(under Node.js), byte for byte."""

from __future__ import annotations

import json

import pytest

from tests.pyodide import PyodideRunner, output_natively, same_in_pyodide

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


KONSOLE = """
import hashlib, json
from pysim.raft import pruefe_wahl
from pysim.raft.konsole import RaftKonsole

k = RaftKonsole(knoten=5, seed=3)
for zeile in [
    "tick 50", "write x 1", "tick 5", "partition n1 n2", "write x 2 as b",
    "tick 60", "pause n3 20", "absturz n4", "tick 30", "heal", "neustart n4",
    "tick 40", "read x", "tick 10", "status", "history", "urteil",
    "partition n9", "hilfe",
]:
    r = k.run(zeile)
    print(json.dumps([r.ok, r.text, hashlib.sha256((r.svg or "").encode()).hexdigest()]))
print(json.dumps(k.complete("absturz ")))

def nur_laenge(a):
    return (a.term == a.mein_term and a.meine_stimme in (None, a.kandidat)
            and a.letzter_index >= a.mein_letzter_index)

befund = pruefe_wahl(nur_laenge)
print(json.dumps([befund.ok, str(befund), len(befund.bild().svg)]))
"""


def test_the_run_works_natively() -> None:
    daten = json.loads(output_natively(LAUF))
    assert daten["urteil"] is True
    assert any("Leader" in text for _, text in daten["protokoll"])


@pytest.mark.pyodide
def test_a_raft_run_is_the_same_in_cpython_and_pyodide(pyodide: PyodideRunner) -> None:
    same_in_pyodide(pyodide, "raft", LAUF)


def test_the_console_and_the_checker_work_natively() -> None:
    zeilen = output_natively(KONSOLE).splitlines()
    antworten = [json.loads(z) for z in zeilen[:19]]
    assert [ok for ok, _, _ in antworten].count(False) == 1  # partition n9
    befund = json.loads(zeilen[-1])
    assert befund[0] is False and befund[1].startswith("Seed 18: ")


@pytest.mark.pyodide
def test_the_console_and_the_checker_are_the_same_in_pyodide(pyodide: PyodideRunner) -> None:
    same_in_pyodide(pyodide, "raft-konsole", KONSOLE)
