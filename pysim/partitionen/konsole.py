"""Die Partitions-Konsole der Lektion „Partitionierung und Sharding“.

    >>> k = PartitionKonsole()
    >>> print(k.run("schreibe user:17 Ada").text)
    user:17 → Slot 8 → n3

Schlüssel schreiben, Knoten dazunehmen und wegnehmen (und sehen, was umzieht), die Strategie
wechseln, vergleichen, was je Strategie umzöge, und einen heißen Schlüssel belasten. Das Bild
(``pysim.partitionen.bild``) zeigt nach jedem Befehl die Schlüssel je Knoten.
"""

from __future__ import annotations

import re
from typing import Any

from ..console.art import KonsolenArt, KonsolenOption
from ..console.basis import BasisKonsole, setze_befehle
from ..console.befehle import befehl
from ..console.ergebnis import ConsoleResult
from ..console.parser import ZAHL, Art, Aufruf, EingabeFehler, Leser, Wert
from ..console.werte import tabelle, waehle_namen
from ..fehler import UngueltigeEingabe
from .bild import bild
from .last import ticks
from .modell import MAX_SCHLUESSEL, Partitionierung
from .verteilung import MAX_KNOTEN, STRATEGIEN


def _muster(muster: str, regel: str) -> Leser:
    """A reader that takes a word matching ``muster`` and refuses others with ``regel``."""
    form = re.compile(muster)

    def lies(_k: Any, text: str, _w: dict[str, Any]) -> str:
        if not form.fullmatch(text):
            raise EingabeFehler(f"{regel}, nicht „{text[:40]}“.")
        return text

    return lies


#: A key: letters, digits and what key names use (``user:17``, ``{user1}.name``, ``promi#3``).
_lies_schluessel = _muster(
    r"[A-Za-z0-9:._{}#-]{1,40}",
    "Ein Schlüssel hat 1 bis 40 Zeichen: Buchstaben, Ziffern und : . _ - { } #, "
    "z. B. „user:17“ oder „{user1}.name“",
)
#: A node's name: ``n4``, ``db-2``.
_lies_neuer_knoten = _muster(
    r"[a-z][a-z0-9-]{0,11}",
    "Ein Knoten heißt mit Kleinbuchstaben, Ziffern und Bindestrich, beginnt mit einem "
    "Buchstaben und hat höchstens 12 Zeichen, z. B. „n4“",
)


def _lies_strategie(_k: Any, text: str, _w: dict[str, Any]) -> str:
    return waehle_namen(text, list(STRATEGIEN), "Die Strategie")


def _schluessel(k: PartitionKonsole, _w: dict[str, Any]) -> list[str]:
    return sorted(k.p.daten)[:20]


def _knoten(k: PartitionKonsole, _w: dict[str, Any]) -> list[str]:
    return list(k.p.verteilung.knoten)


def _lies_knoten(k: PartitionKonsole, text: str, _w: dict[str, Any]) -> str:
    return waehle_namen(text, list(k.p.verteilung.knoten), "Den Knoten")


SCHLUESSEL = Wert("schluessel", "<schlüssel>", Art("schlüssel", _lies_schluessel, _schluessel))
NEUER_KNOTEN = Wert("knoten", "<knoten>", Art("knoten", _lies_neuer_knoten))
KNOTEN = Wert("knoten", "<knoten>", Art("knoten", _lies_knoten, _knoten))
STRATEGIE = Wert(
    "strategie",
    "<strategie>",
    Art("strategie", _lies_strategie, lambda _k, _w: list(STRATEGIEN)),
)


class PartitionKonsole(BasisKonsole[Partitionierung]):
    """Die Partitions-Konsole: ``PartitionKonsole().run("fuelle 100")``.

    ``strategie``: ``modulo``, ``ring``, ``slots`` (12 Slots) oder ``bereiche``; ``knoten``: so
    viele Knoten ``n1`` … am Anfang.
    """

    TITEL = "Partitions-Konsole"
    HILFE_BEISPIEL = "dazu"

    def __init__(self, strategie: str = "slots", knoten: int = 3) -> None:
        if not 1 <= knoten <= MAX_KNOTEN:
            raise UngueltigeEingabe(f"1 bis {MAX_KNOTEN} Knoten am Anfang, nicht {knoten}.")
        super().__init__(Partitionierung(strategie, [f"n{i}" for i in range(1, knoten + 1)]))

    @property
    def p(self) -> Partitionierung:
        """Der Zustand hinter der Konsole (dasselbe wie ``modell``)."""
        return self.modell

    def state_dump(self) -> str:
        """Der ganze Zustand (Verteilung, Schlüssel, letzter Umzug, letzte Last) als fester Text."""
        p = self.p
        v = p.verteilung
        zuordnung = getattr(v, "zuordnung", ())
        zeilen = [f"{v!r} {zuordnung!r}", f"daten={sorted(p.daten.items())!r}"]
        zeilen.append(f"vorher={p.vorher!r} umzug={p.letzter_umzug!r}")
        zeilen.append(f"last={p.letzte_last!r}")
        return "\n".join(zeilen)

    def _mit_bild(self, aufruf: Aufruf, text: str) -> ConsoleResult:
        return self._ok(aufruf, text, bild(self.p).svg)

    def _schreibe(self, aufruf: Aufruf) -> ConsoleResult:
        s = aufruf.werte["schluessel"]
        wert = aufruf.rest or "x"
        knoten = self.p.schreibe(s, wert)
        return self._mit_bild(aufruf, f"{s} → {self.p.verteilung.partition(s)} → {knoten}")

    def _fuelle(self, aufruf: Aufruf) -> ConsoleResult:
        anzahl = aufruf.werte["anzahl"]
        self.p.fuelle(anzahl)
        anteile = self.p.verteilung.anteile(self.p.daten)
        return self._mit_bild(
            aufruf,
            f"{len(self.p.daten)} Schlüssel: "
            + ", ".join(f"{k} hat {n}" for k, n in anteile.items()),
        )

    def _lies(self, aufruf: Aufruf) -> ConsoleResult:
        s = aufruf.werte["schluessel"]
        v = self.p.verteilung
        wo = f"{s} liegt in {v.partition(s)} auf {v.besitzer(s)}"
        if s in self.p.daten:
            return self._mit_bild(aufruf, f"{wo}: {self.p.daten[s]}")
        return self._mit_bild(aufruf, f"{wo} (noch nicht geschrieben)")

    def _dazu(self, aufruf: Aufruf) -> ConsoleResult:
        knoten = aufruf.werte["knoten"]
        return self._mit_bild(aufruf, f"{knoten} kommt dazu. {self.p.dazu(knoten)}")

    def _weg(self, aufruf: Aufruf) -> ConsoleResult:
        knoten = aufruf.werte["knoten"]
        return self._mit_bild(aufruf, f"{knoten} geht. {self.p.weg(knoten)}")

    def _strategie(self, aufruf: Aufruf) -> ConsoleResult:
        name = aufruf.werte["strategie"]
        vorher = self.p.strategie
        bewegt = self.p.wechsle_strategie(name)
        return self._mit_bild(aufruf, f"Strategie {vorher} → {name}. {bewegt}")

    def _vergleiche(self, aufruf: Aufruf) -> ConsoleResult:
        knoten = aufruf.werte["knoten"]
        if knoten in self.p.verteilung.knoten:
            raise UngueltigeEingabe(f"Den Knoten {knoten} gibt es schon; nimm einen neuen Namen.")
        if not self.p.daten:
            raise UngueltigeEingabe("Noch keine Schlüssel: erst schreiben, z. B. fuelle 100.")
        ergebnis = self.p.vergleiche(knoten)
        zeilen = tabelle(
            ("Strategie", "ziehen um", "Anteil", "Bytes"),
            [
                (name, str(u.anzahl), f"{round(100 * u.anteil)} %", str(u.bytes))
                for name, u in ergebnis.items()
            ],
        )
        kopf = (
            f"Wenn {knoten} zu {', '.join(self.p.verteilung.knoten)} käme "
            f"({len(self.p.daten)} Schlüssel; nichts ändert sich):"
        )
        return self._mit_bild(aufruf, "\n".join([kopf, *zeilen]))

    def _heiss(self, aufruf: Aufruf) -> ConsoleResult:
        s = aufruf.werte["schluessel"]
        prozent = aufruf.werte["prozent"]
        last = self.p.heiss(s, prozent)
        heiss = last.heissester()
        kopf = (
            f"2000 Anfragen, {prozent} % davon auf {s} ({self.p.verteilung.besitzer(s)}); "
            f"jeder Knoten schafft {last.kapazitaet} je Tick, 40 kommen je Tick:"
        )
        fazit = (
            f"Am längsten wartet es auf {heiss.knoten}: bis {ticks(heiss.hoechstens)}."
            if heiss.hoechstens
            else "Kein Knoten staut."
        )
        return self._mit_bild(aufruf, "\n".join([kopf, str(last), fazit]))

    def _status(self, aufruf: Aufruf) -> ConsoleResult:
        v = self.p.verteilung
        anteile = v.anteile(self.p.daten)
        zeilen = [f"Strategie {v.NAME}, {len(self.p.daten)} Schlüssel"]
        zeilen += [f"{k}: {n} Schlüssel" for k, n in anteile.items()]
        return self._mit_bild(aufruf, "\n".join(zeilen))


BEFEHLE = setze_befehle(
    PartitionKonsole,
    [
        befehl(
            "schreibe <schlüssel> [<wert>]",
            "einen Schlüssel schreiben und sehen, wo er landet",
            PartitionKonsole._schreibe,
            "schreibe user:17 Ada",
            "schreibe {user1}.name Ada",
            erklaerung="Der Knoten hängt nur vom Schlüssel ab, nie vom Wert. Bei Slots zählt "
            "nur der Teil zwischen { und } (ein Hash-Tag, wie in Redis Cluster).",
            positionen=(SCHLUESSEL,),
            rest=Art("text"),
            rest_name="der Wert",
            rest_pflicht=False,
        ),
        befehl(
            "fuelle <anzahl>",
            "viele Schlüssel auf einmal schreiben: user:1, user:2, …",
            PartitionKonsole._fuelle,
            "fuelle 100",
            positionen=(Wert("anzahl", "<anzahl>", ZAHL, 1, MAX_SCHLUESSEL),),
        ),
        befehl(
            "lies <schlüssel>",
            "wo ein Schlüssel liegt und was drinsteht",
            PartitionKonsole._lies,
            "lies user:17",
            positionen=(SCHLUESSEL,),
        ),
        befehl(
            "dazu <knoten>",
            "einen Knoten dazunehmen und sehen, was umzieht",
            PartitionKonsole._dazu,
            "dazu n4",
            erklaerung=f"Höchstens {MAX_KNOTEN} Knoten. Das Bild zeigt, was gerade einzog.",
            positionen=(NEUER_KNOTEN,),
        ),
        befehl(
            "weg <knoten>",
            "einen Knoten wegnehmen; die anderen übernehmen seine Schlüssel",
            PartitionKonsole._weg,
            "weg n2",
            positionen=(KNOTEN,),
        ),
        befehl(
            "strategie <strategie>",
            "dieselben Schlüssel nach einer anderen Strategie verteilen",
            PartitionKonsole._strategie,
            "strategie ring",
            erklaerung="Strategien: modulo (Streuwert % n), ring (konsistentes Hashing, 8 "
            "Marken je Knoten), slots (12 feste Slots), bereiche (a–e, e–i, … nach der "
            "Sortierung).",
            positionen=(STRATEGIE,),
        ),
        befehl(
            "vergleiche <knoten>",
            "je Strategie zählen, was umzöge, käme dieser Knoten dazu",
            PartitionKonsole._vergleiche,
            "vergleiche n4",
            erklaerung="Nur gerechnet: Verteilung und Schlüssel bleiben, wie sie sind.",
            positionen=(NEUER_KNOTEN,),
        ),
        befehl(
            "heiss <schlüssel> <prozent>",
            "2000 Anfragen schicken, so viel Prozent davon an einen Schlüssel",
            PartitionKonsole._heiss,
            "heiss user:1 30",
            erklaerung="Jeder Knoten schafft anderthalbmal seinen gerechten Teil je Tick. Zusammen "
            "reicht das immer; der Knoten des heißen Schlüssels staut trotzdem.",
            positionen=(SCHLUESSEL, Wert("prozent", "<prozent>", ZAHL, 0, 100)),
        ),
        befehl(
            "status",
            "die Strategie und die Schlüssel je Knoten",
            PartitionKonsole._status,
        ),
    ],
)


#: Diese Konsole für ``lessonkit``: der Block ``partition-konsole``, ``kind="partition"``.
KONSOLE = KonsolenArt(
    name="partition",
    klasse=PartitionKonsole,
    modell="p",
    beschreibung="Schlüssel auf Knoten verteilen, Knoten dazunehmen und wegnehmen, heiße "
    "Schlüssel (Lektion „Partitionierung und Sharding“)",
    optionen=(KonsolenOption("knoten", "3", "so viele Knoten am Anfang (n1, n2, …)"),),
)
