"""Der frühere Pfad von ``pysim.last.schutzschalter``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.last.schutzschalter``.
"""

import sys

import pysim.last.schutzschalter
from pysim.last.schutzschalter import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.last.schutzschalter
