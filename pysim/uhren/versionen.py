"""Zwei Schlüssel-Wert-Speicher, die gleichzeitige Schreibvorgänge verschieden behandeln.

- ``LwwSpeicher`` (last write wins): Je Schlüssel gilt der Schreibvorgang mit dem größten
  Zeitstempel; bei Gleichstand der größere Name des Schreibers. Den Zeitstempel bringt der
  Schreiber mit, meist von seiner eigenen Uhr. Geht sie nach, verliert sein neuerer Wert, still.
- ``VersionsSpeicher`` (Versionsvektoren wie in Dynamo oder Riak): Wer schreibt, gibt den
  Kontext mit, den er beim Lesen bekam. Eine Version, die der neue Vektor enthält, ersetzt er;
  eine gleichzeitige bleibt daneben stehen (Geschwister, siblings). Der nächste Leser sieht beide
  und führt sie zusammen.

Die Regeln in einer Tabelle (``ENTSCHEIDUNG``): was mit einer gespeicherten Version geschieht, wenn
ein neuer Schreibvorgang kommt, je nach ``vergleiche(alt, neu)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..fehler import UngueltigeEingabe, pruefe_ganzzahl, pruefe_name
from .modell import GLEICH, NACHHER, NEBENLAEUFIG, VORHER, _pruefe_vektor, vereinige, vergleiche

#: What ``from pysim.uhren import *`` and the package give (the module's public API).
__all__ = [
    "BLEIBT",
    "ENTSCHEIDUNG",
    "ERSETZT",
    "Lesung",
    "LwwSpeicher",
    "Schreibvorgang",
    "Version",
    "VersionsSpeicher",
]


# --- Last write wins ---


@dataclass(frozen=True)
class Schreibvorgang:
    """Ein Schreibvorgang an den ``LwwSpeicher`` und ob er gerade gilt."""

    schluessel: str
    wert: Any
    zeitstempel: int
    von: str
    uebernommen: bool  # galt er, als er ankam?

    def __repr__(self) -> str:
        ausgang = "übernommen" if self.uebernommen else "verworfen"
        return (
            f"Schreibvorgang({self.schluessel}={self.wert!r} von {self.von}, "
            f"Zeitstempel {self.zeitstempel}: {ausgang})"
        )


class LwwSpeicher:
    """Last write wins: Der größte Zeitstempel gewinnt, egal, wer wirklich zuletzt schrieb."""

    def __init__(self) -> None:
        self._stand: dict[str, Schreibvorgang] = {}
        self._verlauf: list[Schreibvorgang] = []

    def schreibe(self, schluessel: str, wert: Any, zeitstempel: int, von: str) -> bool:
        """Schreibt ``wert``, wenn ``(zeitstempel, von)`` größer ist als das Gespeicherte.

        Gibt zurück, ob der Wert übernommen wurde. Ein verworfener Wert ist weg, ohne Fehler.
        """
        pruefe_name(schluessel, "Der Schlüssel")
        pruefe_ganzzahl(zeitstempel, "Der Zeitstempel")
        pruefe_name(von, "Der Name des Schreibers (von)")
        alt = self._stand.get(schluessel)
        gewinnt = alt is None or (zeitstempel, von) > (alt.zeitstempel, alt.von)
        vorgang = Schreibvorgang(schluessel, wert, zeitstempel, von, gewinnt)
        self._verlauf.append(vorgang)
        if gewinnt:
            self._stand[schluessel] = vorgang
        return gewinnt

    def lies(self, schluessel: str) -> Any:
        """Der Wert, der gerade gilt (``None``, wenn nie geschrieben)."""
        vorgang = self._stand.get(schluessel)
        return vorgang.wert if vorgang is not None else None

    def verlauf(self, schluessel: str | None = None) -> list[Schreibvorgang]:
        """Alle Schreibvorgänge in der Reihenfolge ihrer Ankunft (optional nur eines Schlüssels)."""
        return [v for v in self._verlauf if schluessel is None or v.schluessel == schluessel]

    def verloren(self) -> list[Schreibvorgang]:
        """Schreibvorgänge, deren Wert nirgends mehr gilt, obwohl er der letzte seines Schreibers war.

        Genauer: jeder Vorgang, der nicht gilt und nach dem der Speicher keinen neueren desselben
        Schreibers für denselben Schlüssel bekam; so ein Wert ist ohne Nachricht verschwunden.
        """
        ergebnis = []
        for i, v in enumerate(self._verlauf):
            gilt = self._stand.get(v.schluessel) is v
            spaeter = any(
                w.schluessel == v.schluessel and w.von == v.von for w in self._verlauf[i + 1 :]
            )
            if not gilt and not spaeter:
                ergebnis.append(v)
        return ergebnis

    def __repr__(self) -> str:
        inhalt = ", ".join(f"{k}={v.wert!r}" for k, v in self._stand.items())
        return f"LwwSpeicher({inhalt or 'leer'})"


# --- Versionsvektoren ---

BLEIBT = "bleibt"
ERSETZT = "ersetzt"

#: vergleiche(gespeichert, neu) -> was mit der gespeicherten Version geschieht.
ENTSCHEIDUNG: dict[str, str] = {
    VORHER: ERSETZT,  # der Schreiber kannte sie: die neue Version enthält sie
    GLEICH: ERSETZT,  # kann nicht vorkommen: ein Schreiben erhöht immer einen Zähler
    NEBENLAEUFIG: BLEIBT,  # er kannte sie nicht: beide bleiben, als Geschwister
    NACHHER: BLEIBT,  # kann nicht vorkommen: der Schreiber erhöht einen Zähler über alles
}


@dataclass(frozen=True)
class Version:
    """Ein gespeicherter Wert mit seinem Versionsvektor."""

    wert: Any
    vektor: dict[str, int] = field(hash=False)

    def __repr__(self) -> str:
        return f"Version({self.wert!r}, {self.vektor})"


@dataclass(frozen=True)
class Lesung:
    """Was ``lies`` liefert: alle gültigen Werte und der Kontext für das nächste Schreiben."""

    werte: list[Any] = field(hash=False)
    kontext: dict[str, int] = field(hash=False)

    def __repr__(self) -> str:
        return f"Lesung(werte={self.werte!r}, kontext={self.kontext})"


class VersionsSpeicher:
    """Ein Speicher mit Versionsvektoren: Gleichzeitiges geht nicht verloren."""

    def __init__(self) -> None:
        self._versionen: dict[str, list[Version]] = {}

    def lies(self, schluessel: str) -> Lesung:
        """Alle Werte, die gerade gelten (mehrere: Geschwister), und ihr gemeinsamer Kontext."""
        pruefe_name(schluessel, "Der Schlüssel")
        versionen = self._versionen.get(schluessel, [])
        return Lesung([v.wert for v in versionen], vereinige(*(v.vektor for v in versionen)))

    def versionen(self, schluessel: str) -> list[Version]:
        """Die gespeicherten Versionen eines Schlüssels."""
        return list(self._versionen.get(schluessel, []))

    def schreibe(self, schluessel: str, wert: Any, kontext: dict[str, int], von: str) -> Version:
        """Schreibt ``wert`` mit dem ``kontext`` aus ``lies``; ``von`` zählt seinen Eintrag hoch.

        Was der Kontext enthält, wird ersetzt; was gleichzeitig geschah, bleibt daneben.
        """
        pruefe_name(schluessel, "Der Schlüssel")
        pruefe_name(von, "Der Name des Schreibers (von)")
        if isinstance(kontext, Lesung):
            raise UngueltigeEingabe(
                "Gib den Kontext der Lesung mit (lesung.kontext), nicht die ganze Lesung."
            )
        _pruefe_vektor(kontext, "Der Kontext")
        alle = self._versionen.get(schluessel, [])
        # Der neue Vektor: alles, was der Schreiber kannte, und ein Schritt des Schreibers über
        # alles hinaus, was dieser Speicher von ihm hat (sonst sähe ein neuer Schreibvorgang mit
        # altem Kontext aus wie ein alter).
        hoechster = max([v.vektor.get(von, 0) for v in alle] + [kontext.get(von, 0)])
        vektor = dict(kontext)
        vektor[von] = hoechster + 1
        neu = Version(wert, vektor)
        bleiben = [v for v in alle if ENTSCHEIDUNG[vergleiche(v.vektor, vektor)] == BLEIBT]
        self._versionen[schluessel] = [*bleiben, neu]
        return neu

    def __repr__(self) -> str:
        teile = []
        for k, vs in self._versionen.items():
            werte = " | ".join(repr(v.wert) for v in vs)
            teile.append(f"{k}={werte}")
        return f"VersionsSpeicher({', '.join(teile) or 'leer'})"
