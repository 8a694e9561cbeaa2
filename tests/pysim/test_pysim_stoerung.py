"""Simulierte Abstürze: Übung 3 aus Lektion 1 (beides oder nichts)."""

from __future__ import annotations

import sqlite3

import pytest

from pysim import SimFehler, SimulierterAbsturz, UngueltigeEingabe
from pysim.stoerung import absturz_bei_aufruf, absturz_nach, ist_schreibzugriff
from tests.pysim.szenario import verarbeite


def neue_db() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.execute(
        "CREATE TABLE punkte (kunde TEXT PRIMARY KEY, stand INTEGER NOT NULL CHECK (stand <= 1000))"
    )
    con.execute("CREATE TABLE gesehen (msg_id INTEGER PRIMARY KEY)")
    con.execute("INSERT INTO punkte VALUES ('anna', 0)")
    con.commit()
    return con


def verarbeite_falsch(con, msg):  # zwei Transaktionen: merkt die ID, bevor gebucht ist
    try:
        con.execute("INSERT INTO gesehen (msg_id) VALUES (?)", (msg["id"],))
        con.commit()
    except sqlite3.IntegrityError:
        return False
    con.execute(
        "UPDATE punkte SET stand = stand + ? WHERE kunde = ?",
        (msg["body"]["punkte"], msg["body"]["kunde"]),
    )
    con.commit()
    return True


MSG = {"id": 7, "body": {"kunde": "anna", "punkte": 50}}


def stand(con: sqlite3.Connection) -> tuple[int, int]:
    punkte = con.execute("SELECT stand FROM punkte WHERE kunde='anna'").fetchone()[0]
    gesehen = con.execute("SELECT COUNT(*) FROM gesehen").fetchone()[0]
    return punkte, gesehen


def test_loesung_ohne_absturz() -> None:
    con = neue_db()
    assert verarbeite(con, MSG) is True
    assert verarbeite(con, MSG) is False
    assert stand(con) == (50, 1)


@pytest.mark.parametrize("n", [1, 2])
def test_loesung_absturz_nach_n_schreibzugriffen_beides_oder_nichts(n: int) -> None:
    con = neue_db()
    kaputt = absturz_nach(con, n)
    with pytest.raises(SimulierterAbsturz, match=f"nach dem {n}. Schreibzugriff"):
        verarbeite(kaputt, MSG)
    assert stand(con) == (0, 0)  # nichts passiert
    assert verarbeite(con, MSG) is True  # die Wiederholung wirkt genau einmal
    assert stand(con) == (50, 1)


def test_falsche_loesung_wird_erkannt() -> None:
    con = neue_db()
    with pytest.raises(SimulierterAbsturz):
        verarbeite_falsch(absturz_nach(con, 2), MSG)
    assert stand(con) == (0, 1)  # ID gemerkt, Punkte nie gebucht
    assert verarbeite_falsch(con, MSG) is False
    assert stand(con) == (0, 1)


def test_obergrenze_exception_fliegt_weiter_und_id_nicht_gemerkt() -> None:
    con = neue_db()
    with pytest.raises(sqlite3.IntegrityError):
        verarbeite(con, {"id": 8, "body": {"kunde": "anna", "punkte": 5000}})
    assert stand(con) == (0, 0)


def test_absturz_vorher_fuehrt_nicht_aus() -> None:
    con = neue_db()
    kaputt = absturz_nach(con, 1, vorher=True)
    with pytest.raises(SimulierterAbsturz, match=r"vor dem 1\. Schreibzugriff"):
        kaputt.execute("INSERT INTO gesehen VALUES (1)")
    assert stand(con) == (0, 0)


def test_nach_dem_absturz_ist_die_huelle_tot() -> None:
    con = neue_db()
    kaputt = absturz_nach(con, 1)
    with pytest.raises(SimulierterAbsturz):
        kaputt.execute("INSERT INTO gesehen VALUES (1)")
    with pytest.raises(SimulierterAbsturz, match="abgestürzten Prozess"):
        kaputt.execute("SELECT 1")
    assert kaputt.abgestuerzt
    assert repr(kaputt) == "AbsturzVerbindung(Absturz beim 1. Schreibzugriff, abgestürzt)"


def test_lesen_zaehlt_nicht_und_bestaetigtes_bleibt() -> None:
    con = neue_db()
    kaputt = absturz_nach(con, 2)
    kaputt.execute("SELECT * FROM punkte").fetchall()
    kaputt.execute("INSERT INTO gesehen VALUES (1)")
    kaputt.commit()
    with pytest.raises(SimulierterAbsturz):
        kaputt.executemany("INSERT INTO gesehen VALUES (?)", [(2,), (3,)])
    assert kaputt.schreibzugriffe == 2
    assert stand(con) == (0, 1)


def test_cursor_wird_mitgezaehlt() -> None:
    con = neue_db()
    kaputt = absturz_nach(con, 1)
    cur = kaputt.cursor()
    with pytest.raises(SimulierterAbsturz):
        cur.execute("  -- Kommentar\n update punkte set stand = 1")
    assert stand(con) == (0, 0)


def test_ist_schreibzugriff() -> None:
    assert ist_schreibzugriff("insert into x values (1)")
    assert ist_schreibzugriff("/* a */ REPLACE INTO x VALUES (1)")
    assert ist_schreibzugriff("DELETE FROM x")
    assert not ist_schreibzugriff("SELECT 1")
    assert not ist_schreibzugriff("CREATE TABLE y (a)")


def test_absturz_bei_aufruf() -> None:
    gesendet: list[str] = []
    senden = absturz_bei_aufruf(gesendet.append, 2)
    senden("a")
    with pytest.raises(SimulierterAbsturz, match=r"beim 2\. Aufruf von append"):
        senden("b")
    with pytest.raises(SimulierterAbsturz):
        senden("c")
    assert gesendet == ["a"]


def test_absturz_nach_ausfuehrung() -> None:
    gesendet: list[str] = []
    senden = absturz_bei_aufruf(gesendet.append, 1, nach_ausfuehrung=True)
    with pytest.raises(SimulierterAbsturz, match="Aufruf ist ausgeführt"):
        senden("a")
    assert gesendet == ["a"]


def test_parameter_fehler() -> None:
    with pytest.raises(UngueltigeEingabe):
        absturz_nach(neue_db(), 0)
    with pytest.raises(UngueltigeEingabe, match="sqlite3-Verbindung"):
        absturz_nach("db", 1)  # type: ignore[arg-type]
    with pytest.raises(UngueltigeEingabe):
        absturz_bei_aufruf(5, 1)  # type: ignore[arg-type]
    assert issubclass(SimulierterAbsturz, SimFehler)
