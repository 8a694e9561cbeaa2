"""Nodes the tests share, as the reader would write them (source text) and as classes:
broadcast nodes, one that forwards without retries (loses values in a partition) and one that
asks each neighbour until it answers (passes); lease nodes for ``lease-kv``, one that takes the
lease but sends no token (loses an update) and one that fences every request (passes)."""

from __future__ import annotations

from typing import Any

from pysim.cluster import Knoten, Nachricht

#: The echo challenge's solution: every echo answered with its text.
ECHO = """\
class EchoKnoten(Knoten):
    def bei_echo(self, nachricht):
        body = {"type": "echo_ok", "echo": nachricht["echo"]}
        self.antworte(nachricht, body)
"""

#: What every broadcast node here starts with: its values, its neighbours, and a read.
BROADCAST_KOPF = """\
    def beim_start(self):
        self.werte, self.nachbarn = set(), []

    def bei_topology(self, nachricht):
        self.nachbarn = nachricht["topology"][self.id]
        self.antworte(nachricht, {"type": "topology_ok"})

    def bei_read(self, nachricht):
        body = {"type": "read_ok", "messages": sorted(self.werte)}
        self.antworte(nachricht, body)
"""

#: Forwards each new value once to its neighbours and forgets about it.
WEITERSAGER = (
    "class Weitersager(Knoten):\n"
    + BROADCAST_KOPF
    + """
    def bei_broadcast(self, n):
        if "msg_id" in n.body:
            self.antworte(n, {"type": "broadcast_ok"})
        if n["message"] not in self.werte:
            self.werte.add(n["message"])
            for k in self.nachbarn:
                self.sende(k, {"type": "broadcast", "message": n["message"]})
"""
)

#: Asks neighbour ``k`` until it confirms ``wert``: the retry of a broadcast that passes.
VERTEILE = """\
    async def verteile(self, k, wert):
        while True:
            try:
                await self.frage(k, {"type": "broadcast", "message": wert}, timeout=10)
                return
            except KeineAntwort:
                pass
"""

#: The same, asking every neighbour until it answers.
MIT_WIEDERHOLUNG = WEITERSAGER.replace(
    """            for k in self.nachbarn:
                self.sende(k, {"type": "broadcast", "message": n["message"]})
""",
    """            for k in self.nachbarn:
                self.spaeter(0, lambda k=k: self.verteile(k, n["message"]))

"""
    + VERTEILE,
)
assert MIT_WIEDERHOLUNG != WEITERSAGER


#: ``lease-kv``: every request under a fresh lease; ``{token}`` is where the token goes.
_LEASE_VORLAGE = """\
class LeaseKnoten(Knoten):
    async def bearbeite(self, nachricht):
        antwort = await self.ausfuehren(nachricht.body)
        self.antworte(nachricht, antwort)

    bei_read = bei_write = bei_cas = bearbeite

    async def ausfuehren(self, body):
        try:
            lease = await self.frage("lease", {"type": "acquire"})
        except FehlerAntwort as fehler:
            return fehler.body
        except KeineAntwort:
            return {"type": "error", "code": 11, "text": "keine Lease"}
        marke = {token}
        key = body["key"]
        try:
            if body["type"] == "write":
                anfrage = {"type": "write", "key": key, "value": body["value"]}
                return (await self.frage("fence-kv", {**anfrage, **marke})).body
            gelesen = (await self.frage("fence-kv", {"type": "read", "key": key, **marke})).body
            if body["type"] == "read":
                return gelesen
            if gelesen["value"] != body["from"]:
                return {"type": "error", "code": 22, "text": "anderer Wert"}
            anfrage = {"type": "write", "key": key, "value": body["to"], **marke}
            await self.frage("fence-kv", anfrage)
            return {"type": "cas_ok"}
        except FehlerAntwort as fehler:
            return fehler.body
        except KeineAntwort:
            return {"type": "error", "code": 0, "text": "keine Antwort"}
"""
#: Takes the lease before each request, but the store never sees a token.
LEASE_OHNE_TOKEN = _LEASE_VORLAGE.replace("{token}", "{}")
#: Sends the lease's token with every read and write: the store refuses an older holder.
LEASE_MIT_TOKEN = _LEASE_VORLAGE.replace("{token}", '{"token": lease["token"]}')
#: Sends its own clock as the token: two holders in one tick send the same one.
LEASE_UHR_ALS_TOKEN = _LEASE_VORLAGE.replace("{token}", '{"token": self.uhr()}')
#: Tokens as they should be, but a write without an answer becomes "surely not written".
LEASE_TIMEOUT_ALS_11 = LEASE_MIT_TOKEN.replace(
    '"code": 0, "text": "keine Antwort"', '"code": 11, "text": "nicht geschrieben"'
)
assert LEASE_TIMEOUT_ALS_11 != LEASE_MIT_TOKEN


def klasse(quelle: str) -> type[Knoten]:
    """The node class that ``quelle`` defines (run as the reader's code is)."""
    namensraum: dict[str, Any] = {"__name__": "knoten_beispiele"}
    exec("from pysim.cluster import *\n" + quelle, namensraum)
    return next(
        v
        for v in namensraum.values()
        if isinstance(v, type) and issubclass(v, Knoten) and v is not Knoten
    )


#: Broadcast without retries: a value sent into a partition is gone.
Flut = klasse(WEITERSAGER)
#: Broadcast that asks each neighbour until it answers.
MitWiederholung = klasse(MIT_WIEDERHOLUNG)


#: A G-counter's methods but its start and its add: read, tell the others, merge by max.
_GCOUNTER_REST = """\
    def bei_read(self, nachricht):
        wert = sum(self.stand.values())
        self.antworte(nachricht, {"type": "read_ok", "value": wert})

    def verbreite(self):
        for k in self.knoten:
            if k != self.id:
                self.sende(k, {"type": "stand", "stand": dict(self.stand)})

    def bei_stand(self, nachricht):
        for k, n in nachricht["stand"].items():
            self.stand[k] = max(self.stand.get(k, 0), n)
"""

#: A G-counter that tells the others its state only when an add arrives (lesson 11, Übung 4).
GCOUNTER_BEI_ADD = (
    """\
    def beim_start(self):
        self.stand = {}

    def bei_add(self, nachricht):
        self.stand[self.id] = self.stand.get(self.id, 0) + nachricht["delta"]
        self.antworte(nachricht, {"type": "add_ok"})
        self.verbreite()

"""
    + _GCOUNTER_REST
)
#: The same counter, but it sends its state every 5 ticks (the lesson's solution).
GCOUNTER_ALLE_5_TICKS = (
    """\
    def beim_start(self):
        self.stand = {}
        self.alle(5, self.verbreite)

    def bei_add(self, nachricht):
        self.stand[self.id] = self.stand.get(self.id, 0) + nachricht["delta"]
        self.antworte(nachricht, {"type": "add_ok"})

"""
    + _GCOUNTER_REST
)
NUR_BEI_ADD = klasse("class NurBeiAdd(Knoten):\n" + GCOUNTER_BEI_ADD)
ALLE_5_TICKS = klasse("class Verbreiter(Knoten):\n" + GCOUNTER_ALLE_5_TICKS)


class Arbeitsspeicher(Knoten):
    """A register on each node that acknowledges writes and keeps them in memory only: with
    one node linearizable until it crashes, with three not."""

    def beim_start(self) -> None:
        self.werte: dict[Any, Any] = {}

    def bei_write(self, n: Nachricht) -> None:
        self.werte[n["key"]] = n["value"]
        self.antworte(n, {"type": "write_ok"})

    def bei_read(self, n: Nachricht) -> None:
        if n["key"] in self.werte:
            self.antworte(n, {"type": "read_ok", "value": self.werte[n["key"]]})
        else:
            self.antworte(n, {"type": "error", "code": 20, "text": "unbekannt"})

    def bei_cas(self, n: Nachricht) -> None:
        if self.werte.get(n["key"]) != n["from"]:
            self.antworte(n, {"type": "error", "code": 22, "text": "anderer Wert"})
            return
        self.werte[n["key"]] = n["to"]
        self.antworte(n, {"type": "cas_ok"})


class Endlos(Knoten):
    """A handler that never ends; catching ``Exception`` does not swallow the loop budget."""

    def bei_broadcast(self, n: Any) -> None:
        try:
            while True:
                pass
        except Exception:  # the limit is no Exception: this does not swallow it
            pass


#: A register's operations on ``self.werte`` (Maelstrom's lin-kv semantics), as a method of a
#: node: the one body the register examples of the tests share.
REGISTER_ANWENDEN = """\
    def anwenden(self, body):
        key, typ = body["key"], body["type"]
        if typ == "write":
            self.werte[key] = body["value"]
            return {"type": "write_ok"}
        if key not in self.werte:
            return {"type": "error", "code": 20, "text": "unbekannt"}
        if typ == "read":
            return {"type": "read_ok", "value": self.werte[key]}
        if self.werte[key] != body["from"]:
            return {"type": "error", "code": 22, "text": "anderer Wert"}
        self.werte[key] = body["to"]
        return {"type": "cas_ok"}
"""

#: A follower asks the leader ``LEITER`` and keeps what came back as ``antwort``; a silent
#: leader is the indefinite error 0 (a block inside a handler).
FRAGE_LEITER = """\
            try:
                antwort = (await self.frage(self.LEITER, nachricht.body)).body
            except FehlerAntwort as fehler:
                antwort = fehler.body
            except KeineAntwort:
                antwort = {"type": "error", "code": 0, "text": "Leader schweigt"}
"""

#: A follower forwards an operation to the leader ``LEITER`` and answers with what came back;
#: a silent leader is the indefinite error 0 (the forwarding of "Register mit Leader").
REGISTER_WEITERLEITEN = (
    """\
    async def bearbeite(self, nachricht):
        if self.id == self.LEITER:
            antwort = self.anwenden(nachricht.body)
        else:
"""
    + FRAGE_LEITER
    + """\
        self.antworte(nachricht, antwort)

    bei_read = bei_write = bei_cas = bearbeite
"""
)

#: Register with a fixed leader n1 that keeps its values in ``speicher`` and answers a silent
#: leader with the indefinite error 0 (the solution of "Register mit Leader", stage 2).
REGISTER_LEITER = (
    """\
class Register(Knoten):
    LEITER = "n1"

    def beim_start(self):
        self.werte = self.speicher

"""
    + REGISTER_ANWENDEN
    + "\n"
    + REGISTER_WEITERLEITEN
)


def geaendert(code: str, alt: str, neu: str) -> str:
    """``code`` with the one place ``alt`` written as ``neu`` (a node "like that one, but …");
    ``alt`` must stand in ``code`` exactly once."""
    assert code.count(alt) == 1, alt
    return code.replace(alt, neu)
