"""LogKonsole pictures stay bounded (issue 28): many consumer groups, topics or members or a long
simulated time give a picture of fixed size at most, with a line that says what is left out.

Before: 200 groups drew every group (~700 KB, 6,300 elements); 500 × ``tick 100`` drew a
time axis 300,000 px wide (37,000 elements). Every command that redrew froze the page. The
queue's picture after 200 × ``tick 100`` was 1 MB (12,000 elements); ``describe group`` of a
group in 200 topics with 60 members 1.4 MB (13,600 elements).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import Log, Queue
from pysim.console import LogKonsole, QueueKonsole, SagaKonsole
from pysim.log.bild import MAX_GRUPPEN, MAX_HINWEISE, MAX_MITGLIEDER, MAX_TOPICS
from pysim.queue.bild import FENSTER as QUEUE_FENSTER
from pysim.queue.bild import NACH_JETZT
from pysim.saga.bild import FENSTER
from tests.pysim.konsolen import ausfuehren
from tests.pysim.svg_regeln import NS, allgemeine_regeln

#: Bounds no console picture exceeds, whatever the reader did (the worst case of the log
#: picture, 12 partitions full of entries with six groups, is about 1,500 elements).
MAX_ELEMENTE = 2_000
MAX_BREITE = 1_000
MAX_ZEICHEN = 250_000


def masse(svg: str) -> tuple[int, int, int]:
    """(elements, width, characters) of a picture, after checking the rules of every picture."""
    root = allgemeine_regeln(svg)
    breite = int(root.get("viewBox", "").split()[2])
    return len(list(root.iter())), breite, len(svg)


def im_rahmen(svg: str) -> None:
    elemente, breite, zeichen = masse(svg)
    assert elemente <= MAX_ELEMENTE and breite <= MAX_BREITE and zeichen <= MAX_ZEICHEN


def texte(svg: str, klasse: str) -> list[str]:
    root = allgemeine_regeln(svg)
    return ["".join(t.itertext()) for t in root.iter(NS + "text") if t.get("class") == klasse]


def beschreibung(svg: str) -> str:
    desc = allgemeine_regeln(svg).find(NS + "desc")
    assert desc is not None and desc.text
    return desc.text


def log_mit_gruppen(anzahl: int, partitionen: int = 3, eintraege: int = 10) -> LogKonsole:
    c = LogKonsole()
    assert c.run(f"create topic orders partitions {partitionen}").ok
    for i in range(eintraege):
        assert c.run(f"produce orders key=customer-{i} {{}}").ok
    for n in range(anzahl):
        assert c.run(f"consume orders group g{n:03d}").ok
    return c


# --- log --------------------------------------------------------------------------------------


def test_200_groups_draw_six_and_name_the_rest() -> None:
    c = log_mit_gruppen(200)
    # The command touches an old group: it is drawn, with the five most recently active.
    r = ausfuehren(c, "consume orders group g042")
    assert r.ok and r.svg is not None
    im_rahmen(r.svg)
    root = allgemeine_regeln(r.svg)
    titel = root.find(NS + "title")
    assert titel is not None and titel.text
    gezeigt = re.findall(r"„(g\d+)“", titel.text)
    assert gezeigt == ["g042", "g195", "g196", "g197", "g198", "g199"]
    assert titel.text.endswith("und 194 weiteren")
    assert texte(r.svg, "weitere-gruppen") == ["… und 194 weitere Gruppen, groups listet alle"]
    desc = beschreibung(r.svg)
    assert [f"„{g}“" in desc for g in ("g042", "g199", "g100")] == [True, True, False]
    assert desc.endswith("Nicht gezeigt: 194 weitere Gruppen, groups listet alle.")
    # Every other command shows the same bounded picture.
    for zeile in ("topics", "groups", "offsets orders", "read orders", "tick"):
        svg = ausfuehren(c, zeile).svg
        assert svg is not None
        im_rahmen(svg)


@settings(max_examples=25, deadline=None)
@given(
    gruppen=st.integers(min_value=0, max_value=40),
    partitionen=st.integers(min_value=1, max_value=12),
    eintraege=st.integers(min_value=0, max_value=30),
)
def test_log_pictures_stay_within_fixed_bounds(
    gruppen: int, partitionen: int, eintraege: int
) -> None:
    c = log_mit_gruppen(gruppen, partitionen, eintraege)
    svg = ausfuehren(c, "topics").svg
    assert svg is not None
    im_rahmen(svg)
    weitere = texte(svg, "weitere-gruppen")
    if gruppen > MAX_GRUPPEN:
        assert weitere == [
            f"… und {gruppen - MAX_GRUPPEN} weitere Gruppe"
            + "n" * (gruppen - MAX_GRUPPEN > 1)
            + ", groups listet alle"
        ]
    else:
        assert weitere == []


def test_groups_with_many_members_keep_their_notes_short() -> None:
    log = Log(max_poll_interval=2)
    log.create_topic("orders", partitions=1)
    for g in range(MAX_GRUPPEN):
        for n in range(60):
            log.consume("orders", f"g{g}", member=f"m{n:02d}")
    log.tick(1)
    for g in range(MAX_GRUPPEN):
        for n in range(1, 60):  # m00 reads p0 and stops: the max poll interval removes it
            log.consume("orders", f"g{g}", member=f"m{n:02d}")
    log.tick(2)
    svg = log.bild("orders").svg
    im_rahmen(svg)
    root = allgemeine_regeln(svg)
    hinweise = [
        "".join(t.itertext())
        for t in root.iter(NS + "text")
        if t.get("class") in ("untaetig", "entfernt", "weitere-hinweise")
    ]
    assert len(hinweise) == MAX_HINWEISE
    assert hinweise[0] == "g0 · m02, m03, m04, m05 und 54 weitere: untätig, keine Partition frei"
    assert hinweise[-1].startswith("… und 7 weitere Zeilen über Mitglieder")


def gruppe_in_topics(topics: int, mitglieder: int = 1, partitionen: int = 3) -> LogKonsole:
    c = LogKonsole()
    for t in range(topics):
        assert c.run(f"create topic t{t:03d} partitions {partitionen}").ok
        for i in range(12):
            assert c.run(f"produce t{t:03d} key=customer-{i} {{}}").ok
    for m in range(1, mitglieder):
        assert c.run(f"consume t000 group g as mitglied-{m:03d}").ok
    for t in range(topics):
        assert c.run(f"consume t{t:03d} group g").ok
    return c


def test_a_group_in_200_topics_draws_six_and_names_the_rest() -> None:
    c = gruppe_in_topics(200, mitglieder=60)
    r = ausfuehren(c, "describe group g")
    assert r.ok and r.svg is not None
    im_rahmen(r.svg)
    root = allgemeine_regeln(r.svg)
    ueberschriften = [
        "".join(t.itertext())
        for t in root.iter(NS + "text")
        if "".join(t.itertext()).startswith("Gruppe „g“ in")
    ]
    assert ueberschriften == [f"Gruppe „g“ in „t{t:03d}“" for t in range(MAX_TOPICS)]
    assert texte(r.svg, "weitere-topics") == ["… und 194 weitere Topics, describe group nennt alle"]
    desc = beschreibung(r.svg)
    assert [f"Topic „{t}“" in desc for t in ("t000", "t005", "t006")] == [True, True, False]
    assert desc.endswith("Nicht gezeigt: 194 weitere Topics, describe group nennt alle.")
    titel = root.find(NS + "title")
    assert titel is not None and titel.text is not None
    assert titel.text.endswith(f"und {60 - MAX_MITGLIEDER} weitere")
    assert titel.text.count("mitglied-") == MAX_MITGLIEDER - 1  # and g-1
    # The text still names every topic.
    genannt = {zeile.split()[0] for zeile in r.text.splitlines() if zeile.startswith("t")}
    assert genannt == {f"t{t:03d}" for t in range(200)}


@pytest.mark.parametrize(
    ("konsole", "zeile", "weitere", "genannt"),
    [
        (
            lambda: log_mit_gruppen(MAX_GRUPPEN),
            "topics",
            "weitere-gruppen",
            [f"Gruppe „g{n:03d}“" for n in range(MAX_GRUPPEN)],
        ),
        (
            lambda: gruppe_in_topics(MAX_TOPICS),
            "describe group g",
            "weitere-topics",
            [f"Topic „t{t:03d}“" for t in range(MAX_TOPICS)],
        ),
    ],
    ids=["six-groups", "six-topics"],
)
def test_up_to_the_limit_all_are_drawn_without_a_summary(
    konsole: Callable[[], LogKonsole], zeile: str, weitere: str, genannt: list[str]
) -> None:
    svg = ausfuehren(konsole(), zeile).svg
    assert svg is not None
    assert texte(svg, weitere) == []
    assert "Nicht gezeigt" not in beschreibung(svg)
    for name in genannt:
        assert name in beschreibung(svg)


def test_a_group_in_big_topics_draws_fewer_of_them() -> None:
    # Six topics of 12 partitions full of entries: 24 partitions at most, so two topics.
    c = gruppe_in_topics(MAX_TOPICS, partitionen=12)
    svg = ausfuehren(c, "describe group g").svg
    assert svg is not None
    im_rahmen(svg)
    assert texte(svg, "weitere-topics") == ["… und 4 weitere Topics, describe group nennt alle"]


# --- queue ------------------------------------------------------------------------------------


def queue_nach(ticks: int) -> QueueKonsole:
    """Lesson 1's queue, a message acknowledged, one in the Dead Letter Queue, then ``ticks`` ×
    ``tick 100`` and two messages on their way."""
    k = QueueKonsole(max_receive_count=2)
    zeilen = ["send zahlung-1", "send gift", "send zahlung-3", "receive as A", "ack 1"]
    zeilen += ["receive as B", "tick 4", "receive as C", "tick 4"]
    zeilen += ["tick 100"] * ticks + ["send zahlung-4", "receive as A", "tick 2", "receive as B"]
    for zeile in zeilen:
        assert k.run(zeile).ok, zeile
    return k


def test_200_ticks_of_100_show_the_queues_last_window_with_a_note() -> None:
    k = queue_nach(200)
    svg = ausfuehren(k, "status").svg
    assert svg is not None
    im_rahmen(svg)
    jetzt = k.queue.now
    ende = jetzt + 3  # zahlung-4's timeout runs until then
    anfang = ende - QUEUE_FENSTER
    assert texte(svg, "fenster") == [
        f"Gezeigt ab t={anfang}; frühere Zeiten sind weggelassen "
        "(status nennt den Zustand jeder Nachricht)."
    ]
    assert beschreibung(svg).endswith(
        f"Die Zeitleiste zeigt t={anfang} bis t={ende}; frühere Zeiten sind weggelassen."
    )
    # What ended before the window says so in words; the axis numbers are the window's.
    assert texte(svg, "ack") == ["✓ bestätigt bei t=0"]
    assert texte(svg, "dlq") == ["DLQ seit t=7"]
    root = allgemeine_regeln(svg)
    zahlen = [int(t.text) for t in root.iter(NS + "text") if t.text and t.text.isdigit()]
    assert zahlen and min(zahlen) >= anfang and max(zahlen) <= ende


def test_the_queues_picture_does_not_grow_with_time() -> None:
    (e100, b100, z100), (e1000, b1000, z1000) = [
        masse(ausfuehren(queue_nach(n), "status").svg or "") for n in (100, 1_000)
    ]
    # Longer axis numbers are drawn further apart: fewer of them, a few characters more each.
    assert e1000 <= e100 and b1000 <= b100 + 20 and z1000 <= z100 * 1.1


def test_a_short_queue_run_shows_its_whole_time_without_a_note() -> None:
    k = queue_nach(0)
    svg = ausfuehren(k, "status").svg
    assert svg is not None
    assert texte(svg, "fenster") == []
    assert "weggelassen" not in beschreibung(svg)
    assert texte(svg, "ack") == ["✓"] and texte(svg, "dlq") == ["DLQ"]


def test_a_long_visibility_timeout_ends_at_the_pictures_edge() -> None:
    q = Queue(visibility_timeout=10**9)
    q.send("zahlung-1")
    q.receive(consumer="A")
    svg = q.bild().svg
    im_rahmen(svg)
    assert texte(svg, "fenster") == []
    assert "A bis t=1000000000" in svg
    root = allgemeine_regeln(svg)
    zahlen = [int(t.text) for t in root.iter(NS + "text") if t.text and t.text.isdigit()]
    assert max(zahlen) <= NACH_JETZT


@settings(max_examples=25, deadline=None)
@given(
    zeilen=st.lists(
        st.sampled_from(
            ["send zahlung", "receive", "receive as A", "ack 1", "ack 2", "tick 100", "tick 3"]
        ),
        max_size=40,
    ),
    timeout=st.integers(min_value=1, max_value=100),
)
def test_queue_pictures_stay_within_fixed_bounds(zeilen: list[str], timeout: int) -> None:
    k = QueueKonsole(visibility_timeout=timeout, max_receive_count=3)
    for zeile in zeilen:
        r = ausfuehren(k, zeile)
        if r.svg is not None:
            im_rahmen(r.svg)


# --- saga -------------------------------------------------------------------------------------


def test_500_ticks_of_100_show_the_last_window_with_a_note() -> None:
    k = SagaKonsole()
    assert k.run("start b7").ok
    for _ in range(500):
        assert k.run("tick 100").ok
    r = ausfuehren(k, "status")
    svg = r.svg if r.svg is not None else ausfuehren(k, "tick").svg
    assert svg is not None
    im_rahmen(svg)
    jetzt = k.sim.now
    anfang = jetzt + 1 - FENSTER
    assert texte(svg, "fenster") == [
        f"Gezeigt ab t={anfang}; frühere Zeiten sind weggelassen (der Verlauf steht im Text)."
    ]
    assert beschreibung(svg).endswith(
        f"Die Zeitleiste zeigt t={anfang} bis t={jetzt}; frühere Zeiten sind weggelassen."
    )
    # The axis numbers are the window's, and far enough apart to read.
    root = allgemeine_regeln(svg)
    zahlen = [int(t.text) for t in root.iter(NS + "text") if t.text and t.text.isdigit()]
    assert zahlen and min(zahlen) >= anfang and max(zahlen) <= jetzt + 1


def test_a_short_saga_shows_its_whole_time_without_a_note() -> None:
    k = SagaKonsole()
    ausfuehren(k, "start b7")
    svg = ausfuehren(k, "tick 20").svg
    assert svg is not None
    assert texte(svg, "fenster") == []
    assert "weggelassen" not in beschreibung(svg)


@settings(max_examples=20, deadline=None)
@given(
    zeilen=st.lists(
        st.sampled_from(
            [
                "start b{n}",
                "tick 100",
                "tick 7",
                "stoerung ablehnen lager",
                "stoerung absturz versand",
                "stoerung doppelt zahlung",
                "stoerung verspaetet lager",
                "stoerung orchestrator zahlung",
                "neustart orchestrator",
            ]
        ),
        max_size=30,
    )
)
def test_saga_pictures_stay_within_fixed_bounds(zeilen: list[str]) -> None:
    k = SagaKonsole()
    for n, zeile in enumerate(zeilen):
        r = ausfuehren(k, zeile.format(n=n))
        if r.svg is not None:
            im_rahmen(r.svg)
