"""Der frühere Pfad von ``pysim.last.bild``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.last.bild``.
"""

import sys

import pysim.last.bild
from pysim.last.bild import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.last.bild
