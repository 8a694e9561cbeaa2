"""Partitionierung: wie ein Schlüssel seinen Knoten findet, was umzieht, wenn Knoten kommen und
gehen, heiße Schlüssel, Sekundärindizes und wie eine Anfrage ihren Knoten erreicht.

- ``verteilung``: ``Modulo``, ``Ring`` (konsistentes Hashing), ``Slots`` (feste Partitionen wie
  Redis Cluster), ``Bereiche``; ``umzug`` zählt, was zwischen zwei Verteilungen umzieht.
- ``last``: eine schiefe Last (ein Promi-Schlüssel) und die Wartezeit, die sie auf einem Knoten
  macht.
- ``index``: Sekundärindizes, lokal (jede Partition gefragt) und global (eine gefragt, spät
  geschrieben).
- ``routing``: Client mit Karte (und ``MOVED``), Routing-Schicht, jeder Knoten leitet weiter.
- ``konsole``: die Partitions-Konsole der Lektion, ``bild`` ihr Bild.
"""

from . import verteilung
from .verteilung import *  # noqa: F403  (the public names are verteilung's)

__all__ = verteilung.__all__
