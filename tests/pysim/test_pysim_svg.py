"""Die Bilder: gültiges SVG, deutscher Titel, skalierbar, Farben als Variablen, deterministisch."""

from __future__ import annotations

import re

import pytest

from pysim import Log, Queue
from pysim.log.bild import MAX_SCHLUESSEL_ZEICHEN, schluessel_zeilen
from pysim.svg import FARBEN, Zeichnung, escape, kuerze, textbreite
from tests.pysim.svg_regeln import NS, allgemeine_regeln, parse


def beispiel_log() -> Log:
    log = Log()
    log.create_topic("orders", partitions=3)
    for order, key in ((61, "customer-7"), (62, "customer-1"), (63, None), (64, "order-64")):
        log.produce("orders", {"order": order}, key=key)
    log.consume("orders", "billing", from_beginning=True)
    log.consume("orders", "email", from_beginning=True, max=2)
    log.consume("orders", "email", member="email-2")
    return log


def beispiel_queue() -> Queue:
    q = Queue(visibility_timeout=3, max_versuche=2)
    q.send("zahlung-1")
    q.send("zahlung-2")
    q.send("gift")
    q.receive(consumer="A")
    q.tick(2)
    m = q.receive(consumer="B")
    q.ack(m["id"])
    q.tick(2)
    q.receive(consumer="C")
    return q


def test_topic_bild_mit_gruppen() -> None:
    log = beispiel_log()
    svg = log.bild("orders").svg
    root = allgemeine_regeln(svg)
    assert root.find(NS + "title").text == (
        "Topic „orders“ mit 3 Partitionen und den Gruppen „billing“, „email“"
    )
    naechste = [r for r in root.iter(NS + "rect") if r.get("class") == "naechste"]
    assert len(naechste) == 3
    assert all("stroke-dasharray" in r.get("style") for r in naechste)
    marker = [t for t in root.iter(NS + "text") if t.text == "▲"]
    assert len(marker) == 3 * 2  # je Partition und Gruppe ein ▲
    eintraege = [r for r in root.iter(NS + "rect") if r.get("class") == "eintrag"]
    assert len(eintraege) == 4
    texte = [t.text for t in root.iter(NS + "text")]
    schluessel = [t.text for t in root.iter(NS + "text") if t.get("class") == "schluessel"]
    assert schluessel == ["customer", "-7", "customer", "-1", "order", "-64"]  # ganz, zweizeilig
    assert "email · email-2" in texte and "billing · billing-1" in texte
    gelesen = [r for r in root.iter(NS + "rect") if r.get("class") == "gelesen"]
    assert len(gelesen) == 4 + 2  # billing alles, email-1 zwei, in p2 ist nichts


def test_topic_repr_svg_ohne_gruppen() -> None:
    log = beispiel_log()
    root = allgemeine_regeln(log.topic("orders")._repr_svg_())
    assert not [t for t in root.iter(NS + "text") if t.text == "▲"]
    assert len([r for r in root.iter(NS + "rect") if r.get("class") == "naechste"]) == 3


def test_gruppen_bild() -> None:
    log = beispiel_log()
    root = allgemeine_regeln(log.group("email")._repr_svg_())
    assert root.find(NS + "title").text == "Gruppe „email“, Mitglieder: email-1, email-2"
    assert len([t for t in root.iter(NS + "text") if t.text == "▲"]) == 3


def test_gruppe_ohne_position() -> None:
    log = Log()
    log.create_topic("t")
    log.consume("t", "g", commit=False)
    root = allgemeine_regeln(log.group("g")._repr_svg_())
    assert "Noch keine gespeicherte Position." in [t.text for t in root.iter(NS + "text")]


def test_lange_partition_wird_gekuerzt() -> None:
    log = Log()
    log.create_topic("t", partitions=1)
    for i in range(40):
        log.produce("t", i, key=f"k-{i}")
    log.consume("t", "alt", from_beginning=True, max=2)
    log.consume("t", "neu", from_beginning=True)
    root = allgemeine_regeln(log.bild("t").svg)
    texte = [t.text for t in root.iter(NS + "text")]
    assert "…" in texte and "39" in texte and "40" in texte and "0" not in texte
    assert len([t for t in texte if t == "▲"]) == 2
    assert "Lag 38" in texte


def test_queue_zeitleiste() -> None:
    q = beispiel_queue()
    root = allgemeine_regeln(q._repr_svg_())
    assert root.find(NS + "title").text == "Zeitleiste der Queue „queue“ bei t=4"
    texte = [t.text for t in root.iter(NS + "text")]
    assert "1 zahlung-1" in texte
    assert "2× ausgeliefert" in texte
    assert len([t for t in root.iter(NS + "text") if t.get("class") == "ack"]) == 1
    assert len([r for r in root.iter(NS + "rect") if r.get("class") == "unterwegs"]) == 3
    q.tick(3)
    root = allgemeine_regeln(q._repr_svg_())
    assert [t.text for t in root.iter(NS + "text") if t.get("class") == "dlq"] == ["DLQ"]


def test_queue_bild_viele_nachrichten() -> None:
    q = Queue()
    for i in range(30):
        q.send(f"m{i}")
    root = allgemeine_regeln(q.bild(max_zeilen=5).svg)
    assert "… und 25 weitere Nachrichten" in [t.text for t in root.iter(NS + "text")]


def test_leere_queue_bild() -> None:
    allgemeine_regeln(Queue()._repr_svg_())


@pytest.mark.parametrize("bauen", [beispiel_log, beispiel_queue])
def test_gleicher_zustand_gleiches_bild(bauen) -> None:
    a, b = bauen(), bauen()
    if isinstance(a, Log):
        assert a.bild("orders").svg == b.bild("orders").svg
    else:
        assert a._repr_svg_() == b._repr_svg_()


def test_text_wird_escaped() -> None:
    log = Log()
    log.create_topic("t")
    log.consume("t", "<script>&", member='a"b<')
    svg = log.bild("t").svg
    allgemeine_regeln(svg)
    assert "<script>" not in svg
    assert escape("<a & 'b'>") == "&lt;a &amp; &#39;b&#39;&gt;"


def test_zeichnung_und_hilfen() -> None:
    z = Zeichnung(100, 50, "Probe „x“")
    z.rechteck(1, 2, 3, 4, gestrichelt=True)
    z.linie(0, 0, 10, 10, gestrichelt=True)
    allgemeine_regeln(z.svg())
    assert kuerze("customer-7", 5) == "…er-7"
    assert kuerze("k", 5) == "k"
    assert set(FARBEN) >= {"fg", "muted", "line", "cell", "read", "accent", "next"}


def _schluessel(svg: str) -> list[list[str]]:
    """The keys the cells show, a list of lines per cell, in drawing order."""
    zellen: list[list[str]] = []
    letzte_x = None
    for t in parse(svg).iter(NS + "text"):
        if t.get("class") != "schluessel":
            continue
        if t.get("x") != letzte_x:
            zellen.append([])
            letzte_x = t.get("x")
        zellen[-1].append(t.text or "")
    return zellen


def test_schluessel_stehen_ganz_in_der_zelle() -> None:
    # Step 4 of lesson 2 is about the key: customer-7 and product-7 must be told apart.
    log = Log()
    log.create_topic("orders", partitions=1)
    for key in ("customer-7", "product-7", "order-61", "k-1", "bestellung-7"):
        log.produce("orders", {}, key=key)
    svg = log.bild("orders").svg
    allgemeine_regeln(svg)
    assert _schluessel(svg) == [
        ["customer", "-7"],
        ["product", "-7"],
        ["order", "-61"],
        ["k-1"],
        ["bestellung", "-7"],
    ]
    # Every line fits its cell: the cells are as wide as the longest line.
    root = parse(svg)
    zelle = next(int(r.get("width")) for r in root.iter(NS + "rect") if r.get("class") == "eintrag")
    assert zelle >= max(textbreite(z, 9) for k in _schluessel(svg) for z in k) + 4
    assert "P0 5 Einträge (Schlüssel customer-7, product-7, order-61, k-1, bestellung-7)" in (
        _desc(svg)
    )


def test_kurze_schluessel_bleiben_einzeilig_und_die_zellen_schmal() -> None:
    log = Log()
    log.create_topic("t", partitions=2)
    for key in ("k1", "k2", "k-39"):
        log.produce("t", {}, key=key)
    svg = log.bild("t").svg
    assert sorted(_schluessel(svg)) == [["k-39"], ["k1"], ["k2"]]
    root = parse(svg)
    assert {r.get("width") for r in root.iter(NS + "rect") if r.get("class") == "eintrag"} == {"44"}
    assert {r.get("height") for r in root.iter(NS + "rect") if r.get("class") == "eintrag"} == {
        "34"
    }


@pytest.mark.parametrize(
    ("key", "zeilen"),
    [
        ("customer-7", ("customer", "-7")),
        ("user_7", ("user_7",)),
        ("region.eu-west", ("region.eu", "-west")),
        ("kundennummer7", ("kundenn", "ummer7")),  # no separator: halves
        # A line longer than 12 characters keeps its start and end.
        ("a-very-long-customer-number-17", ("a-ver…number", "-17")),
        ("x-" + "y" * 30, ("x", "-yyyy…yyyyyy")),
    ],
)
def test_schluessel_zeilen(key: str, zeilen: tuple[str, ...]) -> None:
    assert schluessel_zeilen(key) == zeilen
    assert all(len(z) <= MAX_SCHLUESSEL_ZEICHEN for z in schluessel_zeilen(key))


def test_verschiedene_schluessel_bleiben_verschieden_auf_einem_telefon() -> None:
    # The keys of the course's lessons, each drawn as it is told apart from the others.
    keys = ["customer-2", "customer-3", "customer-5", "customer-7", "product-3", "product-7"]
    gezeigt = [schluessel_zeilen(k) for k in keys]
    assert len(set(gezeigt)) == len(keys)
    assert all("".join(z) == k for z, k in zip(gezeigt, keys, strict=True))


def _desc(svg: str) -> str:
    match = re.search(r"<desc>(.*?)</desc>", svg, re.S)
    assert match, "picture without <desc>"
    return match[1]


def test_topic_picture_describes_its_state_in_words() -> None:
    log = Log()
    log.create_topic("orders", 2)
    for value, key in [("a", "k1"), ("b", "k2"), ("c", "k1")]:
        log.produce("orders", value, key=key)
    log.consume("orders", group="lager", member="c1", max=1)
    text = _desc(str(log.bild("orders")))
    assert text.startswith("Topic „orders“: P0 ")
    assert "Eintr" in text and "Gruppe „lager“" in text and "Lag" in text


def test_queue_timeline_describes_each_message() -> None:
    q = Queue(name="mails", visibility_timeout=3)
    q.send("mail an kunde-7")
    q.send("x")
    first = q.receive("c1")
    assert first is not None
    q.ack(first["id"])
    q.receive("c2")
    text = _desc(str(q.bild()))
    assert "Nachricht 1 (mail an kunde-7): 1× ausgeliefert, bestätigt bei t=0" in text
    assert "Nachricht 2 (x): 1× ausgeliefert, unterwegs bei c2 bis t=3" in text


def test_a_legend_flows_into_as_many_rows_as_the_width_needs() -> None:
    from pysim.svg import Eintrag, Legende, Zeichnung

    legende = Legende(
        (Eintrag("sichtbar", fuellung="cell"), Eintrag("unterwegs"), Eintrag("Ende")),
        umbruch_vor=(2,),
    )
    assert [[e.text for e in z] for z in legende.zeilen(600)] == [
        ["sichtbar", "unterwegs"],
        ["Ende"],
    ]
    assert [[e.text for e in z] for z in legende.zeilen(100)] == [
        ["sichtbar"],
        ["unterwegs"],
        ["Ende"],
    ]
    z = Zeichnung(100, 200, "Bild")
    assert z.legende(legende, 10) == 10 + legende.hoehe(100) == 10 + 3 * 18
    assert z.svg().count('width="14"') == 1  # only the entry with a fill has a swatch


def test_a_text_legend_is_one_text_per_row() -> None:
    from pysim.svg import Eintrag, Legende, Zeichnung

    legende = Legende((Eintrag("a"), Eintrag("b"), Eintrag("c" * 40)), nur_text=True)
    assert [len(z) for z in legende.zeilen(300)] == [2, 1]
    z = Zeichnung(300, 100, "Bild")
    z.legende(legende, 0)
    assert ">a · b</text>" in z.svg()
