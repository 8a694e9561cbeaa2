"""pysim.prozess: coroutines resumed on the simulated clock, first k of n and any of."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.fehler import UngueltigeEingabe
from pysim.prozess import Eines, Erste, Erstes, Fortsetzung, NichtGenug, Prozess, Wartbar
from pysim.zeit import Zeit


class Nach(Wartbar):
    """Arrives after ``ticks`` ticks with ``wert``, or fails with ``fehler``."""

    def __init__(self, zeit: Zeit, ticks: int, wert: Any = None, fehler: bool = False) -> None:
        self.zeit, self.ticks, self.wert, self.fehler = zeit, ticks, wert, fehler
        self.angemeldet = 0

    def anmelden(self, fortsetzung: Fortsetzung) -> None:
        self.angemeldet += 1
        if self.fehler:
            self.zeit.schedule(self.ticks, fortsetzung.weiter, None, KeyError(self.wert))
        else:
            self.zeit.schedule(self.ticks, fortsetzung.weiter, self.wert)


def starte(coro: Any) -> tuple[Prozess, list[BaseException]]:
    fehler: list[BaseException] = []
    prozess = Prozess(coro, bei_fehler=fehler.append)
    prozess.weiter()
    return prozess, fehler


def test_a_process_waits_on_the_clock_and_gets_the_value() -> None:
    zeit = Zeit()
    gesehen: list[tuple[int, Any]] = []

    async def ablauf() -> None:
        a = await Nach(zeit, 3, "a")
        gesehen.append((zeit.now, a))
        b = await Nach(zeit, 2, "b")
        gesehen.append((zeit.now, b))

    prozess, fehler = starte(ablauf())
    zeit.run()
    assert gesehen == [(3, "a"), (5, "b")]
    assert prozess.beendet and not fehler


def test_first_k_returns_the_first_successes_in_arrival_order_and_ignores_late_ones() -> None:
    zeit = Zeit()
    ergebnis: list[Any] = []
    teile = [Nach(zeit, 9, "langsam"), Nach(zeit, 2, "schnell"), Nach(zeit, 4, "mittel")]

    async def ablauf() -> None:
        werte = await Erste(2, teile)
        ergebnis.append((zeit.now, werte))
        ergebnis.append("danach")

    prozess, fehler = starte(ablauf())
    zeit.run()
    assert ergebnis == [(4, ["schnell", "mittel"]), "danach"]  # the one at t=9 resumed nothing
    assert prozess.beendet and not fehler
    assert [t.angemeldet for t in teile] == [1, 1, 1]  # asked in list order, once


def test_first_k_fails_as_soon_as_k_can_no_longer_succeed() -> None:
    zeit = Zeit()
    gefangen: list[Any] = []

    async def ablauf() -> None:
        try:
            await Erste(
                2,
                [Nach(zeit, 1, "a"), Nach(zeit, 2, "x", True), Nach(zeit, 3, "y", True)],
            )
        except NichtGenug as e:
            gefangen.append((zeit.now, e.werte, len(e.fehler), str(e)))

    starte(ablauf())
    zeit.run()
    assert gefangen == [
        (
            3,
            ["a"],
            2,
            "Gebraucht waren 2 von 3, aber nur 1 gelangen und 2 scheiterten: Mehr können nicht "
            "mehr gelingen.",
        )
    ]


def test_any_of_says_which_came_first_and_raises_if_it_failed() -> None:
    zeit = Zeit()
    gesehen: list[Any] = []

    async def ablauf() -> None:
        gesehen.append(await Eines([Nach(zeit, 5, "a"), Nach(zeit, 2, "b")]))
        try:
            await Eines([Nach(zeit, 1, "kaputt", True), Nach(zeit, 3, "c")])
        except KeyError as e:
            gesehen.append(("fehler", zeit.now, e.args[0]))

    starte(ablauf())
    zeit.run()
    assert gesehen == [Erstes(1, "b"), ("fehler", 3, "kaputt")]


def test_awaiting_something_else_is_reported_through_the_callback() -> None:
    class Fremd:
        def __await__(self) -> Any:
            return (yield self)

    async def ablauf() -> None:
        await Fremd()

    prozess, fehler = starte(ablauf())
    assert prozess.beendet
    assert isinstance(fehler[0], UngueltigeEingabe) and "nicht auf Fremd" in str(fehler[0])


def test_a_cancelled_process_is_never_resumed() -> None:
    zeit = Zeit()
    gesehen: list[int] = []

    async def ablauf() -> None:
        await Nach(zeit, 3)
        gesehen.append(zeit.now)

    prozess, _ = starte(ablauf())
    prozess.abbrechen()
    zeit.run()
    assert gesehen == [] and prozess.beendet


def test_wrong_k_and_empty_any_of_are_german_errors() -> None:
    zeit = Zeit()
    with pytest.raises(UngueltigeEingabe, match="nur 1 Wartbare"):
        Erste(2, [Nach(zeit, 1)])
    with pytest.raises(UngueltigeEingabe, match="mindestens ein Wartbar"):
        Eines([])
    with pytest.raises(UngueltigeEingabe, match="nicht auf int"):
        Erste(1, [3])  # type: ignore[list-item]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=7),
    st.data(),
)
def test_first_k_matches_a_model_of_arrivals(
    teile: list[tuple[int, bool]], daten: st.DataObject
) -> None:
    """For any arrival times and outcomes: the k first successes in (tick, order) if k can
    succeed before n - k + 1 failures arrive, else the failure at that arrival; same each run."""
    k = daten.draw(st.integers(0, len(teile)))

    def einmal() -> list[Any]:
        zeit = Zeit()
        ergebnis: list[Any] = []

        async def ablauf() -> None:
            try:
                werte = await Erste(
                    k, [Nach(zeit, t, i, not ok) for i, (t, ok) in enumerate(teile)]
                )
                ergebnis.append(("ok", zeit.now, werte))
            except NichtGenug as e:
                ergebnis.append(("nicht genug", zeit.now, e.werte))

        starte(ablauf())
        zeit.run()
        return ergebnis

    reihenfolge = sorted(range(len(teile)), key=lambda i: (teile[i][0], i))
    werte: list[int] = []
    fehler = 0
    erwartet: list[Any] = [("ok", 0, [])] if k == 0 else []
    for i in reihenfolge if k else []:
        t, ok = teile[i]
        if ok:
            werte.append(i)
            if len(werte) == k:
                erwartet = [("ok", t, werte)]
                break
        else:
            fehler += 1
            if len(teile) - fehler < k:
                erwartet = [("nicht genug", t, werte)]
                break
    assert einmal() == erwartet
    assert einmal() == erwartet  # deterministic
