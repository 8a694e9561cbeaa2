"""Ein kleines, deterministisches Modell der Event Loop von JavaScript (wie in Node.js).

Das Modell kennt drei Dinge:

- das **Skript**: alles, was vor ``run()`` geschieht, läuft sofort, wie der synchrone Code einer
  JS-Datei auf dem Call Stack;
- die **Microtask-Queue**: ``queue_microtask`` und ``promise_then`` (wie
  ``Promise.resolve().then(…)``). Sie wird nach dem Skript und nach *jedem* Macrotask ganz
  geleert, auch von Microtasks, die dabei neu hinzukommen;
- die **Macrotask-Queue** der Timer: ``set_timeout(callback, ms)``. Die Loop nimmt immer den Timer,
  der am frühesten fällig ist; bei gleicher Fälligkeit den, der zuerst eingetragen wurde.

Die Zeit ist simuliert (Millisekunden, ganze Zahlen). Sie vergeht nur, wenn die Loop auf einen
Timer wartet oder wenn ein Callback mit ``busy(ms)`` rechnet. Wie in Node.js wird
``set_timeout(f, 0)`` zu 1 ms. Die Loop hat ihre eigene Uhr, nicht ``pysim.Zeit``: Sie bildet Nodes
Regeln nach (alle Microtasks zwischen zwei Timern, ``busy`` lässt Zeit mitten in einem Callback
vergehen), die ein Terminkalender nicht kennt, und kein anderes Modell teilt ihre Zeit. Ein
Beispiel::

    loop = EventLoop()
    loop.log("A")
    loop.set_timeout(lambda: loop.log("B"), 0)
    loop.promise_then(lambda: loop.log("C"))
    loop.log("D")
    loop.run()          # -> ['A', 'D', 'C', 'B']

``loop`` zeichnet sich als Bild (``_repr_svg_``): eine Zeile je Schritt, in der Spalte der Queue,
aus der er kam. Nicht nachgebildet sind I/O, ``setImmediate``, ``process.nextTick``,
``setInterval``, abgelehnte Promises und die 4-ms-Regel des Browsers für tief verschachtelte Timer.
"""

from __future__ import annotations

import functools
import heapq
import inspect
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .fehler import SimFehler, UngueltigeEingabe, pruefe_ganzzahl
from .svg import Bild, Zeichnung

#: Die drei Herkunftsarten eines Schritts, in der Reihenfolge der Spalten im Bild.
ARTEN = ("skript", "microtask", "timer")
SPALTEN = {"skript": "Skript", "microtask": "Microtask", "timer": "Timer (Macrotask)"}


class EndloseSchleife(SimFehler, RuntimeError):
    """Die Loop wird nicht fertig: zu viele Schritte (z. B. Microtasks, die sich neu einreihen)."""


@dataclass
class Schritt:
    """Ein Durchlauf auf dem Call Stack: das Skript, ein Microtask oder ein Timer."""

    nummer: int
    art: str  # "skript", "microtask" oder "timer"
    name: str
    start: int  # ms, als der Schritt begann
    ende: int = 0  # ms, als er fertig war (nach busy)
    faellig: int | None = None  # nur Timer: wann er hätte laufen sollen
    ausgabe: list[str] = field(default_factory=list)

    @property
    def verspaetung(self) -> int:
        """Wie viele ms ein Timer nach seiner Fälligkeit lief (0 für alles andere)."""
        return 0 if self.faellig is None else self.start - self.faellig

    def __repr__(self) -> str:
        zeit = f"t={self.start}" if self.ende == self.start else f"t={self.start}–{self.ende}"
        spaet = f", {self.verspaetung} ms zu spät" if self.verspaetung else ""
        return f"Schritt({self.nummer}: {SPALTEN[self.art]} „{self.name}“ {zeit}{spaet})"


class Versprechen:
    """Ein Promise im Modell: erfüllt oder noch offen. ``then`` reiht Microtasks ein."""

    def __init__(self, loop: EventLoop, name: str = "Promise") -> None:
        self._loop = loop
        self.name = name
        self.erfuellt = False
        self.wert: Any = None
        self._reaktionen: list[tuple[Callable[[Any], None], str]] = []

    def resolve(self, wert: Any = None) -> None:
        """Erfüllt das Promise. Wartende ``then``-Callbacks kommen in die Microtask-Queue.

        Ein zweites ``resolve`` ändert nichts (wie in JavaScript). Ist ``wert`` selbst ein
        Versprechen, übernimmt dieses Promise dessen Wert, zwei Microtasks später (wie V8).
        """
        if self.erfuellt:
            return
        if isinstance(wert, Versprechen):
            self._loop._einreihen(lambda: wert.then(self.resolve, name="übernehmen"), "übernehmen")
            return
        self.erfuellt = True
        self.wert = wert
        reaktionen, self._reaktionen = self._reaktionen, []
        for reaktion, name in reaktionen:
            self._loop._einreihen(functools.partial(reaktion, wert), name)

    def then(self, callback: Callable[..., Any], name: str | None = None) -> Versprechen:
        """Wie ``promise.then(callback)``: gibt ein neues Versprechen mit dem Rückgabewert zurück.

        ``callback`` bekommt den Wert, wenn er einen Parameter hat, sonst nichts.
        """
        _pruefe_callback(callback, "then")
        folge = Versprechen(self._loop, "then")
        anzeige = name if name is not None else _name(callback, "then")

        def reaktion(wert: Any) -> None:
            folge.resolve(_aufrufen(callback, wert))

        if self.erfuellt:
            self._loop._einreihen(lambda: reaktion(self.wert), anzeige)
        else:
            self._reaktionen.append((reaktion, anzeige))
        return folge

    def __repr__(self) -> str:
        zustand = f"erfüllt mit {self.wert!r}" if self.erfuellt else "offen"
        return f"Versprechen({zustand})"


class EventLoop:
    """Die Event Loop: Skript, Microtask-Queue, Timer. ``run()`` gibt die Ausgabe zurück."""

    def __init__(self, max_schritte: int = 10_000) -> None:
        self.max_schritte = pruefe_ganzzahl(max_schritte, "max_schritte", 1)
        self._now = 0
        self._timer: list[tuple[int, int, int]] = []  # (fällig, laufende Nummer, id)
        self._timer_daten: dict[int, tuple[Callable[[], Any], str, int]] = {}
        self._naechste_id = 1
        self._zaehler = 0
        self._micro: deque[tuple[Callable[[], Any], str]] = deque()
        self._ausgabe: list[str] = []
        self._schritte: list[Schritt] = []
        self._skripte = 0
        self._skript: Schritt | None = None
        self._aktuell: Schritt | None = None
        self._laeuft = False

    # --- Was Callbacks und das Skript tun ---

    @property
    def now(self) -> int:
        """Die simulierte Zeit in ms."""
        return self._now

    def log(self, *teile: Any) -> None:
        """Wie ``console.log``: schreibt eine Zeile (Teile mit Leerzeichen verbunden)."""
        zeile = " ".join(str(t) for t in teile)
        self._ausgabe.append(zeile)
        self._schritt().ausgabe.append(zeile)

    def busy(self, ms: int) -> None:
        """Rechnet ``ms`` Millisekunden lang (CPU-Arbeit): Der Call Stack bleibt so lange belegt."""
        pruefe_ganzzahl(ms, "Die Rechenzeit (ms)", 0)
        self._schritt()
        self._now += ms

    def set_timeout(self, callback: Callable[[], Any], ms: int = 0, name: str | None = None) -> int:
        """Wie ``setTimeout(callback, ms)``: gibt die Nummer des Timers zurück (0 wird zu 1 ms)."""
        _pruefe_callback(callback, "set_timeout")
        pruefe_ganzzahl(ms, "Die Verzögerung (ms)", 0)
        self._schritt()
        timer_id = self._naechste_id
        self._naechste_id += 1
        faellig = self._now + max(ms, 1)
        anzeige = name if name is not None else _name(callback, f"setTimeout {ms} ms")
        self._timer_daten[timer_id] = (callback, anzeige, faellig)
        heapq.heappush(self._timer, (faellig, self._zaehler, timer_id))
        self._zaehler += 1
        return timer_id

    def clear_timeout(self, timer_id: int) -> None:
        """Wie ``clearTimeout``: streicht einen Timer (unbekannte Nummern: nichts geschieht)."""
        self._timer_daten.pop(timer_id, None)

    def queue_microtask(self, callback: Callable[[], Any], name: str | None = None) -> None:
        """Wie ``queueMicrotask(callback)``."""
        _pruefe_callback(callback, "queue_microtask")
        self._schritt()
        self._einreihen(callback, name if name is not None else _name(callback, "queueMicrotask"))

    def promise_then(self, callback: Callable[..., Any], name: str | None = None) -> Versprechen:
        """Wie ``Promise.resolve().then(callback)``: gibt das Folge-Versprechen zurück."""
        _pruefe_callback(callback, "then")
        return self.resolved(None).then(callback, name)

    def resolved(self, wert: Any = None) -> Versprechen:
        """Wie ``Promise.resolve(wert)``: ein schon erfülltes Versprechen."""
        self._schritt()
        v = Versprechen(self, "Promise")
        v.erfuellt = True
        v.wert = wert
        return v

    def versprechen(self) -> Versprechen:
        """Ein offenes Versprechen; ``resolve(wert)`` erfüllt es später."""
        self._schritt()
        return Versprechen(self)

    def warte(self, ms: int, wert: Any = None) -> Versprechen:
        """Ein Versprechen, das ein Timer nach ``ms`` erfüllt (wie ``new Promise(r =>
        setTimeout(() => r(wert), ms))``)."""
        v = self.versprechen()
        self.set_timeout(lambda: v.resolve(wert), ms, name=f"warte {ms} ms")
        return v

    # --- Die Loop ---

    def run(self) -> list[str]:
        """Beendet das Skript, leert die Microtasks und führt alle Timer aus. Gibt die Ausgabe.

        Danach kann neuer Code folgen (ein weiteres Skript) und ein weiteres ``run()``.
        """
        if self._laeuft:
            raise UngueltigeEingabe("run() läuft schon: Ein Callback darf run() nicht aufrufen.")
        self._laeuft = True
        gelaufen = 0
        try:
            if self._skript is not None:
                self._skript.ende = self._now
                self._skript = None
            gelaufen = self._microtasks(gelaufen)
            while self._timer:
                faellig, _, timer_id = heapq.heappop(self._timer)
                daten = self._timer_daten.pop(timer_id, None)
                if daten is None:
                    continue  # mit clear_timeout gestrichen
                callback, name, _ = daten
                self._now = max(self._now, faellig)
                gelaufen = self._ausfuehren("timer", name, callback, gelaufen, faellig)
                gelaufen = self._microtasks(gelaufen)
        finally:
            self._laeuft = False
            self._aktuell = None
        return self.ausgabe

    def _microtasks(self, gelaufen: int) -> int:
        while self._micro:
            callback, name = self._micro.popleft()
            gelaufen = self._ausfuehren("microtask", name, callback, gelaufen)
        return gelaufen

    def _ausfuehren(
        self,
        art: str,
        name: str,
        callback: Callable[[], Any],
        gelaufen: int,
        faellig: int | None = None,
    ) -> int:
        if gelaufen >= self.max_schritte:
            if art == "microtask":
                grund = (
                    "Die Microtask-Queue wird nie leer: Jeder Microtask reiht einen neuen ein. "
                    "Solange das so ist, kommt kein Timer dran (die Timer verhungern)."
                )
            else:
                grund = "Es kommen immer neue Timer dazu: Die Loop wird nie fertig."
            raise EndloseSchleife(
                f"Nach {self.max_schritte} Schritten ist die Loop noch nicht fertig. {grund}"
            )
        schritt = Schritt(len(self._schritte) + 1, art, name, self._now, faellig=faellig)
        self._schritte.append(schritt)
        self._aktuell = schritt
        try:
            callback()
        finally:
            schritt.ende = self._now
            self._aktuell = None
        return gelaufen + 1

    def _einreihen(self, callback: Callable[[], Any], name: str) -> None:
        self._micro.append((callback, name))

    def _schritt(self) -> Schritt:
        """Der Schritt, der gerade läuft; außerhalb von Callbacks das (neue) Skript."""
        if self._aktuell is not None:
            return self._aktuell
        if self._skript is None:
            self._skripte += 1
            name = "Skript" if self._skripte == 1 else f"Skript {self._skripte}"
            self._skript = Schritt(len(self._schritte) + 1, "skript", name, self._now)
            self._schritte.append(self._skript)
        return self._skript

    # --- Ansehen ---

    @property
    def ausgabe(self) -> list[str]:
        """Alle Zeilen von ``log`` in der Reihenfolge, in der sie geschrieben wurden."""
        return list(self._ausgabe)

    @property
    def schritte(self) -> list[Schritt]:
        """Alle Schritte bisher: Skript, Microtasks und Timer, in der Reihenfolge des Laufs."""
        return list(self._schritte)

    @property
    def wartend(self) -> dict[str, int]:
        """Wie viele Microtasks und Timer noch warten."""
        return {"microtasks": len(self._micro), "timer": len(self._timer_daten)}

    def bild(self, max_schritte: int = 30) -> Bild:
        """Ein Bild des Laufs: eine Zeile je Schritt, in der Spalte seiner Queue."""
        pruefe_ganzzahl(max_schritte, "max_schritte", 1)
        return _bild(self, max_schritte)

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        w = self.wartend
        if not self._schritte and not w["microtasks"] and not w["timer"]:
            return f"EventLoop(t={self._now} ms, noch nichts geplant)"
        if w["microtasks"] or w["timer"] or self._skript is not None:
            return (
                f"EventLoop(t={self._now} ms, noch nicht gelaufen: {w['microtasks']} Microtasks, "
                f"{w['timer']} Timer; Ausgabe bisher: {self._ausgabe!r})"
            )
        return (
            f"EventLoop(t={self._now} ms, fertig nach {len(self._schritte)} Schritten; "
            f"Ausgabe: {self._ausgabe!r})"
        )


def _pruefe_callback(callback: object, wo: str) -> None:
    if not callable(callback):
        raise UngueltigeEingabe(
            f"{wo} braucht eine Funktion, z. B. lambda: loop.log('B'), nicht {callback!r}. "
            "Tipp: Ohne lambda würde der Aufruf sofort laufen, nicht später."
        )


def _name(callback: Callable[..., Any], ersatz: str) -> str:
    name = getattr(callback, "__name__", "")
    return ersatz if not name or name == "<lambda>" else name


def _aufrufen(callback: Callable[..., Any], wert: Any) -> Any:
    """Ruft ``callback(wert)`` auf, wenn er einen Parameter annimmt, sonst ``callback()``."""
    try:
        parameter = inspect.signature(callback).parameters.values()
    except (TypeError, ValueError):
        return callback(wert)
    positionell = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind in positionell or p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameter):
        return callback(wert)
    return callback()


# --- Das Bild ---

OBEN = 30  # Höhe der Kopfzeile
LINKS = 50  # Spalte „Zeit“
BAHN = 60  # Breite einer Spalte Skript / Microtask / Timer
TEXT = 190  # Spalte „Ausgabe“
ZEICHEN = 26  # so viele Zeichen einer Ausgabezeile passen
MAX_ZEILEN = 4  # Ausgabezeilen je Schritt, danach „…“
FARBE = {"skript": "fg", "microtask": "accent", "timer": "next"}
KOPF = {"skript": "Skript", "microtask": "Microtask", "timer": "Timer"}


def _bild(loop: EventLoop, max_schritte: int) -> Bild:
    schritte = loop.schritte
    gezeigt = schritte[:max_schritte]
    rest = len(schritte) - len(gezeigt)
    breite = LINKS + 3 * BAHN + TEXT
    zeilen = []
    for s in gezeigt:
        texte = [kuerze_hinten(t, ZEICHEN) for t in s.ausgabe[:MAX_ZEILEN]]
        if len(s.ausgabe) > MAX_ZEILEN:
            texte.append(f"… und {len(s.ausgabe) - MAX_ZEILEN} weitere")
        zeilen.append((s, texte, 20 + 15 * len(texte) + 6))
    hoehe = OBEN + sum(h for _, _, h in zeilen) + (24 if rest else 0) + (30 if not gezeigt else 6)
    reihenfolge = ", ".join(loop.ausgabe) or "keine"
    z = Zeichnung(breite, hoehe, f"Event Loop, Schritt für Schritt. Ausgabe: {reihenfolge}")
    z.text(6, 19, "Zeit", farbe_name="muted", groesse=11)
    for i, art in enumerate(ARTEN):
        x = LINKS + i * BAHN
        z.text(
            x + BAHN // 2,
            19,
            KOPF[art],
            anker="middle",
            groesse=11,
            fett=True,
            farbe_name=FARBE[art],
        )
    z.text(LINKS + 3 * BAHN + 8, 19, "Name und Ausgabe", farbe_name="muted", groesse=11)
    z.linie(0, OBEN - 3, breite, OBEN - 3)
    if not gezeigt:
        z.text(LINKS + 8, OBEN + 20, "Noch nichts gelaufen.", farbe_name="muted")
    y = OBEN
    for s, texte, h in zeilen:
        zeit = f"{s.start}" if s.ende == s.start else f"{s.start}–{s.ende}"
        z.text(6, y + 17, f"t={zeit}", groesse=11, mono=True)
        if s.verspaetung:
            z.text(6, y + 32, f"+{s.verspaetung} ms", groesse=11, farbe_name="warn", fett=True)
        x = LINKS + ARTEN.index(s.art) * BAHN
        z.rechteck(x + 6, y + 4, BAHN - 12, h - 10, fuellung="bg", rand=FARBE[s.art], rund=6)
        z.text(
            x + BAHN // 2,
            y + 18,
            str(s.nummer),
            anker="middle",
            groesse=12,
            fett=True,
            farbe_name=FARBE[s.art],
        )
        tx = LINKS + 3 * BAHN + 8
        z.text(tx, y + 16, s.name, farbe_name="muted", groesse=11)
        for j, t in enumerate(texte):
            z.text(tx, y + 32 + 15 * j, t, groesse=12, mono=True, fett=True)
        y += h
        z.linie(0, y, breite, y, gestrichelt=True)
    if rest:
        z.text(LINKS + 8, y + 17, f"… und {rest} weitere Schritte", farbe_name="muted", groesse=11)
    return Bild(z.svg(), "Event Loop")


def kuerze_hinten(text: str, zeichen: int) -> str:
    """Kürzt zu langen Text hinten ab: ``abcdef`` mit 4 Zeichen -> ``abc…``."""
    return text if len(text) <= zeichen else text[: zeichen - 1] + "…"


__all__ = ["EndloseSchleife", "EventLoop", "Schritt", "Versprechen"]
