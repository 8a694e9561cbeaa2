"""Der frühere Pfad von ``pysim.queue.bild``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.queue.bild``.
"""

import sys

import pysim.queue.bild
from pysim.queue.bild import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.queue.bild
