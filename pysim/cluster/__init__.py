"""Verteilte Knoten, die die Leserin schreibt, in einem deterministischen Cluster mit Störungen.

- ``Knoten``: die Basisklasse des Knotens der Leserin (Handler ``bei_<typ>``, ``sende``,
  ``antworte``, ``await frage``, ``await warte``, ``spaeter``, ``alle``, ``uhr``, ``speicher``),
- ``Cluster``: Knoten, Netz (Laufzeit, Verlust, Netzpartitionen) und Dienste auf einer ``Zeit``,
- ``Stoerung`` und ``zufaelliger_plan``: der Nemesis (teilen, isolieren, Brücke, Absturz, Pause, Uhr);
  ``GezielterNemesis``: gezielte Störungen (``GEZIELT``) im Augenblick, in dem sie treffen,
- ``Netzzugang``: alles, was ein Knoten vom Cluster sieht,
- ``LinKV``, ``SeqKV``, ``LwwKV``: Maelstroms Dienste ``lin-kv``, ``seq-kv``, ``lww-kv``;
  ``LeaseDienst`` (``lease``) und ``FencingKV`` (``fence-kv``) für Leases und Fencing,
- Lasten: ``Echo``, ``EindeutigeIds``, ``Broadcast``, ``Zaehler``, ``Register``, ``LeaseRegister``, ``KafkaLog``,
- ``lauf``: ein ganzer Lauf mit Verlauf (``Lauf``), wiederholbar aus seiner ``kennung``;
  ``Lauf.protokoll``: was die Knoten notierten und druckten (``pysim.cluster.protokoll``).

Wie das zu Maelstrom passt und was vereinfacht ist: ``pysim.cluster.knoten`` und
``pysim.cluster.cluster``.
"""

from .cluster import Cluster, HandlerFehler, LaufAbgebrochen, Sendung
from .dienste import DIENSTE, FencingKV, LeaseDienst, LinKV, LwwKV, SeqKV
from .knoten import FehlerAntwort, KeineAntwort, Knoten, Netzzugang
from .lasten import (
    Broadcast,
    Echo,
    EindeutigeIds,
    Geplant,
    KafkaLog,
    Last,
    LeaseRegister,
    Register,
    Zaehler,
)
from .lauf import RUHE, Lauf, lauf
from .nachricht import FEHLERCODES, Nachricht, UngueltigeNachricht
from .stoerungen import (
    FENSTER,
    GEZIELT,
    Ausloeser,
    GezielterNemesis,
    Stoerung,
    plan_aus_text,
    zufaelliger_nemesis,
    zufaelliger_plan,
)

__all__ = [
    "DIENSTE",
    "FEHLERCODES",
    "FENSTER",
    "GEZIELT",
    "RUHE",
    "Ausloeser",
    "Broadcast",
    "Cluster",
    "Echo",
    "EindeutigeIds",
    "FehlerAntwort",
    "FencingKV",
    "Geplant",
    "GezielterNemesis",
    "HandlerFehler",
    "KafkaLog",
    "KeineAntwort",
    "Knoten",
    "Last",
    "Lauf",
    "LaufAbgebrochen",
    "LeaseDienst",
    "LeaseRegister",
    "LinKV",
    "LwwKV",
    "Nachricht",
    "Netzzugang",
    "Register",
    "Sendung",
    "SeqKV",
    "Stoerung",
    "UngueltigeNachricht",
    "Zaehler",
    "lauf",
    "plan_aus_text",
    "zufaelliger_nemesis",
    "zufaelliger_plan",
]
