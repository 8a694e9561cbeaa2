"""Der frühere Pfad von ``pysim.queue.modell``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.queue.modell``.
"""

import sys

import pysim.queue.modell
from pysim.queue.modell import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.queue.modell
