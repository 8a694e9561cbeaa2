"""Was beide Konsolen gemeinsam haben: eine Zeile ausführen, Fehler fangen, vervollständigen."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..fehler import SimFehler
from . import hilfe
from .ergebnis import ConsoleResult
from .parser import (
    MAX_ZEILE,
    Aufruf,
    Befehl,
    Befehlstabelle,
    EingabeFehler,
    absatz,
    kuerze_wort,
    parse,
    zerlege,
)

#: Steuerzeichen (außer Tab) und einzelne Surrogate: in einem Befehl nie gemeint.
_STEUERZEICHEN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")


def gemeinsame_befehle(hilfe_beispiel: str) -> list[Befehl]:
    """``hilfe`` und ``clear``: die Befehle, die jede Konsole hat (Handler in ``BasisKonsole``)."""
    return [
        Befehl(
            name="hilfe",
            syntax="hilfe [<befehl>]",
            kurz="Hilfe zu allen oder einem Befehl",
            beispiele=("hilfe", hilfe_beispiel),
            methode="_hilfe",
            rest="befehl",
            rest_pflicht=False,
            aliase=("help",),
            zeigt_bild=False,
        ),
        Befehl(
            name="clear",
            syntax="clear",
            kurz="die Ausgabe leeren (der Zustand bleibt)",
            beispiele=("clear",),
            methode="_clear",
            zeigt_bild=False,
        ),
    ]


INTERNER_FEHLER = (
    "Interner Fehler im Simulator: Das ist ein Bug in pysim, nicht dein Fehler. "
    "Bitte melde die Eingabe, die das ausgelöst hat."
)


def interner_fehler(exc: BaseException) -> str:
    """Die Meldung für eine Ausnahme, die nie hätte auftreten dürfen."""
    art = type(exc).__name__
    text = kuerze_wort(str(exc), 120)
    return absatz(INTERNER_FEHLER) + "\n" + absatz(f"({art}: {text})" if text else f"({art})")


class BasisKonsole:
    """Grundgerüst einer Konsole. Unterklassen setzen ``BEFEHLE`` und die Methoden dazu."""

    BEFEHLE: Befehlstabelle
    HILFE_TITEL = "Befehle:"
    HILFE_BEISPIEL = "hilfe"

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
            tokens = zerlege(zeile)
            befehl = self.BEFEHLE.finde(tokens[0].text)
            if befehl is None:
                raise self.BEFEHLE.unbekannt(tokens[0].text)
            aufruf = parse(befehl, tokens, zeile, self._pruefe)
            ergebnis: ConsoleResult = getattr(self, befehl.methode)(aufruf)
            return ergebnis
        except EingabeFehler as e:
            return self._fehler(str(e), befehl)
        except SimFehler as e:
            return self._fehler(str(e), befehl)
        except Exception as e:
            return self._fehler(interner_fehler(e), befehl)

    def run_script(self, script: str | Iterable[str]) -> list[ConsoleResult]:
        """Führt mehrere Zeilen nacheinander aus (z. B. die Vorbereitung einer Übung)."""
        zeilen = script.splitlines() if isinstance(script, str) else list(script)
        return [self.run(z) for z in zeilen]

    @staticmethod
    def _fehler(text: str, befehl: Befehl | None) -> ConsoleResult:
        return ConsoleResult(False, absatz(text), command=befehl.name if befehl else "")

    def _ok(self, aufruf: Aufruf, text: str, svg: str | None = None) -> ConsoleResult:
        return ConsoleResult(True, text, svg=svg, command=aufruf.befehl.name)

    # --- gemeinsame Befehle ---

    def _hilfe(self, aufruf: Aufruf) -> ConsoleResult:
        if aufruf.rest is None:
            return self._ok(
                aufruf, hilfe.uebersicht(self.BEFEHLE, self.HILFE_TITEL, self.HILFE_BEISPIEL)
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

    def _pruefe(self, art: str, text: Any, werte: dict[str, Any]) -> Any:
        """Prüft einen Wert nach seiner Art; Unterklassen kennen ihre Arten."""
        return text

    def _kandidaten(self, art: str, werte: dict[str, Any]) -> list[str]:
        """Mögliche Werte einer Art für die Vervollständigung."""
        return []

    def _schluessel_kandidaten(self, werte: dict[str, Any]) -> list[str]:
        return ["key="]

    def state_dump(self) -> str:
        """Der ganze Zustand als fester Text (gleicher Zustand, gleicher Text)."""
        raise NotImplementedError

    # --- Vervollständigung ---

    def complete(self, line: str) -> list[str]:
        """Mögliche Wörter für das letzte (angefangene) Wort von ``line``, sortiert."""
        try:
            if not isinstance(line, str) or "\n" in line or len(line) > MAX_ZEILE:
                return []
            woerter = [t.text for t in zerlege(line)]
            if line and not line[-1].isspace():
                teil = woerter.pop()
            else:
                teil = ""
            if not woerter:
                if teil.startswith("#"):
                    return []
                kandidaten = self.BEFEHLE.namen()
            else:
                befehl = self.BEFEHLE.finde(woerter[0])
                if befehl is None:
                    return []
                kandidaten = self._naechste(befehl, woerter[1:])
            klein = teil.lower()
            return sorted({k for k in kandidaten if k.lower().startswith(klein)})
        except Exception:
            return []

    def _naechste(self, befehl: Befehl, woerter: list[str]) -> list[str]:
        i = 0
        for wort in befehl.woerter:
            if i == len(woerter):
                return [wort]
            if woerter[i].lower() != wort:
                return []
            i += 1
        werte: dict[str, Any] = {}
        for wert in befehl.positionen:
            if i == len(woerter):
                return self._kandidaten(wert.art, werte)
            werte[wert.name] = woerter[i]
            i += 1
        if befehl.rest is not None:
            if i == len(woerter):
                if befehl.mit_schluessel:
                    return self._schluessel_kandidaten(werte)
                if befehl.rest == "befehl":
                    return self.BEFEHLE.namen()
            return []
        nach_wort = {o.wort: o for o in befehl.optionen}
        gesehen: set[str] = set()
        while i < len(woerter):
            option = nach_wort.get(woerter[i].lower())
            if option is None:
                return []
            gesehen.add(option.wort)
            if option.wert is not None:
                if i + 1 == len(woerter):
                    return self._kandidaten(option.wert.art, werte)
                werte[option.wert.name] = woerter[i + 1]
                i += 2
            else:
                i += 1
        return [o.wort for o in befehl.optionen if o.wort not in gesehen]
