"""Der Nemesis: Störungen mit Namen auf einem Zeitplan (wie Jepsens Nemesis bei Maelstrom).

Eine ``Stoerung`` geschieht zu einem Tick: das Netz teilen (``teile``: zwei Seiten; ``isoliere``:
ein Knoten allein; ``bruecke``: zwei Hälften, die sich einen Knoten teilen; ``mehrheit``: eine
Mehrheit und eine Minderheit), ``heile``; ``absturz`` und ``neustart`` (der Speicher ist weg,
``speicher`` bleibt); ``pause`` und ``weiter`` (der Knoten bearbeitet nichts, seine Timer feuern
spät: die GC-Pause hinter den meisten Lease-Fehlern); ``uhr`` (Versatz und Drift einer Uhr).

Ein Störplan ist eine Liste davon. ``zufaelliger_plan`` würfelt einen aus dem Seed; ``als_text``
und ``plan_aus_text`` machen daraus eine kurze Zeile und zurück (für die Kennung eines Laufs).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..fehler import UngueltigeEingabe, aufzaehlung

if TYPE_CHECKING:
    from .cluster import Cluster

#: Every kind of fault, with what it needs: sides (``seiten``), nodes (``knoten``) or nothing.
ARTEN = (
    "teile",
    "isoliere",
    "bruecke",
    "mehrheit",
    "heile",
    "absturz",
    "neustart",
    "pause",
    "weiter",
    "uhr",
)
#: What ``zufaelliger_plan`` can draw; each is a window with a start and an end. ``nachlauf`` is
#: not drawn: it makes the last window a partition that outlasts the load (``NACHLAUF``).
FENSTER = ("teilung", "isolation", "bruecke", "mehrheit", "absturz", "pause", "uhr", "nachlauf")
#: A ``nachlauf`` partition heals this many ticks after ``dauer``, when the clients have stopped:
#: longer than a message between nodes takes (``latenz`` 1 to 5 ticks), so whatever a node sent
#: about the last requests has arrived on its own side or been lost at the cut.
NACHLAUF = 10


@dataclass(frozen=True)
class Stoerung:
    """Eine Störung zum Tick ``zeit``. ``seiten`` für Teilungen, ``knoten`` für einen Knoten."""

    zeit: int
    art: str
    knoten: str = ""
    seiten: tuple[tuple[str, ...], ...] = ()
    versatz: int = 0
    drift: float = 0.0

    def __post_init__(self) -> None:
        if self.art not in ARTEN:
            raise UngueltigeEingabe(
                f"Eine Störung „{self.art}“ gibt es nicht. Es gibt: {aufzaehlung(ARTEN)}."
            )

    def anwenden(self, cluster: Cluster) -> None:
        if self.art in ("teile", "isoliere", "bruecke", "mehrheit"):
            cluster.teile(*self.seiten)
        elif self.art == "heile":
            cluster.heile()
        elif self.art == "absturz":
            cluster.absturz(self.knoten)
        elif self.art == "neustart":
            cluster.neustart(self.knoten)
        elif self.art == "pause":
            cluster.pausiere(self.knoten)
        elif self.art == "weiter":
            cluster.fortsetzen(self.knoten)
        else:
            cluster.verstelle_uhr(self.knoten, self.versatz, self.drift)

    def als_text(self) -> str:
        """Kurz, für die Kennung: ``12:teile:n1.n2|n3``, ``40:absturz:n2``, ``5:uhr:n1:+10:0.1``."""
        teile = [str(self.zeit), self.art]
        if self.seiten:
            teile.append("|".join(".".join(seite) for seite in self.seiten))
        elif self.knoten:
            teile.append(self.knoten)
        if self.art == "uhr":
            teile += [f"{self.versatz:+d}", f"{self.drift:g}"]
        return ":".join(teile)

    def __str__(self) -> str:
        seiten = " | ".join(" ".join(seite) for seite in self.seiten)
        allein = " ".join(self.seiten[0]) if self.seiten else ""
        texte = {
            "teile": f"Netz geteilt: {seiten}",
            "isoliere": f"{allein} isoliert: {seiten}",
            "bruecke": f"Brücke: {seiten}",
            "mehrheit": f"Mehrheit und Minderheit: {seiten}",
            "heile": "Netz wieder ganz",
            "absturz": f"{self.knoten} stürzt ab",
            "neustart": f"{self.knoten} startet neu",
            "pause": f"{self.knoten} hält an",
            "weiter": f"{self.knoten} läuft weiter",
            "uhr": f"Uhr von {self.knoten}: {self.versatz:+d} Ticks, Drift {self.drift:+.0%}",
        }
        return f"t={self.zeit}: {texte[self.art]}"


def als_text(plan: Iterable[Stoerung]) -> str:
    return ";".join(stoerung.als_text() for stoerung in plan)


def plan_aus_text(text: str, knoten: Sequence[str]) -> list[Stoerung]:
    """Der Störplan aus ``als_text``; ein falscher Text ist ein ``UngueltigeEingabe`` mit der Stelle."""
    plan = []
    for nummer, teil in enumerate(filter(None, text.split(";")), start=1):
        felder = teil.split(":")
        try:
            zeit, art = int(felder[0]), felder[1]
            if art in ("teile", "isoliere", "bruecke", "mehrheit"):
                seiten = tuple(tuple(seite.split(".")) for seite in felder[2].split("|"))
                for k in (k for seite in seiten for k in seite):
                    _pruefe(k, knoten)
                plan.append(Stoerung(zeit, art, seiten=seiten))
            elif art == "heile":
                plan.append(Stoerung(zeit, art))
            elif art == "uhr":
                plan.append(
                    Stoerung(
                        zeit,
                        art,
                        _pruefe(felder[2], knoten),
                        versatz=int(felder[3]),
                        drift=float(felder[4]),
                    )
                )
            else:
                plan.append(Stoerung(zeit, art, _pruefe(felder[2], knoten)))
        except (IndexError, ValueError) as e:
            raise UngueltigeEingabe(
                f"Der Störplan ist an Stelle {nummer} („{teil}“) nicht lesbar: erwartet wie "
                f"„12:teile:n1.n2|n3“ oder „40:absturz:n2“ ({e})."
            ) from None
    return sorted(plan, key=lambda s: s.zeit)


def _pruefe(k: str, knoten: Sequence[str]) -> str:
    if k not in knoten:
        raise ValueError(f"einen Knoten {k!r} gibt es nicht")
    return k


def zufaelliger_plan(
    zufall: random.Random,
    knoten: Sequence[str],
    dauer: int,
    arten: Sequence[str] = ("teilung",),
    anzahl: int = 3,
) -> list[Stoerung]:
    """``anzahl`` Störungen nacheinander, jede ein Fenster mit Anfang und Ende, zwischen 10 % und
    90 % von ``dauer``; die Art je Fenster aus ``arten`` (``FENSTER``). Nach jedem Fenster ist
    alles wieder heil (geheilt, neu gestartet, weiter, die Uhr bleibt verstellt).

    Mit ``nachlauf`` in ``arten`` ist das letzte Fenster eine Netzpartition, die erst
    ``NACHLAUF`` Ticks nach ``dauer`` heilt: Sie überdauert die letzte Anfrage der Clients. Wer
    nur dann etwas weitersagt, wenn eine Anfrage ankommt, sagt es nach dem Heilen nie mehr."""
    for art in arten:
        if art not in FENSTER:
            raise UngueltigeEingabe(
                f"Eine Störung „{art}“ gibt es nicht. Es gibt: {aufzaehlung(FENSTER)}."
            )
    if anzahl == 0 or not arten:
        return []
    nachlauf = "nachlauf" in arten
    arten = [art for art in arten if art != "nachlauf"] or ["teilung"]
    plan: list[Stoerung] = []
    beginn, ende = dauer // 10, dauer * 9 // 10
    platz = max(2, (ende - beginn) // anzahl)
    ids = list(knoten)
    for i in range(anzahl):
        start = beginn + i * platz + zufall.randrange(max(1, platz // 4))
        schluss = min(
            start + max(1, platz // 2 + zufall.randrange(max(1, platz // 4))),
            beginn + (i + 1) * platz - 1,
        )
        art = arten[zufall.randrange(len(arten))]
        k = ids[zufall.randrange(len(ids))]
        if nachlauf and i == anzahl - 1:
            art, schluss = "teilung", dauer + NACHLAUF
        if art in ("teilung", "mehrheit", "isolation", "bruecke") and len(ids) < 2:
            continue
        if art == "teilung":
            gemischt = ids[:]
            zufall.shuffle(gemischt)
            schnitt = 1 + zufall.randrange(len(ids) - 1)
            plan.append(
                Stoerung(
                    start,
                    "teile",
                    seiten=(tuple(sorted(gemischt[:schnitt])), tuple(sorted(gemischt[schnitt:]))),
                )
            )
        elif art == "mehrheit":
            gemischt = ids[:]
            zufall.shuffle(gemischt)
            schnitt = len(ids) // 2 + 1
            plan.append(
                Stoerung(
                    start,
                    "mehrheit",
                    seiten=(tuple(sorted(gemischt[:schnitt])), tuple(sorted(gemischt[schnitt:]))),
                )
            )
        elif art == "isolation":
            rest = tuple(x for x in ids if x != k)
            plan.append(Stoerung(start, "isoliere", seiten=((k,), rest)))
        elif art == "bruecke":
            if len(ids) < 3:
                continue
            gemischt = [x for x in ids if x != k]
            zufall.shuffle(gemischt)
            haelfte = len(gemischt) // 2
            plan.append(
                Stoerung(
                    start,
                    "bruecke",
                    seiten=(
                        tuple(sorted([*gemischt[:haelfte], k])),
                        tuple(sorted([*gemischt[haelfte:], k])),
                    ),
                )
            )
        elif art == "absturz":
            plan += [Stoerung(start, "absturz", k), Stoerung(schluss, "neustart", k)]
            continue
        elif art == "pause":
            plan += [Stoerung(start, "pause", k), Stoerung(schluss, "weiter", k)]
            continue
        else:
            versatz = zufall.choice((-1, 1)) * (5 + zufall.randrange(16))
            plan.append(
                Stoerung(start, "uhr", k, versatz=versatz, drift=zufall.choice((-0.1, 0.1)))
            )
            continue
        plan.append(Stoerung(schluss, "heile"))
    return plan
