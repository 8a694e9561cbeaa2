"""Die Fehler von pysim.

Jeder Fehler, den pysim absichtlich auslöst, ist ein ``SimFehler``. Die Meldung ist deutsch und sagt,
was falsch war und was richtig wäre. Ein Aufruf, der mit einem ``SimFehler`` endet, hat nichts
verändert: Die Simulation steht danach genau so da wie vorher.

Die Unterklassen erben zusätzlich von einer passenden Python-Ausnahme (``ValueError``,
``LookupError``, ``AttributeError``), damit auch allgemeiner Code sie richtig einordnet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

W = TypeVar("W")


class SimFehler(Exception):
    """Basisklasse aller Fehler der Simulation."""


class UngueltigeEingabe(SimFehler, ValueError):
    """Ein Argument hat den falschen Typ oder einen unerlaubten Wert."""


class UnbekanntesTopic(SimFehler, LookupError):
    """Ein Topic mit diesem Namen gibt es nicht."""


class TopicExistiertSchon(SimFehler):
    """``create_topic`` für einen Namen, den es schon gibt."""


class UnbekannteGruppe(SimFehler, LookupError):
    """Eine Consumer-Gruppe mit diesem Namen gibt es nicht."""


class CommitAbgelehnt(SimFehler):
    """Ein Mitglied will eine Position speichern, darf es aber nicht mehr.

    Es ist abgestürzt, wurde aus der Gruppe entfernt (Max Poll Interval oder Session Timeout), ist
    ausgetreten, oder die Gruppe wurde seit seinem Lesen neu verteilt. Wie Kafkas
    ``CommitFailedException``: Nichts wird gespeichert.
    """


class NichtZugeteilt(SimFehler):
    """``seek`` für eine Partition, die dem Mitglied gerade nicht zugeteilt ist.

    Wie Kafkas ``IllegalStateException`` aus ``KafkaConsumer.seek`` („No current assignment for
    partition“): Nur wer eine Partition liest, verschiebt ihre Leseposition. Nichts ändert sich.
    """


class UnbekannteNachricht(SimFehler, LookupError):
    """Eine Nachrichten-ID, die diese Queue nie vergeben hat."""


class UnbekannterStream(SimFehler, LookupError):
    """Ein Stream, in den noch nie ein Ereignis geschrieben wurde."""


class UnveraenderlichFehler(SimFehler, AttributeError):
    """Ein gespeicherter Eintrag oder ein Ereignis soll verändert oder gelöscht werden."""


class VersionsKonflikt(SimFehler):
    """Optimistische Nebenläufigkeit: Der Stream steht nicht bei der erwarteten Version."""


class UnbekannterKnoten(SimFehler, LookupError):
    """Ein Knoten oder Ereignis mit diesem Namen gibt es in der Welt nicht (``pysim.uhren``)."""


class SimulierterAbsturz(SimFehler):
    """Ein absichtlich herbeigeführter Absturz (siehe ``pysim.stoerung``)."""


def aufzaehlung(namen: Iterable[str]) -> str:
    """``["a", "b"]`` -> ``„a“, „b“``; eine leere Folge -> ``keine``."""
    teile = [f"„{n}“" for n in namen]
    return ", ".join(teile) if teile else "keine"


def nachschlagen(
    tabelle: Mapping[str, W],
    name: str,
    fehler: type[SimFehler],
    wen: str,
    vorhanden: str,
    *,
    warum: str = "",
    tipp: str = "",
) -> W:
    """``tabelle[name]``; ein unbekannter Name ist ``fehler`` mit einer Meldung wie
    „Das Topic „x“ gibt es nicht. Vorhandene Topics: „a“, „b“.“ und ``tipp`` dahinter."""
    try:
        return tabelle[name]
    except (KeyError, TypeError):
        raise fehler(
            f"{wen} „{name}“ gibt es nicht{warum}. Vorhandene {vorhanden}: "
            f"{aufzaehlung(sorted(tabelle))}.{tipp}"
        ) from None


def anzahl(n: int, einzahl: str, mehrzahl: str) -> str:
    """``anzahl(1, "Operation", "Operationen")`` -> ``1 Operation``; sonst die Mehrzahl."""
    return f"{n} {einzahl if n == 1 else mehrzahl}"


def kurz(wort: str, zeichen: int = 30) -> str:
    """Lange Eingaben in Meldungen abkürzen: ``abcdefghijkl…``."""
    return wort if len(wort) <= zeichen else wort[: zeichen - 1] + "…"


def pruefe_ganzzahl(wert: object, name: str, minimum: int | None = None) -> int:
    """Gibt ``wert`` zurück, wenn es eine ganze Zahl (kein bool) >= ``minimum`` ist."""
    if isinstance(wert, bool) or not isinstance(wert, int):
        raise UngueltigeEingabe(f"{name} muss eine ganze Zahl sein, nicht {wert!r}.")
    if minimum is not None and wert < minimum:
        raise UngueltigeEingabe(f"{name} muss mindestens {minimum} sein, nicht {wert}.")
    return wert


def pruefe_verzoegerung(wert: object, minimum: int, beispiel: tuple[int, int]) -> tuple[int, int]:
    """Gibt ``wert`` als Paar ``(kleinste, größte)`` ganzer Zahlen mit
    ``minimum <= kleinste <= größte`` zurück (die Laufzeit einer Nachricht in Ticks)."""
    if (
        not isinstance(wert, tuple | list)
        or len(wert) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in wert)
        or not minimum <= wert[0] <= wert[1]
    ):
        raise UngueltigeEingabe(
            "verzoegerung ist ein Paar ganzer Zahlen (kleinste, größte) mit "
            f"{minimum} <= kleinste <= größte, z. B. {beispiel}, nicht {wert!r}."
        )
    return (wert[0], wert[1])


def pruefe_wahrscheinlichkeit(wert: object, name: str) -> float:
    """Gibt ``wert`` als float zurück, wenn es eine Zahl von 0 bis 1 ist (kein bool)."""
    if isinstance(wert, bool) or not isinstance(wert, int | float) or not 0 <= wert <= 1:
        raise UngueltigeEingabe(f"{name} ist eine Wahrscheinlichkeit von 0 bis 1, nicht {wert!r}.")
    return float(wert)


def pruefe_name(wert: object, was: str) -> str:
    """Gibt ``wert`` zurück, wenn es ein nicht leerer Text ohne Leerzeichen ist."""
    if not isinstance(wert, str) or wert.split(None, 1) != [wert]:
        raise UngueltigeEingabe(
            f"{was} muss ein nicht leerer Text ohne Leerzeichen sein, nicht {wert!r}."
        )
    return wert
