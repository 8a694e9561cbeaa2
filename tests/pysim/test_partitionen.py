"""Partitioning: Redis' key slots, who owns a key after joins and leaves, what moves, hot keys,
secondary indexes and request routing (``pysim.partitionen``)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.fehler import UngueltigeEingabe
from pysim.partitionen import Bereiche, Modulo, Ring, Slots, hash_tag, slot, streuwert, umzug
from pysim.partitionen.index import GLOBAL, LOKAL, Katalog
from pysim.partitionen.konsole import PartitionKonsole
from pysim.partitionen.last import anfragen, belaste, salze
from pysim.partitionen.routing import CLIENT, KNOTEN, SCHICHT, Client
from pysim.partitionen.verteilung import Verteilung

SCHLUESSEL = [f"user:{i}" for i in range(1, 2001)]
ARTEN = [
    lambda k: Modulo(k),
    lambda k: Ring(k),
    lambda k: Slots(k),
    lambda k: Slots(k, 12),
    lambda k: Bereiche(k),
]


@pytest.mark.parametrize(
    ("schluessel", "erwartet"),
    [
        # redis.io, CLUSTER KEYSLOT: somekey 11058, foo{hash_tag} and bar{hash_tag} 2515
        ("somekey", 11058),
        ("foo{hash_tag}", 2515),
        ("bar{hash_tag}", 2515),
        ("{user1}.following", 8106),
    ],
)
def test_slot_is_redis_cluster_keyslot(schluessel: str, erwartet: int) -> None:
    assert slot(schluessel) == erwartet


@pytest.mark.parametrize(
    ("schluessel", "tag"),
    [
        ("{user1000}.following", "user1000"),
        ("foo{}{bar}", "foo{}{bar}"),  # empty first tag: the whole key (Redis' spec)
        ("foo{{bar}}zap", "{bar"),
        ("foo{bar}{zap}", "bar"),
        ("ohne", "ohne"),
        ("{offen", "{offen"),
    ],
)
def test_hash_tag_follows_the_cluster_spec(schluessel: str, tag: str) -> None:
    assert hash_tag(schluessel) == tag


def test_streuwert_is_the_same_in_every_process() -> None:
    # the first 8 bytes of md5("user:1"): no str hash() (randomised per process) anywhere
    assert streuwert("user:1") == 0xBDB1DD105679979C


KNOTEN_NAMEN = st.sampled_from([f"n{i}" for i in range(1, 10)])
SCHRITTE = st.lists(st.tuples(st.booleans(), KNOTEN_NAMEN), max_size=12)


def _fuehre_aus(v: Verteilung, schritte: list[tuple[bool, str]]) -> list[Verteilung]:
    folge = [v]
    for dazu, k in schritte:
        if dazu and k not in v.knoten and len(v.knoten) < 9:
            v = v.plus(k)
        elif not dazu and k in v.knoten and len(v.knoten) > 1:
            v = v.ohne(k)
        else:
            continue
        folge.append(v)
    return folge


@pytest.mark.parametrize("art", range(len(ARTEN)))
@settings(max_examples=40, deadline=None)
@given(schritte=SCHRITTE)
def test_every_key_has_exactly_one_owner_after_any_joins_and_leaves(
    art: int, schritte: list[tuple[bool, str]]
) -> None:
    for v in _fuehre_aus(ARTEN[art](["n1", "n2", "n3"]), schritte):
        anteile = v.anteile(SCHLUESSEL[:300])
        assert sum(anteile.values()) == 300
        assert set(anteile) == set(v.knoten)
        assert all(v.besitzer(s) in v.knoten for s in SCHLUESSEL[:300])


@pytest.mark.parametrize("art", [1, 2, 3, 4])
@settings(max_examples=40, deadline=None)
@given(schritte=SCHRITTE)
def test_ring_and_fixed_partitions_move_only_to_a_new_node_and_only_from_a_gone_one(
    art: int, schritte: list[tuple[bool, str]]
) -> None:
    folge = _fuehre_aus(ARTEN[art](["n1", "n2", "n3"]), schritte)
    for alt, neu in itertools.pairwise(folge):
        bewegt = umzug(alt, neu, SCHLUESSEL[:300]).bewegt
        neue = set(neu.knoten) - set(alt.knoten)
        gegangen = set(alt.knoten) - set(neu.knoten)
        for von, nach in bewegt.values():
            assert nach in neue or von in gegangen, (von, nach)


def test_modulo_moves_most_keys_and_the_ring_about_one_in_n() -> None:
    for n in (3, 4, 5, 8):
        knoten = [f"n{i}" for i in range(1, n + 1)]
        modulo = umzug(Modulo(knoten), Modulo(knoten).plus("neu"), SCHLUESSEL).anteil
        ring = Ring(knoten, vknoten=64)
        ring_anteil = umzug(ring, ring.plus("neu"), SCHLUESSEL).anteil
        slots = umzug(Slots(knoten), Slots(knoten).plus("neu"), SCHLUESSEL).anteil
        # % n keeps a key only if h % n == h % (n + 1): about 1 in n + 1
        assert modulo > 0.7
        assert 0.5 / (n + 1) < ring_anteil < 1.6 / (n + 1)
        assert 0.8 / (n + 1) < slots < 1.2 / (n + 1)


@settings(max_examples=40, deadline=None)
@given(schritte=SCHRITTE, anzahl=st.sampled_from([12, 100, 16384]))
def test_fixed_partitions_stay_balanced_within_one(
    schritte: list[tuple[bool, str]], anzahl: int
) -> None:
    for v in _fuehre_aus(Slots(["n1", "n2", "n3"], anzahl), schritte):
        assert isinstance(v, Slots)
        zahlen = [len(v.partitionen_von(k)) for k in v.knoten]
        assert sum(zahlen) == anzahl
        assert max(zahlen) - min(zahlen) <= 1


def test_more_virtual_nodes_spread_keys_more_evenly() -> None:
    def ungleich(v: Verteilung) -> float:
        anteile = v.anteile(SCHLUESSEL).values()
        return max(anteile) / min(anteile)

    knoten = ["n1", "n2", "n3", "n4"]
    werte = [ungleich(Ring(knoten, vknoten=v)) for v in (1, 8, 32, 128)]
    assert werte == sorted(werte, reverse=True)
    assert werte[0] > 3 and werte[-1] < 1.5


def test_ranges_keep_a_prefix_together() -> None:
    v = Bereiche(["n1", "n2", "n3"])
    assert {v.besitzer(s) for s in SCHLUESSEL} == {v.besitzer("user:1")}
    assert v.partition("apfel") == "Bereich Anfang–e"
    assert v.partition("zebra") == "Bereich v–Ende"


@pytest.mark.parametrize(
    ("aufruf", "meldung"),
    [
        (lambda: Modulo([]), "mindestens einer"),
        (lambda: Modulo(["n1", "n1"]), "gibt es schon"),
        (lambda: Modulo(["n1"]).ohne("n1"), "der letzte Knoten"),
        (lambda: Modulo(["n1"]).ohne("n2"), "gibt es nicht"),
        (lambda: Ring(["n1"], vknoten=0), "1 bis 256"),
        (lambda: Bereiche(["n1"], grenzen=("m", "c")), "aufsteigend"),
        (lambda: Slots(["n1"], 0), "1 bis 16384"),
        (lambda: salze("x", 0), "1 bis 100"),
        (lambda: anfragen(["a"], 10, anteil=0.5), "braucht einen Promi"),
        (lambda: Katalog().suche("rot", "beides"), "lokal oder global"),
    ],
)
def test_bad_input_is_refused_in_german(aufruf: object, meldung: str) -> None:
    with pytest.raises(UngueltigeEingabe, match=meldung):
        aufruf()  # type: ignore[operator]


def test_a_hot_key_queues_on_its_node_and_salting_spreads_it() -> None:
    v = Slots(["n1", "n2", "n3", "n4"])
    folge = anfragen(SCHLUESSEL, 4000, promi="user:1", anteil=0.3, seed=1)
    last = belaste(v, folge, je_tick=40, kapazitaet=15)
    assert sum(k.anfragen for k in last.knoten) == 4000
    assert last.heissester().knoten == v.besitzer("user:1")
    assert last.heissester().hoechstens > 10
    # more nodes do not help: the hot key still has one owner
    mehr = belaste(v.plus("n5").plus("n6"), folge, je_tick=40, kapazitaet=15)
    assert mehr.heissester().hoechstens > 5
    gesalzen = anfragen(SCHLUESSEL, 4000, promi=salze("user:1", 10), anteil=0.3, seed=1)
    assert belaste(v, gesalzen, je_tick=40, kapazitaet=15).heissester().hoechstens <= 1


def test_without_a_hot_key_nothing_queues_when_capacity_suffices() -> None:
    v = Slots(["n1", "n2", "n3", "n4"])
    folge = anfragen(SCHLUESSEL, 4000, seed=2)
    last = belaste(v, folge, je_tick=40, kapazitaet=20)
    assert max(k.hoechstens for k in last.knoten) <= 1


def test_a_local_index_asks_every_partition_a_global_one_asks_one_and_lags() -> None:
    k = Katalog(partitionen=4, verzoegerung=3)
    k.schreibe("p1", "rot")
    k.schreibe("p2", "rot")
    k.schreibe("p3", "blau")
    lokal = k.suche("rot", LOKAL)
    assert lokal.ids == ("p1", "p2") and lokal.gefragt == (0, 1, 2, 3)
    frueh = k.suche("rot", GLOBAL)
    assert frueh.ids == () and frueh.fehlt == ("p1", "p2") and len(frueh.gefragt) == 1
    k.tick(3)
    assert k.suche("rot", GLOBAL).ids == ("p1", "p2")
    k.schreibe("p1", "blau")
    assert k.suche("rot", GLOBAL).zuviel == ("p1",)
    assert k.suche("rot", LOKAL).ids == ("p2",)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d", "e"]), st.sampled_from(["rot", "blau"])),
        max_size=20,
    ),
    st.integers(min_value=0, max_value=5),
)
def test_a_global_index_catches_up_with_the_local_one(
    schreiben: list[tuple[str, str]], verzoegerung: int
) -> None:
    k = Katalog(partitionen=3, verzoegerung=verzoegerung)
    for id_, farbe in schreiben:
        k.schreibe(id_, farbe)
        k.tick(1)
    k.tick(verzoegerung)
    assert k.unterwegs() == 0
    for farbe in ("rot", "blau"):
        assert k.suche(farbe, GLOBAL).ids == k.suche(farbe, LOKAL).ids
        assert not k.suche(farbe, GLOBAL).fehlt and not k.suche(farbe, GLOBAL).zuviel


def test_a_client_with_an_old_map_is_moved_once_then_asks_directly() -> None:
    alt = Slots(["n1", "n2", "n3", "n4"])
    neu = alt.plus("n5")
    gezogen = sorted(umzug(alt, neu, SCHLUESSEL).bewegt)[0]
    c = Client(alt)
    erst = c.frage(neu, gezogen, CLIENT)
    assert erst.moved and erst.nachrichten == 4 and erst.stationen[-2] == "n5"
    dann = c.frage(neu, gezogen, CLIENT)
    assert not dann.moved and dann.stationen == ("Client", "n5", "Client")
    assert c.frage(neu, gezogen, SCHICHT).stationen[1] == "Router"
    assert c.frage(neu, gezogen, KNOTEN, einstieg="n5").nachrichten == 2
    assert c.frage(neu, gezogen, KNOTEN, einstieg="n1").stationen == (
        "Client",
        "n1",
        "n5",
        "n1",
        "Client",
    )


def test_the_console_shows_what_moves() -> None:
    k = PartitionKonsole()
    assert k.run("fuelle 100").ok
    r = k.run("dazu n4")
    assert r.ok and "von 100 Schlüsseln ziehen um" in r.text and "→ n4" in r.text
    assert r.svg is not None and "eingezogen" in r.svg
    vergleich = k.run("vergleiche n5").text
    assert "modulo" in vergleich and "ring" in vergleich and "nichts ändert sich" in vergleich
    # comparing changes nothing
    assert k.p.verteilung.knoten == ("n1", "n2", "n3", "n4")
    heiss = k.run("heiss user:1 30")
    assert heiss.ok and f"Am längsten wartet es auf {k.p.verteilung.besitzer('user:1')}" in (
        heiss.text
    )
    assert k.run("weg n2").text.startswith("n2 geht.")
    assert k.run("strategie modulo").ok and k.p.strategie == "modulo"


def test_the_console_is_deterministic() -> None:
    zeilen = ["fuelle 50", "schreibe {user1}.name Ada", "dazu n4", "heiss user:3 40", "weg n1"]
    eins, zwei = PartitionKonsole(), PartitionKonsole()
    assert [eins.run(z).text for z in zeilen] == [zwei.run(z).text for z in zeilen]
    assert eins.run("status").svg == zwei.run("status").svg
