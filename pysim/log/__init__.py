"""Das Log (Lektion „Ereignisströme“): Topics, Partitionen, Offsets und Consumer-Gruppen wie Kafka.

Teile: ``modell`` (``Log``), ``regeln`` (Zuteilung, Commit, Partition eines Schlüssels), ``bild`` (das Bild eines Topics und einer Gruppe), ``konsole`` (die Log-Konsole).
"""

from __future__ import annotations

from . import modell
from .modell import *  # noqa: F403

__all__ = [*modell.__all__]
