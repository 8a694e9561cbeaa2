"""Die Regeln der Queue an einer Stelle: die Zustände einer Nachricht, ihre Ereignisse, die Tabelle.

Das Modell (``modell``) und sein Bild (``bild``) lesen beide von hier; keiner importiert den
anderen dafür.
"""

from __future__ import annotations

from ..uebergaenge import schlage_nach, wechsle

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

#: (Zustand, Ereignis) -> neuer Zustand; ``None``: erlaubt, ändert nichts. Was fehlt, kann
#: nicht vorkommen (``pysim.uebergaenge``: eine Regel für alle Tabellen).
UEBERGAENGE: dict[tuple[str, str], str | None] = {
    (SICHTBAR, AUSLIEFERN): UNTERWEGS,
    (SICHTBAR, ACK): BESTAETIGT,
    (UNTERWEGS, ACK): BESTAETIGT,
    # An ack for an earlier delivery changes nothing.
    (SICHTBAR, ACK_VERALTET): None,
    (UNTERWEGS, ACK_VERALTET): None,
    (UNTERWEGS, TIMEOUT): SICHTBAR,
    (UNTERWEGS, TIMEOUT_NACH_LETZTEM_VERSUCH): IN_DLQ,
    (BESTAETIGT, ACK): None,
    (IN_DLQ, ACK): None,
    (BESTAETIGT, ACK_VERALTET): None,
    (IN_DLQ, ACK_VERALTET): None,
}

# Arten der Einträge im Verlauf einer Nachricht. Wer einen Zustand erreicht, heißt wie er.
GESENDET = "gesendet"
AUSGELIEFERT = "ausgeliefert"
WIEDER_SICHTBAR = "wieder_sichtbar"


def uebergang(zustand: str, ereignis: str) -> str | None:
    """Der neue Zustand nach ``ereignis`` laut ``UEBERGAENGE``."""
    return schlage_nach(UEBERGAENGE, zustand, ereignis)


def wechsel(zustand: str, ereignis: str) -> str:
    """Wie ``uebergang`` für ein Ereignis, das den Zustand immer ändert."""
    return wechsle(UEBERGAENGE, zustand, ereignis)
