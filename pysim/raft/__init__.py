"""Konsens mit Raft (Lektion „Konsens: Leader-Wahl und Raft“): Wahl, Log, Commit, Störungen.

Teile: ``modell`` (``RaftSim``), ``regeln`` (Rollen, Ereignisse, die Tabelle), ``bild`` (je
Knoten Rolle, Term und Log; Netz und Urteil).
"""

from __future__ import annotations

from . import modell, regeln
from .modell import *  # noqa: F403
from .regeln import *  # noqa: F403

__all__ = [*modell.__all__, *regeln.__all__]
