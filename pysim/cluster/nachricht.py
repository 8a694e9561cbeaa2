"""Eine Nachricht zwischen Knoten, in der Form von Maelstroms Protokoll.

``{"src": "n1", "dest": "n2", "body": {"type": "echo", "msg_id": 1, …}}``: Absender, Empfänger
und ein Inhalt (``body``) mit einem ``type``. Eine Anfrage trägt eine ``msg_id``, ihre Antwort
dieselbe Zahl als ``in_reply_to``. Ein Fehler ist eine Antwort vom Typ ``error`` mit einem
``code`` (Maelstroms Tabelle: ``FEHLERCODES``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..fehler import SimFehler, kurz, wert_text

#: Maelstrom's error codes (doc/protocol.md, "Errors"): code -> (name, definite). A definite
#: error means the operation did not happen and never will; any other may have happened.
FEHLERCODES: dict[int, tuple[str, bool]] = {
    0: ("timeout", False),
    1: ("node-not-found", True),
    10: ("not-supported", True),
    11: ("temporarily-unavailable", True),
    12: ("malformed-request", True),
    13: ("crash", False),
    14: ("abort", True),
    20: ("key-does-not-exist", True),
    21: ("key-already-exists", True),
    22: ("precondition-failed", True),
    30: ("txn-conflict", True),
}


def ist_endgueltig(code: object) -> bool:
    """Sagt ein Fehler mit ``code`` sicher, dass die Operation nicht geschah? Eigene Codes
    (ab 1000) und unbekannte gelten wie bei Maelstrom als unbestimmt."""
    return isinstance(code, int) and FEHLERCODES.get(code, ("", False))[1]


class UngueltigeNachricht(SimFehler, ValueError):
    """Eine Nachricht hat nicht die Form, die das Protokoll verlangt (kein Ziel, kein Typ …)."""


@dataclass(frozen=True, slots=True)  # slots: a run keeps every message (``Cluster.sendungen``)
class Nachricht:
    """Eine Nachricht: ``src`` (Absender), ``dest`` (Empfänger), ``body`` (Inhalt mit ``type``)."""

    src: str
    dest: str
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def typ(self) -> str:
        """Der ``type`` des Inhalts."""
        return str(self.body.get("type", ""))

    def __getitem__(self, name: str) -> Any:
        """``nachricht["echo"]`` liest ein Feld des Inhalts (wie ``nachricht.body["echo"]``)."""
        try:
            return self.body[name]
        except KeyError:
            felder = ", ".join(f"„{k}“" for k in self.body) or "keine"
            raise KeyError(
                f"Die Nachricht vom Typ „{self.typ}“ hat kein Feld „{name}“. Ihre Felder: {felder}."
            ) from None

    def als_dict(self) -> dict[str, Any]:
        """Die Nachricht so, wie Maelstrom sie als JSON schickt."""
        return {"src": self.src, "dest": self.dest, "body": dict(self.body)}

    def __repr__(self) -> str:
        felder = ", ".join(f"{k}={v!r}" for k, v in self.body.items() if k != "type")
        return f"Nachricht({self.src} → {self.dest}: {self.typ}{' ' if felder else ''}{felder})"


_neu = object.__new__
_SRC, _DEST, _BODY = (vars(Nachricht)[name].__set__ for name in ("src", "dest", "body"))


def neue_nachricht(src: str, dest: str, body: dict[str, Any]) -> Nachricht:
    """``Nachricht(src, dest, body)`` in half the time (the slots set directly, past the frozen
    dataclass's ``__init__``): the cluster makes one per message sent."""
    n: Nachricht = _neu(Nachricht)
    _SRC(n, src)
    _DEST(n, dest)
    _BODY(n, body)
    return n


def inhalt(body: object, wer: str) -> dict[str, Any]:
    """``body`` als Inhalt einer Nachricht: ein dict mit einem Text als ``type``.

    Eine Kopie, bis in jede Liste und jedes dict hinein, wie JSON auf der Leitung: Was der
    Absender danach an seinen Werten ändert, ändert die Nachricht nicht (eine Antwort
    ``{"messages": self.werte}`` hält den Stand beim Senden fest)."""
    if not isinstance(body, dict):
        raise UngueltigeNachricht(
            f"{wer}: Der Inhalt einer Nachricht ist ein dict wie "
            f'{{"type": "echo", "echo": "hallo"}}, nicht {wert_text(body, 60)}.'
        )
    typ = body.get("type")
    if not isinstance(typ, str) or not typ:
        raise UngueltigeNachricht(
            f"{wer}: Jede Nachricht braucht einen „type“ (einen Text), z. B. "
            f'{{"type": "echo", …}}. Dieser Inhalt hat {"keinen" if typ is None else wert_text(typ, 60)}.'
        )
    return {k: v if type(v) in _FEST else kopie(v) for k, v in body.items()}


#: Values a copy can share: nothing can change them.
_FEST = frozenset({int, str, float, bool, type(None), bytes})


def kopie(wert: Any) -> Any:
    """A copy of ``wert`` down to its last list, dict and set: a message on the wire shares
    nothing with its sender (fast for what JSON has, ``deepcopy`` for anything else)."""
    # The hot path of a run (a list of a few hundred numbers in every read_ok or gossip):
    # plain lists and dicts whose items need no copy of their own (benchmarks/README.md).
    typ = type(wert)
    if typ is list:
        return [v if type(v) in _FEST else kopie(v) for v in wert]
    if typ is dict:
        return {k: v if type(v) in _FEST else kopie(v) for k, v in wert.items()}
    if typ in _FEST:
        return wert
    if isinstance(wert, dict):
        return {k: kopie(v) for k, v in wert.items()}
    if isinstance(wert, list):
        return [kopie(v) for v in wert]
    if isinstance(wert, tuple):
        return tuple(kopie(v) for v in wert)
    if isinstance(wert, set):
        return {kopie(v) for v in wert}
    if wert is None or isinstance(wert, str | int | float | bytes | frozenset):
        return wert
    kopierer = None if isinstance(wert, type) else getattr(wert, "__deepcopy__", None)
    if kopierer is not None:  # what deepcopy calls (a CRDT's state), without its machinery
        return kopierer({})
    return copy.deepcopy(wert)  # anything else the reader sends (a deque, an object)


def ziel(dest: object, bekannt: set[str], wer: str) -> str:
    """``dest`` als Empfänger: ein Knoten, ein Client oder ein Dienst, den es gibt."""
    if not isinstance(dest, str) or not dest:
        raise UngueltigeNachricht(
            f"{wer}: Der Empfänger ist der Name eines Knotens wie „n2“, nicht {wert_text(dest, 60)}."
        )
    if dest not in bekannt:
        namen = ", ".join(f"„{n}“" for n in sorted(bekannt))
        raise UngueltigeNachricht(
            f"{wer}: Einen Empfänger „{kurz(dest)}“ gibt es nicht. Es gibt: {namen}."
        )
    return dest
