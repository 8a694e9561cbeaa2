"""Das Raum-Zeit-Diagramm einer ``Welt`` als SVG (gezeichnet von ``pysim.raumzeit``).

- Jeder Knoten ist eine senkrechte Linie, die echte Zeit läuft nach unten (links steht sie als
  ``t=…``). So passen drei Knoten auch auf ein Telefon.
- Jedes Ereignis ist ein Punkt auf seiner Linie: hell für lokal, blau für senden, blau umrandet für
  empfangen. Daneben stehen sein Name (mit →Ziel oder ←Absender) und Inhalt, darunter die
  Zeitstempel: ``L=…`` (Lamport),
  ``(…)`` (Vektor, in der Reihenfolge der Knoten oben), ``Uhr …`` (die Uhr des Knotens).
- Ein Pfeil ist eine Nachricht vom Senden zum Empfangen. Gestrichelt: Sie kam früher an und wurde
  zurückgehalten (kausale Zustellung). Orange umrandet sind markierte Ereignisse.
- Zeilen ohne Ereignis lässt das Bild weg: Der Abstand zweier Zeilen sagt nichts über die Dauer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..fehler import UnbekannterKnoten, aufzaehlung
from ..raumzeit import Bahn, Pfeil, Raumzeit, zeichne
from ..raumzeit import Ereignis as Punkt
from ..svg import Bild, kuerze

if TYPE_CHECKING:
    from .modell import Ereignis, Welt

MAX_EREIGNISSE = 40
TEXT_ZEICHEN = 17


def _hinten_kuerzen(text: str, zeichen: int) -> str:
    return text if len(text) <= zeichen else text[: zeichen - 1] + "…"


def _beschriftung(e: Ereignis, welt: Welt, uhr: bool, lamport: bool, vektor: bool) -> list[str]:
    namen = welt.namen
    inhalt = e.text
    if e.nachricht is not None:
        n = welt.nachrichten[e.nachricht - 1]
        wert = n.inhalt if isinstance(n.inhalt, str) else repr(n.inhalt)
        inhalt = (f"→{n.an} " if e.art == "senden" else f"←{n.von} ") + wert
    zeilen = [kuerze(e.name, TEXT_ZEICHEN)]
    if inhalt:
        zeilen.append(_hinten_kuerzen(inhalt, TEXT_ZEICHEN))
    stempel = []
    if lamport:
        stempel.append(f"L={e.lamport}")
    if vektor:
        stempel.append("(" + ",".join(str(e.vektor.get(k, 0)) for k in namen) + ")")
    if stempel:
        zeilen.append(" ".join(stempel))
    if uhr:
        zeilen.append(f"Uhr {e.uhr}")
    return zeilen


def raumzeit(
    welt: Welt,
    uhr: bool = False,
    lamport: bool = True,
    vektor: bool = True,
    markiere: Iterable[str] = (),
) -> Bild:
    """Zeichnet die ersten ``MAX_EREIGNISSE`` Ereignisse der Welt."""
    namen = welt.namen
    alle = welt.ereignisse
    gezeigt = alle[:MAX_EREIGNISSE]
    markiert = set(markiere)
    unbekannt = sorted(markiert - {e.name for e in alle})
    if unbekannt:
        raise UnbekannterKnoten(f"Diese Ereignisse gibt es nicht: {aufzaehlung(unbekannt)}.")
    rest = len(alle) - len(gezeigt)
    nachrichten = len({e.nachricht for e in gezeigt if e.nachricht is not None})
    titel = (
        f"Raum-Zeit-Diagramm: {len(namen)} Knoten ({', '.join(namen) or 'keine'}), "
        f"{len(alle)} Ereignisse, {nachrichten} Nachrichten"
    )
    # In order of real time (then of the world): the rows follow it, the labels the list.
    reihe = sorted(gezeigt, key=lambda e: (e.echt, e.nummer))
    stelle = {e.name: i for i, e in enumerate(reihe)}
    senden = {e.nachricht: e for e in reihe if e.art == "senden"}
    zurueck = {n.nummer for n in welt.nachrichten if n.zugestellt != n.angekommen}
    pfeile = [
        Pfeil(
            senden[e.nachricht].knoten,
            e.knoten,
            schicksal="zurueckgehalten" if e.nachricht in zurueck else "zugestellt",
            von_ereignis=stelle[senden[e.nachricht].name],
            nach_ereignis=stelle[e.name],
        )
        for e in gezeigt
        if e.art == "empfangen" and e.nachricht in senden
    ]
    punkte = tuple(
        Punkt(
            e.knoten,
            e.echt,
            e.art,
            tuple(_beschriftung(e, welt, uhr, lamport, vektor)),
            markiert=e.name in markiert,
        )
        for e in reihe
    )
    modell = Raumzeit(
        titel,
        tuple(Bahn(k, breite=96) for k in namen),
        ereignisse=punkte,
        pfeile=tuple(pfeile),
        zeitkopf="echt",
        jede_zeile=True,
        reihenfolge=tuple(stelle[e.name] for e in gezeigt),
        hinweise=(f"… und {rest} weitere Ereignisse",) if rest else (),
    )
    return zeichne(modell)
