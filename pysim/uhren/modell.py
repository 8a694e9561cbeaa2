"""Uhren und Ordnung: Knoten mit eigenen Uhren, Nachrichten, Lamport- und Vektoruhren.

Eine ``Welt`` hat eine echte Zeit (``pysim.zeit.Zeit``, in Ticks; lies einen Tick als eine
Millisekunde). Jeder ``Knoten`` hat darin seine eigene Uhr, die vorgeht, nachgeht oder schneller
läuft, und die man stellen kann (wie NTP es tut, auch zurück). Knoten schicken sich Nachrichten
über ein ``FakeNetz`` ohne Verlust, aber mit Verzögerung: Nachrichten überholen sich.

Jeder Knoten führt zu jedem Ereignis (lokal, senden, empfangen) Buch:

- die Anzeige seiner eigenen Uhr (``uhr``), das, was ``Date.now()`` dort liefern würde,
- eine Lamport-Uhr (``lamport``): eine Zahl, die Ursache vor Wirkung ordnet,
- eine Vektoruhr (``vektor``): je Knoten ein Zähler; sie erkennt auch Gleichzeitigkeit.

Die Welt kennt außerdem die Wahrheit: ``vor(a, b)`` sagt, ob ``a`` vor ``b`` geschah
(happened-before nach Lamport), aus dem Verlauf selbst und ohne die Uhren zu fragen. So lässt sich
prüfen, was jede Uhr verspricht.

Mit ``kausal=True`` stellt jeder Knoten eine Nachricht erst zu, wenn er alle Nachrichten an ihn
hat, die vor ihr geschahen (kausale Zustellung); bis dahin hält er sie zurück.

Beispiel::

    welt = Welt(seed=4)
    kasse = welt.knoten("kasse")
    lager = welt.knoten("lager", versatz=-50)
    kasse.sende("lager", "reserviere 7")
    welt.lauf()
    welt.bild()
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..fehler import (
    SimFehler,
    UnbekannterKnoten,
    UngueltigeEingabe,
    aufzaehlung,
    pruefe_ganzzahl,
    pruefe_verzoegerung,
)
from ..netz import FakeNetz
from ..svg import Bild
from ..uebergaenge import Regeltabelle
from ..zeit import AufDerZeit, Zeit
from .bild import raumzeit

#: What ``from pysim.uhren import *`` and the package give (the module's public API).
__all__ = [
    "EMPFANGEN",
    "GLEICH",
    "LOKAL",
    "NACHHER",
    "NEBENLAEUFIG",
    "SENDEN",
    "UEBERGAENGE",
    "UNTERWEGS",
    "VORHER",
    "ZUGESTELLT",
    "ZURUECKGEHALTEN",
    "Ereignis",
    "Knoten",
    "LamportUhr",
    "Nachricht",
    "VektorUhr",
    "Welt",
    "vereinige",
    "vergleiche",
    "zufallswelt",
]


# --- Vergleich zweier Vektoren ---

VORHER = "vorher"
NACHHER = "nachher"
GLEICH = "gleich"
NEBENLAEUFIG = "nebenläufig"


def _pruefe_vektor(v: object, name: str) -> Mapping[str, int]:
    if not isinstance(v, Mapping) or any(
        not isinstance(k, str) or isinstance(z, bool) or not isinstance(z, int) or z < 0
        for k, z in v.items()
    ):
        raise UngueltigeEingabe(
            f"{name} ist ein dict Knoten -> Zähler (ganze Zahlen ab 0), "
            f"z. B. {{'a': 2, 'b': 0}}, nicht {v!r}."
        )
    return v


def vergleiche(v: Mapping[str, int], w: Mapping[str, int]) -> str:
    """Vergleicht zwei Vektoruhren: ``"vorher"``, ``"nachher"``, ``"gleich"`` oder ``"nebenläufig"``.

    ``v`` ist vorher, wenn kein Zähler von ``v`` größer ist als der von ``w`` und einer kleiner.
    Ein fehlender Knoten zählt als 0.
    """
    _pruefe_vektor(v, "Der erste Vektor")
    _pruefe_vektor(w, "Der zweite Vektor")
    knoten = set(v) | set(w)
    kleiner = any(v.get(k, 0) < w.get(k, 0) for k in knoten)
    groesser = any(v.get(k, 0) > w.get(k, 0) for k in knoten)
    if kleiner and groesser:
        return NEBENLAEUFIG
    if kleiner:
        return VORHER
    if groesser:
        return NACHHER
    return GLEICH


def vereinige(*vektoren: Mapping[str, int]) -> dict[str, int]:
    """Je Knoten das Maximum der Zähler (so übernimmt eine Vektoruhr, was sie empfängt)."""
    ergebnis: dict[str, int] = {}
    for i, v in enumerate(vektoren, start=1):
        _pruefe_vektor(v, f"Vektor {i}")
        for k, z in v.items():
            ergebnis[k] = max(ergebnis.get(k, 0), z)
    return ergebnis


# --- Logische Uhren ---


class LamportUhr:
    """Eine Lamport-Uhr: vor jedem Ereignis +1, beim Empfang erst auf das Maximum springen."""

    def __init__(self) -> None:
        self.stand = 0

    def tick(self) -> int:
        """Ein lokales Ereignis oder ein Senden: +1. Gibt den neuen Stand zurück."""
        self.stand += 1
        return self.stand

    def empfange(self, zeitstempel: int) -> int:
        """Ein Empfang: ``max(eigener Stand, Zeitstempel der Nachricht) + 1``."""
        pruefe_ganzzahl(zeitstempel, "Der Lamport-Zeitstempel", 0)
        self.stand = max(self.stand, zeitstempel) + 1
        return self.stand

    def __repr__(self) -> str:
        return f"LamportUhr({self.stand})"


class VektorUhr:
    """Eine Vektoruhr des Knotens ``name``: je Knoten ein Zähler."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._stand: dict[str, int] = {name: 0}

    @property
    def stand(self) -> dict[str, int]:
        """Eine Kopie des Vektors."""
        return dict(self._stand)

    def tick(self) -> dict[str, int]:
        """Ein lokales Ereignis oder ein Senden: der eigene Zähler +1."""
        self._stand[self.name] += 1
        return self.stand

    def empfange(self, vektor: Mapping[str, int]) -> dict[str, int]:
        """Ein Empfang: je Knoten das Maximum, dann der eigene Zähler +1."""
        self._stand = vereinige(self._stand, vektor)
        return self.tick()

    def __repr__(self) -> str:
        return f"VektorUhr({self.name}: {self._stand})"


# --- Ereignisse und Nachrichten ---

LOKAL = "lokal"
SENDEN = "senden"
EMPFANGEN = "empfangen"

UNTERWEGS = "unterwegs"
ZURUECKGEHALTEN = "zurückgehalten"
ZUGESTELLT = "zugestellt"

#: (Zustand einer Nachricht, was geschieht) -> neuer Zustand, geschrieben je Zustand. Was
#: fehlt, ist verboten.
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        UNTERWEGS: {"zustellen": ZUGESTELLT, "zurueckhalten": ZURUECKGEHALTEN},
        ZURUECKGEHALTEN: {"zustellen": ZUGESTELLT},
    }
)


@dataclass(frozen=True, eq=False)
class Ereignis:
    """Ein Ereignis auf einem Knoten, mit allem, was die Uhren dazu sagen."""

    name: str  # z. B. "kasse2": das zweite Ereignis der Kasse
    knoten: str
    art: str  # lokal, senden, empfangen
    text: str
    echt: int  # die echte Zeit (die kennt nur die Simulation)
    uhr: int  # was die Uhr des Knotens anzeigte
    lamport: int
    vektor: dict[str, int] = field(repr=False)
    nachricht: int | None = None
    nummer: int = 0  # Reihenfolge in der ganzen Welt (für Bild und Tabelle)

    def __repr__(self) -> str:
        v = ", ".join(f"{k}:{z}" for k, z in self.vektor.items())
        return (
            f"Ereignis({self.name} {self.art} „{self.text}“, echt t={self.echt}, "
            f"Uhr {self.uhr}, L={self.lamport}, V={{{v}}})"
        )


@dataclass(eq=False)
class Nachricht:
    """Eine Nachricht zwischen zwei Knoten und was aus ihr wurde."""

    nummer: int
    von: str
    an: str
    inhalt: Any
    gesendet: int  # echte Zeit
    lamport: int
    vektor: dict[str, int] = field(repr=False)
    abhaengig: frozenset[int] = field(repr=False)  # Nachrichten, die vor ihr geschahen
    zustand: str = UNTERWEGS
    angekommen: int | None = None
    zugestellt: int | None = None

    def _weiter(self, aktion: str) -> None:
        neu = UEBERGAENGE.get((self.zustand, aktion))
        if neu is None:
            raise SimFehler(
                f"Nachricht {self.nummer} ({self.von} → {self.an}) ist „{self.zustand}“ "
                f"und kann nicht „{aktion}“."
            )
        self.zustand = neu

    def __repr__(self) -> str:
        zustand = self.zustand
        if self.zugestellt is not None:
            zustand += f" t={self.zugestellt}"
        if self.angekommen is not None and self.zugestellt != self.angekommen:
            zustand += f" (angekommen t={self.angekommen})"
        return (
            f"Nachricht({self.nummer}: {self.von} → {self.an} {self.inhalt!r}, "
            f"gesendet t={self.gesendet}, {zustand})"
        )


# --- Knoten ---


class Knoten:
    """Ein Rechner mit eigener Uhr. Entsteht über ``Welt.knoten``.

    - ``versatz``: so viele Ticks geht die Uhr beim Start vor (negativ: nach),
    - ``drift``: so viele Ticks läuft sie je 1000 echte Ticks zu schnell (negativ: zu langsam).
    """

    def __init__(self, welt: Welt, name: str, versatz: int, drift: int) -> None:
        self.welt = welt
        self.name = name
        self.versatz = versatz
        self.drift = drift
        self._gestellt = 0  # Summe aller Sprünge durch stelle_uhr
        self._lamport = LamportUhr()
        self._vektor = VektorUhr(name)
        self._kennt: set[int] = set()  # Nachrichten in der kausalen Vergangenheit
        self._zaehler = 0
        self._handler: Callable[[Knoten, Nachricht], Any] | None = None
        self.empfangen: list[Any] = []  # Inhalte in der Reihenfolge der Zustellung

    def _gelaufen(self) -> int:
        t = self.welt.now
        return t + (t * self.drift) // 1000

    def uhr(self) -> int:
        """Was die Uhr des Knotens jetzt anzeigt (wie ``Date.now()`` dort)."""
        return self.versatz + self._gelaufen() + self._gestellt

    def monoton(self) -> int:
        """Eine monotone Uhr (wie ``performance.now()``): läuft mit, springt nie."""
        return self._gelaufen()

    def stelle_uhr(self, anzeige: int) -> int:
        """Stellt die Uhr auf ``anzeige`` (wie NTP in einem Schritt, auch zurück).

        Gibt den Sprung zurück (negativ: zurück). Die monotone Uhr bleibt unberührt.
        """
        pruefe_ganzzahl(anzeige, "Die neue Anzeige der Uhr")
        sprung = anzeige - self.uhr()
        self._gestellt += sprung
        return sprung

    @property
    def lamport(self) -> int:
        """Der Stand der Lamport-Uhr."""
        return self._lamport.stand

    @property
    def vektor(self) -> dict[str, int]:
        """Der Stand der Vektoruhr (alle Knoten der Welt, fehlende mit 0)."""
        return self.welt._voll(self._vektor.stand)

    def bei_empfang(self, handler: Callable[[Knoten, Nachricht], Any] | None) -> None:
        """``handler(knoten, nachricht)`` läuft nach jeder Zustellung (etwa, um zu antworten)."""
        if handler is not None and not callable(handler):
            raise UngueltigeEingabe(f"bei_empfang braucht eine Funktion, nicht {handler!r}.")
        self._handler = handler

    def lokal(self, text: str = "") -> Ereignis:
        """Ein lokales Ereignis (etwa „schreibt preis=19“)."""
        self._lamport.tick()
        self._vektor.tick()
        return self._merke(LOKAL, str(text), None)

    def sende(self, an: str, inhalt: Any, dauer: int | None = None) -> Ereignis:
        """Schickt ``inhalt`` an den Knoten ``an``; ``dauer``: feste Laufzeit in Ticks.

        Ohne ``dauer`` würfelt das Netz die Laufzeit (``Welt(verzoegerung=…)``).
        """
        ziel = self.welt[an]
        if ziel is self:
            raise UngueltigeEingabe(f"{self.name} kann sich nicht selbst eine Nachricht schicken.")
        if dauer is not None:
            pruefe_ganzzahl(dauer, "Die Laufzeit (dauer)", 1)
        lamport = self._lamport.tick()
        vektor = self._vektor.tick()
        nachricht = Nachricht(
            nummer=len(self.welt._nachrichten) + 1,
            von=self.name,
            an=ziel.name,
            inhalt=inhalt,
            gesendet=self.welt.now,
            lamport=lamport,
            vektor=vektor,
            abhaengig=frozenset(self._kennt),
        )
        self._kennt.add(nachricht.nummer)
        self.welt._nachrichten.append(nachricht)
        ereignis = self._merke(SENDEN, f"sendet {_kurz(inhalt)} an {ziel.name}", nachricht.nummer)
        self.welt._netz(dauer).send(nachricht, an=ziel._ankunft)
        return ereignis

    def _ankunft(self, nachricht: Nachricht) -> None:
        nachricht.angekommen = self.welt.now
        if self.welt.kausal and not self._darf_zustellen(nachricht):
            nachricht._weiter("zurueckhalten")
            return
        self._zustellen(nachricht)
        if self.welt.kausal:
            self._zurueckgehaltene_pruefen()

    def _darf_zustellen(self, nachricht: Nachricht) -> bool:
        """Kausal: Jede frühere Nachricht an diesen Knoten ist schon zugestellt."""
        alle = self.welt._nachrichten
        return all(
            alle[n - 1].zustand == ZUGESTELLT
            for n in nachricht.abhaengig
            if alle[n - 1].an == self.name
        )

    def _zurueckgehaltene_pruefen(self) -> None:
        weiter = True
        while weiter:
            weiter = False
            for n in self.welt._nachrichten:
                if n.an == self.name and n.zustand == ZURUECKGEHALTEN and self._darf_zustellen(n):
                    self._zustellen(n)
                    weiter = True

    def _zustellen(self, nachricht: Nachricht) -> None:
        nachricht._weiter("zustellen")
        nachricht.zugestellt = self.welt.now
        self._lamport.empfange(nachricht.lamport)
        self._vektor.empfange(nachricht.vektor)
        self._kennt |= nachricht.abhaengig | {nachricht.nummer}
        text = f"empfängt {_kurz(nachricht.inhalt)} von {nachricht.von}"
        if nachricht.angekommen is not None and nachricht.zugestellt > nachricht.angekommen:
            text += f" (wartete {nachricht.zugestellt - nachricht.angekommen})"
        self._merke(EMPFANGEN, text, nachricht.nummer)
        self.empfangen.append(nachricht.inhalt)
        if self._handler is not None:
            self._handler(self, nachricht)

    def _merke(self, art: str, text: str, nachricht: int | None) -> Ereignis:
        self._zaehler += 1
        ereignis = Ereignis(
            name=f"{self.name}{self._zaehler}",
            knoten=self.name,
            art=art,
            text=text,
            echt=self.welt.now,
            uhr=self.uhr(),
            lamport=self._lamport.stand,
            vektor=self.welt._voll(self._vektor.stand),
            nachricht=nachricht,
            nummer=len(self.welt._ereignisse) + 1,
        )
        self.welt._neues_ereignis(ereignis)
        return ereignis

    def __repr__(self) -> str:
        return (
            f"Knoten({self.name}: Uhr {self.uhr()}, echt t={self.welt.now}, "
            f"L={self.lamport}, V={self.vektor})"
        )


def _kurz(inhalt: Any) -> str:
    text = inhalt if isinstance(inhalt, str) else repr(inhalt)
    return f"„{text}“"


# --- Die Welt ---


class Welt(AufDerZeit):
    """Knoten mit eigenen Uhren in einer gemeinsamen echten Zeit.

    - ``seed``: Startwert für die Laufzeiten der Nachrichten,
    - ``verzoegerung``: kleinste und größte Laufzeit in Ticks (Standard 1 bis 6),
    - ``kausal``: Nachrichten kausal zustellen (zurückhalten, was zu früh kommt).
    """

    def __init__(
        self,
        seed: int = 1,
        verzoegerung: tuple[int, int] = (1, 6),
        kausal: bool = False,
        zeit: Zeit | None = None,
    ) -> None:
        pruefe_ganzzahl(seed, "Der Seed")
        verzoegerung = pruefe_verzoegerung(verzoegerung, 1, (1, 6))
        if not isinstance(kausal, bool):
            raise UngueltigeEingabe(f"kausal ist True oder False, nicht {kausal!r}.")
        self.seed = seed
        self.kausal = kausal
        self.zeit = zeit if zeit is not None else Zeit()
        self._zufall_netz = FakeNetz(
            seed=seed,
            verlust=0,
            duplikat=0,
            verzoegerung=verzoegerung,
            sendeabstand=0,
            zeit=self.zeit,
        )
        self._feste_netze: dict[int, FakeNetz] = {}
        self._knoten: dict[str, Knoten] = {}
        self._ereignisse: list[Ereignis] = []
        self._nachrichten: list[Nachricht] = []
        self._nach: dict[str, set[str]] | None = None  # Cache für vor()

    # --- Aufbau ---

    def knoten(self, name: str, versatz: int = 0, drift: int = 0) -> Knoten:
        """Legt einen Knoten an. ``versatz``: Ticks vor (negativ: nach); ``drift``: je 1000."""
        if not isinstance(name, str) or not name.isidentifier():
            raise UngueltigeEingabe(
                f"Der Name eines Knotens ist ein Wort aus Buchstaben, Ziffern und _, "
                f"z. B. „kasse“, nicht {name!r}."
            )
        if name in self._knoten:
            raise UngueltigeEingabe(f"Einen Knoten „{name}“ gibt es schon.")
        pruefe_ganzzahl(versatz, "Der Versatz")
        pruefe_ganzzahl(drift, "Die Drift")
        if drift <= -1000:
            raise UngueltigeEingabe(f"Eine Drift von {drift} je 1000 hielte die Uhr an.")
        k = Knoten(self, name, versatz, drift)
        self._knoten[name] = k
        return k

    def __getitem__(self, name: str) -> Knoten:
        if name not in self._knoten:
            raise UnbekannterKnoten(
                f"Einen Knoten {name!r} gibt es nicht. Es gibt: {aufzaehlung(self._knoten)}."
            )
        return self._knoten[name]

    @property
    def namen(self) -> list[str]:
        """Die Namen aller Knoten, in der Reihenfolge ihres Anlegens."""
        return list(self._knoten)

    def _voll(self, vektor: Mapping[str, int]) -> dict[str, int]:
        return {k: vektor.get(k, 0) for k in self._knoten}

    def _netz(self, dauer: int | None) -> FakeNetz:
        if dauer is None:
            return self._zufall_netz
        if dauer not in self._feste_netze:
            self._feste_netze[dauer] = FakeNetz(
                seed=self.seed,
                verlust=0,
                duplikat=0,
                verzoegerung=(dauer, dauer),
                sendeabstand=0,
                zeit=self.zeit,
            )
        return self._feste_netze[dauer]

    # --- Zeit ---

    def lauf(self) -> None:
        """Lässt die Zeit laufen, bis keine Nachricht mehr unterwegs ist."""
        while self.zeit.step():
            pass

    # --- Was geschah ---

    @property
    def ereignisse(self) -> list[Ereignis]:
        """Alle Ereignisse in der Reihenfolge, in der sie geschahen."""
        return list(self._ereignisse)

    @property
    def nachrichten(self) -> list[Nachricht]:
        """Alle Nachrichten mit ihrem Zustand."""
        return list(self._nachrichten)

    def ereignis(self, name: str) -> Ereignis:
        """Das Ereignis mit diesem Namen, z. B. ``"kasse2"``."""
        for e in self._ereignisse:
            if e.name == name:
                return e
        raise UnbekannterKnoten(
            f"Ein Ereignis {name!r} gibt es nicht. Es gibt: "
            f"{aufzaehlung(e.name for e in self._ereignisse)}."
        )

    def _neues_ereignis(self, e: Ereignis) -> None:
        self._ereignisse.append(e)
        self._nach = None

    def _kanten(self) -> dict[str, set[str]]:
        """Direkte Nachfolger: das nächste Ereignis desselben Knotens, Senden -> Empfangen."""
        kanten: dict[str, set[str]] = {e.name: set() for e in self._ereignisse}
        letztes: dict[str, str] = {}
        senden: dict[int, str] = {}
        for e in self._ereignisse:
            if e.knoten in letztes:
                kanten[letztes[e.knoten]].add(e.name)
            letztes[e.knoten] = e.name
            if e.art == SENDEN and e.nachricht is not None:
                senden[e.nachricht] = e.name
            elif e.art == EMPFANGEN and e.nachricht is not None:
                kanten[senden[e.nachricht]].add(e.name)
        return kanten

    def _erreichbar(self) -> dict[str, set[str]]:
        if self._nach is None:
            kanten = self._kanten()
            nach: dict[str, set[str]] = {}
            # Rückwärts durch die Ereignisse: jeder Nachfolger ist später entstanden.
            for e in reversed(self._ereignisse):
                menge: set[str] = set()
                for n in kanten[e.name]:
                    menge.add(n)
                    menge |= nach[n]
                nach[e.name] = menge
            self._nach = nach
        return self._nach

    def _name(self, e: Ereignis | str) -> str:
        if isinstance(e, Ereignis):
            return e.name
        return self.ereignis(e).name

    def vor(self, a: Ereignis | str, b: Ereignis | str) -> bool:
        """Geschah ``a`` vor ``b`` (happened-before)? Aus dem Verlauf, ohne Uhren."""
        return self._name(b) in self._erreichbar()[self._name(a)]

    def beziehung(self, a: Ereignis | str, b: Ereignis | str) -> str:
        """``"vorher"``, ``"nachher"``, ``"gleich"`` oder ``"nebenläufig"``, aus dem Verlauf."""
        na, nb = self._name(a), self._name(b)
        if na == nb:
            return GLEICH
        if self.vor(na, nb):
            return VORHER
        if self.vor(nb, na):
            return NACHHER
        return NEBENLAEUFIG

    def tabelle(self, uhr: bool = True, lamport: bool = True, vektor: bool = True) -> str:
        """Alle Ereignisse als Text, eine Zeile je Ereignis."""
        zeilen = []
        breite = max([len(e.name) for e in self._ereignisse] + [1])
        for e in self._ereignisse:
            teile = [f"t={e.echt:<4}", f"{e.name:<{breite}}"]
            if uhr:
                teile.append(f"Uhr {e.uhr:<5}")
            if lamport:
                teile.append(f"L={e.lamport:<3}")
            if vektor:
                teile.append("(" + ",".join(str(e.vektor.get(k, 0)) for k in self._knoten) + ")")
            teile.append(e.text)
            zeilen.append(" ".join(teile))
        return "\n".join(zeilen)

    def bild(
        self,
        uhr: bool = False,
        lamport: bool = True,
        vektor: bool = True,
        markiere: Iterable[str] = (),
    ) -> Bild:
        """Das Raum-Zeit-Diagramm: eine Spalte je Knoten, Pfeile für Nachrichten."""

        return raumzeit(self, uhr=uhr, lamport=lamport, vektor=vektor, markiere=markiere)

    def _repr_svg_(self) -> str:
        return self.bild()._repr_svg_()

    def __repr__(self) -> str:
        unterwegs = sum(1 for n in self._nachrichten if n.zustand != ZUGESTELLT)
        return (
            f"Welt(t={self.now}: Knoten {', '.join(self._knoten) or 'keine'}, "
            f"{len(self._ereignisse)} Ereignisse, {len(self._nachrichten)} Nachrichten, "
            f"{unterwegs} nicht zugestellt)"
        )


def zufallswelt(seed: int, knoten: int = 3, schritte: int = 12, kausal: bool = False) -> Welt:
    """Eine Welt mit einem zufälligen, aber festen Verlauf (für Übungen und Tests).

    ``knoten`` Knoten „a“, „b“, „c“ …; in jedem Schritt tut ein Knoten etwas lokal oder schickt
    einem anderen eine Nachricht; dazwischen vergehen 0 bis 2 Ticks. Am Ende ist alles zugestellt.
    """
    pruefe_ganzzahl(knoten, "Die Anzahl der Knoten", 2)
    pruefe_ganzzahl(schritte, "Die Anzahl der Schritte", 0)
    if knoten > 26:
        raise UngueltigeEingabe(f"Höchstens 26 Knoten (a bis z), nicht {knoten}.")
    welt = Welt(seed=seed, verzoegerung=(1, 5), kausal=kausal)
    namen = [chr(ord("a") + i) for i in range(knoten)]
    for n in namen:
        welt.knoten(n)
    zufall = random.Random(seed)
    for schritt in range(1, schritte + 1):
        wer = namen[int(zufall.random() * knoten)]
        if zufall.random() < 0.35:
            welt[wer].lokal(f"s{schritt}")
        else:
            andere = [n for n in namen if n != wer]
            welt[wer].sende(andere[int(zufall.random() * len(andere))], f"s{schritt}")
        welt.tick(int(zufall.random() * 3))
    welt.lauf()
    return welt
