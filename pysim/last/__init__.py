"""Last auf einem Dienst (Lektion „Timeouts, Retries und Backpressure“).

Teile: ``modell`` (``Lastsim``), ``schutzschalter`` (``Schutzschalter``), ``bild`` (Verlauf, Wellen, Perzentile).
"""

from __future__ import annotations

from . import modell, schutzschalter
from .modell import *  # noqa: F403
from .schutzschalter import *  # noqa: F403

__all__ = [*modell.__all__, *schutzschalter.__all__]
