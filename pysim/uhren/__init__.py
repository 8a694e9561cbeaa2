"""Zeit, Ordnung und Kausalität: Rechner mit eigenen Uhren, Lamport- und Vektoruhren, Versionen.

Teile: ``modell`` (``Welt``, ``Knoten``, Uhren), ``bild`` (das Raum-Zeit-Diagramm), ``versionen`` (last write wins gegen Versionsvektoren).
"""

from __future__ import annotations

from . import modell, versionen
from .modell import *  # noqa: F403
from .versionen import *  # noqa: F403

__all__ = [*modell.__all__, *versionen.__all__]
