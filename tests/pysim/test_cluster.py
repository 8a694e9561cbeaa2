"""pysim.cluster: the reader's nodes in a deterministic cluster under faults."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import (
    Broadcast,
    Cluster,
    Echo,
    FehlerAntwort,
    KeineAntwort,
    Knoten,
    LaufAbgebrochen,
    Nachricht,
    Register,
    Stoerung,
    Zaehler,
    lauf,
    plan_aus_text,
    zufaelliger_plan,
)
from pysim.cluster.stoerungen import FENSTER, NACHLAUF, als_text
from pysim.fehler import UngueltigeEingabe
from tests.pysim.knoten_beispiele import (
    ALLE_5_TICKS,
    NUR_BEI_ADD,
    Endlos,
    Flut,
    MitWiederholung,
)


class EchoKnoten(Knoten):
    def bei_echo(self, nachricht: Nachricht) -> None:
        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})


def fehlende(ergebnis: Any) -> dict[str, list[int]]:
    """Per node: acknowledged broadcasts its final read does not have."""
    bestaetigt = {
        e["value"] for e in ergebnis.geschichte if e["type"] == "ok" and e["f"] == "broadcast"
    }
    return {
        e["node"]: sorted(bestaetigt - set(e["value"]))
        for e in ergebnis.geschichte
        if e["type"] == "ok" and e["f"] == "read" and e["process"] >= 10_000
    }


def test_the_same_seed_gives_the_same_run_bit_for_bit() -> None:
    a = lauf(MitWiederholung, Broadcast(), knoten=5, seed=4, dauer=80, stoerungen="zufall")
    b = lauf(MitWiederholung, Broadcast(), knoten=5, seed=4, dauer=80, stoerungen="zufall")
    c = lauf(MitWiederholung, Broadcast(), knoten=5, seed=5, dauer=80, stoerungen="zufall")
    assert a.geschichte == b.geschichte
    assert [(s.nachricht, s.gesendet, s.ankunft, s.schicksal) for s in a.cluster.sendungen] == [
        (s.nachricht, s.gesendet, s.ankunft, s.schicksal) for s in b.cluster.sendungen
    ]
    assert a.kennung == b.kennung != c.kennung


def test_a_run_replays_from_its_identity() -> None:
    a = lauf(Flut, Broadcast(), knoten=5, seed=3, dauer=100, stoerungen="zufall")
    _, _, seed, _, plan = a.kennung.split("/")
    b = lauf(Flut, Broadcast(), knoten=5, seed=int(seed[1:]), dauer=100, stoerungen=plan)
    assert b.geschichte == a.geschichte


def test_a_node_without_retries_loses_values_in_a_partition_and_one_with_retries_does_not() -> None:
    plan = [Stoerung(10, "teile", seiten=(("n1", "n2"), ("n3",))), Stoerung(40, "heile")]
    verloren = lauf(Flut, Broadcast("alle"), knoten=3, seed=1, dauer=60, stoerungen=plan)
    assert any(fehlende(verloren).values()), "a partition must cost the naive node values"
    assert verloren.cluster.zaehle()["getrennt"] > 0
    heil = lauf(MitWiederholung, Broadcast("alle"), knoten=3, seed=1, dauer=60, stoerungen=plan)
    assert fehlende(heil) == {"n1": [], "n2": [], "n3": []}


def test_echo_answers_each_client_with_its_text() -> None:
    ergebnis = lauf(EchoKnoten, Echo(), knoten=2, seed=1, dauer=20)
    paare = [(e["type"], e["value"]) for e in ergebnis.geschichte]
    assert paare[:2] == [("invoke", paare[0][1]), ("ok", paare[0][1])]
    assert all(e["type"] in ("invoke", "ok") for e in ergebnis.geschichte)
    assert ergebnis.fehler == []


class Merker(Knoten):
    def beim_start(self) -> None:
        self.fluechtig = self.speicher.get("dauerhaft", 0)

    def bei_merke(self, n: Nachricht) -> None:
        self.speicher["dauerhaft"] = n["wert"]
        self.fluechtig = n["wert"]
        self.antworte(n, {"type": "merke_ok"})

    def bei_zeige(self, n: Nachricht) -> None:
        self.antworte(
            n, {"type": "zeige_ok", "fluechtig": getattr(self, "wert_neu", self.fluechtig)}
        )


def test_a_crash_loses_memory_and_keeps_the_store() -> None:
    cluster = Cluster(Merker, 1)
    antworten: list[dict[str, Any]] = []
    cluster.anmelden("c1", lambda n: antworten.append(n.body), client=True)
    cluster.sende("c1", "n1", {"type": "merke", "wert": 7, "msg_id": 1})
    cluster.laufe(1)
    erste = cluster._plaetze["n1"].instanz
    cluster.absturz("n1")
    cluster.sende("c1", "n1", {"type": "zeige", "msg_id": 2})  # lost: n1 is down
    cluster.laufe(2)
    cluster.neustart("n1")
    assert cluster._plaetze["n1"].instanz is not erste
    cluster.sende("c1", "n1", {"type": "zeige", "msg_id": 3})
    cluster.laufe(3)
    assert [a["type"] for a in antworten] == ["merke_ok", "zeige_ok"]
    assert antworten[1]["fluechtig"] == 7  # read back from the store by beim_start
    assert [e.art for e in cluster.ereignisse] == ["absturz", "neustart"]
    schicksale = [
        (s.nachricht.body.get("msg_id"), s.schicksal)
        for s in cluster.sendungen
        if s.nachricht.dest == "n1"
    ]
    assert schicksale == [(1, "zugestellt"), (2, "empfänger aus"), (3, "zugestellt")]


class Wecker(Knoten):
    def beim_start(self) -> None:
        self.geweckt: list[tuple[int, int]] = []
        self.spaeter(5, lambda: self.geweckt.append((self.uhr(), self.uhr())))


def test_a_pause_delays_timers_and_deliveries_until_it_ends() -> None:
    cluster = Cluster(Wecker, 1)
    cluster.pausiere("n1")
    cluster.laufe(20)
    instanz = cluster._plaetze["n1"].instanz
    assert instanz.geweckt == []  # type: ignore[union-attr]
    cluster.fortsetzen("n1")
    assert instanz.geweckt == [(20, 20)]  # type: ignore[union-attr]


def test_a_clock_offset_and_drift_show_in_the_nodes_clock() -> None:
    cluster = Cluster(Wecker, 1)
    cluster.laufe(10)
    cluster.verstelle_uhr("n1", versatz=5, drift=0.5)
    cluster.laufe(20)
    assert cluster._lokale_zeit("n1") == 20 + 5 + 5


class Frager(Knoten):
    def beim_start(self) -> None:
        self.ergebnisse: list[str] = []

    async def bei_los(self, n: Nachricht) -> None:
        try:
            antwort = await self.frage(n["ziel"], {"type": "echo", "echo": "x"}, timeout=8)
            self.ergebnisse.append(f"antwort {antwort.typ}")
        except KeineAntwort as e:
            self.ergebnisse.append(f"keine: {e}")
        except FehlerAntwort as e:
            self.ergebnisse.append(f"fehler {e.code}")

    def bei_echo(self, n: Nachricht) -> None:
        self.antworte(n, {"type": "echo_ok", "echo": n["echo"]})


@pytest.mark.parametrize(
    ("stoerung", "erwartet"),
    [
        (None, "antwort echo_ok"),
        ("teile", "keine: n1 bekam von n2 binnen 8 Ticks keine Antwort auf „echo“."),
        ("ohne_handler", "fehler 10"),
    ],
)
def test_an_rpc_gets_its_reply_a_timeout_or_an_error(stoerung: str | None, erwartet: str) -> None:
    klasse: type[Knoten] = Frager
    if stoerung == "ohne_handler":
        klasse = type("OhneEcho", (Frager,), {"bei_echo": None})
    cluster = Cluster(klasse, 2, seed=2)
    cluster.anmelden("c1", lambda n: None, client=True)
    if stoerung == "teile":
        cluster.trenne(["n1"], ["n2"])
    cluster.sende("c1", "n1", {"type": "los", "ziel": "n2"})
    cluster.laufe(30)
    assert cluster._plaetze["n1"].instanz.ergebnisse == [erwartet]  # type: ignore[union-attr]


class Kaputt(Knoten):
    def bei_echo(self, n: Nachricht) -> None:
        zahl = int(n["echo"])  # raises for "hallo 0"
        self.antworte(n, {"type": "echo_ok", "echo": zahl})


def test_a_handler_that_raises_is_named_with_its_node_message_and_line() -> None:
    ergebnis = lauf(Kaputt, Echo(), knoten=1, seed=1, dauer=5, clients=1, timeout=4)
    fehler = ergebnis.fehler[0]
    assert fehler.knoten == "n1"
    assert "„echo“ von c1" in fehler.was
    assert fehler.fehler.startswith("ValueError")
    assert fehler.code == 'zahl = int(n["echo"])  # raises for "hallo 0"'
    assert fehler.zeile is not None
    # No reply came: the client recorded the operation as indeterminate.
    assert {e["type"] for e in ergebnis.geschichte} == {"invoke", "info"}


@pytest.mark.parametrize(
    ("body", "ziel", "sagt"),
    [
        ({"echo": 1}, "n2", "Jede Nachricht braucht einen „type“"),
        ("echo", "n2", "Der Inhalt einer Nachricht ist ein dict"),
        ({"type": "echo"}, "n9", "Einen Empfänger „n9“ gibt es nicht. Es gibt: „c1“, „n1“, „n2“."),
        ({"type": "echo"}, None, "Der Empfänger ist der Name eines Knotens"),
    ],
)
def test_malformed_messages_get_a_german_error_and_send_nothing(
    body: Any, ziel: Any, sagt: str
) -> None:
    class Sender(Knoten):
        def bei_los(self, n: Nachricht) -> None:
            self.sende(ziel, body)

    cluster = Cluster(Sender, 2)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "los"})
    cluster.laufe(5)
    assert sagt in cluster.fehler[0].fehler
    assert len(cluster.sendungen) == 1  # only the client's message


def test_an_endless_chain_of_messages_stops_with_a_german_message() -> None:
    class PingPong(Knoten):
        def bei_ping(self, n: Nachricht) -> None:
            self.sende(n.src, {"type": "ping"})

    cluster = Cluster(PingPong, 2, max_ereignisse=500)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "ping"})
    cluster.sende("n2", "n1", {"type": "ping"})
    with pytest.raises(LaufAbgebrochen, match="nach 500 Ereignissen ab"):
        cluster.laufe(10_000)


def test_lin_kv_reads_the_latest_write_and_cas_checks_the_value() -> None:
    class Proxy(Knoten):
        async def bei_read(self, n: Nachricht) -> None:
            await self.weiter(n)

        async def bei_write(self, n: Nachricht) -> None:
            await self.weiter(n)

        async def bei_cas(self, n: Nachricht) -> None:
            await self.weiter(n)

        async def weiter(self, n: Nachricht) -> None:
            body = {k: v for k, v in n.body.items() if k != "msg_id"}
            try:
                antwort = await self.frage("lin-kv", body)
                self.antworte(n, {k: v for k, v in antwort.body.items() if k != "in_reply_to"})
            except FehlerAntwort as e:
                self.antworte(n, {k: v for k, v in e.body.items() if k != "in_reply_to"})

    ergebnis = lauf(Proxy, Register(schluessel=1, dienste=("lin-kv",)), knoten=3, seed=2, dauer=60)
    # With no faults, lin-kv is one register: every ok read returns the last ok write or cas
    # that completed before it began, or one that overlaps it.
    fertig = [e for e in ergebnis.geschichte if e["type"] in ("ok", "fail")]
    assert {e["f"] for e in fertig} == {"read", "write", "cas"}
    assert any(e["type"] == "fail" and e["f"] == "cas" for e in fertig)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000), arten=st.lists(st.sampled_from(FENSTER), min_size=1, max_size=4)
)
def test_a_fault_plan_survives_its_text_and_everything_heals(seed: int, arten: list[str]) -> None:
    import random

    ids = ["n1", "n2", "n3", "n4", "n5"]
    plan = zufaelliger_plan(random.Random(seed), ids, 200, arten, anzahl=4)
    assert plan_aus_text(als_text(plan), ids) == sorted(plan, key=lambda s: s.zeit)
    assert all(20 <= s.zeit for s in plan)
    # Only a nachlauf partition outlasts the load: it heals NACHLAUF ticks after its end.
    spaet = [s for s in plan if s.zeit > 200]
    assert spaet == ([Stoerung(200 + NACHLAUF, "heile")] if "nachlauf" in arten else [])
    offen = {s.knoten for s in plan if s.art in ("absturz", "pause")} - {
        s.knoten for s in plan if s.art in ("neustart", "weiter")
    }
    assert offen == set()


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_partition_that_outlasts_the_load_catches_a_counter_that_only_sends_on_add(
    seed: int,
) -> None:
    spaet = lauf(
        NUR_BEI_ADD, Zaehler(), seed=seed, stoerungen="zufall", arten=["teilung", "nachlauf"]
    )
    assert spaet.geheilt == 100 + NACHLAUF
    assert spaet.stoerungen[-2].art == "teile" and spaet.stoerungen[-2].zeit < 100
    urteil = spaet.last.pruefe(spaet)
    assert not urteil.ok, urteil.erklaerung
    # The final reads begin after the late heal, and the gossiping counter converges by then.
    schluss = [e for e in spaet.geschichte if e["process"] >= 10_000 and e["type"] == "invoke"]
    assert schluss and all(e["time"] >= spaet.geheilt for e in schluss)
    gut = lauf(
        ALLE_5_TICKS, Zaehler(), seed=seed, stoerungen="zufall", arten=["teilung", "nachlauf"]
    )
    assert gut.last.pruefe(gut).ok, gut.last.pruefe(gut).erklaerung


@pytest.mark.parametrize(
    ("text", "sagt"),
    [
        ("x:teile:n1|n2", "an Stelle 1"),
        ("5:absturz:n9", "einen Knoten 'n9' gibt es nicht"),
        ("5:explodiere:n1", "Eine Störung „explodiere“ gibt es nicht"),
    ],
)
def test_an_unreadable_fault_plan_is_named(text: str, sagt: str) -> None:
    with pytest.raises(UngueltigeEingabe, match=sagt):
        plan_aus_text(text, ["n1", "n2"])


def test_shrinking_keeps_the_failure_and_a_smaller_run_replays_from_its_identity() -> None:
    from pysim.cluster.lauf import lauf_aus_kennung, verkleinere

    start = lauf(Flut, Broadcast(), knoten=5, seed=3, dauer=100, stoerungen="zufall")

    def scheitert(ergebnis: Any) -> bool:
        return any(fehlende(ergebnis).values())

    assert scheitert(start)
    klein = verkleinere(start, scheitert)
    assert scheitert(klein)
    assert len(klein.geplant) < len(start.geplant)
    assert len(klein.stoerungen) <= len(start.stoerungen)
    assert klein.kennung.split("/")[-1].startswith("o")
    assert verkleinere(start, scheitert).kennung == klein.kennung  # deterministic
    wieder = lauf_aus_kennung(Flut, Broadcast(), klein.kennung)
    assert wieder.geschichte == klein.geschichte


@pytest.mark.parametrize(
    ("kennung", "sagt"),
    [
        ("echo/k3/s1/d100/", "ein Lauf der Last „echo“; hier läuft die Last „broadcast“"),
        ("broadcast/k3/sX/d100/", "„sX“ in der Kennung sollte der Seed sein"),
        ("broadcast/k3/s٣/d100/", "„s٣“ in der Kennung sollte der Seed sein"),
        ("broadcast/3/s1", "„broadcast/3/s1“ ist keine Kennung eines Laufs"),
        ("broadcast/k3/s1/d100/12:heile/x", "ist keine Kennung eines Laufs"),
        ("broadcast/k0/s1/d100/", "verlangt 0 Knoten und 100 Ticks"),
        (
            "broadcast/k3/s" + "9" * 5000 + "/d100/",
            "ist zu groß: der Seed hat höchstens 18 Ziffern",
        ),
        ("broadcast/k3/s1/d100//oabc", "„oabc“ am Ende der Kennung sollte die Auswahl"),
        ("broadcast/k3/s1/d100//o3-1", "steigt nicht auf (bei „3-1“)"),
        ("broadcast/k3/s1/d100//o0-4.2", "steigt nicht auf (bei „2“)"),
        # Named without listing a billion numbers (it held Python until the page restarted it).
        ("broadcast/k3/s1/d100//o0-999999999", "nennt Operation 999.999.999; der Lauf mit Seed 1"),
        ("broadcast/k3/s1/d100/5:explodiere:n1", "Eine Störung „explodiere“ gibt es nicht"),
        ("broadcast/k3/s1/d100/5:absturz:n7", "einen Knoten 'n7' gibt es nicht"),
        ("broadcast/k3/s1/d100/5:uhr:n1:+10:inf", "lässt die Uhr mit Drift inf gehen"),
    ],
)
def test_an_identity_that_is_wrong_is_named_and_nothing_runs(kennung: str, sagt: str) -> None:
    from pysim.cluster.lauf import lauf_aus_kennung

    with pytest.raises(UngueltigeEingabe) as gefangen:
        lauf_aus_kennung(Flut, Broadcast(), kennung)
    assert sagt in str(gefangen.value)
    assert len(str(gefangen.value)) < 400  # quotes the identity shortened


@pytest.mark.parametrize(
    ("kennung", "sagt"),
    [
        ("broadcast/k1000/s1/d100/", "verlangt 1.000 Knoten; hier laufen höchstens 3"),
        ("broadcast/k3/s1/d100000/", "verlangt 100.000 Ticks Last; hier sind es höchstens 100"),
        ("broadcast/k3/s0/d100/", "Der Seed 0 der Kennung liegt nicht zwischen 1 und 1.000.000"),
        ("broadcast/k3/s1000001/d100/", "Der Seed 1.000.001 der Kennung liegt nicht zwischen"),
        ("broadcast/k3/s1/d100/999999:absturz:n1", "liegt bei t=999999; in diesem Lauf liegen"),
        ("broadcast/k3/s1/d100/-5:absturz:n1", "liegt bei t=-5"),
        ("broadcast/k3/s1/d100/5:uhr:n1:+100000:0.1", "stellt die Uhr um +100000 Ticks"),
        (
            "broadcast/k3/s1/d100/5:uhr:n1:+10:5",
            "Drift 5 gehen; erlaubt ist eine Drift von -1 bis 1",
        ),
    ],
)
def test_an_identity_from_outside_stays_within_the_limits_of_its_page(
    kennung: str, sagt: str
) -> None:
    from pysim.cluster.lauf import Grenzen, lauf_aus_kennung, lies_kennung

    grenzen = Grenzen(knoten=3, dauer=100)
    with pytest.raises(UngueltigeEingabe) as gefangen:
        lauf_aus_kennung(Flut, Broadcast(), kennung, grenzen=grenzen)
    assert sagt in str(gefangen.value)
    # Without limits (a lesson's own cell) only what cannot run is refused.
    if "Knoten" in sagt or "Ticks Last" in sagt or "Seed 1.000.001" in sagt:
        assert lies_kennung(Broadcast(), kennung).seed >= 0


def test_an_identity_within_the_limits_replays_its_run() -> None:
    from pysim.cluster.lauf import Grenzen, lauf_aus_kennung, lies_kennung

    start = lauf(Flut, Broadcast(), knoten=3, seed=4, dauer=60, stoerungen="zufall")
    grenzen = Grenzen(knoten=3, dauer=60)
    gelesen = lies_kennung(Broadcast(), start.kennung, grenzen=grenzen)
    assert (gelesen.knoten, gelesen.seed, gelesen.dauer) == (3, 4, 60)
    assert gelesen.stoerungen == start.stoerungen and gelesen.auswahl is None
    wieder = lauf_aus_kennung(Flut, Broadcast(), start.kennung + "/o0-2.5", grenzen=grenzen)
    assert wieder.auswahl == [0, 1, 2, 5] and len(wieder.geplant) == 4
    leer = lauf_aus_kennung(Flut, Broadcast(), start.kennung + "/o", grenzen=grenzen)
    assert leer.auswahl == [] and leer.geplant == []


def test_the_picture_keeps_the_rules_and_stays_bounded() -> None:
    from pysim.cluster.bild import MAX_NACHRICHTEN, raumzeit
    from tests.pysim.svg_regeln import allgemeine_regeln

    plan = [
        Stoerung(10, "teile", seiten=(("n1", "n2"), ("n3",))),
        Stoerung(30, "heile"),
        Stoerung(35, "absturz", "n2"),
        Stoerung(45, "neustart", "n2"),
        Stoerung(50, "pause", "n3"),
        Stoerung(58, "weiter", "n3"),
    ]
    ergebnis = lauf(Flut, Broadcast("alle"), knoten=3, seed=1, dauer=60, stoerungen=plan)
    svg = raumzeit(ergebnis, zeugen=[0, 1]).svg
    root = allgemeine_regeln(svg)
    desc = root.find("{http://www.w3.org/2000/svg}desc")
    assert desc is not None and "1 Netzpartition, 1 Absturz, 1 Pause." in (desc.text or "")
    gross = lauf(
        MitWiederholung, Broadcast("alle"), knoten=5, seed=2, dauer=400, stoerungen="zufall"
    )
    assert len(gross.cluster.sendungen) > MAX_NACHRICHTEN
    bild = raumzeit(gross).svg
    zwischen = [
        s for s in gross.cluster.sendungen if s.nachricht.src != "c0" and s.nachricht.dest != "c0"
    ]
    assert f"Gezeigt: {MAX_NACHRICHTEN} von {len(zwischen)} Nachrichten" in bild
    assert bild.count("<line") < 2 * MAX_NACHRICHTEN + 200
    # The messages shown reach over the whole run, not only its first ticks.
    from pysim.cluster.bild import auswahl

    gezeigt = auswahl(zwischen)
    assert len(gezeigt) == MAX_NACHRICHTEN
    assert max(s.gesendet for s in gezeigt) > 0.8 * max(s.gesendet for s in zwischen)
    verloren = [s for s in zwischen if s.schicksal not in ("", "zugestellt")]
    assert set(map(id, verloren[: MAX_NACHRICHTEN // 2])) <= set(map(id, gezeigt))


def test_a_final_read_shares_the_column_of_its_nodes_client_and_partitions_fit() -> None:
    from pysim.cluster.bild import _seiten_text, raumzeit

    ergebnis = lauf(MitWiederholung, Broadcast("alle"), knoten=3, seed=1, dauer=30)
    svg = raumzeit(ergebnis).svg
    # c4..c6 read at the end from n1..n3, in the columns of c1..c3: named under their headers.
    assert svg.count(">c1<") == 1 and ">c4<" in svg and ">c6<" in svg
    kopf = [int(x) for x in __import__("re").findall(r'x="(\d+)"[^>]*>c[1-6]<', svg)]
    assert len(set(kopf)) == 3
    lang = "Netz geteilt: n1 n2 n3 n5 n6 n7 n8 n9 | n4"
    assert _seiten_text(lang, 60) == lang
    assert _seiten_text(lang, 40) == "Netz geteilt: n4 | 8 weitere Knoten"


def test_each_workload_judges_its_run_with_its_checker() -> None:
    from pysim.cluster.lasten import LASTEN

    assert sorted(LASTEN) == [
        "broadcast",
        "echo",
        "g-counter",
        "kafka",
        "lease-kv",
        "lin-kv",
        "unique-ids",
    ]
    gut = lauf(MitWiederholung, Broadcast(), knoten=5, seed=3, dauer=100, stoerungen="zufall")
    assert gut.last.pruefe(gut).ok
    schlecht = lauf(Flut, Broadcast(), knoten=5, seed=3, dauer=100, stoerungen="zufall")
    urteil = schlecht.last.pruefe(schlecht)
    assert not urteil.ok
    assert "bestätigte Werte" in urteil.erklaerung
    echo = lauf(EchoKnoten, Echo(), knoten=2, seed=1, dauer=30)
    assert echo.last.pruefe(echo).ok


def test_an_echo_that_answers_something_else_is_named() -> None:
    class Falsch(Knoten):
        def bei_echo(self, n: Nachricht) -> None:
            self.antworte(n, {"type": "echo_ok", "echo": "immer dasselbe"})

    ergebnis = lauf(Falsch, Echo(), knoten=1, seed=1, dauer=10, clients=1)
    urteil = ergebnis.last.pruefe(ergebnis)
    assert not urteil.ok
    assert "und bekam 'immer dasselbe' zurück" in urteil.erklaerung


def test_a_message_is_a_copy_of_what_was_sent() -> None:
    # On the wire a message is JSON: a node that answers with its own list and appends to
    # it later must not change what the client already read (issue 31: a single-node
    # broadcast answering {"messages": self.werte} was judged as reading the future).
    class Liste(Flut):
        def beim_start(self) -> None:
            self.liste: list[int] = []

        def bei_broadcast(self, n: Nachricht) -> None:
            self.liste.append(n["message"])
            self.antworte(n, {"type": "broadcast_ok"})

        def bei_read(self, n: Nachricht) -> None:
            self.antworte(n, {"type": "read_ok", "messages": self.liste, "tief": [self.liste]})

    ergebnis = lauf(Liste, Broadcast(), knoten=1, seed=2, dauer=40)
    gelesen = [e["value"] for e in ergebnis.geschichte if e["type"] == "ok" and e["f"] == "read"]
    assert len(gelesen) >= 2 and len(gelesen[0]) < len(gelesen[-1])
    assert ergebnis.last.pruefe(ergebnis).ok
    antwort = next(s.nachricht for s in ergebnis.cluster.sendungen if s.nachricht.typ == "read_ok")
    assert antwort.body["tief"][0] is not antwort.body["messages"]


def test_a_run_that_floods_stops_and_keeps_what_ran() -> None:
    with pytest.raises(LaufAbgebrochen, match="nach 3000 Ereignissen ab") as abbruch:
        lauf(Sturm, Broadcast(), knoten=3, seed=1, max_ereignisse=3000)
    teil = abbruch.value.lauf
    assert teil is not None and teil.cluster.zaehle()["gesendet"] > 1000
    assert teil.kennung.startswith("broadcast/k3/s1/")


class Sturm(Flut):
    """Forwards every value again on every receipt: the network floods."""

    def bei_broadcast(self, n: Nachricht) -> None:
        if "msg_id" in n.body:
            self.antworte(n, {"type": "broadcast_ok"})
        self.werte.add(n["message"])
        for k in self.nachbarn:
            self.sende(k, {"type": "broadcast", "message": n["message"]})


def test_a_request_and_its_reply_in_the_same_tick_are_two_arrows_and_gaps_have_room() -> None:
    import re

    from pysim.cluster.bild import SPALTE, raumzeit
    from pysim.raumzeit import LINKS

    ergebnis = lauf(EchoKnoten, Echo(), knoten=1, seed=1, dauer=40)
    svg = raumzeit(ergebnis).svg
    linien = re.findall(r'<line x1="(\d+)" y1="(\d+)" x2="(\d+)" y2="(\d+)"[^>]*accent', svg)
    waagerecht = [(int(a), int(b), int(c)) for a, b, c, d in linien if b == d and a != c]
    hin = {y for x1, y, x2 in waagerecht if x1 > x2}  # c1 -> n1
    her = {y for x1, y, x2 in waagerecht if x1 < x2}  # n1 -> c1
    assert hin and her and not hin & her, "a reply must not hide under its request"
    breite = int(re.search(r'viewBox="0 0 (\d+) ', svg)[1])
    assert "Ticks ohne Ereignis" in svg and breite > LINKS + 2 * SPALTE + 100


class Langsam(Knoten):
    """Answers every echo 12 ticks late: its clients fall behind their plan."""

    async def bei_echo(self, nachricht: Nachricht) -> None:
        await self.warte(12)
        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})


def test_a_slow_node_s_clients_start_nothing_after_the_time_limit() -> None:
    ergebnis = lauf(Langsam, Echo(), knoten=2, seed=3, dauer=60)
    eigene = [e for e in ergebnis.geschichte if e["process"] < 10_000]
    aufrufe = [e for e in eigene if e["type"] == "invoke"]
    # Behind plan: fewer calls than planned, none begun at or after the limit.
    assert len(aufrufe) < len(ergebnis.geplant)
    assert max(e["time"] for e in aufrufe) < 60
    # Each call still ends (ok or after its timeout), before the quiet phase is over.
    assert len([e for e in eigene if e["type"] != "invoke"]) == len(aufrufe)
    assert max(e["time"] for e in eigene) < 60 + 40


class KafkaImSpeicher(Knoten):
    """One node's logs and commits in memory; forgets the commits if ``vergesse``."""

    vergesse = False

    def beim_start(self) -> None:
        self.logs: dict[str, list[Any]] = {}
        self.commits: dict[str, int] = {}

    def bei_send(self, n: Nachricht) -> None:
        log = self.logs.setdefault(n["key"], [])
        log.append(n["msg"])
        self.antworte(n, {"type": "send_ok", "offset": len(log) - 1})

    def bei_poll(self, n: Nachricht) -> None:
        msgs = {k: [[o, m] for o, m in enumerate(self.logs.get(k, []))] for k in n["offsets"]}
        self.antworte(n, {"type": "poll_ok", "msgs": msgs})

    def bei_commit_offsets(self, n: Nachricht) -> None:
        if not self.vergesse:
            self.commits.update(n["offsets"])
        self.antworte(n, {"type": "commit_offsets_ok"})

    def bei_list_committed_offsets(self, n: Nachricht) -> None:
        offsets = {k: self.commits[k] for k in n["keys"] if k in self.commits}
        self.antworte(n, {"type": "list_committed_offsets_ok", "offsets": offsets})


def test_kafka_clients_commit_what_their_polls_returned() -> None:
    from pysim.cluster import KafkaLog

    ergebnis = lauf(KafkaImSpeicher, KafkaLog(), knoten=1, seed=2)
    assert ergebnis.last.pruefe(ergebnis).ok
    hoechste: dict[str, int] = {}
    commits = 0
    for e in ergebnis.geschichte:
        if e["f"] == "poll" and e["type"] == "ok":
            for k, paare in e["value"].items():
                hoechste[k] = max([hoechste.get(k, -1), *(o for o, _ in paare)])
        if e["f"] == "commit_offsets" and e["type"] == "invoke":
            assert e["value"] == hoechste
            commits += bool(e["value"])
    assert commits > 0
    # The same run again starts from nothing: the workload forgets the last run's polls.
    wieder = lauf(KafkaImSpeicher, ergebnis.last, knoten=1, seed=2)
    assert wieder.geschichte == ergebnis.geschichte


def test_kafka_a_node_that_forgets_commits_is_caught() -> None:
    from pysim.cluster import KafkaLog

    vergesslich = type("Vergesslich", (KafkaImSpeicher,), {"vergesse": True})
    ergebnis = lauf(vergesslich, KafkaLog(), knoten=1, seed=2)
    u = ergebnis.last.pruefe(ergebnis)
    assert not u.ok
    assert "Die gespeicherte Position (Commit) von k" in u.erklaerung


class EndlosNachAwait(Knoten):
    async def bei_broadcast(self, n: Nachricht) -> None:
        await self.warte(1)
        x = 0
        while x >= 0:
            x += 1


class EndloserTimer(Knoten):
    def beim_start(self) -> None:
        self.spaeter(3, self.dreh)

    def dreh(self) -> None:
        while True:
            pass


@pytest.mark.parametrize(
    ("klasse", "sagt"),
    [
        (
            Endlos,
            "Der Handler bei_broadcast von n1 endet nicht: Sein Aufruf für „broadcast“ von c1",
        ),
        (EndlosNachAwait, "Der Handler bei_broadcast von n1 endet nicht"),
        (EndloserTimer, "Der Aufruf von dreh von n1 endet nicht: Sein Aufruf (t=3)"),
    ],
)
def test_an_endless_handler_stops_with_a_german_message_naming_handler_and_node(
    klasse: type[Knoten], sagt: str
) -> None:
    import sys

    vorher = sys.gettrace()
    with pytest.raises(LaufAbgebrochen) as abbruch:
        lauf(klasse, Broadcast(), knoten=3, seed=1)
    assert str(abbruch.value).startswith(sagt), str(abbruch.value)
    assert "mehr als 100.000 Schleifendurchläufe, zuletzt in Zeile" in str(abbruch.value)
    assert "Schleife, die nie endet" in str(abbruch.value)
    assert abbruch.value.lauf is not None  # the run until then, for the picture
    assert sys.gettrace() is vorher


def test_a_long_but_finite_handler_is_not_stopped_and_nested_loops_count_per_call() -> None:
    class Fleissig(Knoten):
        def beim_start(self) -> None:
            self.summe = 0

        def bei_broadcast(self, n: Nachricht) -> None:
            for i in range(300):
                for j in range(300):  # 90,000 iterations in one call: under the limit
                    self.summe += i * j
            self.antworte(n, {"type": "broadcast_ok"})

        def bei_read(self, n: Nachricht) -> None:
            self.antworte(n, {"type": "read_ok", "messages": []})

    ergebnis = lauf(Fleissig, Broadcast(), knoten=1, seed=1, dauer=20)
    assert not ergebnis.fehler
    cluster = Cluster(Fleissig, 1, max_schritte=1000)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "broadcast", "message": 1, "msg_id": 1})
    with pytest.raises(LaufAbgebrochen, match=r"mehr als 1\.000 Schleifendurchläufe"):
        cluster.laufe(5)
