"""Verkleinern wie Hypothesis: aus einem scheiternden Fall den einfachsten, der noch scheitert.

Ein ``Schrumpfer`` hält den einfachsten bisher gefundenen scheiternden Fall (``aktuell``) und
probiert Kandidaten, die ihm benannte ``Durchgang``-Funktionen vorschlagen. Er nimmt einen
Kandidaten nur, wenn er noch scheitert und einfacher ist: Die ``ordnung`` (ein
Sortierschlüssel, „einfacher als“ heißt „kleiner als“) muss bei jedem angenommenen Schritt
sinken; ein Durchgang, der etwas nicht Einfacheres vorschlägt, ist ein Fehler im Programm
(``AssertionError``). Die Durchgänge laufen der Reihe nach, Runde um Runde, bis keiner mehr
etwas ändert (ein Fixpunkt). Was schon probiert wurde, merkt er sich unter seiner ``form``
(einer kanonischen, hashbaren Gestalt des Falls) und probiert es nicht noch einmal.

Begrenzt wird in Versuchen, nie in Zeit, damit CPython und Pyodide dasselbe Ergebnis geben:
``budget`` Versuche insgesamt, und ``stillstand`` Versuche hintereinander ohne Fortschritt.
Ein Versuch ist ein Aufruf von ``scheitert``; was aus dem Gedächtnis kommt, kostet nichts.

Die Durchgänge für Folgen (``bloecke_weglassen``, ``delta_debugging``, ``einzeln_ersetzen``)
arbeiten auf einem Teil des Falls, den eine ``Linse`` liest und ersetzt; ``gleichwertig``
ersetzt den Fall durch eine einfachere Form, die denselben Lauf gibt, ohne ihn zu probieren.

Beispiel::

    s = Schrumpfer((5, 3, 8, 1), lambda t: sum(t) >= 8, ordnung=lambda t: (len(t), t))
    s.schrumpfe([bloecke_weglassen()])   # (8,)

Nutzer: ``pysim.cluster.lauf.verkleinere`` (Operationen und Störungen eines Laufs),
``pysim.pruefer.grund`` (die Operationen, die einen Verlauf nicht linearisierbar machen),
``pysim.raft.wahlpruefung`` (ein Störungsplan).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

__all__ = [
    "Durchgang",
    "Linse",
    "Schrumpfer",
    "bloecke_weglassen",
    "delta_debugging",
    "einzeln_ersetzen",
    "gleichwertig",
    "schrumpfe",
]

T = TypeVar("T")
E = TypeVar("E")

#: Tries in total when a caller names no budget.
BUDGET = 1_000
#: Tries in a row without an accepted step after which shrinking stops (no caller's figure
#: comes near it: it only ends a search that has stopped paying).
STILLSTAND = 500


@dataclass(frozen=True)
class Linse(Generic[T, E]):
    """Ein Teil eines Falls, der eine Folge ist: ``lies`` holt sie, ``setze`` gibt den Fall
    mit einer anderen Folge an ihrer Stelle zurück."""

    lies: Callable[[T], Sequence[E]]
    setze: Callable[[T, tuple[E, ...]], T]


def _ganz(fall: Any) -> tuple[Any, ...]:
    return tuple(fall)


def _ersetzt(fall: Any, neu: tuple[Any, ...]) -> tuple[Any, ...]:
    return neu


#: The whole case is the sequence (a tuple).
GANZ: Linse[Any, Any] = Linse(_ganz, _ersetzt)


class Schrumpfer(Generic[T]):
    """Hält den einfachsten scheiternden Fall und probiert Kandidaten (siehe Modul).

    ``scheitert``: ob ein Fall noch scheitert (soll deterministisch sein); ``ordnung``: der
    Sortierschlüssel „einfacher als“; ``form``: die Gestalt, unter der ein Fall im Gedächtnis
    steht (ohne: der Fall selbst, er muss dann hashbar sein)."""

    def __init__(
        self,
        start: T,
        scheitert: Callable[[T], bool],
        *,
        ordnung: Callable[[T], Any],
        form: Callable[[T], Hashable] | None = None,
        budget: int = BUDGET,
        stillstand: int = STILLSTAND,
    ) -> None:
        self.aktuell = start
        self._scheitert = scheitert
        self._ordnung = ordnung
        self._form: Callable[[T], Hashable] = form if form is not None else _selbst
        self.budget = budget
        self.stillstand = stillstand
        #: Calls of ``scheitert`` so far.
        self.versuche = 0
        #: Accepted steps so far.
        self.schritte = 0
        #: Tries since the last accepted step.
        self.ohne_fortschritt = 0
        self._gedaechtnis: dict[Hashable, bool] = {self._form(start): True}

    @property
    def erschoepft(self) -> bool:
        """Ob das Budget oder die Grenze für Stillstand erreicht ist."""
        return self.versuche >= self.budget or self.ohne_fortschritt >= self.stillstand

    def _pruefe_einfacher(self, kandidat: T, wer: str) -> None:
        if not self._ordnung(kandidat) < self._ordnung(self.aktuell):
            raise AssertionError(
                f"{wer} schlägt einen Fall vor, der nicht einfacher ist: "
                f"{self._ordnung(kandidat)!r} ist nicht kleiner als "
                f"{self._ordnung(self.aktuell)!r}."
            )

    def probiere(self, kandidat: T, wer: str = "Ein Durchgang") -> bool:
        """Nimmt ``kandidat``, wenn er noch scheitert; ``True``, wenn er ihn nahm. Aus dem
        Gedächtnis ohne Versuch; ist das Budget erschöpft, ``False`` ohne Versuch."""
        self._pruefe_einfacher(kandidat, wer)
        schluessel = self._form(kandidat)
        bekannt = self._gedaechtnis.get(schluessel)
        if bekannt is None:
            if self.erschoepft:
                return False
            self.versuche += 1
            bekannt = bool(self._scheitert(kandidat))
            self._gedaechtnis[schluessel] = bekannt
            if not bekannt:
                self.ohne_fortschritt += 1
        if bekannt:
            self.aktuell = kandidat
            self.schritte += 1
            self.ohne_fortschritt = 0
        return bekannt

    def uebernimm(self, kandidat: T, wer: str = "Ein Durchgang") -> None:
        """Nimmt ``kandidat`` ohne Versuch: Er gibt denselben Lauf wie ``aktuell`` (das
        verspricht der Durchgang), nur einfacher."""
        self._pruefe_einfacher(kandidat, wer)
        self._gedaechtnis[self._form(kandidat)] = True
        self.aktuell = kandidat
        self.schritte += 1

    def schrumpfe(self, durchgaenge: Sequence[Durchgang[T]]) -> T:
        """Lässt die ``durchgaenge`` der Reihe nach laufen, Runde um Runde, bis eine Runde
        nichts mehr ändert oder das Budget erschöpft ist; gibt ``aktuell`` zurück."""
        while not self.erschoepft:
            vorher = self.schritte
            for durchgang in durchgaenge:
                durchgang.lauf(self)
                if self.erschoepft:
                    break
            if self.schritte == vorher:
                break
        return self.aktuell


def _selbst(fall: Any) -> Hashable:
    return fall  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Durchgang(Generic[T]):
    """Ein benannter Durchgang: ``lauf`` schlägt dem Schrumpfer Kandidaten vor
    (``Schrumpfer.probiere``) und liest ``Schrumpfer.aktuell``."""

    name: str
    lauf: Callable[[Schrumpfer[T]], None]


def schrumpfe(
    start: T,
    scheitert: Callable[[T], bool],
    durchgaenge: Sequence[Durchgang[T]],
    *,
    ordnung: Callable[[T], Any],
    form: Callable[[T], Hashable] | None = None,
    budget: int = BUDGET,
    stillstand: int = STILLSTAND,
) -> T:
    """Der einfachste scheiternde Fall, den die ``durchgaenge`` von ``start`` aus finden
    (``Schrumpfer``). Derselbe Start gibt dasselbe Ergebnis."""
    schrumpfer = Schrumpfer(
        start, scheitert, ordnung=ordnung, form=form, budget=budget, stillstand=stillstand
    )
    return schrumpfer.schrumpfe(durchgaenge)


def bloecke_weglassen(linse: Linse[T, Any] = GANZ, name: str = "Blöcke weglassen") -> Durchgang[T]:
    """Lässt Blöcke weg, erst halb so lang wie die Folge, dann immer halb so lang, zuletzt
    einzelne Elemente: Jeder Block, dessen Fehlen den Fall noch scheitern lässt, bleibt weg
    (wie Hypothesis' Durchgänge über Blöcke)."""

    def lauf(s: Schrumpfer[T]) -> None:
        groesse = max(1, len(linse.lies(s.aktuell)) // 2)
        while groesse >= 1 and not s.erschoepft:
            i = 0
            while i < len(folge := tuple(linse.lies(s.aktuell))) and not s.erschoepft:
                kandidat = linse.setze(s.aktuell, folge[:i] + folge[i + groesse :])
                if not s.probiere(kandidat, name):
                    i += groesse
            groesse //= 2

    return Durchgang(name, lauf)


def delta_debugging(linse: Linse[T, Any] = GANZ, name: str = "Delta Debugging") -> Durchgang[T]:
    """Zellers ddmin: die Folge in n Stücke teilen, ein Stück allein oder alles ohne ein Stück
    probieren; gelingt nichts, doppelt so viele Stücke, bis einzelne Elemente. Zuletzt,
    wenn eins bleibt, die leere Folge."""

    def lauf(s: Schrumpfer[T]) -> None:
        n = 2
        while len(folge := tuple(linse.lies(s.aktuell))) >= 2 and not s.erschoepft:
            groesse = -(-len(folge) // n)
            grenzen = list(range(0, len(folge), groesse))
            stuecke = [folge[i : i + groesse] for i in grenzen]
            ohne = [folge[:i] + folge[i + groesse :] for i in grenzen]
            for nummer, kandidat in enumerate([*stuecke, *ohne]):
                if s.erschoepft:
                    break
                if s.probiere(linse.setze(s.aktuell, kandidat), name):
                    n = 2 if nummer < len(stuecke) else max(n - 1, 2)
                    break
            else:
                if n >= len(folge):
                    break
                n = min(len(folge), 2 * n)
        if len(linse.lies(s.aktuell)) == 1 and not s.erschoepft:
            s.probiere(linse.setze(s.aktuell, ()), name)

    return Durchgang(name, lauf)


def einzeln_ersetzen(
    varianten: Callable[[E], Iterable[E]],
    linse: Linse[T, E] = GANZ,
    name: str = "einzeln vereinfachen",
) -> Durchgang[T]:
    """Ersetzt jedes Element der Reihe nach durch die erste seiner ``varianten`` (einfachere
    Formen, die einfachste zuerst), mit der der Fall noch scheitert."""

    def lauf(s: Schrumpfer[T]) -> None:
        i = 0
        while i < len(folge := tuple(linse.lies(s.aktuell))) and not s.erschoepft:
            for variante in varianten(folge[i]):
                neu = (*folge[:i], variante, *folge[i + 1 :])
                if s.probiere(linse.setze(s.aktuell, neu), name):
                    break
            i += 1

    return Durchgang(name, lauf)


def gleichwertig(normalform: Callable[[T], T], name: str = "zusammenfassen") -> Durchgang[T]:
    """Ersetzt den Fall durch ``normalform(fall)``, wenn die sich unterscheidet, ohne Versuch:
    Die Normalform gibt denselben Lauf und ist einfacher (z. B. Warten zusammengefasst)."""

    def lauf(s: Schrumpfer[T]) -> None:
        neu = normalform(s.aktuell)
        if neu != s.aktuell:
            s.uebernimm(neu, name)

    return Durchgang(name, lauf)
