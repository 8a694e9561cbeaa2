"""CRDTs und Local-First: Datentypen, deren Replikate sich ohne Absprache vereinigen.

Teile: ``typen`` (``GCounter``, ``PNCounter``, ``LWWRegister``, ``MVRegister``, ``ORSet``, jeder mit
``merge``), ``knoten`` (``CrdtKnoten``: ein Replikat als Knoten des Clusters, ``sync`` als
Nachricht, der Zustand auf der Platte), ``modell`` (``CrdtSim``: die Front auf einem Cluster
solcher Knoten mit ``sync``, Netzpartitionen, Abstürzen und Verlauf), ``bild`` (der Verlauf als
Bild).
"""

from __future__ import annotations

from . import knoten, modell, typen
from .knoten import *  # noqa: F403
from .modell import *  # noqa: F403
from .typen import *  # noqa: F403

__all__ = [*knoten.__all__, *modell.__all__, *typen.__all__]
