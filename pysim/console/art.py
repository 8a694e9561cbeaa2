"""Was eine Konsole ausmacht, an einer Stelle: ihr Name, ihre Klasse (mit ihrem Titel), ihre Optionen.

Jedes Konsolenmodul einer Simulation (``pysim/<simulation>/konsole.py``) endet mit einer
``KonsolenArt`` namens ``KONSOLE``; ``arten()`` findet sie alle. Aus ihnen leitet ``lessonkit``
die Blöcke (``log-konsole``, …), die Optionen von ``konsolen-aufgabe`` je ``kind`` und die
Tabelle im Leitfaden ab: Eine neue Konsole ist ein Ordner mit ihrem Modul und eine Zeile in
``mkdocs.yml``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..fehler import UngueltigeEingabe, aufzaehlung

if TYPE_CHECKING:
    from .basis import BasisKonsole


@dataclass(frozen=True)
class KonsolenOption:
    """Eine Option, mit der ein Block seine Konsole baut: eine ganze Zahl ab ``minimum``.

    ``standard``: was ohne die Option gilt, wie der Leitfaden es nennt (``"3"``, ``"keine DLQ"``).
    ``parameter``: der Name des Arguments der Konsolenklasse (sonst ``name``).
    """

    name: str
    standard: str
    beschreibung: str
    minimum: int = 1
    parameter: str | None = None

    def lies(self, wert: str) -> int:
        """Der Wert aus dem Kopf eines Blocks; ``UngueltigeEingabe`` mit deutscher Meldung."""
        if not wert.isdigit() or int(wert) < self.minimum:
            raise UngueltigeEingabe(
                f"{self.name}=„{wert}“ ist keine ganze Zahl ab {self.minimum}, "
                f'z. B. {self.name}="3".'
            )
        return int(wert)


@dataclass(frozen=True)
class KonsolenArt:
    """Eine Art von Konsole: ``kind="log"`` in ``konsolen-aufgabe``, der Block ``log-konsole``."""

    name: str  # "log": ``kind=`` und der erste Teil des Blocknamens
    klasse: type[BasisKonsole[Any]]
    modell: str  # "log": unter diesem Namen steht das Modell in einer ``pruefung``
    beschreibung: str  # wofür, mit der Lektion (für den Leitfaden)
    optionen: tuple[KonsolenOption, ...] = ()

    @property
    def titel(self) -> str:
        """Der Kopf der Konsole auf der Seite (``Log-Konsole``): ``TITEL`` ihrer Klasse."""
        return self.klasse.TITEL

    @property
    def block(self) -> str:
        """Der Name des Blocks in Markdown (``log-konsole``)."""
        return f"{self.name}-konsole"

    def option(self, name: str) -> KonsolenOption | None:
        return next((option for option in self.optionen if option.name == name), None)

    def pruefe(self, optionen: Mapping[str, str]) -> None:
        """Jede Option muss diese Art kennen, jeder Wert passen; sonst ``UngueltigeEingabe``."""
        for name, wert in optionen.items():
            option = self.option(name)
            if option is None:
                erlaubt = (
                    f"Sie kennt {aufzaehlung([o.name for o in self.optionen])}."
                    if self.optionen
                    else "Sie hat keine Optionen."
                )
                raise UngueltigeEingabe(
                    f"Die Option „{name}“ gilt nicht für die {self.titel} (kind=„{self.name}“). "
                    + erlaubt
                )
            option.lies(wert)

    def erzeuge(self, optionen: Mapping[str, str]) -> BasisKonsole[Any]:
        """Eine neue Konsole dieser Art mit den Optionen eines Blocks (geprüft)."""
        self.pruefe(optionen)
        argumente = {
            option.parameter or option.name: option.lies(optionen[option.name])
            for option in self.optionen
            if option.name in optionen
        }
        return self.klasse(**argumente)


def arten() -> dict[str, KonsolenArt]:
    """Alle Konsolenarten nach Namen: jedes ``pysim/<paket>/konsole.py`` mit ``KONSOLE``.

    Gefunden, nicht aufgezählt: Ein neuer Ordner mit einer Konsole braucht hier keine Zeile.
    Geordnet nach dem Namen der Art, damit Meldungen und Tabellen überall gleich aussehen.
    """
    import pysim

    gefunden: dict[str, KonsolenArt] = {}
    for paket in pkgutil.iter_modules(pysim.__path__):
        name = f"pysim.{paket.name}.konsole"
        if not paket.ispkg or importlib.util.find_spec(name) is None:
            continue
        art = getattr(importlib.import_module(name), "KONSOLE", None)
        if isinstance(art, KonsolenArt):
            gefunden[art.name] = art
    return dict(sorted(gefunden.items()))
