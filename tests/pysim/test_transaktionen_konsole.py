"""The SQL console and its picture (pysim.transaktionen.konsole, .bild)."""

from __future__ import annotations

import pytest

from pysim.transaktionen import Datenbank
from pysim.transaktionen.bild import bild
from pysim.transaktionen.konsole import SqlKonsole


def lauf(k: SqlKonsole, *zeilen: str) -> list[str]:
    texte = []
    for z in zeilen:
        r = k.run(z)
        assert r.ok, (z, r.text)
        texte.append(r.text)
    return texte


def test_ein_verlorenes_update_und_seine_verhinderung_in_der_konsole() -> None:
    k = SqlKonsole()
    texte = lauf(
        k,
        "t1 begin",
        "t2 begin",
        "t1 select * from test where id = 1",
        "t2 select * from test where id = 1",
        "t1 update test set value = 11 where id = 1",
        "t2 update test set value = 11 where id = 1",
        "t1 commit",
        "t2 commit",
    )
    assert texte[5] == "T2: update test set value = 11 where id = 1 — wartet auf T1"
    assert texte[6].splitlines()[1] == "  T2: update test set value = 11 where id = 1 — 1 Zeile"
    k = SqlKonsole()
    texte = lauf(
        k,
        "t1 begin isolation level repeatable read",
        "t2 begin isolation level repeatable read",
        "t1 select * from test where id = 1",
        "t2 select * from test where id = 1",
        "t1 update test set value = 11 where id = 1",
        "t2 update test set value = 11 where id = 1",
        "t1 commit",
    )
    assert "FEHLER 40001 (could not serialize access due to concurrent update)" in texte[-1]
    assert k.db.transaktion("T2").status == "abgebrochen"  # type: ignore[union-attr]


def test_das_bild_zeigt_versionen_sperren_und_wer_wartet() -> None:
    k = SqlKonsole(sitzungen=3)
    lauf(
        k,
        "t1 begin",
        "t1 update test set value = 11 where id = 1",
        "t2 update test set value = 12 where id = 1",
        "t3 insert into test (id, value) values (3, 30)",
    )
    svg = k.run("status").svg
    assert svg is not None
    for teil in (
        "<title>Die Tabelle test: Versionen, Sperren, Sitzungen</title>",
        "Zeile 1: 10 von Anfang (committet), 11 von T1 (aktiv).",
        "T1 sperrt Zeile 1. T2 wartet auf T1.",
        "gesperrt: T1",
        "T2: read committed, offen — wartet auf T1",
        "ersetzt: T1",
    ):
        assert teil in svg, teil
    assert "Zeile 3: 30 von T3 (committet)." in svg


@pytest.mark.parametrize(
    ("zeile", "teil"),
    [
        ("t3 begin", "Diese Konsole hat 2 Sitzungen: t1, t2."),
        ("t1 drop table test", "Diesen Befehl kennt die Datenbank nicht"),
        ("t1", "Es fehlt der SQL-Befehl."),
        ("t4 begin", "t4"),
    ],
)
def test_falsche_zeilen_aendern_nichts(zeile: str, teil: str) -> None:
    k = SqlKonsole()
    lauf(k, "t1 begin", "t1 update test set value = 11 where id = 1")
    vorher = len(k.db.verlauf)
    r = k.run(zeile)
    assert not r.ok and teil in r.text
    assert len(k.db.verlauf) == vorher and k.db.transaktion("T1") is not None


def test_eine_wartende_sitzung_nimmt_nichts_an() -> None:
    k = SqlKonsole()
    lauf(k, "t1 begin", "t1 update test set value = 11 where id = 1")
    lauf(k, "t2 delete from test where id = 1")
    r = k.run("t2 select * from test")
    assert not r.ok and "T2 wartet noch auf T1" in r.text


def test_das_bild_eines_leeren_anfangs_und_viele_versionen() -> None:
    db = Datenbank()
    for i in range(9):
        db.sql("T1", f"update test set value = {i} where id = 1")
    svg = bild(db).svg
    assert "+4 ältere" in svg and "Noch keine Sitzung." not in svg
    assert "Noch keine Sitzung." in bild(Datenbank()).svg


def test_pruefe_zeigt_den_kreis_eines_write_skew() -> None:
    k = SqlKonsole()
    lauf(
        k,
        "t1 begin isolation level repeatable read",
        "t2 begin isolation level repeatable read",
        "t1 select * from test",
        "t2 select * from test",
        "t1 update test set value = 11 where id = 1",
        "t2 update test set value = 21 where id = 2",
        "t1 commit",
        "t2 commit",
    )
    si = k.run("pruefe snapshot isolation")
    assert si.ok and si.text.startswith("Snapshot Isolation eingehalten")
    assert si.svg is not None and "Die Tabelle test" in si.svg
    ser = k.run("pruefe")
    assert ser.text.startswith("Serialisierbarkeit verletzt: G2-item:")
    assert ser.svg is not None and "<title>Der Kreis der Anomalie G2-item</title>" in ser.svg
    falsch = k.run("pruefe repeatable read")
    assert not falsch.ok and "„snapshot isolation“" in falsch.text


def test_die_geschichte_nennt_jeden_wert_mit_seiner_sitzung() -> None:
    from pysim.transaktionen.geschichte import geschichte

    k = SqlKonsole()
    lauf(
        k,
        "t1 update test set value = 11 where id = 1",
        "t2 begin",
        "t2 delete from test where id = 1",
        "t2 rollback",
        "t1 update test set value = 11 where id = 1",
    )
    ereignisse = [(e["process"], e["type"], e["value"]) for e in geschichte(k.db)]
    assert ereignisse == [
        ("Anfang", "invoke", [["w", 1, None], ["w", 2, None]]),
        ("Anfang", "ok", [["w", 1, "10"], ["w", 2, "20"]]),
        ("T1", "invoke", [["r", 1, None], ["w", 1, "11 von T1"]]),
        ("T1", "ok", [["r", 1, "10"], ["w", 1, "11 von T1"]]),
        ("T2", "invoke", [["r", 1, None], ["w", 1, "gelöscht von T2"]]),
        ("T2", "fail", [["r", 1, "11 von T1"], ["w", 1, "gelöscht von T2"]]),
        ("T1", "invoke", [["r", 1, None], ["w", 1, "11 von T1 (2)"]]),
        ("T1", "ok", [["r", 1, "11 von T1"], ["w", 1, "11 von T1 (2)"]]),
    ]
