"""Leases, Sperren und Fencing Tokens (Lektion „Leases, Sperren und Fencing Tokens“).

Teile: ``modell`` (``LeaseSim``, Sperrdienst, Clients, Speicher und die Zustandstabelle), ``bild`` (die Zeitleiste je Client).
"""

from __future__ import annotations

from . import modell
from .modell import *  # noqa: F403

__all__ = [*modell.__all__]
