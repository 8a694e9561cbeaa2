"""Ein Schutzschalter (Circuit Breaker): hört auf zu rufen, wenn ein Dienst nur noch scheitert.

Drei Zustände, wie bei einer Sicherung im Haus:

- **geschlossen**: Jeder Aufruf geht durch. Nach ``schwelle`` Fehlern in Folge springt er auf
  *offen*.
- **offen**: Kein Aufruf geht durch, jeder scheitert sofort (Fail Fast). Nach ``pause`` Ticks
  lässt er einen Probeaufruf zu und ist *halboffen*.
- **halboffen**: Genau ein Probeaufruf ist unterwegs, alle anderen scheitern sofort. Gelingt er,
  ist der Schalter wieder *geschlossen*; scheitert er, wieder *offen* (die Pause beginnt neu).

Die Regeln stehen in einer Tabelle, ``UEBERGAENGE``: (Zustand, Ereignis) -> neuer Zustand, mit
der Regel aller Tabellen in pysim (``pysim.uebergaenge``): Was fehlt, kann nicht vorkommen und
wirft ``ZustandsFehler`` mit Zustand und Ereignis.
Die Zeit kommt von außen (``jetzt``, in Ticks), damit der Schalter in jeder Simulation passt.

    s = Schutzschalter(schwelle=3, pause=500)
    if s.erlaubt(jetzt):
        ... rufen ...
        s.erfolg(jetzt)   # oder s.fehler(jetzt)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fehler import UngueltigeEingabe, pruefe_ganzzahl
from ..uebergaenge import Regeltabelle
from ..uebergaenge import ZustandsFehler as ZustandsFehler  # its home before issue 29

#: What ``from pysim.last import *`` and the package give (the module's public API).
__all__ = [
    "ERFOLG",
    "FEHLER",
    "GESCHLOSSEN",
    "HALBOFFEN",
    "OFFEN",
    "PAUSE_VORBEI",
    "SCHWELLE",
    "UEBERGAENGE",
    "Schutzschalter",
    "Wechsel",
    "ZustandsFehler",
]


GESCHLOSSEN = "geschlossen"
OFFEN = "offen"
HALBOFFEN = "halboffen"

# Ereignisse: ein Aufruf ist fertig (``ERFOLG``, ``FEHLER``), der letzte Fehler war einer zu
# viel (``SCHWELLE``), die Pause im Zustand offen ist um und ein Probeaufruf darf los.
ERFOLG = "erfolg"
FEHLER = "fehler"
SCHWELLE = "schwelle"
PAUSE_VORBEI = "pause_vorbei"

#: (Zustand, Ereignis) -> neuer Zustand, geschrieben je Zustand (``None``: erlaubt, ändert
#: nichts).
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        GESCHLOSSEN: {
            ERFOLG: None,  # the failure streak starts again at 0
            FEHLER: None,  # one more failure in a row
            SCHWELLE: OFFEN,
        },
        OFFEN: {
            ERFOLG: None,  # a late answer to a call let through before it opened
            FEHLER: None,
            PAUSE_VORBEI: HALBOFFEN,
        },
        HALBOFFEN: {ERFOLG: GESCHLOSSEN, FEHLER: OFFEN},
    }
)


@dataclass(frozen=True)
class Wechsel:
    """Ein Zustandswechsel: wann, von wo, wohin."""

    zeit: int
    von: str
    nach: str


class Schutzschalter:
    """Circuit Breaker mit ``schwelle`` Fehlern in Folge und ``pause`` Ticks im Zustand offen."""

    def __init__(self, schwelle: int = 5, pause: int = 1000) -> None:
        self.schwelle = pruefe_ganzzahl(schwelle, "Die Schwelle", 1)
        self.pause = pruefe_ganzzahl(pause, "Die Pause", 1)
        self.zustand = GESCHLOSSEN
        self._fehler_in_folge = 0
        self._offen_seit = 0
        self._probe_unterwegs = False
        self._zuletzt = 0
        #: Jeder Zustandswechsel, in der Reihenfolge.
        self.wechsel: list[Wechsel] = []
        #: Wie viele Aufrufe der Schalter sofort abgewiesen hat.
        self.abgewiesen = 0

    def _zeit(self, jetzt: int) -> int:
        pruefe_ganzzahl(jetzt, "jetzt", 0)
        if jetzt < self._zuletzt:
            raise UngueltigeEingabe(
                f"Die Zeit läuft nur vorwärts: Der Schalter war schon bei t={self._zuletzt}, "
                f"jetzt={jetzt} liegt davor."
            )
        return jetzt

    def _ereignis(self, ereignis: str, jetzt: int) -> None:
        neu = UEBERGAENGE.uebergang(self.zustand, ereignis)
        if neu is not None and neu != self.zustand:
            self.wechsel.append(Wechsel(jetzt, self.zustand, neu))
            self.zustand = neu

    def erlaubt(self, jetzt: int) -> bool:
        """Darf ein Aufruf jetzt los? ``False``: sofort scheitern, ohne den Dienst zu fragen."""
        jetzt = self._zeit(jetzt)
        self._zuletzt = jetzt
        if self.zustand == OFFEN and jetzt >= self._offen_seit + self.pause:
            self._ereignis(PAUSE_VORBEI, jetzt)
        if self.zustand == GESCHLOSSEN:
            return True
        if self.zustand == HALBOFFEN and not self._probe_unterwegs:
            self._probe_unterwegs = True
            return True
        self.abgewiesen += 1
        return False

    def erfolg(self, jetzt: int) -> None:
        """Ein durchgelassener Aufruf ist gelungen."""
        jetzt = self._zeit(jetzt)
        self._zuletzt = jetzt
        self._probe_unterwegs = False
        self._fehler_in_folge = 0
        self._ereignis(ERFOLG, jetzt)

    def fehler(self, jetzt: int) -> None:
        """Ein durchgelassener Aufruf ist gescheitert (Timeout, abgelehnt, Fehler)."""
        jetzt = self._zeit(jetzt)
        self._zuletzt = jetzt
        war = self.zustand
        self._probe_unterwegs = False
        self._fehler_in_folge += 1
        self._ereignis(FEHLER, jetzt)
        if war == HALBOFFEN:
            self._offen_seit = jetzt  # the probe failed: a new pause
        elif war == GESCHLOSSEN and self._fehler_in_folge >= self.schwelle:
            self._ereignis(SCHWELLE, jetzt)
            self._offen_seit = jetzt

    def __repr__(self) -> str:
        return (
            f"Schutzschalter({self.zustand}, Schwelle {self.schwelle}, Pause {self.pause}, "
            f"{self.abgewiesen} abgewiesen)"
        )
