"""Verteilte Knoten, die die Leserin schreibt, in einem deterministischen Cluster mit Störungen.

- ``Knoten``: die Basisklasse des Knotens der Leserin (Handler ``bei_<typ>``, ``sende``,
  ``antworte``, ``await frage``, ``await warte``, ``await erste``, ``await mehrheit``,
  ``await eines``, ``spaeter`` (gibt einen ``Timer``: ``absagen()``), ``alle``, ``uhr``,
  ``speicher``, ``rolle``, ``zustand``),
- ``Cluster``: Knoten, Netz (Laufzeit, Verlust, Netzpartitionen, ``latenz_zwischen``) und
  Dienste auf einer ``Zeit``; ``invariante`` (nach jedem Ereignis geprüft, ``Verletzung``),
  ``zustaende`` (was jeder Knoten zeigt, für die Tafel im Bild),
- ``Stoerung`` und ``zufaelliger_plan``: der Nemesis (teilen, isolieren, Brücke, Absturz, Pause,
  Uhr, langsame Leitungen; auch auf eine Rolle gezielt: ``absturz:[leader]``);
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

from .cluster import (
    Cluster,
    HandlerFehler,
    InvarianteVerletzt,
    LaufAbgebrochen,
    Sendung,
    Verletzung,
)
from .dienste import DIENSTE, FencingKV, LeaseDienst, LinKV, LwwKV, SeqKV
from .knoten import FehlerAntwort, KeineAntwort, Knoten, Netzzugang, Timer, ZuWenigAntworten
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
    "InvarianteVerletzt",
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
    "Timer",
    "UngueltigeNachricht",
    "Verletzung",
    "Zaehler",
    "ZuWenigAntworten",
    "lauf",
    "plan_aus_text",
    "zufaelliger_nemesis",
    "zufaelliger_plan",
]
