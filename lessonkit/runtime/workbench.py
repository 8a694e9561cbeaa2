"""The workbench (``werkbank``): the reader's own node under a workload, nodes and faults of
the reader's choosing, run and judged like a challenge's seed.

Runs in the browser (Pyodide, the bridge's ``workbench.seed``) and in the tests (CPython).
The page sends the form's choices as strings; nothing of them is trusted: ``lies_wahl``
reads each one within the limits below and names every bad one in German, and then nothing
runs. Good choices become a ``lessonkit.runtime.challenges.Vorgabe`` (``vorgabe_aus_optionen``,
the same reading a challenge's fence gets), and ``seed`` answers with what
``challenges.seed_outcome`` answers a challenge: the verdict of the workload's checker, the
figures, the run's identity and its picture.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lessonkit.runtime import challenges
from lessonkit.runtime.challenges import Vorgabe
from pysim.cluster import FENSTER
from pysim.cluster.lasten import LASTEN

if TYPE_CHECKING:  # the browser's Python needs no types at run time
    from lessonkit.build.contract import SeedOutcomeData, WorkbenchOutcomeData, WorkbenchProblem

#: The limits of the form, enforced here (the page's own limits only help the reader type).
#: Nodes and runs of a check as a challenge allows them: each seed is a whole run in the
#: reader's browser.
MAX_KNOTEN = challenges.MAX_KNOTEN
MAX_SEEDS = challenges.MAX_SEEDS
#: Ticks of load a run may have: a run's work grows with them (the challenges use 100 to 200).
MIN_DAUER = 10
MAX_DAUER = 300
#: Fault windows per run (``anzahl_stoerungen``): each needs a few ticks of the load.
MAX_FENSTER = 10
#: The seed ``Ausführen`` runs: any whole number up to this one.
MAX_SEED = 1_000_000

#: The form's fields, in the order its messages name them, with their German labels.
FELDER = {
    "last": "Last",
    "knoten": "Knoten",
    "dauer": "Dauer",
    "stoerungen": "Störungen",
    "anzahl_stoerungen": "Störfenster je Lauf",
    "verlust_prozent": "Nachrichtenverlust",
    "seed": "Seed",
    "seeds": "Läufe für „Prüfen“",
}
#: What the form starts with (the page may name another workload: the fence's ``last``).
VOREINSTELLUNG = {
    "last": "echo",
    "knoten": "3",
    "dauer": "100",
    "stoerungen": "",
    "anzahl_stoerungen": "3",
    "verlust_prozent": "0",
    "seed": "1",
    "seeds": "5",
}
#: The whole numbers of the form: (lowest, highest).
_GANZ = {
    "knoten": (1, MAX_KNOTEN),
    "dauer": (MIN_DAUER, MAX_DAUER),
    "anzahl_stoerungen": (1, MAX_FENSTER),
    "seed": (1, MAX_SEED),
    "seeds": (1, MAX_SEEDS),
}
_ZAHL = re.compile(r"^[0-9]{1,7}$")
_PROZENT = re.compile(r"^[0-9]{1,3}(?:[.,][0-9]{1,2})?$")
#: Longer than any list of the kinds there are (each once, with commas).
_MAX_STOERUNGEN = 200


@dataclass(frozen=True)
class Wahl:
    """The reader's choices, read: what runs and which seed."""

    vorgabe: Vorgabe
    seed: int


class UngueltigeWahl(ValueError):
    """Choices the workbench does not run: each bad field with its German sentence."""

    def __init__(self, probleme: list[WorkbenchProblem]) -> None:
        super().__init__(" ".join(p["text"] for p in probleme))
        self.probleme = probleme


def _text(wert: object) -> str | None:
    return wert.strip() if isinstance(wert, str) else None


def _zitat(wert: object) -> str:
    """The reader's value in a sentence, short enough to read."""
    text = wert if isinstance(wert, str) else repr(wert)
    return text if len(text) <= 30 else text[:30] + "…"


def lies_wahl(optionen: Mapping[str, object], pruefen: bool = False) -> Wahl:
    """The form's ``optionen`` (field -> text) read, or ``UngueltigeWahl`` naming every bad
    field. A missing field takes its ``VOREINSTELLUNG``; a field the form does not have is
    refused. ``pruefen``: the seed is one of Prüfen's, 1 to ``seeds``."""
    probleme: list[WorkbenchProblem] = []

    def falsch(feld: str, text: str) -> None:
        probleme.append({"feld": feld, "text": text})

    for feld in optionen:
        if feld not in FELDER:
            falsch(feld, f"Die Werkbank kennt die Angabe „{_zitat(feld)}“ nicht.")
    werte = {**VOREINSTELLUNG, **{k: v for k, v in optionen.items() if k in FELDER}}
    gelesen: dict[str, str] = {}
    for feld, wert in werte.items():
        text = _text(wert)
        if text is None:
            falsch(feld, f"{FELDER[feld]}: Die Angabe ist kein Text, sondern {_zitat(wert)}.")
            continue
        gelesen[feld] = text
    zahlen: dict[str, int] = {}
    for feld, (von, bis) in _GANZ.items():
        text = gelesen.get(feld)
        if text is None:
            continue
        if not _ZAHL.match(text) or not von <= int(text) <= bis:
            falsch(
                feld,
                f"{FELDER[feld]}: „{_zitat(text)}“ ist keine ganze Zahl von {von} bis "
                f"{bis:,}.".replace(",", "."),
            )
            continue
        zahlen[feld] = int(text)
    last = gelesen.get("last")
    if last is not None and last not in LASTEN:
        falsch(
            "last", f"Last: „{_zitat(last)}“ gibt es nicht. Es gibt: {', '.join(sorted(LASTEN))}."
        )
    stoerungen = gelesen.get("stoerungen")
    if stoerungen is not None:
        arten = [a.strip() for a in stoerungen.split(",") if a.strip()]
        unbekannt = [a for a in arten if a not in FENSTER]
        if len(stoerungen) > _MAX_STOERUNGEN:
            falsch("stoerungen", "Störungen: Die Liste ist länger als jede Wahl der Werkbank.")
        elif unbekannt:
            falsch(
                "stoerungen",
                f"Störungen: „{_zitat(unbekannt[0])}“ gibt es nicht. Es gibt: "
                f"{', '.join(FENSTER)}.",
            )
    verlust = gelesen.get("verlust_prozent")
    anteil = 0.0
    if verlust is not None:
        zahl = float(verlust.replace(",", ".")) if _PROZENT.match(verlust) else math.nan
        if not 0 <= zahl <= 100:  # NaN fails too
            falsch(
                "verlust_prozent",
                f"Nachrichtenverlust: „{_zitat(verlust)}“ ist keine Zahl von 0 bis 100 (Prozent).",
            )
        else:
            anteil = zahl / 100
    if pruefen and "seed" in zahlen and "seeds" in zahlen and zahlen["seed"] > zahlen["seeds"]:
        falsch(
            "seed",
            f"Seed: „Prüfen“ läuft über die Seeds 1 bis {zahlen['seeds']}; "
            f"Seed {zahlen['seed']} gehört nicht dazu.",
        )
    if probleme:
        raise UngueltigeWahl(_geordnet(probleme))
    try:
        vorgabe = challenges.vorgabe_aus_optionen(
            {
                "last": gelesen["last"],
                "knoten": zahlen["knoten"],
                "dauer": zahlen["dauer"],
                "stoerungen": gelesen["stoerungen"],
                "anzahl_stoerungen": zahlen["anzahl_stoerungen"],
                "seeds": zahlen["seeds"],
                "verlust": anteil,
            }
        )
    except ValueError as e:  # the fields above are read; what the workload itself refuses
        raise UngueltigeWahl([{"feld": "", "text": str(e)}]) from None
    return Wahl(vorgabe, zahlen["seed"])


def _geordnet(probleme: list[WorkbenchProblem]) -> list[WorkbenchProblem]:
    """In the form's order; fields it does not have last."""
    reihe = list(FELDER)
    return sorted(probleme, key=lambda p: reihe.index(p["feld"]) if p["feld"] in reihe else 99)


def beschreibung(wahl: Wahl, pruefen: bool) -> str:
    """The choices in words (``Vorgabe.beschreibung``): for Prüfen with the runs its verdict
    rests on, for Ausführen with the one seed."""
    text = wahl.vorgabe.beschreibung()
    if pruefen:
        return text
    return f"{text.removesuffix(' ' + wahl.vorgabe.laeufe())} Seed {wahl.seed}."


async def seed(code: str, optionen: Mapping[str, object], pruefen: bool) -> WorkbenchOutcomeData:
    """One seed of the reader's node under the reader's choices.

    ``pruefen`` (one seed of Prüfen, 1 to ``seeds``): judged, and a failing seed shrunk to the
    smallest run that still fails, as a challenge's. Otherwise (Ausführen, the form's seed):
    judged, and shown whole, with its picture also when it passes: the reader asked to see
    this run. Bad choices run nothing; ``fehler`` names each."""
    try:
        wahl = lies_wahl(optionen, pruefen)
    except UngueltigeWahl as e:
        return {"fehler": e.probleme, "beschreibung": "", "ergebnis": None}
    text = beschreibung(wahl, pruefen)
    klasse, error = await challenges.load_node(code)
    if klasse is None:
        return {
            "fehler": [],
            "beschreibung": text,
            "ergebnis": challenges.failed_to_load(error or "", wahl.seed),
        }
    # Ausführen shows its run also when it passes; Prüfen shows a passed seed as one line.
    ergebnis: SeedOutcomeData = challenges.seed_outcome(
        klasse, wahl.vorgabe, wahl.seed, "", verkleinern=pruefen, zeigen=not pruefen
    )
    return {"fehler": [], "beschreibung": text, "ergebnis": ergebnis}
