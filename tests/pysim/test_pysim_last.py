"""The load simulation: Little's law, bounded queues, retries, jitter, the circuit breaker."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import (
    Lastsim,
    Schutzschalter,
    SimFehler,
    UngueltigeEingabe,
    Wiederholung,
    ZustandsFehler,
    latenz_vergleich,
)
from pysim.last.schutzschalter import UEBERGAENGE

NS = "{http://www.w3.org/2000/svg}"


def sturm(**kw: object):
    """The lesson's storm: 70 requests/s, 4 workers of 40 ms, a 2 s slowdown by 3."""
    sim = Lastsim(pro_sekunde=70, worker=4, bedienzeit=40, timeout=250, seed=1, **kw)
    sim.stoerung(von=4000, bis=6000, faktor=3)
    return sim.lauf(dauer=20_000)


# --- basics -----------------------------------------------------------------------------------


def test_same_seed_same_result() -> None:
    a = sturm(wiederholung=Wiederholung("jitter", versuche=4))
    b = sturm(wiederholung=Wiederholung("jitter", versuche=4))
    assert a.latenzen == b.latenzen
    assert a.verlauf == b.verlauf
    assert a.wellen_bild().svg == b.wellen_bild().svg


def test_every_request_ends_exactly_once() -> None:
    e = sturm(wiederholung=Wiederholung("sofort", versuche=4))
    assert e.erfolgreich + e.gescheitert == e.anfragen
    assert e.versuche == e.anfragen + e.wiederholungen
    assert e.versuche == (e.angenommen + e.abgelehnt + e.ausgefallen + e.kurzgeschlossen)


def test_fixed_service_time_without_queue_is_exact() -> None:
    e = Lastsim(pro_sekunde=200, worker=100, bedienzeit=50, verteilung="fest").lauf(10_000)
    assert e.p50 == e.p99 == 50
    assert e.max_wartend == 0
    assert round(e.im_system_mittel) == 10


def test_percentiles_are_nearest_rank() -> None:
    e = Lastsim(pro_sekunde=50, worker=1, bedienzeit=10).lauf(5_000)
    n = len(e.latenzen)
    assert e.perzentil(100) == e.latenzen[-1]
    assert e.perzentil(50) == e.latenzen[(n + 1) // 2 - 1]
    assert e.p50 <= e.p90 <= e.p99


def test_long_tail_keeps_the_mean() -> None:
    a = Lastsim(pro_sekunde=10, worker=50, bedienzeit=40, verteilung="langer_schwanz")
    e = a.lauf(200_000)
    assert 36 <= e.mittel <= 44
    assert e.p99 > 4 * e.p50


def test_wrong_input_is_refused_in_german() -> None:
    with pytest.raises(UngueltigeEingabe, match="Verteilung"):
        Lastsim(pro_sekunde=1, verteilung="normal")
    with pytest.raises(UngueltigeEingabe, match="worker"):
        Lastsim(pro_sekunde=1, worker=0)
    with pytest.raises(UngueltigeEingabe, match="Art"):
        Wiederholung("zufall")
    sim = Lastsim(pro_sekunde=1)
    with pytest.raises(UngueltigeEingabe, match="nach von"):
        sim.stoerung(von=10, bis=5, faktor=2)
    sim.lauf(100)
    with pytest.raises(UngueltigeEingabe, match="schon gelaufen"):
        sim.lauf(100)


@pytest.mark.parametrize("wert", [float("inf"), float("-inf"), float("nan")])
def test_non_finite_numbers_are_refused_in_german(wert: float) -> None:
    # pro_sekunde=inf was accepted and ran until Stopp; nan was refused: now both alike.
    with pytest.raises(UngueltigeEingabe, match="pro_sekunde muss eine endliche Zahl sein"):
        Lastsim(pro_sekunde=wert)
    with pytest.raises(UngueltigeEingabe, match="nicht_idempotent muss eine endliche Zahl"):
        Lastsim(pro_sekunde=1, nicht_idempotent=wert)
    with pytest.raises(UngueltigeEingabe, match="budget muss eine endliche Zahl"):
        Wiederholung("fest", budget=wert)
    sim = Lastsim(pro_sekunde=1)
    with pytest.raises(UngueltigeEingabe, match="faktor muss eine endliche Zahl"):
        sim.stoerung(von=0, bis=10, faktor=wert)
    ergebnis = sim.lauf(100)
    with pytest.raises(UngueltigeEingabe, match="p muss eine endliche Zahl"):
        ergebnis.perzentil(wert)


def test_a_strategy_that_never_gives_up_is_stopped() -> None:
    sim = Lastsim(pro_sekunde=10, timeout=10, bedienzeit=100, wiederholung=lambda v, a, z: 0)
    with pytest.raises(SimFehler, match="gibt nicht auf"):
        sim.lauf(1_000)


def test_a_strategy_must_return_milliseconds() -> None:
    sim = Lastsim(pro_sekunde=10, timeout=10, bedienzeit=100, wiederholung=lambda v, a, z: 0.5)
    with pytest.raises(SimFehler, match="ganze Zahl"):
        sim.lauf(1_000)


# --- Little's law, bounded queues: properties ------------------------------------------------

lasten = st.fixed_dictionaries(
    {
        "pro_sekunde": st.integers(10, 120),
        "worker": st.integers(1, 6),
        "bedienzeit": st.integers(5, 60),
        "verteilung": st.sampled_from(["fest", "exponentiell", "langer_schwanz"]),
        "seed": st.integers(0, 10_000),
    }
)


@settings(max_examples=25, deadline=None)
@given(lasten)
def test_littles_law_holds_over_long_runs(last: dict) -> None:
    """L from the sampled queue (every 100 ms) agrees with λ·W from the requests."""
    e = Lastsim(**last, warteschlange=200).lauf(60_000)
    lam_w = e.ankunftsrate * e.verweilzeit_mittel / 1000
    # exact for the time average (the run ends empty) ...
    assert e.im_system_mittel == pytest.approx(lam_w, rel=1e-9)
    # ... and close for the average of the snapshots, an independent estimate
    proben = [w + a for _, w, a in e.verlauf]
    gemessen = sum(proben) / len(proben)
    assert gemessen == pytest.approx(lam_w, rel=0.25, abs=0.3)


@settings(max_examples=25, deadline=None)
@given(lasten, st.integers(0, 15))
def test_a_bounded_queue_never_exceeds_its_bound(last: dict, grenze: int) -> None:
    e = Lastsim(
        **last, warteschlange=grenze, timeout=300, wiederholung=Wiederholung("sofort", versuche=3)
    ).lauf(10_000)
    assert e.max_wartend <= grenze
    assert all(w <= grenze and a <= last["worker"] for _, w, a in e.verlauf)


def test_utilization_near_one_makes_waiting_explode() -> None:
    p99 = {
        rate: Lastsim(pro_sekunde=rate, worker=4, bedienzeit=40, seed=1).lauf(60_000).p99
        for rate in (50, 80, 95)
    }
    assert p99[50] < p99[80] < p99[95]
    assert p99[95] > 2 * p99[50]


# --- retries ----------------------------------------------------------------------------------


def test_retry_storm_keeps_the_service_down_and_a_budget_lets_it_recover() -> None:
    ohne = sturm()
    sturm_ = sturm(wiederholung=Wiederholung("sofort", versuche=4))
    budget = sturm(wiederholung=Wiederholung("jitter", versuche=4, budget=0.1))
    letzte_sekunden = slice(150, 200)
    assert sum(ohne.erfolg_je_raster[letzte_sekunden]) > 300
    assert sum(sturm_.erfolg_je_raster[letzte_sekunden]) == 0
    assert sum(budget.erfolg_je_raster[letzte_sekunden]) > 300
    assert sturm_.verschwendet > 10 * ohne.verschwendet


def test_deadline_aware_service_drops_abandoned_work() -> None:
    ohne = sturm()
    mit = sturm(frist_beachten=True)
    assert mit.verworfen > 0
    assert mit.verschwendet < ohne.verschwendet
    assert mit.erfolgreich > ohne.erfolgreich


def test_non_idempotent_requests_are_not_retried_by_default() -> None:
    kw = {"pro_sekunde": 70, "worker": 4, "bedienzeit": 40, "timeout": 150}
    sicher = Lastsim(
        **kw, nicht_idempotent=0.3, wiederholung=Wiederholung("jitter", versuche=3)
    ).lauf(20_000)
    leichtsinnig = Lastsim(
        **kw,
        nicht_idempotent=0.3,
        wiederholung=Wiederholung("jitter", versuche=3, nur_idempotent=False),
    ).lauf(20_000)
    assert sicher.nicht_idempotent_wiederholt == 0
    assert sicher.doppelt_nicht_idempotent == 0
    assert leichtsinnig.nicht_idempotent_wiederholt > 0
    assert leichtsinnig.doppelt_nicht_idempotent > 0


def test_backoff_waits() -> None:
    z = random.Random(1)
    anfrage = type("A", (), {"idempotent": True})()
    exp = Wiederholung("exponentiell", versuche=10, basis=100, deckel=1000)
    assert [exp(v, anfrage, z) for v in range(1, 7)] == [100, 200, 400, 800, 1000, 1000]
    jitter = Wiederholung("jitter", versuche=10, basis=100, deckel=1000)
    for v in range(1, 7):
        w = jitter(v, anfrage, z)
        assert 0 <= w < min(1000, 100 * 2 ** (v - 1))
    assert exp(10, anfrage, z) is None


def wellen(art: str, seed: int):
    sim = Lastsim(
        pro_sekunde=0,
        worker=4,
        bedienzeit=20,
        verteilung="fest",
        warteschlange=16,
        wiederholung=Wiederholung(art, versuche=6, basis=100),
        seed=seed,
        raster=10,
    )
    sim.stoss(200)
    return sim.lauf(1)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_with_jitter_retries_spread(seed: int) -> None:
    fest = wellen("exponentiell", seed)
    jitter = wellen("jitter", seed)
    assert max(jitter.wiederholt_je_raster) * 3 < max(fest.wiederholt_je_raster)
    assert jitter.erfolgreich >= fest.erfolgreich


# --- the circuit breaker ----------------------------------------------------------------------


def test_breaker_opens_waits_and_probes() -> None:
    s = Schutzschalter(schwelle=3, pause=100)
    for t in range(3):
        assert s.erlaubt(t)
        s.fehler(t)
    assert s.zustand == "offen"
    assert not s.erlaubt(50)
    assert s.erlaubt(102)  # the probe
    assert s.zustand == "halboffen"
    assert not s.erlaubt(103)  # only one probe at a time
    s.fehler(104)
    assert s.zustand == "offen"
    assert not s.erlaubt(150)
    assert s.erlaubt(204)
    s.erfolg(205)
    assert s.zustand == "geschlossen"
    assert [(w.von, w.nach) for w in s.wechsel] == [
        ("geschlossen", "offen"),
        ("offen", "halboffen"),
        ("halboffen", "offen"),
        ("offen", "halboffen"),
        ("halboffen", "geschlossen"),
    ]


def test_breaker_table_refuses_what_it_does_not_list() -> None:
    s = Schutzschalter()
    assert ("geschlossen", "pause_vorbei") not in UEBERGAENGE
    with pytest.raises(
        ZustandsFehler,
        match="Interner Fehler: „pause_vorbei“ ist im Zustand „geschlossen“ nicht vorgesehen",
    ):
        s._ereignis("pause_vorbei", 0)
    assert s.zustand == "geschlossen"
    with pytest.raises(UngueltigeEingabe, match="vorwärts"):
        s.erlaubt(10)
        s.erlaubt(5)


def test_breaker_in_the_storm_fails_fast_and_recovers() -> None:
    e = sturm(
        wiederholung=Wiederholung("jitter", versuche=4),
        schutzschalter=Schutzschalter(schwelle=5, pause=1000),
    )
    assert e.kurzgeschlossen > 0
    assert sum(e.erfolg_je_raster[150:200]) > 300


# --- pictures ---------------------------------------------------------------------------------


@pytest.mark.parametrize("art", ["bild", "wellen_bild", "latenz_bild"])
def test_pictures_are_valid_svg_with_title_and_description(art: str) -> None:
    e = sturm(wiederholung=Wiederholung("jitter", versuche=4, budget=0.1))
    svg = getattr(e, art)().svg
    root = ET.fromstring(svg)
    assert root.find(NS + "title").text
    assert root.find(NS + "desc").text
    assert "<script" not in svg and "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    breite = int(root.get("viewBox").split()[2])
    assert breite <= 480


def test_comparison_names_every_run() -> None:
    a = Lastsim(pro_sekunde=50, worker=4, bedienzeit=40).lauf(5_000)
    b = Lastsim(pro_sekunde=95, worker=4, bedienzeit=40).lauf(5_000)
    svg = latenz_vergleich({"50 %": a, "95 %": b}).svg
    desc = ET.fromstring(svg).find(NS + "desc").text
    assert "50 %: p50" in desc and "95 %: p50" in desc
    assert f"p99 {b.p99} ms" in desc
