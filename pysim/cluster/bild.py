"""Das Raum-Zeit-Bild eines Laufs: wer wem wann was schickte, und was dabei schiefging.

- Eine senkrechte Linie je Knoten (``n1`` …) und je Client (``c1`` …); die Zeit läuft nach unten,
  links steht sie als ``t=…``. So passt ein Lauf auch auf ein Telefon (man scrollt nach unten).
  Hat ein Knoten einen Dienst gefragt (``lin-kv``, ``lease``, …), hat der Dienst links eine
  eigene Linie.
- Eine Nachricht ist ein Strich vom Senden zur Ankunft. Rot gestrichelt mit ✕: Sie ging
  verloren (im Netz, an einer Netzpartition oder bei einem abgestürzten Empfänger). Nachrichten
  ohne Laufzeit (zwischen Client und Knoten) im selben Tick liegen leicht untereinander:
  Anfrage oben, Antwort darunter.
- Eine Netzpartition ist ein Band hinter den Knoten, von ihrem Anfang bis zum Heilen, beschriftet
  mit ihren Seiten. Ein Absturz ist ein ✕ auf der Linie des Knotens, die bis zum Neustart
  gestrichelt weiterläuft; eine Pause ein dicker grauer Abschnitt. Eine gezielte Störung
  (``stoerungen.GEZIELT``) trägt ihren Anlass: „(gezielt: Leader)“ an der Netzpartition, ein
  Wort neben dem ✕ oder der Pause.
- Eine Operation eines Clients ist ein Kasten auf seiner Linie, vom Aufruf bis zur Antwort:
  grün ``ok``, grau ``fail``, orange ``info`` (unbestimmt). Die Operationen, die das Urteil
  nennt (``zeugen``), sind rot umrandet.
- Jede Nachricht ist eine Gruppe (``<g class="nachricht">``) mit ihrem Text als ``<title>``:
  Absender, Empfänger, Ticks, was aus ihr wurde, und ihr Inhalt, gekürzt
  (``protokoll.sendung_text``). Ein Browser zeigt ihn, wenn der Zeiger über dem Pfeil steht
  (wie bei Maelstroms ``messages.svg``); eine unsichtbare breite Linie macht den Pfeil dafür
  breiter. Die Seite einer Herausforderung macht die Pfeile mit der Tastatur erreichbar.
- Zu viele Nachrichten machen ein Bild unlesbar: Es zeigt höchstens ``MAX_NACHRICHTEN``, jede
  verlorene zuerst, die übrigen über den ganzen Lauf verteilt, und sagt es. Ein verkleinerter
  Lauf (``verkleinere``) passt fast immer ganz.
- Die Clients der Schlussoperationen (``Clients.zusatz``) stehen in der Spalte des Clients, der
  während der Last mit demselben Knoten sprach, mit ihrem Namen unter dessen Kopf.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..fehler import anzahl
from ..svg import Bild, Zeichnung, kuerze
from .cluster import ZUGESTELLT
from .protokoll import sendung_text
from .stoerungen import ANLASS

if TYPE_CHECKING:
    from .cluster import Sendung
    from .lauf import Lauf

LINKS = 44
OBEN = 34
SPALTE = 46
#: A service's column: its name (``fence-kv``) is longer than a node's.
DIENST_SPALTE = 72
PRO_TICK = 6
MAX_NACHRICHTEN = 400
#: A stretch without anything happening longer than this is drawn short, with its length.
LUECKE = 8
#: Room right of the columns for the length of a shortened stretch ("⋯ 30 Ticks ohne Ereignis").
RAND_LUECKE = 112
#: Pixels between messages that take no time and are sent in the same tick (request, reply).
STUFE = 3
#: The smallest height of an operation's box (one that ends in the tick it began).
MIN_KASTEN = 8
#: Width of the invisible line under a message's arrow: where the pointer shows its text.
BREIT = 7


class _Achse:
    """Time to y: ticks at PRO_TICK pixels, but a quiet stretch longer than LUECKE takes
    only LUECKE ticks' room (the picture says how long it was)."""

    def __init__(self, zeiten: Iterable[int]) -> None:
        punkte = sorted(set(zeiten))
        #: (from, to) of every quiet stretch that is drawn short.
        self.luecken = [(a, b) for a, b in pairwise(punkte) if b - a > LUECKE]

    def _weg(self, t: int) -> int:
        """Ticks cut away before ``t``."""
        return sum(min(max(0, t - a - LUECKE), b - a - LUECKE) for a, b in self.luecken if t > a)

    def __call__(self, t: int) -> int:
        return OBEN + 12 + (t - self._weg(t)) * PRO_TICK


def _operationen(
    geschichte: list[dict[str, Any]],
) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """(invoke, completion or None) per operation, in invoke order."""
    offen: dict[Any, dict[str, Any]] = {}
    paare: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    stelle: dict[int, int] = {}
    for e in geschichte:
        if e["type"] == "invoke":
            offen[e["process"]] = e
            stelle[e["index"]] = len(paare)
            paare.append((e, None))
        elif e["process"] in offen:
            start = offen.pop(e["process"])
            paare[stelle[start["index"]]] = (start, e)
    return paare


def _fenster(
    ereignisse: list[Any], art_an: str, art_aus: str, ende: int
) -> list[tuple[int, int, Any]]:
    """(from, to, start event) for each on/off window (partition/heal, pause/resume …)."""
    fenster, offen = [], None
    for e in ereignisse:
        if e.art == art_an:
            if offen is not None:
                fenster.append((offen.zeit, e.zeit, offen))
            offen = e
        elif e.art == art_aus and offen is not None:
            fenster.append((offen.zeit, e.zeit, offen))
            offen = None
    if offen is not None:
        fenster.append((offen.zeit, ende, offen))
    return fenster


def _client_spalten(
    geschichte: list[dict[str, Any]], clients: list[str]
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Each client's column: its own, except a client of the final operations (a process from
    10,000 on, ``Clients.zusatz``), which shares the column of the client that worked with the
    same node during the load (that one is done by then). Also: per column, the clients of
    the final operations it shows (named under its header)."""
    knoten_von: dict[str, Any] = {}
    schluss: set[str] = set()
    for e in geschichte:
        knoten_von.setdefault(e["client"], e.get("node"))
        if e["process"] >= 10_000:
            schluss.add(e["client"])
    bei: dict[Any, str] = {}
    for c in clients:
        if c not in schluss:
            bei.setdefault(knoten_von[c], c)
    spalte_von = {c: bei.get(knoten_von[c], c) if c in schluss else c for c in clients}
    spaeter: dict[str, list[str]] = {}
    for c in clients:
        if spalte_von[c] != c:
            spaeter.setdefault(spalte_von[c], []).append(c)
    return spalte_von, spaeter


def _seiten_text(text: str, zeichen: int) -> str:
    """A partition's label within ``zeichen`` characters: whole if it fits, else the smaller
    side named and the other counted (``Netz geteilt: n4 | 8 weitere Knoten``)."""
    if len(text) <= zeichen:
        return text
    kopf, _, seiten = text.partition(": ")
    teile = seiten.split(" | ")
    if len(teile) == 2:
        klein, gross = sorted(teile, key=len)
        kurz_ = f"{kopf}: {klein} | {len(gross.split())} weitere Knoten"
        if len(kurz_) <= zeichen:
            return kurz_
    return kuerze(text, zeichen)


def auswahl(sendungen: list[Any]) -> list[Any]:
    """At most ``MAX_NACHRICHTEN`` messages to draw: every lost one first (up to half), the
    rest spread evenly over the run, so a picture of a busy run still shows all of it."""
    if len(sendungen) <= MAX_NACHRICHTEN:
        return sendungen
    verloren = [s for s in sendungen if _verloren(s)][: MAX_NACHRICHTEN // 2]
    uebrig = [s for s in sendungen if not _verloren(s)]
    platz = MAX_NACHRICHTEN - len(verloren)
    schritt = len(uebrig) / platz
    auswahl = [uebrig[int(i * schritt)] for i in range(platz)] if uebrig else []
    return sorted([*verloren, *auswahl], key=lambda s: s.nummer)


def _verloren(sendung: Any) -> bool:
    """Lost (in the network, at a partition, at a crashed receiver), not merely on the way
    when the run ended (a run stopped at its event limit leaves many on the way)."""
    return bool(sendung.schicksal) and sendung.schicksal != ZUGESTELLT


def nachrichten(lauf: Lauf) -> list[Sendung]:
    """The run's messages the picture is about (not the setup's, from ``c0``); it draws at
    most ``MAX_NACHRICHTEN`` of them (``_auswahl``)."""
    return [
        s for s in lauf.cluster.sendungen if s.nachricht.src != "c0" and s.nachricht.dest != "c0"
    ]


def raumzeit(lauf: Lauf, zeugen: Iterable[int] = (), titel: str = "") -> Bild:
    """Das Bild von ``lauf``; ``zeugen``: Indizes des Verlaufs, die hervorgehoben werden."""
    cluster = lauf.cluster
    hervor = set(zeugen)
    clients = sorted({e["client"] for e in lauf.geschichte}, key=lambda c: int(c[1:]))
    spalte_von, spaeter = _client_spalten(lauf.geschichte, clients)
    # Services the nodes asked (lin-kv, lease, ...): columns of their own, left of the nodes.
    benutzt = {n for s in cluster.sendungen for n in (s.nachricht.src, s.nachricht.dest)}
    dienste = [d for d in lauf.last.dienste if d in benutzt]
    spalten = [*dienste, *cluster.ids, *dict.fromkeys(spalte_von[c] for c in clients)]
    x: dict[str, int] = {}
    rechts = LINKS
    for name in spalten:
        weite = DIENST_SPALTE if name in dienste else SPALTE
        x[name] = rechts + weite // 2
        rechts += weite
    for c in clients:  # a final operation's client is drawn in the column it shares
        x[c] = x[spalte_von[c]]
    ende = max([cluster.zeit.now, *(e["time"] for e in lauf.geschichte)])

    zeiten = [0, ende, *(e["time"] for e in lauf.geschichte), *(e.zeit for e in cluster.ereignisse)]
    for s in cluster.sendungen:
        zeiten += [s.gesendet, s.ankunft if s.ankunft is not None else s.gesendet + 2]
    y = _Achse(zeiten)
    # A shortened quiet stretch is labelled right of the last column, in a margin of its own
    # as wide as its longest label (about 5.2 pixels a character at size 9).
    luecken_texte = [f"⋯ {b - a} Ticks ohne Ereignis" for a, b in y.luecken]
    rand = max((len(t) for t in luecken_texte), default=0) * 26 // 5 + 12 if y.luecken else 0
    breite = rechts + 8 + max(rand, RAND_LUECKE if y.luecken else 0)
    hoehe = y(ende) + 24
    zwischen = nachrichten(lauf)
    gezeigt = auswahl(zwischen)
    verloren = sum(1 for s in zwischen if _verloren(s))
    unterwegs = sum(1 for s in zwischen if not s.schicksal)
    teilungen = _fenster(cluster.ereignisse, "teilung", "heilung", ende)
    operationen = _operationen(lauf.geschichte)
    abstuerze = sum(1 for e in cluster.ereignisse if e.art == "absturz")
    pausen = sum(1 for e in cluster.ereignisse if e.art == "pause")
    beschreibung = (
        f"{len(cluster.ids)} Knoten, {anzahl(len(clients), 'Client', 'Clients')}, "
        f"t=0 bis t={ende}: {anzahl(len(zwischen), 'Nachricht', 'Nachrichten')}, "
        f"davon {verloren} verloren"
        f"{f' und {unterwegs} noch unterwegs, als der Lauf endete' if unterwegs else ''}; "
        f"{anzahl(len(operationen), 'Operation', 'Operationen')}; "
        f"{anzahl(len(teilungen), 'Netzpartition', 'Netzpartitionen')}, "
        f"{anzahl(abstuerze, 'Absturz', 'Abstürze')}, {anzahl(pausen, 'Pause', 'Pausen')}"
    )
    verluste = sum(1 for e in cluster.ereignisse if e.art == "verlust")
    if verluste:
        beschreibung += f", {verluste}-mal verlorene Antworten eines Dienstes"
    gezielt = sum(
        1
        for e in cluster.ereignisse
        if e.anlass and e.art in ("teilung", "absturz", "pause", "verlust")
    )
    beschreibung += f", davon {gezielt} gezielt." if gezielt else "."
    z = Zeichnung(breite, hoehe, titel or f"Raum-Zeit-Bild des Laufs {lauf.kennung}", beschreibung)
    knoten_links = x[cluster.ids[0]] - SPALTE // 2
    knoten_rechts = x[cluster.ids[-1]] + SPALTE // 2 - 4
    for von, bis, e in teilungen:  # partitions cut nodes only, never a service
        z.rechteck(
            knoten_links + 2,
            y(von),
            knoten_rechts - knoten_links - 2,
            max(2, y(bis) - y(von)),
            fuellung="cell",
            rand="warn",
            gestrichelt=True,
            rund=2,
        )
        text = _seiten_text(e.text.split(" (gezielt:")[0], (knoten_rechts - knoten_links) * 5 // 28)
        z.text(knoten_links + 6, y(von) + 11, text, groesse=10, farbe_name="warn")
        if e.anlass in ANLASS:
            z.text(
                knoten_links + 6,
                y(von) + 22,
                f"gezielt: {ANLASS[e.anlass][0]}",
                groesse=9,
                farbe_name="warn",
            )
    for name in spalten:
        z.text(x[name], OBEN, name, anker="middle", fett=True, mono=True)
        if spaeter.get(name):  # the clients of the final operations drawn in this column
            dazu = kuerze(" ".join(spaeter[name]), 9)
            z.text(x[name], OBEN + 11, dazu, anker="middle", groesse=8, farbe_name="muted")
        z.linie(x[name], OBEN + 6, x[name], y(ende), farbe_name="line")
    # The moments of the operations the verdict names come first (its sentences cite them),
    # then t=0, the ends of shortened stretches and every tenth tick, where there is room.
    zeugen_zeiten = [
        e["time"]
        for paar in operationen
        if any(e is not None and e["index"] in hervor for e in paar)
        for e in paar
        if e is not None
    ]
    beschriftet: list[int] = []
    for t in dict.fromkeys(
        [*sorted(set(zeugen_zeiten)), 0, *(b for _, b in y.luecken), *range(0, ende + 1, 10)]
    ):
        if any(a < t < b for a, b in y.luecken) or any(abs(y(t) - v) < 14 for v in beschriftet):
            continue
        z.text(LINKS - 6, y(t) + 4, f"t={t}", groesse=10, anker="end", farbe_name="muted")
        beschriftet.append(y(t))
    for (a, b), luecke in zip(y.luecken, luecken_texte, strict=True):
        mitte = (y(a) + y(b)) // 2
        z.text(
            breite - 6,
            mitte + 4,
            luecke,
            groesse=9,
            anker="end",
            farbe_name="muted",
        )
    for knoten in cluster.ids:
        eigene = [e for e in cluster.ereignisse if knoten in e.knoten]
        for von, bis, e in _fenster(eigene, "absturz", "neustart", ende):
            z.linie(
                x[knoten], y(von), x[knoten], y(bis), farbe_name="warn", gestrichelt=True, dicke=2
            )
            z.text(
                x[knoten], y(von) + 5, "✕", anker="middle", groesse=14, farbe_name="warn", fett=True
            )
            if e.anlass in ANLASS:
                wort = f"gezielt: {ANLASS[e.anlass][0]}"
                z.text(x[knoten] + 8, y(von) + 14, wort, groesse=9, farbe_name="warn")
        for von, bis, e in _fenster(eigene, "pause", "weiter", ende):
            z.linie(x[knoten], y(von), x[knoten], y(bis), farbe_name="muted", dicke=5)
            wort = f"Pause (gezielt: {ANLASS[e.anlass][0]})" if e.anlass in ANLASS else "Pause"
            z.text(x[knoten] + 5, y(von) + 10, wort, groesse=9, farbe_name="muted")
    farben = {"ok": "ok", "fail": "muted", "info": "next"}
    beschriftungen: list[tuple[int, int]] = []  # (x, y) of the witnesses' labels so far
    for start, schluss in operationen:
        name = start["client"]
        bis = schluss["time"] if schluss else ende
        typ = schluss["type"] if schluss else "info"
        zeuge = start["index"] in hervor or (schluss is not None and schluss["index"] in hervor)
        oben = y(start["time"]) - 2
        z.rechteck(
            x[name] - 5,
            oben,
            10,
            max(MIN_KASTEN, y(bis) + 2 - oben),
            fuellung="bg",
            rand="warn" if zeuge else farben[typ],
            rund=2,
        )
        if zeuge:
            wert = schluss["value"] if schluss else start["value"]
            unten = oben + 9
            # Witnesses of the same moment on neighbouring clients: one label below the other.
            while any(abs(x[name] - bx) < 90 and abs(unten - by) < 10 for bx, by in beschriftungen):
                unten += 10
            beschriftungen.append((x[name], unten))
            z.text(
                x[name] - 8,
                unten,
                kuerze(f"{start['f']} {wert}", 18),
                groesse=9,
                anker="end",
                farbe_name="warn",
            )
    # Messages over the boxes: a reply's arrowhead ends on its client's box.
    sofort: dict[int, int] = {}  # messages taking no time, per tick: drawn one below the other
    for s in gezeigt:
        n = s.nachricht
        if n.src not in x or n.dest not in x:
            continue
        ankunft = s.ankunft if s.ankunft is not None else s.gesendet + 2
        x1, y1, x2, y2 = x[n.src], y(s.gesendet), x[n.dest], y(ankunft)
        if ankunft == s.gesendet:  # a client's request and the reply in the same tick
            stufe = min(sofort.get(s.gesendet, 0), 2)
            sofort[s.gesendet] = stufe + 1
            y1 = y2 = y1 + STUFE * stufe
        with z.gruppe("nachricht", sendung_text(s)):
            if s.schicksal == ZUGESTELLT:
                z.linie(x1, y1, x2, y2, farbe_name="accent", dicke=BREIT, unsichtbar=True)
                z.linie(x1, y1, x2, y2, farbe_name="accent")
                richtung = 1 if x2 >= x1 else -1
                z.polylinie(
                    [(x2 - 6 * richtung, y2 - 3), (x2, y2), (x2 - 6 * richtung, y2 + 3)],
                    farbe_name="accent",
                    dicke=1,
                )
            else:
                mitte_x, mitte_y = (x1 + x2) // 2, (y1 + y2) // 2
                z.linie(x1, y1, mitte_x, mitte_y, farbe_name="warn", dicke=BREIT, unsichtbar=True)
                z.linie(x1, y1, mitte_x, mitte_y, farbe_name="warn", gestrichelt=True)
                z.text(mitte_x, mitte_y + 4, "✕", anker="middle", groesse=11, farbe_name="warn")
    if len(zwischen) > len(gezeigt):
        z.text(
            LINKS,
            hoehe - 6,
            f"Gezeigt: {len(gezeigt)} von {len(zwischen)} Nachrichten, über den ganzen Lauf "
            "verteilt, jede verlorene zuerst",
            groesse=10,
            farbe_name="muted",
        )
    return Bild(z.svg(), z.titel)
