"""The one shrinker (``pysim.schrumpfen``) and its three callers."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Broadcast, lauf
from pysim.cluster.lauf import Lauf, verkleinere
from pysim.raft import Schritt, wahlpruefung
from pysim.schrumpfen import (
    Durchgang,
    Linse,
    Schrumpfer,
    bloecke_weglassen,
    delta_debugging,
    einzeln_ersetzen,
    gleichwertig,
    schrumpfe,
)
from tests.pysim.knoten_beispiele import Flut

Fall = tuple[int, ...]


def ordnung(fall: Fall) -> tuple[int, Fall]:
    return (len(fall), fall)


def kleiner(x: int) -> list[int]:
    return [w for w in (0, x // 2, x - 1) if 0 <= w < x]


def alle_durchgaenge() -> list[Durchgang[Fall]]:
    return [delta_debugging(), bloecke_weglassen(), einzeln_ersetzen(kleiner)]


# A failure is a rule on a sequence of small numbers: the shrinker knows nothing of it.
regeln: list[Callable[[Fall], bool]] = [
    lambda t: sum(t) >= 10,
    lambda t: len(t) >= 3,
    lambda t: 7 in t,
    lambda t: any(a > b for a, b in pairwise(t)),
    lambda t: len(set(t)) < len(t),
    lambda t: sum(x % 3 == 1 for x in t) >= 2 and max(t, default=0) > 4,
]

# A failing start and its rule.
faelle = st.tuples(
    st.lists(st.integers(0, 12), max_size=14).map(tuple), st.sampled_from(regeln)
).filter(lambda fall: fall[1](fall[0]))


def schrumpfer(start: Fall, regel: Callable[[Fall], bool], budget: int = 1_000) -> Any:
    aufrufe: list[Fall] = []

    def scheitert(t: Fall) -> bool:
        aufrufe.append(t)
        return regel(t)

    s = Schrumpfer(start, scheitert, ordnung=ordnung, budget=budget)
    return s, aufrufe


@settings(max_examples=150, deadline=None)
@given(faelle)
def test_the_result_still_fails_is_no_larger_and_a_fixed_point(fall: Any) -> None:
    start, regel = fall
    s, aufrufe = schrumpfer(start, regel)
    ergebnis = s.schrumpfe(alle_durchgaenge())
    assert regel(ergebnis)
    assert ordnung(ergebnis) <= ordnung(start)
    assert not s.erschoepft
    # A fixed point: one more round of every pass accepts nothing.
    vorher = s.schritte
    for durchgang in alle_durchgaenge():
        durchgang.lauf(s)
    assert s.schritte == vorher and s.aktuell == ergebnis
    # The cache: no case was tried twice.
    assert len(aufrufe) == len(set(aufrufe))


@settings(max_examples=100, deadline=None)
@given(faelle)
def test_the_same_input_gives_the_same_result_and_tries(fall: Any) -> None:
    start, regel = fall
    eins, aufrufe_eins = schrumpfer(start, regel)
    zwei, aufrufe_zwei = schrumpfer(start, regel)
    assert eins.schrumpfe(alle_durchgaenge()) == zwei.schrumpfe(alle_durchgaenge())
    assert aufrufe_eins == aufrufe_zwei


@settings(max_examples=100, deadline=None)
@given(faelle, st.integers(0, 12))
def test_the_budget_bounds_the_tries(fall: Any, budget: int) -> None:
    start, regel = fall
    s, aufrufe = schrumpfer(start, regel, budget)
    ergebnis = s.schrumpfe(alle_durchgaenge())
    assert len(aufrufe) == s.versuche <= budget
    assert regel(ergebnis) and ordnung(ergebnis) <= ordnung(start)


def test_a_stall_ends_shrinking_after_so_many_tries_without_progress() -> None:
    aufrufe: list[Fall] = []

    def scheitert(t: Fall) -> bool:
        aufrufe.append(t)
        return t == tuple(range(20))  # nothing smaller fails: every try is a stall

    s = Schrumpfer(tuple(range(20)), scheitert, ordnung=ordnung, stillstand=5)
    assert s.schrumpfe([einzeln_ersetzen(kleiner)]) == tuple(range(20))
    assert len(aufrufe) == 5


def test_a_pass_proposing_something_not_simpler_is_an_error() -> None:
    def laenger(s: Schrumpfer[Fall]) -> None:
        s.probiere((*s.aktuell, 0), "laenger")

    with pytest.raises(AssertionError, match="laenger schlägt einen Fall vor"):
        schrumpfe((1, 2), lambda t: True, [Durchgang("laenger", laenger)], ordnung=ordnung)


def test_passes_on_one_part_through_a_lens_and_an_equivalent_form() -> None:
    paar = Linse[tuple[Fall, Fall], int](lambda p: p[1], lambda p, neu: (p[0], neu))
    start = ((9, 9), (1, 2, 3, 4))
    ergebnis = schrumpfe(
        start,
        lambda p: sum(p[1]) >= 3,
        [bloecke_weglassen(paar), gleichwertig(lambda p: ((), p[1]))],
        ordnung=lambda p: (len(p[0]) + len(p[1]), p),
    )
    assert ergebnis == ((), (4,))


def test_delta_debugging_tries_the_empty_sequence_last() -> None:
    assert schrumpfe((4, 5), lambda t: True, [delta_debugging()], ordnung=ordnung) == ()


# --- the callers -----------------------------------------------------------------------------


def test_shrinking_a_run_never_runs_the_same_run_twice() -> None:
    start = lauf(
        Flut, Broadcast(), knoten=5, seed=4, dauer=100, stoerungen="zufall", anzahl_stoerungen=3
    )
    gesehen: list[str] = []

    def scheitert(r: Lauf) -> bool:
        gesehen.append(r.kennung)
        return not r.last.pruefe(r).ok

    klein = verkleinere(start, scheitert)
    assert scheitert(klein)
    assert klein.kennung == ("broadcast/k5/s4/d100/10:teile:n1.n2.n3.n5|n4;25:heile/o11")
    assert len(gesehen) - 1 == len(set(gesehen[:-1]))


def test_shrinking_a_run_keeps_to_its_budget() -> None:
    start = lauf(
        Flut, Broadcast(), knoten=5, seed=4, dauer=100, stoerungen="zufall", anzahl_stoerungen=3
    )
    zahl = [0]

    def scheitert(r: Lauf) -> bool:
        zahl[0] += 1
        return not r.last.pruefe(r).ok

    klein = verkleinere(start, scheitert, max_laeufe=4)
    assert zahl[0] == 4
    assert not klein.last.pruefe(klein).ok


def test_the_raft_shrinker_never_runs_a_plan_twice_and_keeps_to_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plan = tuple(Schritt(w, "heile") for w in (1, 3, 1, 2))
    versucht: list[tuple[Schritt, ...]] = []

    def scheitert(p: tuple[Schritt, ...]) -> bool:
        versucht.append(p)
        return sum(s.warten for s in p) >= 2

    klein = wahlpruefung._verkleinere(plan, scheitert)
    assert klein == (Schritt(2, wahlpruefung.WARTEN),)
    assert len(versucht) == len(set(versucht))
    monkeypatch.setattr(wahlpruefung, "MAX_VERSUCHE", 3)
    versucht.clear()
    wahlpruefung._verkleinere(plan, scheitert)
    assert len(versucht) == 3
