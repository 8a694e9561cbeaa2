"""Das Bild des replizierten Speichers als SVG: Replikate, Nachrichten unterwegs, Verlauf mit Urteil.

Oben je Replikat eine Zeile: Name, Rolle (der Leader blau umrandet), Epoche und LSN, was es hält;
ein ausgefallenes Replikat ist rot, ein abgetrenntes gestrichelt. Darunter jede Nachricht, die
noch unterwegs ist, mit einem Balken von ihrem Absenden bis zur Ankunft und einem Punkt bei
jetzt. Unten die letzten Operationen der Clients und das Urteil von
``pysim.pruefer.linearisierbar``; die Operationen, die einen Fehler belegen, sind rot.
Das Bild ist 380 px breit und bleibt auf einem Telefon lesbar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..svg import Bild, Zeichnung, kuerze
from .regeln import LEADER, QUORUM_MODUS

if TYPE_CHECKING:
    from ..pruefer import Urteil
    from .modell import ReplikSpeicher

BREITE = 380
ZEILE = 26
#: So viele Nachrichten und Operationen zeigt das Bild höchstens (die nächsten, die letzten).
MAX_NACHRICHTEN = 6
MAX_OPERATIONEN = 6


def _werte(inhalt: dict[str, Any]) -> str:
    if not inhalt:
        return "leer"
    return " ".join(f"{k}={v!r}" for k, v in inhalt.items())


def _operationen(speicher: ReplikSpeicher) -> list[dict[str, Any]]:
    """Jede Operation mit Beginn, Ende, Prozess, f, key, Wert, node, Typ und Index."""
    offen: dict[Any, dict[str, Any]] = {}
    fertig: list[dict[str, Any]] = []
    for i, e in enumerate(speicher.verlauf()):
        if e["type"] == "invoke":
            offen[e["process"]] = {**e, "index": i, "beginn": e["time"]}
        else:
            op = offen.pop(e["process"])
            op.update(typ=e["type"], ende=e["time"], ergebnis=e.get("value"))
            fertig.append(op)
    return fertig


def _satz(op: dict[str, Any]) -> str:
    zeit = f"t={op['beginn']}" + (f"–{op['ende']}" if op["ende"] != op["beginn"] else "")
    if op["f"] == "write":
        was = f"write {op['key']}={op['value']!r}"
    else:
        was = f"read {op['key']}"
        if op["typ"] == "ok":
            was += f" → {op['ergebnis']!r}"
    typ = "" if op["typ"] == "ok" else f" ({op['typ']})"
    return f"{zeit} {op['process']} {was} @{op['node']}{typ}"


def beschreibung(speicher: ReplikSpeicher, urteil: Urteil | None) -> str:
    """Was das Bild zeigt, in Worten (``<desc>`` für Screenreader)."""
    s = speicher
    if s.modus == QUORUM_MODUS:
        kopf = f"Quorum n={s.n}, w={s.w}, r={s.r} bei t={s.now}."
    else:
        kopf = f"Leader {s.leader}, sync={s.sync}, bei t={s.now}."
    teile = []
    for name in s.namen:
        r = s.replik(name)
        zusatz = (" ausgefallen" if r.ausgefallen else "") + (
            " abgetrennt" if s.getrennt(name) else ""
        )
        teile.append(f"{name} {r.rolle}{zusatz}, LSN {r.stand}: {_werte(r.inhalt())}")
    text = kopf + " " + "; ".join(teile) + "."
    text += f" Unterwegs: {len(s.unterwegs())} Nachrichten."
    if urteil is not None:
        text += " Verlauf: " + ("linearisierbar." if urteil.ok else "nicht linearisierbar.")
    return text


def zeichne(speicher: ReplikSpeicher) -> Bild:
    """Zeichnet den Speicher, wie er bei ``speicher.now`` ist."""
    s = speicher
    ops = _operationen(s)
    urteil = s.urteil() if ops else None
    nachrichten = s.unterwegs()
    gezeigt = nachrichten[:MAX_NACHRICHTEN]
    letzte = ops[-MAX_OPERATIONEN:]
    oben = 44
    y_netz = oben + s.n * ZEILE + 16
    y_verlauf = (
        y_netz
        + 22
        + max(1, len(gezeigt)) * 18
        + (16 if len(nachrichten) > len(gezeigt) else 0)
        + 12
    )
    hoehe = y_verlauf + 22 + max(1, len(letzte)) * 17 + 46
    if s.modus == QUORUM_MODUS:
        titel = f"Quorum n={s.n} w={s.w} r={s.r} bei t={s.now}"
    else:
        titel = f"Leader {s.leader}, sync={s.sync}, t={s.now}"
    z = Zeichnung(BREITE, hoehe, f"Replikation: {titel}", beschreibung(s, urteil))
    z.text(12, 22, titel, fett=True, groesse=14)

    # replicas
    for i, name in enumerate(s.namen):
        r = s.replik(name)
        y = oben + i * ZEILE
        getrennt = s.getrennt(name)
        rand = "warn" if r.ausgefallen else "accent" if r.rolle == LEADER else "line"
        z.rechteck(
            12,
            y,
            BREITE - 24,
            ZEILE - 4,
            fuellung="cell" if not r.ausgefallen else None,
            rand=rand,
            gestrichelt=getrennt,
            klasse="replik",
        )
        z.text(20, y + 15, name, fett=True, groesse=12, mono=True)
        rolle = r.rolle if s.modus != QUORUM_MODUS else "Replikat"
        zustand = "ausgefallen" if r.ausgefallen else "abgetrennt" if getrennt else rolle
        farbe = "warn" if r.ausgefallen or getrennt else "accent" if r.rolle == LEADER else "muted"
        z.text(48, y + 15, zustand, groesse=11, farbe_name=farbe)
        stand = f"E{r.epoche} LSN {r.stand}" if s.modus != QUORUM_MODUS else ""
        if stand:
            z.text(128, y + 15, stand, groesse=10, farbe_name="muted", mono=True)
        if s.modus == QUORUM_MODUS:
            werte = " ".join(f"{k}={v!r} v{n}" for k, (v, n) in sorted(r.daten.items()))
        else:
            werte = _werte(r.inhalt())
        z.text(
            BREITE - 20,
            y + 15,
            kuerze(werte or "leer", 26),
            groesse=11,
            mono=True,
            anker="end",
        )

    # messages in flight
    z.text(12, y_netz, f"Unterwegs ({len(nachrichten)})", fett=True, groesse=12)
    if not gezeigt:
        z.text(12, y_netz + 20, "keine Nachricht im Netz", groesse=11, farbe_name="muted")
    for i, m in enumerate(gezeigt):
        y = y_netz + 20 + i * 18
        z.text(12, y, kuerze(f"{m.von}→{m.nach}", 15), groesse=11, mono=True)
        z.text(120, y, kuerze(f"{m.art} {m.kurz()}", 22), groesse=11, mono=True)
        # progress bar from sending to arrival, a dot at now
        links, breite = 282, 56
        z.rechteck(links, y - 8, breite, 8, fuellung=None, rand="line", rund=2)
        dauer = max(1, m.ankunft - m.abgeschickt)
        anteil = (s.now - m.abgeschickt) * breite // dauer
        z.rechteck(links, y - 8, max(2, anteil), 8, fuellung="read", rand=None, rund=2)
        z.text(BREITE - 12, y, f"t={m.ankunft}", groesse=10, anker="end", farbe_name="muted")
    if len(nachrichten) > len(gezeigt):
        z.text(
            12,
            y_netz + 20 + len(gezeigt) * 18,
            f"… und {len(nachrichten) - len(gezeigt)} weitere",
            groesse=11,
            farbe_name="muted",
        )

    # history and verdict
    z.text(12, y_verlauf, f"Verlauf ({len(ops)} Operationen)", fett=True, groesse=12)
    zeugen = {op.index for op in urteil.zeugen} if urteil is not None else set()
    if not letzte:
        z.text(12, y_verlauf + 20, "noch keine Operation", groesse=11, farbe_name="muted")
    for i, op in enumerate(letzte):
        y = y_verlauf + 20 + i * 17
        z.text(
            12,
            y,
            kuerze(_satz(op), 54),
            groesse=11,
            mono=True,
            farbe_name="warn" if op["index"] in zeugen else "fg",
            klasse="zeuge" if op["index"] in zeugen else None,
        )
    y = y_verlauf + 20 + max(1, len(letzte)) * 17 + 14
    if urteil is None:
        z.text(12, y, "Urteil: –", groesse=12, farbe_name="muted")
    elif urteil.ok:
        z.text(12, y, "Urteil: linearisierbar ✓", groesse=12, farbe_name="ok", fett=True)
    else:
        z.text(12, y, "Urteil: nicht linearisierbar ✗", groesse=12, farbe_name="warn", fett=True)
        if zeugen:
            z.text(
                12, y + 16, "rot: die Operationen, die es belegen", groesse=10, farbe_name="muted"
            )
    return Bild(z.svg(), titel)
