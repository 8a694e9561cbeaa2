"""Ausfall, die zwei Fristen (Max Poll Interval, Session Timeout) und Rebalancing im Log:
Modell, Regeln und Konsole.

Die Eigenschaften (hypothesis): Entfernt wird nur nach einer Frist, nie davor (nie bei oder vor N
Ticks); ein abgestürztes Mitglied hält seine Partitionen bis zum Session Timeout und wird danach
entfernt; ein entferntes Mitglied speichert nie eine Position, und sein Versuch ändert nichts; die
Aufteilung gilt je Topic; ein Commit speichert nur eigene Partitionen; gleiche Schritte, gleicher
Zustand.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysim import Log, SimFehler, UngueltigeEingabe
from pysim.console import LogKonsole
from pysim.fehler import CommitAbgelehnt, NichtZugeteilt
from pysim.log import regeln
from tests.pysim.konsolen import vorbereitet

EINSTELLUNGEN = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def zustand(log: Log) -> str:
    """Alles, was ein Aufruf ändern könnte, als Text (wie die Konsole es vergleicht)."""
    return LogKonsole(log).state_dump()


def zwei_mitglieder(timeout: int | None = 3, session: int | None = None) -> Log:
    """orders mit 3 Partitionen, 6 Einträgen; billing-1 hat p0, p1; billing-2 hat p2."""
    log = Log(max_poll_interval=timeout, session_timeout=session)
    log.create_topic("orders", partitions=3)
    log.consume("orders", "billing", from_beginning=True)
    log.consume("orders", "billing", member="billing-2")
    for i in range(6):
        log.produce("orders", {"n": i})  # reihum: p0: 0,3  p1: 1,4  p2: 2,5
    return log


# --- Regeln ---


def test_abgelaufen_erst_nach_dem_timeout() -> None:
    assert not regeln.abgelaufen(0, 3, 3)
    assert regeln.abgelaufen(0, 4, 3)
    assert not regeln.abgelaufen(0, 10**6, None)


def test_startposition_je_partition() -> None:
    assert regeln.startposition(5, 9, from_beginning=True) == 5
    assert regeln.startposition(None, 9, from_beginning=True) == 0
    assert regeln.startposition(None, 9, from_beginning=False) == 9


def test_uebergaenge() -> None:
    assert regeln.uebergang(regeln.MITGLIED, regeln.MAX_POLL, "m", "g") == regeln.ENTFERNT
    assert regeln.uebergang(regeln.MITGLIED, "absturz", "m", "g") == regeln.ABGESTUERZT
    assert regeln.uebergang(regeln.ABGESTUERZT, regeln.SESSION, "m", "g") == regeln.ENTFERNT
    assert regeln.uebergang(regeln.ABGESTUERZT, "consume", "m", "g") == regeln.MITGLIED
    assert regeln.uebergang(regeln.ENTFERNT, "consume", "m", "g") == regeln.MITGLIED
    with pytest.raises(CommitAbgelehnt, match="Es ist abgestürzt"):
        regeln.uebergang(regeln.ABGESTUERZT, "commit", "m", "g")
    with pytest.raises(UngueltigeEingabe, match="kann nicht abstürzen"):
        regeln.uebergang(regeln.ENTFERNT, "absturz", "m", "g")
    with pytest.raises(CommitAbgelehnt, match="Zustand: entfernt"):
        regeln.uebergang(regeln.ENTFERNT, "commit", "m", "g")
    with pytest.raises(UngueltigeEingabe, match="kann nicht austreten"):
        regeln.uebergang(regeln.AUSGETRETEN, "leave", "m", "g")
    with pytest.raises(AssertionError, match="Interner Fehler"):
        regeln.uebergang(regeln.ENTFERNT, regeln.MAX_POLL, "m", "g")
    with pytest.raises(AssertionError, match="Interner Fehler"):
        regeln.uebergang(regeln.MITGLIED, regeln.SESSION, "m", "g")


def test_position_text() -> None:
    assert regeln.position_text(None) == "–"
    assert regeln.position_text(0) == "0"


# --- Max Poll Interval ---


def test_fristen_werden_geprueft() -> None:
    for falsch in (0, -1, 1.5, "3", True):
        with pytest.raises(UngueltigeEingabe, match="Max Poll Interval"):
            Log(max_poll_interval=falsch)  # type: ignore[arg-type]
        with pytest.raises(UngueltigeEingabe, match="Session Timeout"):
            Log(session_timeout=falsch)  # type: ignore[arg-type]
    log = Log()
    assert log.max_poll_interval is None and log.session_timeout is None and log.now == 0
    log.max_poll_interval = 2
    log.session_timeout = 5
    assert (log.max_poll_interval, log.session_timeout) == (2, 5)
    assert repr(log).endswith("t=0, Max Poll Interval 2, Session Timeout 5")
    with pytest.raises(UngueltigeEingabe):
        log.tick(-1)


def test_ohne_timeout_wird_niemand_entfernt() -> None:
    log = zwei_mitglieder(timeout=None)
    assert log.tick(1000) == []
    assert log.members("billing") == ["billing-1", "billing-2"]
    assert log.now == 1000


def test_entfernt_genau_nach_dem_timeout() -> None:
    log = zwei_mitglieder()
    assert log.tick(3) == []  # genau 3 Ticks ohne consume: noch dabei
    assert log.members("billing") == ["billing-1", "billing-2"]
    entfernt = log.tick()
    assert [(e.member, e.zeit, e.ohne_lesen, e.frist, e.grund) for e in entfernt] == [
        ("billing-1", 4, 4, 3, regeln.MAX_POLL),
        ("billing-2", 4, 4, 3, regeln.MAX_POLL),
    ]
    assert entfernt[0].absturz is None and entfernt[0].ohne_herzschlag is None
    assert log.members("billing") == []


def test_consume_haelt_am_leben() -> None:
    log = zwei_mitglieder()
    for _ in range(5):
        log.tick(2)
        log.consume("orders", "billing")  # billing-1 liest regelmäßig
    assert log.members("billing") == ["billing-1"]
    assert log.group("billing").zuteilung("orders") == {
        0: "billing-1",
        1: "billing-1",
        2: "billing-1",
    }


def test_entfernen_teilt_neu_auf_und_zaehlt_die_generation() -> None:
    log = zwei_mitglieder()
    g = log.group("billing")
    assert g.generation == 2
    log.tick(2)
    log.consume("orders", "billing")
    assert log.tick(0) == []  # tick(0) lässt keine Zeit vergehen
    assert g.generation == 2
    (e,) = log.tick(2)
    assert (e.member, e.zeit, e.generation) == ("billing-2", 4, 3)
    assert g.generation == 3
    assert g.zuteilung("orders") == {0: "billing-1", 1: "billing-1", 2: "billing-1"}
    assert [x.member for x in g.entfernt()] == ["billing-2"]


def test_wer_uebernimmt_und_ab_welcher_position() -> None:
    log = zwei_mitglieder()
    log.consume("orders", "billing", member="billing-2", commit=False)  # liest p2:0, p2:1
    log.tick(3)
    log.consume("orders", "billing")
    (e,) = log.tick()
    assert (e.member, e.uebernahme, e.generation) == (
        "billing-2",
        (("orders", 2, "billing-1"),),
        3,
    )
    assert "p2 → billing-1" in str(e)
    # billing-1 liest p2 ab der gespeicherten Position 0: dieselben zwei Einträge noch einmal.
    wieder = log.consume("orders", "billing")
    assert [r.adresse for r in wieder] == ["p2:0", "p2:1"]


def test_zombie_kann_nicht_speichern_und_aendert_nichts() -> None:
    log = zwei_mitglieder()
    log.consume("orders", "billing", member="billing-2", commit=False)
    log.tick(3)
    log.consume("orders", "billing")
    log.tick()
    vorher = zustand(log)
    with pytest.raises(CommitAbgelehnt) as info:
        log.commit("orders", "billing", member="billing-2")
    meldung = str(info.value)
    assert "billing-2 kann keine Position speichern" in meldung
    assert "4 Ticks lang nicht gelesen (Max Poll Interval 3)" in meldung
    assert "p2 von „orders“ liest jetzt billing-1" in meldung
    assert isinstance(info.value, SimFehler)
    assert zustand(log) == vorher
    assert log.group("billing").position("orders", 2) == 0


def test_zombie_tritt_mit_consume_neu_bei() -> None:
    log = zwei_mitglieder()
    log.tick(3)
    log.consume("orders", "billing")
    log.tick()
    g = log.group("billing")
    assert g.zustand("billing-2") == regeln.ENTFERNT
    log.consume("orders", "billing", member="billing-2")
    assert g.zustand("billing-2") == regeln.MITGLIED
    assert g.zuteilung("orders")[2] == "billing-2"
    assert g.entfernt() == []


def test_commit_nach_neuaufteilung_wird_abgelehnt() -> None:
    log = zwei_mitglieder()
    log.consume("orders", "billing", commit=False)  # billing-1 liest p0 und p1
    log.consume("orders", "billing", member="billing-3")  # Neuverteilung: Generation 3
    vorher = zustand(log)
    with pytest.raises(CommitAbgelehnt, match=r"Generation 2, jetzt 3"):
        log.commit("orders", "billing")
    assert zustand(log) == vorher


def test_commit_speichert_was_gelesen_wurde() -> None:
    log = zwei_mitglieder()
    gelesen = log.consume("orders", "billing", member="billing-2", commit=False)
    assert [r.adresse for r in gelesen] == ["p2:0", "p2:1"]
    assert log.group("billing").position("orders", 2) == 0
    assert log.group("billing").ungespeichert("orders", 2) == (0, 2)
    assert log.commit("orders", "billing", member="billing-2") == {2: 2}
    assert log.group("billing").position("orders", 2) == 2
    assert log.group("billing").ungespeichert("orders", 2) is None
    assert log.consume("orders", "billing", member="billing-2") == []


def test_commit_fehler() -> None:
    log = zwei_mitglieder()
    vorher = zustand(log)
    with pytest.raises(UngueltigeEingabe, match="kein Mitglied"):
        log.commit("orders", "billing", member="billing-9")
    log.create_topic("stock")
    with pytest.raises(UngueltigeEingabe, match="noch nicht gelesen"):
        log.commit("stock", "billing")
    log.leave("billing", "billing-2")
    with pytest.raises(CommitAbgelehnt, match="mit leave ausgetreten"):
        log.commit("orders", "billing", member="billing-2")
    with pytest.raises(UngueltigeEingabe, match="kann nicht austreten"):
        log.leave("billing", "billing-2")
    assert "billing-2" not in log.members("billing")
    del vorher


# --- Absturz und Session Timeout ---


def test_absturz_haelt_die_partitionen_bis_zum_session_timeout() -> None:
    log = zwei_mitglieder(timeout=None, session=2)
    log.consume("orders", "billing", member="billing-2", commit=False)  # p2:0, p2:1
    log.absturz("billing", "billing-2")
    g = log.group("billing")
    assert g.zustand("billing-2") == regeln.ABGESTUERZT and g.abgestuerzt() == {"billing-2": 0}
    assert log.tick(2) == []  # genau 2 Ticks ohne Heartbeat: noch dabei
    assert g.zuteilung("orders")[2] == "billing-2"  # p2 liest niemand
    assert [r.partition for r in log.consume("orders", "billing")] == [0, 0, 1, 1]
    assert g.leseposition("orders", 2) == 0  # seine Leseposition ist mit ihm weg
    (e,) = log.tick()
    assert (e.member, e.zeit, e.grund, e.absturz, e.ohne_herzschlag, e.frist) == (
        "billing-2",
        3,
        regeln.SESSION,
        0,
        3,
        2,
    )
    assert "abgestürzt bei t=0, 3 Ticks ohne Heartbeat, Session Timeout 2" in str(e)
    assert g.abgestuerzt() == {} and g.zustand("billing-2") == regeln.ENTFERNT
    assert [r.adresse for r in log.consume("orders", "billing")] == ["p2:0", "p2:1"]


def test_ein_abgestuerztes_mitglied_tut_nichts_mehr() -> None:
    log = zwei_mitglieder(session=2)
    log.consume("orders", "billing", member="billing-2", commit=False)
    log.absturz("billing", "billing-2")
    vorher = zustand(log)
    with pytest.raises(CommitAbgelehnt, match="Es ist abgestürzt"):
        log.commit("orders", "billing", member="billing-2")
    with pytest.raises(NichtZugeteilt, match="abgestürzt"):
        log.seek("orders", "billing", "billing-2", 2, 0)
    with pytest.raises(UngueltigeEingabe, match="kann nicht austreten"):
        log.leave("billing", "billing-2")
    with pytest.raises(UngueltigeEingabe, match="kann nicht abstürzen"):
        log.absturz("billing", "billing-2")
    with pytest.raises(UngueltigeEingabe, match="kein Mitglied"):
        log.absturz("billing", "billing-9")
    assert zustand(log) == vorher


def test_nach_dem_absturz_zaehlt_nur_das_session_timeout() -> None:
    # The max poll interval is the client's own check: a crashed process checks nothing.
    log = zwei_mitglieder(timeout=1, session=3)
    log.absturz("billing", "billing-2")
    for _ in range(3):
        log.tick()
        log.consume("orders", "billing")
    assert "billing-2" in log.members("billing")
    (e,) = log.tick()
    assert (e.member, e.grund) == ("billing-2", regeln.SESSION)


def test_ohne_session_timeout_bleibt_ein_abgestuerztes_mitglied() -> None:
    log = zwei_mitglieder(timeout=None)
    log.absturz("billing", "billing-2")
    assert log.tick(1000) == []
    assert log.group("billing").zuteilung("orders")[2] == "billing-2"


def test_neustart_nach_dem_absturz() -> None:
    log = zwei_mitglieder(session=5)
    log.consume("orders", "billing", member="billing-2", commit=False)  # p2:0, p2:1
    log.absturz("billing", "billing-2")
    g = log.group("billing")
    generation = g.generation
    wieder = log.consume("orders", "billing", member="billing-2")
    assert [r.adresse for r in wieder] == ["p2:0", "p2:1"]  # ab der gespeicherten Position
    assert g.zustand("billing-2") == regeln.MITGLIED and g.abgestuerzt() == {}
    assert g.generation == generation + 1
    assert log.tick(3) == []  # a live member again: only the max poll interval (3) counts


def test_konsole_erzaehlt_den_absturz() -> None:
    c = ausfall_konsole("session-timeout 2", "max-poll off")
    r = c.run("absturz group billing billing-2")
    assert r.ok and r.text.splitlines() == [
        "t=0: billing-2 ist abgestürzt: kein consume, kein commit, keine Heartbeats mehr.",
        "Es hält weiter p2 von „orders“: Niemand liest dort.",
        "Nach mehr als 2 Ticks ohne Heartbeat (Session Timeout) entfernt tick es, und die "
        "übrigen teilen neu auf.",
        "Ein neues consume als billing-2 startet es neu, an der gespeicherten Position.",
    ]
    assert "billing · billing-2 (abgestürzt)" in r.svg
    r = c.run("tick 2")
    assert r.text.splitlines()[1] == (
        "billing-2 ist bei t=0 abgestürzt (2 Ticks ohne Heartbeat) und hält seine Partitionen "
        "in „billing“; ab 3 Ticks wird es entfernt."
    )
    assert "abgestürzt bei t=0" in c.run("describe group billing").text
    r = c.run("tick")
    assert r.text.splitlines()[1] == (
        "t=3: billing-2 hat seit dem Absturz bei t=0 3 Ticks keine Heartbeats geschickt "
        "(Session Timeout 2): aus „billing“ entfernt."
    )
    assert "billing · billing-2: entfernt bei t=3 (abgestürzt bei t=0, Session Timeout 2)" in (
        r.svg
    )
    assert "(abgestürzt bei t=0, 3 Ticks ohne Heartbeat, Session Timeout 2)" in (
        c.run("describe group billing").text
    )


def test_konsole_absturz_ohne_session_timeout() -> None:
    c = ausfall_konsole("max-poll off")
    r = c.run("absturz group billing billing-2")
    assert "Ohne Session Timeout bleibt es Mitglied" in r.text
    assert "Ohne Session Timeout bleibt es Mitglied" in c.run("tick 9").text
    assert "crash=0" in c.state_dump()
    r = c.run("commit orders group billing as billing-2")
    assert not r.ok and "Es ist abgestürzt" in r.text
    r = c.run("consume orders group billing as billing-2")
    assert r.text.splitlines()[0] == (
        "billing-2 startet nach dem Absturz neu und tritt der Gruppe „billing“ neu bei."
    )
    assert "p2 beginnt an der gespeicherten Position 0" in r.text


# --- Aufteilung je Topic, Positionen nur für eigene Partitionen ---


def test_aufteilung_je_topic() -> None:
    log = Log()
    log.create_topic("orders", partitions=2)
    log.create_topic("stock", partitions=2)
    log.consume("orders", "g", member="a")
    log.consume("stock", "g", member="b")
    g = log.group("g")
    # a liest nur orders, b nur stock: Jeder bekommt alle Partitionen seines Topics.
    assert g.zuteilung("orders") == {0: "a", 1: "a"}
    assert g.zuteilung("stock") == {0: "b", 1: "b"}
    log.consume("stock", "g", member="a")
    assert g.zuteilung("stock") == {0: "a", 1: "b"}
    assert g.zuteilung("orders") == {0: "a", 1: "a"}


def test_commit_nur_fuer_eigene_partitionen() -> None:
    log = Log()
    log.create_topic("orders", partitions=3)
    for i in range(3):
        log.produce("orders", i)
    log.consume("orders", "g", member="g-1", commit=False, from_beginning=True)
    log.consume("orders", "g", member="g-2", from_beginning=True)  # g-2 hat p2
    assert log.offsets("orders").gruppen["g"] == (None, None, 1)
    zeilen = log.describe("g")
    assert [(z.position, z.lag, z.member) for z in zeilen] == [
        (None, None, "g-1"),
        (None, None, "g-1"),
        (1, 0, "g-2"),
    ]
    assert "Position –" in repr(zeilen[0]) and "Lag –" in repr(zeilen[0])
    assert "p0         1     –" in repr(log.offsets("orders"))


def test_bild_zeigt_aufteilung_strich_und_ungespeichertes() -> None:
    log = zwei_mitglieder()
    log.consume("orders", "billing", member="billing-2", commit=False)
    svg = log.bild("orders").svg
    assert 'class="ungespeichert"' in svg
    assert "gelesen, Position nicht gespeichert" in svg
    assert "billing · billing-2" in svg
    log.tick(3)
    log.consume("orders", "billing")
    log.tick()
    svg = log.bild("orders").svg
    assert "billing · billing-2: entfernt bei t=4 (4 Ticks ohne consume)" in svg
    assert "billing · billing-2" in svg  # die Hinweiszeile
    assert svg.count("billing · billing-1") == 3  # jetzt liest billing-1 alle drei
    neu = Log()
    neu.create_topic("orders", partitions=2)
    neu.consume("orders", "g", member="a", commit=False)
    neu.consume("orders", "g", member="b")
    assert "–  noch keine Position gespeichert" in neu.bild("orders").svg


def test_reset_vergisst_ungespeichertes() -> None:
    log = zwei_mitglieder()
    log.consume("orders", "billing", member="billing-2", commit=False)
    log.reset("billing", to="latest")
    assert log.group("billing").ungespeichert("orders", 2) is None


# --- Konsole ---


def test_konsole_erzaehlt_den_ausfall() -> None:
    c = ausfall_konsole("tick 3", "consume orders group billing")
    r = c.run("tick")
    assert r.ok and r.svg is not None
    assert "billing-2 hat 4 Ticks nicht gelesen" in r.text
    assert "Neue Aufteilung in „orders“ (Generation 3):" in r.text
    assert "billing-1 liest p2 ab Position 0." in r.text
    vorher = c.state_dump()
    r = c.run("commit orders group billing as billing-2")
    assert not r.ok and "kann keine Position speichern" in r.text
    assert c.state_dump() == vorher
    r = c.run("consume orders group billing")
    assert '{"order":65}' in r.text  # noch einmal gelesen
    r = c.run("describe group billing")
    assert "billing-2: entfernt bei t=4" in r.text


def ausfall_konsole(*danach: str) -> LogKonsole:
    """billing-1 (p0, p1) and billing-2 (p2, read without commit), max poll interval 3."""
    return vorbereitet(
        LogKonsole(),
        [
            "max-poll 3",
            "create topic orders partitions 3",
            "consume orders group billing",
            "consume orders group billing as billing-2",
            'produce orders key=customer-5 {"order":65}',
            "consume orders group billing as billing-2 no-commit",
            *danach,
        ],
    )


def test_konsole_erzaehlt_jeden_ausfall_in_seinem_moment() -> None:
    # billing-1 read at t=1, billing-2 at t=0: tick 4 removes billing-2 at t=4 (billing-1
    # takes p2) and billing-1 at t=5. The lines of t=4 tell the state of t=4.
    r = ausfall_konsole("tick", "consume orders group billing").run("tick 4")
    assert r.ok
    assert r.text.splitlines() == [
        "Zeit: t=5 (+4).",
        "t=4: billing-2 hat 4 Ticks nicht gelesen (Max Poll Interval 3): aus „billing“ entfernt.",
        "Neue Aufteilung in „orders“ (Generation 3):",
        "  billing-1: p0, p1, p2",
        "  billing-1 liest p2 ab Position 0.",
        "t=5: billing-1 hat 4 Ticks nicht gelesen (Max Poll Interval 3): aus „billing“ entfernt.",
        "Neue Aufteilung in „orders“ (Generation 4):",
        "  niemand: Kein Mitglied liest dieses Topic mehr.",
    ]


def test_konsole_nennt_gleichzeitige_ausfaelle_mit_einer_aufteilung() -> None:
    # Both read last at t=0: one tick removes both, one new generation, one assignment.
    r = ausfall_konsole().run("tick 4")
    assert r.ok
    assert r.text.splitlines() == [
        "Zeit: t=4 (+4).",
        "t=4: billing-1 hat 4 Ticks nicht gelesen (Max Poll Interval 3): aus „billing“ entfernt.",
        "t=4: billing-2 hat 4 Ticks nicht gelesen (Max Poll Interval 3): aus „billing“ entfernt.",
        "Neue Aufteilung in „orders“ (Generation 3):",
        "  niemand: Kein Mitglied liest dieses Topic mehr.",
    ]


def test_tick_n_erzaehlt_wie_n_mal_tick() -> None:
    # The same removals, assignments and takeovers whether the ticks come at once or singly.
    danach = ("tick", "consume orders group billing")
    auf_einmal = ausfall_konsole(*danach).run("tick 4").text.splitlines()[1:]
    einzeln = ausfall_konsole(*danach)
    nacheinander = [z for _ in range(4) for z in einzeln.run("tick").text.splitlines()[1:]]
    assert [z for z in nacheinander if not z.startswith("Niemand entfernt")] == auf_einmal


def test_konsole_commit_tick_timeout_leave() -> None:
    c = LogKonsole()
    for zeile in [
        "create topic orders partitions 2",
        'produce orders {"n":1}',
        "consume orders group g from-beginning no-commit",
    ]:
        assert c.run(zeile).ok
    r = c.run("offsets orders")
    assert "Noch keine Gruppe" in r.text
    r = c.run("commit orders group g")
    assert r.ok and "p0: – → 1" in r.text
    r = c.run("tick 2")
    assert "Ohne Max Poll Interval wird niemand entfernt" in r.text
    assert c.run("max-poll").text.startswith("Kein Max Poll Interval")
    assert c.run("max-poll 5").ok and c.log.max_poll_interval == 5
    assert c.run("max-poll").text == "Max Poll Interval: 5 Ticks (jetzt t=2)."
    r = c.run("tick")
    assert "g-1 (3 Ticks; ab 6 Ticks wird es entfernt)" in " ".join(r.text.split())
    assert c.run("max-poll off").ok and c.log.max_poll_interval is None
    assert c.run("session-timeout").text.startswith("Kein Session Timeout")
    assert c.run("session-timeout 2").ok and c.log.session_timeout == 2
    assert c.run("session-timeout").text == "Session Timeout: 2 Ticks (jetzt t=3)."
    assert c.run("session-timeout aus").ok and c.log.session_timeout is None
    r = c.run("leave group g g-1")
    assert r.ok and "niemand: Kein Mitglied liest" in r.text


# --- Eigenschaften ---

ops = st.lists(
    st.one_of(
        st.tuples(st.just("produce"), st.sampled_from(["orders", "stock"])),
        st.tuples(
            st.just("consume"),
            st.sampled_from(["orders", "stock"]),
            st.sampled_from(["m-1", "m-2", "m-3"]),
            st.booleans(),
        ),
        st.tuples(
            st.just("commit"), st.sampled_from(["orders", "stock"]), st.sampled_from(["m-1", "m-2"])
        ),
        st.tuples(st.just("tick"), st.integers(0, 4)),
        st.tuples(st.just("leave"), st.sampled_from(["m-1", "m-2", "m-3"])),
        st.tuples(st.just("crash"), st.sampled_from(["m-1", "m-2", "m-3"])),
    ),
    max_size=40,
)


def ausfuehren(log: Log, op: tuple) -> None:
    if op[0] == "produce":
        log.produce(op[1], 1)
    elif op[0] == "consume":
        log.consume(op[1], "g", member=op[2], commit=op[3], from_beginning=True)
    elif op[0] == "commit":
        log.commit(op[1], "g", member=op[2])
    elif op[0] == "tick":
        log.tick(op[1])
    elif op[0] == "crash":
        log.absturz("g", op[1])
    else:
        log.leave("g", op[1])


@EINSTELLUNGEN
@given(
    ops=ops,
    timeout=st.integers(1, 4),
    session=st.integers(1, 4),
    partitionen=st.integers(1, 4),
)
def test_eigenschaften_des_ausfalls(ops, timeout, session, partitionen) -> None:
    log = Log(max_poll_interval=timeout, session_timeout=session)
    log.create_topic("orders", partitions=partitionen)
    log.create_topic("stock", partitions=2)
    zuletzt: dict[str, int] = {}
    absturz: dict[str, int] = {}
    for op in ops:
        vorher = zustand(log)
        g = log.group("g") if "g" in log.groups() else None
        positionen_vorher = {t: log.offsets(t).gruppen.get("g") for t in ("orders", "stock")}
        zuteilung_vorher = {t: g.zuteilung(t) for t in ("orders", "stock")} if g is not None else {}
        try:
            ausfuehren(log, op)
        except SimFehler as e:
            assert zustand(log) == vorher  # ein Fehler ändert nichts
            if op[0] == "commit" and g is not None:
                z = g.zustand(op[2])
                if z in (regeln.ENTFERNT, regeln.AUSGETRETEN, regeln.ABGESTUERZT):
                    assert isinstance(e, CommitAbgelehnt)
            continue
        g = log.group("g") if "g" in log.groups() else None
        if op[0] == "consume":
            zuletzt[op[2]] = log.now
            absturz.pop(op[2], None)
        if op[0] == "crash":
            absturz[op[1]] = log.now
        if op[0] == "commit":
            # Ein erfolgreicher Commit kam von einem Mitglied und änderte nur dessen Partitionen.
            assert g is not None and g.zustand(op[2]) == regeln.MITGLIED
            t = op[1]
            neu = log.offsets(t).gruppen.get("g")
            alt = positionen_vorher[t] or (None,) * len(neu or ())
            eigene = {p for p, m in zuteilung_vorher[t].items() if m == op[2]}
            for p, (a, b) in enumerate(zip(alt, neu or (), strict=True)):
                if a != b:
                    assert p in eigene
        if op[0] == "consume" and op[3]:
            t = op[1]
            neu = log.offsets(t).gruppen.get("g") or ()
            alt = positionen_vorher[t] or (None,) * len(neu)
            eigene = {p for p, m in g.zuteilung(t).items() if m == op[2]}  # type: ignore[union-attr]
            for p, (a, b) in enumerate(zip(alt, neu, strict=True)):
                if a != b:
                    assert p in eigene
        if g is None:
            continue
        assert g.abgestuerzt() == {m: t for m, t in absturz.items() if m in g.mitglieder}
        for m in g.mitglieder:
            # Nie vor der Frist entfernt, und immer gleich danach: Ein lebendes Mitglied hat vor
            # höchstens max_poll_interval Ticks gelesen, ein abgestürztes vor höchstens
            # session_timeout Ticks seinen letzten Heartbeat geschickt.
            if m in absturz:
                assert log.now - absturz[m] <= session
            else:
                assert log.now - zuletzt[m] <= timeout
        for e in g.entfernt():
            # Entfernt nur nach der Frist, nie bei oder vor N Ticks.
            if e.absturz is None:
                assert e.grund == regeln.MAX_POLL and e.ohne_lesen == timeout + 1
            else:
                assert e.grund == regeln.SESSION and e.ohne_herzschlag == session + 1
                assert e.absturz == absturz[e.mitglied]
        for t in ("orders", "stock"):
            leser = [m for m in g.mitglieder if t in g.topics_von(m)]
            zuteilung = g.zuteilung(t)
            # Je Topic aufgeteilt, nur unter seinen Lesern; jede Partition hat einen Leser.
            assert set(zuteilung.values()) <= set(leser)
            if leser:
                assert sorted(zuteilung) == list(range(log.topic(t).partitionen))


@EINSTELLUNGEN
@given(
    frist=st.integers(1, 6),
    max_poll=st.none() | st.integers(1, 6),
    vorher=st.integers(0, 6),
    ticks=st.integers(0, 12),
)
def test_ein_abgestuerztes_mitglied_geht_genau_nach_dem_session_timeout(
    frist, max_poll, vorher, ticks
) -> None:
    # billing-1 keeps reading every tick; billing-2 crashes after `vorher` ticks. It stays a
    # member (and keeps p2) for exactly `frist` ticks without heartbeats and is gone after more.
    log = Log(max_poll_interval=max_poll, session_timeout=frist)
    log.create_topic("orders", partitions=3)
    log.consume("orders", "billing")
    log.consume("orders", "billing", member="billing-2")
    for _ in range(vorher):
        log.tick()
        log.consume("orders", "billing")
        log.consume("orders", "billing", member="billing-2")
    log.absturz("billing", "billing-2")
    entfernt = []
    for _ in range(ticks):
        entfernt += log.tick()
        log.consume("orders", "billing")
    g = log.group("billing")
    if ticks <= frist:
        assert entfernt == [] and g.zuteilung("orders")[2] == "billing-2"
    else:
        (e,) = entfernt
        assert (e.mitglied, e.absturz, e.ohne_herzschlag, e.zeit) == (
            "billing-2",
            vorher,
            frist + 1,
            vorher + frist + 1,
        )
        assert g.zuteilung("orders") == {0: "billing-1", 1: "billing-1", 2: "billing-1"}


@EINSTELLUNGEN
@given(frist=st.integers(1, 6), ticks=st.integers(0, 12))
def test_ein_langsames_mitglied_geht_genau_nach_dem_max_poll_interval(frist, ticks) -> None:
    # billing-2 lives (it heartbeats) but never reads again: removed after more than `frist`
    # ticks without consume, never at or before.
    log = Log(max_poll_interval=frist, session_timeout=1)
    log.create_topic("orders", partitions=3)
    log.consume("orders", "billing")
    log.consume("orders", "billing", member="billing-2")
    entfernt = []
    for _ in range(ticks):
        entfernt += log.tick()
        log.consume("orders", "billing")
    if ticks <= frist:
        assert entfernt == [] and "billing-2" in log.members("billing")
    else:
        (e,) = entfernt
        assert (e.mitglied, e.grund, e.ohne_lesen) == ("billing-2", regeln.MAX_POLL, frist + 1)


@EINSTELLUNGEN
@given(ops=ops, timeout=st.integers(1, 4))
def test_gleiche_schritte_gleicher_zustand(ops, timeout) -> None:
    def lauf() -> tuple[str, str]:
        log = Log(max_poll_interval=timeout, session_timeout=2)
        log.create_topic("orders", partitions=3)
        log.create_topic("stock", partitions=2)
        meldungen = []
        for op in ops:
            try:
                ausfuehren(log, op)
            except SimFehler as e:
                meldungen.append(str(e))
        return zustand(log) + log.bild("orders").svg, "\n".join(meldungen)

    assert lauf() == lauf()
