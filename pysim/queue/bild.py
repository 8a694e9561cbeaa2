"""Die Zeitleiste einer Queue als SVG.

Jede Zeile ist eine Nachricht. Von links nach rechts läuft die Zeit in Ticks. Ein helles Stück
heißt „sichtbar“ (wartet auf einen Consumer), ein blau umrandetes Stück „unterwegs“ (ausgeliefert,
mit dem Namen des Consumers; gestrichelt bis zum Ende des Timeouts, solange sie gerade unterwegs
ist), ✓ markiert das Ack, „DLQ“ die Dead Letter Queue. Rechts steht, wie oft
die Nachricht ausgeliefert wurde. Nach mehr als ``FENSTER`` Ticks zeigt das Bild nur die letzten
``FENSTER`` Ticks (``pysim.svg.Zeitfenster``, wie die Zeitleiste der Saga); eine Zeile sagt, dass
frühere Zeiten fehlen, und eine Nachricht, die davor fertig wurde, nennt ihr Ende in Worten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import Bild, Eintrag, Legende, Zeitfenster, kuerze, textbreite, zeitleisten_zeichnung
from .regeln import AUSGELIEFERT, BESTAETIGT, IN_DLQ, WIEDER_SICHTBAR

if TYPE_CHECKING:
    from .modell import Queue, QueueEreignis

ZEILE = 28
BALKEN = 18
OBEN = 46
#: So viele Ticks zeigt die Zeitleiste höchstens (die letzten, bis zum Ende der Timeouts).
FENSTER = 60
#: So weit reicht die Zeitleiste höchstens über jetzt hinaus (ein längerer Timeout endet am Rand,
#: seine Beschriftung nennt sein Ende).
NACH_JETZT = 20
#: Wo der Leser findet, was das Zeitfenster weglässt.
WEGGELASSEN = "status nennt den Zustand jeder Nachricht"

LEGENDE = Legende(
    (
        Eintrag("sichtbar", fuellung="cell", rand="line"),
        Eintrag("unterwegs (Consumer)", fuellung="read", rand="accent"),
        Eintrag("✓ bestätigt", farbe_name="ok"),
        Eintrag("DLQ: Dead Letter Queue", farbe_name="warn"),
        Eintrag(
            "unterwegs bis zum Ende des Timeouts (noch kein Ack)", rand="accent", gestrichelt=True
        ),
    ),
    umbruch_vor=(4,),
)


def _abschnitte(
    ereignisse: list[QueueEreignis], jetzt: int
) -> tuple[list[tuple[str, int, int, str]], str, int]:
    """Zerlegt den Verlauf einer Nachricht in (art, von, bis, beschriftung), Ende, Ende-Zeit."""
    abschnitte: list[tuple[str, int, int, str]] = []
    art, start, text = "sichtbar", ereignisse[0].zeit, ""
    ende, ende_zeit = "", jetzt
    for e in ereignisse[1:]:
        abschnitte.append((art, start, e.zeit, text))
        if e.art == AUSGELIEFERT:
            art, start, text = "unterwegs", e.zeit, e.consumer or ""
        elif e.art == WIEDER_SICHTBAR:
            art, start, text = "sichtbar", e.zeit, ""
        else:  # BESTAETIGT or IN_DLQ: the end
            ende, ende_zeit = e.art, e.zeit
            return abschnitte, ende, ende_zeit
    abschnitte.append((art, start, jetzt, text))
    return abschnitte, ende, ende_zeit


def _zustand(ereignisse: list[QueueEreignis], jetzt: int, frist: tuple[str, int] | None) -> str:
    """Der Stand einer Nachricht in Worten (für die ``<desc>`` der Zeitleiste)."""
    _, ende, ende_zeit = _abschnitte(ereignisse, jetzt)
    versuche = max(e.versuch for e in ereignisse)
    if ende == BESTAETIGT:
        stand = f"bestätigt bei t={ende_zeit}"
    elif ende == IN_DLQ:
        stand = f"in der Dead Letter Queue seit t={ende_zeit}"
    elif frist is not None:
        consumer, bis = frist
        stand = f"unterwegs{' bei ' + consumer if consumer else ''} bis t={bis}"
    else:
        stand = "sichtbar, wartet auf einen Consumer"
    return f"{versuche}× ausgeliefert, {stand}"


def beschreibung(q: Queue, max_zeilen: int = 12) -> str:
    """Was die Zeitleiste zeigt, in Worten (``<desc>`` für Screenreader)."""
    ids = q.ids()
    gezeigt = ids[:max_zeilen]
    if not gezeigt:
        return f"Queue „{q.name}“ bei t={q.now}: noch keine Nachricht gesendet."
    verlaeufe = q.verlaeufe(gezeigt)
    frist = {d["id"]: (d["consumer"], d["sichtbar_ab"]) for d in q.unterwegs()}
    zeilen = [
        f"Nachricht {i} ({kuerze(str(q.body(i)), 30)}): {_zustand(verlaeufe[i], q.now, frist.get(i))}"
        for i in gezeigt
    ]
    text = f"Queue „{q.name}“ bei t={q.now}, {len(ids)} Nachrichten. " + ". ".join(zeilen) + "."
    if len(ids) > len(gezeigt):
        text += f" Und {len(ids) - len(gezeigt)} weitere Nachrichten."
    f = _fenster(q, verlaeufe, frist)
    return text + f.beschreibung(f.ende)


def _fenster(
    q: Queue, verlaeufe: dict[int, list[QueueEreignis]], frist: dict[int, tuple[str, int]]
) -> Zeitfenster:
    """Die Ticks, die die Zeitleiste zeigt: die letzten ``FENSTER`` bis zum spätesten Ereignis
    oder Ende eines Timeouts, höchstens ``NACH_JETZT`` Ticks nach jetzt."""
    letzte: int = max(
        [q.now]
        + [e.zeit for v in verlaeufe.values() for e in v]
        + [bis for i, (_, bis) in frist.items() if i in verlaeufe]
    )
    return Zeitfenster.letzte(max(min(letzte, q.now + NACH_JETZT), 1), FENSTER)


def _frist_text(consumer: str, bis: int) -> str:
    """Die Beschriftung eines Timeouts, der gerade läuft: ``A bis t=11``."""
    return f"{consumer + ' ' if consumer else ''}bis t={bis}"


def zeitleiste(q: Queue, max_zeilen: int = 12) -> Bild:
    """Zeichnet die ersten ``max_zeilen`` Nachrichten der Queue ``q``."""
    jetzt = q.now
    ids = q.ids()
    gezeigt = ids[:max_zeilen]
    verlaeufe = q.verlaeufe(gezeigt)
    # Nachrichten, die gerade unterwegs sind: bis zu welchem Tick sie unsichtbar bleiben.
    frist = {
        d["id"]: (d["consumer"], d["sichtbar_ab"]) for d in q.unterwegs() if d["id"] in verlaeufe
    }
    f = _fenster(q, verlaeufe, frist)
    spanne = f.ende
    pro_tick = max(8, min(48, 480 // f.ticks))
    beschriftungen = {i: f"{i} " + kuerze(str(q.body(i)), 14) for i in gezeigt}
    links = 12 + max([textbreite(t, 12) for t in beschriftungen.values()] + [60]) + 10
    x = f.skala(links, pro_tick)
    # Room for ✓ or DLQ and "n× ausgeliefert"; more if a deadline's label sits right of its bar.
    rechts = 150
    for i, (consumer, bis) in frist.items():
        label = _frist_text(consumer, bis)
        b = max(x(bis) - x(jetzt), 4)
        if textbreite(label, 10) + 4 > b:
            ueber = x(jetzt) + b + 4 + textbreite(label, 10) - x(spanne)
            versuche = max(e.versuch for e in verlaeufe[i])
            rechts = max(rechts, ueber + 8 + textbreite(f"{versuche}× ausgeliefert", 11) + 12)
    zeilen = max(len(gezeigt), 1)
    unten = OBEN + zeilen * ZEILE + (20 if len(ids) > len(gezeigt) else 0)
    titel = f"Zeitleiste der Queue „{q.name}“ bei t={jetzt}"
    z, _ = zeitleisten_zeichnung(
        f,
        LEGENDE,
        titel,
        beschreibung(q, max_zeilen),
        links,
        pro_tick,
        rechts,
        unten,
        mindestbreite=480,
        titel_y=20,
    )
    breite = z.breite

    if not gezeigt:
        z.text(links, OBEN + 18, "Noch keine Nachricht gesendet.", farbe_name="muted")
    for zeile, i in enumerate(gezeigt):
        y = OBEN + zeile * ZEILE
        z.text(12, y + 14, beschriftungen[i], mono=True)
        abschnitte, ende, ende_zeit = _abschnitte(verlaeufe[i], jetzt)
        for nummer, (art, von, bis, text) in enumerate(abschnitte):
            aktuell = i in frist and nummer == len(abschnitte) - 1
            if art == "sichtbar" and bis == von:
                continue  # sofort abgeholt: nichts zu zeigen
            if f.vorher(von, bis):
                continue
            b = max(x(bis) - x(von), 4)
            if art == "sichtbar":
                z.rechteck(x(von), y, b, BALKEN, fuellung="cell", rand="line", klasse="sichtbar")
            else:
                z.rechteck(x(von), y, b, BALKEN, fuellung="read", rand="accent", klasse="unterwegs")
                if text and textbreite(text, 10) + 4 <= b and not aktuell:
                    z.text(x(von) + b // 2, y + 13, text, groesse=10, anker="middle")
        if i in frist:
            # Gerade unterwegs: gestrichelt bis zum Ende des Timeouts, mit Consumer und Frist.
            consumer, bis = frist[i]
            b = max(x(bis) - x(jetzt), 4)
            z.rechteck(
                x(jetzt),
                y,
                b,
                BALKEN,
                fuellung=None,
                rand="accent",
                gestrichelt=True,
                klasse="frist",
            )
            label = _frist_text(consumer, bis)
            if textbreite(label, 10) + 4 <= b:
                z.text(x(jetzt) + b // 2, y + 13, label, groesse=10, anker="middle")
            else:
                z.text(x(jetzt) + b + 4, y + 13, label, groesse=10, farbe_name="accent")
        versuche = max(e.versuch for e in verlaeufe[i])
        if ende and ende_zeit < f.anfang:
            # Finished before the window: its end in words at the window's start.
            wort, farbe_ende = (
                ("✓ bestätigt bei", "ok") if ende == BESTAETIGT else ("DLQ seit", "warn")
            )
            z.text(
                x(f.anfang) + 4,
                y + 14,
                f"{wort} t={ende_zeit}",
                groesse=11,
                farbe_name=farbe_ende,
                klasse="ack" if ende == BESTAETIGT else "dlq",
            )
        elif ende == BESTAETIGT:
            z.text(x(ende_zeit) + 8, y + 14, "✓", farbe_name="ok", fett=True, klasse="ack")
        elif ende == IN_DLQ:
            z.text(x(ende_zeit) + 6, y + 14, "DLQ", farbe_name="warn", fett=True, klasse="dlq")
        z.text(
            breite - 12,
            y + 14,
            f"{versuche}× ausgeliefert",
            groesse=11,
            anker="end",
            farbe_name="muted",
        )
    if len(ids) > len(gezeigt):
        z.text(
            12,
            OBEN + zeilen * ZEILE + 12,
            f"… und {len(ids) - len(gezeigt)} weitere Nachrichten",
            farbe_name="muted",
            groesse=11,
        )
    z.linie(x(jetzt), OBEN - 6, x(jetzt), unten, farbe_name="accent", gestrichelt=True)
    z.text(x(jetzt), OBEN - 8, "jetzt", groesse=10, anker="middle", farbe_name="accent")
    z.zeitleisten_fuss(x, unten, f, LEGENDE, WEGGELASSEN)
    return Bild(z.svg(), titel)
