"""Die Bilder der Lastsimulation als SVG: Verlauf, Wellen von Versuchen, Perzentile.

Alle drei sind 480 Pixel breit und bleiben auf einem Telefon (390 px) lesbar. Jedes Bild hat einen
``<title>`` und eine ``<desc>``, die aus den Zahlen des Laufs sagt, was es zeigt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import Bild, Zeichnung, textbreite

if TYPE_CHECKING:
    from .modell import Ergebnis

BREITE = 480
LINKS = 44
RECHTS = 12
#: x of the plot area's right edge.
RECHTER_RAND = BREITE - RECHTS
#: Top and bottom of the plot area of the charts over time.
OBEN = 46
UNTEN = 206


def _runde_grenze(wert: int) -> int:
    """The smallest 'nice' axis maximum (1, 2, 3, 4, 5, 6, 8 × 10^k) that is at least ``wert``."""
    stufe = 1
    while True:
        for f in (1, 2, 3, 4, 5, 6, 8):
            if f * stufe >= wert:
                return f * stufe
        stufe *= 10


def _sekunden(ms: int) -> str:
    return f"{ms / 1000:g} s"


def _achsen(z: Zeichnung, oben: int, unten: int, ende_ms: int, y_max: int, y_text: str) -> None:
    """Y axis with 0 and its maximum, X axis in seconds."""
    z.linie(LINKS, unten, RECHTER_RAND, unten)
    z.linie(LINKS, oben, LINKS, unten)
    for wert in (0, y_max // 2, y_max):
        y = unten - (unten - oben) * wert // y_max
        z.linie(LINKS - 4, y, LINKS, y)
        z.text(LINKS - 6, y + 4, str(wert), groesse=11, anker="end", farbe_name="muted")
        if wert:
            z.linie(LINKS, y, RECHTER_RAND, y, farbe_name="cell")
    schritt = _runde_grenze(max(1, ende_ms // 6))
    for t in range(0, ende_ms + 1, schritt):
        x = LINKS + (RECHTER_RAND - LINKS) * t // ende_ms
        z.linie(x, unten, x, unten + 4)
        z.text(x, unten + 16, _sekunden(t), groesse=11, anker="middle", farbe_name="muted")
    z.text(LINKS, oben - 8, y_text, groesse=10, farbe_name="muted")


def _stoerungen(z: Zeichnung, e: Ergebnis, oben: int, unten: int, ende_ms: int) -> None:
    for von, bis, was in e.stoerungen:
        x1 = LINKS + (RECHTER_RAND - LINKS) * min(von, ende_ms) // ende_ms
        x2 = LINKS + (RECHTER_RAND - LINKS) * min(bis, ende_ms) // ende_ms
        z.rechteck(
            x1,
            oben,
            max(x2 - x1, 2),
            unten - oben,
            fuellung="cell",
            rand="next",
            gestrichelt=True,
            rund=0,
            klasse="stoerung",
        )
        z.text(x1 + 3, oben + 12, was, groesse=10, farbe_name="next")


def _verdichte(werte: list[int], spalten: int) -> list[int]:
    """At most ``spalten`` values; each is the maximum of its group, so peaks stay visible."""
    if len(werte) <= spalten:
        return werte
    gruppe = -(-len(werte) // spalten)
    return [max(werte[i : i + gruppe]) for i in range(0, len(werte), gruppe)]


def _zeitdiagramm(
    e: Ergebnis, titel: str, beschreibung: str, ende_ms: int, y_max: int, y_text: str
) -> Zeichnung:
    """The frame both charts over time share (so they line up): title, faults, axes."""
    z = Zeichnung(BREITE, UNTEN + 58, titel, beschreibung)
    z.text(12, 20, titel, fett=True, groesse=14)
    _stoerungen(z, e, OBEN, UNTEN, ende_ms)
    _achsen(z, OBEN, UNTEN, ende_ms, y_max, y_text)
    return z


def verlauf_bild(e: Ergebnis) -> Bild:
    """Wartende Versuche und Worker in Arbeit über die Zeit."""
    ende = max(e.dauer, 1)
    wartend = [w for _, w, _ in e.verlauf]
    arbeit = [a for _, _, a in e.verlauf]
    y_max = _runde_grenze(max([*wartend, *arbeit, 1]))
    titel = "Warteschlange und Worker über die Zeit"
    spitze = max(wartend, default=0)
    beschreibung = (
        f"Liniendiagramm über {_sekunden(ende)}: höchstens {spitze} Versuche warten, "
        f"{e.worker} Worker; am Ende warten {wartend[-1] if wartend else 0}."
    )
    z = _zeitdiagramm(e, titel, beschreibung, ende, y_max, "Versuche beim Dienst")

    def punkte(reihe: list[int]) -> list[tuple[int, int]]:
        dichte = _verdichte(reihe, RECHTER_RAND - LINKS)
        n = max(len(dichte) - 1, 1)
        return [
            (LINKS + (RECHTER_RAND - LINKS) * i // n, UNTEN - (UNTEN - OBEN) * w // y_max)
            for i, w in enumerate(dichte)
        ]

    if e.dauer > e.ankunftsdauer + e.raster:
        # after this point no new requests come: what is left drains
        x = LINKS + (RECHTER_RAND - LINKS) * e.ankunftsdauer // ende
        z.linie(x, OBEN, x, UNTEN, farbe_name="muted", gestrichelt=True)
        z.text(x + 3, OBEN + 24, "keine neuen Anfragen", groesse=10, farbe_name="muted")
    if e.verlauf:
        z.polylinie(punkte(arbeit), farbe_name="ok", dicke=2, klasse="in-arbeit")
        z.polylinie(punkte(wartend), farbe_name="accent", dicke=2, klasse="wartend")
    ly = UNTEN + 34
    z.linie(12, ly - 4, 30, ly - 4, farbe_name="accent", dicke=3)
    z.text(36, ly, "wartend (Warteschlange)", groesse=11)
    z.linie(206, ly - 4, 224, ly - 4, farbe_name="ok", dicke=3)
    z.text(230, ly, f"in Arbeit (von {e.worker} Workern)", groesse=11)
    return Bild(z.svg(), titel)


def wellen_bild(e: Ergebnis) -> Bild:
    """Balken: Versuche, die je Raster beim Dienst ankamen, erste und Wiederholungen gestapelt."""
    # at most 96 bars (about 4 px each): neighbouring raster fields are added up
    gruppe = max(1, -(-len(e.erste_je_raster) // 96))
    breite_ms = gruppe * e.raster

    def zusammen(reihe: list[int]) -> list[int]:
        return [sum(reihe[i : i + gruppe]) for i in range(0, len(reihe), gruppe)]

    erste, wieder = zusammen(e.erste_je_raster), zusammen(e.wiederholt_je_raster)
    summen = [a + b for a, b in zip(erste, wieder, strict=True)]
    y_max = _runde_grenze(max([*summen, 1]))
    ende = max(len(summen) * breite_ms, 1)
    titel = f"Versuche beim Dienst je {breite_ms} ms"
    spitze = max(wieder, default=0)
    beschreibung = (
        f"Balken je {breite_ms} ms: {sum(erste)} erste Versuche, {sum(wieder)} Wiederholungen, "
        f"höchstens {spitze} Wiederholungen in einem Abschnitt."
    )
    z = _zeitdiagramm(e, titel, beschreibung, ende, y_max, "Versuche")
    n = max(len(summen), 1)
    for i, (a, b) in enumerate(zip(erste, wieder, strict=True)):
        x1 = LINKS + (RECHTER_RAND - LINKS) * i // n
        x2 = LINKS + (RECHTER_RAND - LINKS) * (i + 1) // n
        b_breite = max(x2 - x1 - 1, 1)
        h_a = (UNTEN - OBEN) * a // y_max
        h_b = (UNTEN - OBEN) * b // y_max
        if a:
            z.rechteck(
                x1, UNTEN - h_a, b_breite, h_a, fuellung="read", rand=None, rund=0, klasse="erste"
            )
        if b:
            z.rechteck(
                x1,
                UNTEN - h_a - h_b,
                b_breite,
                h_b,
                fuellung="next",
                rand=None,
                rund=0,
                klasse="wiederholt",
            )
    ly = UNTEN + 34
    z.rechteck(12, ly - 10, 14, 12, fuellung="read", rand=None)
    z.text(32, ly, "erste Versuche", groesse=11)
    z.rechteck(130, ly - 10, 14, 12, fuellung="next", rand=None)
    z.text(150, ly, "Wiederholungen (Retries)", groesse=11)
    return Bild(z.svg(), titel)


def perzentile_bild(ergebnisse: dict[str, Ergebnis]) -> Bild:
    """Je Lauf vier Balken: p50, p90, p99 und das Maximum der Latenz (ms)."""
    marken = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("max", 100.0))
    zeilen = [(name, [(m, e.perzentil(p)) for m, p in marken]) for name, e in ergebnisse.items()]
    werte = [w for _, reihe in zeilen for _, w in reihe if w is not None]
    x_max = _runde_grenze(max([*werte, 1]))
    mit_namen = any(name for name in ergebnisse)
    balken, abstand = 14, 4
    gruppe = (balken + abstand) * len(marken) + (22 if mit_namen else 6)
    oben = 54
    hoehe = oben + gruppe * max(len(zeilen), 1) + 30
    titel = "Latenz: Perzentile der erfolgreichen Anfragen"
    teile = []
    for name, reihe in zeilen:
        zahlen = ", ".join(f"{m} {w} ms" for m, w in reihe if w is not None) or "keine Antwort"
        teile.append(f"{name}: {zahlen}" if name else zahlen)
    breite = 360  # narrower than the charts: stays large on a phone
    z = Zeichnung(breite, hoehe, titel, "; ".join(teile) + ".")
    z.text(12, 20, "Latenz: Perzentile", fett=True, groesse=14)
    z.text(12, 36, "nur Anfragen mit Antwort", groesse=11, farbe_name="muted")
    links = 48
    rechts = breite - 64
    y = oben
    for name, reihe in zeilen:
        if mit_namen:
            z.text(12, y + 12, name, fett=True, groesse=12)
            y += 18
        for marke, wert in reihe:
            z.text(links - 6, y + 11, marke, groesse=11, anker="end", mono=True)
            if wert is None:
                z.text(links, y + 11, "–", groesse=11, farbe_name="muted")
            else:
                b = max((rechts - links) * wert // x_max, 2)
                farbe = "warn" if marke in ("p99", "max") else "accent"
                z.rechteck(
                    links, y, b, balken, fuellung=farbe, rand=None, rund=2, klasse=f"balken-{marke}"
                )
                text = f"{wert} ms"
                if textbreite(text, 11) + 8 < b:
                    z.text(links + b - 4, y + 11, text, groesse=11, anker="end", farbe_name="bg")
                else:
                    z.text(links + b + 4, y + 11, text, groesse=11)
            y += balken + abstand
        y += 4
    z.linie(links, oben - 4, links, y, farbe_name="line")
    z.text(links, hoehe - 10, "0 ms", groesse=10, farbe_name="muted")
    z.text(rechts, hoehe - 10, f"{x_max} ms", groesse=10, anker="end", farbe_name="muted")
    return Bild(z.svg(), titel)


def latenz_vergleich(ergebnisse: dict[str, Ergebnis]) -> Bild:
    """Die Perzentile mehrerer Läufe untereinander, z. B. ``{"50 %": a, "95 %": b}``."""
    return perzentile_bild(ergebnisse)
