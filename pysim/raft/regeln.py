"""Die Regeln von Raft an einer Stelle: die Rollen eines Knotens, ihre Ereignisse, die Tabelle.

Das Modell (``modell``) und das Bild (``bild``) lesen von hier. Ein angehaltener Knoten
(``pausiere``) behält seine Rolle: Er weiß nur nicht, dass die Zeit vergeht.
"""

from __future__ import annotations

from ..uebergaenge import Regeltabelle

__all__ = [
    "ABGESTUERZT",
    "FOLLOWER",
    "KANDIDAT",
    "LEADER",
    "ROLLEN",
    "UEBERGAENGE",
    "uebergang",
]

# --- Rollen eines Knotens ---

FOLLOWER = "Follower"
KANDIDAT = "Kandidat"
LEADER = "Leader"
#: Ein abgestürzter Knoten tut nichts; Term, Stimme und Log liegen auf seiner Platte.
ABGESTUERZT = "abgestürzt"

ROLLEN = (FOLLOWER, KANDIDAT, LEADER, ABGESTUERZT)

#: (Rolle, Ereignis) -> neue Rolle, geschrieben je Rolle. ``None``: erlaubt, die Rolle bleibt.
#: Was fehlt, kann nicht vorkommen (``ZustandsFehler``).
#:
#: - ``timeout``: die Wahl-Frist ist abgelaufen, ohne dass ein Leader sich meldete;
#: - ``mehrheit``: eine Mehrheit hat für den Kandidaten gestimmt;
#: - ``hoeherer_term``: eine Nachricht mit einem höheren Term kam an;
#: - ``leader_gesehen``: AppendEntries eines Leaders im eigenen Term kam an;
#: - ``absturz`` und ``neustart``.
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        FOLLOWER: {
            "timeout": KANDIDAT,
            "hoeherer_term": None,
            "leader_gesehen": None,
            "absturz": ABGESTUERZT,
        },
        KANDIDAT: {
            "timeout": None,  # a split vote: a new election in a new term
            "mehrheit": LEADER,
            "hoeherer_term": FOLLOWER,
            "leader_gesehen": FOLLOWER,
            "absturz": ABGESTUERZT,
        },
        LEADER: {"hoeherer_term": FOLLOWER, "absturz": ABGESTUERZT},
        ABGESTUERZT: {"neustart": FOLLOWER},
    }
)


def uebergang(rolle: str, ereignis: str) -> str:
    """Die Rolle nach ``ereignis`` (bleibt sie, die alte)."""
    neu = UEBERGAENGE.uebergang(rolle, ereignis)
    return rolle if neu is None else neu
