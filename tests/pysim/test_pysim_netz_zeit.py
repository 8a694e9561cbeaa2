"""FakeNetz und die simulierte Zeit."""

from __future__ import annotations

import pytest

from pysim import FakeNetz, UngueltigeEingabe, Welt, Zeit

ENTWURF = ["bestellung-1", "bestellung-4", "bestellung-3", "bestellung-3", "bestellung-5"]


def lauf(seed: int = 300, **kwargs: object) -> FakeNetz:
    netz = FakeNetz(seed=seed, **kwargs)  # type: ignore[arg-type]
    for i in range(1, 6):
        netz.send(f"bestellung-{i}")
    return netz


def test_entwurf_lauf_mit_seed_300() -> None:
    assert lauf().empfangen() == ENTWURF


def test_standardwerte_geben_den_entwurf() -> None:
    netz = FakeNetz()
    for i in range(1, 6):
        netz.send(f"bestellung-{i}")
    assert netz.empfangen() == ENTWURF


def test_drei_effekte_sichtbar() -> None:
    netz = lauf()
    angekommen = netz.empfangen()
    assert "bestellung-2" not in angekommen  # verloren
    assert angekommen.count("bestellung-3") == 2  # doppelt
    assert angekommen.index("bestellung-4") < angekommen.index("bestellung-3")  # überholt
    assert [s.verloren for s in netz.sendungen] == [False, True, False, False, False]


def test_ankuenfte_mit_zeiten() -> None:
    netz = lauf()
    netz.empfangen()
    assert [(a.zeit, a.nachricht, a.gesendet, a.kopie) for a in netz.ankuenfte] == [
        (3, "bestellung-1", 0, 1),
        (4, "bestellung-4", 3, 1),
        (5, "bestellung-3", 2, 2),
        (7, "bestellung-3", 2, 1),
        (7, "bestellung-5", 4, 1),
    ]
    assert repr(netz.ankuenfte[0]) == "Ankunft(t=3: 'bestellung-1', gesendet t=0)"
    assert repr(netz) == (
        "FakeNetz(seed=300, t=7: 5 gesendet, 1 verloren, 0 unterwegs, 5 angekommen)"
    )


def test_ohne_warten_nur_was_schon_da_ist() -> None:
    netz = lauf()
    assert netz.empfangen(warten=False) == []
    netz.tick(4)
    assert netz.empfangen(warten=False) == ["bestellung-1", "bestellung-4"]
    assert netz.unterwegs == 3


def test_gleicher_seed_gleicher_lauf_anderer_seed_anders() -> None:
    assert lauf(11).empfangen() == lauf(11).empfangen()
    laeufe = {tuple(lauf(s).empfangen()) for s in range(20)}
    assert len(laeufe) > 5


def test_ohne_stoerung_kommt_alles_in_reihenfolge() -> None:
    netz = lauf(1, verlust=0, duplikat=0, verzoegerung=(2, 2))
    assert netz.empfangen() == [f"bestellung-{i}" for i in range(1, 6)]


def test_alles_verloren() -> None:
    assert lauf(1, verlust=1, duplikat=0).empfangen() == []


def test_empfaenger_funktion() -> None:
    angekommen: list[str] = []
    netz = FakeNetz(seed=300)
    netz.send("x", an=angekommen.append)
    netz.empfangen()
    assert angekommen == ["x"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"verlust": 1.5},
        {"duplikat": -0.1},
        {"verlust": 0.6, "duplikat": 0.6},
        {"verzoegerung": (3, 1)},
        {"verzoegerung": (1,)},
        {"sendeabstand": -1},
        {"seed": "abc"},
    ],
)
def test_netz_parameter_fehler(kwargs: dict) -> None:
    with pytest.raises(UngueltigeEingabe):
        FakeNetz(**kwargs)


def test_send_fehler_aendert_nichts() -> None:
    netz = FakeNetz(seed=300)
    with pytest.raises(UngueltigeEingabe):
        netz.send("x", an=5)  # type: ignore[arg-type]
    assert netz.sendungen == []
    for i in range(1, 6):
        netz.send(f"bestellung-{i}")
    assert netz.empfangen() == ENTWURF


# --- Zeit ---


def test_zeit_gleichstand_nach_eintragsreihenfolge() -> None:
    uhr = Zeit()
    log: list[str] = []
    uhr.schedule(2, log.append, "b")
    uhr.schedule(1, log.append, "a")
    uhr.schedule(2, log.append, "c")
    uhr.run()
    assert log == ["a", "b", "c"]
    assert uhr.now == 2


def test_zeit_run_until_und_absagen() -> None:
    uhr = Zeit()
    log: list[int] = []
    uhr.schedule(1, log.append, 1)
    t = uhr.schedule(2, log.append, 2)
    uhr.schedule(5, log.append, 5)
    t.absagen()
    assert uhr.geplant == 2
    uhr.run(until=3)
    assert log == [1]
    assert uhr.now == 3
    assert uhr.peek() == 5
    assert uhr.step() is True
    assert uhr.step() is False
    assert log == [1, 5]


def test_zeit_termin_plant_termin() -> None:
    uhr = Zeit()
    log: list[int] = []

    def kette(n: int) -> None:
        log.append(uhr.now)
        if n:
            uhr.schedule(0 if n == 2 else 1, kette, n - 1)

    uhr.schedule(1, kette, 3)
    uhr.tick(5)
    assert log == [1, 2, 2, 3]


def test_zeit_fehler() -> None:
    uhr = Zeit()
    uhr.tick(3)
    with pytest.raises(UngueltigeEingabe, match="nur vorwärts"):
        uhr.run(until=1)
    with pytest.raises(UngueltigeEingabe):
        uhr.schedule(-1, print)
    assert uhr.now == 3
    assert repr(uhr) == "Zeit(t=3, geplante Termine: 0)"


@pytest.mark.parametrize(
    ("modell", "verzoegerung", "meldung"),
    [
        (FakeNetz, (2, 1), "0 <= kleinste <= größte, z. B. (1, 4), nicht (2, 1)."),
        (FakeNetz, (-1, 2), "nicht (-1, 2)."),
        (FakeNetz, (1, True), "nicht (1, True)."),
        (FakeNetz, 3, "nicht 3."),
        (Welt, (0, 2), "1 <= kleinste <= größte, z. B. (1, 6), nicht (0, 2)."),
        (Welt, [1, 2, 3], "nicht [1, 2, 3]."),
    ],
)
def test_verzoegerung_ist_ein_paar_ganzer_zahlen(
    modell: type[FakeNetz | Welt], verzoegerung: object, meldung: str
) -> None:
    with pytest.raises(UngueltigeEingabe, match="verzoegerung ist ein Paar ganzer Zahlen") as e:
        modell(verzoegerung=verzoegerung)  # type: ignore[arg-type]
    assert str(e.value).endswith(meldung)


def test_verzoegerung_als_liste_wird_ein_paar() -> None:
    assert FakeNetz(verzoegerung=[0, 2]).verzoegerung == (0, 2)  # type: ignore[arg-type]
