"""Der frühere Pfad von ``pysim.log.konsole``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.log.konsole``.
"""

import sys

import pysim.log.konsole
from pysim.log.konsole import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.log.konsole
