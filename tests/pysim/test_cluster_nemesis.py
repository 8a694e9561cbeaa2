"""pysim.cluster: a nemesis that hunts (faults until the end, targeted faults at the moment a
write is in flight, final reads), replayable from a run's identity, and a node that sees only
its own API (``Netzzugang``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import (
    GEZIELT,
    Cluster,
    EindeutigeIds,
    KafkaLog,
    Knoten,
    LeaseRegister,
    Nachricht,
    Register,
    Stoerung,
    Zaehler,
    lauf,
    zufaelliger_nemesis,
)
from pysim.cluster.cluster import GETRENNT, VERLOREN
from pysim.cluster.lauf import RUHE, lauf_aus_kennung, verkleinere
from pysim.cluster.stoerungen import FENSTER, plan_aus_text
from pysim.zeit import Zeit
from tests.lessonkit.wrong_nodes import (
    REGISTER_CAS_IN_MEMORY,
    REGISTER_SYNC_LOCAL_READS,
    REGISTER_TIMEOUT_DEFINITE_PERSISTED,
)
from tests.pysim.knoten_beispiele import (
    ALLE_5_TICKS,
    LEASE_MIT_TOKEN,
    LEASE_TIMEOUT_ALS_11,
    LEASE_UHR_ALS_TOKEN,
    NUR_BEI_ADD,
    REGISTER_LEITER,
    Arbeitsspeicher,
    klasse,
)

#: The solution of "Register mit Leader", stage 2, and two wrong designs of it: the leader
#: persists plain writes but keeps a cas result in memory only; a silent leader becomes the
#: definite error 11 ("surely not done", though it may be done).
LEADER = REGISTER_LEITER
CAS_IM_ARBEITSSPEICHER = REGISTER_CAS_IN_MEMORY
ELF_BEI_TIMEOUT = REGISTER_TIMEOUT_DEFINITE_PERSISTED
#: The leader replicates each change to every follower and waits for all of them; every node
#: answers reads from its own copy.
SYNCHRONE_KOPIEN = REGISTER_SYNC_LOCAL_READS


def scheitert(ergebnis: Any) -> bool:
    return not ergebnis.last.pruefe(ergebnis).ok


def _gestoert(quelle: str, last: Any, seed: int, arten: list[str], **mehr: Any) -> Any:
    """A run of the node class in ``quelle`` under random faults of ``arten``."""
    return lauf(klasse(quelle), last, seed=seed, stoerungen="zufall", arten=arten, **mehr)


def spur(ergebnis: Any) -> tuple[Any, ...]:
    """Everything a run did, to compare two runs event by event."""
    return (
        ergebnis.geschichte,
        [(s.nachricht, s.gesendet, s.ankunft, s.schicksal) for s in ergebnis.cluster.sendungen],
        [(e.zeit, e.art, e.knoten, e.text) for e in ergebnis.cluster.ereignisse],
    )


# --- faults until the end, then heal, quiescence, final reads -----------------------------------


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    arten=st.lists(st.sampled_from(FENSTER), min_size=1, max_size=4),
    anzahl=st.integers(1, 4),
)
def test_faults_go_on_until_the_load_ends_and_targeted_ones_wait_in_their_windows(
    seed: int, arten: list[str], anzahl: int
) -> None:
    plan, ausloeser = zufaelliger_nemesis(
        random.Random(seed), ["n1", "n2", "n3"], 100, arten, anzahl
    )
    assert len(ausloeser) <= anzahl
    assert all(a.art in GEZIELT and 10 <= a.von < a.bis <= 100 for a in ausloeser)
    assert all(s.zeit <= 100 for s in plan) or "nachlauf" in arten
    # The last window is still open when the load ends: it ends with it.
    teilungen = zufaelliger_nemesis(random.Random(seed), ["n1", "n2"], 100, ["teilung"], anzahl)
    assert teilungen[0][-1] == Stoerung(100, "heile")


def test_the_final_reads_read_every_key_on_every_node_after_the_rest_and_are_judged() -> None:
    from pysim.cluster.lauf import SCHLUSS_ABSTAND_LEASE

    ergebnis = _gestoert(LEADER, Register(), 2, ["pause"])
    schluss = [e for e in ergebnis.geschichte if e["process"] >= 10_000]
    gelesen = {(e["node"], e["key"]) for e in schluss if e["type"] == "invoke"}
    assert gelesen == {(k, key) for k in ("n1", "n2", "n3") for key in (0, 1)}
    assert all(e["time"] >= ergebnis.geheilt + RUHE for e in schluss)
    assert all(e["f"] == "read" for e in schluss)
    assert ergebnis.last.pruefe(ergebnis).ok
    # With the lock service the final reads take turns: each can get the lease.
    lease = lauf(klasse(LEASE_MIT_TOKEN), LeaseRegister(), seed=1)
    zeiten = [
        e["time"] for e in lease.geschichte if e["process"] >= 10_000 and e["type"] == "invoke"
    ]
    assert zeiten == [zeiten[0] + i * SCHLUSS_ABSTAND_LEASE for i in range(3)]
    ok = [e for e in lease.geschichte if e["process"] >= 10_000 and e["type"] == "ok"]
    assert len(ok) == 3


def test_a_write_lost_in_a_crash_at_the_end_shows_in_the_final_reads() -> None:
    # One node, crashed after the last write and restarted when the load ends: only the final
    # read can tell.
    ergebnis = lauf(
        Arbeitsspeicher,
        Register(schluessel=1),
        knoten=1,
        seed=1,
        dauer=40,
        stoerungen=[Stoerung(38, "absturz", "n1"), Stoerung(40, "neustart", "n1")],
    )
    urteil = ergebnis.last.pruefe(ergebnis)
    assert not urteil.ok
    assert any(
        ergebnis.geschichte[i]["process"] >= 10_000 for op in urteil.zeugen for i in [op.index]
    )


def test_kafka_final_polls_and_committed_offsets_run_on_every_node() -> None:
    ergebnis = lauf(Knoten, KafkaLog(), seed=1, dauer=60)
    schluss = [
        (e["node"], e["f"])
        for e in ergebnis.geschichte
        if e["process"] >= 10_000 and e["type"] == "invoke"
    ]
    assert sorted(schluss) == sorted(
        (k, f) for k in ("n1", "n2", "n3") for f in ("poll", "list_committed_offsets")
    )


# --- targeted faults -------------------------------------------------------------------------


def _gezielt(ergebnis: Any, anlass: str) -> list[Stoerung]:
    return [s for s in ergebnis.stoerungen if s.anlass == anlass]


def _erste_gezielte(anlass: str, art: str, seeds: range, sonst: str) -> tuple[Any, Stoerung]:
    """The first run of the leader's register over ``seeds`` with a fault ``art`` aimed at
    ``anlass``, and that fault; ``sonst`` fails the test when no seed has one."""
    for seed in seeds:
        ergebnis = _gestoert(LEADER, Register(), seed, [anlass])
        for stoerung in _gezielt(ergebnis, anlass):
            if stoerung.art == art:
                return ergebnis, stoerung
    pytest.fail(sonst)


def test_leader_isolates_the_leader_while_its_answer_to_a_write_is_on_the_way() -> None:
    ergebnis, stoerung = _erste_gezielte(
        "leader", "isoliere", range(1, 6), "no seed isolated the leader"
    )
    assert stoerung.seiten[0] == ("n1",)  # the nodes forward to n1: n1 leads
    # A message n1 sent about a write, still on its way, is lost at the cut.
    verloren = [
        s
        for s in ergebnis.cluster.sendungen
        if s.nachricht.src == "n1" and s.gesendet < stoerung.zeit and s.schicksal == GETRENNT
    ]
    assert any(s.ursache is not None for s in verloren)
    assert ergebnis.last.pruefe(ergebnis).ok


def test_follower_isolates_the_node_the_leader_answers_or_copies_to() -> None:
    gesehen = set()
    for seed in range(1, 9):
        ergebnis = _gestoert(SYNCHRONE_KOPIEN, Register(), seed, ["follower"])
        for stoerung in _gezielt(ergebnis, "follower"):
            if stoerung.art == "isoliere":
                gesehen.add(stoerung.seiten[0][0])
                assert stoerung.seiten[0] != ("n1",)
    assert gesehen & {"n2", "n3"}


@pytest.mark.parametrize(
    ("falsch", "arten"),
    [
        (CAS_IM_ARBEITSSPEICHER, ["bestaetigung"]),
        (ELF_BEI_TIMEOUT, ["leader"]),
        (SYNCHRONE_KOPIEN, ["leader"]),
    ],
    ids=["cas-im-arbeitsspeicher", "elf-bei-timeout", "synchrone-kopien"],
)
def test_a_targeted_fault_catches_the_wrong_register_the_solution_survives(
    falsch: str, arten: list[str]
) -> None:
    seeds = range(1, 16)
    assert any(scheitert(_gestoert(falsch, Register(), s, arten)) for s in seeds)
    for s in seeds:
        gut = _gestoert(LEADER, Register(), s, arten)
        assert not scheitert(gut), gut.kennung


def test_inhaber_pauses_the_lease_holder_before_the_lease_or_its_read_arrives() -> None:
    pausen = []
    for seed in range(1, 9):
        ergebnis = _gestoert(LEASE_MIT_TOKEN, LeaseRegister(), seed, ["inhaber"])
        assert not scheitert(ergebnis), ergebnis.kennung
        for stoerung in _gezielt(ergebnis, "inhaber"):
            if stoerung.art != "pause":
                continue
            ankommend = [
                s.nachricht.typ
                for s in ergebnis.cluster.sendungen
                if s.nachricht.dest == stoerung.knoten
                and s.ankunft == stoerung.zeit
                and s.nachricht.src in ("lease", "fence-kv")
            ]
            assert set(ankommend) & {"acquire_ok", "read_ok"}
            pausen.append(stoerung)
    assert pausen


def _lease_lauf(quelle: str, seed: int, arten: list[str]) -> Any:
    return _gestoert(quelle, LeaseRegister(), seed, arten, anzahl_stoerungen=3)


def test_inhaber_lets_the_holder_go_on_when_another_node_gets_the_lease_for_the_same_cas() -> None:
    geweckt = 0
    for seed in range(1, 13):
        ergebnis = _lease_lauf(LEASE_MIT_TOKEN, seed, ["inhaber"])
        assert not scheitert(ergebnis), ergebnis.kennung
        pausen = _gezielt(ergebnis, "inhaber")
        for pause, weiter in zip(pausen[::2], pausen[1::2], strict=True):
            assert (pause.art, weiter.art, pause.knoten) == ("pause", "weiter", weiter.knoten)
            leases = [
                s
                for s in ergebnis.cluster.sendungen
                if s.nachricht.typ == "acquire_ok"
                and s.ankunft == weiter.zeit
                and s.nachricht.dest != weiter.knoten
            ]
            if not leases:
                continue  # no other node wanted the same: it goes on when its window ends
            geweckt += 1
            # The other node's lease was for a cas (its client's request came before it).
            anderer = leases[0].nachricht.dest
            cas = [
                e
                for e in ergebnis.geschichte
                if e["type"] == "invoke" and e["node"] == anderer and e["time"] <= weiter.zeit
            ]
            assert cas[-1]["f"] == "cas"
    assert geweckt >= 3


def test_two_holders_in_one_tick_catch_a_token_from_the_nodes_clock() -> None:
    seeds = range(1, 41)
    assert any(scheitert(_lease_lauf(LEASE_UHR_ALS_TOKEN, s, ["inhaber"])) for s in seeds)
    assert not any(scheitert(_lease_lauf(LEASE_MIT_TOKEN, s, ["inhaber"])) for s in seeds)


def test_antwort_loses_the_reply_to_a_stored_write_and_catches_a_timeout_called_certain() -> None:
    verloren = []
    for seed in range(1, 21):
        ergebnis = _lease_lauf(LEASE_MIT_TOKEN, seed, ["antwort"])
        assert not scheitert(ergebnis), ergebnis.kennung
        for stoerung in _gezielt(ergebnis, "antwort"):
            assert stoerung.art == "verliere"
            weg = [
                s
                for s in ergebnis.cluster.sendungen
                if s.nachricht.dest == stoerung.knoten and s.ankunft == stoerung.zeit
            ]
            assert [(s.nachricht.src, s.nachricht.typ, s.schicksal) for s in weg] == [
                ("fence-kv", "write_ok", VERLOREN)
            ]
            verloren.append(stoerung)
            assert f"{stoerung.zeit}:verliere:{stoerung.knoten}@antwort" in ergebnis.kennung
    assert verloren
    assert any(scheitert(_lease_lauf(LEASE_TIMEOUT_ALS_11, s, ["antwort"])) for s in range(1, 21))


def test_bestaetigung_crashes_the_leader_right_after_it_confirmed_a_write() -> None:
    ergebnis, absturz = _erste_gezielte(
        "bestaetigung", "absturz", range(1, 9), "no seed crashed a node after a confirmed write"
    )
    assert absturz.knoten == "n1"
    bestaetigt = [
        e
        for e in ergebnis.geschichte
        if e["type"] == "ok" and e["f"] in ("write", "cas") and e["time"] == absturz.zeit - 1
    ]
    assert bestaetigt
    assert not scheitert(ergebnis)


#: Snowflake-like ids: the clock, the node, a sequence per tick; the last tick only in memory.
SCHNEEFLOCKE = """
class Schneeflocke(Knoten):
    def beim_start(self):
        self.zuletzt, self.folge = -1, 0

    async def bei_generate(self, nachricht):
        while self.uhr() < self.zuletzt:
            await self.warte(1)
        jetzt = self.uhr()
        self.folge = self.folge + 1 if jetzt == self.zuletzt else 0
        self.zuletzt = jetzt
        body = {"type": "generate_ok", "id": f"{jetzt}-{self.id}-{self.folge}"}
        self.antworte(nachricht, body)
"""


def test_a_clock_set_back_after_a_restart_catches_an_id_that_keeps_its_last_tick_in_memory() -> (
    None
):
    arten = ["absturz", "teilung", "uhr"]
    assert any(scheitert(_gestoert(SCHNEEFLOCKE, EindeutigeIds(), s, arten)) for s in range(1, 6))
    ohne_uhr = ["absturz", "teilung"]
    assert not any(
        scheitert(_gestoert(SCHNEEFLOCKE, EindeutigeIds(), s, ohne_uhr)) for s in range(1, 6)
    )


# --- determinism: a replay from the identity is the same run ----------------------------------


RUNS = {
    "leader": (LEADER, Register),
    "kopien": (SYNCHRONE_KOPIEN, Register),
    "lease": (LEASE_MIT_TOKEN, LeaseRegister),
}


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(1, 5_000),
    welcher=st.sampled_from(sorted(RUNS)),
    arten=st.lists(
        st.sampled_from(["isolation", "pause", "absturz", "uhr", *GEZIELT]), min_size=1, max_size=4
    ),
)
def test_a_run_with_targeted_faults_replays_from_its_identity_event_by_event(
    seed: int, welcher: str, arten: list[str]
) -> None:
    quelle, last = RUNS[welcher]
    knoten = klasse(quelle)
    erster = lauf(knoten, last(), seed=seed, dauer=60, stoerungen="zufall", arten=arten)
    wieder = lauf_aus_kennung(knoten, last(), erster.kennung)
    assert wieder.kennung == erster.kennung
    assert spur(wieder) == spur(erster)
    assert plan_aus_text(erster.kennung.split("/")[4], erster.cluster.ids) == erster.stoerungen


def test_shrinking_works_over_targeted_faults_and_the_smaller_run_replays() -> None:
    for seed in range(1, 11):
        start = _gestoert(CAS_IM_ARBEITSSPEICHER, Register(), seed, ["bestaetigung"])
        if scheitert(start) and _gezielt(start, "bestaetigung"):
            break
    else:
        pytest.fail("no seed where the targeted crash catches the node")
    klein = verkleinere(start, scheitert)
    assert scheitert(klein)
    assert len(klein.geplant) <= len(start.geplant)
    wieder = lauf_aus_kennung(klasse(CAS_IM_ARBEITSSPEICHER), Register(), klein.kennung)
    assert spur(wieder) == spur(klein)


def test_a_fault_runs_first_in_its_tick_whenever_it_was_scheduled() -> None:
    zeit = Zeit()
    folge: list[str] = []
    zeit.schedule(5, folge.append, "früh eingetragen")
    zeit.schedule_zuerst(5, folge.append, "Störung 1")
    zeit.schedule(2, lambda: zeit.schedule_zuerst(3, folge.append, "Störung 2"))
    zeit.schedule(4, folge.append, "vorher")
    zeit.run()
    assert folge == ["vorher", "Störung 1", "Störung 2", "früh eingetragen"]


def test_the_picture_names_a_targeted_fault() -> None:
    from pysim.cluster.bild import raumzeit

    for seed in range(1, 9):
        ergebnis = _gestoert(LEADER, Register(), seed, ["bestaetigung"])
        if _gezielt(ergebnis, "bestaetigung"):
            bild = raumzeit(ergebnis)
            assert "gezielt: nach Speichern" in bild.svg
            assert any(e.anlass == "bestaetigung" for e in ergebnis.cluster.ereignisse)
            return
    pytest.fail("no targeted crash to draw")


def test_the_picture_labels_the_moments_of_the_operations_the_verdict_names() -> None:
    from pysim.cluster import Echo
    from pysim.cluster.bild import raumzeit

    class OhneText(Knoten):
        def bei_echo(self, nachricht: Nachricht) -> None:
            self.antworte(nachricht, {"type": "echo_ok", "echo": "anders"})

    ergebnis = lauf(OhneText, Echo(), seed=1)
    klein = verkleinere(ergebnis, scheitert)
    urteil = klein.last.pruefe(klein)
    zeuge = urteil.zeugen[0]
    assert f"t={zeuge.beginn}" in urteil.erklaerung
    svg = raumzeit(klein, [op.index for op in urteil.zeugen]).svg
    # The time the verdict cites is on the picture's time axis, however short the run.
    assert f">t={zeuge.beginn}<" in svg


# --- a node sees only its own API ---------------------------------------------------------------


class Neugierig(Knoten):
    """Reaches past its API in every way a reader might try."""

    VERSUCHE: ClassVar[dict[str, Callable[[Any], object]]] = {
        "self._cluster": lambda k: k._cluster,
        "self.cluster": lambda k: k.cluster,
        "self._netz.cluster": lambda k: k._netz.cluster,
        "self._netz._cluster": lambda k: k._netz._cluster,
        "self._netz.__dict__": lambda k: k._netz.__dict__,
        "self._netz.__getstate__()": lambda k: k._netz.__getstate__(),
        "self._netz._plaetze": lambda k: k._netz._plaetze,
        "self._netz.zeit": lambda k: k._netz.zeit,
    }

    def bei_versuch(self, n: Nachricht) -> None:
        self.VERSUCHE[n["was"]](self)


@pytest.mark.parametrize("was", sorted(Neugierig.VERSUCHE))
def test_a_node_that_reaches_for_the_cluster_gets_a_german_error_naming_its_api(was: str) -> None:
    cluster = Cluster(Neugierig, 2)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "versuch", "was": was, "msg_id": 1})
    cluster.laufe(1)
    [fehler] = cluster.fehler
    assert "AttributeError" in fehler.fehler
    assert "Ein Knoten sieht den Cluster nur durch seine eigenen Aufrufe" in fehler.fehler
    assert "self.sende" in fehler.fehler and "self.speicher" in fehler.fehler


def test_a_node_may_still_name_its_own_attribute_cluster_and_its_api_works() -> None:
    class Eigen(Knoten):
        def beim_start(self) -> None:
            self.cluster = "mein eigener"

        def bei_zeige(self, n: Nachricht) -> None:
            self.antworte(n, {"type": "zeige_ok", "cluster": self.cluster, "uhr": self.uhr()})

    cluster = Cluster(Eigen, 1)
    antworten: list[dict[str, Any]] = []
    cluster.anmelden("c1", lambda n: antworten.append(n.body), client=True)
    cluster.sende("c1", "n1", {"type": "zeige", "msg_id": 1})
    cluster.laufe(1)
    assert antworten == [
        {"type": "zeige_ok", "cluster": "mein eigener", "uhr": 0, "in_reply_to": 1}
    ]
    assert cluster.fehler == []
    instanz = cluster._plaetze["n1"].instanz
    assert instanz is not None
    assert sorted(dir(instanz._netz)) == [
        "alle",
        "frage",
        "notiz",
        "sende",
        "spaeter",
        "speicher",
        "uhr",
        "warte",
    ]
    assert "cluster" not in repr(instanz._netz).lower()


def test_the_gate_of_a_crashed_node_does_nothing() -> None:
    class Merkt(Knoten):
        def beim_start(self) -> None:
            self.speicher.setdefault("starts", 0)
            self.speicher["starts"] += 1

    cluster = Cluster(Merkt, 1)
    alt = cluster._plaetze["n1"].instanz
    assert alt is not None
    cluster.absturz("n1")
    cluster.neustart("n1")
    alt.sende("n1", {"type": "geist"})
    alt.spaeter(1, lambda: None)
    cluster.laufe(5)
    assert cluster.sendungen == []
    assert cluster._plaetze["n1"].speicher["starts"] == 2


def test_a_g_counter_that_repairs_only_on_the_next_add_fails_now_that_faults_last_until_the_end() -> (
    None
):
    assert any(
        scheitert(lauf(NUR_BEI_ADD, Zaehler(), seed=s, stoerungen="zufall", arten=["teilung"]))
        for s in range(1, 6)
    )
    for s in range(1, 6):
        gut = lauf(ALLE_5_TICKS, Zaehler(), seed=s, stoerungen="zufall", arten=["teilung"])
        assert not scheitert(gut), gut.kennung
