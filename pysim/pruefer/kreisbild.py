"""Das Bild eines Kreises im Graphen der Abhängigkeiten (``pysim.pruefer.transaktionen``).

Die Transaktionen des Kreises stehen im Uhrzeigersinn auf einem Ring, jede Kante ist ein Pfeil
zur nächsten mit ihrer Art: ``ww`` (überschrieb), ``wr`` (las), ``rw`` (las, was die andere
danach ersetzte; gestrichelt, die Kante, an der Snapshot Isolation vorbeisieht).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..fehler import UngueltigeEingabe
from ..svg import Bild, Zeichnung, kuerze, textbreite
from .urteil import Urteil

#: What each kind of edge says, in the picture's description.
KANTEN = {
    "ww": "überschrieb, was {a} schrieb",
    "wr": "las, was {a} schrieb",
    "rw": "ersetzte, was {a} gelesen hatte",
}
_RAND = 24
LEGENDE = "ww: überschrieb · wr: las · rw: ersetzte Gelesenes (gestrichelt)"
_KASTEN_H = 26


def kreis_bild(urteil: Urteil, nummer: int = 0) -> Bild:
    """Der ``nummer``-te Kreis, den ``transaktionen(...)`` fand (``urteil.angaben["kreise"]``)."""
    kreise = urteil.angaben.get("kreise")
    if not isinstance(kreise, list) or not kreise:
        raise UngueltigeEingabe(
            "Dieses Urteil hat keinen Kreis zu zeichnen: Es kommt nicht von "
            "pysim.pruefer.transaktionen, oder der Prüfer fand keinen Kreis."
        )
    if not isinstance(nummer, int) or not 0 <= nummer < len(kreise):
        raise UngueltigeEingabe(
            f"Das Urteil hat {len(kreise)} Kreis(e), Nummer 0 bis {len(kreise) - 1}, "
            f"nicht {nummer!r}."
        )
    kreis = kreise[nummer]
    return _zeichne(str(kreis["anomalie"]), list(kreis["transaktionen"]), list(kreis["kanten"]))


def _zeichne(anomalie: str, namen: Sequence[str], kanten: Sequence[str]) -> Bild:
    n = len(namen)
    texte = [kuerze(t, 28) for t in namen]
    breit = max(textbreite(t, 12) for t in texte) + 16
    titel = f"{anomalie}: ein Kreis im Graphen der Abhängigkeiten"
    # two boxes side by side with room for two arrows between them; more on a ring
    radius = breit // 2 + 60 if n == 2 else max(80, 40 * n, breit // 2 + 50)
    hoch = 0 if n == 2 else radius
    breite = max(
        2 * (radius + breit // 2 + _RAND),
        textbreite(titel, 13) + 2 * _RAND,
        textbreite(LEGENDE, 11) + 2 * _RAND,
    )
    hoehe = 2 * (hoch + _KASTEN_H + _RAND) + 70
    mitte_x, mitte_y = breite // 2, 30 + hoch + _KASTEN_H + _RAND
    punkte = []
    for i in range(n):
        winkel = math.pi + 2 * math.pi * i / n if n == 2 else -math.pi / 2 + 2 * math.pi * i / n
        punkte.append(
            (round(mitte_x + radius * math.cos(winkel)), round(mitte_y + radius * math.sin(winkel)))
        )
    saetze = [
        f"{namen[(i + 1) % n]} {KANTEN.get(kanten[i], kanten[i]).format(a=namen[i])}."
        for i in range(n)
    ]
    beschreibung = f"Ein Kreis ({anomalie}) aus {n} Transaktionen: " + " ".join(saetze)
    z = Zeichnung(breite, hoehe, f"Der Kreis der Anomalie {anomalie}", beschreibung)
    z.text(12, 18, titel, fett=True)
    for i in range(n):
        _pfeil(z, punkte[i], punkte[(i + 1) % n], kanten[i], breit)
    for (x, y), text in zip(punkte, texte, strict=True):
        z.rechteck(x - breit // 2, y - _KASTEN_H // 2, breit, _KASTEN_H, fuellung="cell", rand="fg")
        z.text(x, y + 4, text, anker="middle")
    z.text(12, hoehe - 10, LEGENDE, groesse=11, farbe_name="muted")
    return Bild(z.svg(), f"Der Kreis der Anomalie {anomalie}")


def _pfeil(z: Zeichnung, von: tuple[int, int], nach: tuple[int, int], art: str, breit: int) -> None:
    """An arrow from box to box, shifted to its right so two opposite arrows stay apart."""
    dx, dy = nach[0] - von[0], nach[1] - von[1]
    laenge = math.hypot(dx, dy) or 1.0
    ux, uy = dx / laenge, dy / laenge
    nx, ny = -uy * 12, ux * 12  # to the right of the direction (y grows downwards)
    # leave the boxes: half a box along the direction, measured on the box's longer side
    abstand = min(breit / 2 / max(abs(ux), 1e-9), _KASTEN_H / 2 / max(abs(uy), 1e-9)) + 10
    x1, y1 = von[0] + ux * abstand + nx, von[1] + uy * abstand + ny
    x2, y2 = nach[0] - ux * abstand + nx, nach[1] - uy * abstand + ny
    farbe_name = "warn" if art == "rw" else "accent"
    z.linie(
        round(x1),
        round(y1),
        round(x2),
        round(y2),
        farbe_name=farbe_name,
        dicke=2,
        gestrichelt=art == "rw",
    )
    for seite in (1, -1):  # the head: two short strokes back from the tip
        hx = x2 - ux * 9 + seite * -uy * 5
        hy = y2 - uy * 9 + seite * ux * 5
        z.linie(round(x2), round(y2), round(hx), round(hy), farbe_name=farbe_name, dicke=2)
    mx, my = (x1 + x2) / 2 + nx, (y1 + y2) / 2 + ny
    z.text(round(mx), round(my) + 4, art, anker="middle", fett=True, farbe_name=farbe_name)
