"""Die Regeln der Replikation an einer Stelle: die Rollen eines Replikats, seine Ereignisse, die
Tabelle.

Das Modell (``modell``), die Knoten (``knoten``), das Bild (``bild``) und die Konsole lesen
von hier; keiner importiert
den anderen dafür. Ob ein Replikat ausgefallen oder abgetrennt ist, ist keine Rolle: Ein
ausgefallenes Replikat behält seine Rolle und seine Daten (sie liegen auf der Platte) und antwortet
nur nicht.
"""

from __future__ import annotations

from ..uebergaenge import Regeltabelle

__all__ = [
    "BEFOERDERN",
    "BESTAETIGE",
    "FOLLOWER",
    "GLEICHRANGIG",
    "KOORDINATOR",
    "LEADER",
    "LEADER_MODUS",
    "LIES",
    "LIES_OK",
    "NEUER_LEADER",
    "QUORUM",
    "QUORUM_MODUS",
    "REPLIZIERE",
    "SCHREIBE",
    "SCHREIBE_OK",
    "UEBERGAENGE",
    "UEBERNAHME",
    "uebergang",
    "wechsel",
]

# --- Rollen einer Replik ---

LEADER = "Leader"
FOLLOWER = "Follower"
#: Im Quorum-Modus sind alle Repliken gleichrangig (kein Leader, wie Dynamo oder Cassandra).
GLEICHRANGIG = "gleichrangig"

# --- Ereignisse, die die Rolle ändern (oder bewusst nicht) ---

#: Failover: Ein Follower wird zum Leader befördert.
BEFOERDERN = "befördern"
#: Die Replik erfährt von einem Leader mit höherer Epoche (sie folgt ihm danach).
NEUER_LEADER = "neuer_leader"
#: Der Speicher wechselt in den Quorum-Modus (nur vor dem ersten Schreiben).
QUORUM = "quorum"

#: (Rolle, Ereignis) -> neue Rolle, geschrieben je Rolle; ``None``: erlaubt, ändert nichts. Was
#: fehlt, kann nicht vorkommen (``pysim.uebergaenge``: eine Regel für alle Tabellen).
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        # An old leader that hears of a newer one steps down; a follower just follows it.
        LEADER: {NEUER_LEADER: FOLLOWER, QUORUM: GLEICHRANGIG},
        FOLLOWER: {BEFOERDERN: LEADER, NEUER_LEADER: None, QUORUM: GLEICHRANGIG},
        GLEICHRANGIG: {QUORUM: None},
    }
)

# --- Modi des Speichers ---

LEADER_MODUS = "leader"
QUORUM_MODUS = "quorum"

# --- Arten von Nachrichten zwischen den Repliken (und dem Koordinator im Quorum-Modus) ---

#: Leader -> Follower: ein Eintrag seines Logs.
REPLIZIERE = "repliziere"
#: Follower -> Leader: „Ich habe dein Log bis LSN n.“
BESTAETIGE = "bestätige"
#: Neuer Leader -> Replik: sein ganzes Log und seine Epoche (Übernahme, Nachholen).
UEBERNAHME = "übernahme"
#: Koordinator -> Replik und zurück im Quorum-Modus.
SCHREIBE = "schreibe"
SCHREIBE_OK = "schreibe-ok"
LIES = "lies"
LIES_OK = "lies-ok"

#: Der Absender der Nachrichten im Quorum-Modus: der Koordinator des Clients.
KOORDINATOR = "koordinator"

#: Die neue Rolle nach einem Ereignis laut ``UEBERGAENGE`` (``None``: ändert nichts), und
#: dasselbe für ein Ereignis, das die Rolle immer ändert.
uebergang = UEBERGAENGE.uebergang
wechsel = UEBERGAENGE.wechsel
