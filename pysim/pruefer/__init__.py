"""pysim.pruefer: Prüfer für Verläufe verteilter Läufe, mit deutschen Urteilen.

Die Prüfer kennen nur den Verlauf (history), nicht den Cluster, der ihn erzeugte. Reines
Python ohne Abhängigkeiten, in CPython und Pyodide gleich; jedes Urteil ist deterministisch.

Der Verlauf
-----------

Eine Liste von Ereignissen (dicts) in Realzeit-Reihenfolge, wie bei Jepsen::

    {"process": 1, "type": "invoke", "f": "write", "key": "x", "value": 1, "time": 37}
    {"process": 1, "type": "ok",     "f": "write", "key": "x", "value": 1, "time": 41}

- ``process`` (int oder str): wer die Operation ausführt. Ein Prozess hat höchstens eine
  offene Operation.
- ``type``: ``"invoke"`` beginnt eine Operation; ``"ok"``, ``"fail"`` oder ``"info"`` schließt
  die offene Operation desselben Prozesses ab. ``ok``: hat gewirkt. ``fail``: hat sicher nicht
  gewirkt. ``info``: unbestimmt, kann zu jeder Zeit nach dem ``invoke`` gewirkt haben oder nie.
  Ein ``invoke`` ohne Abschluss am Ende des Verlaufs zählt als ``info``.
- ``f`` (str): die Operation, je Prüfer festgelegt (siehe dort).
- ``key`` (optional): der Schlüssel; verschiedene Schlüssel sind unabhängig.
- ``value`` (optional, sonst ``None``): am ``invoke`` die Eingabe, am Abschluss das Ergebnis.
  Ein ``ok`` ohne ``value`` übernimmt für Schreibendes die Eingabe.
- ``node`` (optional): der Knoten, der die Operation bediente (``broadcast`` braucht es bei
  ``read``; ``zaehler`` prüft das letzte Lesen je Knoten).
- ``time`` (int >= 0): virtuelle Ticks, nie kleiner als beim Ereignis davor; Urteile und
  Kennzahlen nennen sie. Geordnet wird nach der Stelle in der Liste, nicht nach dem Tick: Die
  Liste steht in der Reihenfolge, in der die Ereignisse geschahen, auch innerhalb eines Ticks
  (wie Jepsens ``index``). Eine Operation liegt vor einer anderen, wenn ihr ``ok`` in der Liste
  vor dem ``invoke`` der anderen steht. So sind die Operationen eines Prozesses immer
  nacheinander, und nur Operationen verschiedener Prozesse überlappen sich.

- ``client`` (optional, str): der Name dessen, der die Operation ausführt, wie ihn ein Bild
  zeigt (``pysim.cluster`` schreibt ``"c7"``). Steht er da, nennt ein Urteil ihn („Client c7“)
  statt der Nummer des Prozesses („Prozess 10002“): dieselbe Operation, ein Name im Urteil und
  im Raum-Zeit-Bild. Nach einem ``info`` bleibt der Name, die Nummer des Prozesses wechselt.

Weitere Felder (``index``, ``error``, wie ``pysim.cluster`` sie schreibt) stören nicht. Ein Abschluss darf ``f``, ``key`` und ``node`` wiederholen, aber nicht ändern. Ein Verlauf,
der das verletzt, ist ein ``UngueltigerVerlauf`` (ein ``SimFehler``) mit deutscher Meldung,
die den Index des schuldigen Ereignisses nennt (auch als Attribut ``index``).

Die Prüfer
----------

Jeder gibt ein ``Urteil``: ``ok``, ``erklaerung`` (deutsch), ``zeugen`` (die belegenden
Operationen, mit den Indizes ihrer Ereignisse), ``entschieden``, ``angaben``.

- ``linearisierbar(history, model="register")``: ``read`` (Ergebnis im ``value`` des ``ok``),
  ``write``, ``cas`` (``value = [erwartet, neu]``); anfangs ``None``. Wie Porcupine: Schlüssel
  getrennt, Suche mit Gedächtnis, nach ``max_schritte`` Abbruch mit ``entschieden=False``.
  ``linearisierungspunkte(history)``: der Tick, zu dem jede Operation in der gefundenen
  Reihenfolge wirkte (bei einem Fehler: im längsten Anfang, der linearisierbar ist).
- ``eindeutige_ids(history)``: ``generate``, das ``ok`` trägt die ID.
- ``broadcast(history, geheilt=…, knoten=…)``: ``broadcast`` und ``read`` (mit ``node``).
- ``zaehler(history, geheilt=…)``: ``add`` und ``read`` eines Grow-only Counters.
- ``kafka_log(history)``: ``send``, ``poll``, ``commit_offsets``, ``list_committed_offsets``.
- ``transaktionen(history, stufe="serialisierbar", endstand=None)``: ``txn`` mit
  Mikro-Operationen ``["r", k, v]``/``["w", k, v]``; Anomalien (G0, G1a, G1b, G1c, Lost
  Update, G-single, G2-item) wie Jepsens Elle, mit dem Kreis der Abhängigkeiten;
  ``endstand``: der Wert jedes Schlüssels am Ende, die letzte Version.
- ``kennzahlen(history, nachrichten=None)``: Latenz p50/p99/max, Verfügbarkeit, Nachrichten
  je Operation.
"""

from .broadcast import broadcast
from .echo import echo
from .eindeutig import eindeutige_ids
from .kafka import kafka_log
from .kennzahlen import Kennzahlen, kennzahlen
from .linearisierbar import MAX_SCHRITTE, linearisierbar, linearisierungspunkte
from .transaktionen import transaktionen
from .urteil import Urteil
from .verlauf import Operation, UngueltigerVerlauf, operationen
from .zaehler import zaehler

__all__ = [
    "MAX_SCHRITTE",
    "Kennzahlen",
    "Operation",
    "UngueltigerVerlauf",
    "Urteil",
    "broadcast",
    "echo",
    "eindeutige_ids",
    "kafka_log",
    "kennzahlen",
    "linearisierbar",
    "linearisierungspunkte",
    "operationen",
    "transaktionen",
    "zaehler",
]
