"""Die Grammatik der Konsolen: eine Tabelle von Befehlen und ein Weg durch sie.

Jeder Befehl steht als ``Befehl`` in einer Tabelle (Name, Syntax, Hilfetext, Handler). Eine Zeile
hat diese Form:

    <name> <feste Wörter> <Werte der Reihe nach> [key=<schlüssel>] <rest>
    <name> <feste Wörter> <Werte der Reihe nach> <Optionen in beliebiger Reihenfolge>

``gehe`` läuft eine Zeile einmal nach dieser Grammatik ab, für beides: Zum Ausführen (``parse``)
prüft es jedes Wort, bevor irgendetwas am Zustand geschieht; zur Vervollständigung
(``naechste``) läuft es bis zum Ende der fertigen Wörter und sagt, was dort kommen darf. Darum
bietet die Vervollständigung nur an, was der Parser annimmt.

Was ein Wert bedeutet (gibt es das Topic?), sagt seine ``Art``: ein Objekt mit einer Funktion, die
den Text liest und prüft, und einer, die mögliche Werte nennt. Jede falsche Eingabe wird zu einem
``EingabeFehler`` mit deutscher Meldung, die die richtige Form und ein Beispiel zeigt; fehlt am
Ende der Zeile noch etwas, ist es ein ``EingabeFehlt``.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..fehler import SimFehler, kurz

#: Längere Eingaben lehnt die Konsole ab (schützt Bild und Speicher).
MAX_ZEILE = 2000
#: Mehr Ziffern hat keine Zahl, die die Konsole annimmt.
MAX_ZIFFERN = 9

_ZAHL = re.compile(r"[0-9]+")
_WORT = re.compile(r"\S+")


class EingabeFehler(Exception):
    """Eine Eingabe, die die Konsole nicht ausführen kann. Die Meldung ist deutsch."""


class EingabeFehlt(EingabeFehler):
    """Die Zeile endet, bevor der Befehl vollständig ist (es fehlt etwas am Ende)."""


@dataclass(frozen=True)
class Token:
    """Ein Wort der Eingabe mit seiner Stelle in der Zeile."""

    text: str
    start: int
    ende: int


def zerlege(zeile: str) -> list[Token]:
    """Teilt eine Zeile an Leerraum in Wörter."""
    return [Token(m.group(), m.start(), m.end()) for m in _WORT.finditer(zeile)]


#: Liest und prüft einen Wert: (Konsole, Text oder schon gelesene Zahl, bisherige Werte) -> Wert.
#: Ein Fehler ist ein ``EingabeFehler`` (oder ein ``SimFehler`` aus dem Modell).
Leser = Callable[[Any, Any, dict[str, Any]], Any]
#: Mögliche Werte für die Vervollständigung: (Konsole, bisherige Werte) -> Wörter.
Kandidaten = Callable[[Any, dict[str, Any]], Iterable[str]]


def _unveraendert(_konsole: Any, wert: Any, _werte: dict[str, Any]) -> Any:
    return wert


def _keine(_konsole: Any, _werte: dict[str, Any]) -> Iterable[str]:
    return ()


def _nur_key(_konsole: Any, _werte: dict[str, Any]) -> Iterable[str]:
    return ("key=",)


@dataclass(frozen=True)
class Art:
    """Was an einer Stelle stehen darf.

    ``zahl``: Der Parser liest erst eine ganze Zahl (in den Grenzen des ``Wert``), dann ``lies``.
    ``lies`` und ``kandidaten`` bekommen die Konsole als erstes Argument (meist ihre Methoden).
    """

    name: str
    lies: Leser = _unveraendert
    kandidaten: Kandidaten = _keine
    zahl: bool = False


#: Ein beliebiges Wort, ohne Prüfung und ohne Vorschläge.
TEXT = Art("text")
#: Eine ganze Zahl in den Grenzen des ``Wert``.
ZAHL = Art("zahl", zahl=True)


@dataclass(frozen=True)
class Wert:
    """Ein Platzhalter wie ``<topic>``: ``art`` sagt, was dort stehen darf."""

    name: str
    platzhalter: str
    art: Art
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


#: Führt einen geprüften Befehl aus: (Konsole, Aufruf) -> Ergebnis (meist eine Methode der Konsole).
Handler = Callable[[Any, "Aufruf"], Any]


@dataclass(frozen=True)
class Befehl:
    """Eine Zeile der Befehlstabelle.

    ``rest``: alles Weitere der Zeile, auch mit Leerzeichen (ein JSON-Wert, ein Text, ein
    Befehlsname); seine ``Art`` nennt nur Vorschläge, prüfen muss der Handler.
    """

    name: str
    syntax: str
    kurz: str
    beispiele: tuple[str, ...]
    handler: Handler
    erklaerung: tuple[str, ...] = ()
    woerter: tuple[str, ...] = ()
    positionen: tuple[Wert, ...] = ()
    letzte_optional: bool = False
    optionen: tuple[Option, ...] = ()
    rest: Art | None = None
    rest_name: str = ""
    rest_pflicht: bool = True
    mit_schluessel: bool = False  # [key=<schlüssel>] before the rest
    schluessel: Kandidaten = _nur_key  # its suggestions, e.g. the keys the topic has
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
            zeilen.append("Befehle: " + ", ".join(namen) + ".")
        zeilen.append("`hilfe` zeigt alle Befehle mit Beispielen.")
        return EingabeFehler("\n".join(zeilen))


# --- Text ---


#: Lange Eingaben in Meldungen abkürzen: ``abcdefghijkl…`` (wie die Meldungen des Modells).
kuerze_wort = kurz


def form(befehl: Befehl) -> str:
    """„So geht es: …“ und ein Beispiel, für Fehlermeldungen."""
    zeilen = ["So geht es:", "  " + befehl.syntax]
    if befehl.beispiele:
        zeilen.append("Beispiel:")
        zeilen.append("  " + befehl.beispiele[0])
    return "\n".join(zeilen)


def fehler(befehl: Befehl, meldung: str) -> EingabeFehler:
    """Ein Formfehler: die Meldung, dann die richtige Form."""
    return EingabeFehler(meldung + "\n" + form(befehl))


def fehlt(befehl: Befehl, meldung: str) -> EingabeFehlt:
    """Wie ``fehler``, für eine Zeile, die endet, bevor der Befehl vollständig ist."""
    return EingabeFehlt(meldung + "\n" + form(befehl))


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


# --- Der Weg durch die Grammatik ---


class _Zeilenende(Exception):
    """Vervollständigung: Die fertigen Wörter sind zu Ende; ``kandidaten`` dürfen folgen."""

    def __init__(self, kandidaten: Iterable[str]) -> None:
        super().__init__()
        self.kandidaten = list(kandidaten)


@dataclass
class _Gang:
    """Ein Gang einer Zeile durch die Grammatik eines Befehls.

    Die beiden Arten zu gehen unterscheiden sich nur am Ende der Wörter: ``parse`` nimmt ein
    mögliches Ende an und meldet ein fehlendes Stück als ``EingabeFehlt``; ``naechste`` hält an
    jedem Ende an und gibt zurück, was dort stehen dürfte.
    """

    befehl: Befehl
    tokens: Sequence[Token]
    zeile: str
    konsole: Any
    vorschau: bool
    aufruf: Aufruf = field(init=False)
    i: int = field(default=1, init=False)  # tokens[0] is the command's name

    def __post_init__(self) -> None:
        self.aufruf = Aufruf(self.befehl)

    # --- Ende der Zeile ---

    def _hier_zu_ende(self, kandidaten: Callable[[], Iterable[str]]) -> bool:
        """Darf die Zeile hier enden: Ist sie zu Ende? (Vorschau: anhalten mit ``kandidaten``.)"""
        if self.i < len(self.tokens):
            return False
        if self.vorschau:
            raise _Zeilenende(kandidaten())
        return True

    def _brauche(self, was: str, kandidaten: Callable[[], Iterable[str]]) -> Token:
        """Das nächste Wort, das hier stehen muss; am Ende fehlt es (Vorschau: anhalten)."""
        if self.i < len(self.tokens):
            return self.tokens[self.i]
        if self.vorschau:
            raise _Zeilenende(kandidaten())
        raise fehlt(self.befehl, was)

    def _vorschlaege(self, wert: Wert) -> Callable[[], Iterable[str]]:
        return lambda: wert.art.kandidaten(self.konsole, self.aufruf.werte)

    def _lies(self, wo: str, wert: Wert, text: str) -> Any:
        try:
            gelesen: Any = text
            if wert.art.zahl:
                gelesen = zahl(text, wo, wert.minimum, wert.maximum)
            return wert.art.lies(self.konsole, gelesen, self.aufruf.werte)
        except EingabeFehler as e:
            raise EingabeFehler(str(e)) from None

    # --- der Weg ---

    def gehe(self) -> Aufruf:
        befehl, werte = self.befehl, self.aufruf.werte
        for wort in befehl.woerter:
            token = self._brauche(
                f"Nach `{befehl.name}` fehlt das Wort `{wort}`.", functools.partial(list, (wort,))
            )
            if token.text.lower() != wort:
                raise fehler(
                    befehl,
                    f"Nach `{befehl.name}` kommt das Wort `{wort}`, "
                    f"nicht „{kuerze_wort(token.text)}“.",
                )
            self.i += 1
        optionen = {o.wort for o in befehl.optionen}
        for nummer, wert in enumerate(befehl.positionen):
            if befehl.letzte_optional and nummer == len(befehl.positionen) - 1:
                if self._hier_zu_ende(self._vorschlaege(wert)):
                    break
            token = self._brauche(f"Es fehlt {wert.platzhalter}.", self._vorschlaege(wert))
            if token.text.lower() in optionen:
                raise fehler(befehl, f"Es fehlt {wert.platzhalter} (vor `{token.text.lower()}`).")
            wo = f"Nach `{self.tokens[self.i - 1].text.lower()}`"
            werte[wert.name] = self._lies(wo, wert, token.text)
            self.i += 1
        if befehl.rest is not None:
            self._rest(befehl.rest)
        else:
            self._optionen()
        return self.aufruf

    def _rest(self, art: Art) -> None:
        befehl, werte = self.befehl, self.aufruf.werte

        def vorschlaege() -> Iterable[str]:
            if befehl.mit_schluessel:
                return befehl.schluessel(self.konsole, werte)
            return art.kandidaten(self.konsole, werte)

        if self._hier_zu_ende(vorschlaege):
            if befehl.rest_pflicht:
                raise fehlt(befehl, f"Es fehlt {befehl.rest_name}.")
            return
        if befehl.mit_schluessel:
            text = self.tokens[self.i].text
            if text.lower().startswith("key="):
                schluessel = text[4:]
                if not schluessel:
                    meldung = "Nach `key=` fehlt der Schlüssel, ohne Leerzeichen: key=customer-7."
                    if self.i + 1 == len(self.tokens):
                        raise fehlt(befehl, meldung)
                    raise fehler(befehl, meldung)
                werte["key"] = schluessel
                self.i += 1
            elif text.lower() in ("key", "key:") or (
                self.i + 1 < len(self.tokens) and self.tokens[self.i + 1].text.startswith("=")
            ):
                raise fehler(befehl, "Schreib den Schlüssel ohne Leerzeichen: key=customer-7.")
            if self._hier_zu_ende(lambda: art.kandidaten(self.konsole, werte)):
                if befehl.rest_pflicht:
                    raise fehlt(befehl, f"Es fehlt {befehl.rest_name}.")
                return
        start = self.tokens[self.i].start
        self.aufruf.rest_start = start
        self.aufruf.rest = self.zeile[start : self.tokens[-1].ende]
        self.i = len(self.tokens)

    def _optionen(self) -> None:
        befehl, werte = self.befehl, self.aufruf.werte
        nach_wort = {o.wort: o for o in befehl.optionen}
        gesehen: list[str] = []
        while not self._hier_zu_ende(
            lambda: [o.wort for o in befehl.optionen if o.wort not in gesehen]
        ):
            text = self.tokens[self.i].text
            option = nach_wort.get(text.lower())
            if option is None:
                raise _unerwartet(befehl, text)
            if option.wort in gesehen:
                raise fehler(
                    befehl, f"`{option.wort}` steht zweimal da. Gib es höchstens einmal an."
                )
            gesehen.append(option.wort)
            self.i += 1
            if option.wert is None:
                werte[option.wort] = True
                continue
            token = self._brauche(
                f"Nach `{option.wort}` fehlt {option.wert.platzhalter}.",
                self._vorschlaege(option.wert),
            )
            werte[option.wert.name] = self._lies(f"Nach `{option.wort}`", option.wert, token.text)
            self.i += 1
        for option in befehl.optionen:
            if option.pflicht and option.wort not in gesehen:
                raise fehlt(befehl, f"Es fehlt `{option.form}`.")


def parse(befehl: Befehl, tokens: Sequence[Token], zeile: str, konsole: Any) -> Aufruf:
    """Prüft die Wörter nach dem Befehlsnamen gegen die Grammatik von ``befehl``."""
    return _Gang(befehl, tokens, zeile, konsole, vorschau=False).gehe()


def naechste(befehl: Befehl, tokens: Sequence[Token], zeile: str, konsole: Any) -> list[str]:
    """Was nach den Wörtern ``tokens`` kommen darf (leer: nichts, oder die Zeile ist falsch)."""
    try:
        _Gang(befehl, tokens, zeile, konsole, vorschau=True).gehe()
    except _Zeilenende as ende:
        return ende.kandidaten
    except (EingabeFehler, SimFehler):
        return []
    return []


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
