"""Das Raum-Zeit-Diagramm einer ``Welt`` als SVG.

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
from math import sqrt
from typing import TYPE_CHECKING

from ..fehler import UnbekannterKnoten, aufzaehlung
from ..svg import Bild, Zeichnung, kuerze, textbreite

if TYPE_CHECKING:
    from .modell import Ereignis, Welt

LINKS = 46  # Spalte für t=…
OBEN = 40
ZEILE_TEXT = 13
PUNKT = 10
MAX_EREIGNISSE = 40
TEXT_ZEICHEN = 17


def _zeilen(ereignisse: list[Ereignis]) -> dict[str, int]:
    """Zeile je Ereignis: gleiche echte Zeit, gleiche Zeile, außer derselbe Knoten ist schon da."""
    zeilen: dict[str, int] = {}
    zeile, zeit = -1, None
    belegt: set[str] = set()
    for e in sorted(ereignisse, key=lambda e: (e.echt, e.nummer)):
        if e.echt != zeit:
            zeile, zeit, belegt = zeile + 1, e.echt, set()
        elif e.knoten in belegt:
            zeile, belegt = zeile + 1, set()
        belegt.add(e.knoten)
        zeilen[e.name] = zeile
    return zeilen


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


def _pfeil(z: Zeichnung, x1: int, y1: int, x2: int, y2: int, gestrichelt: bool) -> None:
    """Eine Linie mit Spitze; nur Wurzel und Grundrechenarten, damit jedes Python gleich rechnet."""
    z.linie(x1, y1, x2, y2, farbe_name="accent", gestrichelt=gestrichelt, dicke=2)
    dx, dy = x2 - x1, y2 - y1
    laenge = sqrt(dx * dx + dy * dy) or 1.0
    ux, uy = dx / laenge, dy / laenge
    bx, by = x2 - 9 * ux, y2 - 9 * uy
    for s in (1, -1):
        z.linie(
            x2,
            y2,
            round(bx - s * 5 * uy),
            round(by + s * 5 * ux),
            farbe_name="accent",
            dicke=2,
        )


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
    beschriftungen = {e.name: _beschriftung(e, welt, uhr, lamport, vektor) for e in gezeigt}
    zeilen_je_ereignis = max([len(b) for b in beschriftungen.values()] + [1])
    hoehe_zeile = zeilen_je_ereignis * ZEILE_TEXT + 10
    textbreiten = [textbreite(t, 11, mono=True) for b in beschriftungen.values() for t in b]
    spalte = max(
        [96, *(textbreite(n, 13) + 16 for n in namen), *(w + PUNKT + 14 for w in textbreiten)]
    )
    zeile = _zeilen(gezeigt)
    anzahl_zeilen = max(zeile.values(), default=-1) + 1
    rest = len(alle) - len(gezeigt)
    breite = LINKS + max(len(namen), 1) * spalte + 6
    hoehe = OBEN + max(anzahl_zeilen, 1) * hoehe_zeile + (22 if rest else 8)

    def x_von(knoten: str) -> int:
        return LINKS + namen.index(knoten) * spalte + 10

    def y_von(e: Ereignis) -> int:
        return OBEN + zeile[e.name] * hoehe_zeile + 10

    nachrichten = len({e.nachricht for e in gezeigt if e.nachricht is not None})
    titel = (
        f"Raum-Zeit-Diagramm: {len(namen)} Knoten ({', '.join(namen) or 'keine'}), "
        f"{len(alle)} Ereignisse, {nachrichten} Nachrichten"
    )
    z = Zeichnung(breite, hoehe, titel)

    # Köpfe und Linien der Knoten
    for k in namen:
        x = x_von(k)
        z.text(x, 16, k, fett=True, groesse=13, anker="start")
        z.linie(x, 24, x, hoehe - 6, farbe_name="line")
    z.text(4, 16, "echt", groesse=10, farbe_name="muted")

    # Echte Zeit je Zeile
    erste: dict[int, int] = {}
    for e in gezeigt:
        erste.setdefault(zeile[e.name], e.echt)
    for r, t in sorted(erste.items()):
        z.text(4, OBEN + r * hoehe_zeile + 14, f"t={t}", groesse=10, mono=True, farbe_name="muted")

    # Pfeile zuerst, Beschriftung darüber
    senden = {e.nachricht: e for e in gezeigt if e.art == "senden"}
    zurueck = {n.nummer for n in welt.nachrichten if n.zugestellt != n.angekommen}
    for e in gezeigt:
        if e.art == "empfangen" and e.nachricht in senden:
            s = senden[e.nachricht]
            _pfeil(
                z,
                x_von(s.knoten),
                y_von(s),
                x_von(e.knoten),
                y_von(e),
                gestrichelt=e.nachricht in zurueck,
            )

    for e in gezeigt:
        x, y = x_von(e.knoten), y_von(e)
        fuellung, rand = {"lokal": ("cell", "fg"), "senden": ("accent", "accent")}.get(
            e.art, ("read", "accent")
        )
        if e.name in markiert:
            z.rechteck(x - 9, y - 9, 18, 18, fuellung=None, rand="next", rund=9, klasse="markiert")
        z.rechteck(
            x - PUNKT // 2,
            y - PUNKT // 2,
            PUNKT,
            PUNKT,
            fuellung=fuellung,
            rand=rand,
            rund=PUNKT // 2,
            klasse=f"ereignis {e.art}",
        )
        texte = beschriftungen[e.name]
        b = max(textbreite(t, 11, mono=True) for t in texte) + 4
        z.rechteck(x + 9, y - 9, b, len(texte) * ZEILE_TEXT + 2, fuellung="bg", rand=None)
        for i, zeilentext in enumerate(texte):
            z.text(
                x + 11,
                y + 1 + i * ZEILE_TEXT,
                zeilentext,
                groesse=11,
                mono=True,
                farbe_name="fg" if i < 2 else "muted",
            )
    if rest:
        z.text(4, hoehe - 8, f"… und {rest} weitere Ereignisse", groesse=11, farbe_name="muted")
    return Bild(z.svg(), titel)
