"""Was die Suche und die Erklärung über ein Modell wissen müssen (bisher: ``register``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from .suche import Budget, Handlung, Schritt, suche
from .verlauf import Operation


@dataclass(frozen=True)
class Modell:
    """Ein sequentielles Modell: Anfangszustand, Schritt, und wie es Operationen sieht.

    ``handlung``: die Handlung einer Operation (``None``: schränkt nichts ein). ``gelockert``:
    dieselbe, als hätte sie irgendwann nach ihrem Beginn oder nie gewirkt (``None``: dann
    fällt sie weg). ``beschneiden``: lässt Handlungen weg, die am Urteil nichts ändern können.
    ``liest``/``schreibt``: welchen Wert eine Operation vorfinden muss oder hinterlassen kann;
    ``nachher``: welcher Wert gleich nach einer bestätigten Operation sicher im Register stand.
    """

    name: str
    anfang: Hashable
    schritt: Schritt
    handlung: Callable[[Operation], Handlung | None]
    gelockert: Callable[[Handlung], Handlung | None]
    beschneiden: Callable[[list[Handlung]], list[Handlung]]
    liest: Callable[[Operation], tuple[bool, Hashable]]
    schreibt: Callable[[Operation], tuple[bool, Hashable]]
    nachher: Callable[[Operation], tuple[bool, Hashable]]
    beschreibe: Callable[[Operation], str]

    def pruefe(
        self, handlungen: Sequence[Handlung], budget: Budget, reihenfolge: list[int] | None = None
    ) -> bool | None:
        """Linearisierbar? ``None``: Das Budget reichte nicht. ``reihenfolge``: siehe ``suche``."""
        return suche(
            self.beschneiden(list(handlungen)), self.schritt, self.anfang, budget, reihenfolge
        )
