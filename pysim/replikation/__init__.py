"""Replikation und Konsistenz (Lektion „Replikation und Konsistenz“): Leader und Follower, Lag,
Failover, Quorum.

Teile: ``modell`` (``ReplikSpeicher``, die Front auf einem ``pysim.cluster.Cluster``),
``knoten`` (``ReplikKnoten`` und ``KoordinatorKnoten``, die Knoten darauf), ``regeln`` (Rollen, Ereignisse, die Tabelle, Arten von
Nachrichten), ``bild`` (Replikate, Nachrichten, Verlauf mit Urteil), ``konsole`` (die
Replikat-Konsole).
"""

from __future__ import annotations

from . import modell, regeln
from .modell import *  # noqa: F403
from .regeln import *  # noqa: F403

__all__ = [*modell.__all__, *regeln.__all__]
