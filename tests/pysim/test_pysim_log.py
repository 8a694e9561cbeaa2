"""Partitioniertes Log: Topics, Schlüssel, Offsets, Gruppen (Lektion 2)."""

from __future__ import annotations

import copy
import json

import pytest

from pysim import (
    Log,
    SimFehler,
    TopicExistiertSchon,
    UnbekannteGruppe,
    UnbekanntesTopic,
    UngueltigeEingabe,
    UnveraenderlichFehler,
)
from pysim.log.regeln import partition_fuer_schluessel, schluessel_hash, zuteilen


@pytest.fixture
def log() -> Log:
    log = Log()
    log.create_topic("orders", partitions=3)
    return log


def zustand(log: Log) -> str:
    """Alles Sichtbare eines Logs als Text (für „Fehler ändern nichts“)."""
    teile = [repr(log)]
    for t in log.topics():
        teile += [repr(log.topic(t)), repr(log.read(t)), repr(log.offsets(t))]
    for g in log.groups():
        teile.append(repr(log.group(g)))
    return "\n".join(teile)


# --- Schlüssel und Partitionen ---


def test_customer_7_ist_982_und_partition_1() -> None:
    assert schluessel_hash("customer-7") == 982
    assert partition_fuer_schluessel("customer-7", 3) == 1


def test_product_7_und_order_61() -> None:
    assert partition_fuer_schluessel("product-7", 3) == 2
    assert partition_fuer_schluessel("order-61", 3) == 1


def test_produce_wie_in_der_issue(log: Log) -> None:
    assert log.produce("orders", {"order": 61, "total": 12.40}, key="customer-7") == (1, 0)
    r = log.read("orders")[0]
    assert (r.partition, r.offset, r.key, r.value) == (
        1,
        0,
        "customer-7",
        {
            "order": 61,
            "total": 12.40,
        },
    )
    assert r.adresse == "p1:0"
    assert repr(r) == "Record(p1:0 key=customer-7 {'order': 61, 'total': 12.4})"


def test_ohne_schluessel_reihum(log: Log) -> None:
    erg = [log.produce("orders", {"n": i}) for i in range(5)]
    assert erg == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]


def test_reihum_je_topic() -> None:
    log = Log()
    log.create_topic("a", partitions=2)
    log.create_topic("b", partitions=2)
    assert log.produce("a", 1) == (0, 0)
    assert log.produce("b", 1) == (0, 0)
    assert log.produce("a", 1) == (1, 0)


def test_schluessel_unterbricht_reihum_nicht(log: Log) -> None:
    assert log.produce("orders", 1) == (0, 0)
    assert log.produce("orders", 1, key="customer-7") == (1, 0)
    assert log.produce("orders", 1) == (1, 1)


def test_order_61_drei_ereignisse_in_reihenfolge(log: Log) -> None:
    for event in ("placed", "paid", "shipped"):
        log.produce("orders", {"order": 61, "event": event}, key="order-61")
    recs = log.read("orders", partition=1)
    assert [(r.offset, r.value["event"]) for r in recs] == [
        (0, "placed"),
        (1, "paid"),
        (2, "shipped"),
    ]


def test_ohne_schluessel_geht_reihenfolge_verloren(log: Log) -> None:
    log.produce("orders", {"order": 60, "event": "placed"})  # p0
    for event in ("placed", "paid", "shipped"):  # p1, p2, p0
        log.produce("orders", {"order": 61, "event": event})
    gelesen = log.consume("orders", "email", from_beginning=True)
    bestellung_61 = [r.value["event"] for r in gelesen if r.value["order"] == 61]
    assert bestellung_61 == ["shipped", "placed", "paid"]


def test_stock_uebung_3() -> None:
    log = Log()
    log.create_topic("stock", partitions=3)
    for change, why in ((24, "delivery"), (-4, "sale"), (-3, "sale")):
        assert (
            log.produce("stock", {"product": 7, "change": change, "why": why}, key="product-7")[0]
            == 2
        )
    assert log.produce(
        "stock", {"product": 7, "change": 1, "why": "returned"}, key="product-7"
    ) == (2, 3)
    assert sum(r.value["change"] for r in log.read("stock", partition=2)) == 18


def test_offsets_beginnen_bei_0_und_wachsen(log: Log) -> None:
    for _ in range(4):
        log.produce("orders", "x", key="k")
    p = partition_fuer_schluessel("k", 3)
    assert [r.offset for r in log.read("orders", partition=p)] == [0, 1, 2, 3]


# --- Unveränderlich ---


def test_update_und_delete_sind_fehler(log: Log) -> None:
    log.produce("orders", {"order": 61})
    vorher = zustand(log)
    with pytest.raises(UnveraenderlichFehler, match="Korrektur ist ein neues Ereignis"):
        log.update("orders", 0, 0, {"order": 62})
    with pytest.raises(UnveraenderlichFehler, match="nicht verändert und nicht einzeln gelöscht"):
        log.delete("orders", 0, 0)
    assert zustand(log) == vorher


def test_record_unveraenderlich(log: Log) -> None:
    log.produce("orders", {"order": 61, "items": [1, 2]})
    r = log.read("orders")[0]
    with pytest.raises(UnveraenderlichFehler):
        r.offset = 5  # type: ignore[misc]
    with pytest.raises(UnveraenderlichFehler):
        del r.value  # type: ignore[misc]
    with pytest.raises(UnveraenderlichFehler):
        r.value["order"] = 62
    with pytest.raises(UnveraenderlichFehler):
        r.value["items"].append(3)
    assert isinstance(UnveraenderlichFehler("x"), AttributeError)
    assert log.read("orders")[0].value == {"order": 61, "items": [1, 2]}


def test_producer_aendert_spaeter_seinen_dict_log_bleibt(log: Log) -> None:
    wert = {"order": 61}
    log.produce("orders", wert)
    wert["order"] = 99
    assert log.read("orders")[0].value == {"order": 61}


def test_kopie_eines_records_ist_veraenderbar(log: Log) -> None:
    log.produce("orders", {"order": 61})
    korrektur = copy.deepcopy(log.read("orders")[0].value)
    korrektur["why"] = "correction"
    assert json.dumps(korrektur) == '{"order": 61, "why": "correction"}'
    assert json.dumps(log.read("orders")[0].value) == '{"order": 61}'


# --- read ---


def test_read_aendert_keine_position(log: Log) -> None:
    log.produce("orders", 1)
    log.consume("orders", "billing", from_beginning=True)
    log.produce("orders", 2)
    vorher = log.offsets("orders")
    log.read("orders")
    log.read("orders", partition=1, start=0)
    assert log.offsets("orders") == vorher


def test_read_partition_und_start(log: Log) -> None:
    for i in range(6):
        log.produce("orders", i)
    assert [r.value for r in log.read("orders", partition=0, start=1)] == [3]
    assert [r.adresse for r in log.read("orders", start=1)] == ["p0:1", "p1:1", "p2:1"]
    assert log.read("orders", start=10) == []


def test_read_fehler(log: Log) -> None:
    with pytest.raises(UngueltigeEingabe, match="Partitionen 0 bis 2"):
        log.read("orders", partition=3)
    with pytest.raises(UngueltigeEingabe, match="start"):
        log.read("orders", start=-1)
    with pytest.raises(UnbekanntesTopic, match=r"„ordres“ gibt es nicht.*„orders“"):
        log.read("ordres")


# --- Topics ---


def test_create_topic_fehler(log: Log) -> None:
    vorher = zustand(log)
    with pytest.raises(TopicExistiertSchon, match="„orders“ gibt es schon"):
        log.create_topic("orders", partitions=2)
    with pytest.raises(UngueltigeEingabe):
        log.create_topic("neu", partitions=0)
    with pytest.raises(UngueltigeEingabe):
        log.create_topic("mit leerzeichen", partitions=1)
    with pytest.raises(UngueltigeEingabe):
        log.create_topic("", partitions=1)
    assert zustand(log) == vorher
    assert log.topics() == ["orders"]


def test_topics_und_groups_listen(log: Log) -> None:
    log.create_topic("stock", partitions=3)
    log.consume("orders", "email")
    log.consume("orders", "billing")
    assert log.topics() == ["orders", "stock"]
    assert log.groups() == ["billing", "email"]


def test_produce_fehler_aendern_nichts(log: Log) -> None:
    log.produce("orders", 1)
    vorher = zustand(log)
    with pytest.raises(UnbekanntesTopic):
        log.produce("nope", 1)
    with pytest.raises(UngueltigeEingabe, match="Schlüssel"):
        log.produce("orders", 1, key=7)  # type: ignore[arg-type]
    assert zustand(log) == vorher
    assert log.produce("orders", 1) == (1, 0)  # reihum nicht verschoben


# --- Gruppen ---


def test_neue_gruppe_beginnt_am_ende(log: Log) -> None:
    log.produce("orders", "alt")
    assert log.consume("orders", "email") == []
    log.produce("orders", "neu")
    assert [r.value for r in log.consume("orders", "email")] == ["neu"]


def test_from_beginning_fuer_neue_gruppe(log: Log) -> None:
    for i in range(3):
        log.produce("orders", i)
    assert [r.value for r in log.consume("orders", "analytics", from_beginning=True)] == [0, 1, 2]


def test_from_beginning_zaehlt_nicht_wenn_position_da(log: Log) -> None:
    for i in range(3):
        log.produce("orders", i)
    log.consume("orders", "billing", from_beginning=True)
    assert log.consume("orders", "billing", from_beginning=True) == []


def test_gruppen_bekommen_jeweils_alles(log: Log) -> None:
    for i in range(3):
        log.produce("orders", i)
    a = log.consume("orders", "billing", from_beginning=True)
    b = log.consume("orders", "email", from_beginning=True)
    assert a == b and len(a) == 3


def test_no_commit_liest_weiter_und_erst_ein_neustart_liest_noch_einmal(log: Log) -> None:
    for i in (61, 64):
        log.produce("orders", {"order": i}, key=f"order-{i}")
    log.consume("orders", "billing", from_beginning=True)
    log.produce("orders", {"order": 65}, key="order-65")
    erstes = log.consume("orders", "billing", commit=False)
    assert [r.value["order"] for r in erstes] == [65]
    # The live member's reading position moved on without a commit: nothing comes back.
    assert log.consume("orders", "billing", commit=False) == []
    # A restart (leave, then join again) starts at the stored position: 65 comes again.
    log.leave("billing", "billing-1")
    assert log.consume("orders", "billing") == erstes
    assert log.consume("orders", "billing") == []


def test_no_commit_bei_neuer_gruppe_speichert_nichts(log: Log) -> None:
    log.produce("orders", 1)
    assert len(log.consume("orders", "g", from_beginning=True, commit=False)) == 1
    assert log.describe("g") == []
    assert log.offsets("orders").gruppen == {}
    # The member continues from its own reading position and stores it now.
    assert log.consume("orders", "g", from_beginning=True) == []
    assert log.offsets("orders").gruppen == {"g": (1, 0, 0)}


def test_max_begrenzt_und_partition_fuer_partition(log: Log) -> None:
    for i in range(6):
        log.produce("orders", i)  # p0: 0,3  p1: 1,4  p2: 2,5
    erst = log.consume("orders", "g", max=3, from_beginning=True)
    assert [r.adresse for r in erst] == ["p0:0", "p0:1", "p1:0"]
    rest = log.consume("orders", "g")
    assert [r.adresse for r in rest] == ["p1:1", "p2:0", "p2:1"]


def test_max_muss_positiv_sein(log: Log) -> None:
    with pytest.raises(UngueltigeEingabe, match="max"):
        log.consume("orders", "g", max=0)
    assert log.groups() == []


def test_mitglied_ohne_namen(log: Log) -> None:
    log.consume("orders", "billing")
    assert log.members("billing") == ["billing-1"]


def test_range_assignor_billing_1_und_2() -> None:
    assert zuteilen(["billing-2", "billing-1"], 3) == {
        0: "billing-1",
        1: "billing-1",
        2: "billing-2",
    }
    assert zuteilen(["a", "b", "c", "d"], 3) == {0: "a", 1: "b", 2: "c"}
    assert zuteilen(["a", "b"], 5) == {0: "a", 1: "a", 2: "a", 3: "b", 4: "b"}
    assert zuteilen([], 3) == {}


def test_uebung_2_zweite_kopie_billing_2(log: Log) -> None:
    for order, key in ((61, "customer-7"), (62, "customer-1"), (63, "customer-2")):
        log.produce("orders", {"order": order}, key=key)
    log.consume("orders", "billing", from_beginning=True)
    assert partition_fuer_schluessel("customer-8", 3) == 2
    assert log.produce("orders", {"order": 65}, key="customer-8")[0] == 2
    neu = log.consume("orders", "billing", member="billing-2")
    assert [r.value["order"] for r in neu] == [65]
    assert log.members("billing") == ["billing-1", "billing-2"]
    assert [(z.partition, z.member) for z in log.describe("billing")] == [
        (0, "billing-1"),
        (1, "billing-1"),
        (2, "billing-2"),
    ]


def test_viertes_mitglied_ist_untaetig(log: Log) -> None:
    for m in ("g-1", "g-2", "g-3", "g-4"):
        log.consume("orders", "g", member=m)
    log.produce("orders", 1)
    log.produce("orders", 2)
    log.produce("orders", 3)
    assert log.consume("orders", "g", member="g-4") == []
    assert {z.member for z in log.describe("g")} == {"g-1", "g-2", "g-3"}


def test_leave_teilt_neu_auf(log: Log) -> None:
    log.consume("orders", "g", member="g-1")
    log.consume("orders", "g", member="g-2")
    assert log.leave("g", "g-1") == ["g-2"]
    assert {z.member for z in log.describe("g")} == {"g-2"}
    with pytest.raises(UngueltigeEingabe, match="kein Mitglied"):
        log.leave("g", "g-9")


def test_describe(log: Log) -> None:
    for i in range(4):
        log.produce("orders", i)
    log.consume("orders", "email", from_beginning=True, max=2)
    zeilen = log.describe("email")
    assert [(z.topic, z.partition, z.position, z.end, z.lag, z.member) for z in zeilen] == [
        ("orders", 0, 2, 2, 0, "email-1"),
        ("orders", 1, 0, 1, 1, "email-1"),
        ("orders", 2, 0, 1, 1, "email-1"),
    ]
    assert repr(zeilen[1]) == ("GruppenZeile(orders p1: Position 0, Ende 1, Lag 1, liest: email-1)")


def test_describe_unbekannte_gruppe(log: Log) -> None:
    with pytest.raises(UnbekannteGruppe, match="„x“ gibt es nicht"):
        log.describe("x")


def test_offsets(log: Log) -> None:
    for i in range(4):
        log.produce("orders", i)
    log.consume("orders", "billing", from_beginning=True)
    log.consume("orders", "analytics", from_beginning=True, max=1)
    o = log.offsets("orders")
    assert o.enden == (2, 1, 1)
    assert o.gruppen == {"analytics": (1, 0, 0), "billing": (2, 1, 1)}
    assert repr(o) == (
        "Offsets von „orders“\n"
        "  Partition  Ende  analytics  billing\n"
        "  p0         2     1          2\n"
        "  p1         1     0          1\n"
        "  p2         1     0          1"
    )


def test_reset_zahl_earliest_latest_und_klemmen(log: Log) -> None:
    for i in range(4):
        log.produce("orders", i)
    log.consume("orders", "billing", from_beginning=True)
    log.consume("orders", "analytics", from_beginning=True)
    log.reset("analytics", to=0)
    assert log.offsets("orders").gruppen == {"analytics": (0, 0, 0), "billing": (2, 1, 1)}
    log.reset("analytics", to="latest")
    assert log.offsets("orders").gruppen["analytics"] == (2, 1, 1)
    log.reset("analytics", to="earliest")
    assert log.offsets("orders").gruppen["analytics"] == (0, 0, 0)
    log.reset("analytics", to=1)
    assert log.offsets("orders").gruppen["analytics"] == (1, 1, 1)
    zeilen = log.reset("analytics", to=99)
    assert [z.position for z in zeilen] == [2, 1, 1]


def test_replay_nach_reset(log: Log) -> None:
    for i in range(3):
        log.produce("orders", i)
    erst = log.consume("orders", "analytics", from_beginning=True)
    log.reset("analytics", to=0)
    assert log.consume("orders", "analytics") == erst


def test_reset_fehler_aendern_nichts(log: Log) -> None:
    log.produce("orders", 1)
    log.consume("orders", "billing", from_beginning=True)
    vorher = zustand(log)
    for falsch in (-1, "anfang", True, 1.5):
        with pytest.raises(UngueltigeEingabe):
            log.reset("billing", to=falsch)  # type: ignore[arg-type]
    with pytest.raises(UnbekannteGruppe):
        log.reset("nope", to=0)
    with pytest.raises(UnbekanntesTopic):
        log.reset("billing", to=0, topic="nope")
    assert zustand(log) == vorher


def test_reset_ohne_position_braucht_topic(log: Log) -> None:
    log.produce("orders", 1)
    log.consume("orders", "g", commit=False)
    with pytest.raises(UngueltigeEingabe, match="Gib das Topic an"):
        log.reset("g", to=0)
    log.reset("g", to=0, topic="orders")
    assert len(log.consume("orders", "g")) == 1


def test_consume_fehler_aendern_nichts(log: Log) -> None:
    log.produce("orders", 1)
    log.consume("orders", "billing", from_beginning=True)
    vorher = zustand(log)
    with pytest.raises(UnbekanntesTopic):
        log.consume("nope", "billing")
    with pytest.raises(UngueltigeEingabe):
        log.consume("orders", "")
    with pytest.raises(UngueltigeEingabe):
        log.consume("orders", "billing", member="")
    with pytest.raises(UngueltigeEingabe):
        log.consume("orders", "billing", max=-2)
    assert zustand(log) == vorher


def test_reprs(log: Log) -> None:
    log.produce("orders", {"order": 61}, key="customer-7")
    log.consume("orders", "billing", from_beginning=True)
    assert repr(log) == "Log: Topics: orders (3 Partitionen); Gruppen: billing"
    assert repr(log.topic("orders")) == (
        "Topic „orders“ mit 3 Partitionen\n"
        "  p0: leer, nächster Offset 0\n"
        "  p1: Offsets 0 bis 0 (Schlüssel: customer-7), nächster Offset 1\n"
        "  p2: leer, nächster Offset 0"
    )
    assert repr(log.group("billing")) == (
        "Gruppe „billing“, Generation 1, Mitglieder: billing-1\n"
        "  orders p0: Position 0 von 0, Lag 0, liest: billing-1\n"
        "  orders p1: Position 1 von 1, Lag 0, liest: billing-1\n"
        "  orders p2: Position 0 von 0, Lag 0, liest: billing-1"
    )


def test_alle_fehler_sind_simfehler(log: Log) -> None:
    for aufruf in (
        lambda: log.topic("x"),
        lambda: log.group("x"),
        lambda: log.update(),
        lambda: log.create_topic("orders"),
    ):
        with pytest.raises(SimFehler):
            aufruf()
