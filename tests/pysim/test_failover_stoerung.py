"""Failover as a fault kind (issue 50): a ``Stoerung`` like a crash, planned on the cluster's
clock, aimed at a node or at the role ``[Leader]``; replication's ``failover()`` is that fault."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, Knoten
from pysim.cluster.stoerungen import ARTEN, Stoerung, als_text, plan_aus_text
from pysim.fehler import UngueltigeEingabe
from pysim.replikation import ReplikSpeicher


def test_failover_is_a_kind_with_its_text_and_german_sentence() -> None:
    assert "failover" in ARTEN
    plan = plan_aus_text("40:failover:n1>n3;41:failover:[Leader]", ["n1", "n2", "n3"])
    assert plan == [
        Stoerung(40, "failover", "n1", nach="n3"),
        Stoerung(41, "failover", "[Leader]"),
    ]
    assert als_text(plan) == "40:failover:n1>n3;41:failover:[Leader]"
    assert [str(s) for s in plan] == [
        "t=40: Failover: n1 verliert die Leitung, n3 übernimmt",
        "t=41: Failover: wer Leader ist verliert die Leitung, ein Follower übernimmt",
    ]
    # the new field is not in the repr: plans printed before it print as they did
    assert "nach" not in repr(plan[0])
    with pytest.raises(UngueltigeEingabe, match="einen Knoten 'n9' gibt es nicht"):
        plan_aus_text("40:failover:n1>n9", ["n1", "n2", "n3"])


def test_replications_failover_is_the_fault_and_the_cluster_records_it() -> None:
    s = ReplikSpeicher(repliken=3, verzoegerung=2)
    for i in range(4):
        s.write("x", i)
    f = s.failover()
    assert (f.alt, f.neu, f.epoche) == ("n1", "n2", 2)
    [ereignis] = [e for e in s.cluster.ereignisse if e.art == "failover"]
    assert ereignis.knoten == ("n1", "n2")
    assert ereignis.text == "Failover: n2 löst n1 als Leader ab"
    assert s.ereignisse()[-1].text.startswith("Failover: n2 ist Leader (Epoche 2)")


def test_a_planned_failover_at_the_crashed_leader_promotes_a_follower() -> None:
    s = ReplikSpeicher(repliken=3, verzoegerung=2)
    for i in range(5):
        s.write("x", i)
    s.plane("8:absturz:[Leader];9:failover:[Leader];20:neustart:[Leader]")
    s.tick(30)
    texte = [str(e) for e in s.ereignisse()]
    assert "t=8: n1 fällt aus." in texte
    assert "t=9: Failover: n2 ist Leader (Epoche 2) mit Log bis LSN 5." in texte
    assert "t=20: n1 läuft wieder." in texte
    assert "t=22: n1 erfährt von n2 (Epoche 2) und wird Follower." in texte
    assert (s.leader, s.epoche()) == ("n2", 2)
    assert s.write("x", 99).ok
    assert s.urteil().ok


def test_a_planned_failover_to_a_named_follower() -> None:
    s = ReplikSpeicher(repliken=3, verzoegerung=2)
    s.write("x", 1)
    s.plane([Stoerung(s.now + 3, "failover", "n1", nach="n3")])
    s.tick(5)
    assert s.leader == "n3"


def test_what_cannot_be_planned_or_fail_over_says_so_in_german() -> None:
    s = ReplikSpeicher(repliken=3)
    with pytest.raises(UngueltigeEingabe, match="Geplant werden hier „failover“"):
        s.plane("5:teile:n1|n2.n3")
    s.plane("5:failover:n2")
    with pytest.raises(UngueltigeEingabe, match="Ein Failover löst den Leader ab: Das ist n1"):
        s.tick(6)


def test_a_cluster_without_a_front_knows_no_failover() -> None:
    class Still(Knoten):
        pass

    cluster = Cluster(Still, 3)
    with pytest.raises(
        UngueltigeEingabe, match=r"Ein Failover .* braucht ein Protokoll mit Leader"
    ):
        Stoerung(0, "failover", "n1").anwenden(cluster)


def _lauf(tick: int, nach: str) -> tuple[object, ...]:
    s = ReplikSpeicher(repliken=4, verzoegerung=2, sync=1)
    s.setze_lag("n3", 5)
    s.plane(f"{tick}:failover:[Leader]{'>' + nach if nach else ''}")
    for i in range(12):
        s.write("x", i, prozess=f"c{i % 2}")
        s.read("x", von="n2", prozess="leser")
    s.tick(20)
    return (
        s.leader,
        s.epoche(),
        [str(e) for e in s.ereignisse()],
        s.verlauf(),
        s.urteil().ok,
    )


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 40), st.sampled_from(["", "n2", "n4"]))
def test_a_planned_failover_gives_the_same_run_each_time(tick: int, nach: str) -> None:
    erster = _lauf(tick, nach)
    assert _lauf(tick, nach) == erster
    assert erster[1] == 2  # one failover, one new epoch
