"""Simulierte Zeit: eine Uhr mit einem Terminkalender.

Die Zeit der Simulation ist eine ganze Zahl (Ticks), keine echte Uhr. Wer etwas „in 3 Ticks“
erledigen will, trägt einen Termin ein (``schedule``). ``run(until=t)`` lässt die Uhr bis ``t``
laufen und führt dabei jeden fälligen Termin aus, in der Reihenfolge seiner Zeit. Zwei Termine zur
selben Zeit laufen in der Reihenfolge, in der sie eingetragen wurden. Darum geht jeder Lauf gleich
aus, in CPython wie in Pyodide. Ein Termin, der mit ``schedule_zuerst`` eingetragen wird, läuft vor
allen gewöhnlichen Terminen seines Ticks (untereinander wieder in der Reihenfolge des Eintragens):
So steht eine Störung am Anfang ihres Ticks, gleich, wann sie eingetragen wurde.

Das Vorbild ist SimPy: ein Heap aus ``(zeit, laufende_nummer, termin)``; was nie abgesagt
wird (die Ankunft einer Nachricht im Cluster), steht dort ohne ``Termin`` als ``(zeit,
laufende_nummer, aktion, argument)``, wie bei SimPy. Modelle, die eine Uhr
teilen (``Queue(zeit=uhr)``, ``FakeNetz(zeit=uhr)``, ``EventStore(zeit=uhr)``), tragen
ihre Termine in denselben Kalender ein und sehen alles in einer Reihenfolge. Code, der auf
etwas wartet (``async``/``await``), läuft als ``pysim.prozess.Prozess`` auf dieser Uhr.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from .fehler import UngueltigeEingabe, pruefe_ganzzahl


class Termin:
    """Ein eingetragener Termin. ``absagen()`` streicht ihn, bevor er fällig wird."""

    __slots__ = ("_uhr", "abgesagt", "aktion", "argumente", "erledigt", "nummer", "zeit")

    def __init__(
        self,
        uhr: Zeit,
        zeit: int,
        nummer: int,
        aktion: Callable[..., Any],
        argumente: tuple[Any, ...],
    ) -> None:
        self._uhr = uhr
        self.zeit = zeit
        self.nummer = nummer
        self.aktion = aktion
        self.argumente = argumente
        self.abgesagt = False
        self.erledigt = False

    def absagen(self) -> None:
        """Streicht den Termin. Ein erledigter oder schon abgesagter Termin bleibt, wie er ist."""
        if not self.abgesagt and not self.erledigt:
            self.abgesagt = True
            self._uhr._abgesagt(self)

    def __repr__(self) -> str:
        zustand = "abgesagt" if self.abgesagt else "erledigt" if self.erledigt else "geplant"
        return f"Termin(t={self.zeit}, Nr. {self.nummer}, {zustand})"


class Zeit:
    """Die Uhr der Simulation. ``now`` ist der aktuelle Tick."""

    def __init__(self, start: int = 0) -> None:
        self._now = pruefe_ganzzahl(start, "Die Startzeit", 0)
        #: ``(zeit, nummer, termin)``, or ``(zeit, nummer, aktion, argument)`` for an entry that
        #: is never cancelled (``_eintragen_fest``); numbers are unique, so the heap compares
        #: only the first two.
        self._heap: list[tuple[Any, ...]] = []
        self._zaehler = 0
        #: Numbers of the appointments that run first in their tick: below every ordinary one.
        self._zuerst = -(2**62)
        # Every entry in the heap is pending or cancelled (a run pops what it runs), so the
        # pending ones need no counter of their own: ``geplant`` subtracts the cancelled.
        self._abgesagt_im_heap = 0

    @property
    def now(self) -> int:
        """Der aktuelle Tick."""
        return self._now

    @property
    def geplant(self) -> int:
        """Wie viele Termine noch ausstehen (abgesagte zählen nicht)."""
        return len(self._heap) - self._abgesagt_im_heap

    def schedule(self, delay: int, callback: Callable[..., Any], *args: Any) -> Termin:
        """Trägt ``callback(*args)`` für den Tick ``now + delay`` ein und gibt den Termin zurück."""
        pruefe_ganzzahl(delay, "Die Verzögerung", 0)
        return self._eintragen(self._now + delay, callback, args)

    def schedule_zuerst(self, delay: int, callback: Callable[..., Any], *args: Any) -> Termin:
        """Wie ``schedule``, aber der Termin läuft vor allen gewöhnlichen Terminen seines Ticks
        (mehrere solche untereinander in der Reihenfolge, in der sie eingetragen wurden)."""
        pruefe_ganzzahl(delay, "Die Verzögerung", 0)
        return self._eintragen_zuerst(self._now + delay, callback, args)

    def _eintragen_zuerst(
        self, zeit: int, aktion: Callable[..., Any], argumente: tuple[Any, ...]
    ) -> Termin:
        """``schedule_zuerst`` without the check, as ``_eintragen`` (``zeit`` not before ``now``):
        the arrival of a message of latency 0 in ``Cluster(sofort=True)``."""
        nummer = self._zuerst
        self._zuerst = nummer + 1
        termin = Termin(self, zeit, nummer, aktion, argumente)
        heapq.heappush(self._heap, (zeit, nummer, termin))
        return termin

    def _eintragen(
        self, zeit: int, aktion: Callable[..., Any], argumente: tuple[Any, ...]
    ) -> Termin:
        """``schedule`` without the check, for pysim's models on their hot path: ``zeit`` must
        be an int not before ``now`` (the caller validated it once, e.g. a queue's timeout)."""
        nummer = self._zaehler
        termin = Termin(self, zeit, nummer, aktion, argumente)
        self._zaehler = nummer + 1
        heapq.heappush(self._heap, (zeit, nummer, termin))
        return termin

    def _eintragen_fest(self, zeit: int, aktion: Callable[[Any], Any], argument: Any) -> None:
        """``aktion(argument)`` at ``zeit`` (not before ``now``), never cancelled: no ``Termin``,
        only ``(zeit, nummer, aktion, argument)`` in the heap (SimPy's entry). The arrival of
        every message in ``pysim.cluster`` comes here: one object and one frame less each."""
        nummer = self._zaehler
        self._zaehler = nummer + 1
        heapq.heappush(self._heap, (zeit, nummer, aktion, argument))

    def _eintragen_zuerst_fest(
        self, zeit: int, aktion: Callable[[Any], Any], argument: Any
    ) -> None:
        """``_eintragen_zuerst`` without a ``Termin``, as ``_eintragen_fest`` (never cancelled)."""
        nummer = self._zuerst
        self._zuerst = nummer + 1
        heapq.heappush(self._heap, (zeit, nummer, aktion, argument))

    def _reserviere(self) -> int:
        """The number an appointment entered now would get, kept for one entered later with
        ``_eintragen_als``: it runs in its tick where one entered now would have run (a timer
        moved later, ``pysim.cluster``'s ``Timer.verschiebe``, keeps the order of a new one)."""
        nummer = self._zaehler
        self._zaehler = nummer + 1
        return nummer

    def _eintragen_als(
        self, zeit: int, nummer: int, aktion: Callable[..., Any], argumente: tuple[Any, ...]
    ) -> Termin:
        """``_eintragen`` with a number ``_reserviere`` gave earlier (``zeit`` not before now)."""
        termin = Termin(self, zeit, nummer, aktion, argumente)
        heapq.heappush(self._heap, (zeit, nummer, termin))
        return termin

    def peek(self) -> int | None:
        """Der Tick des nächsten Termins, oder ``None``, wenn keiner aussteht."""
        self._verwerfe_abgesagte()
        return self._heap[0][0] if self._heap else None

    def naechster(self) -> Termin | None:
        """Der nächste fällige Termin (ohne ihn auszuführen), oder ``None``, wenn keiner aussteht."""
        self._verwerfe_abgesagte()
        if not self._heap:
            return None
        eintrag = self._heap[0]
        if len(eintrag) == 3:
            termin: Termin = eintrag[2]
            return termin
        # an entry without a Termin (``_eintragen_fest``): a Termin to read, not to cancel
        zeit, nummer, aktion, argument = eintrag
        return Termin(self, zeit, nummer, aktion, (argument,))

    def step(self) -> bool:
        """Führt den nächsten Termin aus (die Uhr springt auf seine Zeit). ``False``: keiner da."""
        self._verwerfe_abgesagte()
        if not self._heap:
            return False
        eintrag = heapq.heappop(self._heap)
        self._now = eintrag[0]
        if len(eintrag) == 4:
            eintrag[2](eintrag[3])
            return True
        termin = eintrag[2]
        termin.erledigt = True
        termin.aktion(*termin.argumente)
        return True

    def run(self, until: int | None = None) -> None:
        """Führt Termine aus: alle (``until=None``) oder alle bis einschließlich Tick ``until``.

        Mit ``until`` steht die Uhr danach genau auf ``until``.
        """
        if until is None:
            while self.step():
                pass
            return
        if until.__class__ is not int:  # checked only when it is not a plain tick
            pruefe_ganzzahl(until, "until")
        if until < self._now:
            raise UngueltigeEingabe(
                f"Die Zeit läuft nur vorwärts: Es ist schon t={self._now}, until={until} liegt davor."
            )
        # step() inlined: a queue's timeouts and a cluster's messages make this the hot loop.
        heap = self._heap  # rebuilt in place only (see _abgesagt), so this name stays valid
        pop = heapq.heappop
        while heap:
            eintrag = heap[0]
            termin = eintrag[2]  # a Termin, or the action of an entry without one
            if termin.__class__ is Termin:
                if termin.abgesagt:
                    pop(heap)
                    self._abgesagt_im_heap -= 1
                    continue
                if eintrag[0] > until:
                    break
                pop(heap)
                self._now = eintrag[0]
                termin.erledigt = True
                termin.aktion(*termin.argumente)
            else:  # ``_eintragen_fest``: (zeit, nummer, aktion, argument)
                if eintrag[0] > until:
                    break
                pop(heap)
                self._now = eintrag[0]
                termin(eintrag[3])
        self._now = until

    def tick(self, n: int = 1) -> None:
        """Lässt die Uhr ``n`` Ticks weiterlaufen."""
        pruefe_ganzzahl(n, "Die Anzahl der Ticks", 0)
        self.run(until=self._now + n)

    def _verwerfe_abgesagte(self) -> None:
        heap = self._heap
        while heap and len(heap[0]) == 3 and heap[0][2].abgesagt:
            heapq.heappop(heap)
            self._abgesagt_im_heap -= 1

    def _abgesagt(self, termin: Termin) -> None:
        """A cancelled appointment stays in the heap until it reaches the top. Once they are
        more than half of it, rebuild the heap without them (as asyncio does with its
        cancelled timers), so a model that cancels most of what it schedules (a queue whose
        messages are acked) keeps the heap, and the memory it holds, small."""
        self._abgesagt_im_heap += 1
        heap = self._heap
        if self._abgesagt_im_heap > 64 and 2 * self._abgesagt_im_heap > len(heap):
            heap[:] = [e for e in heap if len(e) == 4 or not e[2].abgesagt]
            heapq.heapify(heap)
            self._abgesagt_im_heap = 0

    def __repr__(self) -> str:
        return f"Zeit(t={self._now}, geplante Termine: {self.geplant})"


class AufDerZeit:
    """Ein Modell auf einer ``Zeit``: ``now`` liest die Uhr, ``tick(n)`` stellt sie vor.

    Was beim Vorstellen fällig wird, geschieht dabei (die Klasse des Modells sagt, was:
    Timeouts, Ankünfte, Projektoren). Modelle, die eine ``Zeit`` teilen, sehen es in einer
    Reihenfolge.
    """

    zeit: Zeit

    @property
    def now(self) -> int:
        """Der aktuelle Tick."""
        return self.zeit.now

    def tick(self, n: int = 1) -> None:
        """Lässt ``n`` Ticks vergehen; was dabei fällig ist, geschieht."""
        self.zeit.tick(n)
