"""Lasten (Workloads): Clients, die Operationen aufrufen, und der Verlauf, den sie schreiben.

Wie bei Jepsen und Maelstrom ruft jeder Client (``c1``, ``c2``, …) eine Operation nach der
anderen bei seinem Knoten auf und schreibt in den Verlauf (``history``), was geschah: ein
``invoke`` beim Aufruf, dann ``ok`` (die Antwort kam), ``fail`` (ein Fehler, der sicher sagt:
nicht geschehen) oder ``info`` (keine Antwort bis zum Timeout, oder ein unbestimmter Fehler:
vielleicht geschehen, vielleicht nicht). Nach einem ``info`` macht der Client als neuer Prozess
weiter (Jepsens Regel: der alte könnte noch wirken). Die Reihenfolge der Liste ist die Reihenfolge
in der Zeit, auch innerhalb eines Ticks: So schreibt sie jedes Ereignis, wenn es geschieht.

Jede Antwort prüfen die Clients gegen die Form, die ``pysim.cluster.formen`` für ihre Operation
erklärt (``type`` und Pflichtfelder, oder ``error`` mit ``code``). Passt sie nicht, endet die
Operation ``info`` mit ``"error": ["malformed-rpc-response", Satz]``: Kein Prüfer sieht den
Wert, und das Urteil nennt ihn (``formen.antwortfehler``).

Ein Ereignis des Verlaufs::

    {"index": 7, "process": 1, "type": "ok", "f": "read", "key": None, "value": [1, 2],
     "time": 41, "node": "n2", "client": "c2"}

Die Lasten (Maelstroms doc/workloads.md): ``Echo``, ``EindeutigeIds`` (``generate``),
``Broadcast`` (``broadcast``, ``read``, ``topology``), ``Zaehler`` (grow-only counter: ``add``,
``read``), ``KafkaLog`` (``send``, ``poll``, ``commit_offsets``, ``list_committed_offsets``),
``Register`` (``read``, ``write``, ``cas`` je Schlüssel, wie ``lin-kv``), ``LeaseRegister``
(dasselbe über den Lock-Service ``lease`` und den Storage ``fence-kv``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from .. import pruefer
from ..fehler import UngueltigeEingabe
from . import formen
from .formen import FORMFEHLER, Rpc, pruefe_antwort
from .nachricht import Nachricht, ist_endgueltig

if TYPE_CHECKING:
    from .cluster import Cluster
    from .lauf import Lauf


@dataclass(frozen=True)
class Geplant:
    """Eine geplante Operation: ab Tick ``zeit`` ruft Client ``client`` (0, 1, …) ``f`` auf."""

    zeit: int
    client: int
    f: str
    key: Any = None
    value: Any = None


class Last:
    """Was die Clients tun und wie ihre Operationen als Nachrichten aussehen."""

    name = ""
    #: Services the nodes may ask (``lin-kv``, ``seq-kv``, ``lww-kv``).
    dienste: tuple[str, ...] = ()
    #: Ticks between two operations of one client: drawn from 1 to this.
    abstand = 4

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        """Die ``nummer``-te Operation: ``(f, key, value)``."""
        raise NotImplementedError

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        """Der Inhalt der Nachricht an den Knoten (ohne ``msg_id``), in der Form, die
        ``pysim.cluster.formen`` für ``f`` erklärt."""
        raise NotImplementedError

    def form(self, f: str) -> Rpc:
        """Wie Anfrage und Antwort der Operation ``f`` aussehen (``pysim.cluster.formen``)."""
        return formen.form(self.name, f)

    def beim_aufruf(self, f: str, key: Any, value: Any) -> Any:
        """Der ``value`` einer Operation, wenn sie beginnt: der geplante, oder was erst dann
        feststeht (z. B. bis wohin die Clients schon gelesen haben)."""
        return value

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        """Der ``value`` eines ``ok``: was die Antwort sagt. Ihre Form ist schon geprüft
        (``pysim.cluster.formen``): Jedes Pflichtfeld ist da und hat seine Art."""
        return value

    def vorbereiten(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        """Vor der ersten Operation (z. B. ``topology`` an jeden Knoten)."""

    def abschluss(self, knoten: list[str]) -> list[tuple[str, str, Any, Any]]:
        """Nach dem Heilen: ``(knoten, f, key, value)`` je Schlussoperation (z. B. ein letztes
        ``read`` auf jedem Knoten)."""
        return []

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        """Das Urteil über den Verlauf des Laufs (``pysim.pruefer``)."""
        raise NotImplementedError

    def punkte(self, lauf: Lauf) -> Mapping[int, int] | None:
        """Wann jede Operation wirkte, für das Bild (``pruefer.linearisierungspunkte``), bei
        einer Last, deren Prüfer Linearisierbarkeit prüft; sonst ``None``."""
        return None

    def plane(self, zufall: random.Random, dauer: int, clients: int) -> list[Geplant]:
        """Die Operationen aller Clients bis ``dauer``, nach Zeit (dann Client) geordnet."""
        geplant = []
        nummer = 0
        for client in range(clients):
            zeit = zufall.randint(0, self.abstand)
            while zeit < dauer:
                f, key, value = self.operation(zufall, nummer)
                nummer += 1
                geplant.append(Geplant(zeit, client, f, key, value))
                zeit += zufall.randint(1, self.abstand)
        return sorted(geplant, key=lambda g: (g.zeit, g.client))


class Echo(Last):
    name = "echo"

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        return "echo", None, f"hallo {nummer}"

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        return {"type": "echo", "echo": value}

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        return antwort["echo"]

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        return pruefer.echo(lauf.geschichte)


class EindeutigeIds(Last):
    name = "unique-ids"

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        return "generate", None, None

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        return {"type": "generate"}

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        return antwort["id"]

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        return pruefer.eindeutige_ids(lauf.geschichte)


#: Topologies for ``Broadcast``: node ids -> neighbours of each.
def _topologie(art: str, knoten: list[str]) -> dict[str, list[str]]:
    n = len(knoten)
    if art == "alle":
        return {k: [x for x in knoten if x != k] for k in knoten}
    if art == "linie":
        return {k: [knoten[j] for j in (i - 1, i + 1) if 0 <= j < n] for i, k in enumerate(knoten)}
    if art == "gitter":
        breite = max(1, round(n**0.5))
        nachbarn: dict[str, list[str]] = {}
        for i, k in enumerate(knoten):
            zeile, spalte = divmod(i, breite)
            kandidaten = [
                (zeile - 1, spalte),
                (zeile + 1, spalte),
                (zeile, spalte - 1),
                (zeile, spalte + 1),
            ]
            nachbarn[k] = [
                knoten[z * breite + s]
                for z, s in kandidaten
                if 0 <= s < breite and 0 <= z * breite + s < n and z >= 0
            ]
        return nachbarn
    raise ValueError(art)


class Broadcast(Last):
    """``broadcast`` (eine Zahl, einmalig), ``read`` (alle Zahlen, die der Knoten kennt);
    vorher bekommt jeder Knoten seine Nachbarn (``topology``), am Ende liest jeder Knoten."""

    name = "broadcast"

    def __init__(self, topologie: str = "gitter") -> None:
        if topologie not in ("alle", "linie", "gitter"):
            raise UngueltigeEingabe(
                f"Die Topologie ist „alle“, „linie“ oder „gitter“, nicht {topologie!r}."
            )
        self.topologie = topologie

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        if zufall.random() < 0.6:
            return "broadcast", None, nummer
        return "read", None, None

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        return {"type": "broadcast", "message": value} if f == "broadcast" else {"type": "read"}

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        return value if f == "broadcast" else antwort["messages"]

    def vorbereiten(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        for k, nachbarn in _topologie(self.topologie, list(cluster.ids)).items():
            senden(k, {"type": "topology", "topology": {k: nachbarn}})

    def abschluss(self, knoten: list[str]) -> list[tuple[str, str, Any, Any]]:
        return [(k, "read", None, None) for k in knoten]

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        # The final reads begin after the faults healed (at the run's end).
        return pruefer.broadcast(lauf.geschichte, geheilt=lauf.geheilt, knoten=lauf.cluster.ids)


class Zaehler(Last):
    """Grow-only counter: ``add`` (``delta`` 1 bis 5), ``read``; die Knoten dürfen ``seq-kv`` fragen."""

    name = "g-counter"
    dienste = ("seq-kv",)

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        if zufall.random() < 0.6:
            return "add", None, zufall.randint(1, 5)
        return "read", None, None

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        return {"type": "add", "delta": value} if f == "add" else {"type": "read"}

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        return value if f == "add" else antwort["value"]

    def abschluss(self, knoten: list[str]) -> list[tuple[str, str, Any, Any]]:
        return [(k, "read", None, None) for k in knoten]

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        return pruefer.zaehler(lauf.geschichte, geheilt=lauf.geheilt)


class Register(Last):
    """``read``, ``write``, ``cas`` auf ``schluessel`` Schlüsseln (wie Maelstroms ``lin-kv``)."""

    name = "lin-kv"

    def __init__(self, schluessel: int = 2, dienste: tuple[str, ...] = ()) -> None:
        self.schluessel = schluessel
        self.dienste = dienste

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        key = zufall.randrange(self.schluessel)
        wahl = zufall.random()
        if wahl < 0.4:
            return "read", key, None
        if wahl < 0.8:
            return "write", key, zufall.randint(0, 4)
        return "cas", key, [zufall.randint(0, 4), zufall.randint(0, 4)]

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        if f == "read":
            return {"type": "read", "key": key}
        if f == "write":
            return {"type": "write", "key": key, "value": value}
        return {"type": "cas", "key": key, "from": value[0], "to": value[1]}

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        return antwort["value"] if f == "read" else value

    def abschluss(self, knoten: list[str]) -> list[tuple[str, str, Any, Any]]:
        """Nach dem Heilen liest jeder Knoten jeden Schlüssel: Ein bestätigtes Schreiben, das
        ein Absturz oder eine Netzpartition verschluckt hat, fällt spätestens hier auf (der
        Prüfer beurteilt diese Lesen wie jedes andere)."""
        return [(k, "read", key, None) for k in knoten for key in range(self.schluessel)]

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        return pruefer.linearisierbar(lauf.geschichte)

    def punkte(self, lauf: Lauf) -> Mapping[int, int] | None:
        return pruefer.linearisierungspunkte(lauf.geschichte)


class LeaseRegister(Register):
    """Dieselben Operationen wie ``Register``, aber die Knoten halten die Werte nicht selbst:
    Sie dürfen den Lock-Service ``lease`` und den Storage ``fence-kv`` fragen (``read`` und
    ``write``, kein ``cas``). Ein ``cas`` wird so zu Lesen und Schreiben, und dazwischen darf
    kein anderer Knoten schreiben (Kleppmanns Beispiel: eine Datei lesen, ändern, schreiben).

    Die Clients lesen, ändern und schreiben zurück: Die erste Operation von ``c1`` schreibt 0,
    und ein ``cas`` erwartet als ``from`` den Wert, den zuletzt ein Client sah (gelesen,
    geschrieben oder per ``cas`` gesetzt), und setzt den nächsten (``from + 1`` modulo 3). So
    erwarten zwei ``cas``, die zugleich laufen, meist denselben Wert, und ein verlorenes Update
    fällt auf."""

    name = "lease-kv"
    abstand = 1

    def __init__(self, schluessel: int = 1) -> None:
        super().__init__(schluessel, dienste=("lease", "fence-kv"))
        #: The value a client saw last, per key (one instance serves every run: ``vorbereiten``).
        self._gesehen: dict[Any, Any] = {}

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        # Mostly cas on few values: a lost update between two writers shows up often.
        key = zufall.randrange(self.schluessel)
        wahl = zufall.random()
        if nummer == 0:
            return "write", key, 0
        if wahl < 0.3:
            return "read", key, None
        if wahl < 0.5:
            return "write", key, zufall.randint(0, 2)
        von = zufall.randint(0, 2)  # until a client has seen a value
        return "cas", key, [von, (von + 1) % 3]

    def vorbereiten(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        self._gesehen = {}

    def beim_aufruf(self, f: str, key: Any, value: Any) -> Any:
        if f == "cas" and key in self._gesehen:
            von = self._gesehen[key]
            return [von, (von + 1) % 3]
        return value

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        wert = super().ergebnis(f, key, value, antwort)
        self._gesehen[key] = wert[1] if f == "cas" else wert
        return wert


class KafkaLog(Last):
    """Ein Log je Schlüssel: ``send`` (hängt an, antwortet mit dem Offset), ``poll`` (liest ab
    Offset 0), ``commit_offsets`` (speichert den höchsten Offset je Log, den ein poll bis dahin
    lieferte), ``list_committed_offsets`` (fragt alle Logs ab; Maelstroms ``kafka``-Workload)."""

    name = "kafka"

    def __init__(
        self, schluessel: int = 2, dienste: tuple[str, ...] = ("lin-kv", "seq-kv")
    ) -> None:
        self.schluessel = schluessel
        self.dienste = dienste
        #: The highest offset per log that a poll returned: what the clients commit. They
        #: share one consumer group (Maelstrom's clients commit what each one processed).
        self._gelesen: dict[str, int] = {}

    def operation(self, zufall: random.Random, nummer: int) -> tuple[str, Any, Any]:
        key = f"k{zufall.randrange(self.schluessel)}"
        wahl = zufall.random()
        if wahl < 0.4:
            return "send", key, nummer
        if wahl < 0.65:
            return "poll", None, None
        if wahl < 0.8:
            return "commit_offsets", None, None
        return "list_committed_offsets", None, None

    def anfrage(self, f: str, key: Any, value: Any) -> dict[str, Any]:
        if f == "send":
            return {"type": "send", "key": key, "msg": value}
        keys = [f"k{i}" for i in range(self.schluessel)]
        if f == "poll":
            return {"type": "poll", "offsets": dict.fromkeys(keys, 0)}
        if f == "commit_offsets":
            return {"type": "commit_offsets", "offsets": dict(value or {})}
        return {"type": "list_committed_offsets", "keys": keys}

    def vorbereiten(self, cluster: Cluster, senden: Callable[[str, dict[str, Any]], None]) -> None:
        self._gelesen = {}  # one instance serves every run of a challenge

    def beim_aufruf(self, f: str, key: Any, value: Any) -> Any:
        if f == "commit_offsets":
            return dict(self._gelesen)
        if f == "list_committed_offsets":  # the keys asked for: the checker compares each
            return [f"k{i}" for i in range(self.schluessel)]
        return value

    def ergebnis(self, f: str, key: Any, value: Any, antwort: dict[str, Any]) -> Any:
        if f == "send":
            return [value, antwort["offset"]]
        if f == "poll":
            msgs: dict[str, Any] = antwort["msgs"]
            for k, paare in msgs.items():
                for o, _ in paare:
                    if o > self._gelesen.get(k, -1):
                        self._gelesen[k] = o
            return msgs
        if f == "list_committed_offsets":
            return antwort["offsets"]
        return value

    def abschluss(self, knoten: list[str]) -> list[tuple[str, str, Any, Any]]:
        """Nach dem Heilen: ein ``poll`` ab Offset 0 und ein ``list_committed_offsets`` auf
        jedem Knoten. Ein bestätigter send, den ein Absturz verschluckt hat, und eine
        gespeicherte Position, die zurückging, fallen so auch am Ende eines Laufs auf."""
        return [(k, f, None, None) for f in ("poll", "list_committed_offsets") for k in knoten]

    def pruefe(self, lauf: Lauf) -> pruefer.Urteil:
        return pruefer.kafka_log(lauf.geschichte)


#: Every workload by its name (Maelstrom's names).
LASTEN: dict[str, type[Last]] = {
    last.name: last
    for last in (Echo, EindeutigeIds, Broadcast, Zaehler, Register, LeaseRegister, KafkaLog)
}


@dataclass
class _Offen:
    event: dict[str, Any]
    geplant: Geplant | None
    timeout: Any


@dataclass
class Clients:
    """Die Clients eines Laufs: rufen ``geplant`` auf und schreiben ``geschichte``."""

    cluster: Cluster
    last: Last
    anzahl: int
    timeout: int = 30
    #: From this tick on a client starts no queued operation (Jepsen's time limit): the
    #: final operations then meet no backlog of a slow node's clients.
    schluss: int | None = None
    geschichte: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._warteschlangen: list[list[Geplant]] = [[] for _ in range(self.anzahl)]
        self._prozess = list(range(self.anzahl))
        self._offen: dict[int, _Offen] = {}
        self._msg_id = 0
        self._frei = [True] * self.anzahl
        self._namen = [f"c{i + 1}" for i in range(self.anzahl)]
        for i, name in enumerate(self._namen):
            self.cluster.anmelden(name, partial(self._empfang, i), client=True)
        self._zusatz = 0

    def knoten_von(self, client: int) -> str:
        return self.cluster.ids[client % len(self.cluster.ids)]

    def plane(self, geplant: list[Geplant]) -> None:
        for g in geplant:
            self.cluster.zeit.schedule(max(0, g.zeit - self.cluster.zeit.now), self._faellig, g)

    def _faellig(self, g: Geplant) -> None:
        self._warteschlangen[g.client].append(g)
        self._naechste(g.client)

    def _naechste(self, client: int) -> None:
        if not self._frei[client] or not self._warteschlangen[client]:
            return
        if self.schluss is not None and self.cluster.zeit.now >= self.schluss:
            self._warteschlangen[client].clear()
            return
        g = self._warteschlangen[client].pop(0)
        self._rufe(client, self.knoten_von(client), g.f, g.key, g.value, g)

    def zusatz(self, knoten: str, f: str, key: Any, value: Any) -> None:
        """Eine Schlussoperation auf ``knoten`` durch einen neuen Client (``abschluss``)."""
        self._zusatz += 1
        client = len(self._namen)
        name = f"c{client + 1}"
        self._namen.append(name)
        self._warteschlangen.append([])
        self._prozess.append(10_000 + self._zusatz)
        self._frei.append(True)
        self.cluster.anmelden(name, partial(self._empfang, client), client=True)
        self._rufe(client, knoten, f, key, value, None)

    def _rufe(
        self, client: int, knoten: str, f: str, key: Any, value: Any, g: Geplant | None
    ) -> None:
        self._frei[client] = False
        self._msg_id += 1
        value = self.last.beim_aufruf(f, key, value)
        event = {
            "index": len(self.geschichte),
            "process": self._prozess[client],
            "type": "invoke",
            "f": f,
            "key": key,
            "value": None if f in ("read", "generate", "poll") else value,
            "time": self.cluster.zeit.now,
            "node": knoten,
            "client": self._namen[client],
        }
        self.geschichte.append(event)
        timeout = self.cluster.zeit.schedule(self.timeout, self._abgelaufen, client, self._msg_id)
        self._offen[self._msg_id] = _Offen(event, g, timeout)
        body = {**self.last.anfrage(f, key, value), "msg_id": self._msg_id}
        self.cluster.sende(self._namen[client], knoten, body)

    def _ende(
        self, client: int, msg_id: int, typ: str, value: Any, error: list[Any] | None = None
    ) -> None:
        offen = self._offen.pop(msg_id)
        event = offen.event
        ende = {
            **event,
            "index": len(self.geschichte),
            "type": typ,
            "time": self.cluster.zeit.now,
            "value": value,
        }
        if error is not None:
            ende["error"] = error
        self.geschichte.append(ende)
        if typ == "info":  # Jepsen: the old process may still act; go on as a new one
            self._prozess[client] += self.anzahl if client < self.anzahl else 0
        self._frei[client] = True
        self._naechste(client)

    def _empfang(self, client: int, nachricht: Nachricht) -> None:
        msg_id = nachricht.body.get("in_reply_to")
        if not isinstance(msg_id, int) or msg_id not in self._offen:
            return  # a late reply after the timeout: the operation stays indeterminate
        offen = self._offen[msg_id]
        offen.timeout.absagen()
        event = offen.event
        rpc = self.last.form(event["f"])
        falsch = pruefe_antwort(rpc, nachricht.body)
        if falsch is not None:
            # Like Maelstrom's malformed RPC response: nobody knows what the node did. The
            # checkers never see the value; the verdict names it (formen.antwortfehler).
            self._ende(client, msg_id, "info", event["value"], [FORMFEHLER, falsch])
            return
        if nachricht.typ == "error":
            code = nachricht.body["code"]
            if rpc.fehler_als_ok(code):  # lin-kv: a key never written reads as None
                self._ende(client, msg_id, "ok", None)
            else:
                self._ende(
                    client,
                    msg_id,
                    "fail" if ist_endgueltig(code) else "info",
                    event["value"],
                    [code, nachricht.body.get("text", "")],
                )
            return
        wert = self.last.ergebnis(event["f"], event["key"], event["value"], nachricht.body)
        self._ende(client, msg_id, "ok", wert)

    def _abgelaufen(self, client: int, msg_id: int) -> None:
        if msg_id in self._offen:
            self._ende(client, msg_id, "info", self._offen[msg_id].event["value"])

    def fertig(self) -> bool:
        return not self._offen and not any(self._warteschlangen)
