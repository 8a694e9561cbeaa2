"""Die Zeitleiste einer Saga als SVG.

Jede Zeile ist ein Schritt (ein Dienst), von links nach rechts läuft die Zeit in Ticks. Die
Farbe eines Stücks ist der Zustand des Schritts in dieser Zeit: blau umrandet „gesendet“ (wartet
auf Antwort), grün „erledigt“, rot „abgelehnt“, orange gestrichelt „wird kompensiert“, grau
„kompensiert“. ↻ markiert ein erneutes Senden nach einem Timeout, ✗ den Absturz eines Dienstes,
2× eine doppelte Zustellung. Die unterste Zeile zeigt, wann der Orchestrator abgestürzt war.
Rechts steht der Zustand jedes Schritts jetzt. Nach mehr als ``FENSTER`` Ticks zeigt das Bild nur
die letzten ``FENSTER`` Ticks (eine Zeile sagt, dass frühere Zeiten fehlen): So bleibt die Schrift
lesbar und das Bild klein, wie lange die Simulation auch läuft.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import Bild, Eintrag, Legende, Zeitfenster, textbreite, zeitleisten_zeichnung

if TYPE_CHECKING:
    from .modell import SagaSim

ZEILE = 30
BALKEN = 16
OBEN = 50
#: So viele Ticks zeigt die Zeitleiste höchstens (die letzten).
FENSTER = 80

#: Zustand -> (Füllung, Rand, gestrichelt) als Farbnamen aus ``pysim.svg``.
STIL: dict[str, tuple[str | None, str | None, bool]] = {
    "gesendet": ("read", "accent", False),
    "erledigt": ("ok", "ok", False),
    "abgelehnt": ("warn", "warn", False),
    "wird kompensiert": (None, "next", True),
    "kompensiert": ("cell", "line", False),
}

FARBE_JETZT = {"erledigt": "ok", "abgelehnt": "warn", "wird kompensiert": "next"}

MARKEN = {"timeout": ("↻", "accent"), "absturz": ("✗", "warn"), "doppelt": ("2×", "next")}


#: Wo der Leser findet, was das Zeitfenster weglässt.
WEGGELASSEN = "der Verlauf steht im Text"


def _stil(zustand: str) -> Eintrag:
    fuellung, rand, gestrichelt = STIL[zustand]
    return Eintrag(zustand, fuellung=fuellung, rand=rand, gestrichelt=gestrichelt)


#: Legend rows kept short for phones; the outage has the red of "abgelehnt", so it gets its own
#: entry, drawn as in its row, and the marks, which have no colour, a row of their own.
LEGENDE = Legende(
    (
        *(_stil(s) for s in ("gesendet", "erledigt", "abgelehnt")),
        *(_stil(s) for s in ("wird kompensiert", "kompensiert")),
        Eintrag("Orchestrator abgestürzt", fuellung="warn", rand="warn", flach=True),
        Eintrag("↻ erneut gesendet  ✗ Absturz  2× doppelt", farbe_name="muted"),
    ),
    umbruch_vor=(3, 5, 6),
)


def fenster(jetzt: int) -> Zeitfenster:
    """Die Ticks, die die Zeitleiste bei ``jetzt`` zeigt: bis einen Tick nach jetzt."""
    return Zeitfenster.letzte(jetzt + 1, FENSTER)


def beschreibung(sim: SagaSim, saga: str | None) -> str:
    """Was das Bild zeigt, in Worten (``<desc>`` für Screenreader)."""
    return _beschreibung(sim, saga) + fenster(sim.now).beschreibung(sim.now)


def _beschreibung(sim: SagaSim, saga: str | None) -> str:
    if saga is None:
        return f"Saga-Simulation bei t={sim.now}: noch keine Saga gestartet."
    teile = [f"{name} {zustand}" for name, zustand in sim.schritte(saga).items()]
    text = (
        f"Saga „{saga}“ bei t={sim.now}, Zustand {sim.zustand(saga)}. Schritte: "
        + ", ".join(teile)
        + "."
    )
    versuche = {n: v for n, v in sim.versuche(saga).items() if v > 1}
    if versuche:
        text += " Mehrfach gesendet: " + ", ".join(f"{n} {v}×" for n, v in versuche.items()) + "."
    if sim.ausfaelle:
        text += f" Der Orchestrator war {len(sim.ausfaelle)}× abgestürzt."
    if not sim.orchestrator_laeuft:
        text += " Er ist jetzt noch ausgefallen."
    return text


def zeitleiste(sim: SagaSim, saga: str | None) -> Bild:
    """Zeichnet die Schritte der Saga ``saga`` über die Zeit."""
    jetzt = sim.now
    namen = sim.saga.namen
    # One tick past now: a state reached just now still shows as a bar.
    f = fenster(jetzt)
    spanne, anfang = f.ende, f.anfang
    pro_tick = max(6, min(30, 170 // f.ticks))
    links = 12 + max(textbreite(n, 11) for n in [*namen, "Orchestrator"]) + 8
    rechts = 100  # the state now, e.g. "wird kompensiert"
    unten = OBEN + (len(namen) + 1) * ZEILE
    zustand = sim.zustand(saga) if saga is not None else "–"
    titel = f"Saga „{saga}“ bei t={jetzt}: {zustand}" if saga else f"Saga-Simulation bei t={jetzt}"
    z, x = zeitleisten_zeichnung(
        f, LEGENDE, titel, beschreibung(sim, saga), links, pro_tick, rechts, unten
    )
    breite = z.breite

    verlauf = sim.zustandsverlauf.get(saga, []) if saga is not None else []
    schritte = sim.schritte(saga) if saga is not None else {}
    for i, name in enumerate(namen):
        y = OBEN + i * ZEILE
        z.text(12, y + 13, name, groesse=11, mono=True)
        z.linie(x(anfang), y + BALKEN // 2, x(spanne), y + BALKEN // 2, farbe_name="line")
        wechsel = [(t, s) for t, k, s in verlauf if k == i]
        for nummer, (von, s) in enumerate(wechsel):
            bis = wechsel[nummer + 1][0] if nummer + 1 < len(wechsel) else spanne
            if f.vorher(von, bis):
                continue
            fuellung, rand, gestrichelt = STIL[s]
            b = max(x(bis) - x(von), 4)
            z.rechteck(
                x(von),
                y,
                b,
                BALKEN,
                fuellung=fuellung,
                rand=rand,
                gestrichelt=gestrichelt,
                klasse=s.replace(" ", "-"),
            )
        if saga is not None:
            for e in sim.verlauf(saga):
                if e.schritt == i and e.art in MARKEN and e.zeit >= anfang:
                    zeichen, marke = MARKEN[e.art]
                    z.marke(x(e.zeit), y, zeichen, marke, e.art, groesse=11)
        jetzt_zustand = schritte.get(name, "offen")
        z.text(
            breite - 12,
            y + 13,
            jetzt_zustand,
            groesse=10,
            anker="end",
            farbe_name=FARBE_JETZT.get(jetzt_zustand, "muted"),
        )
    # Orchestrator: when it was down
    y = OBEN + len(namen) * ZEILE
    z.text(12, y + 13, "Orchestrator", groesse=11, farbe_name="muted")
    z.linie(
        x(anfang), y + BALKEN // 2, x(spanne), y + BALKEN // 2, farbe_name="line", gestrichelt=True
    )
    for von, zurueck in sim.ausfaelle:
        ende = zurueck if zurueck is not None else spanne
        if f.vorher(von, ende):
            continue
        z.rechteck(
            x(von),
            y + 3,
            max(x(ende) - x(von), 4),
            BALKEN - 6,
            fuellung="warn",
            rand="warn",
            klasse="ausfall",
        )
    z.text(
        breite - 12,
        y + 13,
        "läuft" if sim.orchestrator_laeuft else "abgestürzt",
        groesse=11,
        anker="end",
        farbe_name="muted" if sim.orchestrator_laeuft else "warn",
    )
    z.zeitleisten_fuss(x, unten, f, LEGENDE, WEGGELASSEN)
    return Bild(z.svg(), titel)
