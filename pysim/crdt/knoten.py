"""Ein Replikat eines CRDT als Knoten des Clusters (``pysim.cluster``).

``CrdtKnoten`` hält seinen Zustand (einen ``typen.Crdt`` der Klasse ``TYP``) in
``self.speicher["crdt"]``: Er liegt auf der Platte und übersteht einen Absturz, wie die Daten
einer Local-First-App auf dem Gerät. Ein Absturz nimmt nur, was unterwegs war: Zustände, die
ankommen, während der Knoten aus ist, gehen verloren; der nächste ``sync`` bringt sie wieder, denn
jeder ``sync`` trägt den ganzen Zustand.

Nachrichten (Maelstrom-Form, ``type`` und Felder):

- ``crdt_sync`` mit ``zustand`` (dem ganzen Zustand des Absenders): Der Empfänger vereinigt ihn
  mit seinem (``merge``) und antwortet nicht. ``sync()`` schickt ihn an alle anderen Knoten,
  ``sync(["n2"])`` an die genannten. Mit ``GOSSIP = k`` tut jeder Knoten das alle k Ticks von
  selbst (Anti-Entropy); ohne (``None``) nur, wenn man ``sync`` aufruft.
- ``aendere`` mit ``op`` (eine der ``OPERATIONEN`` des Typs, z. B. ``"erhoehe"``) und ``args``:
  eine lokale Änderung; Antwort ``aendere_ok`` mit ``wert``. Eine unbekannte Operation ist
  Fehler 12 (malformed-request), eine, die der Typ ablehnt, Fehler 22.
- ``lies``: Antwort ``lies_ok`` mit ``wert``.

Der Name des Replikats im Zustand ist die ID des Knotens; eine Front wie ``CrdtSim`` gibt ihren
Knoten eigene Namen (``REPLIKATE``: ID → Name). Der Knoten hält keinen Verweis auf den Cluster
oder die Front.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..cluster import Knoten
from ..cluster.nachricht import Nachricht
from ..fehler import SimFehler
from .typen import Crdt, GCounter, kurz_wert

__all__ = ["SYNC", "CrdtKnoten"]

#: The message type that carries a replica's whole state.
SYNC = "crdt_sync"


class CrdtKnoten(Knoten):
    """Ein Replikat eines CRDT auf dem Cluster (siehe das Modul). Einstellungen als
    Klassenattribute: ``TYP`` (Standard ``GCounter``), ``GOSSIP`` (alle wie viele Ticks der
    Knoten seinen Zustand von selbst an alle schickt; ``None``: nie), ``REPLIKATE``
    (Knoten-ID → Name des Replikats im Zustand)."""

    TYP: ClassVar[type[Crdt]] = GCounter
    GOSSIP: ClassVar[int | None] = None
    REPLIKATE: ClassVar[Mapping[str, str]] = {}

    def beim_start(self) -> None:
        if "crdt" not in self.speicher:  # a restart finds it on disk
            self.speicher["crdt"] = self.TYP(self.replikat)
        if self.GOSSIP is not None:
            self.alle(self.GOSSIP, self.sync)

    @property
    def replikat(self) -> str:
        """Der Name dieses Replikats im Zustand (die ID des Knotens, wenn ``REPLIKATE`` ihn
        nicht nennt)."""
        return self.REPLIKATE.get(self.id, self.id)

    @property
    def crdt(self) -> Crdt:
        """Der Zustand dieses Replikats (auf der Platte: ``speicher["crdt"]``)."""
        crdt: Crdt = self.speicher["crdt"]
        return crdt

    def sync(self, an: Sequence[str] | None = None) -> None:
        """Schickt den ganzen Zustand an ``an`` (ohne: an jeden anderen Knoten), je eine
        Nachricht ``crdt_sync``; das Netz kopiert ihn, wie JSON auf der Leitung."""
        ziele = [k for k in self.knoten if k != self.id] if an is None else an
        for ziel in ziele:
            self.sende(ziel, {"type": SYNC, "zustand": self.crdt})

    def bei_crdt_sync(self, nachricht: Nachricht) -> None:
        zustand = nachricht["zustand"]
        if type(zustand) is type(self.crdt):  # anything else is not a state of this replica
            self.crdt.uebernimm(zustand)

    def bei_aendere(self, nachricht: Nachricht) -> None:
        op, args = nachricht.body.get("op"), nachricht.body.get("args", [])
        if op not in self.TYP.OPERATIONEN or not isinstance(args, list):
            erlaubt = ", ".join(self.TYP.OPERATIONEN)
            self._fehler(nachricht, 12, f"{self.TYP.NAME} kennt nur {erlaubt}, nicht {op!r}.")
            return
        try:
            getattr(self.crdt, op)(*args)
        except (SimFehler, TypeError) as e:
            self._fehler(nachricht, 22, str(e))
            return
        self.antworte(nachricht, {"type": "aendere_ok", "wert": self.crdt.wert})

    def bei_lies(self, nachricht: Nachricht) -> None:
        self.antworte(nachricht, {"type": "lies_ok", "wert": self.crdt.wert})

    def _fehler(self, nachricht: Nachricht, code: int, text: str) -> None:
        self.antworte(nachricht, {"type": "error", "code": code, "text": text})

    def zustand(self) -> Mapping[str, object]:
        """Was der Knoten im Bild zeigt und eine Invariante prüft: der Wert, kurz."""
        return {"wert": kurz_wert(self.crdt)}

    def __repr__(self) -> str:
        return f"CrdtKnoten({self.replikat}: {self.crdt!r})"
