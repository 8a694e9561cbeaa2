"""Uhren, Ordnung und Versionen: Einzelfälle und Eigenschaften (hypothesis)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import (
    LamportUhr,
    LwwSpeicher,
    SimFehler,
    UnbekannterKnoten,
    UngueltigeEingabe,
    VektorUhr,
    VersionsSpeicher,
    Welt,
    vergleiche,
    zufallswelt,
)
from tests.pysim.svg_regeln import allgemeine_regeln

EINSTELLUNGEN = settings(max_examples=60, deadline=None)


def dreieck(kausal: bool = False) -> Welt:
    """The lesson's story: the answer ("bezahlt") overtakes the question ("angelegt")."""
    welt = Welt(kausal=kausal)
    b = welt.knoten("bestellung")
    z = welt.knoten("zahlung")
    m = welt.knoten("mail")
    b.lokal("legt 7 an")
    b.sende("mail", "7 angelegt", dauer=8)
    b.sende("zahlung", "7 angelegt", dauer=2)
    m.lokal("newsletter")
    welt.tick(2)
    z.sende("mail", "7 bezahlt", dauer=3)
    welt.lauf()
    return welt


def test_physische_uhr_versatz_drift_und_sprung() -> None:
    welt = Welt()
    k = welt.knoten("k", versatz=80, drift=2)
    assert k.uhr() == 80
    welt.tick(2000)
    assert k.uhr() == 2084 and k.monoton() == 2004
    start, mono = k.uhr(), k.monoton()
    welt.tick(30)
    assert k.stelle_uhr(welt.now) == -84
    welt.tick(20)
    assert k.uhr() - start == -34
    assert k.monoton() - mono == 50


def test_lamport_und_vektor_in_der_geschichte() -> None:
    welt = dreieck()
    lam = {e.name: e.lamport for e in welt.ereignisse}
    assert lam == {
        "bestellung1": 1,
        "bestellung2": 2,
        "bestellung3": 3,
        "mail1": 1,
        "zahlung1": 4,
        "zahlung2": 5,
        "mail2": 6,
        "mail3": 7,
    }
    assert welt.ereignis("mail3").vektor == {"bestellung": 3, "zahlung": 2, "mail": 3}
    assert welt.beziehung("mail1", "zahlung1") == "nebenläufig"
    assert welt.beziehung("bestellung2", "mail2") == "vorher"
    assert welt["mail"].empfangen == ["7 bezahlt", "7 angelegt"]


def test_kausale_zustellung_haelt_die_antwort_zurueck() -> None:
    welt = dreieck(kausal=True)
    assert welt["mail"].empfangen == ["7 angelegt", "7 bezahlt"]
    bezahlt = next(n for n in welt.nachrichten if n.inhalt == "7 bezahlt")
    assert (bezahlt.angekommen, bezahlt.zugestellt, bezahlt.zustand) == (5, 8, "zugestellt")
    svg = welt.bild().svg
    assert "stroke-dasharray" in svg


def test_uhren_einzeln() -> None:
    lam = LamportUhr()
    assert lam.tick() == 1 and lam.empfange(5) == 6 and lam.empfange(2) == 7
    v = VektorUhr("a")
    assert v.tick() == {"a": 1}
    assert v.empfange({"b": 3}) == {"a": 2, "b": 3}
    assert vergleiche({"a": 1}, {"a": 1, "b": 0}) == "gleich"
    assert vergleiche({"a": 1}, {"a": 2}) == "vorher"
    assert vergleiche({"a": 2, "b": 0}, {"a": 1, "b": 1}) == "nebenläufig"
    with pytest.raises(UngueltigeEingabe):
        vergleiche({"a": -1}, {})


def test_fehler_sagen_was_falsch_war() -> None:
    welt = Welt()
    a = welt.knoten("a")
    with pytest.raises(UnbekannterKnoten, match="Es gibt: „a“"):
        a.sende("b", "x")
    with pytest.raises(UngueltigeEingabe, match="selbst"):
        a.sende("a", "x")
    with pytest.raises(UngueltigeEingabe, match="gibt es schon"):
        welt.knoten("a")
    with pytest.raises(UngueltigeEingabe):
        Welt(verzoegerung=(0, 2))
    assert welt.ereignisse == [] and welt.nachrichten == []
    n = dreieck().nachrichten[0]
    with pytest.raises(SimFehler, match="zugestellt"):
        n._weiter("zurueckhalten")


def test_lww_verliert_den_neueren_wert() -> None:
    welt = Welt()
    a = welt.knoten("katalog_a")
    b = welt.knoten("katalog_b", versatz=-50)
    preise = LwwSpeicher()
    welt.tick(120)
    e = a.lokal("preis=19")
    assert preise.schreibe("preis", 19, e.uhr, e.knoten)
    welt.tick(30)
    e = b.lokal("preis=17")
    assert not preise.schreibe("preis", 17, e.uhr, e.knoten)
    assert preise.lies("preis") == 19
    assert [v.wert for v in preise.verloren()] == [17]


def test_versionsvektoren_behalten_gleichzeitiges() -> None:
    preise = VersionsSpeicher()
    preise.schreibe("preis", 20, {}, von="a")
    anna, ben = preise.lies("preis"), preise.lies("preis")
    preise.schreibe("preis", 19, anna.kontext, von="a")
    preise.schreibe("preis", 17, ben.kontext, von="b")
    lesung = preise.lies("preis")
    assert lesung.werte == [19, 17] and lesung.kontext == {"a": 2, "b": 1}
    preise.schreibe("preis", 17, lesung.kontext, von="b")
    assert preise.lies("preis").werte == [17]
    with pytest.raises(UngueltigeEingabe, match="kontext"):
        preise.schreibe("preis", 1, lesung, von="b")  # type: ignore[arg-type]


def test_bild_regeln_und_titel() -> None:
    welt = dreieck()
    root = allgemeine_regeln(welt.bild(uhr=True, markiere=["mail2"]).svg)
    titel = root.find("{http://www.w3.org/2000/svg}title").text
    assert titel == (
        "Raum-Zeit-Diagramm: 3 Knoten (bestellung, zahlung, mail), 8 Ereignisse, 3 Nachrichten"
    )
    assert welt.bild().svg == dreieck().bild().svg
    with pytest.raises(UnbekannterKnoten):
        welt.bild(markiere=["mail9"])


# --- Eigenschaften ---


@EINSTELLUNGEN
@given(seed=st.integers(0, 10_000), knoten=st.integers(2, 4), schritte=st.integers(0, 18))
def test_lamport_respektiert_happened_before(seed: int, knoten: int, schritte: int) -> None:
    welt = zufallswelt(seed, knoten=knoten, schritte=schritte)
    for a, b in itertools.permutations(welt.ereignisse, 2):
        if welt.vor(a, b):
            assert a.lamport < b.lamport, (a, b)


@EINSTELLUNGEN
@given(
    seed=st.integers(0, 10_000),
    knoten=st.integers(2, 4),
    schritte=st.integers(0, 18),
    kausal=st.booleans(),
)
def test_vektoren_ordnen_wie_happened_before(
    seed: int, knoten: int, schritte: int, kausal: bool
) -> None:
    welt = zufallswelt(seed, knoten=knoten, schritte=schritte, kausal=kausal)
    for a, b in itertools.product(welt.ereignisse, repeat=2):
        assert vergleiche(a.vektor, b.vektor) == welt.beziehung(a, b), (a, b)


@EINSTELLUNGEN
@given(seed=st.integers(0, 10_000), schritte=st.integers(0, 18))
def test_kausale_zustellung_ordnet_jede_empfangsfolge(seed: int, schritte: int) -> None:
    welt = zufallswelt(seed, knoten=3, schritte=schritte, kausal=True)
    assert all(n.zustand == "zugestellt" for n in welt.nachrichten)
    sende = {e.nachricht: e for e in welt.ereignisse if e.art == "senden"}
    empfang = [e for e in welt.ereignisse if e.art == "empfangen"]
    for x, y in itertools.permutations(empfang, 2):
        if x.knoten == y.knoten and welt.vor(sende[x.nachricht], sende[y.nachricht]):
            assert x.nummer < y.nummer, (x, y)


@EINSTELLUNGEN
@given(st.lists(st.tuples(st.sampled_from("abc"), st.booleans()), max_size=12))
def test_versionsspeicher_verliert_nichts_gleichzeitiges(schritte) -> None:
    """Whoever writes with a fresh read replaces everything; a stale read keeps both."""
    speicher = VersionsSpeicher()
    alt = speicher.lies("k")
    for i, (wer, frisch) in enumerate(schritte):
        kontext = speicher.lies("k").kontext if frisch else alt.kontext
        vorher = speicher.lies("k").werte
        speicher.schreibe("k", i, kontext, von=wer)
        werte = speicher.lies("k").werte
        assert werte[-1] == i
        if frisch:
            assert werte == [i]
        else:
            assert len(werte) <= len(vorher) + 1
        alt = speicher.lies("k") if i % 3 == 0 else alt
