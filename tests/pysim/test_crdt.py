"""pysim.crdt: the merge laws of every type on generated states, convergence over shuffled and
duplicated deliveries, the OR-Set's add/remove race, the simulation on the fake network, the
picture and the German errors."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.crdt import (
    TYPEN,
    Crdt,
    CrdtSim,
    GCounter,
    LWWRegister,
    MVRegister,
    ORSet,
    PNCounter,
)
from pysim.fehler import SimFehler, UnbekannterKnoten, UngueltigeEingabe

from .svg_regeln import allgemeine_regeln

NAMEN = ("A", "B", "C")
ELEMENTE = ("milch", "brot", "eier")


def _operation(typ: type[Crdt]) -> st.SearchStrategy[Callable[[Crdt], None]]:
    """One local update of ``typ`` as a function of the replica's state."""
    if typ is GCounter:
        return st.integers(1, 3).map(lambda n: lambda c: c.erhoehe(n))  # type: ignore[attr-defined]
    if typ is PNCounter:
        return st.tuples(st.booleans(), st.integers(1, 3)).map(
            lambda t: (
                (lambda c: c.erhoehe(t[1]))  # type: ignore[attr-defined]
                if t[0]
                else (lambda c: c.verringere(t[1]))  # type: ignore[attr-defined]
            )
        )
    if typ is LWWRegister:
        return st.tuples(st.sampled_from(ELEMENTE), st.none() | st.integers(1, 6)).map(
            lambda t: lambda c: c.setze(t[0], t[1])  # type: ignore[attr-defined]
        )
    if typ is MVRegister:
        return st.sampled_from(ELEMENTE).map(lambda w: lambda c: c.setze(w))  # type: ignore[attr-defined]
    return st.tuples(st.booleans(), st.sampled_from(ELEMENTE)).map(
        lambda t: (
            (lambda c: c.hinzufuegen(t[1]))  # type: ignore[attr-defined]
            if t[0]
            else (lambda c: c.entfernen(t[1]))  # type: ignore[attr-defined]
        )
    )


@st.composite
def zustaende(draw: st.DrawFn, typ: type[Crdt]) -> list[Crdt]:
    """Three states of ``typ`` a real run can reach: local updates and merges in any mix."""
    replikate = [typ(n) for n in NAMEN]
    schritte = draw(
        st.lists(
            st.tuples(
                st.integers(0, 2),
                st.none() | st.integers(0, 2),  # None: a local update, else merge from there
                _operation(typ),
            ),
            max_size=25,
        )
    )
    for wer, von, op in schritte:
        if von is None:
            op(replikate[wer])
        else:
            replikate[wer] = replikate[wer].merge(replikate[von])
    return replikate


ALLE = list(TYPEN.values())


@pytest.mark.parametrize("typ", ALLE, ids=lambda t: t.NAME)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_merge_is_commutative_associative_and_idempotent(
    typ: type[Crdt], data: st.DataObject
) -> None:
    a, b, c = data.draw(zustaende(typ))
    assert a.merge(b) == b.merge(a)
    assert a.merge(b).merge(c) == a.merge(b.merge(c))
    assert a.merge(a) == a
    assert a.merge(b).merge(b) == a.merge(b)


@pytest.mark.parametrize("typ", ALLE, ids=lambda t: t.NAME)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_merge_never_changes_its_inputs(typ: type[Crdt], data: st.DataObject) -> None:
    a, b, _ = data.draw(zustaende(typ))
    vorher_a, vorher_b = a.zustand(), b.zustand()
    a.merge(b)
    assert (a.zustand(), b.zustand()) == (vorher_a, vorher_b)


@pytest.mark.parametrize("typ", ALLE, ids=lambda t: t.NAME)
@settings(max_examples=100, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_shuffled_and_duplicated_deliveries_give_the_same_state(
    typ: type[Crdt], data: st.DataObject, seed: int
) -> None:
    gesendet = data.draw(zustaende(typ)) + data.draw(zustaende(typ))
    zufall = random.Random(seed)
    zugestellt = gesendet + zufall.sample(gesendet, k=zufall.randint(0, len(gesendet)))
    zufall.shuffle(zugestellt)
    in_ordnung = reduce(lambda x, y: x.merge(y), gesendet, typ("X"))
    durcheinander = reduce(lambda x, y: x.merge(y), zugestellt, typ("Y"))
    assert in_ordnung == durcheinander


@pytest.mark.parametrize("typ", ALLE, ids=lambda t: t.NAME)
def test_merge_refuses_another_type_in_german(typ: type[Crdt]) -> None:
    fremd = next(t for t in ALLE if t is not typ)
    with pytest.raises(UngueltigeEingabe, match="lässt sich nur mit"):
        typ("A").merge(fremd("B"))  # type: ignore[arg-type]


# --- the types one by one ---


def test_g_counter_sums_the_maximum_per_replica() -> None:
    a, b = GCounter("A"), GCounter("B")
    a.erhoehe(2)
    b.erhoehe()
    a2 = a.merge(b)
    a2.erhoehe()
    assert a2.eintraege == {"A": 3, "B": 1}
    assert a2.merge(b).wert == 4  # the old state of B adds nothing
    with pytest.raises(UngueltigeEingabe, match="wächst nur"):
        a.erhoehe(-1)


def test_pn_counter_may_go_below_zero() -> None:
    a, b = PNCounter("A"), PNCounter("B")
    a.erhoehe(1)
    b.verringere(1)
    a.verringere(1)  # concurrently, each sees 1 and takes 1
    assert a.merge(b).wert == -1
    assert "minus" in repr(a)


def test_lww_register_keeps_the_larger_stamp_and_loses_the_other_value() -> None:
    a, b = LWWRegister("A"), LWWRegister("B")
    a.setze("rot", zeit=5)
    b.setze("blau", zeit=3)  # B's clock is behind: its later write loses
    assert a.merge(b).wert == b.merge(a).wert == "rot"
    b.setze("grün", zeit=5)  # same stamp: the larger replica name wins
    assert a.merge(b).wert == "grün"
    c = a.merge(b)
    c.setze("gelb")  # without a stamp: larger than anything seen
    assert c.wert == "gelb" and c.zeit == 6


def test_mv_register_keeps_concurrent_values_and_a_later_write_replaces_them() -> None:
    a, b = MVRegister("A"), MVRegister("B")
    a.setze("rot")
    b.setze("blau")
    beide = a.merge(b)
    assert beide.werte == ["blau", "rot"]
    beide.setze("lila")
    assert beide.merge(a).merge(b).werte == ["lila"]
    with pytest.raises(UngueltigeEingabe, match="unveränderliche"):
        a.setze(["liste"])


def test_or_set_add_wins_over_a_concurrent_remove() -> None:
    a, b = ORSet("A"), ORSet("B")
    a.hinzufuegen("milch")
    b = b.merge(a)
    b.entfernen("milch")  # B removes what it has seen ...
    a.hinzufuegen("milch")  # ... while A adds it again, concurrently
    assert a.merge(b).elemente == b.merge(a).elemente == ["milch"]
    assert len(a.merge(b).grabsteine) == 1


def test_or_set_a_remove_that_saw_the_add_removes_it_everywhere() -> None:
    a, b = ORSet("A"), ORSet("B")
    a.hinzufuegen("milch")
    b = b.merge(a)
    b.entfernen("milch")
    assert a.merge(b).elemente == []
    assert not a.merge(b).enthaelt("milch")
    b.entfernen("gibt-es-nicht")  # changes nothing
    assert b.merge(a).elemente == []


@settings(max_examples=100, deadline=None)
@given(
    vorher=st.lists(st.sampled_from(ELEMENTE), max_size=4),
    seed=st.integers(0, 1000),
)
def test_or_set_race_add_wins_in_any_delivery_order(vorher: list[str], seed: int) -> None:
    a, b, c = ORSet("A"), ORSet("B"), ORSet("C")
    for e in vorher:
        a.hinzufuegen(e)
    b, c = b.merge(a), c.merge(a)
    b.entfernen("milch")
    c.hinzufuegen("milch")
    zustaende = [a, b, c, b, c]
    random.Random(seed).shuffle(zustaende)
    ende = reduce(lambda x, y: x.merge(y), zustaende, ORSet("D"))
    assert "milch" in ende.elemente


# --- the simulation ---


@settings(max_examples=40, deadline=None)
@given(
    typ=st.sampled_from(ALLE),
    seed=st.integers(0, 10_000),
    duplikat=st.sampled_from([0.0, 0.3, 0.6]),
    data=st.data(),
)
def test_sim_replicas_converge_after_one_sync_without_loss(
    typ: type[Crdt], seed: int, duplikat: float, data: st.DataObject
) -> None:
    sim = CrdtSim(typ, seed=seed, duplikat=duplikat, verzoegerung=(1, 6))
    for wer, op in data.draw(st.lists(st.tuples(st.sampled_from(NAMEN), _operation(typ)))):
        op(sim[wer].crdt)
    sim.sync()
    sim.warte()
    assert sim.konvergiert(), sim.werte()


def test_sim_with_loss_converges_once_every_state_got_through() -> None:
    sim = CrdtSim("GCounter", seed=7, verlust=0.4)
    for n, name in enumerate(NAMEN, start=1):
        sim[name].erhoehe(n)
    runden = 0
    while not sim.konvergiert():
        sim.sync()
        sim.warte()
        runden += 1
        assert runden < 20
    assert sim.werte() == {"A": 6, "B": 6, "C": 6}
    assert sim.verloren()
    assert runden > 1


def test_a_partition_drops_states_at_the_receiver_until_it_heals() -> None:
    sim = CrdtSim("ORSet")
    sim["A"].hinzufuegen("milch")
    sim.sync()
    sim.warte()
    sim.trenne("A", ["B", "C"])
    assert sim.getrennt()
    sim["A"].entfernen("milch")
    sim["B"].hinzufuegen("milch")
    sim.sync()
    sim.warte()
    assert sim.werte() == {"A": [], "B": ["milch"], "C": ["milch"]}
    assert any(e.art == "verworfen" for e in sim.ereignisse)
    sim.heile()
    sim.sync()
    sim.warte()
    assert sim.konvergiert() and sim.werte()["A"] == ["milch"]  # add wins


def test_sim_records_local_updates_sends_and_merges() -> None:
    sim = CrdtSim("PNCounter", knoten=["A", "B"], duplikat=1.0)
    sim["A"].erhoehe(2)
    sim["B"].verringere()
    sim.sync("A")
    sim.warte()
    arten = [e.art for e in sim.verlauf("B")]
    assert arten == ["lokal", "merge", "merge"]
    assert [e.geaendert for e in sim.verlauf("B") if e.art == "merge"] == [True, False]
    assert sim.werte() == {"A": 2, "B": 1}
    assert "PNCounter" in repr(sim) and "noch verschieden" in repr(sim)


def test_sim_errors_are_german_and_change_nothing() -> None:
    with pytest.raises(UngueltigeEingabe, match="CRDT-Typ"):
        CrdtSim("GSet")
    with pytest.raises(UngueltigeEingabe, match="mindestens zwei"):
        CrdtSim("GCounter", knoten=["A"])
    sim = CrdtSim("GCounter")
    with pytest.raises(UnbekannterKnoten, match="Vorhandene Replikate"):
        sim["D"]
    with pytest.raises(UnbekannterKnoten):
        sim.sync("A", "D")
    assert sim.ereignisse == [] and sim.nachrichten == []
    with pytest.raises(UngueltigeEingabe, match="nur in einer Gruppe"):
        sim.trenne("A", ["A", "B"])
    assert not sim.getrennt()
    with pytest.raises(SimFehler):
        sim["A"].erhoehe(0)
    assert sim.ereignisse == []


# --- the picture ---


def _lauf() -> CrdtSim:
    sim = CrdtSim("ORSet", seed=3, duplikat=0.3)
    sim["A"].hinzufuegen("milch")
    sim.sync()
    sim.warte()
    sim.trenne("A", ["B", "C"])
    sim["A"].entfernen("milch")
    sim["B"].hinzufuegen("milch")
    sim.sync()
    sim.warte()
    sim.heile()
    sim.sync()
    sim.warte()
    return sim


def test_picture_keeps_the_svg_rules_and_says_the_state_in_words() -> None:
    sim = _lauf()
    svg = sim.bild().svg
    root = allgemeine_regeln(svg)
    desc = root.find("{http://www.w3.org/2000/svg}desc")
    assert desc is not None and desc.text
    assert "Alle Replikate sind gleich" in desc.text
    assert "Netzpartition: A | B C" in svg and "Netzpartition aufgehoben" in svg
    assert sim._repr_svg_() == svg
    assert int(root.get("viewBox", "").split()[2]) <= 400  # three replicas fit a phone


def test_picture_of_a_long_run_stays_bounded() -> None:
    sim = CrdtSim("GCounter", knoten=["A", "B", "C", "D"], seed=2, verlust=0.3)
    for _ in range(30):
        sim["A"].erhoehe()
        sim.sync()
        sim.tick(1)
    svg = sim.bild().svg
    allgemeine_regeln(svg)
    assert "weitere Ereignisse" in svg
    assert svg.count('class="ereignis') <= 40
    assert len(svg) < 60_000
