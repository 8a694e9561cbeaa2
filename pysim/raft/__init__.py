"""Konsens mit Raft (Lektion „Konsens: Leader-Wahl und Raft“): Wahl, Log, Commit, Störungen.

Teile: ``knoten`` (``RaftKnoten``: ein Raft-Knoten auf ``pysim.cluster``, die Stimmregel als
Methode ``stimmt_fuer``), ``modell`` (``RaftSim``: die Front der Lektion auf einem ``Cluster``
solcher Knoten), ``regeln`` (Rollen, Ereignisse, die Tabelle), ``bild`` (je Knoten Rolle, Term
und Log; Netz und Urteil), ``wahlpruefung`` (``pruefe_wahl``: eine Stimmregel durch erzeugte
Störungspläne), ``herausforderung`` (Herausforderung 8: die Last ``raft-wahl`` und die
Invarianten von Raft nach jedem Ereignis, für den Raft-Knoten der Leserin).
"""

from __future__ import annotations

from . import modell, regeln, wahlpruefung
from .modell import *  # noqa: F403
from .regeln import *  # noqa: F403
from .wahlpruefung import *  # noqa: F403

__all__ = [*modell.__all__, *regeln.__all__, *wahlpruefung.__all__]
