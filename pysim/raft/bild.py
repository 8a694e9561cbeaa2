"""Das Bild eines Raft-Clusters als SVG: je Knoten Rolle, Term und Log, dazu das Netz und das Urteil.

Oben das Netz wie bei RaftScope: die Knoten im Kreis, jeder mit Name und Term (``T3``; der
Leader dick blau, ein Kandidat orange, ein abgestürzter rot gestrichelt, ein angehaltener
gestrichelt), zwischen ihnen die Verbindungen (rot gestrichelt: durch eine Netzpartition abgeschnitten)
und die Nachrichten unterwegs als Punkte auf ihrem Weg (orange RequestVote, grün/rot eine
Stimme ja/nein, blau AppendEntries, grau die Antwort darauf).

Darunter je Knoten eine Zeile: links Name, Rolle (Leader blau, Kandidat orange, abgestürzt rot) und
Term; ein angehaltener Knoten ist gestrichelt umrandet und zeigt „Pause“; rechts sein Log, ein Kästchen je Eintrag mit dem Term, in dem er entstand, und der
Operation (``w5``: schreibe 5, ``r``: lies, ``–``: der leere Eintrag eines neuen Leaders);
``C4`` unter dem Namen ist der Commit-Index.
Committete Einträge (bis zum Commit-Index des Knotens) sind blau gefüllt, die anderen
gestrichelt. Über den Logs stehen die Indizes; sind die Logs länger als ``SPALTEN``, zeigt das
Bild die letzten. Darunter die Partition, die Nachrichten unterwegs und das Urteil von
``pysim.pruefer.linearisierbar`` über den Verlauf der Clients. 380 px breit, auf einem Telefon
lesbar.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..svg import Bild, Eintrag, Legende, Zeichnung, kuerze
from .regeln import ABGESTUERZT, KANDIDAT, LEADER

if TYPE_CHECKING:
    from .modell import Eintrag as LogEintrag
    from .modell import Knoten, Nachricht, RaftSim

__all__ = ["LEGENDE", "NACHRICHTEN", "SPALTEN", "beschreibung", "zeichne"]

BREITE = 380
ZEILE = 44
#: The ring of nodes and messages, below the title.
RING_OBEN = 48
RING_HOEHE = 176
RADIUS = 62  # of the ring
KREIS = 19  # of a node
OBEN = RING_OBEN + RING_HOEHE + 22  # where the logs begin
LINKS = 112  # where the logs begin
ZELLE = 32
#: So viele Einträge je Log zeigt das Bild höchstens (die letzten).
SPALTEN = (BREITE - LINKS - 12) // ZELLE

LEGENDE = Legende(
    (
        Eintrag("committet", fuellung="read", rand="accent"),
        Eintrag("nicht committet", fuellung="cell", rand="line", gestrichelt=True),
        Eintrag("Zahl oben: Term des Eintrags", farbe_name="muted"),
        Eintrag("C4: Commit-Index 4", farbe_name="muted"),
        Eintrag("w5 schreibe 5 · r lies · – leer", farbe_name="muted"),
    ),
    umbruch_vor=(2, 4),
)

#: Die Nachrichten im Netz: Farbe je Art (für die Punkte und ihre Legende).
NACHRICHTEN = Legende(
    (
        Eintrag("RequestVote", fuellung="next", rand="next"),
        Eintrag("Stimme ja", fuellung="ok", rand="ok"),
        Eintrag("Stimme nein", fuellung="warn", rand="warn"),
        Eintrag("AppendEntries", fuellung="accent", rand="accent"),
        Eintrag("Antwort", fuellung="line", rand="line"),
    ),
    umbruch_vor=(3,),
)


def _farbe_nachricht(n: Nachricht) -> str:
    if n.art == "RequestVote":
        return "next"
    if n.art == "Stimme":
        return "ok" if n.daten.get("ja") else "warn"
    return "accent" if n.art == "AppendEntries" else "line"


def _mitten(sim: RaftSim) -> dict[str, tuple[int, int]]:
    """Where each node's circle sits: on a ring, the first at the top, clockwise."""
    mx, my = BREITE // 2, RING_OBEN + RING_HOEHE // 2
    n = len(sim.namen)
    return {
        name: (
            round(mx + RADIUS * 1.35 * math.sin(2 * math.pi * i / n)),
            round(my - RADIUS * math.cos(2 * math.pi * i / n)),
        )
        for i, name in enumerate(sim.namen)
    }


def _netz(z: Zeichnung, sim: RaftSim) -> None:
    mitten = _mitten(sim)
    namen = sim.namen
    for i, a in enumerate(namen):
        for b in namen[i + 1 :]:
            (x1, y1), (x2, y2) = mitten[a], mitten[b]
            getrennt = sim.getrennt(a, b)
            z.linie(x1, y1, x2, y2, farbe_name="warn" if getrennt else "cell", gestrichelt=getrennt)
    for n in sim.unterwegs:
        (x1, y1), (x2, y2) = mitten[n.von], mitten[n.an]
        anteil = (sim.now - n.gesendet) / max(1, n.ankunft - n.gesendet)
        # a message leaves the sender's circle and reaches the receiver's
        laenge = math.hypot(x2 - x1, y2 - y1) or 1
        kante = KREIS / laenge
        anteil = kante + (1 - 2 * kante) * anteil
        x = round(x1 + (x2 - x1) * anteil)
        y = round(y1 + (y2 - y1) * anteil)
        farbe = _farbe_nachricht(n)
        z.rechteck(x - 4, y - 4, 8, 8, fuellung=farbe, rand=farbe, rund=4, klasse="nachricht")
    for k in sim.knoten.values():
        x, y = mitten[k.name]
        aus = k.rolle == ABGESTUERZT
        rand = "warn" if aus else {LEADER: "accent", KANDIDAT: "next"}.get(k.rolle, "line")
        z.rechteck(
            x - KREIS,
            y - KREIS,
            2 * KREIS,
            2 * KREIS,
            fuellung="read" if k.rolle == LEADER else "cell",
            rand=rand,
            gestrichelt=aus or k.pausiert_bis is not None,
            rund=KREIS,
            klasse="kreis",
        )
        if k.rolle == LEADER:  # a second ring: the leader stands out without colour too
            z.rechteck(
                x - KREIS - 3,
                y - KREIS - 3,
                2 * KREIS + 6,
                2 * KREIS + 6,
                fuellung=None,
                rand="accent",
                rund=KREIS + 3,
            )
        z.text(x, y - 2, k.name, groesse=11, anker="middle", fett=True, mono=True)
        unten = "aus" if aus else f"T{k.term}"  # a pause shows as the dashed circle
        z.text(x, y + 11, unten, groesse=10, anker="middle", mono=True, farbe_name="muted")


def _op(e: LogEintrag) -> str:
    if e.f == "write":
        return "w" + kuerze(str(e.value), 3)
    return "r" if e.f == "read" else "–"


def _rolle(k: Knoten) -> tuple[str, str]:
    if k.rolle == ABGESTUERZT:
        return ABGESTUERZT, "warn"
    farbe = {LEADER: "accent", KANDIDAT: "next"}.get(k.rolle, "muted")
    return k.rolle, farbe


def _partition(sim: RaftSim) -> str:
    if sim.gruppen is None:
        return "keine Netzpartition"
    return "Netzpartition: " + " | ".join(" ".join(sorted(g)) for g in sim.gruppen)


def _unterwegs(sim: RaftSim) -> list[str]:
    zahl: dict[str, int] = {}
    for n in sim.unterwegs:
        zahl[n.art] = zahl.get(n.art, 0) + 1
    return [f"{v} {art}" for art, v in sorted(zahl.items())]


def _urteil(sim: RaftSim) -> str:
    ops = sum(1 for e in sim.verlauf if e["type"] == "invoke")
    if not ops:
        return "noch keine Operation der Clients"
    u = sim.urteil()
    zahl = "1 Operation" if ops == 1 else f"{ops} Operationen"
    if not u.entschieden:
        return f"{zahl}: unentschieden"
    return f"{zahl}: " + ("linearisierbar ✓" if u.ok else "nicht linearisierbar ✗")


def beschreibung(sim: RaftSim) -> str:
    """Was das Bild zeigt, in Worten (``<desc>`` für Screenreader)."""
    teile = []
    for k in sim.knoten.values():
        rolle, _ = _rolle(k)
        if k.pausiert_bis is not None:
            rolle += f", angehalten bis t={k.pausiert_bis}"
        log = " ".join(f"{e.term}:{_op(e)}" for e in k.log) or "leer"
        teile.append(f"{k.name} {rolle}, Term {k.term}, Commit {k.commit}, Log {log}")
    unterwegs = ", ".join(_unterwegs(sim)) or "keine"
    return (
        f"Raft bei t={sim.now}. "
        + "; ".join(teile)
        + f". {_partition(sim)}. Unterwegs: {unterwegs}. Verlauf: {_urteil(sim)}."
    )


def zeichne(sim: RaftSim) -> Bild:
    """Zeichnet den Cluster, wie er bei ``sim.now`` ist."""
    knoten = list(sim.knoten.values())
    laengste = max(len(k.log) for k in knoten)
    erster = max(1, laengste - SPALTEN + 1)
    unten = OBEN + len(knoten) * ZEILE
    hoehe = unten + 3 * 18 + 8 + LEGENDE.hoehe(BREITE) + 8
    hoehe += NACHRICHTEN.hoehe(BREITE) + 4
    leader = sim.leader()
    titel = f"Raft bei t={sim.now}" + (f", Leader {leader}" if leader else ", kein Leader")
    z = Zeichnung(BREITE, hoehe, titel, beschreibung(sim))
    z.text(12, 22, titel, fett=True, groesse=14)
    z.text(12, 40, f"{len(knoten)} Knoten, Mehrheit {sim.mehrheit}", groesse=11, farbe_name="muted")
    _netz(z, sim)
    # the indices above the logs
    for spalte, index in enumerate(range(erster, laengste + 1)):
        x = LINKS + spalte * ZELLE + ZELLE // 2
        z.text(x, OBEN - 6, str(index), groesse=10, anker="middle", farbe_name="muted")
    if erster > 1:
        z.text(LINKS - 4, OBEN - 6, "…", groesse=10, anker="end", farbe_name="muted")

    for i, k in enumerate(knoten):
        y = OBEN + i * ZEILE
        rolle, farbe = _rolle(k)
        aus = k.rolle == ABGESTUERZT
        pause = k.pausiert_bis is not None
        z.rechteck(
            8,
            y,
            BREITE - 16,
            ZEILE - 4,
            fuellung=None,
            rand="warn" if aus else "accent" if k.rolle == LEADER else "line",
            gestrichelt=pause,
            klasse="knoten",
        )
        z.text(16, y + 16, k.name, fett=True, groesse=12, mono=True)
        z.text(44, y + 16, rolle, groesse=11, farbe_name=farbe, fett=k.rolle == LEADER)
        z.text(16, y + 32, f"Term {k.term}", groesse=11, mono=True)
        if pause:  # the commit index still shows in the filled entries
            z.text(72, y + 32, "Pause", groesse=11, farbe_name="next", klasse="pause")
        else:
            z.text(72, y + 32, f"C{k.commit}", groesse=11, mono=True, farbe_name="muted")
        for spalte, index in enumerate(range(erster, len(k.log) + 1)):
            e = k.log[index - 1]
            x = LINKS + spalte * ZELLE
            fest = index <= k.commit
            z.rechteck(
                x + 1,
                y + 5,
                ZELLE - 2,
                ZELLE,
                fuellung="read" if fest else "cell",
                rand="accent" if fest else "line",
                gestrichelt=not fest,
                klasse="fest" if fest else "offen",
            )
            mitte = x + ZELLE // 2
            z.text(mitte, y + 17, str(e.term), groesse=10, anker="middle", farbe_name="muted")
            z.text(mitte, y + 31, _op(e), groesse=11, anker="middle", mono=True)

    y = unten + 14
    z.text(12, y, _partition(sim), groesse=11, klasse="partition")
    unterwegs = ", ".join(_unterwegs(sim)) or "keine"
    z.text(12, y + 18, kuerze(f"Unterwegs: {unterwegs}", 60), groesse=11, farbe_name="muted")
    urteil = _urteil(sim)
    farbe_urteil = "warn" if "nicht" in urteil else "ok" if "✓" in urteil else "muted"
    z.text(12, y + 36, f"Verlauf: {urteil}", groesse=11, farbe_name=farbe_urteil, klasse="urteil")
    y = z.legende(LEGENDE, y + 50)
    z.legende(NACHRICHTEN, y + 4)
    return Bild(z.svg(), titel)
