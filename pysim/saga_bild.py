"""Der frühere Pfad von ``pysim.saga.bild``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.saga.bild``.
"""

import sys

import pysim.saga.bild
from pysim.saga.bild import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.saga.bild
