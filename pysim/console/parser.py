"""Die Grammatik der Konsolen: eine Tabelle von Befehlen und ein Parser dafür.

Jeder Befehl steht als ``Befehl`` in einer Tabelle (Name, Syntax, Hilfetext, Methode). Der Parser
zerlegt eine Zeile nach dieser Tabelle und prüft sie, bevor irgendetwas am Zustand geschieht:

    <name> <feste Wörter> <Werte der Reihe nach> [key=<schlüssel>] <rest>
    <name> <feste Wörter> <Werte der Reihe nach> <Optionen in beliebiger Reihenfolge>

Was ein Wert bedeutet (gibt es das Topic?), prüft die Konsole über einen Rückruf; der Parser
kennt nur die Form. Jede falsche Eingabe wird zu einem ``EingabeFehler`` mit deutscher Meldung,
die die richtige Form und ein Beispiel zeigt.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

#: Zeilen bis zu dieser Länge bleiben, wie sie sind; längere Absätze werden umbrochen.
BREITE = 60
#: Längere Eingaben lehnt die Konsole ab (schützt Bild und Speicher).
MAX_ZEILE = 2000
#: Mehr Ziffern hat keine Zahl, die die Konsole annimmt.
MAX_ZIFFERN = 9

_ZAHL = re.compile(r"[0-9]+")
_WORT = re.compile(r"\S+")

#: Arten von Werten, die der Parser als ganze Zahl liest.
ZAHL_ARTEN = frozenset({"zahl", "partition", "id"})


class EingabeFehler(Exception):
    """Eine Eingabe, die die Konsole nicht ausführen kann. Die Meldung ist deutsch."""


@dataclass(frozen=True)
class Token:
    """Ein Wort der Eingabe mit seiner Stelle in der Zeile."""

    text: str
    start: int
    ende: int


def zerlege(zeile: str) -> list[Token]:
    """Teilt eine Zeile an Leerraum in Wörter."""
    return [Token(m.group(), m.start(), m.end()) for m in _WORT.finditer(zeile)]


@dataclass(frozen=True)
class Wert:
    """Ein Platzhalter wie ``<topic>``: ``art`` sagt, was dort stehen darf."""

    name: str
    platzhalter: str
    art: str
    minimum: int = 0
    maximum: int | None = None


@dataclass(frozen=True)
class Option:
    """Ein Schlüsselwort, allein (``no-commit``) oder mit Wert (``max <n>``)."""

    wort: str
    wert: Wert | None = None
    pflicht: bool = False

    @property
    def form(self) -> str:
        """``max <n>`` oder ``no-commit``."""
        return self.wort if self.wert is None else f"{self.wort} {self.wert.platzhalter}"


@dataclass(frozen=True)
class Befehl:
    """Eine Zeile der Befehlstabelle."""

    name: str
    syntax: str
    kurz: str
    beispiele: tuple[str, ...]
    methode: str
    erklaerung: tuple[str, ...] = ()
    woerter: tuple[str, ...] = ()
    positionen: tuple[Wert, ...] = ()
    letzte_optional: bool = False
    optionen: tuple[Option, ...] = ()
    rest: str | None = None  # "json" oder "text": alles Weitere der Zeile, auch mit Leerzeichen
    rest_name: str = ""
    rest_pflicht: bool = True
    mit_schluessel: bool = False
    aliase: tuple[str, ...] = ()
    vervollstaendigen: bool = True
    zeigt_bild: bool = True


@dataclass
class Aufruf:
    """Eine geprüfte Eingabe: welcher Befehl, mit welchen Werten."""

    befehl: Befehl
    werte: dict[str, Any] = field(default_factory=dict)
    rest: str | None = None
    rest_start: int = 0


#: Prüft einen Wert (art, Text oder schon gelesene Zahl, bisherige Werte) und gibt ihn in seiner
#: Form zurück.
Pruefer = Callable[[str, Any, dict[str, Any]], Any]


class Befehlstabelle:
    """Die Befehle einer Konsole, nach Namen und Aliasen auffindbar."""

    def __init__(self, befehle: Iterable[Befehl]) -> None:
        self.befehle = tuple(befehle)
        self._nach_name: dict[str, Befehl] = {}
        for b in self.befehle:
            for n in (b.name, *b.aliase):
                self._nach_name[n] = b

    def finde(self, wort: str) -> Befehl | None:
        """Der Befehl zu ``wort`` (Groß-/Kleinschreibung egal) oder ``None``."""
        return self._nach_name.get(wort.lower())

    def namen(self) -> list[str]:
        """Die Namen, die die Vervollständigung anbietet (sortiert)."""
        return sorted(b.name for b in self.befehle if b.vervollstaendigen)

    def aehnlich(self, wort: str) -> str | None:
        """Der ähnlichste Befehlsname (für „Meintest du …?“) oder ``None``."""
        namen = [b.name for b in self.befehle]
        treffer = difflib.get_close_matches(wort.lower(), namen, n=1, cutoff=0.6)
        return treffer[0] if treffer else None

    def unbekannt(self, wort: str) -> EingabeFehler:
        """Der Fehler für einen Befehl, den es nicht gibt."""
        zeilen = [f"Den Befehl „{kuerze_wort(wort)}“ gibt es nicht."]
        vorschlag = self.aehnlich(wort)
        if vorschlag is not None:
            zeilen.append(f"Meintest du `{vorschlag}`?")
        else:
            namen = [b.name for b in self.befehle if b.vervollstaendigen]
            zeilen.extend(umbrechen("Befehle: " + ", ".join(namen) + "."))
        zeilen.append("`hilfe` zeigt alle Befehle mit Beispielen.")
        return EingabeFehler("\n".join(zeilen))


# --- Text ---


def kuerze_wort(wort: str, zeichen: int = 30) -> str:
    """Lange Eingaben in Meldungen abkürzen: ``abcdefghijkl…``."""
    return wort if len(wort) <= zeichen else wort[: zeichen - 1] + "…"


def umbrechen(text: str, breite: int = BREITE, einzug: str = "") -> list[str]:
    """Bricht einen Absatz an Wortgrenzen auf ``breite`` Zeichen um."""
    return textwrap.wrap(
        text,
        width=breite,
        initial_indent=einzug,
        subsequent_indent=einzug,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [einzug.rstrip()]


def absatz(text: str) -> str:
    """Bricht jede Zeile von ``text`` um, die länger als ``BREITE`` ist (Fließtext).

    Eingerückte Zeilen (Befehle, Beispiele, Tabellen) bleiben ganz, damit man sie kopieren kann.
    """
    zeilen: list[str] = []
    for zeile in text.split("\n"):
        if len(zeile) <= BREITE or zeile[:1].isspace():
            zeilen.append(zeile)
        else:
            zeilen.extend(umbrechen(zeile.strip()))
    return "\n".join(zeilen)


def syntax_zeilen(syntax: str, einzug: str = "  ") -> list[str]:
    """Bricht eine Syntax um, ohne ``[as <mitglied>]`` oder ``<n>`` zu zerreißen."""
    teile: list[str] = []
    tiefe, start = 0, 0
    for i, zeichen in enumerate(syntax):
        if zeichen in "[<":
            tiefe += 1
        elif zeichen in "]>":
            tiefe -= 1
        elif zeichen == " " and tiefe == 0:
            teile.append(syntax[start:i])
            start = i + 1
    teile.append(syntax[start:])
    zeilen: list[str] = []
    aktuell = einzug
    for teil in teile:
        if aktuell.strip() and len(aktuell) + 1 + len(teil) > BREITE:
            zeilen.append(aktuell)
            aktuell = einzug + "  " + teil
        else:
            aktuell = aktuell + (" " if aktuell.strip() else "") + teil
    zeilen.append(aktuell)
    return zeilen


def form(befehl: Befehl) -> str:
    """„So geht es: …“ und ein Beispiel, für Fehlermeldungen."""
    zeilen = ["So geht es:", *syntax_zeilen(befehl.syntax)]
    if befehl.beispiele:
        zeilen.append("Beispiel:")
        zeilen.append("  " + befehl.beispiele[0])
    return "\n".join(zeilen)


def fehler(befehl: Befehl, meldung: str) -> EingabeFehler:
    """Ein Formfehler: die Meldung, dann die richtige Form."""
    return EingabeFehler(absatz(meldung) + "\n" + form(befehl))


# --- Werte ---


def zahl(text: str, wo: str, minimum: int = 0, maximum: int | None = None) -> int:
    """Liest eine ganze Zahl; ``wo`` beginnt die Meldung (z. B. „Nach `max`“)."""
    bereich = f" von {minimum} bis {maximum}" if maximum is not None else f" ab {minimum}"
    if not _ZAHL.fullmatch(text):
        raise EingabeFehler(f"{wo} kommt eine ganze Zahl{bereich}, nicht „{kuerze_wort(text)}“.")
    if len(text.lstrip("0")) > MAX_ZIFFERN:
        raise EingabeFehler(
            f"{wo} kommt eine ganze Zahl{bereich}; {kuerze_wort(text)} ist zu groß."
        )
    wert = int(text)
    if wert < minimum or (maximum is not None and wert > maximum):
        raise EingabeFehler(f"{wo} kommt eine ganze Zahl{bereich}, nicht {wert}.")
    return wert


def _lies_wert(wo: str, wert: Wert, text: str, werte: dict[str, Any], pruefe: Pruefer) -> Any:
    try:
        if wert.art in ZAHL_ARTEN:
            return pruefe(wert.art, zahl(text, wo, wert.minimum, wert.maximum), werte)
        return pruefe(wert.art, text, werte)
    except EingabeFehler as e:
        raise EingabeFehler(absatz(str(e))) from None


# --- Parser ---


def parse(befehl: Befehl, tokens: list[Token], zeile: str, pruefe: Pruefer) -> Aufruf:
    """Prüft die Wörter nach dem Befehlsnamen gegen die Grammatik von ``befehl``."""
    aufruf = Aufruf(befehl)
    i = 1
    for wort in befehl.woerter:
        if i >= len(tokens):
            raise fehler(befehl, f"Nach `{befehl.name}` fehlt das Wort `{wort}`.")
        if tokens[i].text.lower() != wort:
            raise fehler(
                befehl,
                f"Nach `{befehl.name}` kommt das Wort `{wort}`, "
                f"nicht „{kuerze_wort(tokens[i].text)}“.",
            )
        i += 1
    for nummer, wert in enumerate(befehl.positionen):
        if i >= len(tokens):
            if befehl.letzte_optional and nummer == len(befehl.positionen) - 1:
                break
            raise fehler(befehl, f"Es fehlt {wert.platzhalter}.")
        if tokens[i].text.lower() in {o.wort for o in befehl.optionen}:
            raise fehler(befehl, f"Es fehlt {wert.platzhalter} (vor `{tokens[i].text.lower()}`).")
        wo = f"Nach `{tokens[i - 1].text.lower()}`"
        aufruf.werte[wert.name] = _lies_wert(wo, wert, tokens[i].text, aufruf.werte, pruefe)
        i += 1
    if befehl.rest is not None:
        _parse_rest(aufruf, tokens, i, zeile)
    else:
        _parse_optionen(aufruf, tokens, i, pruefe)
    return aufruf


def _parse_rest(aufruf: Aufruf, tokens: list[Token], i: int, zeile: str) -> None:
    befehl = aufruf.befehl
    if befehl.mit_schluessel and i < len(tokens):
        text = tokens[i].text
        if text.lower().startswith("key="):
            schluessel = text[4:]
            if not schluessel:
                raise fehler(
                    befehl,
                    "Nach `key=` fehlt der Schlüssel, ohne Leerzeichen: key=customer-7.",
                )
            aufruf.werte["key"] = schluessel
            i += 1
        elif text.lower() in ("key", "key:") or (
            i + 1 < len(tokens) and tokens[i + 1].text.startswith("=")
        ):
            raise fehler(befehl, "Schreib den Schlüssel ohne Leerzeichen: key=customer-7.")
    if i >= len(tokens):
        if befehl.rest_pflicht:
            raise fehler(befehl, f"Es fehlt {befehl.rest_name}.")
        return
    aufruf.rest_start = tokens[i].start
    aufruf.rest = zeile[tokens[i].start : tokens[-1].ende]


def _parse_optionen(aufruf: Aufruf, tokens: list[Token], i: int, pruefe: Pruefer) -> None:
    befehl = aufruf.befehl
    nach_wort = {o.wort: o for o in befehl.optionen}
    gesehen: list[str] = []
    while i < len(tokens):
        text = tokens[i].text
        option = nach_wort.get(text.lower())
        if option is None:
            raise _unerwartet(befehl, text)
        if option.wort in gesehen:
            raise fehler(befehl, f"`{option.wort}` steht zweimal da. Gib es höchstens einmal an.")
        gesehen.append(option.wort)
        if option.wert is None:
            aufruf.werte[option.wort] = True
            i += 1
            continue
        if i + 1 >= len(tokens):
            raise fehler(befehl, f"Nach `{option.wort}` fehlt {option.wert.platzhalter}.")
        aufruf.werte[option.wert.name] = _lies_wert(
            f"Nach `{option.wort}`", option.wert, tokens[i + 1].text, aufruf.werte, pruefe
        )
        i += 2
    for option in befehl.optionen:
        if option.pflicht and option.wort not in gesehen:
            raise fehler(befehl, f"Es fehlt `{option.form}`.")


def _unerwartet(befehl: Befehl, text: str) -> EingabeFehler:
    wort = kuerze_wort(text)
    if not befehl.optionen:
        return fehler(befehl, f"Zu viele Wörter: „{wort}“ gehört nicht zu `{befehl.name}`.")
    woerter = [o.wort for o in befehl.optionen]
    meldung = f"Das Wort „{wort}“ versteht `{befehl.name}` hier nicht."
    treffer = difflib.get_close_matches(text.lower(), woerter, n=1, cutoff=0.6)
    if treffer:
        meldung += f" Meintest du `{treffer[0]}`?"
    return fehler(befehl, meldung)
