"""Die Log-Konsole: jeder Befehl, jede Fehlerart, die Bilder, die Vervollständigung."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from pysim import Log
from pysim.console import ConsoleResult, LogKonsole
from tests.pysim.konsolen import LOG_LEKTION_2, absaetze_ganz, ausfuehren, vorbereitet

NS = "{http://www.w3.org/2000/svg}"


def konsole(*zeilen: str) -> LogKonsole:
    return vorbereitet(LogKonsole(), [*LOG_LEKTION_2, *zeilen])


def texte(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(NS + "text")]


# --- die Fakten des Entwurfs von Lektion 2 ---


def test_customer_7_geht_in_partition_1() -> None:
    c = LogKonsole()
    c.run("create topic orders partitions 3")
    r = ausfuehren(c, 'produce orders key=customer-7 {"order":61,"total":12.40}')
    assert r.ok and r.command == "produce"
    assert r.text.splitlines()[0] == "→ Partition 1, Offset 0 (p1:0)"
    assert "Hash 982, 982 % 3 = 1" in r.text


def test_drei_ereignisse_einer_bestellung_in_einer_partition() -> None:
    c = LogKonsole()
    c.run("create topic orders partitions 3")
    for offset, event in enumerate(["placed", "paid", "shipped"]):
        r = c.run(f'produce orders key=order-61 {{"order":61,"event":"{event}"}}')
        assert r.text.startswith(f"→ Partition 1, Offset {offset} (p1:{offset})")
    r = c.run("read orders partition 1")
    assert [z.split()[0] for z in r.text.splitlines()[:3]] == ["p1:0", "p1:1", "p1:2"]
    assert '"shipped"' in r.text.splitlines()[2]


def test_zweite_kopie_bekommt_partition_2() -> None:
    c = konsole('produce orders key=order-65 {"order":65}')
    r = ausfuehren(c, "consume orders group billing as billing-2")
    assert r.ok
    assert "  billing-1: p0, p1" in r.text.splitlines()
    assert "  billing-2: p2" in r.text.splitlines()
    assert "billing-2 liest p2:" in r.text
    assert '{"order":65}' in r.text
    assert c.log.group("billing").zuteilung("orders") == {
        0: "billing-1",
        1: "billing-1",
        2: "billing-2",
    }


def test_reset_laesst_andere_gruppen_in_ruhe() -> None:
    c = konsole("consume orders group analytics from-beginning")
    billing = c.log.offsets("orders").gruppen["billing"]
    r = ausfuehren(c, "reset group analytics to 0")
    assert r.ok
    assert c.log.offsets("orders").gruppen == {"analytics": (0, 0, 0), "billing": billing}
    assert "p0: 1 → 0, p1: 1 → 0, p2: 1 → 0" in r.text
    r = c.run("offsets orders")
    assert r.text.splitlines()[1].split() == ["PARTITION", "ENDE", "analytics", "billing"]
    assert r.text.splitlines()[2].split() == ["p0", "1", "0", "1"]


def test_vierte_kopie_ist_untaetig() -> None:
    c = konsole(
        "consume orders group billing as billing-2", "consume orders group billing as billing-3"
    )
    r = ausfuehren(c, "consume orders group billing as billing-4")
    assert r.ok
    assert "billing-4 ist untätig" in r.text.replace("\n", " ")
    assert "  billing-4: untätig" in r.text.splitlines()
    d = c.run("describe group billing")
    assert "Untätig in „orders“: billing-4 (keine Partition frei)." in d.text
    assert any("billing-4: untätig" in t for t in texte(r.svg))


def test_stock_korrektur_partition_2_offset_3() -> None:
    c = LogKonsole()
    c.run("create topic stock partitions 3")
    for change in (24, -4, -3):
        c.run(f'produce stock key=product-7 {{"product":7,"change":{change}}}')
    r = c.run('produce stock key=product-7 {"product":7,"change":1,"why":"returned"}')
    assert r.text.startswith("→ Partition 2, Offset 3 (p2:3)")


def test_from_beginning_gewinnt_nicht_gegen_position() -> None:
    c = konsole()
    r = ausfuehren(c, "consume orders group billing from-beginning")
    assert "from-beginning zählt nicht" in r.text
    assert "nichts Neues" in r.text


def test_neue_gruppe_beginnt_am_ende() -> None:
    c = konsole()
    r = ausfuehren(c, "consume orders group email")
    assert "Start am Ende" in r.text and "nichts Neues" in r.text
    assert c.log.offsets("orders").gruppen["email"] == (1, 1, 1)


def test_no_commit_liest_weiter_erst_ein_neustart_liest_doppelt() -> None:
    c = konsole('produce orders key=order-64 {"order":64}')
    r1 = ausfuehren(c, "consume orders group billing no-commit")
    assert "no-commit: Position nicht gespeichert." in r1.text
    assert "  p1: Leseposition 2, gespeichert 1" in r1.text
    assert "liest ab der Leseposition weiter" in r1.text
    r2 = ausfuehren(c, "consume orders group billing")
    assert '{"order":64}' in r1.text and '{"order":64}' not in r2.text
    assert "Position gespeichert (Commit): p0 → 1, p1 → 2, p2 → 1" in r2.text
    # A restart before the commit: the member comes back at the stored position.
    c = konsole('produce orders key=order-64 {"order":64}')
    ausfuehren(c, "consume orders group billing no-commit")
    r = ausfuehren(c, "describe group billing")
    assert "  billing-1: orders p1 Leseposition 2, gespeichert 1" in r.text
    ausfuehren(c, "leave group billing billing-1")
    r3 = ausfuehren(c, "consume orders group billing")
    assert "billing-1 (ausgetreten) tritt der Gruppe „billing“ neu bei." in r3.text
    assert "p1 beginnt an der gespeicherten Position 1: Offset 1 war" in r3.text
    assert '{"order":64}' in r3.text


def test_seek_zurueck_liest_noch_einmal_und_commit_speichert_es() -> None:
    c = konsole('produce orders key=order-64 {"order":64}')
    ausfuehren(c, "consume orders group billing")
    r = ausfuehren(c, "seek orders group billing partition 1 to 0")
    assert r.ok and r.svg is not None
    assert r.text.splitlines()[0] == "billing-1: Leseposition p1 2 → 0."
    assert "Gespeichert bleibt 2, bis commit speichert." in r.text
    assert c.log.offsets("orders").gruppen["billing"] == (1, 2, 1)
    r = ausfuehren(c, "consume orders group billing no-commit")
    assert '{"order":61,"total":12.4}' in r.text and '{"order":64}' in r.text
    ausfuehren(c, "seek orders group billing partition 1 to 1")
    r = ausfuehren(c, "commit orders group billing")
    assert "p1: 2 → 1" in r.text
    r = ausfuehren(c, "consume orders group billing")
    assert '{"order":64}' in r.text and "61" not in r.text


def test_seek_nur_fuer_eigene_partitionen_nach_dem_lesen() -> None:
    c = konsole("consume orders group billing as billing-2")
    r = ausfuehren(c, "seek orders group billing as billing-2 partition 0 to 0")
    assert not r.ok and "p0 von „orders“ liest billing-1, nicht billing-2" in r.text
    # billing-1 has not read since billing-2 joined: it starts over at the stored position.
    r = ausfuehren(c, "seek orders group billing partition 0 to 0")
    assert not r.ok and "seit dem letzten Rebalancing nicht" in r.text
    ausfuehren(c, "consume orders group billing")
    assert ausfuehren(c, "seek orders group billing partition 0 to 0").ok
    ausfuehren(c, "leave group billing billing-2")
    r = ausfuehren(c, "seek orders group billing as billing-2 partition 2 to 0")
    assert not r.ok and "kann keine Leseposition verschieben" in r.text
    assert "Es ist mit leave ausgetreten." in r.text.replace("\n", " ")


def test_max_begrenzt() -> None:
    c = LogKonsole()
    c.run("create topic t partitions 1")
    for i in range(5):
        c.run(f"produce t {i}")
    r = ausfuehren(c, "consume t group g max 2 from-beginning")
    assert "2 Einträge gelesen." in r.text
    assert "p0 → 2" in r.text


# --- jeder Befehl ---


def test_create_und_topics() -> None:
    c = LogKonsole()
    assert c.run("topics").text.startswith("Noch keine Topics.")
    assert c.run("topics").svg is None
    r = ausfuehren(c, "create topic orders partitions 3")
    assert r.text == "Topic „orders“ angelegt: 3 Partitionen (p0 bis p2)."
    r = ausfuehren(c, "create topic single")
    assert r.text == "Topic „single“ angelegt: 1 Partition (p0)."
    r = ausfuehren(c, "topics")
    assert r.text.splitlines() == [
        "TOPIC   PARTITIONEN  EINTRÄGE",
        "orders  3            0",
        "single  1            0",
    ]
    assert r.svg is not None


def test_read() -> None:
    c = konsole()
    r = ausfuehren(c, "read orders")
    assert r.text.splitlines() == [
        'p0:0  -           {"order":63}',
        'p1:0  customer-7  {"order":61,"total":12.4}',
        'p2:0  order-62    {"order":62}',
        "3 Einträge. read ändert keine Position.",
    ]
    assert ausfuehren(c, "read orders from 1").text == "Keine Einträge in „orders“ ab Offset 1."
    assert ausfuehren(c, "read orders from 0 partition 2").text.startswith("p2:0")


def test_read_zeigt_hoechstens_30_zeilen() -> None:
    c = LogKonsole()
    c.run("create topic t")
    for i in range(35):
        c.run(f"produce t {i}")
    r = c.run("read t")
    assert "… und 5 weitere" in r.text
    assert "35 Einträge." in r.text


def test_describe_tabelle() -> None:
    c = konsole("consume orders group billing as billing-2")
    r = ausfuehren(c, "describe group billing")
    zeilen = r.text.splitlines()
    assert zeilen[0] == "Gruppe „billing“, Mitglieder: billing-1, billing-2"
    assert zeilen[1] == "Generation 2 (zählt jedes Rebalancing)."
    zeilen = zeilen[1:]
    assert zeilen[1].split() == ["TOPIC", "PARTITION", "POSITION", "ENDE", "LAG", "MITGLIED"]
    assert zeilen[2].split() == ["orders", "0", "1", "1", "0", "billing-1"]
    assert zeilen[4].split() == ["orders", "2", "1", "1", "0", "billing-2"]
    # Spalten sind ausgerichtet
    assert len({z.index("POSITION") for z in zeilen[1:2]}) == 1
    assert zeilen[2][zeilen[1].index("MITGLIED") :].startswith("billing-1")
    titel = ET.fromstring(r.svg).find(NS + "title").text
    assert titel == "Gruppe „billing“, Mitglieder: billing-1, billing-2"


def test_describe_ohne_position() -> None:
    c = konsole("consume orders group neu no-commit")
    r = ausfuehren(c, "describe group neu")
    assert "Noch keine gespeicherte Position" in r.text


def test_groups() -> None:
    c = LogKonsole()
    assert c.run("groups").text.startswith("Noch keine Gruppen.")
    c = konsole("consume orders group email")
    r = ausfuehren(c, "groups")
    assert r.text.splitlines() == [
        "GRUPPE   MITGLIEDER  TOPICS",
        "billing  billing-1   orders",
        "email    email-1     orders",
    ]


def test_offsets_ohne_gruppe() -> None:
    c = LogKonsole()
    c.run("create topic t partitions 2")
    r = ausfuehren(c, "offsets t")
    assert "Noch keine Gruppe hat hier eine Position gespeichert." in r.text


@pytest.mark.parametrize(
    ("ziel", "erwartet"),
    [("0", (0, 0, 0)), ("earliest", (0, 0, 0)), ("latest", (1, 1, 1)), ("EARLIEST", (0, 0, 0))],
)
def test_reset_ziele(ziel: str, erwartet: tuple[int, ...]) -> None:
    c = konsole()
    r = ausfuehren(c, f"reset group billing to {ziel}")
    assert r.ok
    assert c.log.offsets("orders").gruppen["billing"] == erwartet


def test_reset_hinter_das_ende() -> None:
    c = konsole("reset group billing to 0")
    r = ausfuehren(c, "reset group billing to 9 topic orders")
    assert "auf das Ende gesetzt" in r.text
    assert c.log.offsets("orders").gruppen["billing"] == (1, 1, 1)


def test_reset_ohne_position_braucht_topic() -> None:
    c = konsole("consume orders group neu no-commit")
    r = ausfuehren(c, "reset group neu to 0")
    assert not r.ok and "reset group neu to 0 topic orders" in r.text
    assert ausfuehren(c, "reset group neu to 0 topic orders").ok


@pytest.mark.parametrize("zeile", ["update orders p1:0", "delete orders", "UPDATE", "delete"])
def test_update_und_delete_gibt_es_nicht(zeile: str) -> None:
    c = konsole()
    r = ausfuehren(c, zeile)
    assert not r.ok
    assert r.command == zeile.split()[0].lower()
    assert "nicht verändert und nicht einzeln gelöscht" in r.text
    assert "Korrektur ist ein neues Ereignis" in r.text
    assert "produce orders" in r.text


def test_hilfe() -> None:
    c = LogKonsole()
    r = ausfuehren(c, "hilfe")
    assert r.ok and r.svg is None and r.command == "hilfe"
    for name in (
        "create",
        "topics",
        "produce",
        "read",
        "consume",
        "offsets",
        "describe",
        "groups",
        "reset",
        "clear",
    ):
        assert f"  {name} " in r.text
    assert c.run("help").text == r.text
    for name in ("consume", "produce", "create topic", "describe group", "reset"):
        d = ausfuehren(c, f"hilfe {name}")
        assert d.ok and d.text.startswith(name.split()[0])
        assert "Beispiel" in d.text
    assert "consume orders group billing as billing-2" in c.run("hilfe consume").text
    assert "update" in c.run("hilfe update").text


def test_saetze_bleiben_ganz() -> None:
    # The console breaks no sentence itself: the browser wraps long lines.
    c = konsole()
    for zeile in [
        "hilfe",
        *(
            f"hilfe {b}"
            for b in (
                "create",
                "produce",
                "read",
                "consume",
                "commit",
                "tick",
                "max-poll",
                "session-timeout",
                "absturz",
                "leave",
                "offsets",
                "describe",
                "groups",
                "reset",
            )
        ),
        "consume orders",
        "update x",
        "consum",
        "describe group x",
        "produce orders {'a':1}",
        "max-poll 3",
        "consume orders group billing from-beginning",
        "consume orders group billing as billing-2",
        "consume orders group billing as billing-3",
        "consume orders group billing as billing-4",
        "tick 2",
        "tick 2",
        "describe group billing",
    ]:
        absaetze_ganz(c.run(zeile).text)


def test_lange_saetze_stehen_in_einer_zeile() -> None:
    # What used to break after 60 characters is one line now (the page wraps it).
    c = konsole("max-poll 3", "consume orders group billing")
    assert c.run("max-poll 3").text == (
        "Max Poll Interval: 3 Ticks. Wer länger als 3 Ticks nicht liest (consume), verlässt bei "
        "tick die Gruppe, auch wenn er noch arbeitet."
    )
    assert c.run("tick").text.splitlines()[1] == (
        "Niemand entfernt. Am längsten ohne consume: billing-1 (1 Tick; ab 4 Ticks wird es "
        "entfernt)."
    )
    assert "  consume <topic> group <gruppe> [as <mitglied>] [max <n>] [from-beginning] " in (
        c.run("consume orders").text
    )


def test_clear_leer_und_kommentar() -> None:
    c = konsole()
    vorher = c.state_dump()
    r = ausfuehren(c, "clear")
    assert r == ConsoleResult(True, "", None, True, "clear")
    assert ausfuehren(c, "") == ConsoleResult(True, "", None, False, "")
    assert ausfuehren(c, "   ") == ConsoleResult(True, "", None, False, "")
    assert ausfuehren(c, "# produce orders {}").ok
    assert c.state_dump() == vorher


def test_grossschreibung_der_befehle() -> None:
    c = konsole()
    r = ausfuehren(c, "CONSUME orders GROUP billing FROM-BEGINNING")
    assert r.ok and r.command == "consume"


def test_to_json() -> None:
    r = ConsoleResult(True, "ä", "<svg/>", False, "topics")
    assert json.loads(r.to_json()) == {
        "ok": True,
        "text": "ä",
        "svg": "<svg/>",
        "clear": False,
        "command": "topics",
    }
    assert "ä" in r.to_json()


def test_vorhandenes_log_und_state_dump() -> None:
    log = Log()
    log.create_topic("orders", partitions=2)
    log.produce("orders", {"a": 1})
    c = LogKonsole(log)
    assert c.log is log
    assert c.state_dump().splitlines() == [
        "topic orders partitions=2 reihum=1",
        '  p0:0 key=None {"a":1}',
        "time 0 max_poll_interval=None session_timeout=None",
    ]
    c.run("consume orders group g from-beginning")
    assert c.state_dump().splitlines()[-5:] == [
        "time 0 max_poll_interval=None session_timeout=None",
        "group g generation=1 members=g-1",
        "  member g-1 state=Mitglied last=0 topics=['orders']",
        "  orders positions=[1, 0]",
        "  reading ('g-1', 'orders')=(1, {0: (0, 1), 1: (0, 0)})",
    ]


# --- Fehler (the refused lines: test_konsolen_fehler.py) ---


def test_json_zeiger_steht_an_der_stelle() -> None:
    r = LogKonsole(_log_mit_orders()).run('produce orders {"order":61 "total":1}')
    zeilen = r.text.splitlines()
    wert, zeiger = zeilen[2], zeilen[3]
    assert wert[zeiger.index("^")] == '"'


def _log_mit_orders() -> Log:
    log = Log()
    log.create_topic("orders", partitions=3)
    return log


def test_interner_fehler_wird_zur_meldung(monkeypatch: pytest.MonkeyPatch) -> None:
    c = konsole()

    def kaputt(*args: object, **kwargs: object) -> None:
        raise KeyError("oops")

    monkeypatch.setattr(c.log, "offsets", kaputt)
    r = c.run("offsets orders")
    assert not r.ok
    assert "Interner Fehler im Simulator" in r.text and "Bug" in r.text
    assert "KeyError" in r.text
    assert r.command == "offsets"


def test_keine_zeichenkette() -> None:
    r = LogKonsole().run(None)  # type: ignore[arg-type]
    assert not r.ok and "Text" in r.text


# --- Bilder ---


def test_bild_nach_produce_zeigt_topic_mit_gruppen() -> None:
    c = konsole("consume orders group email")
    r = c.run('produce orders key=customer-7 {"order":64}')
    root = ET.fromstring(r.svg)
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root.get("width") == "100%"
    assert "var(--pysim-" in r.svg
    assert root.find(NS + "title").text == (
        "Topic „orders“ mit 3 Partitionen und den Gruppen „billing“, „email“"
    )
    eintraege = [x for x in root.iter(NS + "rect") if x.get("class") == "eintrag"]
    assert len(eintraege) == 4
    naechste = [x for x in root.iter(NS + "rect") if x.get("class") == "naechste"]
    assert len(naechste) == 3 and all("stroke-dasharray" in x.get("style") for x in naechste)
    t = texte(r.svg)
    assert t.count("▲") == 3 * 2
    assert ["customer", "-7"] == t[t.index("customer") : t.index("customer") + 2]
    assert "billing · billing-1" in t and "email · email-1" in t
    assert "Lag 1" in t  # billing in p1


def test_bild_bleibt_beim_letzten_topic() -> None:
    c = konsole("create topic stock partitions 2")
    assert "„stock“" in ET.fromstring(c.run("topics").svg).find(NS + "title").text
    c.run("read orders")
    assert "„orders“" in ET.fromstring(c.run("groups").svg).find(NS + "title").text
    # ein Fehler ändert das gezeigte Topic nicht
    c.run("read stok")
    assert "„orders“" in ET.fromstring(c.run("topics").svg).find(NS + "title").text


def test_bild_nach_reset_mit_allen_gruppen() -> None:
    c = konsole("consume orders group analytics from-beginning")
    r = c.run("reset group analytics to 0")
    titel = ET.fromstring(r.svg).find(NS + "title").text
    assert "„analytics“, „billing“" in titel


def test_schmales_bild_legende_passt() -> None:
    c = LogKonsole()
    c.run("create topic t")
    r = c.run("consume t group g")
    root = ET.fromstring(r.svg)
    breite = int(root.get("viewBox").split()[2])
    from pysim.svg import textbreite

    for t in root.iter(NS + "text"):
        if t.get("text-anchor") == "start":
            assert int(t.get("x")) + textbreite(t.text or "", 10) <= breite + 2, t.text


def test_gleiche_eingabe_gleiches_bild() -> None:
    a, b = (
        konsole("consume orders group billing as billing-2"),
        konsole("consume orders group billing as billing-2"),
    )
    assert a.run("offsets orders") == b.run("offsets orders")


# --- Vervollständigung ---


#: Every command of the log console, as completion offers them.
ALLE_BEFEHLE = [
    "absturz",
    "clear",
    "commit",
    "consume",
    "create",
    "describe",
    "groups",
    "hilfe",
    "leave",
    "max-poll",
    "offsets",
    "produce",
    "read",
    "reset",
    "seek",
    "session-timeout",
    "tick",
    "topics",
]


@pytest.mark.parametrize(
    ("zeile", "erwartet"),
    [
        ("", ALLE_BEFEHLE),
        ("c", ["clear", "commit", "consume", "create"]),
        ("a", ["absturz"]),
        ("commit orders ", ["as", "group"]),
        ("commit orders group billing as ", ["billing-1"]),
        ("seek orders ", ["as", "group", "partition", "to"]),
        ("seek orders group billing ", ["as", "partition", "to"]),
        ("seek orders group billing as ", ["billing-1"]),
        ("seek orders group billing partition ", ["0", "1", "2"]),
        ("leave ", ["group"]),
        ("leave group billing ", ["billing-1"]),
        ("max-poll ", ["3", "off"]),
        ("session-timeout ", ["3", "off"]),
        ("absturz ", ["group"]),
        ("crash ", ["group"]),
        ("absturz group billing ", ["billing-1"]),
        ("tick ", []),
        ("con", ["consume"]),
        ("CON", ["consume"]),
        ("create ", ["topic"]),
        ("create topic ", []),
        ("create topic neu ", ["partitions"]),
        ("produce ", ["orders", "stock"]),
        ("produce o", ["orders"]),
        ("produce orders ", ["key=", "key=customer-7", "key=order-62"]),
        ("produce orders key=c", ["key=customer-7"]),
        ("produce orders key=x {", []),
        ("read orders ", ["from", "partition"]),
        ("read orders partition ", ["0", "1", "2"]),
        ("read orders partition 1 ", ["from"]),
        ("consume orders ", ["as", "from-beginning", "group", "max", "no-commit"]),
        ("consume orders group ", ["billing"]),
        ("consume orders group b", ["billing"]),
        ("consume orders group billing ", ["as", "from-beginning", "max", "no-commit"]),
        ("consume orders group billing as ", ["billing-1", "billing-2"]),
        ("consume orders group billing no-commit f", ["from-beginning"]),
        ("describe ", ["group"]),
        ("describe group ", ["billing"]),
        ("reset group billing ", ["to", "topic"]),
        ("reset group billing to ", ["0", "earliest", "latest"]),
        ("reset group billing to 0 topic ", ["orders", "stock"]),
        ("offsets ", ["orders", "stock"]),
        ("hilfe ", ALLE_BEFEHLE),
        ("hilfe p", ["produce"]),
        ("topics ", []),
        ("gibtsnicht ", []),
        ("# kommentar", []),
    ],
)
def test_complete(zeile: str, erwartet: list[str]) -> None:
    c = konsole("create topic stock partitions 3")
    assert c.complete(zeile) == erwartet


def test_complete_wirft_nie() -> None:
    c = LogKonsole()
    for zeile in [None, "x" * 5000, "a\nb", "consume orders group g as "]:
        assert isinstance(c.complete(zeile), list)  # type: ignore[arg-type]


def test_steuerzeichen() -> None:
    c = konsole()
    r = ausfuehren(c, "produce orders key=a\x08b {}")
    assert not r.ok and "Steuerzeichen (U+0008)" in r.text
    # über das Modell hineingekommen: Das Bild bleibt gültiges XML
    c.log.produce("orders", "x", key="k\x08")
    ET.fromstring(c.run("read orders").svg)
