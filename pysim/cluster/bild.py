"""Das Raum-Zeit-Bild eines Laufs: wer wem wann was schickte, und was dabei schiefging
(gezeichnet von ``pysim.raumzeit``).

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

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..fehler import anzahl
from ..raumzeit import Abschnitt, Bahn, Fenster, Operation, Pfeil, Raumzeit, zeichne
from ..svg import Bild, kuerze
from .cluster import ZUGESTELLT
from .protokoll import sendung_text
from .stoerungen import ANLASS

if TYPE_CHECKING:
    from .cluster import Sendung
    from .lauf import Lauf

SPALTE = 46
#: A service's column: its name (``fence-kv``) is longer than a node's.
DIENST_SPALTE = 72
MAX_NACHRICHTEN = 400


def _operationen(
    verlauf: list[dict[str, Any]],
) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """(invoke, completion or None) per operation, in invoke order."""
    offen: dict[Any, dict[str, Any]] = {}
    paare: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    stelle: dict[int, int] = {}
    for e in verlauf:
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
    verlauf: list[dict[str, Any]], clients: list[str]
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Each client's column: its own, except a client of the final operations (a process from
    10,000 on, ``Clients.zusatz``), which shares the column of the client that worked with the
    same node during the load (that one is done by then). Also: per column, the clients of
    the final operations it shows (named under its header)."""
    knoten_von: dict[str, Any] = {}
    schluss: set[str] = set()
    for e in verlauf:
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


def raumzeit(lauf: Lauf, zeugen: Iterable[int] = (), titel: str = "", **optionen: Any) -> Bild:
    """Das Bild von ``lauf``; ``zeugen``: Indizes des Verlaufs, die hervorgehoben werden;
    ``optionen``: ``punkte`` und ``zustand`` wie bei ``modell``."""
    return zeichne(modell(lauf, zeugen, titel, **optionen))


def modell(
    lauf: Lauf,
    zeugen: Iterable[int] = (),
    titel: str = "",
    *,
    punkte: Mapping[int, int] | None = None,
    zustand: Mapping[str, Mapping[str, object]] | None = None,
) -> Raumzeit:
    """Das Modell des Bildes (``pysim.raumzeit``), ohne es zu zeichnen. ``punkte``: Index des
    Aufrufs einer Operation -> Tick, zu dem sie wirkte (ihr Linearisierungspunkt,
    ``pruefer.linearisierungspunkte``); ``zustand``: je Knoten seine Felder und ihre Werte, unter
    den Spalten (``Lauf.zustaende``; zeigt kein Knoten etwas, fehlt das Feld)."""
    cluster = lauf.cluster
    hervor = set(zeugen)
    clients = sorted({e["client"] for e in lauf.geschichte}, key=lambda c: int(c[1:]))
    spalte_von, spaeter = _client_spalten(lauf.geschichte, clients)
    # Services the nodes asked (lin-kv, lease, ...): columns of their own, left of the nodes.
    benutzt = {n for s in cluster.sendungen for n in (s.nachricht.src, s.nachricht.dest)}
    dienste = [d for d in lauf.last.dienste if d in benutzt]
    spalten = [*dienste, *cluster.ids, *dict.fromkeys(spalte_von[c] for c in clients)]
    bahnen = tuple(
        Bahn(
            name,
            DIENST_SPALTE if name in dienste else SPALTE,
            kuerze(" ".join(spaeter[name]), 9) if spaeter.get(name) else "",
        )
        for name in spalten
    )
    ende = max([cluster.zeit.now, *(e["time"] for e in lauf.geschichte)])
    zeiten = [*(e["time"] for e in lauf.geschichte), *(e.zeit for e in cluster.ereignisse)]
    for s in cluster.sendungen:
        zeiten += [s.gesendet, s.ankunft if s.ankunft is not None else s.gesendet + 2]
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
    # Partitions cut nodes only, never a service.
    zeichen = (len(cluster.ids) * SPALTE - 4) * 5 // 28
    fenster = []
    for von, bis, e in teilungen:
        texte = [_seiten_text(e.text.split(" (gezielt:")[0], zeichen)]
        if e.anlass in ANLASS:
            texte.append(f"gezielt: {ANLASS[e.anlass][0]}")
        fenster.append(Fenster(von, bis, tuple(cluster.ids), tuple(texte)))
    abschnitte = []
    for knoten in cluster.ids:
        eigene = [e for e in cluster.ereignisse if knoten in e.knoten]
        for von, bis, e in _fenster(eigene, "absturz", "neustart", ende):
            wort = f"gezielt: {ANLASS[e.anlass][0]}" if e.anlass in ANLASS else ""
            abschnitte.append(Abschnitt(knoten, von, bis, "absturz", wort))
        for von, bis, e in _fenster(eigene, "pause", "weiter", ende):
            wort = f"Pause (gezielt: {ANLASS[e.anlass][0]})" if e.anlass in ANLASS else "Pause"
            abschnitte.append(Abschnitt(knoten, von, bis, "pause", wort))
    # The moments of the operations the verdict names come first (its sentences cite them).
    zeugen_zeiten = [
        e["time"]
        for paar in operationen
        if any(e is not None and e["index"] in hervor for e in paar)
        for e in paar
        if e is not None
    ]
    kaesten = []
    for start, schluss in operationen:
        zeuge = start["index"] in hervor or (schluss is not None and schluss["index"] in hervor)
        wert = schluss["value"] if schluss else start["value"]
        punkt = None if punkte is None else punkte.get(start["index"])
        kaesten.append(
            Operation(
                start["client"],
                start["time"],
                schluss["time"] if schluss else ende,
                schluss["type"] if schluss else "info",
                zeuge,
                kuerze(f"{start['f']} {wert}", 18) if zeuge else "",
                punkt,
                str(start.get("key", "")),
            )
        )
    pfeile = tuple(
        Pfeil(
            s.nachricht.src,
            s.nachricht.dest,
            s.gesendet,
            s.ankunft,
            "zugestellt" if s.schicksal == ZUGESTELLT else "verloren",
            sendung_text(s),
        )
        for s in gezeigt
    )
    hinweise: tuple[str, ...] = ()
    if len(zwischen) > len(gezeigt):
        hinweise = (
            f"Gezeigt: {len(gezeigt)} von {len(zwischen)} Nachrichten, über den ganzen Lauf "
            "verteilt, jede verlorene zuerst",
        )
    return Raumzeit(
        titel or f"Raum-Zeit-Bild des Laufs {lauf.kennung}",
        bahnen,
        beschreibung,
        achse="ticks",
        pfeile=pfeile,
        fenster=tuple(fenster),
        abschnitte=tuple(abschnitte),
        operationen=tuple(kaesten),
        ende=ende,
        zeiten_zuerst=tuple(sorted(set(zeugen_zeiten))),
        zeiten=tuple(zeiten),
        zustand=zustand if zustand and any(zustand.values()) else None,
        zustand_titel="Zustand der Knoten am Ende (ihr zustand())",
        hinweise=hinweise,
        aliase={c: spalte_von[c] for c in clients if spalte_von[c] != c},
    )
