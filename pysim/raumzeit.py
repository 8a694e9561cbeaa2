"""Das eine Raum-Zeit-Bild für jede Simulation mit Knoten und Nachrichten.

Ein ``Raumzeit`` beschreibt, was zu sehen ist; ``zeichne`` macht daraus ein ``Bild``. Die
Uhren (``pysim.uhren``), die CRDTs (``pysim.crdt``) und die Läufe des Clusters
(``pysim.cluster``) bauen jeweils ein ``Raumzeit`` und zeichnen es hiermit.

- Jede ``Bahn`` (ein Knoten, ein Client, ein Dienst) ist eine senkrechte Linie, die Zeit läuft
  nach unten. Links steht sie als ``t=…``.
- Die Achse: ``achse="zeilen"`` legt die Ereignisse in Zeilen (gleiche Zeit, gleiche Zeile, außer
  die Bahn ist dort schon belegt; der Abstand zweier Zeilen sagt nichts über die Dauer);
  ``achse="ticks"`` misst die Zeit in Ticks, lange ruhige Strecken verkürzt und beschriftet.
- ``Ereignis``: ein Punkt auf einer Bahn mit seinen Textzeilen daneben (hell: lokal, blau:
  senden, blau umrandet: empfangen/merge, rot umrandet: verworfen); ``markiert`` umringt ihn.
- ``Pfeil``: eine Nachricht vom Senden zur Ankunft. ``zugestellt`` durchgezogen,
  ``zurueckgehalten`` gestrichelt (kausale Zustellung), ``verworfen`` rot gestrichelt bis zum
  Empfänger (an einer Netzpartition), ``verloren`` rot gestrichelt bis zur Mitte mit ✕. Mit
  ``titel`` ist er eine Gruppe ``<g class="nachricht">`` mit diesem ``<title>`` (der Zeiger zeigt
  ihn, wie Maelstroms ``messages.svg``).
- ``Fenster``: eine Störung über eine Zeitspanne hinter den Bahnen (eine Netzpartition);
  ``Marke``: ein Augenblick quer über alle Bahnen (Beginn oder Ende einer Netzpartition);
  ``Abschnitt``: ein Stück einer Bahn (ein Absturz bis zum Neustart, eine Pause).
- ``Operation``: ein Kasten auf der Bahn eines Clients vom Aufruf bis zur Antwort (grün ``ok``,
  grau ``fail``, orange ``info``); ein ``zeuge`` rot umrandet mit ``text``. ``punkt``: der Tick,
  zu dem die Operation in der gefundenen Reihenfolge wirkte (ihr Linearisierungspunkt), als
  Querstrich mit einem Quadrat über dem Kasten, wie Porcupines Visualisierung ihn zeigt; die Punkte
  eines Schlüssels sind der Reihe nach verbunden.
- ``zustand``: ein Feld je Bahn unter den Bahnen, aus ``Bahn → Feld → Wert`` (etwa der Zustand
  jedes Knotens); ein Feld ohne Namen zeigt nur seinen Wert.
- Darunter die ``legende`` und die ``hinweise`` (was fehlt, was gekürzt ist).

Was das Bild an Text enthält (Titel, Beschreibung, Beschriftungen), kommt aus dem Modell, in
fester Reihenfolge: So sieht ein Screenreader (und der Vergleich der Ausgaben) dasselbe, wie
auch immer das Bild gezeichnet ist. Gleiches Modell, gleiches Bild: nur ganze Zahlen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import sqrt

from .svg import Bild, Eintrag, Legende, Zeichnung, textbreite

__all__ = [
    "Abschnitt",
    "Bahn",
    "Ereignis",
    "Fenster",
    "Marke",
    "Operation",
    "Pfeil",
    "Raumzeit",
    "zeichne",
]

#: Left of the first lane: the time column.
LINKS = 46
PUNKT = 10
#: Height of one line of an event's label (11 px, monospace).
ZEILE_TEXT = 13
#: Ticks axis: pixels a tick, and a quiet stretch longer than LUECKE ticks drawn short.
PRO_TICK = 6
LUECKE = 8
#: Pixels between messages that take no time and are sent in the same tick (request, reply).
STUFE = 3
#: The smallest height of an operation's box (one that ends in the tick it began).
MIN_KASTEN = 8
#: Width of the invisible line under a message's arrow: where the pointer shows its text.
BREIT = 7
#: Width a panel's column needs to stand under its lane; narrower lanes get one row each.
PANEL_SPALTE = 90


@dataclass(frozen=True)
class Bahn:
    """Eine senkrechte Linie: ein Knoten, ein Client, ein Dienst. ``breite``: die Breite ihrer
    Spalte (mindestens); ``unter``: kleiner Text unter dem Namen."""

    name: str
    breite: int = 46
    unter: str = ""


@dataclass(frozen=True)
class Ereignis:
    """Ein Punkt auf der Bahn ``bahn`` zur Zeit ``zeit`` mit ``texte`` daneben."""

    bahn: str
    zeit: int
    art: str = "lokal"  # lokal, senden, empfangen, merge, verworfen
    texte: tuple[str, ...] = ()
    markiert: bool = False


@dataclass(frozen=True)
class Marke:
    """Ein Augenblick quer über alle Bahnen, etwa der Beginn einer Netzpartition (Zeilenachse)."""

    zeit: int
    text: str
    farbe: str = "warn"


@dataclass(frozen=True)
class Pfeil:
    """Eine Nachricht von ``von`` (Bahn) nach ``nach``. Auf der Tick-Achse zählen ``gesendet``
    und ``ankunft`` (``None``: unterwegs); auf der Zeilenachse die Ereignisse ``von_ereignis``
    und ``nach_ereignis`` (Indizes in ``Raumzeit.ereignisse``)."""

    von: str
    nach: str
    gesendet: int = 0
    ankunft: int | None = None
    schicksal: str = "zugestellt"  # zugestellt, zurueckgehalten, verworfen, verloren
    titel: str = ""
    von_ereignis: int | None = None
    nach_ereignis: int | None = None


@dataclass(frozen=True)
class Fenster:
    """Eine Störung von ``von`` bis ``bis`` hinter den Bahnen ``bahnen`` (die erste bis die
    letzte), beschriftet mit ``texte``."""

    von: int
    bis: int
    bahnen: tuple[str, ...]
    texte: tuple[str, ...] = ()


@dataclass(frozen=True)
class Abschnitt:
    """Ein Stück der Bahn ``bahn``: ``absturz`` (✕, gestrichelt bis zum Neustart) oder
    ``pause`` (dick und grau), mit einem ``wort`` daneben."""

    bahn: str
    von: int
    bis: int
    art: str
    wort: str = ""


@dataclass(frozen=True)
class Operation:
    """Eine Operation eines Clients auf seiner Bahn, von ``von`` bis ``bis`` (Ticks)."""

    bahn: str
    von: int
    bis: int
    typ: str  # ok, fail, info
    zeuge: bool = False
    text: str = ""
    #: The tick at which it took effect in the linearization found (None: none or not judged).
    punkt: int | None = None
    #: Which register its point belongs to (points of one key are joined in their order).
    schluessel: str = ""


@dataclass(frozen=True)
class Raumzeit:
    """Was ein Raum-Zeit-Bild zeigt (siehe Modul)."""

    titel: str
    bahnen: tuple[Bahn, ...]
    beschreibung: str = ""
    achse: str = "zeilen"  # zeilen, ticks
    ereignisse: tuple[Ereignis | Marke, ...] = ()
    pfeile: tuple[Pfeil, ...] = ()
    fenster: tuple[Fenster, ...] = ()
    abschnitte: tuple[Abschnitt, ...] = ()
    operationen: tuple[Operation, ...] = ()
    #: Ticks axis: the last tick, and ticks labelled first where there is room (a verdict's).
    ende: int = 0
    zeiten_zuerst: tuple[int, ...] = ()
    #: Ticks axis: further moments that count as activity (a quiet stretch is not cut there).
    zeiten: tuple[int, ...] = ()
    #: The caption over the time column (``echt``, ``Zeit``).
    zeitkopf: str = ""
    #: Rows axis: label every row with its time (else only where the time changes).
    jede_zeile: bool = False
    #: Names drawn in another lane's column (a later client in the column of an earlier one).
    aliase: Mapping[str, str] | None = None
    #: Rows axis: the order in which the events are drawn (indices; default: as listed).
    reihenfolge: tuple[int, ...] = ()
    #: Lane -> field -> value, drawn under the lanes; ``zustand_titel`` over it.
    zustand: Mapping[str, Mapping[str, object]] | None = None
    zustand_titel: str = ""
    zustand_farbe: str = "fg"
    legende: tuple[Eintrag, ...] = ()
    hinweise: tuple[str, ...] = ()


_STIL: dict[str, tuple[str, str]] = {
    "lokal": ("cell", "fg"),
    "senden": ("accent", "accent"),
    "empfangen": ("read", "accent"),
    "merge": ("read", "accent"),
    "verworfen": ("bg", "warn"),
}


class _Ticks:
    """Time to y on the ticks axis: PRO_TICK pixels a tick, but a quiet stretch longer than
    LUECKE takes only LUECKE ticks' room (the picture says how long it was)."""

    def __init__(self, zeiten: Iterable[int], oben: int) -> None:
        punkte = sorted(set(zeiten))
        self.oben = oben
        #: (from, to) of every quiet stretch that is drawn short.
        self.luecken = [(a, b) for a, b in pairwise(punkte) if b - a > LUECKE]

    def _weg(self, t: int) -> int:
        return sum(min(max(0, t - a - LUECKE), b - a - LUECKE) for a, b in self.luecken if t > a)

    def __call__(self, t: int) -> int:
        return self.oben + 12 + (t - self._weg(t)) * PRO_TICK


def _zeilen(eintraege: Sequence[Ereignis | Marke]) -> list[int]:
    """The row of each entry (in time order, then list order): same time, same row, unless its
    lane already has an entry there; a mark has a row of its own."""
    reihe = sorted(range(len(eintraege)), key=lambda i: (eintraege[i].zeit, i))
    zeile_von = [0] * len(eintraege)
    zeile, zeit, belegt, marke = -1, None, set[str](), False
    for i in reihe:
        e = eintraege[i]
        ist_marke = isinstance(e, Marke)
        bahn = "" if isinstance(e, Marke) else e.bahn
        if zeile < 0 or e.zeit != zeit or ist_marke or marke or bahn in belegt:
            zeile, zeit, belegt = zeile + 1, e.zeit, set()
        belegt.add(bahn)
        marke = ist_marke
        zeile_von[i] = zeile
    return zeile_von


def _spitze(z: Zeichnung, x1: int, y1: int, x2: int, y2: int, farbe: str) -> None:
    """An arrowhead at (x2, y2); only a square root and arithmetic, so every Python agrees."""
    dx, dy = x2 - x1, y2 - y1
    laenge = sqrt(dx * dx + dy * dy) or 1.0
    ux, uy = dx / laenge, dy / laenge
    bx, by = x2 - 8 * ux, y2 - 8 * uy
    z.polylinie(
        [
            (round(bx - 4 * uy), round(by + 4 * ux)),
            (x2, y2),
            (round(bx + 4 * uy), round(by - 4 * ux)),
        ],
        farbe_name=farbe,
        dicke=2 if farbe != "accent" else 1,
    )


def _pfeil(z: Zeichnung, p: Pfeil, x1: int, y1: int, x2: int, y2: int) -> None:
    if p.schicksal == "verloren":
        mx, my = (x1 + x2) // 2, (y1 + y2) // 2
        z.linie(x1, y1, mx, my, farbe_name="warn", dicke=BREIT, unsichtbar=True)
        z.linie(x1, y1, mx, my, farbe_name="warn", gestrichelt=True, dicke=1)
        z.text(mx, my + 4, "✕", anker="middle", groesse=11, farbe_name="warn")
        return
    farbe = "warn" if p.schicksal == "verworfen" else "accent"
    gestrichelt = p.schicksal in ("verworfen", "zurueckgehalten")
    z.linie(x1, y1, x2, y2, farbe_name=farbe, dicke=BREIT, unsichtbar=True)
    z.linie(x1, y1, x2, y2, farbe_name=farbe, gestrichelt=gestrichelt, dicke=1 if p.titel else 2)
    _spitze(z, x1, y1, x2, y2, farbe)


def _umbrechen(text: str, zeichen: int) -> list[str]:
    """Splits a value into lines of at most ``zeichen`` characters, after commas if it can."""
    zeilen: list[str] = []
    rest = text
    while len(rest) > zeichen:
        schnitt = rest.rfind(",", 0, zeichen)
        schnitt = schnitt + 1 if schnitt > 0 else zeichen
        zeilen.append(rest[:schnitt])
        rest = rest[schnitt:]
    zeilen.append(rest)
    return zeilen


def _wert(wert: object) -> str:
    return wert if isinstance(wert, str) else repr(wert)


def _zustand_zeilen(felder: Mapping[str, object], zeichen: int) -> list[str]:
    """A lane's panel: ``feld: wert`` per field (only the value for a field without a name),
    wrapped to ``zeichen`` characters."""
    zeilen: list[str] = []
    for name, wert in felder.items():
        text = _wert(wert) if not name else f"{name}: {_wert(wert)}"
        zeilen += _umbrechen(text, max(4, zeichen))
    return zeilen


def zeichne(r: Raumzeit) -> Bild:
    """Das Bild von ``r`` (siehe Modul)."""
    return _Zeichner(r).bild()


class _Zeichner:
    """Lays out and draws one ``Raumzeit``. Texts go out in one fixed order: windows, lane
    heads, time column, lane sections, operations, arrows, events, panel, legend, hints."""

    def __init__(self, r: Raumzeit) -> None:
        self.r = r
        self.zeilen_modus = r.achse == "zeilen"
        self.links = LINKS
        self.oben = 40 if self.zeilen_modus else 34
        self.x: dict[str, int] = {}
        self._lege_spalten()

    # --- layout -------------------------------------------------------------------------------

    def _lege_spalten(self) -> None:
        r = self.r
        if self.zeilen_modus:
            # One width for every lane: the widest head or label decides.
            ereignisse = [e for e in r.ereignisse if isinstance(e, Ereignis)]
            weiten = [textbreite(t, 11, mono=True) for e in ereignisse for t in e.texte]
            spalte = max(
                [
                    *(b.breite for b in r.bahnen),
                    *(textbreite(b.name, 13) + 16 for b in r.bahnen),
                    *(w + PUNKT + 14 for w in weiten),
                ],
                default=96,
            )
            self.spalte = {b.name: spalte for b in r.bahnen}
        else:
            self.spalte = {b.name: b.breite for b in r.bahnen}
        rechts = self.links
        for b in r.bahnen:
            if b.name not in self.x:
                # Rows: the point near the column's left, its label right of it; ticks: centred.
                mitte = 10 if self.zeilen_modus else self.spalte[b.name] // 2
                self.x[b.name] = rechts + mitte
                rechts += self.spalte[b.name]
        self.rechts = rechts
        for name, bahn in (r.aliase or {}).items():
            self.x[name] = self.x[bahn]
            self.spalte[name] = self.spalte[bahn]

    def _zeilen_layout(self) -> tuple[list[int], list[int], int]:
        """Rows axis: each entry's y, each row's top, and the y below the last row."""
        r = self.r
        zeile_von = _zeilen(r.ereignisse)
        zahl = max(zeile_von, default=-1) + 1
        texte = max((len(e.texte) for e in r.ereignisse if isinstance(e, Ereignis)), default=1)
        hoch = max(2, texte) * ZEILE_TEXT + 12
        ist_marke = [False] * zahl
        for e, z in zip(r.ereignisse, zeile_von, strict=True):
            ist_marke[z] = isinstance(e, Marke)
        oben: list[int] = []
        y = self.oben
        for z in range(zahl):
            oben.append(y)
            y += 24 if ist_marke[z] else hoch
        return [oben[z] + 10 for z in zeile_von], oben, y + 6

    # --- drawing -------------------------------------------------------------------------------

    def bild(self) -> Bild:
        r = self.r
        zeilen_oben: list[int] = []
        ys: list[int] = []
        if self.zeilen_modus:
            ys, zeilen_oben, unten = self._zeilen_layout()
            ticks = None
        else:
            zeiten = [0, r.ende, *r.zeiten]
            for o in r.operationen:
                zeiten += [o.von, o.bis]
            for p in r.pfeile:
                zeiten += [p.gesendet, p.ankunft if p.ankunft is not None else p.gesendet + 2]
            for f in r.fenster:
                zeiten += [f.von, f.bis]
            for a in r.abschnitte:
                zeiten += [a.von, a.bis]
            ticks = _Ticks(zeiten, self.oben)
            unten = ticks(r.ende)
        luecken = [f"⋯ {b - a} Ticks ohne Ereignis" for a, b in ticks.luecken] if ticks else []
        rand = max((len(t) for t in luecken), default=0) * 26 // 5 + 12 if luecken else 0
        breite = self.rechts + (8 + max(rand, 112) if luecken else 6)

        # The panel and what is below it: their height is known before drawing.
        panel = self._panel_zeilen(breite)
        legende = Legende(tuple(r.legende)) if r.legende else None
        fuss = unten + (16 if self.zeilen_modus else 24)
        if panel is not None:
            fuss += 18 + panel[1] * 14 + 8
        if legende is not None:
            fuss += legende.hoehe(breite, 2) + 2
        fuss += len(r.hinweise) * 16 + (4 if r.hinweise else 0)
        z = Zeichnung(breite, fuss, r.titel, r.beschreibung)

        def y_zeit(t: int) -> int:
            assert ticks is not None
            return ticks(t)

        # Windows behind the lanes.
        for f in r.fenster:
            self._fenster(z, f, y_zeit)
        # Lane heads and lines.
        for b in r.bahnen:
            x = self.x[b.name]
            # Rows: the head starts over the point (its labels run right); ticks: centred.
            z.text(
                x - 5 if self.zeilen_modus else x,
                self.oben - (24 if self.zeilen_modus else 0),
                b.name,
                anker="start" if self.zeilen_modus else "middle",
                fett=True,
                groesse=13 if self.zeilen_modus else 12,
                mono=not self.zeilen_modus,
            )
            if b.unter:
                z.text(x, self.oben + 11, b.unter, anker="middle", groesse=8, farbe_name="muted")
            kopf = self.oben - 16 if self.zeilen_modus else self.oben + 6
            z.linie(x, kopf, x, unten, farbe_name="line")
        # The time column.
        if r.zeitkopf:
            z.text(4, self.oben - 24, r.zeitkopf, groesse=10, farbe_name="muted")
        if self.zeilen_modus:
            self._zeitspalte_zeilen(z, ys, zeilen_oben, breite)
        else:
            assert ticks is not None
            self._zeitspalte_ticks(z, ticks, luecken, breite)
        # Sections of lanes, operations, arrows, events.
        for a in r.abschnitte:
            self._abschnitt(z, a, y_zeit)
        if r.operationen:
            self._operationen(z, y_zeit)
        self._pfeile(z, ys, y_zeit)
        if self.zeilen_modus:
            self._ereignisse(z, ys)
        # Below the lanes: panel, legend, hints.
        y = unten + (16 if self.zeilen_modus else 24)
        if panel is not None:
            y = self._zeichne_panel(z, panel[0], y)
        if legende is not None:
            y = z.legende(legende, y - 6, rand=2) + 2
        for hinweis in r.hinweise:
            z.text(4, y + 4, hinweis, groesse=10, farbe_name="muted")
            y += 16
        return Bild(z.svg(), z.titel)

    def _links_von(self, bahn: str) -> int:
        """The left edge of a lane's column."""
        return self.x[bahn] - (10 if self.zeilen_modus else self.spalte[bahn] // 2)

    def _fenster(self, z: Zeichnung, f: Fenster, y: Callable[[int], int]) -> None:
        links = min(self._links_von(b) for b in f.bahnen)
        rechts = max(self._links_von(b) + self.spalte[b] for b in f.bahnen) - 4
        z.rechteck(
            links + 2,
            y(f.von),
            rechts - links - 2,
            max(2, y(f.bis) - y(f.von)),
            fuellung="cell",
            rand="warn",
            gestrichelt=True,
            rund=2,
        )
        for i, text in enumerate(f.texte):
            z.text(links + 6, y(f.von) + 11 + 11 * i, text, groesse=10 - i, farbe_name="warn")

    def _zeitspalte_zeilen(
        self, z: Zeichnung, ys: list[int], zeilen_oben: list[int], breite: int
    ) -> None:
        r = self.r
        erste: dict[int, Ereignis | Marke] = {}
        zeile_von = _zeilen(r.ereignisse)
        for e, zeile in zip(r.ereignisse, zeile_von, strict=True):
            erste.setdefault(zeile, e)
        letzte: int | None = None
        for zeile in sorted(erste):
            e = erste[zeile]
            oben = zeilen_oben[zeile]
            if r.jede_zeile or e.zeit != letzte:
                z.text(4, oben + 14, f"t={e.zeit}", groesse=10, mono=True, farbe_name="muted")
                letzte = e.zeit
            if isinstance(e, Marke):
                ym = oben + 8
                z.linie(self.links, ym, breite - 4, ym, farbe_name=e.farbe, gestrichelt=True)
                z.rechteck(
                    self.links + 4,
                    ym - 8,
                    textbreite(e.text, 10) + 6,
                    14,
                    fuellung="bg",
                    rand=None,
                )
                z.text(self.links + 7, ym + 3, e.text, groesse=10, farbe_name=e.farbe)

    def _zeitspalte_ticks(self, z: Zeichnung, y: _Ticks, luecken: list[str], breite: int) -> None:
        r = self.r
        beschriftet: list[int] = []
        for t in dict.fromkeys(
            [*r.zeiten_zuerst, 0, *(b for _, b in y.luecken), *range(0, r.ende + 1, 10)]
        ):
            if any(a < t < b for a, b in y.luecken) or any(abs(y(t) - v) < 14 for v in beschriftet):
                continue
            z.text(self.links - 6, y(t) + 4, f"t={t}", groesse=10, anker="end", farbe_name="muted")
            beschriftet.append(y(t))
        for (a, b), text in zip(y.luecken, luecken, strict=True):
            z.text(
                breite - 6, (y(a) + y(b)) // 2 + 4, text, groesse=9, anker="end", farbe_name="muted"
            )

    def _abschnitt(self, z: Zeichnung, a: Abschnitt, y: Callable[[int], int]) -> None:
        x = self.x[a.bahn]
        if a.art == "absturz":
            z.linie(x, y(a.von), x, y(a.bis), farbe_name="warn", gestrichelt=True, dicke=2)
            z.text(x, y(a.von) + 5, "✕", anker="middle", groesse=14, farbe_name="warn", fett=True)
            if a.wort:
                z.text(x + 8, y(a.von) + 14, a.wort, groesse=9, farbe_name="warn")
        else:
            z.linie(x, y(a.von), x, y(a.bis), farbe_name="muted", dicke=5)
            if a.wort:
                z.text(x + 5, y(a.von) + 10, a.wort, groesse=9, farbe_name="muted")

    def _operationen(self, z: Zeichnung, y: Callable[[int], int]) -> None:
        farben = {"ok": "ok", "fail": "muted", "info": "next"}
        beschriftungen: list[tuple[int, int]] = []
        for o in self.r.operationen:
            x = self.x[o.bahn]
            oben = y(o.von) - 2
            z.rechteck(
                x - 5,
                oben,
                10,
                max(MIN_KASTEN, y(o.bis) + 2 - oben),
                fuellung="bg",
                rand="warn" if o.zeuge else farben.get(o.typ, "next"),
                rund=2,
            )
            if o.zeuge and o.text:
                unten = oben + 9
                # Witnesses of the same moment on neighbouring clients: one below the other.
                while any(abs(x - bx) < 90 and abs(unten - by) < 10 for bx, by in beschriftungen):
                    unten += 10
                beschriftungen.append((x, unten))
                z.text(x - 8, unten, o.text, groesse=9, anker="end", farbe_name="warn")
        # Linearization points: a bar across the box where the operation took effect, and the
        # points of one key joined in the order found (as Porcupine's visualization draws it).
        punkte: dict[str, list[tuple[int, int, int]]] = {}
        for o in self.r.operationen:
            if o.punkt is not None:
                punkte.setdefault(o.schluessel, []).append((o.punkt, self.x[o.bahn], y(o.punkt)))
        for folge in punkte.values():
            folge.sort()
            if len(folge) > 1:
                z.polylinie(
                    [(x, yp) for _, x, yp in folge],
                    farbe_name="accent",
                    dicke=1,
                    gestrichelt=True,
                    klasse="linearisierung",
                )
            for _, x, yp in folge:
                z.linie(x - 7, yp, x + 7, yp, farbe_name="accent", dicke=2)
                z.rechteck(
                    x - 3,
                    yp - 3,
                    6,
                    6,
                    fuellung="accent",
                    rand="accent",
                    rund=1,
                    klasse="linearisierungspunkt",
                )

    def _pfeile(self, z: Zeichnung, ys: list[int], y: Callable[[int], int]) -> None:
        sofort: dict[int, int] = {}  # messages taking no time, per tick: one below the other
        for p in self.r.pfeile:
            if p.von not in self.x or p.nach not in self.x:
                continue
            x1, x2 = self.x[p.von], self.x[p.nach]
            if self.zeilen_modus:
                if p.von_ereignis is None or p.nach_ereignis is None:
                    continue
                y1, y2 = ys[p.von_ereignis], ys[p.nach_ereignis]
            else:
                ankunft = p.ankunft if p.ankunft is not None else p.gesendet + 2
                y1, y2 = y(p.gesendet), y(ankunft)
                if ankunft == p.gesendet:  # a client's request and the reply in the same tick
                    stufe = min(sofort.get(p.gesendet, 0), 2)
                    sofort[p.gesendet] = stufe + 1
                    y1 = y2 = y1 + STUFE * stufe
            if p.titel:
                with z.gruppe("nachricht", p.titel):
                    _pfeil(z, p, x1, y1, x2, y2)
            else:
                _pfeil(z, p, x1, y1, x2, y2)

    def _ereignisse(self, z: Zeichnung, ys: list[int]) -> None:
        for i in self.r.reihenfolge or range(len(self.r.ereignisse)):
            e, y = self.r.ereignisse[i], ys[i]
            if isinstance(e, Marke):
                continue
            x = self.x[e.bahn]
            fuellung, rand = _STIL.get(e.art, _STIL["lokal"])
            if e.markiert:
                z.rechteck(
                    x - 9, y - 9, 18, 18, fuellung=None, rand="next", rund=9, klasse="markiert"
                )
            z.rechteck(
                x - PUNKT // 2,
                y - PUNKT // 2,
                PUNKT,
                PUNKT,
                fuellung=fuellung,
                rand=rand,
                rund=PUNKT // 2,
                klasse=f"ereignis {e.art}",
            )
            if not e.texte:
                continue
            b = max(textbreite(t, 11, mono=True) for t in e.texte) + 4
            z.rechteck(x + 9, y - 9, b, len(e.texte) * ZEILE_TEXT + 2, fuellung="bg", rand=None)
            for i, text in enumerate(e.texte):
                farbe = "warn" if e.art == "verworfen" else ("fg" if i == 0 else "muted")
                z.text(
                    x + 11, y + 1 + i * ZEILE_TEXT, text, groesse=11, mono=True, farbe_name=farbe
                )

    # --- the panel -------------------------------------------------------------------------------

    def _panel_zeilen(self, breite: int) -> tuple[dict[str, list[str]], int] | None:
        """Each lane's lines of the panel and how many rows they take (lines under wide lanes,
        else one row per lane)."""
        zustand = self.r.zustand
        if not zustand:
            return None
        bekannt = [b.name for b in self.r.bahnen if b.name in zustand]
        unbekannt = [name for name in zustand if name not in self.x]
        self.panel_spalten = all(self.spalte[n] >= PANEL_SPALTE for n in bekannt) and not unbekannt
        zeilen: dict[str, list[str]] = {}
        if self.panel_spalten:
            for name in bekannt:
                zeichen = (self.spalte[name] - PUNKT - 14) * 100 // (11 * 62)
                zeilen[name] = _zustand_zeilen(zustand[name], zeichen)
            return zeilen, max((len(z) for z in zeilen.values()), default=0)
        zeichen = (breite - 8) * 100 // (11 * 62)
        for name in [*bekannt, *unbekannt]:
            felder = zustand[name]
            text = ", ".join(_wert(w) if not f else f"{f}={_wert(w)}" for f, w in felder.items())
            zeilen[name] = _umbrechen(f"{name}: {text}", zeichen)
        return zeilen, sum(len(z) for z in zeilen.values())

    def _zeichne_panel(self, z: Zeichnung, zeilen: dict[str, list[str]], y: int) -> int:
        r = self.r
        if r.zustand_titel:
            z.text(2, y, r.zustand_titel, groesse=11, fett=True, farbe_name=r.zustand_farbe)
        y += 18
        if self.panel_spalten:
            for name, texte in zeilen.items():
                for i, text in enumerate(texte):
                    z.text(
                        self._links_von(name) + 4,
                        y + i * 14,
                        text,
                        groesse=11,
                        mono=True,
                        klasse="zustand",
                    )
            y += max((len(t) for t in zeilen.values()), default=0) * 14
        else:
            for texte in zeilen.values():
                for text in texte:
                    z.text(4, y, text, groesse=11, mono=True, klasse="zustand")
                    y += 14
        return y + 8
