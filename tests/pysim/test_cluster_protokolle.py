"""pysim.cluster, what protocols need: first k of n and any of, latency per link, faults aimed
at a role, invariants after every event, each node's state."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Broadcast, Cluster, KeineAntwort, Knoten, Nachricht, lauf
from pysim.cluster.cluster import InvarianteVerletzt
from pysim.cluster.knoten import ZuWenigAntworten
from pysim.cluster.lauf import Grenzen, lauf_aus_kennung, lies_kennung
from pysim.cluster.stoerungen import Stoerung, als_text, plan_aus_text
from pysim.fehler import UngueltigeEingabe
from tests.pysim.knoten_beispiele import MitWiederholung

IDS = ["n1", "n2", "n3", "n4", "n5"]


class Leader(Knoten):
    """n1 asks the others on ``los``; the others answer ``ping`` (or not: ``stumm``)."""

    WIE = "mehrheit"

    def beim_start(self) -> None:
        self.gesehen: list[Any] = []

    async def bei_los(self, n: Nachricht) -> None:
        andere = [k for k in self.knoten if k != self.id]
        fragen = [self.frage(k, {"type": "ping"}, timeout=30) for k in andere]
        try:
            if self.WIE == "mehrheit":
                antworten = await self.mehrheit(fragen)
            elif self.WIE == "eines":
                welches, wert = await self.eines(self.frage("n2", {"type": "ping"}), self.warte(10))
                antworten = [welches, wert]
            else:
                antworten = await self.erste(4, fragen)
            self.gesehen.append((self.uhr(), [getattr(a, "src", a) for a in antworten]))
        except KeineAntwort as e:
            self.gesehen.append((self.uhr(), type(e).__name__, str(e)))

    def bei_ping(self, n: Nachricht) -> None:
        self.antworte(n, {"type": "pong"})

    def bei_pong(self, n: Nachricht) -> None:  # a late answer must never arrive here
        self.gesehen.append(("verirrt", n.src))


def instanz(cluster: Cluster, k: str = "n1") -> Any:
    return cluster._plaetze[k].instanz


def leader_cluster(wie: str, **latenzen: tuple[int, int]) -> Cluster:
    klasse = type("L", (Leader,), {"WIE": wie})
    cluster = Cluster(klasse, 5, seed=3)
    cluster.anmelden("c1", lambda n: None, client=True)
    for k, latenz in latenzen.items():
        cluster.latenz_zwischen("n1", k, latenz)
    cluster.sende("c1", "n1", {"type": "los"})
    return cluster


def test_a_majority_returns_with_the_first_answers_and_ignores_the_late_ones() -> None:
    # Round trips: n2 20, n3 4, n4 10, n5 2 ticks. With 5 nodes, 2 others and n1 are a majority.
    cluster = leader_cluster("mehrheit", n2=(10, 10), n3=(2, 2), n4=(5, 5), n5=(1, 1))
    cluster.laufe(40)
    assert instanz(cluster).gesehen == [(4, ["n5", "n3"])]  # n4 at 10, n2 at 20: no "verirrt"


def test_first_k_fails_with_how_many_answered_when_fewer_can_come() -> None:
    cluster = leader_cluster("erste", n3=(2, 2))
    cluster.trenne(["n1", "n3"], ["n2", "n4", "n5"])
    cluster.laufe(40)
    assert instanz(cluster).gesehen == [
        (
            30,
            "ZuWenigAntworten",
            "n1 brauchte 4 von 4 Antworten, bekam aber nur 1 (1 ohne Antwort oder mit Fehler): "
            "Mehr können nicht mehr kommen.",
        )
    ]
    assert issubclass(ZuWenigAntworten, KeineAntwort)


def test_any_of_says_which_came_first_and_the_late_answer_is_ignored() -> None:
    cluster = leader_cluster("eines", n2=(8, 8))
    cluster.laufe(60)
    assert instanz(cluster).gesehen == [(10, [1, None])]
    schnell = leader_cluster("eines", n2=(1, 1))
    schnell.laufe(40)
    assert instanz(schnell).gesehen == [(2, [0, "n2"])]


def test_a_crash_cancels_every_wait_and_a_pause_resumes_it_afterwards() -> None:
    cluster = leader_cluster("mehrheit", n2=(3, 3), n3=(3, 3), n4=(3, 3), n5=(3, 3))
    cluster.laufe(2)
    cluster.absturz("n1")
    cluster.neustart("n1")
    cluster.laufe(40)
    # The old incarnation's wait never resumes; its answers reach the new one as messages.
    assert {g[0] for g in instanz(cluster).gesehen} == {"verirrt"}
    assert cluster._plaetze["n1"].prozesse == {}
    pausiert = leader_cluster("mehrheit", n2=(3, 3), n3=(3, 3), n4=(3, 3), n5=(3, 3))
    pausiert.laufe(2)
    pausiert.pausiere("n1")
    pausiert.laufe(20)
    assert instanz(pausiert).gesehen == []
    pausiert.fortsetzen("n1")
    assert instanz(pausiert).gesehen == [(20, ["n2", "n3"])]


def test_awaiting_something_else_names_what_a_handler_can_await() -> None:
    class Fremd(Knoten):
        async def bei_los(self, n: Nachricht) -> None:
            await self.erste(1, [self.warte(1), 3])  # type: ignore[list-item]

    cluster = Cluster(Fremd, 1)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "los"})
    cluster.laufe(5)
    assert "n1.erste(k, […]) wartet auf Wartbare" in cluster.fehler[0].fehler
    assert cluster.fehler[0].zeile is not None


def test_a_slow_link_delays_only_its_messages_until_it_heals() -> None:
    cluster = Cluster(Knoten, 3, seed=5)
    plan = plan_aus_text("2:langsam:n1|n3:8-12;30:heile", cluster.ids)
    assert als_text(plan) == "2:langsam:n1|n3:8-12;30:heile"
    for s in plan:
        cluster.zeit.schedule_zuerst(s.zeit, s.anwenden, cluster)
    for t in range(0, 40, 4):
        cluster.zeit.schedule(t, cluster.sende, "n1", "n3", {"type": "x"})
        cluster.zeit.schedule(t, cluster.sende, "n3", "n1", {"type": "x"})
        cluster.zeit.schedule(t, cluster.sende, "n1", "n2", {"type": "x"})
    cluster.laufe(60)
    for sendung in cluster.sendungen:
        assert sendung.ankunft is not None
        dauer = sendung.ankunft - sendung.gesendet
        n = sendung.nachricht
        langsam = 2 <= sendung.gesendet < 30 and {n.src, n.dest} == {"n1", "n3"}
        assert 8 <= dauer <= 12 if langsam else 1 <= dauer <= 5
    assert [e.text for e in cluster.ereignisse] == [
        "Leitung zwischen n1 und n3 langsam: 8 bis 12 Ticks",
        "Netz wieder ganz",
    ]


def test_a_run_without_own_latencies_draws_as_before() -> None:
    """A link set and reset before anything is sent leaves the run bit for bit as it was."""
    eins = Cluster(Knoten, 3, seed=9)
    zwei = Cluster(Knoten, 3, seed=9)
    zwei.latenz_zwischen("n1", ["n2", "n3"], (8, 12))
    zwei.latenz_zwischen("n1", ["n2", "n3"], None)
    for c in (eins, zwei):
        for t in range(20):
            c.zeit.schedule(t, c.sende, f"n{t % 3 + 1}", f"n{(t + 1) % 3 + 1}", {"type": "x"})
        c.laufe(40)
    assert [(s.gesendet, s.ankunft) for s in eins.sendungen] == [
        (s.gesendet, s.ankunft) for s in zwei.sendungen
    ]


@pytest.mark.parametrize(
    ("text", "sagt"),
    [
        ("5:langsam:n1|n3", "Stelle 1"),
        ("5:langsam:n1|n3:12-8", "keine Spanne wie 8-12"),
        ("5:langsam:n1:8-12", "verbindet zwei Seiten"),
        ("5:absturz:[lea der]", "eine Rolle '[lea der]' geht nicht"),
        ("5:absturz:rest", "einen Knoten 'rest' gibt es nicht"),
    ],
)
def test_an_unreadable_new_fault_is_named(text: str, sagt: str) -> None:
    with pytest.raises(UngueltigeEingabe, match="Stelle 1") as info:
        plan_aus_text(text, ["n1", "n2", "n3"])
    assert sagt in str(info.value)


class Rolle(Knoten):
    """n2 says it leads from t=0; with ``WECHSEL``, n3 too from t=10 (two leaders)."""

    WECHSEL = False

    def beim_start(self) -> None:
        if self.id == "n2":
            self.rolle = "leader"
            self.speicher["term"] = 1
        if self.id == "n3" and self.WECHSEL:
            self.spaeter(10, self.werde_leader)

    def werde_leader(self) -> None:
        self.rolle = "leader"
        self.speicher["term"] = 1

    def zustand(self) -> dict[str, object]:
        return {"rolle": self.rolle, "term": self.speicher.get("term", 0)}


def test_faults_aimed_at_a_role_hit_the_node_in_it_at_their_tick() -> None:
    cluster = Cluster(Rolle, 3)
    plan = plan_aus_text(
        "5:absturz:[leader];9:neustart:[leader];12:isoliere:[leader]|rest;20:heile;25:pause:[chef]",
        cluster.ids,
    )
    for s in plan:
        cluster.zeit.schedule_zuerst(s.zeit, s.anwenden, cluster)
    cluster.laufe(30)
    assert [e.text for e in cluster.ereignisse] == [
        "n2 stürzt ab (Rolle leader)",
        "n2 startet neu (Rolle leader)",
        "Netz geteilt: n2 | n1 n3 (Rolle leader)",
        "Netz wieder ganz",
    ]
    assert [str(z) for z in cluster.protokoll.zeilen()] == [
        "t=25 Nemesis: Die Störung „25:pause:[chef]“ bleibt aus: Kein Knoten ist gerade chef."
    ]
    assert str(plan[0]) == "t=5: wer leader ist stürzt ab"


def test_an_identity_with_role_faults_round_trips_and_replays() -> None:
    kennung = "broadcast/k3/s2/d60/10:absturz:[leader];20:neustart:[leader];30:langsam:n1|n2:6-9"
    gelesen = lies_kennung(Broadcast(), kennung, grenzen=Grenzen(knoten=5, dauer=100))
    assert als_text(gelesen.stoerungen) == kennung.split("/")[4]
    ergebnis = lauf_aus_kennung(MitWiederholung, Broadcast(), kennung)
    assert ergebnis.kennung == kennung
    with pytest.raises(UngueltigeEingabe, match="höchstens 100"):
        lies_kennung(
            Broadcast(), "broadcast/k3/s2/d60/5:langsam:n1|n2:6-900", grenzen=Grenzen(3, 60)
        )


def hoechstens_ein_leader(zustaende: Any) -> object:
    leader = sorted(k for k, z in zustaende.items() if z.get("rolle") == "leader")
    return len(leader) <= 1 or f"{' und '.join(leader)} führen zugleich"


def test_the_first_violated_invariant_stops_the_run_with_when_after_what_and_why() -> None:
    klasse = type("Zwei", (Rolle,), {"WECHSEL": True})
    cluster = Cluster(klasse, 3)
    cluster.invariante("höchstens ein Leader je Term", hoechstens_ein_leader)
    with pytest.raises(InvarianteVerletzt) as info:
        cluster.laufe(50)
    v = info.value.verletzung
    assert (v.zeit, v.name, v.grund) == (
        10,
        "höchstens ein Leader je Term",
        "n2 und n3 führen zugleich",
    )
    assert str(v) == (
        "t=10, nach einem Timer von n3: Die Invariante „höchstens ein Leader je Term“ gilt "
        "nicht: n2 und n3 führen zugleich"
    )
    assert v.zustaende["n3"] == {"rolle": "leader", "term": 1}
    assert cluster.zeit.now == 10  # stopped there
    with pytest.raises(TypeError):
        v.zustaende["n3"]["rolle"] = "x"  # type: ignore[index]
    ergebnis = lauf(klasse, Broadcast(), invarianten={"ein Leader": hoechstens_ein_leader})
    assert ergebnis.verletzung is not None and ergebnis.verletzung.zeit == 10


def test_an_invariant_that_raises_or_returns_something_else_is_named() -> None:
    cluster = Cluster(Rolle, 2)
    cluster.invariante("kaputt", lambda z: 1 / 0)
    cluster.zeit.schedule(1, lambda: None)
    with pytest.raises(UngueltigeEingabe, match="Die Invariante „kaputt“ warf bei t=1"):
        cluster.laufe(5)
    anders = Cluster(Rolle, 2)
    anders.invariante("zahl", lambda z: 3)
    anders.zeit.schedule(1, lambda: None)
    with pytest.raises(UngueltigeEingabe, match="gab int zurück"):
        anders.laufe(5)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 50))
def test_invariants_that_hold_change_nothing_in_a_run(seed: int) -> None:
    ohne = lauf(MitWiederholung, Broadcast(), seed=seed, stoerungen="zufall", dauer=60)
    mit = lauf(
        MitWiederholung,
        Broadcast(),
        seed=seed,
        stoerungen="zufall",
        dauer=60,
        invarianten={"gilt": lambda z: True},
    )
    assert mit.verletzung is None
    assert mit.geschichte == ohne.geschichte and mit.kennung == ohne.kennung
    assert [(s.gesendet, s.ankunft, s.schicksal) for s in mit.cluster.sendungen] == [
        (s.gesendet, s.ankunft, s.schicksal) for s in ohne.cluster.sendungen
    ]


def test_a_nodes_state_is_its_store_short_and_json_and_a_crashed_node_keeps_its_last() -> None:
    class Viel(Knoten):
        def beim_start(self) -> None:
            self.speicher["log"] = list(range(20))
            self.speicher["name"] = "x" * 100
            self.speicher["menge"] = {3, 1, 2}
            self.speicher["objekt"] = object()

    cluster = Cluster(Viel, 2)
    z = cluster.zustand("n1")
    assert z == {
        "log": [0, 1, 2, 3, 4, 5, 6, 7, "… 12 weitere"],
        "name": "x" * 39 + "…",
        "menge": [1, 2, 3],
        "objekt": "<object>",
    }
    cluster.absturz("n1")
    assert cluster.zustaende()["n1"] == z
    ergebnis = lauf(Rolle, Broadcast(), dauer=20)
    assert ergebnis.zustaende == {
        "n1": {"rolle": None, "term": 0},
        "n2": {"rolle": "leader", "term": 1},
        "n3": {"rolle": None, "term": 0},
    }


def test_the_stoerung_keeps_its_fields_for_the_old_kinds() -> None:
    assert Stoerung(3, "absturz", "n1").latenz == (0, 0)
    assert Stoerung(3, "absturz", "[leader]").rolle == "leader"


class WechselnderLeader(Knoten):
    """Mixed into broadcast with retries: n2 calls itself leader, the others followers."""

    def beim_start(self) -> None:
        super().beim_start()
        self.rolle = "leader" if self.id == "n2" else "follower"


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "absturz:[leader]",
                "neustart:[leader]",
                "pause:[follower]",
                "weiter:[follower]",
                "isoliere:[leader]|rest",
                "langsam:n1|n2.n3:6-9",
                "schnell:n1|n2.n3",
                "heile",
            ]
        ),
        max_size=6,
    ),
    st.integers(1, 30),
)
def test_plans_with_roles_and_slow_links_replay_the_same_run(teile: list[str], seed: int) -> None:
    text = ";".join(f"{5 + 7 * i}:{teil}" for i, teil in enumerate(teile))
    klasse = type("W", (WechselnderLeader, MitWiederholung), {})
    eins = lauf(klasse, Broadcast(), seed=seed, dauer=60, stoerungen=text)
    zwei = lauf_aus_kennung(klasse, Broadcast(), eins.kennung)
    assert eins.kennung.split("/")[4] == text
    assert eins.geschichte == zwei.geschichte
    assert [e.text for e in eins.cluster.ereignisse] == [e.text for e in zwei.cluster.ereignisse]
    assert [str(z) for z in eins.protokoll] == [str(z) for z in zwei.protokoll]
    assert not eins.fehler


def test_a_partition_is_trenne_and_teile_stays_its_earlier_name() -> None:
    assert Cluster.teile is Cluster.trenne
    cluster = Cluster(Rolle, 3)
    cluster.teile(["n1"], ["n2", "n3"])
    assert ("n1", "n2") in cluster.getrennt and ("n2", "n3") not in cluster.getrennt
