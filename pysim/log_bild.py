"""Der frühere Pfad von ``pysim.log.bild``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.log.bild``.
"""

import sys

import pysim.log.bild
from pysim.log.bild import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.log.bild
