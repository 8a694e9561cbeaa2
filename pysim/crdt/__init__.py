"""CRDTs und Local-First: Datentypen, deren Replikate sich ohne Absprache vereinigen.

Teile: ``typen`` (``GCounter``, ``PNCounter``, ``LWWRegister``, ``MVRegister``, ``ORSet``, jeder mit
``merge``), ``modell`` (``CrdtSim``: Replikate auf dem ``FakeNetz`` mit ``sync``, Netzpartitionen und
Verlauf), ``bild`` (der Verlauf als Bild).
"""

from __future__ import annotations

from . import modell, typen
from .modell import *  # noqa: F403
from .typen import *  # noqa: F403

__all__ = [*modell.__all__, *typen.__all__]
