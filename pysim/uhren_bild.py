"""Der frühere Pfad von ``pysim.uhren.bild``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.uhren.bild``.
"""

import sys

import pysim.uhren.bild
from pysim.uhren.bild import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.uhren.bild
