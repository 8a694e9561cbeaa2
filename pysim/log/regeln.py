"""Die Regeln des partitionierten Logs, an einer Stelle.

Hier steht, was der Simulator entscheidet; ``log.py`` führt es nur aus:

- in welche Partition ein Eintrag geht (Schlüssel-Hash oder reihum),
- wo ein Mitglied liest: ab seiner eigenen Leseposition, solange es die Partition hat; wer sie
  neu bekommt (neues Mitglied, Rebalancing, Neustart), beginnt an der gespeicherten Position
  (sonst am Ende oder am Anfang),
- welches Mitglied einer Gruppe welche Partition liest (wie Kafkas Range-Assignor, je Topic unter
  den Mitgliedern, die dieses Topic lesen),
- wohin ``reset`` eine Position setzt,
- wie ein Mitglied seinen Zustand wechselt (``UEBERGAENGE``): lesen, Position speichern,
  abstürzen, eine der beiden Fristen überschreiten, austreten; und wann ein Commit abgelehnt wird
  (Generationen).

Zwei Fristen, wie in Kafka (``KafkaConsumer``, „Detecting Consumer Failures“):

- ``max_poll_interval`` (Kafka: ``max.poll.interval.ms``): Ein lebendes Mitglied, das länger als
  so viele Ticks nicht gelesen hat (``consume``, in Kafka ``poll()``), verlässt seine Gruppe. Es
  arbeitet vielleicht noch, ist aber zu langsam.
- ``session_timeout`` (Kafka: ``session.timeout.ms``): Ein lebendes Mitglied schickt in jedem Tick
  von selbst Heartbeats (in Kafka ein Hintergrund-Thread des Clients). Sie bleiben nur aus, wenn
  es abgestürzt ist (``absturz``); nach mehr als so vielen Ticks ohne Heartbeat entfernt die Gruppe
  es. Bis dahin hält es seine Partitionen, und niemand liest sie.

Genau ``frist`` Ticks sind erlaubt, entfernt wird erst danach (``abgelaufen``).

Vereinfachungen gegenüber Kafka (in Lektion 2 benannt):

- Der Java-Client von Kafka hasht den Schlüssel mit murmur2 (librdkafka ohne eigene Einstellung mit
  CRC32); der Simulator nimmt die Summe der Zeichencodes, damit man es von Hand nachrechnen kann.
- Zeit sind Ticks, keine Millisekunden, und nur ``tick`` entfernt jemanden. In Kafka verlässt ein
  Consumer nach ``max.poll.interval.ms`` die Gruppe selbst; mit statischer Mitgliedschaft
  (``group.instance.id``) wartet die Gruppe stattdessen das Session Timeout ab. Das bildet der
  Simulator nicht nach.
- Ein Rebalancing geschieht sofort und auf einmal (wie im „eager“-Protokoll), ohne Wartezeit und
  ohne Join/Sync-Runden. Wie dort verliert jedes Mitglied dabei alle Partitionen und beginnt danach
  an der gespeicherten Position, auch in einer Partition, die es behält. Das kooperative
  Rebalancing (KIP-429, im klassischen Protokoll mit dem ``CooperativeStickyAssignor``) und das
  neue Gruppenprotokoll aus KIP-848 (``group.protocol=consumer``) entziehen nur die Partitionen,
  die wandern.
- Jede Änderung der Mitglieder oder ihrer Topics erhöht die Generation der Gruppe. Ein Commit mit
  einer älteren Generation wird abgelehnt (in Kafka: ``CommitFailedException``, Fehlercode
  ``ILLEGAL_GENERATION``; das Protokoll aus KIP-848 prüft stattdessen eine Epoche je Mitglied).
"""

from __future__ import annotations

from ..fehler import CommitAbgelehnt, NichtZugeteilt, UngueltigeEingabe
from ..uebergaenge import Regeltabelle

# --- Zustände eines Mitglieds und die erlaubten Übergänge (die einzige Stelle mit Regeln) ---

MITGLIED = "Mitglied"
ABGESTUERZT = "abgestürzt"  # absturz: hält seine Partitionen, bis das Session Timeout abläuft
ENTFERNT = "entfernt"  # nach einer der beiden Fristen vom Simulator entfernt
AUSGETRETEN = "ausgetreten"  # mit leave selbst gegangen

#: Die Ereignisse, mit denen ``tick`` ein Mitglied entfernt (und die Namen der Fristen).
MAX_POLL = "max_poll_interval"
SESSION = "session_timeout"

#: (Zustand, Ereignis) -> neuer Zustand, geschrieben je Zustand. Was hier fehlt, ist verboten:
#: ``uebergang`` sagt, warum. Ein entferntes, ausgetretenes oder abgestürztes Mitglied, das
#: wieder liest, tritt neu bei (neue Generation); ein abgestürztes ist dann ein neu gestarteter
#: Prozess ohne Leseposition.
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        MITGLIED: {
            "consume": MITGLIED,
            "commit": MITGLIED,
            "seek": MITGLIED,
            MAX_POLL: ENTFERNT,
            "absturz": ABGESTUERZT,
            "leave": AUSGETRETEN,
        },
        ABGESTUERZT: {SESSION: ENTFERNT, "consume": MITGLIED},
        ENTFERNT: {"consume": MITGLIED},
        AUSGETRETEN: {"consume": MITGLIED},
    }
)

_WARUM_NICHT = {
    "commit": "kann keine Position speichern",
    "leave": "kann nicht austreten",
    "seek": "kann keine Leseposition verschieben",
    "absturz": "kann nicht abstürzen",
}


def uebergang(zustand: str, ereignis: str, mitglied: str, gruppe: str, warum: str = "") -> str:
    """Der neue Zustand nach ``ereignis`` laut ``UEBERGAENGE``; sonst ein Fehler, der sagt, warum.

    ``warum`` ergänzt die Meldung (z. B. wann und weshalb das Mitglied entfernt wurde).
    """
    neu = UEBERGAENGE.get((zustand, ereignis))
    if neu is not None:
        return neu
    if ereignis not in _WARUM_NICHT:
        raise AssertionError(
            f"Interner Fehler: „{ereignis}“ ist im Zustand „{zustand}“ nicht vorgesehen."
        )
    if zustand == ABGESTUERZT:
        text = (
            f"{mitglied} {_WARUM_NICHT[ereignis]}: Es ist abgestürzt, sein Prozess tut nichts "
            f"mehr. Es hält seine Partitionen in „{gruppe}“, bis das Session Timeout abläuft; ein "
            f"neues consume startet es neu."
        )
    else:
        text = (
            f"{mitglied} {_WARUM_NICHT[ereignis]}: Es ist kein Mitglied der Gruppe „{gruppe}“ "
            f"mehr (Zustand: {zustand})."
        )
    if warum:
        text += " " + warum
    if ereignis == "commit":
        raise CommitAbgelehnt(text)
    if ereignis == "seek":
        raise NichtZugeteilt(text)
    raise UngueltigeEingabe(text)


def abgelaufen(seit: int, jetzt: int, frist: int | None) -> bool:
    """Sind seit ``seit`` mehr als ``frist`` Ticks vergangen? Genau ``frist`` Ticks sind erlaubt.

    ``seit``: das letzte ``consume`` (Max Poll Interval) oder der Absturz, nach dem keine
    Heartbeats mehr kommen (Session Timeout). ``None``: keine Frist, niemand wird entfernt.
    """
    return frist is not None and jetzt - seit > frist


def commit_generation_passt(gelesen_in: int, jetzt: int) -> bool:
    """Ein Commit gilt nur in der Generation, in der gelesen wurde (Kafkas Generation-Fencing)."""
    return gelesen_in == jetzt


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


def startposition(gespeichert: int | None, ende: int, from_beginning: bool) -> int:
    """Wo ein Mitglied in einer Partition zu lesen beginnt, je Partition für sich.

    Die gespeicherte Position gewinnt. Ohne sie: am Ende, mit from_beginning bei 0 (wie Kafkas
    ``auto.offset.reset`` = ``latest`` bzw. ``earliest``, das auch je Partition gilt).
    """
    if gespeichert is not None:
        return gespeichert
    return 0 if from_beginning else ende


def leseposition(
    eigene: int | None, gespeichert: int | None, ende: int, from_beginning: bool
) -> int:
    """Wo ein Mitglied in einer Partition als Nächstes liest (wie Kafkas ``position``).

    ``eigene``: seine Leseposition, wenn es die Partition seit seinem letzten Lesen behalten hat
    (dieselbe Generation). Sie gewinnt, ob gespeichert wurde oder nicht: Sie rückt mit jedem
    ``consume`` weiter (in Kafka mit jedem ``poll()``). Wer die Partition neu bekommt, hat keine
    und beginnt wie in ``startposition``.
    """
    if eigene is not None:
        return eigene
    return startposition(gespeichert, ende, from_beginning)


def leser(mitglieder: list[str], abos: dict[str, set[str]], topic: str) -> list[str]:
    """Die Mitglieder, die ``topic`` lesen: Nur unter ihnen wird dieses Topic aufgeteilt."""
    return [m for m in mitglieder if topic in abos.get(m, set())]


def zuteilen(mitglieder: list[str], partitionen: int) -> dict[int, str]:
    """Range-Assignor für ein Topic: Partition -> Mitglied.

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


def position_text(position: int | None) -> str:
    """Eine Position für Text und Bild: die Zahl oder „–“ (noch keine gespeichert)."""
    return "–" if position is None else str(position)
