"""Prozesse auf der simulierten Zeit: ``async``-Code, der wartet, ohne asyncio.

Ein ``Prozess`` ist eine Coroutine (eine ``async``-Funktion, einmal aufgerufen), die Schritt für
Schritt weiterläuft, wie ein Prozess bei SimPy: Sie läuft bis zu ihrem nächsten ``await``, wartet
dort auf ein ``Wartbar`` und läuft weiter, sobald es da ist (``weiter(wert)``) oder scheiterte
(``weiter(fehler=…)``, dann wirft das ``await``). Wann etwas da ist, sagt das Modell, das den
Prozess laufen lässt: Es trägt Termine auf seiner ``Zeit`` ein (eine Antwort, ein Timer), und
die Reihenfolge im selben Tick ist die der ``Zeit`` (ihr Zähler). Darum läuft derselbe Prozess
in CPython wie in Pyodide gleich.

Worauf gewartet wird, stellt das Modell (z. B. ``Knoten.frage`` und ``Knoten.warte`` im
Cluster); allgemein sind die zwei, die mehrere zusammenfassen:

- ``Erste(k, teile)``: die ersten ``k`` Erfolge unter ``teile`` (ein Leader, der auf eine
  Mehrheit der Antworten wartet). Das ``await`` gibt die Werte der ``k`` Erfolge in der
  Reihenfolge ihres Eintreffens. Können nicht mehr ``k`` gelingen (zu viele scheiterten), wirft
  es ``NichtGenug`` (oder, was das Modell dafür angibt), mit dem, was kam. Was danach noch
  eintrifft, wird ignoriert und setzt nichts mehr fort.
- ``Eines(teile)``: das erste, das eintrifft; das ``await`` gibt ``Erstes(stelle, wert)``.
  Scheitert das erste, wirft das ``await`` dessen Fehler (wie SimPys ``AnyOf``).

Wie ein Fehler im Code der Leserin gemeldet wird, entscheidet das Modell (``bei_fehler``); der
Prozess selbst endet dann.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Generator, Sequence
from typing import Any, NamedTuple, Protocol

from .fehler import SimFehler, UngueltigeEingabe, pruefe_ganzzahl


class Fortsetzung(Protocol):
    """Was ein ``Wartbar`` fortsetzt, sobald es da ist: ein ``Prozess`` oder ein Teil eines
    ``Erste``/``Eines``."""

    def weiter(self, wert: Any = None, fehler: BaseException | None = None) -> None:
        """Es ist da (``wert``) oder scheiterte (``fehler``)."""
        ...


class Wartbar:
    """Etwas, worauf ein Prozess wartet (``await``). ``anmelden`` bekommt die Fortsetzung und
    sorgt dafür, dass sie genau einmal weiterläuft (oder nie, wenn das Modell sie abbricht)."""

    def anmelden(self, fortsetzung: Fortsetzung) -> None:
        raise NotImplementedError

    def bestandteile(self) -> Sequence[Wartbar]:
        """Worauf dieses Wartbar selbst wartet (bei ``Erste`` und ``Eines``), sonst nichts."""
        return ()

    def __await__(self) -> Generator[Wartbar, Any, Any]:
        return (yield self)


class Erstes(NamedTuple):
    """Was ``await Eines(…)`` gibt: welches zuerst eintraf (``stelle`` in der Liste, ab 0) und sein Wert."""

    stelle: int
    wert: Any


class NichtGenug(SimFehler, TimeoutError):
    """``Erste``: Es können nicht mehr genug gelingen. ``werte``: was gelang, ``fehler``: was
    scheiterte (je in der Reihenfolge des Eintreffens)."""

    def __init__(self, text: str, werte: list[Any], fehler: list[BaseException]) -> None:
        super().__init__(text)
        self.werte = werte
        self.fehler = fehler


def _nicht_genug(k: int, n: int, werte: list[Any], fehler: list[BaseException]) -> BaseException:
    return NichtGenug(
        f"Gebraucht waren {k} von {n}, aber nur {len(werte)} gelangen und {len(fehler)} "
        "scheiterten: Mehr können nicht mehr gelingen.",
        werte,
        fehler,
    )


class _Runde:
    """One await of an ``Erste`` or ``Eines``: whom to resume and what arrived so far. Kept
    apart from the ``Erste``/``Eines`` the code holds, so that object leads to no process."""

    __slots__ = ("fehler", "fertig", "fortsetzung", "gruppe", "werte")

    def __init__(self, gruppe: _Gruppe, fortsetzung: Fortsetzung) -> None:
        self.gruppe, self.fortsetzung = gruppe, fortsetzung
        self.werte: list[Any] = []
        self.fehler: list[BaseException] = []
        self.fertig = False

    def ende(self, wert: Any = None, fehler: BaseException | None = None) -> None:
        self.fertig = True
        self.fortsetzung.weiter(wert, fehler)


class _Teil:
    """The continuation of one part of an ``Erste`` or ``Eines``: tells its round which part
    arrived; once the round is decided, what arrives is ignored and resumes nothing."""

    __slots__ = ("runde", "stelle")

    def __init__(self, runde: _Runde, stelle: int) -> None:
        self.runde, self.stelle = runde, stelle

    def weiter(self, wert: Any = None, fehler: BaseException | None = None) -> None:
        runde = self.runde
        if not runde.fertig:
            runde.gruppe._eingetroffen(runde, self.stelle, wert, fehler)


class _Gruppe(Wartbar):
    """What ``Erste`` and ``Eines`` share: register every part in order, resume once."""

    def __init__(self, teile: Sequence[Wartbar], wer: str) -> None:
        teile = list(teile)
        for teil in teile:
            if not isinstance(teil, Wartbar):
                raise UngueltigeEingabe(
                    f"{wer} wartet auf Wartbare (wie self.frage(…) oder self.warte(…)), nicht "
                    f"auf {type(teil).__name__}."
                )
        self._teile = teile

    def bestandteile(self) -> Sequence[Wartbar]:
        return self._teile

    def anmelden(self, fortsetzung: Fortsetzung) -> None:
        runde = _Runde(self, fortsetzung)
        if self._sofort(runde):
            return
        for stelle, teil in enumerate(self._teile):
            if runde.fertig:  # decided meanwhile: what is left is never asked
                break
            teil.anmelden(_Teil(runde, stelle))

    def _sofort(self, runde: _Runde) -> bool:
        """Decided before anything is asked (``Erste`` with k = 0)."""
        return False

    def _eingetroffen(
        self, runde: _Runde, stelle: int, wert: Any, fehler: BaseException | None
    ) -> None:
        raise NotImplementedError


class Erste(_Gruppe):
    """``await Erste(k, teile)``: die Werte der ersten ``k`` Erfolge unter ``teile`` (in der
    Reihenfolge ihres Eintreffens), sobald sie da sind. Können nicht mehr ``k`` gelingen,
    wirft das ``await`` ``zu_wenige(k, n, werte, fehler)`` (Standard: ``NichtGenug``). Was
    danach eintrifft, wird ignoriert. ``k`` = 0 gibt sofort ``[]``. Jedes ``await`` fragt
    von neuem."""

    def __init__(
        self,
        k: int,
        teile: Sequence[Wartbar],
        *,
        zu_wenige: Callable[[int, int, list[Any], list[BaseException]], BaseException] = (
            _nicht_genug
        ),
        wer: str = "erste(k, […])",
    ) -> None:
        super().__init__(teile, wer)
        n = len(self._teile)
        pruefe_ganzzahl(k, f"k in {wer}", 0)
        if k > n:
            raise UngueltigeEingabe(
                f"{wer} soll auf {k} Erfolge warten, hat aber nur {n} Wartbare: Mehr als {n} "
                "können nicht gelingen."
            )
        self.k = k
        self._zu_wenige = zu_wenige

    def _sofort(self, runde: _Runde) -> bool:
        if self.k == 0:
            runde.ende([])
            return True
        return False

    def _eingetroffen(
        self, runde: _Runde, stelle: int, wert: Any, fehler: BaseException | None
    ) -> None:
        if fehler is None:
            runde.werte.append(wert)
            if len(runde.werte) == self.k:
                runde.ende(list(runde.werte))
            return
        runde.fehler.append(fehler)
        n = len(self._teile)
        if n - len(runde.fehler) < self.k:  # even if every part still open succeeds
            runde.ende(fehler=self._zu_wenige(self.k, n, list(runde.werte), list(runde.fehler)))


class Eines(_Gruppe):
    """``await Eines(teile)``: das erste unter ``teile``, das eintrifft, als ``Erstes(stelle,
    wert)``; scheitert es, wirft das ``await`` seinen Fehler. Was danach eintrifft, wird
    ignoriert."""

    def __init__(self, teile: Sequence[Wartbar], *, wer: str = "eines(…)") -> None:
        super().__init__(teile, wer)
        if not self._teile:
            raise UngueltigeEingabe(f"{wer} braucht mindestens ein Wartbar, worauf es wartet.")

    def _eingetroffen(
        self, runde: _Runde, stelle: int, wert: Any, fehler: BaseException | None
    ) -> None:
        if fehler is None:
            runde.ende(Erstes(stelle, wert))
        else:
            runde.ende(fehler=fehler)


class Prozess:
    """Eine laufende Coroutine: ``weiter`` setzt sie fort bis zu ihrem nächsten ``await``.

    - ``bei_fehler(e)``: wirft der Code des Prozesses (oder wartet er auf etwas, das nicht
      erlaubt ist), endet der Prozess, und das Modell meldet ``e`` so, wie es will.
    - ``erlaubt``: die Klassen, auf die der Prozess warten darf (genau diese, keine
      Unterklassen: ein fremdes Wartbar bekäme sonst die Fortsetzung in die Hand); leer: jedes
      ``Wartbar``. ``Erste`` und ``Eines`` sind immer erlaubt, ihre Teile werden ebenso geprüft.
    - ``falsch``: der Text, wenn der Code auf etwas anderes wartet (bekommt dessen Typnamen).
    - ``bei_ende``: wird gerufen, wenn der Prozess endet, wie auch immer (zum Aufräumen).

    Ein Modell, das den Code der Leserin nur in einem eigenen Rahmen laufen lässt (Budget,
    Ausgabe), überschreibt ``schritt``; was aus ``schritt`` als ``durchlassen`` fliegt, beendet
    nicht den Prozess, sondern den ganzen Lauf.
    """

    durchlassen: tuple[type[BaseException], ...] = ()

    def __init__(
        self,
        coro: Coroutine[Any, Any, Any],
        *,
        bei_fehler: Callable[[BaseException], None],
        erlaubt: tuple[type[Wartbar], ...] = (),
        falsch: Callable[[str], str] | None = None,
        bei_ende: Callable[[Prozess], None] | None = None,
    ) -> None:
        self.coro, self.bei_fehler, self.erlaubt = coro, bei_fehler, erlaubt
        self.falsch, self.bei_ende = falsch, bei_ende
        self.beendet = self._im_anmelden = False
        self._sofort: tuple[Any, BaseException | None] | None = None

    def schritt(self, wert: Any, fehler: BaseException | None) -> Any:
        """One step of the coroutine: what it awaits next (``StopIteration`` when it ends)."""
        if fehler is not None:
            return self.coro.throw(fehler)
        return self.coro.send(wert)

    def weiter(self, wert: Any = None, fehler: BaseException | None = None) -> None:
        """Setzt den Prozess fort: ``wert`` ist, was sein ``await`` gibt, ``fehler``, was es
        wirft. Ein beendeter Prozess läuft nicht mehr weiter."""
        if self.beendet:
            return
        if self._im_anmelden:
            # Resumed while registering its wait (an answer that fails at once): run it after
            # ``anmelden`` returns, so the stack does not grow with every such step.
            self._sofort = (wert, fehler)
            return
        while True:
            try:
                warten = self.schritt(wert, fehler)
            except StopIteration:
                self._beende()
                return
            except self.durchlassen:
                self._beende()
                raise
            except Exception as e:  # the code failed: the model reports it
                self._beende()
                self.bei_fehler(e)
                return
            falsch = self._unerlaubt(warten)
            if falsch is not None:
                self.coro.close()
                self._beende()
                self.bei_fehler(UngueltigeEingabe(self._falsch_text(falsch)))
                return
            self._im_anmelden = True
            try:
                warten.anmelden(self)
            except self.durchlassen:
                raise
            except Exception as e:  # e.g. awaiting one ``erste(…)`` twice: raised at the await
                self._sofort = (None, e)
            finally:
                self._im_anmelden = False
            if self._sofort is None or self.beendet:
                return
            (wert, fehler), self._sofort = self._sofort, None

    def abbrechen(self) -> None:
        """Der Prozess läuft nie weiter (sein Knoten stürzte ab): Was er erwartet, setzt nichts
        mehr fort."""
        if not self.beendet:
            self.coro.close()
            self._beende()

    def _beende(self) -> None:
        self.beendet = True
        if self.bei_ende is not None:
            self.bei_ende(self)

    def _unerlaubt(self, warten: object) -> str | None:
        """The type name of what may not be awaited (in ``warten`` or one of its parts), or None."""
        offen = [warten]
        while offen:
            w = offen.pop()
            if type(w) in (Erste, Eines):
                offen.extend(w.bestandteile())  # type: ignore[attr-defined]
            elif not (type(w) in self.erlaubt if self.erlaubt else isinstance(w, Wartbar)):
                return type(w).__name__
        return None

    def _falsch_text(self, name: str) -> str:
        if self.falsch is not None:
            return self.falsch(name)
        return (
            f"Ein Prozess kann nur auf Wartbare warten (await), nicht auf {name}: asyncio gibt "
            "es in der Simulation nicht."
        )
