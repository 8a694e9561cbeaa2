"""Der Verlauf einer ``CrdtSim`` als SVG: je Replikat eine Spalte, die Zeit läuft nach unten.

- Jedes Ereignis ist ein Punkt auf der Linie seines Replikats: hell für eine lokale Änderung
  (``+2``, ``−1``, ``= rot``, ``+ milch``, ``− milch``), blau für ``sync`` (der Zustand geht an
  alle anderen), blau umrandet für ``merge`` (``← B``; „gleich“, wenn sich nichts änderte, etwa bei
  einem Duplikat). Darunter steht der Wert des Replikats danach.
- Ein Pfeil ist ein Zustand auf dem Weg, vom ``sync`` zum ``merge``. Rot gestrichelt mit ✗: Der
  Empfänger verwarf ihn, weil eine Netzpartition dazwischen lag.
- Eine gestrichelte Linie quer über alle Spalten markiert den Beginn oder das Ende einer Netzpartition.
- Ganz unten steht der Endstand jedes Replikats, ob alle gleich sind, und eine Legende der Punkte.
- Zeilen ohne Ereignis lässt das Bild weg: Der Abstand zweier Zeilen sagt nichts über die Dauer.
"""

from __future__ import annotations

from math import sqrt
from typing import TYPE_CHECKING

from ..svg import Bild, Zeichnung, textbreite
from .typen import kurz_wert

if TYPE_CHECKING:
    from .modell import CrdtSim, Ereignis

LINKS = 40
OBEN = 34
SPALTE = 116
ZEILE = 38
TRENNER = 24
PUNKT = 10
ZEICHEN = 13  # so viele Zeichen passen neben einen Punkt (11 px, Monospace)
MAX_EREIGNISSE = 40

KURZ = {
    "erhoehe": "+",
    "verringere": "−",
    "hinzufuegen": "+ ",
    "entfernen": "− ",
    "setze": "= ",
}


def _hinten(text: str, zeichen: int = ZEICHEN) -> str:
    return text if len(text) <= zeichen else text[: zeichen - 1] + "…"


def _etikett(e: Ereignis) -> str:
    """Die Zeile neben dem Punkt: die Operation, kurz."""
    if e.art == "lokal":
        name, _, rest = e.text.partition("(")
        argumente = rest[:-1]
        if name in ("erhoehe", "verringere") and not argumente:
            argumente = "1"
        if argumente.startswith("'") and argumente.endswith("'") and "," not in argumente:
            argumente = argumente[1:-1]
        return KURZ.get(name, name + " ") + argumente
    if e.art == "senden":
        return "sync"
    if e.art == "merge":
        von = e.text.rsplit(" ", 1)[-1]
        return f"← {von}" + ("" if e.geaendert else ", gleich")
    von = e.text.split()[2]
    return f"✗ ← {von}"


def _zeilen(ereignisse: list[Ereignis]) -> list[list[Ereignis]]:
    """Gleiche Zeit, gleiche Zeile, außer das Replikat hat dort schon ein Ereignis; Partitionen
    bekommen eine Zeile für sich."""
    zeilen: list[list[Ereignis]] = []
    zeit: int | None = None
    belegt: set[str] = set()
    for e in ereignisse:
        neu = (
            not zeilen
            or e.zeit != zeit
            or not e.knoten
            or e.knoten in belegt
            or not zeilen[-1][0].knoten
        )
        if neu:
            zeilen.append([])
            zeit, belegt = e.zeit, set()
        zeilen[-1].append(e)
        belegt.add(e.knoten)
    return zeilen


def _pfeil(z: Zeichnung, x1: int, y1: int, x2: int, y2: int, farbe: str, strich: bool) -> None:
    """Eine Linie mit Spitze; nur Wurzel und Grundrechenarten, damit jedes Python gleich rechnet."""
    z.linie(x1, y1, x2, y2, farbe_name=farbe, gestrichelt=strich, dicke=2)
    dx, dy = x2 - x1, y2 - y1
    laenge = sqrt(dx * dx + dy * dy) or 1.0
    ux, uy = dx / laenge, dy / laenge
    bx, by = x2 - 9 * ux, y2 - 9 * uy
    for s in (1, -1):
        z.linie(x2, y2, round(bx - s * 5 * uy), round(by + s * 5 * ux), farbe_name=farbe, dicke=2)


def _umbrechen(text: str, zeichen: int) -> list[str]:
    """Teilt einen Wert in Zeilen zu höchstens ``zeichen`` Zeichen, bevorzugt nach Kommas."""
    zeilen: list[str] = []
    rest = text
    while len(rest) > zeichen:
        schnitt = rest.rfind(",", 0, zeichen)
        schnitt = schnitt + 1 if schnitt > 0 else zeichen
        zeilen.append(rest[:schnitt])
        rest = rest[schnitt:]
    zeilen.append(rest)
    return zeilen


#: The legend: (label, fill, border) of each kind of point, in the order drawn.
LEGENDE: tuple[tuple[str, str, str], ...] = (
    ("lokal geändert", "cell", "fg"),
    ("sync", "accent", "accent"),
    ("merge", "read", "accent"),
    ("verworfen", "bg", "warn"),
)


def _legende_zeilen(breite: int) -> list[list[tuple[int, tuple[str, str, str]]]]:
    """The legend's entries with their x, in rows that fit ``breite``."""
    zeilen: list[list[tuple[int, tuple[str, str, str]]]] = [[]]
    x = 2
    for eintrag in LEGENDE:
        weite = PUNKT + 4 + textbreite(eintrag[0], 11) + 14
        if zeilen[-1] and x + weite > breite:
            zeilen.append([])
            x = 2
        zeilen[-1].append((x, eintrag))
        x += weite
    return zeilen


def beschreibung(sim: CrdtSim) -> str:
    """Was das Bild zeigt, in Worten (``<desc>`` für Screenreader)."""
    werte = "; ".join(f"{n}: {kurz_wert(sim[n].crdt)}" for n in sim.namen)
    merges = sum(1 for e in sim.ereignisse if e.art == "merge")
    verworfen = sum(1 for e in sim.ereignisse if e.art == "verworfen")
    verloren = len(sim.verloren())
    teile = [
        f"{len(sim.namen)} Replikate eines {sim.typ.NAME} bei t={sim.now}.",
        f"{len(sim.ereignisse)} Ereignisse, {merges} Zusammenführungen (merge)",
    ]
    if verworfen:
        teile[-1] += f", {verworfen} an einer Netzpartition verworfen"
    if verloren:
        teile[-1] += f", {verloren} Nachrichten verloren"
    teile[-1] += "."
    gleich = (
        "Alle Replikate sind gleich." if sim.konvergiert() else "Die Replikate sind verschieden."
    )
    teile.append(f"Stand jetzt: {werte}. {gleich}")
    if sim.netz.unterwegs:
        teile.append(f"{sim.netz.unterwegs} Zustände sind noch unterwegs.")
    return " ".join(teile)


def verlauf_bild(sim: CrdtSim, titel: str | None = None) -> Bild:
    """Zeichnet die ersten ``MAX_EREIGNISSE`` Ereignisse und den Stand jetzt."""
    namen = sim.namen
    gezeigt = sim.ereignisse[:MAX_EREIGNISSE]
    rest = len(sim.ereignisse) - len(gezeigt)
    zeilen = _zeilen(gezeigt)
    spalte = SPALTE if len(namen) <= 3 else 96
    zeichen = (spalte - PUNKT - 14) * 100 // (11 * 62)
    breite = LINKS + len(namen) * spalte
    endstand = {n: _umbrechen(kurz_wert(sim[n].crdt), zeichen) for n in namen}
    endzeilen = max(len(z) for z in endstand.values())

    y_zeile: list[int] = []
    y = OBEN
    for zeile in zeilen:
        hoehe = TRENNER if not zeile[0].knoten else ZEILE
        y_zeile.append(y)
        y += hoehe
    y_ende = y + 6
    hinweise: list[str] = []
    verloren = len(sim.verloren())
    if verloren:
        hinweise.append(f"{verloren} Zustände gingen im Netz verloren.")
    if sim.netz.unterwegs:
        hinweise.append(f"{sim.netz.unterwegs} Zustände sind noch unterwegs.")
    if rest:
        hinweise.append(f"… und {rest} weitere Ereignisse (sim.verlauf()).")
    legende = _legende_zeilen(breite)
    hoehe = y_ende + 22 + endzeilen * 14 + 22 + len(legende) * 16 + len(hinweise) * 16 + 4

    name_titel = titel or f"{sim.typ.NAME}: {len(namen)} Replikate, t={sim.now}"
    z = Zeichnung(breite, hoehe, name_titel, beschreibung(sim))

    def x_von(knoten: str) -> int:
        return LINKS + namen.index(knoten) * spalte + 10

    punkt: dict[int, tuple[int, int]] = {}
    for r, zeile in enumerate(zeilen):
        for e in zeile:
            if e.knoten:
                punkt[e.nummer] = (x_von(e.knoten), y_zeile[r] + 8)

    for k in namen:
        x = x_von(k)
        z.text(x, 16, k, fett=True, groesse=13, anker="middle")
        z.linie(x, 22, x, y_ende, farbe_name="line")
    z.text(2, 16, "Zeit", groesse=10, farbe_name="muted")

    letzte_zeit: int | None = None
    for r, zeile in enumerate(zeilen):
        e0 = zeile[0]
        if e0.zeit != letzte_zeit:
            z.text(2, y_zeile[r] + 12, f"t={e0.zeit}", groesse=10, mono=True, farbe_name="muted")
            letzte_zeit = e0.zeit
        if not e0.knoten:
            ym = y_zeile[r] + 8
            farbe = "warn" if e0.art == "partition" else "ok"
            z.linie(LINKS, ym, breite - 4, ym, farbe_name=farbe, gestrichelt=True)
            z.rechteck(LINKS + 4, ym - 8, textbreite(e0.text, 10) + 6, 14, fuellung="bg", rand=None)
            z.text(LINKS + 7, ym + 3, e0.text, groesse=10, farbe_name=farbe)

    # Pfeile zuerst, Punkte und Text darüber
    nachrichten = {n.nummer: n for n in sim.nachrichten}
    for e in gezeigt:
        if e.art in ("merge", "verworfen") and e.nachricht is not None:
            n = nachrichten[e.nachricht]
            if n.ereignis in punkt and e.nummer in punkt:
                x1, y1 = punkt[n.ereignis]
                x2, y2 = punkt[e.nummer]
                verworfen = e.art == "verworfen"
                _pfeil(z, x1, y1, x2, y2, "warn" if verworfen else "accent", strich=verworfen)

    stil: dict[str, tuple[str, str]] = {
        "lokal": ("cell", "fg"),
        "senden": ("accent", "accent"),
        "merge": ("read", "accent"),
        "verworfen": ("bg", "warn"),
    }
    for e in gezeigt:
        if not e.knoten:
            continue
        x, yp = punkt[e.nummer]
        fuellung, rand = stil[e.art]
        z.rechteck(
            x - PUNKT // 2,
            yp - PUNKT // 2,
            PUNKT,
            PUNKT,
            fuellung=fuellung,
            rand=rand,
            rund=PUNKT // 2,
            klasse=f"ereignis {e.art}",
        )
        texte = [_hinten(_etikett(e), zeichen)]
        if e.art in ("lokal", "merge"):
            texte.append(_hinten("= " + e.wert, zeichen))
        b = max(textbreite(t, 11, mono=True) for t in texte) + 4
        z.rechteck(x + 8, yp - 9, b, len(texte) * 13 + 2, fuellung="bg", rand=None)
        for i, text in enumerate(texte):
            farbe = "warn" if e.art == "verworfen" else ("fg" if i == 0 else "muted")
            z.text(x + 10, yp + 3 + i * 13, text, groesse=11, mono=True, farbe_name=farbe)

    # Endstand
    y = y_ende + 16
    gleich = sim.konvergiert()
    z.text(
        2,
        y,
        f"Stand t={sim.now}: " + ("alle gleich" if gleich else "verschieden"),
        groesse=11,
        fett=True,
        farbe_name="ok" if gleich else "warn",
    )
    y += 18
    for k in namen:
        for i, text in enumerate(endstand[k]):
            z.text(x_von(k) - 6, y + i * 14, text, groesse=11, mono=True)
    y += endzeilen * 14 + 8
    for reihe in legende:
        for x, (name, fuellung, rand) in reihe:
            z.rechteck(x, y - 5, PUNKT, PUNKT, fuellung=fuellung, rand=rand, rund=PUNKT // 2)
            z.text(x + PUNKT + 4, y + 4, name, groesse=11, farbe_name="muted")
        y += 16
    for hinweis in hinweise:
        z.text(2, y + 4, hinweis, groesse=10, farbe_name="muted")
        y += 16
    return Bild(z.svg(), name_titel)
