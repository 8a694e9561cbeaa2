"""Der frühere Pfad von ``pysim.log.regeln``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.log.regeln``.
"""

import sys

import pysim.log.regeln
from pysim.log.regeln import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.log.regeln
