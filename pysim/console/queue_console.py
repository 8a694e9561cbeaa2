"""Der frühere Pfad von ``pysim.queue.konsole``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.queue.konsole``.
"""

import sys

import pysim.queue.konsole
from pysim.queue.konsole import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.queue.konsole
