"""Die Regeln des partitionierten Logs, an einer Stelle.

Hier steht, was der Simulator entscheidet; ``log.py`` führt es nur aus:

- in welche Partition ein Eintrag geht (Schlüssel-Hash oder reihum),
- wo eine Gruppe zu lesen beginnt (gespeicherte Position, sonst Ende oder Anfang),
- welches Mitglied einer Gruppe welche Partition liest (wie Kafkas Range-Assignor),
- wohin ``reset`` eine Position setzt.

Vereinfachung gegenüber Kafka: Kafka hasht den Schlüssel mit murmur2; der Simulator nimmt die Summe
der Zeichencodes, damit man es von Hand nachrechnen kann.
"""

from __future__ import annotations

from .fehler import UngueltigeEingabe


def schluessel_hash(key: str) -> int:
    """Die Summe der Zeichencodes: ``customer-7`` -> 982."""
    return sum(ord(zeichen) for zeichen in key)


def partition_fuer_schluessel(key: str, partitionen: int) -> int:
    """Derselbe Schlüssel landet immer in derselben Partition: Hash modulo Partitionen."""
    return schluessel_hash(key) % partitionen


def partition_reihum(zaehler: int, partitionen: int) -> int:
    """Ohne Schlüssel: 0, 1, 2, 0, 1, … (``zaehler`` zählt die Einträge ohne Schlüssel)."""
    return zaehler % partitionen


def startpositionen(enden: tuple[int, ...], from_beginning: bool) -> list[int]:
    """Wo eine Gruppe ohne gespeicherte Position beginnt: am Ende, mit from_beginning bei 0.

    Eine Gruppe mit gespeicherter Position fragt hier gar nicht: Die Position gewinnt.
    """
    return [0] * len(enden) if from_beginning else list(enden)


def zuteilen(mitglieder: list[str], partitionen: int) -> dict[int, str]:
    """Range-Assignor: Partition -> Mitglied.

    Die Mitglieder werden nach Namen sortiert. Jedes bekommt einen zusammenhängenden Block; die
    ersten bekommen je eine Partition mehr, wenn es nicht aufgeht. 3 Partitionen, 2 Mitglieder:
    das erste 0 und 1, das zweite 2. Mehr Mitglieder als Partitionen: Die letzten bleiben untätig.
    """
    if not mitglieder:
        return {}
    sortiert = sorted(mitglieder)
    je, extra = divmod(partitionen, len(sortiert))
    ergebnis: dict[int, str] = {}
    p = 0
    for i, name in enumerate(sortiert):
        anzahl = je + (1 if i < extra else 0)
        for _ in range(anzahl):
            ergebnis[p] = name
            p += 1
    return ergebnis


def reset_ziel(to: int | str, ende: int) -> int:
    """Die neue Position einer Partition: eine Zahl (höchstens das Ende), earliest oder latest."""
    if to == "earliest":
        return 0
    if to == "latest":
        return ende
    if isinstance(to, bool) or not isinstance(to, int) or to < 0:
        raise UngueltigeEingabe(
            f"reset braucht eine Zahl ab 0, „earliest“ oder „latest“, nicht {to!r}."
        )
    return min(to, ende)


def partitionen_text(anzahl: int) -> str:
    """„1 Partition“, „3 Partitionen“: die Anzahl mit dem passenden Wort."""
    return f"{anzahl} Partition" if anzahl == 1 else f"{anzahl} Partitionen"
