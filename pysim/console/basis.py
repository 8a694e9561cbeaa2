"""Was alle Konsolen gemeinsam haben: eine Zeile ausführen, Fehler fangen, vervollständigen."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar

from ..fehler import SimFehler
from . import hilfe
from .ergebnis import ConsoleResult
from .parser import (
    MAX_ZEILE,
    ZAHL,
    Art,
    Aufruf,
    Befehl,
    Befehlstabelle,
    EingabeFehler,
    Handler,
    Wert,
    kuerze_wort,
    naechste,
    parse,
    zerlege,
)

#: Steuerzeichen (außer Tab) und einzelne Surrogate: in einem Befehl nie gemeint.
_STEUERZEICHEN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")
#: Unsichtbare Zeichen, die die Schreibrichtung umstellen (Embedding, Override, Isolate): Sie
#: spiegeln den Rest der Zeile im Protokoll, ein Befehl meint sie nie.
RICHTUNGSZEICHEN = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _befehlsnamen(konsole: BasisKonsole[Any], _werte: dict[str, Any]) -> list[str]:
    return konsole.BEFEHLE.namen()


#: Der Name eines Befehls (nach ``hilfe``).
BEFEHLSNAME = Art("befehl", kandidaten=_befehlsnamen)


#: So viele Ticks lässt ``tick`` auf einmal vergehen.
MAX_TICKS = 100


def tick_befehl(handler: Handler, beispiel: str, was_geschieht: str = "") -> Befehl:
    """``tick [<n>]``: die Zeit vorstellen (jede Konsole mit einem Modell auf einer ``Zeit``)."""
    return Befehl(
        name="tick",
        syntax="tick [<n>]",
        kurz="die Zeit um n Ticks (ohne n: 1) vorstellen",
        beispiele=("tick", beispiel),
        handler=handler,
        erklaerung=(f"{was_geschieht}Höchstens {MAX_TICKS} Ticks auf einmal.",),
        positionen=(Wert("n", "<n>", ZAHL, 0, MAX_TICKS),),
        letzte_optional=True,
    )


def tick_anzahl(aufruf: Aufruf) -> int:
    """Das ``n`` von ``tick [<n>]``; ohne ``n`` 1, wie die Hilfe von ``tick_befehl`` sagt."""
    n: int = aufruf.werte.get("n", 1)
    return n


def tick_kopf(jetzt: int, n: int) -> str:
    """Die erste Zeile, mit der ``tick`` in jeder Konsole antwortet."""
    return f"Zeit: t={jetzt} (+{n})."


def gemeinsame_befehle(hilfe_beispiel: str) -> list[Befehl]:
    """``hilfe`` und ``clear``: die Befehle, die jede Konsole hat (Handler in ``BasisKonsole``).

    ``hilfe_beispiel``: der Befehl, den ``hilfe`` als Beispiel erklärt (``HILFE_BEISPIEL``).
    """
    return [
        Befehl(
            name="hilfe",
            syntax="hilfe [<befehl>]",
            kurz="Hilfe zu allen oder einem Befehl",
            beispiele=("hilfe", f"hilfe {hilfe_beispiel}"),
            handler=BasisKonsole._hilfe,
            rest=BEFEHLSNAME,
            rest_pflicht=False,
            aliase=("help",),
            zeigt_bild=False,
        ),
        Befehl(
            name="clear",
            syntax="clear",
            kurz="die Ausgabe leeren (der Zustand bleibt)",
            beispiele=("clear",),
            handler=BasisKonsole._clear,
            zeigt_bild=False,
        ),
    ]


def setze_befehle(konsole: type[BasisKonsole[Any]], eigene: Iterable[Befehl]) -> Befehlstabelle:
    """Gibt ``konsole`` ihre Befehlstabelle: ihre eigenen Befehle, dann ``hilfe`` und ``clear``
    (mit demselben Beispiel wie die Übersicht von ``hilfe``)."""
    konsole.BEFEHLE = Befehlstabelle([*eigene, *gemeinsame_befehle(konsole.HILFE_BEISPIEL)])
    return konsole.BEFEHLE


INTERNER_FEHLER = (
    "Interner Fehler im Simulator: Das ist ein Bug in pysim, nicht dein Fehler. "
    "Bitte melde die Eingabe, die das ausgelöst hat."
)


def interner_fehler(exc: BaseException) -> str:
    """Die Meldung für eine Ausnahme, die nie hätte auftreten dürfen."""
    art = type(exc).__name__
    text = kuerze_wort(str(exc), 120)
    return INTERNER_FEHLER + "\n" + (f"({art}: {text})" if text else f"({art})")


#: Das Modell, das eine Konsole bedient (``Log``, ``Queue``, ``SagaSim``).
M = TypeVar("M")


class BasisKonsole(Generic[M]):
    """Grundgerüst einer Konsole über einem Modell. Unterklassen bekommen ``BEFEHLE`` von
    ``setze_befehle``; dessen Handler und Arten sind meist Methoden der Unterklasse."""

    BEFEHLE: ClassVar[Befehlstabelle]
    #: Der Name der Konsole, wie die Seite und die Hilfe ihn zeigen (``Log-Konsole``).
    TITEL: ClassVar[str] = ""
    HILFE_BEISPIEL = "hilfe"

    def __init__(self, modell: M) -> None:
        self._modell = modell

    @property
    def modell(self) -> M:
        """Das Modell hinter der Konsole, für Prüfungen in Übungen (bei jeder Art derselbe Name)."""
        return self._modell

    # --- ausführen ---

    def run(self, line: str) -> ConsoleResult:
        """Führt eine Zeile aus. Löst nie eine Ausnahme aus; ein Fehler ändert nichts."""
        befehl: Befehl | None = None
        try:
            if not isinstance(line, str):
                return ConsoleResult(False, "Die Eingabe muss ein Text sein.")
            zeile = line.strip()
            if not zeile or zeile.startswith("#"):
                return ConsoleResult(True, "")
            if len(zeile) > MAX_ZEILE:
                return ConsoleResult(
                    False, f"Die Zeile ist zu lang (höchstens {MAX_ZEILE} Zeichen)."
                )
            if "\n" in zeile or "\r" in zeile:
                return ConsoleResult(
                    False, "Bitte nur einen Befehl auf einmal: Die Eingabe hat mehrere Zeilen."
                )
            steuerzeichen = _STEUERZEICHEN.search(zeile)
            if steuerzeichen is not None:
                return ConsoleResult(
                    False,
                    f"Die Eingabe enthält ein unsichtbares Steuerzeichen "
                    f"(U+{ord(steuerzeichen.group()):04X}). Bitte nur sichtbare Zeichen.",
                )
            richtung = RICHTUNGSZEICHEN.search(zeile)
            if richtung is not None:
                return ConsoleResult(
                    False,
                    f"Die Eingabe enthält ein unsichtbares Zeichen, das die Schreibrichtung "
                    f"umstellt (U+{ord(richtung.group()):04X}). Es würde den Rest der Zeile "
                    f"spiegeln; bitte ohne dieses Zeichen.",
                )
            befehl = self.BEFEHLE.finde(zeile.split(None, 1)[0])
            aufruf = self.parse(zeile)
            assert befehl is not None and aufruf is not None  # parse refused anything else
            ergebnis: ConsoleResult = befehl.handler(self, aufruf)
            return ergebnis
        except EingabeFehler as e:
            return self._fehler(str(e), befehl)
        except SimFehler as e:
            return self._fehler(str(e), befehl)
        except Exception as e:
            return self._fehler(interner_fehler(e), befehl)

    def parse(self, line: str) -> Aufruf | None:
        """Prüft eine Zeile nach der Grammatik, ohne sie auszuführen.

        Gibt den ``Aufruf`` zurück (``None`` für eine leere Zeile oder einen Kommentar). Eine
        falsche Zeile ist ein ``EingabeFehler``; endet sie, bevor der Befehl vollständig ist,
        ein ``EingabeFehlt``.
        """
        tokens = zerlege(line)
        if not tokens or tokens[0].text.startswith("#"):
            return None
        befehl = self.BEFEHLE.finde(tokens[0].text)
        if befehl is None:
            raise self.BEFEHLE.unbekannt(tokens[0].text)
        return parse(befehl, tokens, line, self)

    def run_script(self, script: str | Iterable[str]) -> list[ConsoleResult]:
        """Führt mehrere Zeilen nacheinander aus (z. B. die Vorbereitung einer Übung)."""
        zeilen = script.splitlines() if isinstance(script, str) else list(script)
        return [self.run(z) for z in zeilen]

    @staticmethod
    def _fehler(text: str, befehl: Befehl | None) -> ConsoleResult:
        return ConsoleResult(False, text, command=befehl.name if befehl else "")

    def _ok(self, aufruf: Aufruf, text: str, svg: str | None = None) -> ConsoleResult:
        return ConsoleResult(True, text, svg=svg, command=aufruf.befehl.name)

    # --- gemeinsame Befehle ---

    @classmethod
    def hilfe_titel(cls) -> str:
        """Die erste Zeile der Übersicht von ``hilfe`` (``Befehle der Log-Konsole:``)."""
        return f"Befehle der {cls.TITEL}:" if cls.TITEL else "Befehle:"

    def _hilfe(self, aufruf: Aufruf) -> ConsoleResult:
        if aufruf.rest is None:
            return self._ok(
                aufruf, hilfe.uebersicht(self.BEFEHLE, self.hilfe_titel(), self.HILFE_BEISPIEL)
            )
        woerter = aufruf.rest.split()
        befehl = self.BEFEHLE.finde(woerter[0])
        if befehl is None:
            raise self.BEFEHLE.unbekannt(woerter[0])
        weitere = [w.lower() for w in woerter[1:]]
        if weitere and weitere != list(befehl.woerter[: len(weitere)]):
            raise EingabeFehler(
                f"`hilfe` erklärt einen Befehl: hilfe {befehl.name}\n"
                f"(„{kuerze_wort(' '.join(woerter[1:]))}“ ist zu viel.)"
            )
        return self._ok(aufruf, hilfe.details(befehl))

    def _clear(self, aufruf: Aufruf) -> ConsoleResult:
        return ConsoleResult(True, "", clear=True, command=aufruf.befehl.name)

    # --- für Unterklassen ---

    def state_dump(self) -> str:
        """Der ganze Zustand als fester Text (gleicher Zustand, gleicher Text)."""
        raise NotImplementedError

    # --- Vervollständigung ---

    def complete(self, line: str) -> list[str]:
        """Mögliche Wörter für das letzte (angefangene) Wort von ``line``, sortiert."""
        try:
            if not isinstance(line, str) or "\n" in line or len(line) > MAX_ZEILE:
                return []
            woerter = zerlege(line)
            if line and not line[-1].isspace():
                teil = woerter.pop().text
            else:
                teil = ""
            if not woerter:
                if teil.startswith("#"):
                    return []
                kandidaten = self.BEFEHLE.namen()
            else:
                befehl = self.BEFEHLE.finde(woerter[0].text)
                if befehl is None:
                    return []
                kandidaten = naechste(befehl, woerter, line, self)
            klein = teil.lower()
            return sorted({k for k in kandidaten if k.lower().startswith(klein)})
        except Exception:
            return []
