"""The saga model: orchestration, compensation, idempotency and faults (pysim.saga)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import SimFehler
from pysim.saga import (
    ABGELEHNT,
    ABGESCHLOSSEN,
    ERLEDIGT,
    GESENDET,
    KOMPENSIERT,
    OFFEN,
    UEBERGAENGE,
    WIRD_KOMPENSIERT,
    Abgelehnt,
    Dienst,
    OrchestratorAusgefallen,
    Saga,
    SagaSim,
    Schritt,
    UnbekannteSaga,
    naechster_befehl,
    saga_zustand,
    shop_dienste,
)

FERTIG = {
    "zahlung": {"kunde": 70},
    "lager": {"jacken": 2},
    "versand": {"auftraege": 1},
    "mail": {"mails": 1},
}
ANFANG = {
    "zahlung": {"kunde": 100},
    "lager": {"jacken": 3},
    "versand": {"auftraege": 0},
    "mail": {"mails": 0},
}


def lauf(*stoerungen: tuple[str, str, bool], **optionen: object) -> SagaSim:
    sim = SagaSim(**optionen)  # type: ignore[arg-type]
    for art, schritt, kompensation in stoerungen:
        sim.stoere(art, schritt, kompensation)
    sim.starte("b7")
    sim.run()
    return sim


def test_ohne_stoerung_laeuft_die_saga_durch() -> None:
    sim = lauf()
    assert sim.zustand("b7") == ABGESCHLOSSEN
    assert sim.now == 8
    assert sim.staende() == FERTIG
    assert sim.kompensationen("b7") == []


def test_ablehnung_kompensiert_rueckwaerts() -> None:
    sim = lauf(("ablehnen", "versand", False))
    assert sim.zustand("b7") == KOMPENSIERT
    assert sim.kompensationen("b7") == ["lager", "zahlung"]
    assert sim.schritte("b7") == {
        "zahlung": KOMPENSIERT,
        "lager": KOMPENSIERT,
        "versand": ABGELEHNT,
        "mail": OFFEN,
    }
    assert sim.staende() == ANFANG


def test_ablehnung_im_ersten_schritt_braucht_keine_kompensation() -> None:
    sim = lauf(("ablehnen", "zahlung", False))
    assert sim.zustand("b7") == KOMPENSIERT
    assert sim.kompensationen("b7") == []


def test_ein_ausverkauftes_lager_lehnt_ab() -> None:
    sim = SagaSim(dienste=shop_dienste(jacken=0))
    sim.starte("b7")
    sim.run()
    assert sim.zustand("b7") == KOMPENSIERT
    assert sim.kompensationen("b7") == ["zahlung"]
    assert any("ausverkauft" in e.text for e in sim.verlauf())


def test_zwischenzustand_ist_fuer_andere_sichtbar() -> None:
    """Isolation: a second order sees the reservation of the first, which is later undone."""
    sim = SagaSim(dienste=shop_dienste(jacken=1))
    sim.stoere("ablehnen", "versand", saga="a")
    sim.starte("a")
    sim.tick(2)
    sim.starte("b")
    sim.run()
    assert sim.zustand("a") == KOMPENSIERT
    assert sim.zustand("b") == KOMPENSIERT
    assert sim.dienst("lager").stand == {"jacken": 1}


def test_verspaetete_antwort_wird_mit_demselben_schluessel_wiederholt() -> None:
    sim = lauf(("verspaetet", "lager", False))
    assert sim.zustand("b7") == ABGESCHLOSSEN
    assert sim.versuche("b7")["lager"] == 2
    assert sim.dienst("lager").ausfuehrungen == {"b7/lager/reservieren": 1}
    assert sim.staende() == FERTIG


def test_absturz_eines_dienstes() -> None:
    sim = lauf(("absturz", "zahlung", False))
    assert sim.zustand("b7") == ABGESCHLOSSEN
    assert sim.staende() == FERTIG
    assert any(e.art == "absturz" for e in sim.verlauf())


def test_doppelte_zustellung_ohne_dedupe_erstattet_zweimal() -> None:
    sim = lauf(
        ("ablehnen", "versand", False),
        ("doppelt", "zahlung", True),
        dienste=shop_dienste(dedupe=False),
    )
    assert sim.zustand("b7") == KOMPENSIERT
    assert sim.dienst("zahlung").stand == {"kunde": 130}


def test_doppelte_zustellung_mit_dedupe_erstattet_einmal() -> None:
    sim = lauf(("ablehnen", "versand", False), ("doppelt", "zahlung", True))
    assert sim.dienst("zahlung").stand == {"kunde": 100}
    assert any(e.art == "duplikat" for e in sim.verlauf())


def test_orchestrator_ohne_neustart_bleibt_stehen_und_macht_danach_weiter() -> None:
    sim = lauf(("orchestrator", "lager", False), neustart=False)
    assert not sim.orchestrator_laeuft
    assert sim.schritte("b7") == {
        "zahlung": ERLEDIGT,
        "lager": ERLEDIGT,
        "versand": GESENDET,
        "mail": OFFEN,
    }
    # the command for versand is in the outbox, not sent
    assert [e["gesendet"] for e in sim.db["b7"]["outbox"]][-1] is False
    assert sim.dienst("versand").stand == {"auftraege": 0}
    with pytest.raises(OrchestratorAusgefallen):
        sim.starte("b8")
    sim.neustart()
    sim.run()
    assert sim.zustand("b7") == ABGESCHLOSSEN
    assert sim.staende() == FERTIG


def test_orchestrator_startet_von_selbst_neu() -> None:
    sim = lauf(("orchestrator", "zahlung", False))
    assert sim.zustand("b7") == ABGESCHLOSSEN
    assert sim.ausfaelle == [(2, 5)]


def test_gleiche_eingaben_gleicher_lauf() -> None:
    stoerungen = (("verspaetet", "lager", False), ("orchestrator", "lager", False))
    a, b = lauf(*stoerungen), lauf(*stoerungen)
    assert [str(e) for e in a.verlauf()] == [str(e) for e in b.verlauf()]
    assert a.bild().svg == b.bild().svg


# --- rules ---


def test_saga_zustand_folgt_aus_den_schritten() -> None:
    assert saga_zustand([ERLEDIGT, ERLEDIGT]) == ABGESCHLOSSEN
    assert saga_zustand([ERLEDIGT, GESENDET]) == "läuft"
    assert saga_zustand([ERLEDIGT, ABGELEHNT]) == WIRD_KOMPENSIERT
    assert saga_zustand([KOMPENSIERT, ABGELEHNT, OFFEN]) == KOMPENSIERT


def test_naechster_befehl() -> None:
    assert naechster_befehl([OFFEN, OFFEN]) == (0, "senden")
    assert naechster_befehl([ERLEDIGT, GESENDET]) is None
    assert naechster_befehl([ERLEDIGT, ERLEDIGT, ABGELEHNT]) == (1, "kompensieren")
    assert naechster_befehl([KOMPENSIERT, ABGELEHNT]) is None


def test_jeder_zielzustand_ist_ein_zustand() -> None:
    zustaende = {OFFEN, GESENDET, ERLEDIGT, ABGELEHNT, WIRD_KOMPENSIERT, KOMPENSIERT}
    assert {z for z, _ in UEBERGAENGE} <= zustaende
    assert {z for z in UEBERGAENGE.values() if z is not None} <= zustaende


# --- bad input: German, and nothing changes ---


@pytest.mark.parametrize(
    ("art", "schritt", "kompensation", "teil"),
    [
        ("kaputt", "lager", False, "Arten"),
        ("absturz", "keller", False, "Schritte"),
        ("ablehnen", "mail", False, "Pivot"),
        ("ablehnen", "lager", True, "Kompensation"),
        ("doppelt", "versand", True, "keine Kompensation"),
    ],
)
def test_falsche_stoerung(art: str, schritt: str, kompensation: bool, teil: str) -> None:
    sim = SagaSim()
    with pytest.raises(SimFehler, match=teil):
        sim.stoere(art, schritt, kompensation)
    assert sim.stoerungen() == []


def test_falsche_saga_definitionen() -> None:
    with pytest.raises(SimFehler, match="Pivot"):
        Saga([Schritt("a", "x"), Schritt("b", "y", "z")])
    with pytest.raises(SimFehler, match="doppelt"):
        Saga([Schritt("a", "x", "y"), Schritt("a", "x", "y")])
    with pytest.raises(SimFehler, match="fehlt"):
        SagaSim(saga=Saga([Schritt("a", "x")]), dienste=[])


def test_unbekannte_und_doppelte_saga() -> None:
    sim = SagaSim()
    with pytest.raises(UnbekannteSaga, match="noch keine"):
        sim.zustand("b1")
    sim.starte("b1")
    with pytest.raises(SimFehler, match="läuft schon"):
        sim.starte("b1")
    with pytest.raises(SimFehler, match="läuft schon"):
        sim.neustart()


def test_eigene_dienste_und_aktionen() -> None:
    def buchen(stand: dict[str, int], saga: str) -> None:
        raise Abgelehnt("gesperrt")

    sim = SagaSim(
        saga=Saga([Schritt("konto", "buchen", "storno")]),
        dienste=[Dienst("konto", {"buchen": buchen, "storno": buchen})],
    )
    sim.starte("x")
    sim.run()
    assert sim.zustand("x") == KOMPENSIERT


# --- picture ---


def test_bild_hat_titel_und_beschreibung() -> None:
    sim = lauf(("ablehnen", "versand", False), ("orchestrator", "zahlung", False))
    wurzel = ET.fromstring(sim.bild().svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert wurzel.find(f"{ns}title").text == "Saga „b7“ bei t=13: kompensiert"  # type: ignore[union-attr]
    beschreibung = wurzel.find(f"{ns}desc").text or ""  # type: ignore[union-attr]
    assert "versand abgelehnt" in beschreibung
    assert "Orchestrator war 1× abgestürzt" in beschreibung
    assert sim._repr_svg_() == sim.bild("b7").svg
    ET.fromstring(SagaSim().bild().svg)


# --- properties ---

SCHRITTE = ["zahlung", "lager", "versand", "mail"]


@st.composite
def stoerungen(draw: st.DrawFn) -> list[tuple[str, str, bool]]:
    ergebnis = []
    for _ in range(draw(st.integers(0, 6))):
        art = draw(
            st.sampled_from(["ablehnen", "absturz", "doppelt", "verspaetet", "orchestrator"])
        )
        if art == "ablehnen":
            ergebnis.append((art, draw(st.sampled_from(SCHRITTE[:3])), False))
        else:
            schritt = draw(st.sampled_from(SCHRITTE))
            kompensation = schritt in SCHRITTE[:2] and draw(st.booleans())
            ergebnis.append((art, schritt, kompensation))
    return ergebnis


@settings(max_examples=150, deadline=None)
@given(stoerungen(), st.integers(3, 6), st.integers(1, 5))
def test_jede_saga_endet_abgeschlossen_oder_ganz_kompensiert(
    liste: list[tuple[str, str, bool]], timeout: int, ausfall: int
) -> None:
    sim = lauf(*liste, timeout=timeout, ausfall=ausfall)
    assert sim.fertig()
    assert sim.orchestrator_laeuft
    abgelehnt = any(s.art == "ablehnen" for s in sim._stoerungen if s.verbraucht)
    if abgelehnt:
        assert sim.zustand("b7") == KOMPENSIERT
        assert sim.staende() == ANFANG
    else:
        assert sim.zustand("b7") == ABGESCHLOSSEN
        assert sim.staende() == FERTIG
    # no action and no compensation took effect twice
    for dienst in sim.dienste.values():
        assert all(n == 1 for n in dienst.ausfuehrungen.values()), dienst.ausfuehrungen
    # compensations ran in reverse order of the steps, each once
    komp = sim.kompensationen("b7")
    assert komp == sorted(set(komp), key=SCHRITTE.index, reverse=True)


@settings(max_examples=60, deadline=None)
@given(stoerungen(), stoerungen())
def test_zwei_sagas_gleichzeitig(
    a: list[tuple[str, str, bool]], b: list[tuple[str, str, bool]]
) -> None:
    sim = SagaSim()
    for saga, liste in (("a", a), ("b", b)):
        for art, schritt, kompensation in liste:
            sim.stoere(art, schritt, kompensation, saga=saga)
    sim.starte("a")
    sim.tick(1)
    sim.starte("b")
    sim.run()
    assert sim.fertig()
    fertige = sum(sim.zustand(s) == ABGESCHLOSSEN for s in ("a", "b"))
    assert sim.dienst("zahlung").stand["kunde"] == 100 - 30 * fertige
    assert sim.dienst("lager").stand["jacken"] == 3 - fertige
    assert sim.dienst("versand").stand["auftraege"] == fertige


@settings(max_examples=80, deadline=None)
@given(stoerungen(), st.lists(st.integers(0, 12), min_size=1, max_size=4))
def test_neustart_von_hand_zu_beliebiger_zeit(
    liste: list[tuple[str, str, bool]], pausen: list[int]
) -> None:
    """Without automatic restart the saga waits; restarted at any time, it ends consistently."""
    sim = SagaSim(neustart=False)
    for art, schritt, kompensation in liste:
        sim.stoere(art, schritt, kompensation)
    sim.starte("b7")
    for pause in pausen:
        sim.tick(pause)
        if not sim.orchestrator_laeuft:
            sim.neustart()
    sim.run()
    while not sim.orchestrator_laeuft:
        sim.neustart()
        sim.run()
    assert sim.zustand("b7") in (ABGESCHLOSSEN, KOMPENSIERT)
    erwartet = ANFANG if sim.zustand("b7") == KOMPENSIERT else FERTIG
    assert sim.staende() == erwartet
    for dienst in sim.dienste.values():
        assert all(n == 1 for n in dienst.ausfuehrungen.values()), dienst.ausfuehrungen
