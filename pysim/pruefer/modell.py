"""Was die Suche und die Erklärung über ein Modell wissen müssen (bisher: ``register``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from .suche import Aufgabe, Budget, Schritt, suche
from .verlauf import Operation


@dataclass(frozen=True)
class Modell:
    """Ein sequentielles Modell: Anfangszustand, Schritt, und wie es Operationen sieht.

    ``aufgabe``: die Aufgabe einer Operation (``None``: schränkt nichts ein). ``gelockert``:
    dieselbe, als hätte sie irgendwann nach ihrem Beginn oder nie gewirkt (``None``: dann
    fällt sie weg). ``beschneiden``: lässt Aufgaben weg, die am Urteil nichts ändern können.
    ``liest``/``schreibt``: welchen Wert eine Operation vorfinden muss oder hinterlassen kann;
    ``nachher``: welcher Wert gleich nach einer bestätigten Operation sicher im Register stand.
    """

    name: str
    anfang: Hashable
    schritt: Schritt
    aufgabe: Callable[[Operation], Aufgabe | None]
    gelockert: Callable[[Aufgabe], Aufgabe | None]
    beschneiden: Callable[[list[Aufgabe]], list[Aufgabe]]
    liest: Callable[[Operation], tuple[bool, Hashable]]
    schreibt: Callable[[Operation], tuple[bool, Hashable]]
    nachher: Callable[[Operation], tuple[bool, Hashable]]
    beschreibe: Callable[[Operation], str]

    def pruefe(
        self, aufgaben: Sequence[Aufgabe], budget: Budget, reihenfolge: list[int] | None = None
    ) -> bool | None:
        """Linearisierbar? ``None``: Das Budget reichte nicht. ``reihenfolge``: siehe ``suche``."""
        return suche(
            self.beschneiden(list(aufgaben)), self.schritt, self.anfang, budget, reihenfolge
        )
