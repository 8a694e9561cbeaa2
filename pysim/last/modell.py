"""Eine Lastsimulation: Anfragen, ein Dienst mit Workern, Timeouts, Retries, Backpressure.

Ein Tick ist eine Millisekunde. Clients schicken Anfragen (zufällige Abstände wie bei vielen
unabhängigen Nutzern, aus einem festen Seed). Der Dienst hat ``worker`` Worker; wer keinen freien
findet, wartet in einer Warteschlange, die unbegrenzt ist oder ``warteschlange`` Plätze hat (dann
wird abgelehnt: Load Shedding). Ein Client wartet höchstens ``timeout`` ms und versucht es dann,
nach seiner ``wiederholung``, noch einmal. Der Dienst merkt davon nichts: Er arbeitet auch
Anfragen ab, auf die niemand mehr wartet, außer er kennt die Frist (``frist_beachten``).

    sim = Lastsim(pro_sekunde=80, worker=4, bedienzeit=40, timeout=200,
                  wiederholung=Wiederholung("jitter", versuche=3, basis=100), seed=1)
    sim.stoerung(von=2000, bis=4000, faktor=3)   # der Dienst wird langsam
    e = sim.lauf(dauer=10_000)
    e.p99, e.erfolgreich, e.verschwendet, e.bild()

Die Zustände eines Versuchs (eine Anfrage hat einen oder mehrere Versuche):

================  ========================  ==========================================
Zustand           Ereignis                  danach
================  ========================  ==========================================
(neu)             Schutzschalter offen      kurzgeschlossen (scheitert sofort)
(neu)             Dienst ausgefallen        ausgefallen (scheitert sofort)
(neu)             Worker frei               in Arbeit
(neu)             Warteschlange voll        abgelehnt (scheitert sofort)
(neu)             sonst                     wartend
wartend           Worker frei               in Arbeit; mit Frist: verworfen, wenn sie um ist
wartend/in Arb.   Timeout des Clients       bleibt beim Dienst, der Client gibt auf
in Arbeit         fertig                    Antwort; verschwendet, wenn niemand mehr wartet
================  ========================  ==========================================

Ein gescheiterter Versuch (kurzgeschlossen, ausgefallen, abgelehnt, Timeout) führt zur
Wiederholung oder zum endgültigen Scheitern der Anfrage.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..fehler import UngueltigeEingabe, pruefe_ganzzahl
from ..zeit import Termin, Zeit
from .bild import perzentile_bild, verlauf_bild, wellen_bild
from .schutzschalter import Schutzschalter

if TYPE_CHECKING:
    from ..svg import Bild

#: What ``from pysim.last import *`` and the package give (the module's public API).
__all__ = [
    "ARTEN",
    "MAX_VERSUCHE",
    "SCHWANZ_ANTEIL",
    "SCHWANZ_FAKTOR",
    "VERTEILUNGEN",
    "Anfrage",
    "Ergebnis",
    "Lastsim",
    "Strategie",
    "Wiederholung",
]


#: So oft darf eine Anfrage höchstens versucht werden; mehr ist ein Fehler der Strategie.
MAX_VERSUCHE = 50
VERTEILUNGEN = ("fest", "exponentiell", "langer_schwanz")
ARTEN = ("keine", "sofort", "fest", "exponentiell", "jitter")
#: Beim langen Schwanz dauert jede 50. Bearbeitung 10-mal so lange wie die übrigen.
SCHWANZ_ANTEIL = 0.02
SCHWANZ_FAKTOR = 10


def _zahl(wert: object, name: str, minimum: float, maximum: float | None = None) -> float:
    # inf is no number a simulation can run with (pro_sekunde=inf never ends a tick), nan
    # compares false with every bound: both are refused alike.
    if isinstance(wert, bool) or not isinstance(wert, (int, float)) or not math.isfinite(wert):
        raise UngueltigeEingabe(f"{name} muss eine endliche Zahl sein, nicht {wert!r}.")
    if wert < minimum or (maximum is not None and wert > maximum):
        bereich = f"zwischen {minimum} und {maximum}" if maximum is not None else f"≥ {minimum}"
        raise UngueltigeEingabe(f"{name} muss {bereich} liegen, nicht {wert}.")
    return float(wert)


def _anteil(zaehler: float, nenner: float) -> float:
    """``zaehler / nenner``; 0.0 before anything happened (a run without time or requests)."""
    return zaehler / nenner if nenner else 0.0


class Anfrage:
    """Eine Anfrage eines Clients, mit allen ihren Versuchen."""

    __slots__ = ("ausgefuehrt", "fertig", "id", "idempotent", "start", "versuche")

    def __init__(self, id: int, start: int, idempotent: bool) -> None:
        self.id = id
        self.start = start
        #: Darf sie wiederholt werden, ohne Schaden anzurichten (etwa lesen, oder mit
        #: Idempotenzschlüssel)? Eine Zahlung ohne Schlüssel ist es nicht.
        self.idempotent = idempotent
        self.versuche = 0
        #: Wie oft der Dienst sie wirklich ausgeführt hat (auch für Clients, die schon aufgaben).
        self.ausgefuehrt = 0
        self.fertig = False

    def __repr__(self) -> str:
        art = "idempotent" if self.idempotent else "nicht idempotent"
        return f"Anfrage({self.id}, t={self.start}, {art}, {self.versuche} Versuche)"


class _Versuch:
    __slots__ = ("anfrage", "ankunft", "arbeit", "frist", "termin", "wartet")

    def __init__(self, anfrage: Anfrage, ankunft: int, frist: int | None, arbeit: float) -> None:
        self.anfrage = anfrage
        self.ankunft = ankunft
        self.frist = frist
        self.arbeit = arbeit  # the service time it needs, before any slowdown (ms)
        self.termin: Termin | None = None
        self.wartet = True  # the client still waits for this attempt


#: Eine eigene Strategie: (Nummer des gescheiterten Versuchs, Anfrage, Zufall) -> Wartezeit in
#: ms bis zum nächsten Versuch, oder ``None``: aufgeben.
Strategie = Callable[[int, Anfrage, random.Random], "int | None"]


class Wiederholung:
    """Eine Retry-Strategie.

    ``art``: ``keine``, ``sofort`` (ohne Pause), ``fest`` (immer ``basis`` ms), ``exponentiell``
    (``basis``, 2·``basis``, 4·``basis`` … bis ``deckel``) oder ``jitter`` (Full Jitter: eine
    zufällige Wartezeit zwischen 0 und dem exponentiellen Wert). ``versuche`` zählt den ersten
    Versuch mit. ``budget`` (z. B. 0.1): Jede neue Anfrage bringt so viele Wertmarken, jede
    Wiederholung kostet eine, höchstens 10 liegen bereit; ohne Marke keine Wiederholung.
    ``nur_idempotent``: nicht idempotente Anfragen nie wiederholen.
    """

    def __init__(
        self,
        art: str = "jitter",
        *,
        versuche: int = 3,
        basis: int = 100,
        deckel: int = 10_000,
        budget: float | None = None,
        nur_idempotent: bool = True,
    ) -> None:
        if art not in ARTEN:
            raise UngueltigeEingabe(f"Unbekannte Art „{art}“. Erlaubt: {', '.join(ARTEN)}.")
        self.art = art
        self.versuche = pruefe_ganzzahl(versuche, "versuche", 1)
        self.basis = pruefe_ganzzahl(basis, "basis", 0)
        self.deckel = pruefe_ganzzahl(deckel, "deckel", 0)
        self.budget = None if budget is None else _zahl(budget, "budget", 0.0, 1.0)
        self.nur_idempotent = bool(nur_idempotent)
        self._marken = 10.0

    def neue_anfrage(self) -> None:
        """Eine neue Anfrage füllt das Budget auf."""
        if self.budget is not None:
            self._marken = min(10.0, self._marken + self.budget)

    def __call__(self, versuch: int, anfrage: Anfrage, zufall: random.Random) -> int | None:
        if self.art == "keine" or versuch >= self.versuche:
            return None
        if self.nur_idempotent and not anfrage.idempotent:
            return None
        if self.budget is not None:
            if self._marken < 1:
                return None
            self._marken -= 1
        if self.art == "sofort":
            return 0
        if self.art == "fest":
            return self.basis
        faktor: int = 2 ** (versuch - 1)  # typeshed types int ** int as Any
        grenze = min(self.deckel, self.basis * faktor)
        if self.art == "exponentiell":
            return grenze
        return int(zufall.random() * grenze)  # full jitter: anywhere in [0, grenze)

    def __repr__(self) -> str:
        budget = "" if self.budget is None else f", Budget {self.budget}"
        return f"Wiederholung({self.art}, {self.versuche} Versuche, Basis {self.basis}{budget})"


class Ergebnis:
    """Was ein Lauf ergab: Zähler, Latenzen der Clients, Verlauf über die Zeit."""

    def __init__(self) -> None:
        self.anfragen = 0
        #: Die Anfrage bekam rechtzeitig eine Antwort.
        self.erfolgreich = 0
        #: Die Anfrage bekam nie eine Antwort, auf die jemand wartete.
        self.gescheitert = 0
        #: Alle Versuche der Clients, auch sofort gescheiterte.
        self.versuche = 0
        self.wiederholungen = 0
        self.abgelehnt = 0  # queue full: load shedding
        self.ausgefallen = 0  # the service was down
        self.kurzgeschlossen = 0  # the circuit breaker said no
        self.timeouts = 0
        #: Fertige Arbeit, auf die kein Client mehr wartete.
        self.verschwendet = 0
        #: Wartende Versuche, deren Frist um war: nicht bearbeitet (nur mit frist_beachten).
        self.verworfen = 0
        #: Anfragen, die der Dienst mehr als einmal ausgeführt hat.
        self.doppelt = 0
        #: Nicht idempotente Anfragen, die der Dienst mehr als einmal ausführte (doppelt bezahlt).
        self.doppelt_nicht_idempotent = 0
        #: Nicht idempotente Anfragen mit mehr als einem Versuch.
        self.nicht_idempotent_wiederholt = 0
        self.hoechste_versuche = 0
        self.max_wartend = 0
        #: Latenzen (ms vom ersten Versuch bis zur Antwort) der erfolgreichen Anfragen, sortiert.
        self.latenzen: list[int] = []
        #: (t, wartend, in Arbeit) alle ``raster`` ms.
        self.verlauf: list[tuple[int, int, int]] = []
        #: Versuche, die beim Dienst ankamen, je Raster: erste Versuche und Wiederholungen.
        self.erste_je_raster: list[int] = []
        self.wiederholt_je_raster: list[int] = []
        #: Erfolgreiche Antworten je Raster (Goodput).
        self.erfolg_je_raster: list[int] = []
        self.raster = 100
        self.dauer = 0  # when the last request ended (ms)
        self.ankunftsdauer = 0  # how long new requests came (ms)
        self.worker = 1
        self.angenommen = 0  # attempts that entered the service (queue or worker)
        self.flaeche = 0  # integral of (wartend + in Arbeit) over time
        self.verweilsumme = 0  # sum of the time each accepted attempt spent in the service
        self.beschaeftigt = 0  # integral of busy workers over time
        self.stoerungen: list[tuple[int, int, str]] = []

    # --- Latenz ---------------------------------------------------------------------------------

    def perzentil(self, p: float) -> int | None:
        """Das ``p``-Perzentil der Latenz (Nearest Rank), ``None`` ohne erfolgreiche Anfrage."""
        _zahl(p, "p", 0.0, 100.0)
        if not self.latenzen:
            return None
        rang = max(1, math.ceil(p / 100 * len(self.latenzen)))
        return self.latenzen[rang - 1]

    @property
    def p50(self) -> int | None:
        return self.perzentil(50)

    @property
    def p90(self) -> int | None:
        return self.perzentil(90)

    @property
    def p99(self) -> int | None:
        return self.perzentil(99)

    @property
    def mittel(self) -> float | None:
        """Mittlere Latenz der erfolgreichen Anfragen in ms."""
        return sum(self.latenzen) / len(self.latenzen) if self.latenzen else None

    # --- Little's law ---------------------------------------------------------------------------

    @property
    def im_system_mittel(self) -> float:
        """L: wie viele Versuche im Mittel beim Dienst waren (wartend oder in Arbeit)."""
        return _anteil(self.flaeche, self.dauer)

    @property
    def ankunftsrate(self) -> float:
        """λ: angenommene Versuche pro Sekunde."""
        return _anteil(self.angenommen * 1000, self.dauer)

    @property
    def verweilzeit_mittel(self) -> float:
        """W: wie lange ein angenommener Versuch im Mittel beim Dienst blieb, in ms."""
        return _anteil(self.verweilsumme, self.angenommen)

    @property
    def auslastung(self) -> float:
        """Anteil der Zeit, in der die Worker arbeiteten (0 bis 1)."""
        return _anteil(self.beschaeftigt, self.worker * self.dauer)

    @property
    def durchsatz(self) -> float:
        """Erfolgreiche Anfragen pro Sekunde, über die Zeit, in der Anfragen kamen."""
        return _anteil(self.erfolgreich * 1000, self.ankunftsdauer)

    @property
    def erfolgsquote(self) -> float:
        return _anteil(self.erfolgreich, self.anfragen)

    # --- Ausgabe --------------------------------------------------------------------------------

    def zusammenfassung(self) -> str:
        """Die wichtigsten Zahlen in ein paar Zeilen."""
        zeilen = [
            f"{self.anfragen} Anfragen, {self.versuche} Versuche, "
            # rounded down: "100 %" only when every request got an answer
            f"{self.erfolgreich} erfolgreich ({math.floor(self.erfolgsquote * 100)}%)",
        ]
        if self.latenzen:
            zeilen.append(f"Latenz: p50 {self.p50} ms, p90 {self.p90} ms, p99 {self.p99} ms")
        extra = [
            (self.timeouts, "Timeouts"),
            (self.abgelehnt, "abgelehnt"),
            (self.ausgefallen, "beim Ausfall"),
            (self.kurzgeschlossen, "vom Schutzschalter abgewiesen"),
            (self.verschwendet, "verschwendet"),
            (self.verworfen, "verworfen (Frist um)"),
            (self.doppelt, "doppelt ausgeführt"),
        ]
        teile = [f"{n} {was}" for n, was in extra if n]
        if teile:
            zeilen.append(", ".join(teile))
        zeilen.append(f"höchstens {self.max_wartend} wartend, Auslastung {self.auslastung:.0%}")
        return "\n".join(zeilen)

    def bild(self) -> Bild:
        """Warteschlange und Worker in Arbeit über die Zeit, als Liniendiagramm."""

        return verlauf_bild(self)

    def wellen_bild(self) -> Bild:
        """Versuche, die beim Dienst ankamen, je Raster: erste Versuche und Wiederholungen."""

        return wellen_bild(self)

    def latenz_bild(self) -> Bild:
        """p50, p90, p99 und das Maximum als Balken."""

        return perzentile_bild({"": self})

    def __repr__(self) -> str:
        return "Ergebnis(" + self.zusammenfassung().replace("\n", "; ") + ")"


class Lastsim:
    """Clients, ein Dienst mit Workern und eine Warteschlange auf der simulierten Uhr (1 Tick = 1 ms).

    ``pro_sekunde``: neue Anfragen pro Sekunde (zufällige Abstände, im Mittel ``1000 /
    pro_sekunde`` ms). ``bedienzeit``: mittlere Bearbeitungszeit in ms, ``verteilung`` ``fest``,
    ``exponentiell`` oder ``langer_schwanz`` (jede 50. dauert 10-mal so lange, das Mittel bleibt).
    ``warteschlange``: Plätze (``None``: unbegrenzt). ``timeout``: so lange wartet ein Client
    auf einen Versuch (``None``: ewig). ``wiederholung``: eine ``Wiederholung`` oder eine
    eigene Funktion ``(versuch, anfrage, zufall) -> ms | None``. ``nicht_idempotent``: Anteil
    der Anfragen, die nicht wiederholt werden dürfen. ``frist_beachten``: Der Dienst kennt die
    Frist des Clients und lässt wartende Versuche fallen, deren Frist um ist.
    """

    def __init__(
        self,
        *,
        pro_sekunde: float,
        worker: int = 1,
        bedienzeit: int = 50,
        verteilung: str = "exponentiell",
        warteschlange: int | None = None,
        timeout: int | None = None,
        wiederholung: Wiederholung | Strategie | None = None,
        schutzschalter: Schutzschalter | None = None,
        nicht_idempotent: float = 0.0,
        frist_beachten: bool = False,
        seed: int = 1,
        raster: int = 100,
    ) -> None:
        self.pro_sekunde = _zahl(pro_sekunde, "pro_sekunde", 0.0)
        self.worker = pruefe_ganzzahl(worker, "worker", 1)
        self.bedienzeit = pruefe_ganzzahl(bedienzeit, "bedienzeit", 1)
        if verteilung not in VERTEILUNGEN:
            raise UngueltigeEingabe(
                f"Unbekannte Verteilung „{verteilung}“. Erlaubt: {', '.join(VERTEILUNGEN)}."
            )
        self.verteilung = verteilung
        self.grenze = (
            None if warteschlange is None else pruefe_ganzzahl(warteschlange, "warteschlange", 0)
        )
        self.timeout = None if timeout is None else pruefe_ganzzahl(timeout, "timeout", 1)
        if wiederholung is not None and not callable(wiederholung):
            raise UngueltigeEingabe(
                "wiederholung muss eine Wiederholung(…) oder eine Funktion "
                f"(versuch, anfrage, zufall) sein, nicht {wiederholung!r}."
            )
        self.wiederholung = wiederholung
        if schutzschalter is not None and not isinstance(schutzschalter, Schutzschalter):
            raise UngueltigeEingabe(
                f"schutzschalter muss ein Schutzschalter(…) sein, nicht {schutzschalter!r}."
            )
        self.schutzschalter = schutzschalter
        self.nicht_idempotent = _zahl(nicht_idempotent, "nicht_idempotent", 0.0, 1.0)
        self.frist_beachten = bool(frist_beachten)
        self.seed = pruefe_ganzzahl(seed, "seed")
        self.raster = pruefe_ganzzahl(raster, "raster", 1)
        self._stoerungen: list[tuple[int, int, float]] = []
        self._ausfaelle: list[tuple[int, int]] = []
        self._stoesse: list[tuple[int, int]] = []
        self._gelaufen = False

    # --- Drehbuch -------------------------------------------------------------------------------

    def _spanne(self, von: object, bis: object) -> tuple[int, int]:
        v = pruefe_ganzzahl(von, "von", 0)
        b = pruefe_ganzzahl(bis, "bis", 0)
        if b <= v:
            raise UngueltigeEingabe(f"bis ({b}) muss nach von ({v}) liegen.")
        return v, b

    def stoerung(self, *, von: int, bis: int, faktor: float) -> None:
        """Von ``von`` bis ``bis`` (ms) dauert jede begonnene Bearbeitung ``faktor``-mal so lange."""
        v, b = self._spanne(von, bis)
        f = _zahl(faktor, "faktor", 0.01)
        self._stoerungen.append((v, b, f))

    def ausfall(self, *, von: int, bis: int) -> None:
        """Von ``von`` bis ``bis`` (ms) lehnt der Dienst jeden neuen Versuch sofort ab."""
        self._ausfaelle.append(self._spanne(von, bis))

    def stoss(self, anzahl: int, *, zeit: int = 0) -> None:
        """``anzahl`` zusätzliche Anfragen, alle genau zur Zeit ``zeit`` (ms)."""
        self._stoesse.append(
            (pruefe_ganzzahl(zeit, "zeit", 0), pruefe_ganzzahl(anzahl, "anzahl", 1))
        )

    # --- Lauf -----------------------------------------------------------------------------------

    def lauf(self, dauer: int) -> Ergebnis:
        """Neue Anfragen kommen ``dauer`` ms lang; danach läuft alles zu Ende."""
        pruefe_ganzzahl(dauer, "dauer", 1)
        if self._gelaufen:
            raise UngueltigeEingabe(
                "Diese Lastsim ist schon gelaufen. Lege für einen neuen Lauf eine neue an."
            )
        self._gelaufen = True
        return _Lauf(self, dauer).ergebnis


class _Lauf:
    """One run of a Lastsim (keeps the mutable state apart from the configuration)."""

    def __init__(self, sim: Lastsim, dauer: int) -> None:
        self.sim = sim
        self.uhr = Zeit()
        # Three streams, so that changing one knob (a queue bound, a retry) leaves the arrivals
        # and the work they bring the same: runs differ only by what the knob does.
        self.ankuenfte = random.Random(sim.seed)
        self.arbeit = random.Random(sim.seed + 7919)
        self.zufall = random.Random(sim.seed + 104_729)  # the clients: jitter, idempotency
        e = self.ergebnis = Ergebnis()
        e.raster, e.worker, e.ankunftsdauer = sim.raster, sim.worker, dauer
        e.stoerungen = [(v, b, f"{f:g}× langsamer") for v, b, f in sim._stoerungen] + [
            (v, b, "Ausfall") for v, b in sim._ausfaelle
        ]
        self.dauer = dauer
        self.wartend: deque[_Versuch] = deque()
        self.in_arbeit = 0
        self.letzte_aenderung = 0
        self.naechste_probe = 0  # next raster point to record in verlauf
        self.naechste_id = 0
        if isinstance(sim.wiederholung, Wiederholung):
            self.strategie: Strategie | None = sim.wiederholung
            sim.wiederholung._marken = 10.0
        else:
            self.strategie = sim.wiederholung
        self.latenzen: list[int] = []
        self.mittlerer_abstand = 1000 / sim.pro_sekunde if sim.pro_sekunde else None
        self.naechste_ankunft = 0.0
        for zeit, anzahl in sim._stoesse:
            if zeit < dauer:
                self.uhr.schedule(zeit, self._stoss, anzahl)
        if self.mittlerer_abstand is not None:
            self._plane_ankunft()
        self.uhr.run()
        self._zustand_geaendert()
        self._proben_bis(self.uhr.now)
        e.dauer = max(self.uhr.now, dauer)
        self._proben_bis(e.dauer)
        e.latenzen = sorted(self.latenzen)

    # --- arrivals -------------------------------------------------------------------------------

    def _plane_ankunft(self) -> None:
        assert self.mittlerer_abstand is not None  # only called when arrivals are planned
        abstand = -math.log(1.0 - self.ankuenfte.random()) * self.mittlerer_abstand
        self.naechste_ankunft += abstand
        t = int(self.naechste_ankunft)
        if t < self.dauer:
            self.uhr.schedule(t - self.uhr.now, self._ankunft)

    def _ankunft(self) -> None:
        self._neue_anfrage()
        self._plane_ankunft()

    def _stoss(self, anzahl: int) -> None:
        for _ in range(anzahl):
            self._neue_anfrage()

    def _neue_anfrage(self) -> None:
        e = self.ergebnis
        idempotent = True
        if self.sim.nicht_idempotent:
            idempotent = self.zufall.random() >= self.sim.nicht_idempotent
        a = Anfrage(self.naechste_id, self.uhr.now, idempotent)
        self.naechste_id += 1
        e.anfragen += 1
        if isinstance(self.strategie, Wiederholung):
            self.strategie.neue_anfrage()
        self._versuch(a)

    # --- attempts -------------------------------------------------------------------------------

    def _in(self, spannen: list[tuple[int, int]], jetzt: int) -> bool:
        return any(s[0] <= jetzt < s[1] for s in spannen)

    def _versuch(self, a: Anfrage) -> None:
        e, jetzt = self.ergebnis, self.uhr.now
        a.versuche += 1
        e.versuche += 1
        if a.versuche > 1:
            e.wiederholungen += 1
            if a.versuche == 2 and not a.idempotent:
                e.nicht_idempotent_wiederholt += 1
        if a.versuche > e.hoechste_versuche:
            e.hoechste_versuche = a.versuche
        schalter = self.sim.schutzschalter
        if schalter is not None and not schalter.erlaubt(jetzt):
            e.kurzgeschlossen += 1
            self._gescheitert(a)
            return
        self._zaehle_ankunft(a, jetzt)
        arbeit = self._arbeit()  # drawn for every attempt that reaches the service
        if self._ausfall(jetzt):
            e.ausgefallen += 1
            self._fehler_melden()
            self._gescheitert(a)
            return
        grenze = self.sim.grenze
        if self.in_arbeit >= self.sim.worker and grenze is not None and len(self.wartend) >= grenze:
            e.abgelehnt += 1
            self._fehler_melden()
            self._gescheitert(a)
            return
        timeout = self.sim.timeout
        v = _Versuch(a, jetzt, None if timeout is None else jetzt + timeout, arbeit)
        self._zustand_geaendert()
        e.angenommen += 1
        if self.in_arbeit < self.sim.worker:
            self._beginne(v)
        else:
            self.wartend.append(v)
            if len(self.wartend) > e.max_wartend:
                e.max_wartend = len(self.wartend)
        if timeout is not None:
            v.termin = self.uhr.schedule(timeout, self._timeout, v)

    def _ausfall(self, jetzt: int) -> bool:
        return bool(self.sim._ausfaelle) and self._in(self.sim._ausfaelle, jetzt)

    def _zaehle_ankunft(self, a: Anfrage, jetzt: int) -> None:
        e = self.ergebnis
        feld = jetzt // self.sim.raster
        while len(e.erste_je_raster) <= feld:
            e.erste_je_raster.append(0)
            e.wiederholt_je_raster.append(0)
        if a.versuche == 1:
            e.erste_je_raster[feld] += 1
        else:
            e.wiederholt_je_raster[feld] += 1

    def _fehler_melden(self) -> None:
        if self.sim.schutzschalter is not None:
            self.sim.schutzschalter.fehler(self.uhr.now)

    def _timeout(self, v: _Versuch) -> None:
        if not v.wartet:
            return
        v.wartet = False
        self.ergebnis.timeouts += 1
        self._fehler_melden()
        self._gescheitert(v.anfrage)

    def _gescheitert(self, a: Anfrage) -> None:
        """An attempt failed: retry after the strategy's pause, or give up."""
        warte = None
        if self.strategie is not None:
            warte = self.strategie(a.versuche, a, self.zufall)
        if warte is None:
            self.ergebnis.gescheitert += 1
            return
        if isinstance(warte, bool) or not isinstance(warte, int) or warte < 0:
            raise UngueltigeEingabe(
                f"Die Wiederholung gab für Anfrage {a.id} nach Versuch {a.versuche} {warte!r} "
                "zurück. Erwartet ist eine Wartezeit in ms (ganze Zahl ≥ 0) oder None (aufgeben)."
            )
        if a.versuche >= MAX_VERSUCHE:
            raise UngueltigeEingabe(
                f"Anfrage {a.id} wurde schon {a.versuche}-mal versucht, und die Wiederholung "
                "gibt nicht auf. Sie braucht eine Höchstzahl an Versuchen (danach None)."
            )
        self.uhr.schedule(warte, self._versuch, a)

    # --- the service ----------------------------------------------------------------------------

    def _arbeit(self) -> float:
        mittel: float = self.sim.bedienzeit
        art = self.sim.verteilung
        if art == "fest":
            return float(mittel)
        u = self.arbeit.random()
        if art == "langer_schwanz":
            # the mean stays `mittel`: fast ones are shorter, every 50th is 10 times as long
            schnell = mittel / (1 - SCHWANZ_ANTEIL + SCHWANZ_ANTEIL * SCHWANZ_FAKTOR)
            langsam = self.arbeit.random() < SCHWANZ_ANTEIL
            mittel = schnell * (SCHWANZ_FAKTOR if langsam else 1)
        return -math.log(1.0 - u) * mittel

    def _bedienzeit(self, v: _Versuch, jetzt: int) -> int:
        d = v.arbeit
        for von, bis, faktor in self.sim._stoerungen:
            if von <= jetzt < bis:
                d *= faktor
        return max(1, round(d))

    def _beginne(self, v: _Versuch) -> None:
        self.in_arbeit += 1
        self.uhr.schedule(self._bedienzeit(v, self.uhr.now), self._fertig, v)

    def _fertig(self, v: _Versuch) -> None:
        e, jetzt = self.ergebnis, self.uhr.now
        self._zustand_geaendert()
        self.in_arbeit -= 1
        e.verweilsumme += jetzt - v.ankunft
        a = v.anfrage
        a.ausgefuehrt += 1
        if a.ausgefuehrt == 2:
            e.doppelt += 1
            if not a.idempotent:
                e.doppelt_nicht_idempotent += 1
        if v.wartet:
            v.wartet = False
            if v.termin is not None:
                v.termin.absagen()
            a.fertig = True
            e.erfolgreich += 1
            self.latenzen.append(jetzt - a.start)
            feld = jetzt // self.sim.raster
            erfolge = e.erfolg_je_raster
            while len(erfolge) <= feld:
                erfolge.append(0)
            erfolge[feld] += 1
            if self.sim.schutzschalter is not None:
                self.sim.schutzschalter.erfolg(jetzt)
        else:
            e.verschwendet += 1
        self._naechster()

    def _naechster(self) -> None:
        e, jetzt = self.ergebnis, self.uhr.now
        while self.wartend:
            w = self.wartend.popleft()
            if self.sim.frist_beachten and w.frist is not None and jetzt >= w.frist:
                e.verworfen += 1  # nobody waits any more: skip the work
                e.verweilsumme += jetzt - w.ankunft
                continue
            self._beginne(w)
            return

    # --- bookkeeping ----------------------------------------------------------------------------

    def _zustand_geaendert(self) -> None:
        """Called right before the number in the service changes: integrate up to now."""
        jetzt = self.uhr.now
        self._proben_bis(jetzt)
        spanne = jetzt - self.letzte_aenderung
        if spanne:
            e = self.ergebnis
            e.flaeche += spanne * (len(self.wartend) + self.in_arbeit)
            e.beschaeftigt += spanne * self.in_arbeit
            self.letzte_aenderung = jetzt

    def _proben_bis(self, jetzt: int) -> None:
        """Record the state for every raster point up to ``jetzt`` (the state has not changed)."""
        verlauf, raster = self.ergebnis.verlauf, self.sim.raster
        while self.naechste_probe <= jetzt:
            verlauf.append((self.naechste_probe, len(self.wartend), self.in_arbeit))
            self.naechste_probe += raster
