"""Die Zeitleiste einer Lease-Simulation als SVG.

Jede Zeile ist ein Client, von links nach rechts läuft die echte Zeit in Ticks. Ein blauer
Balken ist eine Lease, die der Sperrdienst ihm gegeben hat, mit ihrem Token (#1, #2, …), so lange
sie beim Dienst gilt. Orange gestrichelt dahinter: Der Client handelt noch mit ihr, obwohl sie
beim Dienst schon abgelaufen ist. Der graue flache Balken darunter ist eine Pause. ✓ markiert
einen Schreibauftrag, den der Speicher annahm, ✗ einen, den er ablehnte, beim Ankommen im
Speicher. Rechts steht, was aus dem Client wurde; rot, wenn der Speicher einen Auftrag mit
abgelaufener Lease annahm. Nach mehr als ``FENSTER`` Ticks zeigt das Bild nur die letzten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import Bild, Eintrag, Legende, Zeitfenster, textbreite, zeitleisten_zeichnung

if TYPE_CHECKING:
    from .modell import Client, LeaseSim

ZEILE = 40
BALKEN = 16
PAUSE = 5
OBEN = 50
#: So viele Ticks zeigt die Zeitleiste höchstens (die letzten).
FENSTER = 80
#: So viele Clients zeigt das Bild höchstens (die ersten); eine Zeile nennt den Rest.
MAX_CLIENTS = 12

WEGGELASSEN = "das Protokoll nennt alles"

LEGENDE = Legende(
    (
        Eintrag("Lease beim Dienst gültig", fuellung="read", rand="accent"),
        Eintrag("handelt nach Ablauf", rand="next", gestrichelt=True),
        Eintrag("Pause", fuellung="muted", rand="muted", flach=True),
        Eintrag("✓ angenommen  ✗ abgelehnt (beim Speicher)", farbe_name="muted"),
    ),
    umbruch_vor=(3,),
)


def fenster(jetzt: int) -> Zeitfenster:
    """Die Ticks, die die Zeitleiste bei ``jetzt`` zeigt: bis einen Tick nach jetzt."""
    return Zeitfenster.letzte(jetzt + 1, FENSTER)


def ergebnis(c: Client) -> tuple[str, str]:
    """Was aus dem Client wurde (Text, Farbname) für die rechte Spalte."""
    a = c.ergebnis
    if a is None:
        return c.zustand, "muted"
    if not a.angenommen:
        return "abgelehnt", "warn"
    return ("angenommen", "ok") if a.lease_gueltig else ("angenommen!", "warn")


def beschreibung(sim: LeaseSim) -> str:
    """Was das Bild zeigt, in Worten (``<desc>`` für Screenreader)."""
    art = "mit Fencing" if sim.fencing else "ohne Fencing"
    if not sim.clients:
        return f"Leases {art} bei t={sim.now}: noch kein Client."
    teile = []
    for c in sim.clients.values():
        leases = [
            f"#{le.token} t={le.vergeben}–{le.ablauf}" for le in sim.leases if le.client == c.name
        ]
        text = c.name + ": " + (", ".join(leases) if leases else "keine Lease")
        if c.pausen:
            text += ", Pausen " + ", ".join(f"t={b}–{b + d}" for b, d in c.pausen)
        a = c.ergebnis
        if a is not None:
            urteil = "angenommen" if a.angenommen else "abgelehnt"
            text += f", Schreibauftrag #{a.token} bei t={a.angekommen} {urteil}"
            if a.angenommen and not a.lease_gueltig:
                text += ", obwohl die Lease schon abgelaufen war"
        else:
            text += f", {c.zustand}"
        teile.append(text)
    return (
        f"Leases {art} bei t={sim.now}, ttl {sim.ttl}. "
        + "; ".join(teile)
        + "."
        + fenster(sim.now).beschreibung(sim.now)
    )


def zeitleiste(sim: LeaseSim) -> Bild:
    """Zeichnet je Client seine Leases, Pausen und Schreibaufträge über die Zeit."""
    jetzt = sim.now
    clients = list(sim.clients.values())
    gezeigt = clients[:MAX_CLIENTS]
    f = fenster(jetzt)
    spanne, anfang = f.ende, f.anfang
    pro_tick = max(4, min(24, 240 // max(f.ticks, 1)))
    links = 12 + max([textbreite(c.name, 11, mono=True) for c in gezeigt] + [20]) + 8
    rest = 18 if len(clients) > len(gezeigt) else 0
    unten = OBEN + max(len(gezeigt), 1) * ZEILE + rest
    art = "mit Fencing" if sim.fencing else "ohne Fencing"
    titel = f"Leases {art} bei t={jetzt}"
    z, x = zeitleisten_zeichnung(f, LEGENDE, titel, beschreibung(sim), links, pro_tick, 84, unten)
    breite = z.breite
    z.text(12, 38, f"ttl {sim.ttl} Ticks", groesse=11, farbe_name="muted")

    for i, c in enumerate(gezeigt):
        y = OBEN + i * ZEILE + 8
        z.text(12, y + 12, c.name, groesse=11, mono=True)
        z.linie(x(anfang), y + BALKEN // 2, x(spanne), y + BALKEN // 2, farbe_name="line")
        for le in sim.leases:
            if le.client != c.name:
                continue
            ende = le.ende if le.ende is not None else spanne
            if f.vorher(le.vergeben, ende):
                continue
            b = max(x(ende) - x(le.vergeben), 3)
            z.rechteck(x(le.vergeben), y, b, BALKEN, fuellung="read", rand="accent", klasse="lease")
            marke = f"#{le.token}"
            if b >= textbreite(marke, 10) + 4:
                z.text(x(le.vergeben) + 3, y + 12, marke, groesse=10, klasse="token")
            # acting on it after the service let it expire
            if le.zustand == "abgelaufen" and le.ende is not None:
                bis = c.glaubt_bis if c.glaubt_bis is not None else spanne
                if bis > le.ende and not f.vorher(le.ende, bis):
                    z.rechteck(
                        x(le.ende),
                        y,
                        max(x(bis) - x(le.ende), 3),
                        BALKEN,
                        fuellung=None,
                        rand="next",
                        gestrichelt=True,
                        klasse="nach-ablauf",
                    )
        for beginn, dauer in c.pausen:
            ende = min(beginn + dauer, spanne)
            if beginn >= spanne or f.vorher(beginn, ende):
                continue
            z.rechteck(
                x(beginn),
                y + BALKEN + 3,
                max(x(ende) - x(beginn), 3),
                PAUSE,
                fuellung="muted",
                rand="muted",
                rund=1,
                klasse="pause",
            )
        a = c.ergebnis
        if a is not None and a.angekommen >= anfang:
            zeichen, farbe = ("✓", "ok") if a.angenommen else ("✗", "warn")
            klasse = "angenommen" if a.angenommen else "abgelehnt"
            z.marke(x(a.angekommen), y, zeichen, farbe, klasse)
        text, farbe = ergebnis(c)
        z.text(breite - 12, y + 12, text, groesse=10, anker="end", farbe_name=farbe)
    if rest:
        z.text(
            12,
            OBEN + len(gezeigt) * ZEILE + 12,
            f"… und {len(clients) - len(gezeigt)} weitere Clients (im Protokoll)",
            groesse=11,
            farbe_name="muted",
            klasse="weitere",
        )
    z.zeitleisten_fuss(x, unten, f, LEGENDE, WEGGELASSEN)
    return Bild(z.svg(), titel)
