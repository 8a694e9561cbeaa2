"""Der frühere Pfad von ``pysim.uhren.versionen``: Code, der ihn importiert, läuft weiter.

Dasselbe Modul, nicht eine Kopie: ``sys.modules`` zeigt unter beiden Namen auf ``pysim.uhren.versionen``.
"""

import sys

import pysim.uhren.versionen
from pysim.uhren.versionen import *  # noqa: F403  (for type checkers; at run time the line below decides)

sys.modules[__name__] = pysim.uhren.versionen
