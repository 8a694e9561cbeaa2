"""Die Zeitleiste der Zahlungssimulation als SVG.

Eine Bahn je Client, unten eine für den Server; von links nach rechts läuft die Zeit in Ticks.
Eine blaue Linie ist eine Anfrage (vom Client hinunter zum Server), eine Linie hinauf ist die
Antwort: grün 201, orange 409, rot 422. Eine rot gestrichelte Linie, die auf halbem Weg mit ✗
endet, ist eine verlorene Antwort. ↻ markiert eine Wiederholung des Clients. Auf der Bahn des
Servers ist ein grünes Quadrat eine Buchung, ein leeres die gespeicherte Antwort, die der Server
noch einmal schickt, ein roter Strich ein Absturz. Rechts steht, womit jeder Client endete, und
beim Server die Zahl der Buchungen. Nach mehr als ``FENSTER`` Ticks zeigt das Bild nur die
letzten ``FENSTER``, von mehr als ``MAX_CLIENTS`` Clients nur die ersten (eine Zeile nennt die
übrigen; ihre Buchungen stehen trotzdem auf der Bahn des Servers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import Bild, Eintrag, Legende, Zeitfenster, textbreite, zeitleisten_zeichnung

if TYPE_CHECKING:
    from .modell import ZahlungsSim

ZEILE = 46
OBEN = 44
FENSTER = 60
#: So viele Clients zeigt das Bild höchstens (die ersten); eine Zeile nennt die übrigen.
MAX_CLIENTS = 8
WEGGELASSEN = "der Verlauf steht in sim.zeige()"

#: Status -> colour of the answer's line.
FARBE_STATUS = {201: "ok", 409: "next", 422: "warn"}

LEGENDE = Legende(
    (
        Eintrag("Buchung", fuellung="ok", rand="ok"),
        Eintrag("gespeicherte Antwort", fuellung=None, rand="ok"),
        Eintrag("Absturz", fuellung="warn", rand="warn"),
        Eintrag("blau: Anfrage · grün 201 · orange 409 · rot 422", farbe_name="muted"),
        Eintrag("↻ Wiederholung · ✗ Antwort verloren", farbe_name="muted"),
    ),
    umbruch_vor=(3, 4),
)


def fenster(jetzt: int) -> Zeitfenster:
    return Zeitfenster.letzte(jetzt + 1, FENSTER)


def beschreibung(sim: ZahlungsSim) -> str:
    """Was das Bild zeigt, in Worten (``<desc>``)."""
    from .regeln import MODI

    teile = [f"Zahlungen {MODI[sim.modus]}, t={sim.now}."]
    for name in sim.zahlungen:
        ergebnis = ", ".join("keine Antwort" if s is None else str(s) for s in sim.ergebnis(name))
        teile.append(
            f"{name}: {sim.versuche(name)} Anfragen, {sim.anzahl_buchungen(name)} Buchungen, "
            f"Ergebnis {ergebnis}."
        )
    verloren = sum(1 for v in sim._versuche if v.verloren)
    if verloren:
        teile.append(f"{verloren} Antworten gingen verloren.")
    if sim.abstuerze:
        teile.append(f"Der Server stürzte {len(sim.abstuerze)}× ab.")
    return " ".join(teile) + fenster(sim.now).beschreibung(sim.now)


def zeitleiste(sim: ZahlungsSim) -> Bild:
    """Zeichnet Clients, Server, Anfragen, Antworten und Buchungen über die Zeit."""
    jetzt = sim.now
    f = fenster(jetzt)
    spanne, anfang = f.ende, f.anfang
    pro_tick = max(8, min(24, 260 // max(f.ticks, 1)))
    gezeigt = sim._clients[:MAX_CLIENTS]
    weggelassen = len(sim._clients) - len(gezeigt)
    namen = [*(c.name for c in gezeigt), "Server"]
    links = 12 + max(textbreite(n, 11, mono=True) for n in namen) + 10
    rechts = 92
    y_server = OBEN + len(gezeigt) * ZEILE + (18 if weggelassen else 0)
    unten = y_server + 24
    n = sim.anzahl_buchungen()
    titel = f"Zahlungen bei t={jetzt}: {n} {'Buchung' if n == 1 else 'Buchungen'}"
    z, x = zeitleisten_zeichnung(
        f, LEGENDE, titel, beschreibung(sim), links, pro_tick, rechts, unten
    )
    breite = z.breite

    bahn = {c.name: OBEN + i * ZEILE for i, c in enumerate(gezeigt)}
    if weggelassen:
        z.text(
            12,
            y_server - 22,
            f"… und {weggelassen} weitere Clients (ihr Verlauf: sim.zeige())",
            groesse=11,
            farbe_name="muted",
            klasse="weitere",
        )
    for name, y in [*bahn.items(), ("Server", y_server)]:
        z.text(12, y + 4, name, groesse=11, mono=True)
        z.linie(x(anfang), y, x(spanne), y, farbe_name="line")

    def sichtbar(t: int | None) -> bool:
        return t is not None and t >= anfang

    gesehen: set[str] = set()
    for v in sim._versuche:
        if v.client.name not in bahn:
            continue
        yc = bahn[v.client.name]
        if v.client.name in gesehen and sichtbar(v.gesendet):
            z.text(x(v.gesendet), yc - 5, "↻", groesse=12, anker="middle", farbe_name="accent")
        gesehen.add(v.client.name)
        ankunft = v.angekommen if v.angekommen is not None else jetzt
        if sichtbar(ankunft):
            z.linie(
                x(v.gesendet),
                yc,
                x(min(ankunft, spanne)),
                y_server if v.angekommen is not None else yc + (y_server - yc) // 2,
                farbe_name="accent",
                dicke=2,
            )
        if v.beantwortet is None or v.status is None or not sichtbar(v.beantwortet):
            continue
        farbe = FARBE_STATUS[v.status]
        if v.verloren:
            mitte_t = x(v.beantwortet) + pro_tick // 2
            mitte_y = (yc + y_server) // 2
            z.linie(
                x(v.beantwortet), y_server, mitte_t, mitte_y, farbe_name="warn", gestrichelt=True
            )
            z.text(mitte_t + 2, mitte_y - 2, "✗", groesse=13, fett=True, farbe_name="warn")
        elif v.zugestellt is not None:
            z.linie(x(v.beantwortet), y_server, x(v.zugestellt), yc, farbe_name=farbe, dicke=2)
            z.text(x(v.zugestellt) + 3, yc + 13, str(v.status), groesse=10, farbe_name=farbe)

    def marke(t: int, fuellung: str, klasse: str) -> None:
        z.rechteck(x(t) - 5, y_server - 5, 10, 10, fuellung=fuellung, rand="ok", klasse=klasse)

    for v in sim._versuche:
        if v.gebucht_zeit is not None and v.gebucht is not None and sichtbar(v.gebucht_zeit):
            marke(v.gebucht_zeit, "ok", "buchung")  # booked: filled
        elif v.wiederholt and sichtbar(v.beantwortet) and v.beantwortet is not None:
            marke(v.beantwortet, "bg", "wiederholt")  # answered from the kept result: hollow
    for t in sim.abstuerze:
        if t >= anfang:
            z.rechteck(
                x(t) - 2,
                y_server - 9,
                4,
                18,
                fuellung="warn",
                rand="warn",
                rund=0,
                klasse="absturz",
            )

    for c in gezeigt:
        if c.ergebnis is not None:
            text, farbe = f"{c.ergebnis}", FARBE_STATUS[c.ergebnis]
        elif c.fertig:
            text, farbe = "aufgegeben", "warn"
        else:
            text, farbe = "wartet", "muted"
        z.text(breite - 12, bahn[c.name] + 4, text, groesse=11, anker="end", farbe_name=farbe)
    z.text(
        breite - 12,
        y_server + 4,
        f"{n} {'Buchung' if n == 1 else 'Buchungen'}",
        groesse=11,
        anker="end",
        fett=True,
    )
    z.zeitleisten_fuss(x, unten, f, LEGENDE, WEGGELASSEN)
    return Bild(z.svg(), titel)
