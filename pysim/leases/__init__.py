"""Leases, Sperren und Fencing Tokens (Lektion „Leases, Sperren und Fencing Tokens“).

Teile: ``modell`` (``LeaseSim``, die Front auf einem ``pysim.cluster.Cluster``, Clients,
Speicher), ``knoten`` (``LeaseKnoten``, ein Client als Knoten des Clusters, die Zustandstabelle
``UEBERGAENGE`` und die Invariante ``ein_inhaber``), ``bild`` (die Zeitleiste je Client).
"""

from __future__ import annotations

from . import modell
from .knoten import INHABER, LeaseKnoten, ein_inhaber
from .modell import *  # noqa: F403

__all__ = [*modell.__all__, "INHABER", "LeaseKnoten", "ein_inhaber"]
