"""pysim.transaktionen against Hermitage's PostgreSQL cases (github.com/ept/hermitage, postgres.md).

Each case is a script: one statement per line, ``Tn: sql``, and after ``->`` what PostgreSQL
does: the rows a select shows (``{1: 11}``; ``{}`` for none), ``wartet`` (blocked on a lock),
an SQLSTATE (``40001``), or ``ok``. A ``commit``/``abort`` that lets a blocked statement go on
says what became of it: ``-> ok; T2 40001`` (the woken statement of T2 failed) or ``T2 ok``.
"""

from __future__ import annotations

import ast
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.fehler import UngueltigeEingabe
from pysim.pruefer import transaktionen
from pysim.transaktionen import Datenbank, Ergebnis
from pysim.transaktionen.geschichte import geschichte

RC = "read committed"
RR = "repeatable read"
SER = "serializable"


def _pruefe(erwartet: str, r: Ergebnis, zeile: str) -> None:
    erwartet = erwartet.strip()
    if erwartet == "wartet":
        assert r.wartet, zeile
    elif erwartet == "ok":
        assert not r.wartet and r.fehler is None, f"{zeile}: {r}"
    elif erwartet.startswith("{"):
        assert r.fehler is None and not r.wartet, f"{zeile}: {r}"
        assert r.zeilen == ast.literal_eval(erwartet), f"{zeile}: {r}"
    else:
        assert r.fehler is not None and r.fehler.code == erwartet, f"{zeile}: {r}"


def spiele(skript: str, stufe: str) -> Datenbank:
    """Runs a case; sessions that start with ``begin`` get the isolation level ``stufe``."""
    db = Datenbank()
    for zeile in skript.strip().splitlines():
        befehl, _, erwartet = zeile.partition("->")
        sitzung, _, sql = befehl.partition(":")
        sitzung, sql = sitzung.strip(), sql.strip()
        r = db.sql(sitzung, sql)
        if sql == "begin":
            db.sql(sitzung, f"set transaction isolation level {stufe}")
        if not erwartet:
            assert r.fehler is None and not r.wartet, f"{zeile}: {r}"
            continue
        eigenes, *geweckt = erwartet.split(";")
        _pruefe(eigenes, r, zeile)
        woken = {g.sitzung: g for g in r.geweckt}
        for teil in geweckt:
            wer, was = teil.split(maxsplit=1)
            assert wer in woken, f"{zeile}: {wer} ging nicht weiter ({r})"
            _pruefe(was, woken[wer], zeile)
    return db


#: The first updater of row 1 commits; what becomes of the second (``{t2}``) and after.
_G0_ANFANG = """
T1: begin
T2: begin
T1: update test set value = 11 where id = 1
T2: update test set value = 12 where id = 1 -> wartet
T1: update test set value = 21 where id = 2
T1: commit -> ok; T2 {t2}
T1: select * from test -> {1: 11, 2: 21}
"""

G0 = (
    _G0_ANFANG.replace("{t2}", "ok")
    + """T2: update test set value = 22 where id = 2
T2: commit
T1: select * from test -> {1: 12, 2: 22}
"""
)

G0_SNAPSHOT = (
    _G0_ANFANG.replace("{t2}", "40001")
    + """T2: update test set value = 22 where id = 2 -> 25P02
T2: abort
T1: select * from test -> {1: 11, 2: 21}
"""
)

G1A = """
T1: begin
T2: begin
T1: update test set value = 101 where id = 1
T2: select * from test -> {1: 10, 2: 20}
T1: abort
T2: select * from test -> {1: 10, 2: 20}
T2: commit
"""

G1B = """
T1: begin
T2: begin
T1: update test set value = 101 where id = 1
T2: select * from test -> {1: 10, 2: 20}
T1: update test set value = 11 where id = 1
T1: commit
T2: select * from test -> {1: 11, 2: 20}
T2: commit
"""

G1B_SNAPSHOT = G1B.replace("-> {1: 11, 2: 20}", "-> {1: 10, 2: 20}")

G1C = """
T1: begin
T2: begin
T1: update test set value = 11 where id = 1
T2: update test set value = 22 where id = 2
T1: select * from test where id = 2 -> {2: 20}
T2: select * from test where id = 1 -> {1: 10}
T1: commit
T2: commit
"""

#: T2 waits for T1's lock on row 1; T1 commits, and T2 goes on (``{t2}``).
_OTV_ANFANG = """
T1: begin
T2: begin
T3: begin
T1: update test set value = 11 where id = 1
T1: update test set value = 19 where id = 2
T2: update test set value = 12 where id = 1 -> wartet
T1: commit -> ok; T2 {t2}
"""

OTV = (
    _OTV_ANFANG.replace("{t2}", "ok")
    + """T3: select * from test where id = 1 -> {1: 11}
T2: update test set value = 18 where id = 2
T3: select * from test where id = 2 -> {2: 19}
T2: commit
T3: select * from test where id = 2 -> {2: 18}
T3: select * from test where id = 1 -> {1: 12}
T3: commit
"""
)

OTV_SNAPSHOT = (
    _OTV_ANFANG.replace("{t2}", "40001")
    + """T3: select * from test -> {1: 11, 2: 19}
T2: abort
T3: select * from test -> {1: 11, 2: 19}
T3: commit
"""
)

PMP = """
T1: begin
T2: begin
T1: select * from test where value = 30 -> {}
T2: insert into test (id, value) values(3, 30)
T2: commit
T1: select * from test where value % 3 = 0 -> {3: 30}
T1: commit
"""

PMP_SNAPSHOT = PMP.replace("-> {3: 30}", "-> {}")

PMP_WRITE = """
T1: begin
T2: begin
T1: update test set value = value + 10
T2: delete from test where value = 20 -> wartet
T1: commit -> ok; T2 ok
T2: select * from test where value = 20 -> {1: 20}
T2: commit
"""

PMP_WRITE_SNAPSHOT = """
T1: begin
T2: begin
T1: update test set value = value + 10
T2: delete from test where value = 20 -> wartet
T1: commit -> ok; T2 40001
T2: abort
"""

P4 = """
T1: begin
T2: begin
T1: select * from test where id = 1 -> {1: 10}
T2: select * from test where id = 1 -> {1: 10}
T1: update test set value = 11 where id = 1
T2: update test set value = 11 where id = 1 -> wartet
T1: commit -> ok; T2 ok
T2: commit
"""

P4_SNAPSHOT = P4.replace("T2 ok", "T2 40001").replace("T2: commit", "T2: abort")

G_SINGLE = """
T1: begin
T2: begin
T1: select * from test where id = 1 -> {1: 10}
T2: select * from test where id = 1 -> {1: 10}
T2: select * from test where id = 2 -> {2: 20}
T2: update test set value = 12 where id = 1
T2: update test set value = 18 where id = 2
T2: commit
T1: select * from test where id = 2 -> {2: 18}
T1: commit
"""

G_SINGLE_SNAPSHOT = G_SINGLE.replace("-> {2: 18}", "-> {2: 20}")

G_SINGLE_PREDICATE = """
T1: begin
T2: begin
T1: select * from test where value % 5 = 0 -> {1: 10, 2: 20}
T2: update test set value = 12 where value = 10
T2: commit
T1: select * from test where value % 3 = 0 -> {}
T1: commit
"""

G_SINGLE_WRITE_PREDICATE = """
T1: begin
T2: begin
T1: select * from test where id = 1 -> {1: 10}
T2: select * from test -> {1: 10, 2: 20}
T2: update test set value = 12 where id = 1
T2: update test set value = 18 where id = 2
T2: commit
T1: delete from test where value = 20 -> 40001
T1: abort
"""

G2_ITEM = """
T1: begin
T2: begin
T1: select * from test where id in (1,2) -> {1: 10, 2: 20}
T2: select * from test where id in (1,2) -> {1: 10, 2: 20}
T1: update test set value = 11 where id = 1
T2: update test set value = 21 where id = 2
T1: commit
T2: commit -> {commit}
T1: select * from test -> {ende}
"""

G2 = """
T1: begin
T2: begin
T1: select * from test where value % 3 = 0 -> {}
T2: select * from test where value % 3 = 0 -> {}
T1: insert into test (id, value) values(3, 30)
T2: insert into test (id, value) values(4, 42)
T1: commit
T2: commit -> {commit}
T1: select * from test where value % 3 = 0 -> {ende}
"""

FEKETE = """
T1: begin
T1: select * from test -> {1: 10, 2: 20}
T2: begin
T2: update test set value = value + 5 where id = 2
T2: commit
T3: begin
T3: select * from test -> {1: 10, 2: 25}
T3: commit
T1: update test set value = 0 where id = 1 -> {fehler}
T1: abort
"""


def _mit(skript: str, **werte: str) -> str:
    for name, wert in werte.items():
        skript = skript.replace("{" + name + "}", wert)
    return skript


FAELLE = [
    pytest.param(G0, RC, id="G0 read committed"),
    pytest.param(G0_SNAPSHOT, RR, id="G0 repeatable read"),
    pytest.param(G0_SNAPSHOT, SER, id="G0 serializable"),
    pytest.param(G1A, RC, id="G1a read committed"),
    pytest.param(G1A, RR, id="G1a repeatable read"),
    pytest.param(G1A, SER, id="G1a serializable"),
    pytest.param(G1B, RC, id="G1b read committed"),
    pytest.param(G1B_SNAPSHOT, RR, id="G1b repeatable read"),
    pytest.param(G1C, RC, id="G1c read committed"),
    pytest.param(G1C, RR, id="G1c repeatable read"),
    pytest.param(OTV, RC, id="OTV read committed"),
    pytest.param(OTV_SNAPSHOT, RR, id="OTV repeatable read"),
    pytest.param(PMP, RC, id="PMP read committed erlaubt"),
    pytest.param(PMP_SNAPSHOT, RR, id="PMP repeatable read verhindert"),
    pytest.param(PMP_SNAPSHOT, SER, id="PMP serializable verhindert"),
    pytest.param(PMP_WRITE, RC, id="PMP write predicate read committed erlaubt"),
    pytest.param(PMP_WRITE_SNAPSHOT, RR, id="PMP write predicate repeatable read verhindert"),
    pytest.param(P4, RC, id="P4 read committed erlaubt lost update"),
    pytest.param(P4_SNAPSHOT, RR, id="P4 repeatable read verhindert"),
    pytest.param(P4_SNAPSHOT, SER, id="P4 serializable verhindert"),
    pytest.param(G_SINGLE, RC, id="G-single read committed erlaubt"),
    pytest.param(G_SINGLE_SNAPSHOT, RR, id="G-single repeatable read verhindert"),
    pytest.param(G_SINGLE_SNAPSHOT, SER, id="G-single serializable verhindert"),
    pytest.param(G_SINGLE_PREDICATE, RR, id="G-single predicate repeatable read"),
    pytest.param(G_SINGLE_WRITE_PREDICATE, RR, id="G-single write predicate repeatable read"),
    pytest.param(
        _mit(G2_ITEM, commit="ok", ende="{1: 11, 2: 21}"), RR, id="G2-item repeatable read erlaubt"
    ),
    pytest.param(
        _mit(G2_ITEM, commit="40001", ende="{1: 11, 2: 20}"), SER, id="G2-item serializable"
    ),
    pytest.param(_mit(G2, commit="ok", ende="{3: 30, 4: 42}"), RR, id="G2 repeatable read erlaubt"),
    pytest.param(_mit(G2, commit="40001", ende="{3: 30}"), SER, id="G2 serializable"),
    pytest.param(_mit(FEKETE, fehler="ok"), RR, id="G2 Fekete repeatable read erlaubt"),
    pytest.param(_mit(FEKETE, fehler="40001"), SER, id="G2 Fekete serializable"),
]


@pytest.mark.parametrize(("skript", "stufe"), FAELLE)
def test_hermitage_postgresql(skript: str, stufe: str) -> None:
    spiele(skript, stufe)


# --- the rest of the model: waits, errors, input ---


def test_ein_wartender_befehl_laesst_keinen_weiteren_zu_und_aendert_nichts() -> None:
    db = Datenbank()
    db.sql("T1", "begin")
    db.sql("T1", "update test set value = 11 where id = 1")
    r = db.sql("T2", "update test set value = value - 3 where id = 1")
    assert r.wartet and r.wartet_auf == "T1" and db.wartet() == {"T2": "T1"}
    vorher = len(db.verlauf)
    with pytest.raises(UngueltigeEingabe, match="T2 wartet noch auf T1"):
        db.sql("T2", "select * from test")
    assert len(db.verlauf) == vorher
    db.sql("T1", "commit")
    assert not r.wartet and r.anzahl == 1 and db.tabelle() == {1: 8, 2: 20}


def test_verklemmung_bricht_die_transaktion_ab_die_den_kreis_schliesst() -> None:
    db = Datenbank()
    for s in ("T1", "T2"):
        db.sql(s, "begin")
    db.sql("T1", "update test set value = 11 where id = 1")
    db.sql("T2", "update test set value = 22 where id = 2")
    wartet = db.sql("T1", "update test set value = 12 where id = 2")
    r = db.sql("T2", "update test set value = 21 where id = 1")
    assert r.fehler is not None and r.fehler.code == "40P01"
    assert "T2 wartet auf T1 wartet auf T2" in r.fehler.text
    assert [g.sitzung for g in r.geweckt] == ["T1"] and not wartet.wartet
    assert db.sql("T2", "select * from test").fehler.code == "25P02"  # type: ignore[union-attr]
    hinweis = db.sql("T2", "commit").hinweis
    assert hinweis is not None and "rollback" in hinweis
    db.sql("T1", "commit")
    assert db.tabelle() == {1: 11, 2: 12}


def test_ohne_transaktion_ist_jeder_befehl_eine_eigene() -> None:
    db = Datenbank()
    assert db.sql("T1", "insert into test (id, value) values (3, 30), (4, 40)").anzahl == 2
    assert db.sql("T1", "insert into test (id, value) values (3, 31)").fehler.code == "23505"  # type: ignore[union-attr]
    assert db.sql("T1", "delete from test where value % 20 = 0").anzahl == 2
    assert db.tabelle() == {1: 10, 3: 30}
    assert db.sql("T1", "commit").hinweis == "Es läuft keine Transaktion; nichts geändert."


def test_die_stufe_waehlt_man_vor_dem_ersten_lesen() -> None:
    db = Datenbank()
    db.sql("T1", "begin")
    db.sql("T1", "select * from test")
    r = db.sql("T1", "set transaction isolation level serializable")
    assert r.fehler is not None and r.fehler.code == "25001"
    assert db.sql("T2", "begin isolation level read uncommitted").fehler is None
    assert db.transaktion("T2").stufe == "read committed"  # type: ignore[union-attr]


def test_select_for_update_verhindert_das_verlorene_update() -> None:
    db = Datenbank()
    for s in ("T1", "T2"):
        db.sql(s, "begin")
    assert db.sql("T1", "select * from test where id = 1 for update").zeilen == {1: 10}
    r = db.sql("T2", "select * from test where id = 1 for update")
    assert r.wartet
    db.sql("T1", "update test set value = 11 where id = 1")
    db.sql("T1", "commit")
    assert r.zeilen == {1: 11}  # T2 reads the row T1 left, not the one it would have read
    db.sql("T2", "update test set value = 12 where id = 1")
    db.sql("T2", "commit")
    assert db.tabelle()[1] == 12


@pytest.mark.parametrize(
    ("befehl", "teil"),
    [
        ("drop table test", "Diesen Befehl kennt die Datenbank nicht"),
        ("select * from konten", "Es gibt eine Tabelle: „test“"),
        ("select * from test where name = 'x'", "Diese Bedingung kennt die Datenbank nicht"),
        ("update test set value = value * 2", "Ein Update setzt"),
        ("insert into test (id, value) values 3, 30", "Werte stehen als"),
        ("select * from test where value % 0 = 1", "Durch 0 kann man nicht teilen"),
        ("select * from test; commit", "Mehrere Befehle in einem Aufruf gehen nur"),
        ("   ", "Das ist leer"),
        (42, "Ein SQL-Befehl ist ein Text"),
    ],
)
def test_falsche_eingaben_sagen_was_ginge_und_aendern_nichts(befehl: object, teil: str) -> None:
    db = Datenbank()
    db.sql("T1", "begin")
    with pytest.raises(UngueltigeEingabe, match=re.escape(teil)):
        db.sql("T1", befehl)  # type: ignore[arg-type]
    assert len(db.verlauf) == 1 and db.tabelle() == {1: 10, 2: 20}
    assert db.transaktion("T1").status == "aktiv"  # type: ignore[union-attr]


# --- serializable means serializable: every committed outcome has a serial order ---

_BEFEHLE = st.one_of(
    st.builds(lambda k: f"select * from test where id = {k}", st.integers(1, 3)),
    st.just("select * from test where value % 2 = 0"),
    st.builds(
        lambda k, n: f"update test set value = value + {n} where id = {k}",
        st.integers(1, 3),
        st.integers(1, 3),
    ),
    st.builds(lambda n: f"update test set value = {n} where value % 2 = 0", st.integers(0, 9)),
    st.builds(lambda v: f"insert into test (id, value) values (3, {v})", st.integers(0, 9)),
    st.builds(lambda k: f"delete from test where id = {k}", st.integers(1, 3)),
)


def _seriell(
    reihenfolge: list[str], programme: dict[str, list[str]]
) -> tuple[list[object], dict[int, int]]:
    db = Datenbank()
    gelesen: list[object] = []
    for s in reihenfolge:
        db.sql(s, "begin")
        for befehl in programme[s]:
            gelesen.append((s, befehl, db.sql(s, befehl).zeilen))
        db.sql(s, "commit")
    return gelesen, db.tabelle()


def _zufaellig(
    programme: list[list[str]], plan: list[int], stufe: str
) -> tuple[Datenbank, list[str], dict[str, list[str]], dict[str, list[Ergebnis]]]:
    """Random interleavings at ``stufe``: the plan picks whose turn it is, then everyone
    finishes in name order (a session that waits skips its turn)."""
    db = Datenbank()
    namen = [f"T{i + 1}" for i in range(len(programme))]
    rest = {s: list(p) for s, p in zip(namen, programme, strict=True)}
    ergebnisse: dict[str, list[Ergebnis]] = {s: [] for s in namen}
    for s in namen:
        db.sql(s, f"begin isolation level {stufe}")
    zuege = [namen[i % len(namen)] for i in plan] + [s for _ in range(12) for s in namen]
    for s in zuege:
        if s in db.wartet():
            continue
        if rest[s]:
            ergebnisse[s].append(db.sql(s, rest[s].pop(0)))
        elif db.transaktion(s) is not None:
            ergebnisse[s].append(db.sql(s, "commit"))
    assert not db.wartet()
    return db, namen, rest, ergebnisse


_PROGRAMME = st.lists(st.lists(_BEFEHLE, min_size=1, max_size=3), min_size=2, max_size=3)
_PLAN = st.lists(st.integers(0, 2), max_size=12)


@settings(max_examples=300, deadline=None)
@given(programme=_PROGRAMME, plan=_PLAN)
def test_serializable_hat_fuer_alles_bestaetigte_eine_serielle_reihenfolge(
    programme: list[list[str]], plan: list[int]
) -> None:
    """Whatever committed at the serializable level must be explained by running the committed
    transactions one after another in some order (brute force)."""
    db, namen, rest, ergebnisse = _zufaellig(programme, plan, "serializable")
    bestaetigt = [
        s
        for s in namen
        if not rest[s]
        and all(r.fehler is None for r in ergebnisse[s])
        and db.transaktion(s) is None
    ]
    beobachtet = {
        (s, r.befehl): r.zeilen for s in bestaetigt for r in ergebnisse[s] if r.zeilen is not None
    }
    tabelle = db.tabelle()
    for reihenfolge in itertools.permutations(bestaetigt):
        gelesen, ende = _seriell(list(reihenfolge), {s: programme[namen.index(s)] for s in namen})
        seriell = {(s, b): z for s, b, z in gelesen if z is not None}
        if ende == tabelle and all(seriell.get(k) == v for k, v in beobachtet.items()):
            return
    pytest.fail(f"keine serielle Reihenfolge für {bestaetigt}: {db.verlauf}")


@settings(max_examples=200, deadline=None)
@given(programme=_PROGRAMME, plan=_PLAN)
@pytest.mark.parametrize(
    ("stufe", "verspricht"),
    [
        ("read committed", "read committed"),
        ("repeatable read", "snapshot isolation"),
        ("serializable", "serialisierbar"),
    ],
)
def test_der_pruefer_findet_in_keinem_lauf_was_die_stufe_verbietet(
    stufe: str, verspricht: str, programme: list[list[str]], plan: list[int]
) -> None:
    """The model and the checker agree: a run at each level, as a history of its transactions
    (``geschichte``), shows none of the anomalies that level forbids."""
    db, *_ = _zufaellig(programme, plan, stufe)
    urteil = transaktionen(geschichte(db), stufe=verspricht)
    assert urteil.ok, (urteil.erklaerung, [str(e) for e in db.verlauf])


def test_jedes_ergebnis_nennt_seine_transaktion() -> None:
    db = Datenbank()
    nummern = [
        db.sql(s, b).transaktion
        for s, b in [
            ("T1", "begin"),
            ("T1", "select * from test"),
            ("T2", "select * from test"),
            ("T1", "commit"),
            ("T1", "commit"),
        ]
    ]
    assert nummern == [1, 1, 2, 1, None]
    assert db.von(1).sitzung == "T1" and db.von(2).autocommit


def test_zeilen_wie_in_hermitage_mit_kommentar_und_begin_davor() -> None:
    db = Datenbank()
    r = db.sql("T1", "begin; set transaction isolation level repeatable read; -- T1")
    assert r.befehl == "set transaction isolation level repeatable read"
    assert db.transaktion("T1").stufe == "repeatable read"  # type: ignore[union-attr]
    assert [e.befehl for e in db.verlauf] == [
        "begin",
        "set transaction isolation level repeatable read",
    ]
    r = db.sql("T1", "update test set value = 11 where id = 1; -- T1, BLOCKS")
    assert r.anzahl == 1
