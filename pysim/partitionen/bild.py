"""Das Bild der Partitions-Konsole: je Knoten ein Balken mit seinen Schlüsseln.

Nach ``dazu``/``weg``/``strategie`` zeigt der Balken, welcher Teil gerade erst eingezogen ist
(blau) und welcher Knoten wie viele abgab; ein gegangener Knoten steht gestrichelt darunter. Nach
``heiss`` zeigt er die Anfragen je Knoten, und der Knoten mit der längsten Wartezeit ist rot. Bei
Slots und Bereichen steht unter jedem Knoten, welche Partitionen er hat.
"""

from __future__ import annotations

from ..svg import Bild, Eintrag, Legende, Zeichnung
from .last import ticks
from .modell import Partitionierung
from .verteilung import Bereiche, Slots, Verteilung

LEGENDE = Legende(
    (
        Eintrag("Schlüssel, die schon da waren", fuellung="cell", rand="fg"),
        Eintrag("gerade eingezogen", fuellung="read", rand="accent"),
        Eintrag("gegangener Knoten", fuellung="bg", rand="line", gestrichelt=True),
    )
)
LEGENDE_LAST = Legende(
    (
        Eintrag("Anfragen ohne Stau", fuellung="cell", rand="fg"),
        Eintrag("Anfragen mit Stau (längste Wartezeit)", fuellung="bg", rand="warn"),
    )
)

BREITE = 640
_LINKS, _BALKEN, _OBEN, _ZEILE = 60, 330, 34, 44


def _bereiche(nummern: list[int]) -> str:
    """``[0, 1, 2, 5]`` → ``0–2, 5``."""
    teile: list[str] = []
    start = vorher = -2
    for n in [*nummern, -9]:
        if n != vorher + 1:
            if start >= 0:
                teile.append(str(start) if start == vorher else f"{start}–{vorher}")
            start = n
        vorher = n
    return ", ".join(teile)


def _partitionen(v: Verteilung, knoten: str) -> str:
    if isinstance(v, Slots):
        nummern = v.partitionen_von(knoten)
        return f"Slots {_bereiche(nummern)}" if nummern else "keine Slots"
    if isinstance(v, Bereiche):
        namen = [v.bereich(i) for i in v.partitionen_von(knoten)]
        return f"Bereiche {', '.join(namen)}" if namen else "keine Bereiche"
    return ""


def bild(p: Partitionierung) -> Bild:
    """Das Bild des jetzigen Zustands von ``p``."""
    v = p.verteilung
    last = p.letzte_last
    umzug = p.letzter_umzug
    gegangen = (
        [k for k in p.vorher.knoten if k not in v.knoten] if p.vorher is not None and umzug else []
    )
    zeilen = len(v.knoten) + len(gegangen)
    legende = LEGENDE_LAST if last else LEGENDE
    hoehe = _OBEN + zeilen * _ZEILE + 10 + legende.hoehe(BREITE) + 8
    anteile = v.anteile(p.daten)
    rein: dict[str, int] = {}
    raus: dict[str, int] = {}
    if umzug is not None:
        for (von, nach), n in umzug.wege().items():
            raus[von] = raus.get(von, 0) + n
            rein[nach] = rein.get(nach, 0) + n
    if last:
        titel = f"Anfragen je Knoten ({v.NAME}), {sum(k.anfragen for k in last.knoten)} insgesamt"
        beschreibung = str(last)
    else:
        titel = f"Schlüssel je Knoten ({v.NAME}), {len(p.daten)} insgesamt"
        beschreibung = "; ".join(
            f"{k}: {anteile[k]} Schlüssel" + (f", {rein[k]} gerade eingezogen" if k in rein else "")
            for k in v.knoten
        )
        if umzug is not None:
            beschreibung += f". {umzug}"
    z = Zeichnung(BREITE, hoehe, titel, beschreibung)
    z.text(12, 20, titel, fett=True)
    if last:
        groesste = max([1, last.schafft, *(k.anfragen for k in last.knoten)])
        heiss = last.heissester()
        x = _LINKS + last.schafft * _BALKEN // groesste
        unten = _OBEN + len(last.knoten) * _ZEILE
        z.linie(x, _OBEN - 2, x, unten - 16, farbe_name="muted", gestrichelt=True)
        z.text(
            x,
            unten - 4,
            f"so viel schafft ein Knoten: {last.schafft}",
            farbe_name="muted",
            groesse=10,
            anker="middle",
        )
        for i, kl in enumerate(last.knoten):
            y = _OBEN + i * _ZEILE
            b = max(2, kl.anfragen * _BALKEN // groesste)
            stau = kl is heiss and kl.hoechstens > 0
            z.text(12, y + 16, kl.knoten, fett=True)
            z.rechteck(
                _LINKS,
                y + 4,
                b,
                16,
                fuellung="bg" if stau else "cell",
                rand="warn" if stau else "fg",
            )
            z.text(
                _LINKS + _BALKEN + 12,
                y + 16,
                f"{kl.anfragen} Anfragen, Wartezeit bis {ticks(kl.hoechstens)}",
                farbe_name="warn" if stau else "fg",
                groesse=11,
            )
    else:
        groesste = max([1, *anteile.values(), *(raus.get(k, 0) for k in gegangen)])
        for i, k in enumerate([*v.knoten, *gegangen]):
            y = _OBEN + i * _ZEILE
            if k in gegangen:
                b = max(2, raus.get(k, 0) * _BALKEN // groesste)
                z.text(12, y + 16, k, farbe_name="muted", fett=True)
                z.rechteck(_LINKS, y + 4, b, 16, fuellung="bg", rand="line", gestrichelt=True)
                z.text(
                    _LINKS + b + 8,
                    y + 16,
                    f"gegangen, gab {raus.get(k, 0)} ab",
                    farbe_name="muted",
                    groesse=11,
                )
                continue
            anzahl = anteile[k]
            neu = rein.get(k, 0)
            b = anzahl * _BALKEN // groesste
            b_neu = neu * _BALKEN // groesste
            z.text(12, y + 16, k, fett=True)
            if b - b_neu > 0:
                z.rechteck(_LINKS, y + 4, b - b_neu, 16)
            if b_neu > 0:
                z.rechteck(_LINKS + b - b_neu, y + 4, b_neu, 16, fuellung="read", rand="accent")
            text = f"{anzahl} Schlüssel"
            if neu:
                text += f", {neu} eingezogen"
            if raus.get(k):
                text += f", {raus[k]} abgegeben"
            z.text(_LINKS + max(b, 2) + 8, y + 16, text, groesse=11)
            teile = _partitionen(v, k)
            if teile:
                z.text(_LINKS, y + 34, teile, farbe_name="muted", groesse=10)
    z.legende(legende, _OBEN + zeilen * _ZEILE + 10)
    return Bild(z.svg(), titel)
