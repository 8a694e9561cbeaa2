"""Ein kleiner Baukasten für die SVG-Bilder von pysim.

Alle Bilder (Topic, Gruppe, Zeitleiste der Queue) entstehen hier. Regeln:

- Das Bild skaliert: ``viewBox``, ``width="100%"`` und eine ``max-width`` in der natürlichen Breite.
- Jede Farbe ist eine CSS-Variable mit Ersatzwert, z. B. ``fill:var(--pysim-fg,#1f2937)``. Eine
  Seite im dunklen Design setzt die Variablen um; ohne Variablen gelten die hellen Ersatzwerte,
  und der Hintergrund ``--pysim-bg`` ist dann weiß, also immer lesbar.
- Ein deutscher ``<title>`` und eine ``<desc>``, die den Zustand in Worten sagt (für Screenreader,
  aus dem Zustand des Modells erzeugt), kein Skript, keine externen Verweise, nur Systemschriften.
- Gleicher Zustand, gleiches Bild: nur ganze Zahlen als Koordinaten, feste Reihenfolge.

Die Variablen (Name, Ersatzwert, Bedeutung):

=================  =========  ==================================================
``--pysim-bg``     #ffffff    Hintergrund des Bildes
``--pysim-fg``     #1f2937    Text, Rahmen einer Zelle mit Eintrag
``--pysim-muted``  #6b7280    Nebentext (Schlüssel, Achsen, Hinweise)
``--pysim-line``   #9ca3af    Linien, Rahmen leerer Zellen
``--pysim-cell``   #f3f4f6    Füllung einer Zelle mit Eintrag; „sichtbar“ in der Queue
``--pysim-read``   #bfdbfe    gelesener Teil einer Gruppe
``--pysim-accent`` #2563eb    Marker ▲, „unterwegs“ in der Queue
``--pysim-next``   #b45309    gestrichelte Zelle: hier kommt der nächste Eintrag hin
``--pysim-ok``     #15803d    bestätigt (Ack)
``--pysim-warn``   #b91c1c    Dead Letter Queue
=================  =========  ==================================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

FARBEN: dict[str, str] = {
    "bg": "#ffffff",
    "fg": "#1f2937",
    "muted": "#6b7280",
    "line": "#9ca3af",
    "cell": "#f3f4f6",
    "read": "#bfdbfe",
    "accent": "#2563eb",
    "next": "#b45309",
    "ok": "#15803d",
    "warn": "#b91c1c",
}

SCHRIFT = "system-ui,sans-serif"
MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,monospace"


def farbe(name: str) -> str:
    """``"fg"`` -> ``var(--pysim-fg,#1f2937)``."""
    return f"var(--pysim-{name},{FARBEN[name]})"


#: Zeichen, die in XML 1.0 nicht vorkommen dürfen (Steuerzeichen außer Tab/Zeilenumbruch,
#: einzelne Surrogate, U+FFFE/U+FFFF); ``escape`` ersetzt sie durch U+FFFD.
_NICHT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    """Macht Text sicher für SVG/XML (Inhalt und Attribute)."""
    return (
        _NICHT_XML.sub("\ufffd", text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def textbreite(text: str, groesse: int = 12, mono: bool = False) -> int:
    """Grobe, aber feste Schätzung der Breite eines Textes in Pixeln."""
    faktor = 62 if mono else 58
    return (len(text) * groesse * faktor + 99) // 100


def kuerze(text: str, zeichen: int) -> str:
    """Kürzt zu langen Text vorne ab: ``customer-7`` mit 4 Zeichen -> ``…r-7``."""
    if len(text) <= zeichen:
        return text
    return "…" + text[len(text) - (zeichen - 1) :]


@dataclass(frozen=True)
class Zeitfenster:
    """Der Ausschnitt einer Zeitachse, den ein Bild zeigt: die Ticks ``anfang`` … ``ende``.

    Eine Zeitleiste, die mit der simulierten Zeit wächst, zeigt nur die letzten Ticks
    (``Zeitfenster.letzte``): So bleibt ihre Schrift lesbar und das Bild klein, wie lange die
    Simulation auch läuft. Eine Zeile unter dem Bild (``hinweis``) und ein Satz in der
    ``<desc>`` (``beschreibung``) sagen, dass frühere Zeiten fehlen.
    """

    anfang: int
    ende: int

    @classmethod
    def letzte(cls, ende: int, ticks: int) -> Zeitfenster:
        """Die letzten ``ticks`` Ticks bis ``ende`` (ab 0, solange alles hineinpasst)."""
        return cls(max(0, ende - ticks), ende)

    @property
    def gekuerzt(self) -> bool:
        """Lässt das Fenster frühere Zeiten weg?"""
        return self.anfang > 0

    @property
    def ticks(self) -> int:
        return self.ende - self.anfang

    def vorher(self, von: int, bis: int) -> bool:
        """Liegt das Stück ``von`` … ``bis`` ganz vor dem Fenster?"""
        return self.gekuerzt and von < self.anfang and bis <= self.anfang

    def skala(self, links: int, pro_tick: int) -> Callable[[int], int]:
        """Tick -> x; Zeiten vor dem Fenster an seinem Anfang, danach an seinem Ende."""

        def x(t: int) -> int:
            return links + (min(max(t, self.anfang), self.ende) - self.anfang) * pro_tick

        return x

    def hinweis(self, wo: str) -> str:
        """Die Zeile unter dem Bild; ``wo`` sagt, wo der Leser das Weggelassene findet."""
        return f"Gezeigt ab t={self.anfang}; frühere Zeiten sind weggelassen ({wo})."

    def beschreibung(self, bis: int) -> str:
        """Der Satz für die ``<desc>``, die Zeitleiste reiche bis ``bis`` (leer, solange nichts
        fehlt)."""
        if not self.gekuerzt:
            return ""
        return (
            f" Die Zeitleiste zeigt t={self.anfang} bis t={bis}; frühere Zeiten sind weggelassen."
        )


@dataclass(frozen=True)
class Eintrag:
    """Ein Eintrag der Legende: ein Text, davor ein Muster, wenn ``fuellung`` oder ``rand``.

    ``flach``: ein niedriges Muster (6 px statt 12), wie der Balken eines Ausfalls.
    """

    text: str
    fuellung: str | None = None
    rand: str | None = None
    gestrichelt: bool = False
    farbe_name: str = "fg"
    flach: bool = False

    @property
    def muster(self) -> bool:
        return self.fuellung is not None or self.rand is not None


@dataclass(frozen=True)
class Legende:
    """Die Legende eines Bildes, in allen Bildern gleich gesetzt: Einträge nebeneinander, so
    viele Zeilen, wie die Breite verlangt (ein schmales Bild stapelt sie).

    ``zeilen(breite)`` sagt vorher, wie hoch sie wird (die Höhe des Bildes steht vor dem
    Zeichnen fest); ``Zeichnung.legende`` setzt sie.
    """

    eintraege: tuple[Eintrag, ...]
    groesse: int = 11
    zeilenhoehe: int = 18
    #: Ein Eintrag, der in einer eigenen Zeile beginnt (z. B. Zeichen, die keine Farbe haben).
    umbruch_vor: tuple[int, ...] = ()
    #: Nur Texte, ohne Muster: eine Zeile ist ein Text, die Einträge durch `` · `` getrennt.
    nur_text: bool = False

    ABSTAND = 16  # zwischen zwei Einträgen einer Zeile
    MUSTER = 18  # Breite eines Musters samt Lücke bis zum Text

    TRENNER = " · "

    def _breite(self, e: Eintrag) -> int:
        return (self.MUSTER if e.muster else 0) + textbreite(e.text, self.groesse)

    def _passt(self, zeile: list[Eintrag], e: Eintrag, platz: int) -> bool:
        if self.nur_text:  # measured as the one text the row becomes
            text = self.TRENNER.join([*(x.text for x in zeile), e.text])
            return textbreite(text, self.groesse) <= platz
        belegt = sum(self._breite(x) + self.ABSTAND for x in zeile)
        return belegt + self._breite(e) <= platz

    def zeilen(self, breite: int, rand: int = 12) -> list[list[Eintrag]]:
        """Die Einträge in Zeilen, die zwischen ``rand`` und ``breite - rand`` passen."""
        platz = breite - 2 * rand
        zeilen: list[list[Eintrag]] = []
        for nummer, e in enumerate(self.eintraege):
            if zeilen and nummer not in self.umbruch_vor and self._passt(zeilen[-1], e, platz):
                zeilen[-1].append(e)
            else:
                zeilen.append([e])
        return zeilen

    def hoehe(self, breite: int, rand: int = 12) -> int:
        return len(self.zeilen(breite, rand)) * self.zeilenhoehe


def zeitleisten_fuss_hoehe(legende: Legende, breite: int, fenster: Zeitfenster) -> int:
    """Wie hoch ``Zeichnung.zeitleisten_fuss`` unter der Achse wird."""
    return 30 + legende.hoehe(breite) + 10 + (18 if fenster.gekuerzt else 0)


class Zeichnung:
    """Sammelt Formen und gibt am Ende ein SVG als Text aus."""

    def __init__(self, breite: int, hoehe: int, titel: str, beschreibung: str = "") -> None:
        self.breite = int(breite)
        self.hoehe = int(hoehe)
        self.titel = titel
        #: What the picture shows, in words (``<desc>``, read by screen readers).
        self.beschreibung = beschreibung
        self._teile: list[str] = []

    def rechteck(
        self,
        x: int,
        y: int,
        b: int,
        h: int,
        *,
        fuellung: str | None = "cell",
        rand: str | None = "line",
        gestrichelt: bool = False,
        rund: int = 3,
        klasse: str | None = None,
    ) -> None:
        """Ein Rechteck; ``fuellung``/``rand`` sind Farbnamen aus ``FARBEN`` oder ``None``."""
        stil = [f"fill:{farbe(fuellung)}" if fuellung else "fill:none"]
        if rand:
            stil.append(f"stroke:{farbe(rand)};stroke-width:1")
            if gestrichelt:
                stil.append("stroke-dasharray:4 3")
        kl = f' class="{escape(klasse)}"' if klasse else ""
        self._teile.append(
            f'<rect{kl} x="{int(x)}" y="{int(y)}" width="{int(b)}" height="{int(h)}" '
            f'rx="{int(rund)}" style="{";".join(stil)}"/>'
        )

    def text(
        self,
        x: int,
        y: int,
        inhalt: str,
        *,
        farbe_name: str = "fg",
        groesse: int = 12,
        anker: str = "start",
        mono: bool = False,
        fett: bool = False,
        klasse: str | None = None,
    ) -> None:
        """Ein Text; ``y`` ist die Grundlinie, ``anker`` ist start, middle oder end."""
        stil = (
            f"fill:{farbe(farbe_name)};font-family:{MONO if mono else SCHRIFT};"
            f"font-size:{int(groesse)}px" + (";font-weight:600" if fett else "")
        )
        kl = f' class="{escape(klasse)}"' if klasse else ""
        self._teile.append(
            f'<text{kl} x="{int(x)}" y="{int(y)}" text-anchor="{anker}" style="{stil}">'
            f"{escape(inhalt)}</text>"
        )

    def marke(
        self, x: int, oben: int, zeichen: str, farbe_name: str, klasse: str, groesse: int = 12
    ) -> None:
        """Ein Zeichen (✓, ✗, …) fett und mittig über ``x`` auf einem Balken, der bei ``oben``
        beginnt: was auf einer Zeitleiste in diesem Augenblick geschah."""
        self.text(
            x,
            oben - 2,
            zeichen,
            groesse=groesse,
            anker="middle",
            farbe_name=farbe_name,
            fett=True,
            klasse=klasse,
        )

    def linie(
        self,
        x1: int,
        y1: int,
        x2: int,
        y2: int,
        *,
        farbe_name: str = "line",
        gestrichelt: bool = False,
        dicke: int = 1,
        unsichtbar: bool = False,
    ) -> None:
        """Eine gerade Linie; ``unsichtbar``: nicht zu sehen, aber unter dem Zeiger (eine breite
        Fläche, über der der ``<title>`` ihrer Gruppe erscheint)."""
        stil = f"stroke:{farbe(farbe_name)};stroke-width:{int(dicke)}"
        if gestrichelt:
            stil += ";stroke-dasharray:4 3"
        if unsichtbar:
            stil += ";stroke-opacity:0"
        self._teile.append(
            f'<line x1="{int(x1)}" y1="{int(y1)}" x2="{int(x2)}" y2="{int(y2)}" style="{stil}"/>'
        )

    def polylinie(
        self,
        punkte: list[tuple[int, int]],
        *,
        farbe_name: str = "accent",
        dicke: int = 2,
        gestrichelt: bool = False,
        klasse: str | None = None,
    ) -> None:
        """Ein Linienzug durch ``punkte`` (ganze Zahlen), etwa eine Kurve im Diagramm."""
        stil = f"fill:none;stroke:{farbe(farbe_name)};stroke-width:{int(dicke)}"
        if gestrichelt:
            stil += ";stroke-dasharray:4 3"
        kl = f' class="{escape(klasse)}"' if klasse else ""
        text = " ".join(f"{int(x)},{int(y)}" for x, y in punkte)
        self._teile.append(f'<polyline{kl} points="{text}" style="{stil}"/>')

    @contextmanager
    def gruppe(self, klasse: str, titel: str = "") -> Iterator[None]:
        """Was im ``with`` gezeichnet wird, als eine Gruppe ``<g class="…">``; ``titel``: ihr
        ``<title>``, den ein Browser zeigt, wenn der Zeiger über ihr steht (etwa der Inhalt
        einer Nachricht)."""
        self._teile.append(f'<g class="{escape(klasse)}">')
        if titel:
            self._teile.append(f"<title>{escape(titel)}</title>")
        try:
            yield
        finally:
            self._teile.append("</g>")

    def zeitachse(self, x: Callable[[int], int], unten: int, spanne: int, anfang: int = 0) -> None:
        """Eine Zeitachse ``anfang`` … ``spanne`` bei ``y = unten``; Zahlen mindestens 24 px
        auseinander, an Vielfachen ihres Abstands."""
        pro_tick = x(anfang + 1) - x(anfang)
        abstand = max(24, textbreite(str(spanne), 10) + 6)
        schritt = 1
        while schritt * pro_tick < abstand:
            schritt += 1
        self.linie(x(anfang), unten, x(spanne), unten, farbe_name="line")
        for t in range(-(-anfang // schritt) * schritt, spanne + 1, schritt):
            self.linie(x(t), unten, x(t), unten + 4, farbe_name="line")
            self.text(x(t), unten + 16, str(t), groesse=10, anker="middle", farbe_name="muted")

    def legende(self, legende: Legende, y: int, rand: int = 12) -> int:
        """Setzt ``legende`` ab ``y`` (Oberkante) zwischen den Rändern; gibt das y darunter."""
        for zeile in legende.zeilen(self.breite, rand):
            x = rand
            if legende.nur_text:
                text = legende.TRENNER.join(e.text for e in zeile)
                self.text(x, y + 10, text, groesse=legende.groesse, farbe_name=zeile[0].farbe_name)
                y += legende.zeilenhoehe
                continue
            for e in zeile:
                if e.muster:
                    h = 6 if e.flach else 12
                    self.rechteck(
                        x,
                        y + (3 if e.flach else 0),
                        14,
                        h,
                        fuellung=e.fuellung,
                        rand=e.rand,
                        gestrichelt=e.gestrichelt,
                    )
                    x += legende.MUSTER
                self.text(x, y + 10, e.text, groesse=legende.groesse, farbe_name=e.farbe_name)
                x += textbreite(e.text, legende.groesse) + legende.ABSTAND
            y += legende.zeilenhoehe
        return y

    def zeitleisten_fuss(
        self, x: Callable[[int], int], unten: int, fenster: Zeitfenster, legende: Legende, wo: str
    ) -> None:
        """Der Fuß jeder Zeitleiste: die Achse bei ``unten``, die Legende, und wenn das Fenster
        frühere Zeiten weglässt, der Hinweis dazu (``wo``: wo der Leser sie findet)."""
        self.zeitachse(x, unten, fenster.ende, fenster.anfang)
        y = self.legende(legende, unten + 30)
        if fenster.gekuerzt:
            self.text(
                12, y + 10, fenster.hinweis(wo), groesse=11, farbe_name="muted", klasse="fenster"
            )

    def svg(self) -> str:
        """Das fertige Bild als SVG-Text."""
        kopf = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.breite} {self.hoehe}" '
            f'width="100%" role="img" '
            f'style="max-width:{self.breite}px;height:auto;font-family:{SCHRIFT}">'
        )
        hintergrund = (
            f'<rect x="0" y="0" width="{self.breite}" height="{self.hoehe}" '
            f'style="fill:{farbe("bg")}"/>'
        )
        kopfteile = [kopf, f"<title>{escape(self.titel)}</title>"]
        if self.beschreibung:
            kopfteile.append(f"<desc>{escape(self.beschreibung)}</desc>")
        teile = [*kopfteile, hintergrund, *self._teile, "</svg>"]
        return "\n".join(teile)


def zeitleisten_zeichnung(
    fenster: Zeitfenster,
    legende: Legende,
    titel: str,
    beschreibung: str,
    links: int,
    pro_tick: int,
    rechts: int,
    unten: int,
    *,
    mindestbreite: int = 340,
    titel_y: int = 22,
) -> tuple[Zeichnung, Callable[[int], int]]:
    """Der Rahmen jeder Zeitleiste: eine Zeichnung, so breit wie ``fenster`` mit ``pro_tick``
    zwischen ``links`` und ``rechts`` (mindestens ``mindestbreite``), unter ``unten`` so hoch
    wie ``zeitleisten_fuss``, mit dem Titel oben links; dazu die Skala (Tick -> x)."""
    breite = max(links + fenster.ticks * pro_tick + rechts, mindestbreite)
    z = Zeichnung(
        breite, unten + zeitleisten_fuss_hoehe(legende, breite, fenster), titel, beschreibung
    )
    z.text(12, titel_y, titel, fett=True, groesse=14)
    return z, fenster.skala(links, pro_tick)


class Bild:
    """Ein fertiges Bild. Notebooks und die Konsole zeigen es über ``_repr_svg_``."""

    __slots__ = ("svg", "titel")

    def __init__(self, svg: str, titel: str) -> None:
        self.svg = svg
        self.titel = titel

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"Bild(„{self.titel}“)"
