"""Die Form jeder Nachricht einer Last, einmal erklärt: was die Clients fragen und was ein
Knoten antworten muss.

Wie Maelstrom jede RPC einmal mit ihrem Schema erklärt (``defrpc`` in
``src/maelstrom/client.clj``; daraus entsteht seine doc/workloads.md), steht hier je Last und
je Operation eine ``Rpc``: die Felder der Anfrage, der ``type`` der Antwort, ihre Pflichtfelder
mit ihrer Art (eine ganze Zahl, eine Liste ganzer Zahlen, …) und die Fehlercodes, die die Last
deutet. Aus derselben Erklärung

- prüfen die Clients jede Antwort (``pruefe_antwort``): Passt sie nicht, endet die Operation
  unbestimmt (``info``), das Ereignis trägt ``"error": ["malformed-rpc-response", Satz]``, und
  ``antwortfehler`` macht daraus einen Satz des Urteils, der Client, Operation, Zeit, Feld und
  das, was stattdessen kam, nennt; kein Prüfer sieht je einen Wert in falscher Form;
- entsteht die Tabelle der Nachrichten auf den Seiten der Herausforderungen (der Block
  ``nachrichten`` in ``lessonkit``).

Eine Fehlerantwort hat bei jeder Operation dieselbe Form (Maelstroms doc/protocol.md,
„Errors“): ``{"type": "error", "code": 11, "text": "…"}``; ``code`` ist eine ganze Zahl
(Maelstroms Codes in ``nachricht.FEHLERCODES``, eigene ab 1000), ``text`` ist freiwillig und
ein Text. Weitere Felder einer Antwort stören nicht; ``msg_id`` und ``in_reply_to`` setzt der
Cluster.

Eine Grenze des Kurses: Jede ganze Zahl einer Antwort liegt zwischen -2⁶³ und 2⁶³ - 1 (so groß
wie ein 64-Bit-Integer), jeder Wert ist, was JSON kennt (Zahlen, Texte, True/False, None,
Listen, dicts mit Texten als Schlüsseln), höchstens ``TIEFE`` Ebenen tief. So kann jeder Prüfer
jeden Wert vergleichen und jedes Urteil ihn nennen.
"""

from __future__ import annotations

import itertools
import json
import math
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..fehler import UngueltigeEingabe, kurz
from .nachricht import FEHLERCODES

#: Every integer of a reply is at least ``-GRENZE`` and below ``GRENZE`` (64 bits).
GRENZE = 2**63
#: How deep lists and dicts may nest in a reply.
TIEFE = 20
#: The ``error`` of a history event whose reply had the wrong form (Maelstrom's name for it).
FORMFEHLER = "malformed-rpc-response"


@dataclass(frozen=True)
class Abweichung:
    """Wo ein Wert nicht passt (``pfad``: ``value``, ``msgs["k0"][0][0]``), was dort stand,
    und was dort stehen sollte."""

    pfad: str
    wert: object
    erwartet: str


@dataclass(frozen=True, kw_only=True)
class Art:
    """Eine Art von Wert. ``name``: wie ein Satz sie nennt („eine ganze Zahl ≥ 0“);
    ``liste``: wie eine Liste von ihnen heißt („eine Liste ganzer Zahlen ≥ 0“). Die
    Funktionen unten (``ganze_zahl``, ``liste``, …) bauen sie mit passenden Namen."""

    name: str
    liste: str

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        """``None``, wenn ``wert`` diese Art hat; sonst die erste Stelle, die nicht passt."""
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class GanzeZahl(Art):
    """Eine ganze Zahl (kein True/False), ab ``minimum``, in 64 Bit."""

    minimum: int | None = None

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        if isinstance(wert, bool) or not isinstance(wert, int):
            return Abweichung(pfad, wert, self.name)
        if not -GRENZE <= wert < GRENZE:
            return Abweichung(pfad, wert, f"{self.name} mit höchstens 64 Bit (bis 2⁶³ - 1)")
        if self.minimum is not None and wert < self.minimum:
            return Abweichung(pfad, wert, self.name)
        return None


@dataclass(frozen=True, kw_only=True)
class Text(Art):
    """Ein Text (``str``)."""

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        return None if isinstance(wert, str) else Abweichung(pfad, wert, self.name)


@dataclass(frozen=True, kw_only=True)
class Nichts(Art):
    """``None`` (JSON: ``null``)."""

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        return None if wert is None else Abweichung(pfad, wert, self.name)


@dataclass(frozen=True, kw_only=True)
class JsonWert(Art):
    """Was JSON kennt: Zahl, Text, True/False, None, Liste, dict mit Texten als Schlüsseln
    (``ohne_none``: nicht None)."""

    ohne_none: bool = False

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        if wert is None:
            return Abweichung(pfad, wert, self.name) if self.ohne_none else None
        if isinstance(wert, bool | str):
            return None
        if isinstance(wert, int):
            return ZAHL.abweichung(wert, pfad)
        if isinstance(wert, float):
            if math.isfinite(wert):
                return None
            return Abweichung(pfad, wert, "eine endliche Zahl (JSON kennt weder inf noch nan)")
        if isinstance(wert, list | tuple):
            return _elemente(wert, JSON, pfad, tiefe)
        if isinstance(wert, dict):
            return _eintraege(wert, JSON, pfad, tiefe)
        return Abweichung(
            pfad,
            wert,
            "ein JSON-Wert: eine Zahl, ein Text, True/False, None, eine Liste oder ein dict "
            "mit Texten als Schlüsseln",
        )


@dataclass(frozen=True, kw_only=True)
class Liste(Art):
    """Eine Liste (oder ein Tupel), jedes Element von der Art ``element``."""

    element: Art

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        if not isinstance(wert, list | tuple):
            return Abweichung(pfad, wert, self.name)
        element = self.element
        if tiefe < TIEFE and isinstance(element, GanzeZahl) and element.minimum is None:
            # The common case (a broadcast read: hundreds of ints) without a path per element.
            if all(type(x) is int and -GRENZE <= x < GRENZE for x in wert):
                return None
        return _elemente(wert, element, pfad, tiefe)


@dataclass(frozen=True, kw_only=True)
class Paar(Art):
    """Eine Liste aus genau zwei Werten der Arten ``erstes`` und ``zweites``."""

    erstes: Art
    zweites: Art

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        if not isinstance(wert, list | tuple) or len(wert) != 2:
            return Abweichung(pfad, wert, self.name)
        return self.erstes.abweichung(wert[0], f"{pfad}[0]", tiefe + 1) or self.zweites.abweichung(
            wert[1], f"{pfad}[1]", tiefe + 1
        )


@dataclass(frozen=True, kw_only=True)
class Abbildung(Art):
    """Ein dict mit Texten als Schlüsseln und Werten der Art ``wert``."""

    wert: Art

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        if not isinstance(wert, dict):
            return Abweichung(pfad, wert, self.name)
        return _eintraege(wert, self.wert, pfad, tiefe)


@dataclass(frozen=True, kw_only=True)
class Oder(Art):
    """Ein Wert der Art ``eine`` oder der Art ``andere``."""

    eine: Art
    andere: Art

    def abweichung(self, wert: object, pfad: str, tiefe: int = 0) -> Abweichung | None:
        a = self.eine.abweichung(wert, pfad, tiefe)
        if a is None or self.andere.abweichung(wert, pfad, tiefe) is None:
            return None
        if a.pfad != pfad:
            return a  # inside a list or dict: the element's own expectation
        return Abweichung(a.pfad, a.wert, f"{a.erwartet} oder {self.andere.name}")


def _zu_tief(wert: object, pfad: str, tiefe: int) -> Abweichung | None:
    """A list or dict at depth ``TIEFE`` is itself what does not fit (the reply nests too deep)."""
    if tiefe >= TIEFE:
        return Abweichung(pfad, wert, f"ein Wert, der höchstens {TIEFE} Ebenen tief ist")
    return None


def _elemente(
    wert: list[object] | tuple[object, ...], art: Art, pfad: str, tiefe: int
) -> Abweichung | None:
    """The first element of the list ``wert`` that is not of the kind ``art`` (or its depth)."""
    if (a := _zu_tief(wert, pfad, tiefe)) is not None:
        return a
    for i, x in enumerate(wert):
        if (a := art.abweichung(x, f"{pfad}[{i}]", tiefe + 1)) is not None:
            return a
    return None


def _eintraege(wert: dict[object, object], art: Art, pfad: str, tiefe: int) -> Abweichung | None:
    """The first key of the dict ``wert`` that is not a text, or value not of the kind ``art``."""
    if (a := _zu_tief(wert, pfad, tiefe)) is not None:
        return a
    for k, x in wert.items():
        if not isinstance(k, str):
            return Abweichung(f"{pfad} (ein Schlüssel)", k, "ein Text")
        if (a := art.abweichung(x, _in(pfad, k), tiefe + 1)) is not None:
            return a
    return None


def ganze_zahl(minimum: int | None = None) -> GanzeZahl:
    ab = "" if minimum is None else f" ≥ {minimum}"
    return GanzeZahl(
        name=f"eine ganze Zahl{ab}", liste=f"eine Liste ganzer Zahlen{ab}", minimum=minimum
    )


def liste(element: Art) -> Liste:
    return Liste(
        name=element.liste, liste=f"eine Liste von Listen ({element.liste})", element=element
    )


def oder(eine: Art, andere: Art) -> Oder:
    name = f"{eine.name} oder {andere.name}"
    return Oder(name=name, liste=f"eine Liste, jedes Element {name}", eine=eine, andere=andere)


ZAHL = ganze_zahl()
AB_NULL = ganze_zahl(0)
TEXT = Text(name="ein Text", liste="eine Liste von Texten")
NICHTS = Nichts(name="None", liste="eine Liste von None")
JSON = JsonWert(name="ein JSON-Wert", liste="eine Liste von JSON-Werten")
ID = JsonWert(name="ein JSON-Wert außer None", liste="eine Liste von IDs", ohne_none=True)


def _in(pfad: str, schluessel: str) -> str:
    return f"{pfad}[{json.dumps(schluessel, ensure_ascii=False)}]"


@dataclass(frozen=True)
class Feld:
    """Ein Feld einer Nachricht: Name, Art, ein Beispielwert (für die Tabelle der Seite) und
    was es bedeutet (``bedeutung``, deutsch, für die Tabelle)."""

    name: str
    art: Art
    beispiel: object
    bedeutung: str = ""
    pflicht: bool = True


@dataclass(frozen=True)
class Fehler:
    """Ein Fehlercode, den die Last bei dieser Operation deutet (``bedeutung``: deutsch).

    ``als_ok``: Die Operation zählt dann als ``ok`` mit ``value=None`` (``read`` eines
    Schlüssels, den es nie gab, bei ``lin-kv``); sonst gilt, ob der Code endgültig ist
    (``nachricht.ist_endgueltig``: ``fail``, sonst ``info``)."""

    code: int
    bedeutung: str
    als_ok: bool = False


@dataclass(frozen=True)
class Rpc:
    """Eine Operation einer Last, wie Maelstroms ``defrpc``: Anfrage und Antwort.

    ``anfrage``: der ``type`` der Anfrage, zugleich das ``f`` der Operation im Verlauf.
    ``vorbereitung``: keine Operation der Clients, sondern eine Nachricht vor der ersten
    (``topology``); ihre Antwort wartet niemand ab."""

    anfrage: str
    felder: tuple[Feld, ...]
    antwort: str
    antwort_felder: tuple[Feld, ...]
    was: str
    fehler: tuple[Fehler, ...] = ()
    vorbereitung: bool = False

    def fehler_als_ok(self, code: object) -> bool:
        """Zählt eine Fehlerantwort mit ``code`` als ``ok`` mit ``None``?"""
        return any(f.code == code and f.als_ok for f in self.fehler)


#: The fields of an error reply, the same for every operation (doc/protocol.md, "Errors").
FEHLER_FELDER = (
    Feld("code", AB_NULL, 11, "die Nummer des Fehlers"),
    Feld("text", TEXT, "Leader unbekannt", "eine Erklärung", pflicht=False),
)


def pruefe_antwort(rpc: Rpc, body: Mapping[str, object]) -> str | None:
    """``None``, wenn ``body`` eine Antwort auf ``rpc`` sein kann (die erklärte oder ein
    Fehler); sonst ein deutscher Satz, was nicht passt."""
    typ = body.get("type")
    if typ == "error":
        return _pruefe_felder("error", FEHLER_FELDER, body)
    if typ != rpc.antwort:
        return (
            f"Die Antwort hat type {_typ(typ)}, erwartet „{rpc.antwort}“ (oder „error“ mit "
            "einem code)."
        )
    return _pruefe_felder(rpc.antwort, rpc.antwort_felder, body)


def pruefe_anfrage(rpc: Rpc, body: Mapping[str, object]) -> str | None:
    """Wie ``pruefe_antwort`` für eine Anfrage (die Clients des Kurses halten sich daran)."""
    if body.get("type") != rpc.anfrage:
        return f"Die Anfrage hat type {_typ(body.get('type'))}, erwartet „{rpc.anfrage}“."
    return _pruefe_felder(rpc.anfrage, rpc.felder, body, "Die Anfrage")


def _typ(typ: object) -> str:
    """A message's ``type`` in a sentence: „read_ok“ (a text, as every message has one)."""
    return f"„{kurz(typ, 40)}“" if isinstance(typ, str) else zeige(typ)


def _pruefe_felder(
    typ: str, felder: Sequence[Feld], body: Mapping[str, object], wer: str = "Die Antwort"
) -> str | None:
    for feld in felder:
        if feld.name not in body:
            if feld.pflicht:
                return (
                    f"{wer} hat type „{typ}“, aber kein Feld „{feld.name}“ (erwartet "
                    f"{feld.art.name})."
                )
            continue
        a = feld.art.abweichung(body[feld.name], feld.name)
        if a is not None:
            return f"{wer} hat type „{typ}“, aber „{a.pfad}“ ist {zeige(a.wert)}, erwartet {a.erwartet}."
    return None


# --- showing a value ------------------------------------------------------------------------


def zeige(wert: object, zeichen: int = 40) -> str:
    """Ein Wert in einem Satz, kurz und mit seiner Art: ``"3" (ein Text)``, ``[[0]] (eine
    Liste)``, ``eine ganze Zahl mit etwa 40 Stellen``. Wirft nie, auch bei riesigen Zahlen
    (Python wandelt Zahlen über 4300 Stellen nicht in Text) oder tief verschachtelten Listen."""
    if isinstance(wert, int) and not isinstance(wert, bool) and not -GRENZE <= wert < GRENZE:
        return f"eine ganze Zahl mit etwa {_stellen(wert)} Stellen"
    teile: list[str] = []
    _schreibe(wert, teile, zeichen + 1, 0)
    text = "".join(teile)
    if len(text) > zeichen:
        text = text[: zeichen - 1] + "…"
    art = _art(wert)
    return f"{text} ({art})" if art else text


def _stellen(zahl: int) -> int:
    return max(1, int(abs(zahl).bit_length() * math.log10(2)) + 1)


#: How a sentence names a value's type; the first that fits counts (``bool`` before ``int``).
_ARTEN: tuple[tuple[type | types.UnionType, str], ...] = (
    (bool, "ein Wahrheitswert"),
    (int, "eine ganze Zahl"),
    (float, "eine Kommazahl"),
    (str, "ein Text"),
    (list, "eine Liste"),
    (tuple, "ein Tupel"),
    (dict, "ein dict"),
    (set | frozenset, "eine Menge (set)"),
)


def _art(wert: object) -> str:
    if wert is None:
        return ""
    for typ, name in _ARTEN:
        if isinstance(wert, typ):
            return name
    return f"ein Objekt vom Typ {type(wert).__name__}"


def _schreibe(wert: object, teile: list[str], rest: int, tiefe: int) -> int:
    """Writes ``wert`` into ``teile`` until ``rest`` characters are used; returns what is left."""
    if rest <= 0:
        return rest
    if tiefe > 4 and isinstance(wert, list | tuple | dict | set | frozenset):
        text = "…"
    elif isinstance(wert, str):
        text = json.dumps(wert[:rest], ensure_ascii=False)
    elif isinstance(wert, int) and not isinstance(wert, bool):
        text = str(wert) if -GRENZE <= wert < GRENZE else "…"
    elif isinstance(wert, bool | float) or wert is None:
        text = repr(wert)
    elif isinstance(wert, list | tuple | set | frozenset | dict):
        auf, zu = ("{", "}") if isinstance(wert, dict | set | frozenset) else ("[", "]")
        if isinstance(wert, tuple):
            auf, zu = "(", ")"
        teile.append(auf)
        rest -= 1
        elemente = list(
            itertools.islice(wert.items() if isinstance(wert, dict) else wert, rest + 1)
        )
        for i, x in enumerate(elemente):
            if rest <= 0:
                return rest
            if i:
                teile.append(", ")
                rest -= 2
            if isinstance(wert, dict):
                assert isinstance(x, tuple)
                rest = _schreibe(x[0], teile, rest, tiefe + 1)
                teile.append(": ")
                rest = _schreibe(x[1], teile, rest - 2, tiefe + 1)
            else:
                rest = _schreibe(x, teile, rest, tiefe + 1)
        teile.append(zu)
        return rest - 1
    else:
        text = f"<{type(wert).__name__}>"
    teile.append(text)
    return rest - len(text)


# --- the workloads --------------------------------------------------------------------------

SCHLUESSEL = Feld("key", ZAHL, 1, "der Schlüssel")
LESEN_KV = Rpc(
    "read",
    (SCHLUESSEL,),
    "read_ok",
    (Feld("value", oder(ZAHL, NICHTS), 3, "der Wert des Schlüssels"),),
    "liest einen Schlüssel",
    (Fehler(20, "Den Schlüssel gab es nie; das Lesen zählt als None", als_ok=True),),
)
SCHREIBEN_KV = Rpc(
    "write",
    (SCHLUESSEL, Feld("value", ZAHL, 3, "der neue Wert")),
    "write_ok",
    (),
    "überschreibt den Wert",
)
CAS_KV = Rpc(
    "cas",
    (
        SCHLUESSEL,
        Feld("from", ZAHL, 3, "der erwartete Wert"),
        Feld("to", ZAHL, 4, "der neue Wert"),
    ),
    "cas_ok",
    (),
    "setzt den Wert auf to, wenn er from ist",
    (
        Fehler(20, "Den Schlüssel gab es nie; nichts ist geschehen"),
        Fehler(22, "Der Wert war nicht from; nichts ist geschehen"),
    ),
)
LOGS = Abbildung(
    name="ein dict: je Log (ein Text) eine ganze Zahl ≥ 0",
    liste="eine Liste von dicts",
    wert=AB_NULL,
)
NACHRICHTEN = Abbildung(
    name="ein dict: je Log (ein Text) eine Liste von Paaren [Offset, Nachricht]",
    liste="eine Liste von dicts",
    wert=liste(
        Paar(
            name="ein Paar [Offset, Nachricht]",
            liste="eine Liste von Paaren [Offset, Nachricht]",
            erstes=AB_NULL,
            zweites=JSON,
        )
    ),
)

#: A transaction of ``txn-rw-register`` (Maelstrom's doc/workloads.md): micro-operations
#: ``[f, key, value]``, ``f`` "r" or "w"; the course's keys and values are ints (or None for a
#: read not filled in / a key never written): the transaction checker compares them.
TXN = liste(
    Liste(
        name='eine Mikro-Operation ["r" oder "w", Schlüssel, Wert]',
        liste='eine Liste von Mikro-Operationen ["r" oder "w", Schlüssel, Wert]',
        element=JSON,
    )
)

#: Each workload's operations, by the workload's name (``Last.name``), as Maelstrom's
#: doc/workloads.md declares them; where the course is stricter (a broadcast message and a
#: counter's value are ints, a register's value is an int or None: what the clients send), the
#: ``Art`` says so.
FORMEN: dict[str, tuple[Rpc, ...]] = {
    "echo": (
        Rpc(
            "echo",
            (Feld("echo", TEXT, "hallo 7", "der Text, der zurückkommen soll"),),
            "echo_ok",
            (Feld("echo", JSON, "hallo 7", "genau der Text der Anfrage"),),
            "bittet um ein Echo",
        ),
    ),
    "unique-ids": (
        Rpc(
            "generate",
            (),
            "generate_ok",
            (
                Feld(
                    "id",
                    ID,
                    "n1-7",
                    "eine ID, die keine andere Antwort trägt (eine Zahl, ein Text, …)",
                ),
            ),
            "bittet um eine neue ID",
        ),
    ),
    "broadcast": (
        Rpc(
            "topology",
            (
                Feld(
                    "topology",
                    Abbildung(
                        name="ein dict: je Knoten die Liste seiner Nachbarn",
                        liste="eine Liste von dicts",
                        wert=liste(TEXT),
                    ),
                    {"n1": ["n2", "n4"]},
                    "die Nachbarn dieses Knotens",
                ),
            ),
            "topology_ok",
            (),
            "nennt jedem Knoten seine Nachbarn",
            vorbereitung=True,
        ),
        Rpc(
            "broadcast",
            (Feld("message", ZAHL, 7, "eine Zahl, die kein anderer broadcast trägt"),),
            "broadcast_ok",
            (),
            "gibt eine Zahl an alle Knoten weiter",
        ),
        Rpc(
            "read",
            (),
            "read_ok",
            (Feld("messages", liste(ZAHL), [1, 7], "jede Zahl, die der Knoten kennt"),),
            "fragt, welche Zahlen der Knoten kennt",
        ),
    ),
    "g-counter": (
        Rpc(
            "add",
            (Feld("delta", AB_NULL, 3, "der Zuwachs"),),
            "add_ok",
            (),
            "zählt delta dazu",
        ),
        Rpc(
            "read",
            (),
            "read_ok",
            (Feld("value", AB_NULL, 42, "der Stand des Zählers"),),
            "fragt nach dem Stand",
        ),
    ),
    "lin-kv": (LESEN_KV, SCHREIBEN_KV, CAS_KV),
    "lease-kv": (LESEN_KV, SCHREIBEN_KV, CAS_KV),
    # challenge 8, stage 2 (``pysim.raft.herausforderung.RaftLog``): through Raft's log, no cas
    "raft-kv": (LESEN_KV, SCHREIBEN_KV),
    # stage 3 (``RaftAbsturz``): the same operations under crashes and restarts
    "raft-absturz": (LESEN_KV, SCHREIBEN_KV),
    # stage 4 (``RaftFigur8``): only the final reads; the director's writes are not a client's
    "raft-figur8": (LESEN_KV, SCHREIBEN_KV),
    # the challenge "Transaktionen" (``pysim.transaktionen.herausforderung``)
    "txn-rw-register": (
        Rpc(
            "txn",
            (
                Feld(
                    "txn",
                    TXN,
                    [["r", 1, None], ["w", 1, 30]],
                    "die Mikro-Operationen, der Reihe nach",
                ),
            ),
            "txn_ok",
            (
                Feld(
                    "txn",
                    TXN,
                    [["r", 1, 20], ["w", 1, 30]],
                    "dieselben Mikro-Operationen, jedes Lesen mit seinem Wert",
                ),
            ),
            "führt eine Transaktion aus",
            (Fehler(30, "Die Transaktion wurde abgebrochen (txn-conflict); nichts ist geschehen"),),
        ),
    ),
    "kafka": (
        Rpc(
            "send",
            (
                Feld("key", TEXT, "k0", "das Log"),
                Feld("msg", ZAHL, 42, "die Nachricht"),
            ),
            "send_ok",
            (Feld("offset", AB_NULL, 3, "der Offset, den die Nachricht bekam"),),
            "hängt eine Nachricht an ein Log",
        ),
        Rpc(
            "poll",
            (Feld("offsets", LOGS, {"k0": 0, "k1": 0}, "je Log, ab welchem Offset"),),
            "poll_ok",
            (
                Feld(
                    "msgs",
                    NACHRICHTEN,
                    {"k0": [[0, 42], [1, 43]]},
                    "je Log die Nachrichten ab dem erfragten Offset",
                ),
            ),
            "liest die Logs",
        ),
        Rpc(
            "commit_offsets",
            (Feld("offsets", LOGS, {"k0": 3}, "je Log, bis wohin verarbeitet ist"),),
            "commit_offsets_ok",
            (),
            "speichert Positionen",
        ),
        Rpc(
            "list_committed_offsets",
            (Feld("keys", liste(TEXT), ["k0", "k1"], "die Logs"),),
            "list_committed_offsets_ok",
            (Feld("offsets", LOGS, {"k0": 3}, "je Log die gespeicherte Position"),),
            "fragt die gespeicherten Positionen ab",
        ),
    ),
}
#: Workloads whose clients ask nothing (challenge 8, stage 1, ``pysim.raft.herausforderung``:
#: elections only); the page's ``nachrichten`` block says so instead of a table.
OHNE_CLIENTS = frozenset({"raft-wahl"})


def formen(last: str) -> tuple[Rpc, ...]:
    """Die Operationen der Last ``last`` (ihr Name, wie ``Last.name``)."""
    try:
        return FORMEN[last]
    except KeyError:
        namen = ", ".join(f"„{n}“" for n in sorted(FORMEN))
        raise UngueltigeEingabe(f"Eine Last „{last}“ gibt es nicht. Es gibt: {namen}.") from None


def form(last: str, f: str) -> Rpc:
    """Die Operation ``f`` der Last ``last``."""
    for rpc in formen(last):
        if rpc.anfrage == f:
            return rpc
    raise UngueltigeEingabe(f"Die Last „{last}“ kennt keine Operation „{f}“.")


# --- the table on a page and the verdict ----------------------------------------------------


def beispiel(typ: str, felder: Sequence[Feld]) -> str:
    """Eine Nachricht als JSON, mit den Beispielwerten ihrer Felder (Pflichtfelder)."""
    body = {"type": typ, **{f.name: f.beispiel for f in felder if f.pflicht}}
    return json.dumps(body, ensure_ascii=False)


def endgueltige_codes() -> list[int]:
    """Maelstrom's codes that say: definitely did not happen."""
    return [code for code, (_, endgueltig) in FEHLERCODES.items() if endgueltig]


@dataclass(frozen=True)
class Formfehler:
    """Antworten in falscher Form in einem Verlauf: ein Satz für das Urteil und die Stellen
    der Ereignisse, die ein Bild hervorhebt."""

    text: str
    zeugen: list[int]
    anzahl: int


def antwortfehler(verlauf: Sequence[Mapping[str, object]]) -> Formfehler | None:
    """Die Antworten in falscher Form in ``verlauf`` (``None``: keine), als ein Satz:
    „Client c2, read bei t=14: Die Antwort hat type „read_ok“, aber …“ (die erste, die anderen
    gezählt)."""
    falsch = [
        (i, e)
        for i, e in enumerate(verlauf)
        if isinstance(fehler := e.get("error"), list | tuple)
        and len(fehler) == 2
        and fehler[0] == FORMFEHLER
    ]
    if not falsch:
        return None
    i, e = falsch[0]
    fehler = e["error"]
    assert isinstance(fehler, list | tuple)
    wer = f"Client {e.get('client')}" if e.get("client") else f"Prozess {e.get('process')}"
    text = f"{wer}, {e.get('f')} bei t={e.get('time')}: {fehler[1]}"
    if len(falsch) > 1:
        mehr = len(falsch) - 1
        text += (
            " Dazu kommt 1 weitere Antwort in falscher Form."
            if mehr == 1
            else f" Dazu kommen {mehr} weitere Antworten in falscher Form."
        )
    beginn = next(
        (
            j
            for j in range(i - 1, -1, -1)
            if verlauf[j].get("type") == "invoke" and verlauf[j].get("process") == e.get("process")
        ),
        None,
    )
    return Formfehler(text, [j for j in (beginn, i) if j is not None], len(falsch))
