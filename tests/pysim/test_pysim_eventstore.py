"""Event-Store: Versionen, optimistische Nebenläufigkeit, Projektionen, Snapshots, Projektor."""

from __future__ import annotations

import pytest

from pysim import (
    EventStore,
    Projektion,
    Projektor,
    UnbekannterStream,
    UngueltigeEingabe,
    UnveraenderlichFehler,
    VersionsKonflikt,
    bestand,
    kontostand,
)

KAESE = [
    {"product": 7, "change": 24, "why": "delivery"},
    {"product": 7, "change": -4, "why": "sale"},
    {"product": 7, "change": -3, "why": "sale"},
    {"product": 7, "change": 1, "why": "returned"},
]


def test_append_gibt_version_und_read() -> None:
    s = EventStore()
    assert s.append("produkt-7", KAESE[:3], expected_version=0) == 3
    assert s.append("produkt-7", KAESE[3:], expected_version=3) == 4
    events = s.read("produkt-7")
    assert [e.version for e in events] == [1, 2, 3, 4]
    assert [e.position for e in events] == [0, 1, 2, 3]
    assert s.read("produkt-7", from_version=2, to_version=3) == events[1:3]
    assert s.version("produkt-7") == 4
    assert s.version("neu") == 0


def test_versionskonflikt_deutsch_und_nichts_geschrieben() -> None:
    s = EventStore()
    s.append("konto-1", [{"typ": "einzahlung", "betrag": 100}])
    vorher = repr(s)
    with pytest.raises(VersionsKonflikt) as info:
        s.append("konto-1", [{"typ": "auszahlung", "betrag": 30}], expected_version=0)
    assert str(info.value) == (
        "Konflikt im Stream „konto-1“: erwartet war Version 0, der Stream steht aber bei "
        "Version 1. Jemand anderes hat inzwischen geschrieben. Lies den Stream neu, prüfe die "
        "Entscheidung und versuche es mit expected_version=1."
    )
    assert repr(s) == vorher


def test_zwei_schreiber_optimistisch() -> None:
    s = EventStore()
    s.append("konto-1", [{"typ": "einzahlung", "betrag": 100}])
    v_a = s.version("konto-1")
    v_b = s.version("konto-1")
    s.append("konto-1", [{"typ": "auszahlung", "betrag": 80}], expected_version=v_a)
    with pytest.raises(VersionsKonflikt):
        s.append("konto-1", [{"typ": "auszahlung", "betrag": 80}], expected_version=v_b)
    assert s.zustand("konto-1", kontostand) == 20


def test_append_fehler() -> None:
    s = EventStore()
    with pytest.raises(UngueltigeEingabe, match="Liste"):
        s.append("a", {"typ": "einzahlung"})  # type: ignore[arg-type]
    with pytest.raises(UngueltigeEingabe, match="mindestens ein"):
        s.append("a", [])
    with pytest.raises(UngueltigeEingabe):
        s.append("a", [1], expected_version=-1)
    assert s.streams() == []


def test_unbekannter_stream() -> None:
    s = EventStore()
    s.append("konto-1", [{"typ": "einzahlung", "betrag": 1}])
    with pytest.raises(UnbekannterStream, match=r"„konto-2“.*„konto-1“"):
        s.read("konto-2")


def test_ereignisse_unveraenderlich() -> None:
    s = EventStore()
    s.append("p", [{"change": 1}])
    e = s.read("p")[0]
    with pytest.raises(UnveraenderlichFehler):
        e.daten["change"] = 2
    with pytest.raises(UnveraenderlichFehler):
        e.version = 9  # type: ignore[misc]
    with pytest.raises(UnveraenderlichFehler, match="neues Ereignis"):
        s.update("p", 1, {"change": 2})
    with pytest.raises(UnveraenderlichFehler):
        s.delete("p", 1)


def test_bestand_ist_summe_und_verlauf() -> None:
    s = EventStore()
    s.append("produkt-7", KAESE)
    assert s.zustand("produkt-7", bestand) == 18
    assert s.verlauf("produkt-7", bestand) == [(1, 24), (2, 20), (3, 17), (4, 18)]
    assert s.zustand("produkt-7", bestand, version=2) == 20
    assert s.zustand("produkt-7", bestand, version=0) == 0


def test_kontostand_einzahlung_minus_auszahlung() -> None:
    s = EventStore()
    s.append(
        "konto-1",
        [
            {"typ": "einzahlung", "betrag": 100},
            {"typ": "auszahlung", "betrag": 30},
            {"typ": "einzahlung", "betrag": 5},
        ],
    )
    assert s.zustand("konto-1", kontostand) == 75


def test_zustand_an_frueherem_tick() -> None:
    s = EventStore()
    s.append("produkt-7", KAESE[:1])  # t=0
    s.tick(1)
    s.append("produkt-7", KAESE[1:3])  # t=1
    s.tick(1)
    s.append("produkt-7", KAESE[3:])  # t=2
    assert [s.zustand("produkt-7", bestand, zeit=t) for t in (0, 1, 2)] == [24, 17, 18]
    with pytest.raises(UngueltigeEingabe, match="nicht beides"):
        s.zustand("produkt-7", bestand, version=1, zeit=1)
    with pytest.raises(UngueltigeEingabe, match="erst Version 4"):
        s.zustand("produkt-7", bestand, version=5)


def test_eigene_projektion_mit_dict() -> None:
    def falte(z: dict, e: dict) -> dict:
        return {**z, e["why"]: z.get(e["why"], 0) + 1}

    zaehler = Projektion("Gründe", {}, falte)
    s = EventStore()
    s.append("p", KAESE)
    assert s.zustand("p", zaehler) == {"delivery": 1, "sale": 2, "returned": 1}
    assert zaehler.start == {}


def test_snapshot_kuerzt_die_faltung() -> None:
    s = EventStore()
    s.append("produkt-7", KAESE[:3])
    snap = s.snapshot("produkt-7", bestand)
    assert (snap.version, snap.zustand) == (3, 17)
    s.append("produkt-7", KAESE[3:])
    r = s.rekonstruiere("produkt-7", bestand)
    assert (r.zustand, r.snapshot_version, r.gefaltet) == (18, 3, 1)
    alt = s.rekonstruiere("produkt-7", bestand, version=2)
    assert (alt.zustand, alt.snapshot_version, alt.gefaltet) == (20, None, 2)
    assert s.snapshots("produkt-7") == [snap]
    assert (
        repr(r)
        == "Rekonstruktion(Version 4: 18, ab Snapshot nach Version 3, 1 Ereignisse gefaltet)"
    )


def test_projektor_hinkt_hinterher_und_holt_auf() -> None:
    s = EventStore()
    p = Projektor(s, kontostand)
    s.append("konto-1", [{"typ": "einzahlung", "betrag": 100}])
    assert p.abfrage("konto-1") == 0  # Befehl geschrieben, Abfrage sieht es noch nicht
    assert p.rueckstand == 1
    p.step()
    assert p.abfrage("konto-1") == 100
    s.append("konto-1", [{"typ": "auszahlung", "betrag": 30}])
    s.append("konto-2", [{"typ": "einzahlung", "betrag": 5}])
    assert p.run() == 2
    assert p.lesemodell == {"konto-1": 70, "konto-2": 5}
    assert p.step() is None
    assert repr(p) == "Projektor(„Kontostand“: 3 verarbeitet, Rückstand 0)"


def test_projektor_mit_verzoegerung_ueber_die_zeit() -> None:
    s = EventStore()
    p = Projektor(s, bestand, verzoegerung=2)
    s.append("produkt-7", KAESE[:1])
    assert p.abfrage("produkt-7") == 0
    s.tick(1)
    assert p.abfrage("produkt-7") == 0
    s.tick(1)
    assert p.abfrage("produkt-7") == 24
    s.append("produkt-7", KAESE[1:])
    s.tick(2)
    assert p.abfrage("produkt-7") == 18
    assert p.rueckstand == 0


def test_repr() -> None:
    s = EventStore()
    s.append("konto-1", [{"typ": "einzahlung", "betrag": 100}])
    assert repr(s) == "EventStore t=0: 1 Streams, 1 Ereignisse\n  konto-1: Version 1"
    assert repr(s.read("konto-1")[0]) == (
        "Event(konto-1 v1 t=0 {'typ': 'einzahlung', 'betrag': 100})"
    )


def test_projektor_mit_praefix_und_klare_fehler() -> None:
    s = EventStore()
    p = Projektor(s, bestand, praefix="produkt-")
    s.append("konto-1", [{"typ": "einzahlung", "betrag": 100}])
    s.append("produkt-7", KAESE)
    assert p.run() == 5
    assert p.lesemodell == {"produkt-7": 18}
    with pytest.raises(UngueltigeEingabe, match="„change“"):
        s.zustand("konto-1", bestand)
    with pytest.raises(UngueltigeEingabe, match="einzahlung"):
        s.zustand("produkt-7", kontostand)
