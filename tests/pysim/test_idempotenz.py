"""pysim.idempotenz: a payment service behind a lossy network, with and without idempotency keys."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import SimFehler, UngueltigeEingabe
from pysim.idempotenz import UEBERGAENGE, UnbekannteZahlung, ZahlungsSim
from pysim.idempotenz import bild as idem_bild
from pysim.idempotenz.regeln import ATOMAR, GETRENNT, OHNE, ZUSTAENDE
from pysim.uebergaenge import ZustandsFehler, schlage_nach
from tests.pyodide import PyodideRunner, output_natively, same_in_pyodide
from tests.pysim.svg_regeln import allgemeine_regeln


def lauf(modus: str, **zahlung: Any) -> ZahlungsSim:
    sim = ZahlungsSim(modus)
    sim.zahlung("z1", 30, **zahlung)
    sim.run()
    return sim


# --- the lesson's cases -----------------------------------------------------------------------


def test_a_lost_answer_and_a_retry_charge_twice_without_a_key() -> None:
    sim = lauf(OHNE, verliere={1})
    assert (sim.anzahl_buchungen("z1"), sim.versuche("z1"), sim.ergebnis("z1")) == (2, 2, [201])


@pytest.mark.parametrize("modus", [GETRENNT, ATOMAR])
def test_with_a_key_the_retry_gets_the_stored_answer(modus: str) -> None:
    sim = lauf(modus, verliere={1})
    assert (sim.anzahl_buchungen("z1"), sim.versuche("z1"), sim.ergebnis("z1")) == (1, 2, [201])
    assert [e.art for e in sim.verlauf("z1")].count("wiederholt") == 1
    assert sim.zustand("z1") == "gespeichert"


def test_a_crash_between_charge_and_answer_breaks_two_transactions() -> None:
    getrennt = lauf(GETRENNT, absturz={1})
    atomar = lauf(ATOMAR, absturz={1})
    assert getrennt.anzahl_buchungen("z1") == 2
    assert atomar.anzahl_buchungen("z1") == 1
    assert atomar.ergebnis("z1") == getrennt.ergebnis("z1") == [201]
    assert atomar.abstuerze == getrennt.abstuerze == [3]


def test_a_double_click_with_one_key_gets_a_conflict_then_the_stored_answer() -> None:
    sim = lauf(ATOMAR, kopien=2)
    arten = [e.art for e in sim.verlauf("z1")]
    assert "konflikt" in arten and "wiederholt" in arten
    assert sim.anzahl_buchungen() == 1
    assert sim.ergebnis("z1") == [201, 201]
    assert sim.clients == ["z1·1", "z1·2"]


def test_a_double_click_without_a_key_charges_twice() -> None:
    assert lauf(OHNE, kopien=2).anzahl_buchungen() == 2


def test_a_key_made_per_click_does_not_stop_a_double_click() -> None:
    sim = lauf(ATOMAR, kopien=2, schluessel_je_kopie=True)
    gesendet = [e.text for e in sim.verlauf("z1") if e.art == "gesendet"]
    assert gesendet[0][-20:] != gesendet[1][-20:]  # two different keys in the history
    assert sim.anzahl_buchungen() == 2
    assert sim.ergebnis("z1") == [201, 201]
    assert "konflikt" not in [e.art for e in sim.verlauf("z1")]
    # a lost answer is still covered: each click's retry carries that click's key
    mit_verlust = lauf(ATOMAR, kopien=2, schluessel_je_kopie=True, verliere={1})
    assert (mit_verlust.anzahl_buchungen(), mit_verlust.versuche("z1")) == (2, 3)


def test_the_default_key_belongs_to_the_payment_and_draws_as_before() -> None:
    # one key per payment: the per-copy option leaves the seed's sequence alone by default
    a, b = ZahlungsSim(ATOMAR), ZahlungsSim(ATOMAR)
    assert a.zahlung("z1", kopien=2) == b.zahlung("z1") == a.schluessel("z1")


@pytest.mark.parametrize(
    ("modus", "zusatz", "text"),
    [
        (OHNE, {"schluessel_je_kopie": True}, "keinen Schlüssel"),
        (ATOMAR, {"schluessel_je_kopie": True, "schluessel": "k"}, "eines von beiden"),
        (ATOMAR, {"schluessel_je_kopie": 1}, "True oder False"),
    ],
)
def test_a_key_per_copy_is_refused_where_it_makes_no_sense(
    modus: str, zusatz: dict[str, Any], text: str
) -> None:
    with pytest.raises(UngueltigeEingabe, match=text):
        ZahlungsSim(modus).zahlung("z1", kopien=2, **zusatz)


def test_the_same_key_with_another_payload_is_refused() -> None:
    sim = ZahlungsSim(ATOMAR)
    key = sim.zahlung("z1", 30)
    sim.zahlung("z2", 50, start=10, schluessel=key)
    sim.run()
    assert sim.ergebnis("z2") == [422]
    assert sim.anzahl_buchungen() == 1
    # ... also while the first one is still in work
    sim = ZahlungsSim(ATOMAR)
    key = sim.zahlung("z1", 30)
    sim.zahlung("z2", 50, schluessel=key)
    sim.run()
    assert (sim.ergebnis("z2"), sim.anzahl_buchungen()) == ([422], 1)


def test_an_expired_key_lets_a_late_retry_charge_again() -> None:
    sim = ZahlungsSim(ATOMAR, aufbewahrung=3, timeout=6)
    sim.zahlung("z1", 30, verliere={1})
    sim.run()
    assert sim.anzahl_buchungen("z1") == 2
    sim = ZahlungsSim(ATOMAR, aufbewahrung=10, timeout=6)
    sim.zahlung("z1", 30, verliere={1})
    sim.run()
    assert sim.anzahl_buchungen("z1") == 1


def test_the_client_gives_up_after_its_attempts() -> None:
    sim = ZahlungsSim(ATOMAR, versuche=3)
    sim.zahlung("z1", 30, verliere={1, 2, 3})
    sim.run()
    assert (sim.versuche("z1"), sim.ergebnis("z1"), sim.anzahl_buchungen()) == (3, [None], 1)
    assert sim.verlauf("z1")[-1].art == "aufgegeben"


def test_backoff_doubles_the_pause() -> None:
    sim = ZahlungsSim(OHNE, pause=2, timeout=3, versuche=4)
    sim.zahlung("z1", 30, verliere={1, 2, 3, 4})
    sim.run()
    gesendet = [e.zeit for e in sim.verlauf("z1") if e.art == "gesendet"]
    # timeout 3 after each send, then pauses 2, 4, 8
    assert gesendet == [0, 5, 12, 23]


def test_the_keys_are_uuids_from_the_seed() -> None:
    a, b = ZahlungsSim(seed=7), ZahlungsSim(seed=7)
    ka, kb = a.zahlung("z1"), b.zahlung("z1")
    assert ka == kb and ka is not None and len(ka) == 36 and ka[14] == "4"
    assert ZahlungsSim(OHNE).zahlung("z1") is None


# --- the state table ----------------------------------------------------------------------------


def test_every_state_of_the_table_is_known_and_a_missing_pair_is_pysims_error() -> None:
    for zustand, _ in UEBERGAENGE:
        assert zustand in ZUSTAENDE
    with pytest.raises(ZustandsFehler, match="nicht vorgesehen"):
        schlage_nach(UEBERGAENGE, "frei", "fertig")


# --- German errors --------------------------------------------------------------------------


def test_wrong_input_is_refused_in_german() -> None:
    with pytest.raises(UngueltigeEingabe, match="Modus"):
        ZahlungsSim("vielleicht")
    sim = ZahlungsSim()
    sim.zahlung("z1")
    with pytest.raises(UngueltigeEingabe, match="gibt es schon"):
        sim.zahlung("z1")
    with pytest.raises(UngueltigeEingabe, match="Versuchsnummer"):
        sim.zahlung("z2", verliere={0})
    with pytest.raises(UngueltigeEingabe, match="Menge von Versuchsnummern"):
        sim.zahlung("z2", verliere=3)  # type: ignore[arg-type]
    with pytest.raises(UngueltigeEingabe, match="keinen Schlüssel"):
        ZahlungsSim(OHNE).zahlung("z1", schluessel="k")
    with pytest.raises(UnbekannteZahlung, match="„z9“ gibt es nicht"):
        sim.anzahl_buchungen("z9")
    assert issubclass(UnbekannteZahlung, SimFehler)


# --- picture -----------------------------------------------------------------------------------


def test_the_picture_keeps_the_rules_and_shows_charges_losses_and_crashes() -> None:
    sim = ZahlungsSim(GETRENNT)
    sim.zahlung("z1", 30, verliere={2}, absturz={1}, kopien=2)
    sim.run()
    svg = sim.bild().svg
    root = allgemeine_regeln(svg)
    assert root is not None
    assert svg.count('class="buchung"') == sim.anzahl_buchungen()
    assert 'class="absturz"' in svg and "✗" in svg and "↻" in svg
    assert "z1·2" in svg and "Buchungen" in svg
    assert sim._repr_svg_() == svg


def test_a_long_run_shows_only_the_window() -> None:
    sim = ZahlungsSim(OHNE, timeout=30, versuche=4)
    sim.zahlung("z1", 30, verliere={1, 2, 3})
    sim.run()
    assert sim.now > idem_bild.FENSTER
    svg = sim.bild().svg
    allgemeine_regeln(svg)
    assert 'class="fenster"' in svg


def test_many_clients_show_the_first_lanes_and_a_line_for_the_rest() -> None:
    sim = ZahlungsSim(ATOMAR)
    for i in range(5):
        sim.zahlung(f"z{i}", 30, kopien=3)
    sim.run()
    svg = sim.bild().svg
    allgemeine_regeln(svg)
    assert "z2·2" in svg and "z2·3" not in svg  # the 8th lane is z2·2
    assert "… und 7 weitere Clients" in svg
    # the charges are all drawn on the server's lane
    assert svg.count('class="buchung"') == sim.anzahl_buchungen() == 5


# --- properties --------------------------------------------------------------------------------


@st.composite
def plaene(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Payments with random starts, copies, lost answers and crashes."""
    n = draw(st.integers(1, 4))
    nummern = st.frozensets(st.integers(1, 8), max_size=4)
    return [
        {
            "betrag": draw(st.integers(1, 90)),
            "start": draw(st.integers(0, 12)),
            "kopien": draw(st.integers(1, 3)),
            "verliere": draw(nummern),
            "absturz": draw(nummern),
        }
        for _ in range(n)
    ]


def simuliere(modus: str, plan: list[dict[str, Any]], **optionen: Any) -> ZahlungsSim:
    sim = ZahlungsSim(modus, **optionen)
    for i, zahlung in enumerate(plan):
        sim.zahlung(f"z{i + 1}", **zahlung)
    sim.run()
    return sim


@settings(max_examples=200, deadline=None)
@given(
    plaene(),
    st.integers(0, 4),
    st.integers(0, 3),
    st.integers(1, 8),
    st.integers(1, 6),
    st.floats(0, 0.6),
)
def test_with_keys_in_one_transaction_each_key_is_charged_at_most_once(
    plan: list[dict[str, Any]], dauer: int, latenz: int, timeout: int, versuche: int, verlust: float
) -> None:
    sim = simuliere(
        ATOMAR,
        plan,
        dauer=dauer,
        latenz=latenz,
        timeout=timeout,
        versuche=versuche,
        verlust=verlust,
    )
    for name in sim.zahlungen:
        assert sim.anzahl_buchungen(name) <= 1, sim.verlauf(name)
        # whoever got a 201 has a charge behind it
        if 201 in sim.ergebnis(name):
            assert sim.anzahl_buchungen(name) == 1
    (gespeichert,) = sim.db.execute("SELECT COUNT(*) FROM schluessel").fetchone()
    assert gespeichert == sim.anzahl_buchungen()  # no charge without its stored answer


@settings(max_examples=100, deadline=None)
@given(plaene(), st.integers(0, 4), st.integers(1, 8), st.floats(0, 0.6))
def test_with_a_key_per_copy_each_copy_is_charged_at_most_once(
    plan: list[dict[str, Any]], dauer: int, timeout: int, verlust: float
) -> None:
    plan = [{**zahlung, "schluessel_je_kopie": True} for zahlung in plan]
    sim = simuliere(ATOMAR, plan, dauer=dauer, timeout=timeout, verlust=verlust)
    for name, zahlung in zip(sim.zahlungen, plan, strict=True):
        assert sim.anzahl_buchungen(name) <= zahlung["kopien"], sim.verlauf(name)
    (gespeichert,) = sim.db.execute("SELECT COUNT(*) FROM schluessel").fetchone()
    assert gespeichert == sim.anzahl_buchungen()  # one charge per stored key


@settings(max_examples=100, deadline=None)
@given(plaene(), st.integers(0, 4), st.integers(1, 8))
def test_without_keys_every_processed_request_charges(
    plan: list[dict[str, Any]], dauer: int, timeout: int
) -> None:
    sim = simuliere(OHNE, plan, dauer=dauer, timeout=timeout)
    for name in sim.zahlungen:
        gebucht = sum(1 for e in sim.verlauf(name) if e.art == "gebucht")
        abgestuerzt_danach = sum(
            1 for e in sim.verlauf(name) if e.art == "absturz" and "bleibt" in e.text
        )
        assert sim.anzahl_buchungen(name) == gebucht + abgestuerzt_danach


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 90), st.integers(0, 4), st.integers(0, 3))
def test_without_keys_a_lost_answer_and_a_retry_charge_twice(
    betrag: int, dauer: int, latenz: int
) -> None:
    # the timeout is longer than a round trip, so only the loss makes the client retry
    timeout = 2 * latenz + dauer + 1
    ohne = ZahlungsSim(OHNE, dauer=dauer, latenz=latenz, timeout=timeout)
    ohne.zahlung("z1", betrag, verliere={1})
    ohne.run()
    assert ohne.anzahl_buchungen("z1") == 2
    mit = ZahlungsSim(ATOMAR, dauer=dauer, latenz=latenz, timeout=timeout)
    mit.zahlung("z1", betrag, verliere={1})
    mit.run()
    assert mit.anzahl_buchungen("z1") == 1


@settings(max_examples=60, deadline=None)
@given(plaene())
def test_same_plan_same_run(plan: list[dict[str, Any]]) -> None:
    a, b = simuliere(ATOMAR, plan, verlust=0.3), simuliere(ATOMAR, plan, verlust=0.3)
    assert a.verlauf() == b.verlauf() and a.bild().svg == b.bild().svg


# --- Pyodide ----------------------------------------------------------------------------------

SKRIPT = """
import json
from pysim.idempotenz import ZahlungsSim

aus = []
for modus in ("ohne", "getrennt", "atomar"):
    sim = ZahlungsSim(modus, verlust=0.3, seed=4)
    sim.zahlung("z1", 30, verliere={1}, absturz={2})
    sim.zahlung("z2", 20, kopien=2, start=3)
    sim.run()
    aus.append([modus, sim.anzahl_buchungen(), [str(e) for e in sim.verlauf()],
                sim.bild().svg])
print(json.dumps(aus, ensure_ascii=False))
"""


def test_skript_laeuft_nativ() -> None:
    aus = json.loads(output_natively(SKRIPT))
    assert [a[0] for a in aus] == ["ohne", "getrennt", "atomar"]


@pytest.mark.pyodide
def test_gleich_in_cpython_und_pyodide(pyodide: PyodideRunner) -> None:
    same_in_pyodide(pyodide, "idempotenz", SKRIPT)
