"""Wrong nodes a learner would plausibly write for the challenges (issue 47), as data.

Each ``WrongNode`` is a node's source text as a reader writes it (the challenge gives it
everything of ``pysim.cluster`` without an import), with the ids of the challenge stages it
must fail (the ``id`` of their ``herausforderung`` fence) and why it is wrong. ``listed``
marks the designs issue 47 names; the others are further wrong designs of the same stages.

``benchmarks/bench_challenges.py`` runs every one of them against its stages, with the
pages' solutions and the pages' own ``--- fehlversuch`` sections, and prints which pass
"Prüfen" today; ``tests/lessonkit/test_wrong_nodes.py`` keeps the list sound (every node
loads, every stage it names exists). Once the checker and the nemesis of issue 47 are
merged, each of them becomes a ``--- fehlversuch`` of its stages, proved at build time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.pysim.knoten_beispiele import (
    BROADCAST_KOPF,
    ECHO,
    FRAGE_LEITER,
    GCOUNTER_ALLE_5_TICKS,
    GCOUNTER_BEI_ADD,
    REGISTER_ANWENDEN,
    REGISTER_LEITER,
    REGISTER_WEITERLEITEN,
    VERTEILE,
    geaendert,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"


@dataclass(frozen=True)
class WrongNode:
    """A wrong design: its source, the stages (challenge ids) it must fail, and why."""

    name: str
    challenges: tuple[str, ...]
    why: str
    code: str
    #: One of the designs issue 47 lists under "The designs that must fail".
    listed: bool = False


# --- Echo -----------------------------------------------------------------------------------

ECHO_WRONG_TYPE = "# answers with the request's own type: echo instead of echo_ok\n" + geaendert(
    ECHO, '"type": "echo_ok"', '"type": "echo"'
)

# --- Unique IDs -------------------------------------------------------------------------------

IDS_SNOWFLAKE = """\
# Snowflake style: clock, node, a sequence that starts again in every tick;
# a clock that jumps back repeats a tick and its sequence
class Snowflake(Knoten):
    def beim_start(self):
        self.tick, self.folge = None, 0

    def bei_generate(self, nachricht):
        jetzt = self.uhr()
        if jetzt != self.tick:
            self.tick, self.folge = jetzt, 0
        self.folge += 1
        nummer = f"{jetzt}-{self.id}-{self.folge}"
        self.antworte(nachricht, {"type": "generate_ok", "id": nummer})
"""

IDS_CLOCK_TIMES_NODE = """\
# a number from the clock and the node's index: two requests in one tick collide
class Stempel(Knoten):
    def bei_generate(self, nachricht):
        nummer = self.uhr() * 10 + self.knoten.index(self.id)
        self.antworte(nachricht, {"type": "generate_ok", "id": nummer})
"""

IDS_BLOCK_RESUMED_WRONG = """\
# stores its counter only every 5th id, and after a restart goes on from there
class Zaehler(Knoten):
    def beim_start(self):
        self.vergeben = self.speicher.get("vergeben", 0)

    def bei_generate(self, nachricht):
        self.vergeben += 1
        if self.vergeben % 5 == 0:
            self.speicher["vergeben"] = self.vergeben
        nummer = f"{self.id}-{self.vergeben}"
        self.antworte(nachricht, {"type": "generate_ok", "id": nummer})
"""

IDS_SEEDED_RANDOM = """\
# random ids from a generator seeded with the node's name: a restart repeats them
import random


class Zufall(Knoten):
    def beim_start(self):
        self.zufall = random.Random(self.id)

    def bei_generate(self, nachricht):
        nummer = f"{self.id}-{self.zufall.getrandbits(20)}"
        self.antworte(nachricht, {"type": "generate_ok", "id": nummer})
"""

# --- Broadcast --------------------------------------------------------------------------------


def _knoten(kommentar: str, klasse: str, *teile: str) -> str:
    """A node class ``klasse`` made of ``teile`` (its methods' source), below ``kommentar``,
    which says what is wrong with it."""
    return kommentar + f"class {klasse}(Knoten):\n" + "".join(teile)


#: A broadcast handler's start: answer, keep a new value, then for each neighbour k …
_BROADCAST_NEW_VALUE = """
    def bei_broadcast(self, nachricht):
        self.antworte(nachricht, {"type": "broadcast_ok"})
        wert = nachricht["message"]
        if wert in self.werte:
            return
        self.werte.add(wert)
        for k in self.nachbarn:
"""

BROADCAST_KEEPS_BODY = """\
# keeps every request's whole body instead of its number
class Verteiler(Knoten):
    def beim_start(self):
        self.werte = []

    def bei_topology(self, nachricht):
        self.antworte(nachricht, {"type": "topology_ok"})

    def bei_broadcast(self, nachricht):
        self.werte.append(nachricht.body)
        self.antworte(nachricht, {"type": "broadcast_ok"})

    def bei_read(self, nachricht):
        self.antworte(nachricht, {"type": "read_ok", "messages": self.werte})
"""

BROADCAST_ONE_HOP = _knoten(
    "# tells its neighbours what its own clients sent, and they tell nobody\n",
    "Verteiler",
    BROADCAST_KOPF,
    """
    def bei_broadcast(self, nachricht):
        self.antworte(nachricht, {"type": "broadcast_ok"})
        self.werte.add(nachricht["message"])
        if nachricht.src.startswith("c"):
            for k in self.nachbarn:
                self.sende(k, {"type": "broadcast", "message": nachricht["message"]})
""",
)

BROADCAST_FULL_SET_ON_NEW = _knoten(
    "# sends the whole set to every neighbour when a new value arrives, no retries:\n"
    "# after the last partition heals, nothing new arrives and nobody sends again\n",
    "Verteiler",
    BROADCAST_KOPF,
    """
    def bei_broadcast(self, nachricht):
        self.antworte(nachricht, {"type": "broadcast_ok"})
        self.neu({nachricht["message"]})

    def bei_gossip(self, nachricht):
        self.neu(set(nachricht["werte"]))

    def neu(self, werte):
        if werte <= self.werte:
            return
        self.werte |= werte
        for k in self.nachbarn:
            self.sende(k, {"type": "gossip", "werte": sorted(self.werte)})
""",
)

BROADCAST_THREE_TRIES = _knoten(
    "# asks each neighbour until it confirms, but gives up after three tries\n",
    "Verteiler",
    BROADCAST_KOPF,
    _BROADCAST_NEW_VALUE,
    """\
            if k != nachricht.src:
                self.spaeter(0, lambda k=k: self.verteile(k, wert))

""",
    geaendert(VERTEILE, "while True:", "for _ in range(3):"),
)

BROADCAST_RETRY_AT_ORIGIN_ONLY = _knoten(
    "# the node a client asked retries until its neighbours confirm; the others\n"
    "# pass a value on once, without retries\n",
    "Verteiler",
    BROADCAST_KOPF,
    _BROADCAST_NEW_VALUE,
    """\
            if k == nachricht.src:
                continue
            if nachricht.src.startswith("c"):
                self.spaeter(0, lambda k=k: self.verteile(k, wert))
            else:
                self.sende(k, {"type": "broadcast", "message": wert})

""",
    VERTEILE,
)

# --- Counter (seq-kv) and the CRDT counter ----------------------------------------------------

_SEQ_LIES = """\
    async def lies(self, key):
        try:
            antwort = await self.frage("seq-kv", {"type": "read", "key": key})
            return antwort["value"]
        except FehlerAntwort:  # 20: never written
            return 0
"""

COUNTER_SHARED_CAS_STALE_READ = (
    """\
# one shared key and cas, but a read takes whatever state seq-kv offers
class Geteilt(Knoten):
"""
    + _SEQ_LIES
    + """
    async def bei_add(self, nachricht):
        while True:
            alt = await self.lies("summe")
            try:
                await self.frage("seq-kv", {
                    "type": "cas", "key": "summe", "from": alt,
                    "to": alt + nachricht["delta"],
                    "create_if_not_exists": True})
                break
            except FehlerAntwort:
                pass
        self.antworte(nachricht, {"type": "add_ok"})

    async def bei_read(self, nachricht):
        wert = await self.lies("summe")
        self.antworte(nachricht, {"type": "read_ok", "value": wert})
"""
)

COUNTER_SHARED_CAS_CACHED = (
    """\
# one shared key, cas from the sum the node last saw instead of reading first;
# a read answers from that sum too
class Geteilt(Knoten):
    def beim_start(self):
        self.summe = 0

"""
    + _SEQ_LIES
    + """
    async def bei_add(self, nachricht):
        while True:
            try:
                await self.frage("seq-kv", {
                    "type": "cas", "key": "summe", "from": self.summe,
                    "to": self.summe + nachricht["delta"],
                    "create_if_not_exists": True})
                self.summe += nachricht["delta"]
                break
            except FehlerAntwort:
                self.summe = await self.lies("summe")
        self.antworte(nachricht, {"type": "add_ok"})

    def bei_read(self, nachricht):
        self.antworte(nachricht, {"type": "read_ok", "value": self.summe})
"""
)

GCOUNTER_ON_ADD_ONLY = _knoten(
    "# a G-Counter between the nodes (no seq-kv), state sent only when an add arrives\n",
    "Zaehler",
    GCOUNTER_BEI_ADD,
)

GCOUNTER_IN_MEMORY = _knoten(
    "# a G-Counter sent every 5 ticks, but its own entry lives in memory only:\n"
    "# after a restart the node counts from 0 again and max keeps its old count\n",
    "Zaehler",
    GCOUNTER_ALLE_5_TICKS,
)

COUNTER_ONE_TOTAL_MAX = """\
# one number per node, merged with max: two adds on two sides of a
# partition count as one
class Zaehler(Knoten):
    def beim_start(self):
        self.summe = 0
        self.alle(5, self.verbreite)

    def bei_add(self, nachricht):
        self.summe += nachricht["delta"]
        self.antworte(nachricht, {"type": "add_ok"})

    def verbreite(self):
        for k in self.knoten:
            if k != self.id:
                self.sende(k, {"type": "summe", "summe": self.summe})

    def bei_summe(self, nachricht):
        self.summe = max(self.summe, nachricht["summe"])

    def bei_read(self, nachricht):
        self.antworte(nachricht, {"type": "read_ok", "value": self.summe})
"""

COUNTER_PLUS_WITH_RETRIES = """\
# each add sent to the others until they confirm: a lost confirmation
# makes a retry that counts the add twice
class Zaehler(Knoten):
    def beim_start(self):
        self.summe = 0

    def bei_add(self, nachricht):
        self.summe += nachricht["delta"]
        self.antworte(nachricht, {"type": "add_ok"})
        for k in self.knoten:
            if k != self.id:
                self.spaeter(0, lambda k=k: self.melde(k, nachricht["delta"]))

    async def melde(self, k, delta):
        while True:
            try:
                await self.frage(k, {"type": "plus", "delta": delta}, timeout=10)
                return
            except KeineAntwort:
                pass

    def bei_plus(self, nachricht):
        self.summe += nachricht["delta"]
        self.antworte(nachricht, {"type": "plus_ok"})

    def bei_read(self, nachricht):
        self.antworte(nachricht, {"type": "read_ok", "value": self.summe})
"""

COUNTER_READ_BACK_IN_BACKGROUND = (
    """\
# reads its own count back after a restart, but in the background:
# an add that comes first is overwritten when the old count arrives
class Zaehler(Knoten):
    def beim_start(self):
        self.mein = 0
        self.spaeter(0, self.zurueckholen)

    async def zurueckholen(self):
        self.mein = await self.lies(self.id)

"""
    + _SEQ_LIES
    + """
    async def bei_add(self, nachricht):
        self.mein += nachricht["delta"]
        await self.frage("seq-kv", {"type": "write", "key": self.id, "value": self.mein})
        self.antworte(nachricht, {"type": "add_ok"})

    async def bei_read(self, nachricht):
        await self.frage("seq-kv", {
            "type": "write", "key": "frisch-" + self.id, "value": self.uhr()})
        summe = 0
        for k in self.knoten:
            summe += await self.lies(k)
        self.antworte(nachricht, {"type": "read_ok", "value": summe})
"""
)

# --- Kafka-style log --------------------------------------------------------------------------

_KAFKA_LOG = """\
    async def lies(self, key, sonst):
        try:
            antwort = await self.frage("lin-kv", {"type": "read", "key": key})
            return antwort["value"]
        except FehlerAntwort:  # 20: never written
            return sonst

    async def tausche(self, key, alt, neu):
        try:
            await self.frage("lin-kv", {
                "type": "cas", "key": key, "from": alt, "to": neu,
                "create_if_not_exists": True})
            return True
        except FehlerAntwort:  # 22: changed meanwhile
            return False

    async def bei_send(self, nachricht):
        key = "log-" + nachricht["key"]
        while True:
            log = await self.lies(key, [])
            if await self.tausche(key, log, log + [nachricht["msg"]]):
                break
        self.antworte(nachricht, {"type": "send_ok", "offset": len(log)})

    async def bei_poll(self, nachricht):
        msgs = {}
        for k, ab in nachricht["offsets"].items():
            log = await self.lies("log-" + k, [])
            msgs[k] = [[o, log[o]] for o in range(ab, len(log))]
        self.antworte(nachricht, {"type": "poll_ok", "msgs": msgs})

    async def bei_list_committed_offsets(self, nachricht):
        offsets = {}
        for k in nachricht["keys"]:
            o = await self.lies("commit-" + k, None)
            if o is not None:
                offsets[k] = o
        body = {"type": "list_committed_offsets_ok", "offsets": offsets}
        self.antworte(nachricht, body)
"""

KAFKA_COMMIT_BLIND_WRITE = _knoten(
    "# the logs with cas, the commits by a blind write: a late, smaller commit wins\n",
    "Log",
    _KAFKA_LOG,
    """
    async def bei_commit_offsets(self, nachricht):
        for k, o in nachricht["offsets"].items():
            await self.frage("lin-kv", {"type": "write", "key": "commit-" + k, "value": o})
        self.antworte(nachricht, {"type": "commit_offsets_ok"})
""",
)

KAFKA_COMMIT_CAS_NO_MAX = _knoten(
    "# the commits by cas, but without the check that a position never goes back\n",
    "Log",
    _KAFKA_LOG,
    """
    async def bei_commit_offsets(self, nachricht):
        for k, o in nachricht["offsets"].items():
            key = "commit-" + k
            while True:
                alt = await self.lies(key, None)
                if await self.tausche(key, alt, o):
                    break
        self.antworte(nachricht, {"type": "commit_offsets_ok"})
""",
)

KAFKA_OFFSET_READ_AGAIN = (
    """\
# appends by cas, but takes the offset from a second read after it: another
# send may have appended in between
class Log(Knoten):
"""
    + _KAFKA_LOG.replace(
        """        self.antworte(nachricht, {"type": "send_ok", "offset": len(log)})""",
        """        jetzt = await self.lies(key, [])
        self.antworte(nachricht, {"type": "send_ok", "offset": len(jetzt) - 1})""",
    )
    + """
    async def bei_commit_offsets(self, nachricht):
        for k, o in nachricht["offsets"].items():
            key = "commit-" + k
            while True:
                alt = await self.lies(key, None)
                if alt is not None and alt >= o:
                    break
                if await self.tausche(key, alt, o):
                    break
        self.antworte(nachricht, {"type": "commit_offsets_ok"})
"""
)

assert "jetzt = await self.lies" in KAFKA_OFFSET_READ_AGAIN

# --- Register with a leader -------------------------------------------------------------------

_REGISTER_ANWENDEN = REGISTER_ANWENDEN

_REGISTER_SYNC = (
    """\
    LEITER = "n1"

"""
    + _REGISTER_ANWENDEN
    + """
    def bei_read(self, nachricht):  # every node from its own copy
        self.antworte(nachricht, self.anwenden(nachricht.body))

    async def aendern(self, nachricht):
        if self.id != self.LEITER:
"""
    + FRAGE_LEITER
    + """\
            self.antworte(nachricht, antwort)
            return
        antwort = self.anwenden(nachricht.body)
        # synchronous replication: answer only when every follower has the copy
        for k in self.knoten:
            if k == self.id:
                continue
            try:
                await self.frage(k, {"type": "kopie", "werte": dict(self.werte)})
            except KeineAntwort:
                antwort = {"type": "error", "code": 0, "text": "Follower schweigt"}
        self.antworte(nachricht, antwort)

    bei_write = bei_cas = aendern

    def bei_kopie(self, nachricht):
        self.werte.clear()
        self.werte.update(nachricht["werte"])
        self.antworte(nachricht, {"type": "kopie_ok"})
"""
)

REGISTER_SYNC_LOCAL_READS = (
    """\
# the leader copies every change to all followers and waits for them, but
# every node answers a read from its own copy
class Repliken(Knoten):
    def beim_start(self):
        self.werte = {}

"""
    + _REGISTER_SYNC
)

REGISTER_SYNC_LOCAL_READS_PERSISTED = (
    """\
# the same with every copy on disk (self.speicher)
class Repliken(Knoten):
    def beim_start(self):
        self.werte = self.speicher

"""
    + _REGISTER_SYNC
)

_REGISTER_FORWARD = REGISTER_WEITERLEITEN
#: Where the stage 2 solution (``REGISTER_LEITER``) reads its values at the start.
_WERTE_VON_PLATTE = "        self.werte = self.speicher\n"
#: How its ``anwenden`` writes a plain value.
_SCHREIBEN = """\
            self.werte[key] = body["value"]
            return {"type": "write_ok"}"""
#: What its follower answers when the leader is silent.
_SCHWEIGT = 'antwort = {"type": "error", "code": 0, "text": "Leader schweigt"}'

REGISTER_CAS_IN_MEMORY = (
    "# the leader stores plain writes on disk, but the result of a cas only in memory\n"
    + geaendert(
        geaendert(REGISTER_LEITER, _WERTE_VON_PLATTE, "        self.werte = dict(self.speicher)\n"),
        _SCHREIBEN,
        """\
            self.werte[key] = body["value"]
            self.speicher[key] = body["value"]
            return {"type": "write_ok"}""",
    )
)

REGISTER_COPY_OF_DISK = (
    "# reads its values from disk at the start, then writes only to that copy\n"
    + geaendert(REGISTER_LEITER, _WERTE_VON_PLATTE, "        self.werte = dict(self.speicher)\n")
)

REGISTER_TIMEOUT_DEFINITE_PERSISTED = (
    "# the stage 2 solution, but a silent leader becomes error 11 (definitely not done)\n"
    + geaendert(REGISTER_LEITER, '"code": 0', '"code": 11')
)

REGISTER_FALLBACK_TO_OWN_COPY = (
    """\
# followers get a copy of every change; when the leader is silent a follower
# answers a read from its own copy
"""
    + geaendert(
        geaendert(
            geaendert(REGISTER_LEITER, "class Register(Knoten):", "class Repliken(Knoten):"),
            """\
        if self.id == self.LEITER:
            antwort = self.anwenden(nachricht.body)
""",
            """\
        if self.id == self.LEITER:
            antwort = self.anwenden(nachricht.body)
            for k in self.knoten:
                if k != self.id:
                    self.sende(k, {"type": "kopie", "werte": dict(self.werte)})
""",
        ),
        f"                {_SCHWEIGT}\n",
        f"""\
                if nachricht.typ == "read":
                    antwort = self.anwenden(nachricht.body)
                else:
                    {_SCHWEIGT}
""",
    )
    + """
    def bei_kopie(self, nachricht):
        self.werte.clear()
        self.werte.update(nachricht["werte"])
"""
)

REGISTER_FOLLOWER_TAKES_OVER = (
    "# when the leader is silent, the follower does the operation itself\n"
    + geaendert(REGISTER_LEITER, _SCHWEIGT, "antwort = self.anwenden(nachricht.body)")
)

# --- Leader with a lease ----------------------------------------------------------------------

#: The page's solution with ``{token}`` where the token comes from and ``{write_timeout}``
#: the error code of a write without an answer.
_LEASE = """\
class Leader(Knoten):
    def beim_start(self):
        self.vergeben = 0

    async def bearbeite(self, nachricht):
        antwort = await self.ausfuehren(nachricht.body)
        self.antworte(nachricht, antwort)

    bei_read = bei_write = bei_cas = bearbeite

    async def frage_kv(self, body):
        return (await self.frage("fence-kv", body)).body

    async def ausfuehren(self, body):
        try:
            lease = await self.frage("lease", {"type": "acquire"})
        except FehlerAntwort as fehler:
            return fehler.body  # another node leads
        except KeineAntwort:
            return {"type": "error", "code": 11, "text": "keine Lease"}
        self.vergeben += 1
        token = {token}
        key = body["key"]
        try:
            if body["type"] == "write":
                return await self.frage_kv({
                    "type": "write", "key": key, "value": body["value"], "token": token})
            gelesen = await self.frage_kv({"type": "read", "key": key, "token": token})
        except FehlerAntwort as fehler:
            return fehler.body  # nothing was written
        except KeineAntwort:
            if body["type"] == "write":
                return {"type": "error", "code": {write_timeout}, "text": "vielleicht"}
            return {"type": "error", "code": 11, "text": "nicht gelesen"}
        if body["type"] == "read":
            return gelesen
        if gelesen["value"] != body["from"]:
            return {"type": "error", "code": 22, "text": "anderer Wert"}
        try:
            await self.frage_kv({
                "type": "write", "key": key, "value": body["to"], "token": token})
        except FehlerAntwort as fehler:
            return fehler.body  # older token: not written
        except KeineAntwort:
            return {"type": "error", "code": {write_timeout}, "text": "vielleicht"}
        return {"type": "cas_ok"}
"""


def _lease(comment: str, token: str, write_timeout: int = 0) -> str:
    code = _LEASE.replace("{token}", token).replace("{write_timeout}", str(write_timeout))
    return comment + code


LEASE_TOKEN_FROM_CLOCK = _lease(
    "# takes the lease, but its fencing token is the node's own clock\n", "self.uhr()"
)
LEASE_TOKEN_PER_NODE_COUNTER = _lease(
    "# takes the lease, but its fencing token is a counter of its own\n", "self.vergeben"
)
LEASE_WRITE_TIMEOUT_DEFINITE = _lease(
    "# the solution, but a write without an answer becomes error 11 (definitely not done)\n",
    'lease["token"]',
    write_timeout=11,
)


WRONG_NODES: tuple[WrongNode, ...] = (
    WrongNode(
        "echo-falscher-typ",
        ("echo",),
        "The reply's type is the request's (echo), not echo_ok.",
        ECHO_WRONG_TYPE,
    ),
    WrongNode(
        "ids-snowflake",
        ("eindeutige-ids", "eindeutige-ids-neustart"),
        "Clock, node and a sequence that restarts in every tick: a clock jumping back repeats "
        "a tick and with it an id.",
        IDS_SNOWFLAKE,
        listed=True,
    ),
    WrongNode(
        "ids-uhr-mal-zehn",
        ("eindeutige-ids", "eindeutige-ids-neustart"),
        "Clock times 10 plus the node's index: two requests to one node in one tick collide.",
        IDS_CLOCK_TIMES_NODE,
    ),
    WrongNode(
        "ids-block-falsch-fortgesetzt",
        ("eindeutige-ids-neustart",),
        "Stores the counter every 5th id and resumes from the stored value: up to four ids "
        "again after a restart.",
        IDS_BLOCK_RESUMED_WRONG,
    ),
    WrongNode(
        "ids-zufall-mit-seed",
        ("eindeutige-ids-neustart",),
        "Random ids from a generator seeded with the node's name: a restart repeats them.",
        IDS_SEEDED_RANDOM,
    ),
    WrongNode(
        "broadcast-ganzer-inhalt",
        ("broadcast-einzeln",),
        "Keeps each request's whole body, so read answers with dicts instead of numbers.",
        BROADCAST_KEEPS_BODY,
    ),
    WrongNode(
        "broadcast-ein-schritt",
        ("broadcast-viele", "broadcast-teilung", "broadcast-sparsam"),
        "Only the node a client asked tells its neighbours; nobody passes a value further.",
        BROADCAST_ONE_HOP,
    ),
    WrongNode(
        "broadcast-ganze-menge-bei-neuem",
        ("broadcast-teilung", "broadcast-sparsam"),
        "Sends its whole set only when a new value arrives, without retries: a partition that "
        "outlasts the last new value loses it.",
        BROADCAST_FULL_SET_ON_NEW,
        listed=True,
    ),
    WrongNode(
        "broadcast-drei-versuche",
        ("broadcast-teilung", "broadcast-sparsam"),
        "Retries three times, 10 ticks apart, then gives up: a longer partition loses the value.",
        BROADCAST_THREE_TRIES,
    ),
    WrongNode(
        "broadcast-wiederholt-nur-der-erste",
        ("broadcast-teilung", "broadcast-sparsam"),
        "Only the node a client asked retries; a value lost at a partition further on is lost.",
        BROADCAST_RETRY_AT_ORIGIN_ONLY,
    ),
    WrongNode(
        "zaehler-cas-ohne-frisches-lesen",
        ("zaehler", "zaehler-absturz"),
        "One shared key updated by cas, but a read takes any state seq-kv offers (no write "
        "first): the final read may be old.",
        COUNTER_SHARED_CAS_STALE_READ,
        listed=True,
    ),
    WrongNode(
        "zaehler-cas-aus-dem-gedaechtnis",
        ("zaehler", "zaehler-absturz"),
        "One shared key, cas from the sum the node last saw, and reads answered from it.",
        COUNTER_SHARED_CAS_CACHED,
        listed=True,
    ),
    WrongNode(
        "gcounter-nur-bei-add",
        ("zaehler", "zaehler-absturz", "crdt-zaehler"),
        "A G-Counter whose state goes out only when an add arrives: after the last partition "
        "heals nobody sends.",
        GCOUNTER_ON_ADD_ONLY,
        listed=True,
    ),
    WrongNode(
        "gcounter-im-arbeitsspeicher",
        ("zaehler-absturz",),
        "A G-Counter in memory only: after a restart its own entry starts at 0 and max keeps "
        "the old count, losing the new adds.",
        GCOUNTER_IN_MEMORY,
    ),
    WrongNode(
        "zaehler-eine-summe-max",
        ("zaehler", "zaehler-absturz", "crdt-zaehler"),
        "One number per node merged with max: adds on both sides of a partition count once.",
        COUNTER_ONE_TOTAL_MAX,
    ),
    WrongNode(
        "zaehler-plus-mit-wiederholung",
        ("zaehler", "zaehler-absturz", "crdt-zaehler"),
        "Each add sent to the others until confirmed: a lost confirmation counts it twice.",
        COUNTER_PLUS_WITH_RETRIES,
    ),
    WrongNode(
        "zaehler-zurueckholen-im-hintergrund",
        ("zaehler-absturz",),
        "Reads its count back after a restart in the background: an add before the answer "
        "is overwritten.",
        COUNTER_READ_BACK_IN_BACKGROUND,
    ),
    WrongNode(
        "kafka-commit-blind",
        ("kafka-log",),
        "Commits by a blind write: a smaller commit that arrives later moves the position back.",
        KAFKA_COMMIT_BLIND_WRITE,
        listed=True,
    ),
    WrongNode(
        "kafka-commit-cas-ohne-max",
        ("kafka-log",),
        "Commits by cas without the check that the position never goes back.",
        KAFKA_COMMIT_CAS_NO_MAX,
        listed=True,
    ),
    WrongNode(
        "kafka-offset-nachgelesen",
        ("kafka-log",),
        "Takes the offset from a second read after the cas: another send may be in between.",
        KAFKA_OFFSET_READ_AGAIN,
    ),
    WrongNode(
        "register-synchron-lokal-lesen",
        ("register-leader", "register-leader-absturz"),
        "The leader waits until every follower has the copy, but every node answers a read "
        "from its own copy (without persistence).",
        REGISTER_SYNC_LOCAL_READS,
        listed=True,
    ),
    WrongNode(
        "register-synchron-lokal-lesen-platte",
        ("register-leader", "register-leader-absturz"),
        "The same with every copy in self.speicher.",
        REGISTER_SYNC_LOCAL_READS_PERSISTED,
        listed=True,
    ),
    WrongNode(
        "register-cas-nur-im-arbeitsspeicher",
        ("register-leader-absturz",),
        "The leader persists plain writes but keeps the result of a cas only in memory.",
        REGISTER_CAS_IN_MEMORY,
        listed=True,
    ),
    WrongNode(
        "register-kopie-der-platte",
        ("register-leader-absturz",),
        "Copies self.speicher at the start and then writes only to the copy.",
        REGISTER_COPY_OF_DISK,
    ),
    WrongNode(
        "register-timeout-endgueltig-platte",
        ("register-leader-absturz",),
        "The stage 2 solution, but a silent leader becomes error 11: a write that happened "
        "counts as definitely not done.",
        REGISTER_TIMEOUT_DEFINITE_PERSISTED,
        listed=True,
    ),
    WrongNode(
        "register-eigene-kopie-wenn-leader-schweigt",
        ("register-leader", "register-leader-absturz"),
        "Followers get a copy of every change and answer a read from it when the leader is silent.",
        REGISTER_FALLBACK_TO_OWN_COPY,
    ),
    WrongNode(
        "register-follower-uebernimmt",
        ("register-leader", "register-leader-absturz"),
        "When the leader is silent the follower does the operation on its own values.",
        REGISTER_FOLLOWER_TAKES_OVER,
    ),
    WrongNode(
        "lease-token-aus-der-uhr",
        ("leader-lease",),
        "Takes the lease but sends the node's own clock as the fencing token.",
        LEASE_TOKEN_FROM_CLOCK,
        listed=True,
    ),
    WrongNode(
        "lease-token-eigener-zaehler",
        ("leader-lease",),
        "Takes the lease but sends a counter of its own as the fencing token.",
        LEASE_TOKEN_PER_NODE_COUNTER,
        listed=True,
    ),
    WrongNode(
        "lease-timeout-endgueltig",
        ("leader-lease",),
        "The solution, but a write without an answer becomes error 11 (definitely not done).",
        LEASE_WRITE_TIMEOUT_DEFINITE,
        listed=True,
    ),
)


# --- The challenges on the pages --------------------------------------------------------------


@dataclass(frozen=True)
class PageChallenge:
    """A ``herausforderung`` fence of a page, built as the site builds it."""

    page: str
    line: int
    exercise: Any  # lessonkit.fences.exercises.Challenge


_OPTION = re.compile(r'([A-Za-z_][\w-]*)="([^"]*)"')


def page_challenges(docs: Path = DOCS) -> list[PageChallenge]:
    """Every ``herausforderung`` of the course, in page order: read with the fence walker of
    ``lessonkit.authoring.page_rules`` and built by ``lessonkit.fences.exercises.make_challenge`` (its
    ``vorgabe``, ``start``, ``loesung``, ``pruefung`` and ``fehlversuche``)."""
    from lessonkit.authoring.page_rules import _fenced
    from lessonkit.fences.exercises import make_challenge

    found: list[PageChallenge] = []
    for path in sorted(docs.rglob("*.md")):
        if path.name == "autoren.md":  # the guide's examples are no challenges
            continue
        text = path.read_text(encoding="utf-8")
        body: list[str] = []
        for _, line, block, edge in _fenced(text, any_fence=False):
            if block is None or block.lang != "herausforderung":
                continue
            if edge == "open":
                body = []
            elif edge == "close":
                options = dict(_OPTION.findall(block.rest))
                src = "\n".join(body) + "\n"
                exercise = make_challenge(len(found), block.line, src, options)
                found.append(PageChallenge(str(path.relative_to(docs)), block.line, exercise))
            else:
                body.append(line[block.indent :])
    return found
