"""Die Queue (Lektion 1): Ack pro Zustellung, Visibility Timeout, Dead Letter Queue.

Teile: ``modell`` (``Queue``), ``regeln`` (Zustände, Ereignisse, die Zustandstabelle), ``bild`` (die Zeitleiste einer Nachricht), ``konsole`` (die Queue-Konsole).
"""

from __future__ import annotations

from . import modell, regeln
from .modell import *  # noqa: F403
from .regeln import *  # noqa: F403

__all__ = [*modell.__all__, *regeln.__all__]
