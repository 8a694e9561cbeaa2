"""Die Regeln der Queue an einer Stelle: die Zustände einer Nachricht, ihre Ereignisse, die Tabelle.

Das Modell (``modell``) und sein Bild (``bild``) lesen beide von hier; keiner importiert den
anderen dafür.
"""

from __future__ import annotations

from ..uebergaenge import Regeltabelle

#: What ``from pysim.queue import *`` and the package give (the module's public API).
__all__ = [
    "ACK",
    "ACK_VERALTET",
    "AUSGELIEFERT",
    "AUSLIEFERN",
    "BESTAETIGT",
    "GESENDET",
    "IN_DLQ",
    "SICHTBAR",
    "TIMEOUT",
    "TIMEOUT_NACH_LETZTEM_VERSUCH",
    "UEBERGAENGE",
    "UNERLEDIGT",
    "UNTERWEGS",
    "WIEDER_SICHTBAR",
    "uebergang",
    "wechsel",
]


# --- Zustände einer Nachricht und die erlaubten Übergänge (die einzige Stelle mit Regeln) ---

SICHTBAR = "sichtbar"
UNTERWEGS = "unterwegs"
BESTAETIGT = "bestätigt"
IN_DLQ = "in der DLQ"

#: Zustände, in denen eine Nachricht noch nicht erledigt ist (sichtbar oder unterwegs).
UNERLEDIGT = (SICHTBAR, UNTERWEGS)

# Ereignisse, die den Zustand einer Nachricht ändern (oder bewusst nicht).
AUSLIEFERN = "ausliefern"
ACK = "ack"
#: Ein Ack für eine frühere Zustellung (ein alter Receipt Handle).
ACK_VERALTET = "ack_veraltet"
TIMEOUT = "timeout"
TIMEOUT_NACH_LETZTEM_VERSUCH = "timeout_nach_letztem_versuch"

#: (Zustand, Ereignis) -> neuer Zustand, geschrieben je Zustand; ``None``: erlaubt, ändert
#: nichts (ein Ack für eine frühere Zustellung, ein zweites Ack). Was fehlt, kann nicht
#: vorkommen (``pysim.uebergaenge``: eine Regel für alle Tabellen).
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        SICHTBAR: {AUSLIEFERN: UNTERWEGS, ACK: BESTAETIGT, ACK_VERALTET: None},
        UNTERWEGS: {
            ACK: BESTAETIGT,
            ACK_VERALTET: None,
            TIMEOUT: SICHTBAR,
            TIMEOUT_NACH_LETZTEM_VERSUCH: IN_DLQ,
        },
        BESTAETIGT: {ACK: None, ACK_VERALTET: None},
        IN_DLQ: {ACK: None, ACK_VERALTET: None},
    }
)

# Arten der Einträge im Verlauf einer Nachricht. Wer einen Zustand erreicht, heißt wie er.
GESENDET = "gesendet"
AUSGELIEFERT = "ausgeliefert"
WIEDER_SICHTBAR = "wieder_sichtbar"

#: Der neue Zustand nach einem Ereignis laut ``UEBERGAENGE`` (``None``: ändert nichts), und
#: dasselbe für ein Ereignis, das den Zustand immer ändert.
uebergang = UEBERGAENGE.uebergang
wechsel = UEBERGAENGE.wechsel
