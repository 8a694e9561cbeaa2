"""Das Bild der Datenbank: jede Zeile mit ihren Versionen, die Sperren, wer auf wen wartet.

Je Zeile (id) ihre Versionen von links (älteste) nach rechts: der Wert und die Sitzung, die ihn
schrieb. Eine committete Version ist gefüllt, eine offene gestrichelt umrandet, eine verworfene
(ihre Transaktion brach ab) blass; eine ersetzte oder gelöschte trägt, wer sie ersetzte.
Rechts steht, wer die Zeile gesperrt hat. Darunter jede Sitzung mit ihrer Transaktion (Stufe,
Zustand) und, wenn sie wartet, auf wen.
"""

from __future__ import annotations

from ..svg import Bild, Eintrag, Legende, Zeichnung, textbreite
from .datenbank import ABGEBROCHEN, AKTIV, BESTAETIGT, Datenbank, Version

#: The legend, the same in every picture.
LEGENDE = Legende(
    (
        Eintrag("committet", fuellung="cell", rand="fg"),
        Eintrag(
            "offen (nur ihre Transaktion sieht sie)", fuellung="bg", rand="accent", gestrichelt=True
        ),
        Eintrag("verworfen (abgebrochen)", fuellung="bg", rand="line", gestrichelt=True),
    )
)

#: So many versions per row are drawn (the newest); the rest is counted.
MAX_VERSIONEN = 6
_ZELLE_B, _ZELLE_H, _ABSTAND = 76, 34, 10
_LINKS, _OBEN, _ZEILE = 56, 30, 48
#: Narrower than this, the lines about the sessions and the legend would not fit.
_MIN_BREITE = 360


def _wer(db: Datenbank, nr: int) -> str:
    return "Anfang" if nr == 0 else db.von(nr).sitzung


def bild(db: Datenbank) -> Bild:
    """Das Bild des jetzigen Zustands von ``db``."""
    zeilen = db.ids()
    # as wide as the row with the most versions needs, so a phone shows it near its own size
    spalten = max([2, *(min(MAX_VERSIONEN, len(db.versionen(k))) for k in zeilen)])
    breite = max(_MIN_BREITE, _LINKS + spalten * (_ZELLE_B + _ABSTAND) + 100)
    sitzungen = sorted({e.sitzung for e in db.verlauf}, key=lambda s: (len(s), s))
    hoehe = _OBEN + len(zeilen) * _ZEILE + 16 + len(sitzungen) * 20 + 8 + LEGENDE.hoehe(breite) + 8
    beschreibung = _beschreibung(db, zeilen, sitzungen)
    z = Zeichnung(breite, hoehe, "Die Tabelle test: Versionen, Sperren, Sitzungen", beschreibung)
    z.text(12, 18, "Zeile", farbe_name="muted", groesse=11)
    z.text(_LINKS, 18, "Versionen (älteste links)", farbe_name="muted", groesse=11)
    z.text(breite - 12, 18, "Sperre", farbe_name="muted", groesse=11, anker="end")
    sperren = db.sperren()
    for i, k in enumerate(zeilen):
        y = _OBEN + i * _ZEILE
        z.text(12, y + 22, f"id {k}", fett=True)
        versionen = db.versionen(k)
        weg = max(0, len(versionen) - MAX_VERSIONEN)
        if weg:
            z.text(_LINKS - 4, y + 46, f"+{weg} ältere", farbe_name="muted", groesse=9, anker="end")
        for j, v in enumerate(versionen[weg:]):
            _version(z, db, v, _LINKS + j * (_ZELLE_B + _ABSTAND), y)
        if k in sperren:
            z.text(breite - 12, y + 22, f"gesperrt: {sperren[k]}", anker="end", farbe_name="next")
    y = _OBEN + len(zeilen) * _ZEILE + 16
    wartet = db.wartet()
    for s in sitzungen:
        tx = db.transaktion(s)
        if tx is None:
            text = f"{s}: keine offene Transaktion"
            farbe_name = "muted"
        else:
            zustand = "abgebrochen, wartet auf rollback" if tx.status == ABGEBROCHEN else "offen"
            text = f"{s}: {tx.stufe}, {zustand}"
            farbe_name = "fg"
        if s in wartet:
            text += f" — wartet auf {wartet[s]}"
            farbe_name = "warn"
        z.text(12, y + 12, text, farbe_name=farbe_name)
        y += 20
    z.legende(LEGENDE, y + 8)
    return Bild(z.svg(), "Die Tabelle test")


def _version(z: Zeichnung, db: Datenbank, v: Version, x: int, y: int) -> None:
    status = db.von(v.xmin).status
    if status == BESTAETIGT:
        z.rechteck(x, y, _ZELLE_B, _ZELLE_H, fuellung="cell", rand="fg")
        farbe_name = "fg"
    elif status == AKTIV:
        z.rechteck(x, y, _ZELLE_B, _ZELLE_H, fuellung="bg", rand="accent", gestrichelt=True)
        farbe_name = "accent"
    else:
        z.rechteck(x, y, _ZELLE_B, _ZELLE_H, fuellung="bg", rand="line", gestrichelt=True)
        farbe_name = "muted"
    z.text(x + _ZELLE_B // 2, y + 15, str(v.wert), anker="middle", fett=True, farbe_name=farbe_name)
    z.text(
        x + _ZELLE_B // 2, y + 28, _wer(db, v.xmin), anker="middle", groesse=10, farbe_name="muted"
    )
    if v.xmax is not None and db.von(v.xmax).status != ABGEBROCHEN:
        was = "ersetzt" if v.nachfolger is not None else "gelöscht"
        text = f"{was}: {_wer(db, v.xmax)}"
        if textbreite(text, 9) <= _ZELLE_B + _ABSTAND:
            z.text(x, y + _ZELLE_H + 11, text, groesse=9, farbe_name="muted")


def _beschreibung(db: Datenbank, zeilen: list[int], sitzungen: list[str]) -> str:
    teile = []
    for k in zeilen:
        vs = ", ".join(
            f"{v.wert} von {_wer(db, v.xmin)} ({db.von(v.xmin).status})" for v in db.versionen(k)
        )
        teile.append(f"Zeile {k}: {vs}.")
    for k, s in db.sperren().items():
        teile.append(f"{s} sperrt Zeile {k}.")
    for s, auf in db.wartet().items():
        teile.append(f"{s} wartet auf {auf}.")
    if not sitzungen:
        teile.append("Noch keine Sitzung.")
    return " ".join(teile)
