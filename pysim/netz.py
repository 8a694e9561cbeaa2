"""Ein Fake-Netzwerk: verliert, verdoppelt und verzögert Nachrichten, aber immer gleich.

``FakeNetz(seed)`` würfelt mit einem festen Seed. Der Sender gibt höchstens eine Nachricht pro
Tick auf die Leitung (``sendeabstand``): Wer fünfmal hintereinander ``send`` ruft, schickt zu den
Ticks 0, 1, 2, 3, 4 ab. Für jede Nachricht wird einmal gewürfelt, was ihr passiert: verloren
(Wahrscheinlichkeit ``verlust``), doppelt (``duplikat``) oder einfach. Dann für jede Kopie die
Verzögerung in Ticks. Weil jede Kopie eine eigene Verzögerung hat, überholen sich Nachrichten.
Gewürfelt wird nur mit ``random.Random(seed).random()``, deren Folge Python über Versionen hinweg
garantiert: Derselbe Seed gibt in CPython und in Pyodide denselben Lauf.

Beispiel::

    netz = FakeNetz(seed=300)
    for i in range(1, 6):
        netz.send(f"bestellung-{i}")
    print(netz.empfangen())
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .fehler import (
    UngueltigeEingabe,
    pruefe_ganzzahl,
    pruefe_verzoegerung,
    pruefe_wahrscheinlichkeit,
)
from .zeit import AufDerZeit, Zeit


@dataclass(frozen=True)
class Ankunft:
    """Eine angekommene Kopie einer Nachricht."""

    zeit: int
    nachricht: Any
    gesendet: int
    kopie: int  # 1 oder 2 (die Verdopplung)

    def __repr__(self) -> str:
        kopie = ", 2. Kopie" if self.kopie == 2 else ""
        return f"Ankunft(t={self.zeit}: {self.nachricht!r}, gesendet t={self.gesendet}{kopie})"


@dataclass(frozen=True)
class Sendung:
    """Was das Netz mit einer gesendeten Nachricht vorhat (zum Nachsehen nach dem Lauf)."""

    nummer: int
    nachricht: Any
    gesendet: int
    verloren: bool
    ankunftszeiten: tuple[int, ...]

    def __repr__(self) -> str:
        if self.verloren:
            schicksal = "verloren"
        elif len(self.ankunftszeiten) == 2:
            schicksal = "doppelt, Ankunft t=" + " und t=".join(map(str, self.ankunftszeiten))
        else:
            schicksal = f"Ankunft t={self.ankunftszeiten[0]}"
        return (
            f"Sendung({self.nummer}: {self.nachricht!r}, gesendet t={self.gesendet}, {schicksal})"
        )


class FakeNetz(AufDerZeit):
    """Ein unzuverlässiges Netz mit simulierter Zeit.

    - ``verlust``: Wahrscheinlichkeit, dass eine Nachricht verloren geht (Standard 0.2),
    - ``duplikat``: Wahrscheinlichkeit, dass sie zweimal ankommt (Standard 0.2),
    - ``verzoegerung``: kleinste und größte Verzögerung in Ticks (Standard 1 bis 6),
    - ``sendeabstand``: Ticks zwischen zwei Abfahrten (Standard 1; 0 = alle sofort).
    """

    def __init__(
        self,
        seed: int = 300,
        verlust: float = 0.2,
        duplikat: float = 0.2,
        verzoegerung: tuple[int, int] = (1, 6),
        sendeabstand: int = 1,
        zeit: Zeit | None = None,
    ) -> None:
        pruefe_ganzzahl(seed, "Der Seed")
        self.verlust = pruefe_wahrscheinlichkeit(verlust, "verlust")
        self.duplikat = pruefe_wahrscheinlichkeit(duplikat, "duplikat")
        if self.verlust + self.duplikat > 1:
            raise UngueltigeEingabe(
                f"verlust + duplikat darf höchstens 1 sein, nicht {self.verlust + self.duplikat}."
            )
        self.sendeabstand = pruefe_ganzzahl(sendeabstand, "sendeabstand", 0)
        self.verzoegerung = pruefe_verzoegerung(verzoegerung, 0, (1, 4))
        self.seed = seed
        self.zeit = zeit if zeit is not None else Zeit()
        self._zufall = random.Random(seed)
        self._sendungen: list[Sendung] = []
        self._ankuenfte: list[Ankunft] = []
        self._unterwegs = 0
        self._letzte_abfahrt: int | None = None

    def _verzoegerung(self, spanne: tuple[int, int] | None = None) -> int:
        kleinste, groesste = spanne or self.verzoegerung
        return kleinste + int(self._zufall.random() * (groesste - kleinste + 1))

    def send(self, nachricht: Any, an: Callable[[Any], Any] | None = None) -> None:
        """Schickt eine Nachricht los. ``an``: wird bei jeder Ankunft mit der Nachricht aufgerufen.

        Ob sie ankommt, verrät erst der Lauf (``empfangen``, ``ankuenfte``, ``sendungen``).
        """
        if an is not None and not callable(an):
            raise UngueltigeEingabe(f"an muss eine Funktion sein, die ankommt, nicht {an!r}.")
        jetzt = self.zeit.now
        abfahrt = jetzt
        if self._letzte_abfahrt is not None:
            abfahrt = max(jetzt, self._letzte_abfahrt + self.sendeabstand)
        self._letzte_abfahrt = abfahrt
        zeiten: list[int] = []
        dauern = self.wurf()
        for kopie, dauer in enumerate(dauern, start=1):
            ankunft = abfahrt + dauer
            zeiten.append(ankunft)
            self._unterwegs += 1
            self.zeit.schedule(ankunft - jetzt, self._ankommen, nachricht, abfahrt, kopie, an)
        nummer = len(self._sendungen) + 1
        self._sendungen.append(Sendung(nummer, nachricht, abfahrt, not dauern, tuple(zeiten)))

    def wurf(self, spanne: tuple[int, int] | None = None) -> tuple[int, ...]:
        """Was aus einer Nachricht wird, gewürfelt wie bei ``send``: die Verzögerung jeder Kopie
        in Ticks (zwei bei einem Duplikat), ``()``, wenn sie verloren geht. ``spanne``: kleinste
        und größte Verzögerung (ohne: ``verzoegerung``). So würfelt ``pysim.crdt.CrdtSim`` auf
        dem Cluster (``Cluster(netz_wurf=…)``) wie auf diesem Netz."""
        wurf = self._zufall.random()
        if wurf < self.verlust:
            return ()
        kopien = 2 if wurf < self.verlust + self.duplikat else 1
        return tuple(self._verzoegerung(spanne) for _ in range(kopien))

    def _ankommen(
        self, nachricht: Any, gesendet: int, kopie: int, an: Callable[[Any], Any] | None
    ) -> None:
        self._unterwegs -= 1
        self._ankuenfte.append(Ankunft(self.zeit.now, nachricht, gesendet, kopie))
        if an is not None:
            an(nachricht)

    def empfangen(self, warten: bool = True) -> list[Any]:
        """Alle bisher angekommenen Nachrichten in der Reihenfolge ihrer Ankunft.

        Mit ``warten=True`` (Standard) läuft die Zeit erst weiter, bis nichts mehr unterwegs ist.
        """
        if warten:
            while self._unterwegs and self.zeit.step():
                pass
        return [a.nachricht for a in self._ankuenfte]

    @property
    def ankuenfte(self) -> list[Ankunft]:
        """Die Ankünfte mit Zeit, Sendezeit und Kopie."""
        return list(self._ankuenfte)

    @property
    def sendungen(self) -> list[Sendung]:
        """Jede gesendete Nachricht mit ihrem Schicksal (verloren, Ankunftszeiten)."""
        return list(self._sendungen)

    @property
    def unterwegs(self) -> int:
        """Wie viele Kopien noch unterwegs sind."""
        return self._unterwegs

    def __repr__(self) -> str:
        verloren = sum(1 for s in self._sendungen if s.verloren)
        return (
            f"FakeNetz(seed={self.seed}, t={self.zeit.now}: {len(self._sendungen)} gesendet, "
            f"{verloren} verloren, {self._unterwegs} unterwegs, "
            f"{len(self._ankuenfte)} angekommen)"
        )
