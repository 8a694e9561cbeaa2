"""Orchestrierte Sagas (Lektion „Sagas“): Kompensation, Idempotenzschlüssel, Outbox, Störungen.

Teile: ``modell`` (``SagaSim`` und ihre Zustandstabelle), ``bild`` (die Zeitleiste), ``konsole`` (die Saga-Konsole).
"""

from __future__ import annotations

from . import modell
from .modell import *  # noqa: F403

__all__ = [*modell.__all__]
