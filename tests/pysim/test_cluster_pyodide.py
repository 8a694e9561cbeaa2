"""One whole cluster run (faults, shrinking, replay, picture) is the same in CPython and in
Pyodide (under Node.js), byte for byte."""

from __future__ import annotations

import json

import pytest

from tests.pyodide import PyodideRunner, output_natively, same_in_pyodide
from tests.pysim.knoten_beispiele import LEASE_MIT_TOKEN, WEITERSAGER

LAUF_VORLAGE = """
import hashlib, json
from pysim.cluster import Broadcast, Knoten, KeineAntwort, lauf
from pysim.cluster.bild import raumzeit
from pysim.cluster.lauf import verkleinere

{weitersager}
def fehlt(l):
    ok = {e["value"] for e in l.geschichte if e["type"] == "ok" and e["f"] == "broadcast"}
    return any(ok - set(e["value"]) for e in l.geschichte
               if e["type"] == "ok" and e["f"] == "read" and e["process"] >= 10_000)

start = lauf(Weitersager, Broadcast(), knoten=5, seed=7, dauer=120, stoerungen="zufall",
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
LAUF = LAUF_VORLAGE.replace("{weitersager}", WEITERSAGER)


def test_the_run_fails_and_shrinks_natively() -> None:
    daten = json.loads(output_natively(LAUF))
    assert daten["nachrichten"]["verloren"] > 0
    assert "/o" in daten["klein"]


@pytest.mark.pyodide
def test_a_cluster_run_is_the_same_in_cpython_and_pyodide(pyodide: PyodideRunner) -> None:
    same_in_pyodide(pyodide, "cluster", LAUF)


GEZIELT = (
    """
import hashlib, json
from pysim.cluster import FehlerAntwort, KeineAntwort, Knoten, LeaseRegister, lauf
from pysim.cluster.lauf import lauf_aus_kennung
"""
    + LEASE_MIT_TOKEN
    + """
erster = lauf(LeaseKnoten, LeaseRegister(), seed=4, stoerungen="zufall",
              arten=("inhaber", "bestaetigung", "pause", "uhr", "absturz"))
wieder = lauf_aus_kennung(LeaseKnoten, LeaseRegister(), erster.kennung)
print(erster.kennung)
print(wieder.geschichte == erster.geschichte, erster.last.pruefe(erster).ok)
print(hashlib.sha256(json.dumps(erster.geschichte).encode()).hexdigest())
try:
    erster.cluster._plaetze["n1"].instanz._netz.cluster
except AttributeError as e:
    print(str(e)[:60])
"""
)


@pytest.mark.pyodide
def test_targeted_faults_and_the_node_s_gate_are_the_same_in_pyodide(
    pyodide: PyodideRunner,
) -> None:
    text = same_in_pyodide(pyodide, "gezielt", GEZIELT)
    assert "@inhaber" in text or "@bestaetigung" in text
    assert "True True" in text
    assert "Ein Knoten sieht den Cluster nur durch seine eigenen" in text


ENDLOS = """
import sys
from pysim.cluster import Broadcast, Knoten, LaufAbgebrochen, grenze, lauf

class Endlos(Knoten):
    def bei_broadcast(self, n):
        while True:
            pass

try:
    lauf(Endlos, Broadcast(), knoten=3, seed=1)
except LaufAbgebrochen as e:
    print(str(e).split(": Sein")[0])
monitoring = getattr(sys, "monitoring", None)
werkzeug = grenze._WERKZEUG
# Outside a run nothing counts: other cells' loops pay nothing.
print(werkzeug is None or monitoring.get_events(werkzeug) == 0)
"""


@pytest.mark.pyodide
def test_an_endless_handler_ends_alike_in_pyodide_and_counts_only_while_a_run_runs(
    pyodide: PyodideRunner,
) -> None:
    text = same_in_pyodide(pyodide, "endlos", ENDLOS, only_output=True)
    assert text == "Der Handler bei_broadcast von n1 endet nicht\nTrue\n"


AUSGABEN = """
import sys
from pysim.cluster import Echo, Knoten, lauf

class Redselig(Knoten):
    def beim_start(self):
        print("start", self.id, end="")

    async def bei_echo(self, nachricht):
        print("echo", nachricht["echo"], file=sys.stderr)
        await self.warte(1)
        self.notiz("x" * 400)
        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})

vorher = sys.stdout
ergebnis = lauf(Redselig, Echo(), knoten=2, seed=3, dauer=8)
print(sys.stdout is vorher)
for zeile in ergebnis.protokoll:
    print(zeile)
"""


@pytest.mark.pyodide
def test_what_a_node_prints_is_kept_in_the_run_alike_in_pyodide(pyodide: PyodideRunner) -> None:
    text = same_in_pyodide(pyodide, "ausgaben", AUSGABEN, only_output=True)
    # Nothing the nodes printed reached the cell's own output: only the cell's lines.
    assert text.startswith("True\nt=0 n1: start n1\nt=0 n2: start n2\n"), text
    assert "n1: echo hallo 0\n" in text and "(gekürzt: 400 Zeichen, gezeigt 300)" in text


PROTOKOLL = """
import hashlib, json
from pysim.cluster import Broadcast, Knoten, KeineAntwort, lauf

class Mehrheit(Knoten):
    def beim_start(self):
        self.werte = set()
        self.rolle = "leader" if self.id == "n1" else "follower"

    def bei_topology(self, n):
        self.antworte(n, {"type": "topology_ok"})

    async def bei_broadcast(self, n):
        if "msg_id" in n.body:
            self.antworte(n, {"type": "broadcast_ok"})
        wert = n["message"]
        if wert in self.werte:
            return
        self.werte.add(wert)
        andere = [k for k in self.knoten if k != self.id]
        body = {"type": "broadcast", "message": wert}
        try:
            await self.mehrheit([self.frage(k, body, timeout=12) for k in andere])
        except KeineAntwort:
            welches, _ = await self.eines(self.warte(7), self.frage(andere[0], body))
            self.notiz(f"keine Mehrheit für {wert}, dann {welches}")

    def bei_read(self, n):
        self.antworte(n, {"type": "read_ok", "messages": sorted(self.werte)})

    def zustand(self):
        return {"rolle": self.rolle, "werte": len(self.werte)}

def ein_leader(z):
    return sum(1 for s in z.values() if s["rolle"] == "leader") <= 1 or "zwei Leader"

r = lauf(Mehrheit, Broadcast(), knoten=5, seed=4, dauer=80,
         stoerungen="10:isoliere:[leader]|rest;30:heile;35:langsam:n2|n3.n4:6-11;"
                    "50:absturz:[leader];60:neustart:[leader];70:pause:[chef]",
         invarianten={"höchstens ein Leader": ein_leader})
print(json.dumps({
    "kennung": r.kennung,
    "geschichte": hashlib.sha256(json.dumps(r.geschichte).encode()).hexdigest(),
    "protokoll": [str(z) for z in r.protokoll],
    "ereignisse": [e.text for e in r.cluster.ereignisse],
    "zustaende": r.zustaende,
    "verletzung": str(r.verletzung),
    "nachrichten": r.cluster.zaehle(),
}, sort_keys=True))
"""


def test_a_protocol_run_with_majorities_roles_slow_links_and_invariants_runs_natively() -> None:
    daten = json.loads(output_natively(PROTOKOLL))
    assert "n1 stürzt ab (Rolle leader)" in daten["ereignisse"]
    assert any("Leitung zwischen n2 und n3 n4 langsam" in e for e in daten["ereignisse"])
    assert any("keine Mehrheit" in z for z in daten["protokoll"])
    assert daten["verletzung"] == "None"


@pytest.mark.pyodide
def test_a_protocol_run_is_the_same_in_cpython_and_pyodide(pyodide: PyodideRunner) -> None:
    same_in_pyodide(pyodide, "protokoll", PROTOKOLL)
