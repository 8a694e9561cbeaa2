"""Der frühere Pfad von ``pysim.saga.konsole``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.saga.konsole``.
"""

import sys

import pysim.saga.konsole
from pysim.saga.konsole import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.saga.konsole
