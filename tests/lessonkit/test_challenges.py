"""``herausforderung``: the build proves a challenge (the solution passes every seed, the
starting code fails one) and names an author's mistakes at their line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from lessonkit.build.errors import LessonError
from tests.lessonkit.seiten import convert
from tests.pysim.knoten_beispiele import LEASE_OHNE_TOKEN, MIT_WIEDERHOLUNG, WEITERSAGER

START = WEITERSAGER
LOESUNG = MIT_WIEDERHOLUNG


def page(options: str, start: str = START, loesung: str = LOESUNG, extra: str = "") -> str:
    indent = lambda code: code.rstrip()  # noqa: E731
    return (
        f'```herausforderung id="broadcast" {options}\n'
        "--- aufgabe\nVerteile jeden Wert an alle Knoten, auch wenn das Netz sich teilt.\n"
        f"--- start\n{indent(start)}\n--- loesung\n{indent(loesung)}\n{extra}```\n"
    )


BROADCAST = 'last="broadcast" knoten="5" seeds="3" stoerungen="teilung"'


def test_a_sound_challenge_builds_with_its_data_and_setup(tmp_path: Path) -> None:
    soup = convert(tmp_path, page(BROADCAST))
    data = json.loads(soup.select_one(".lk-exercise__data")["data-lk-json"])
    assert data["type"] == "herausforderung"
    assert data["vorgabe"]["last"] == "broadcast"
    assert data["vorgabe"]["stoerungen"] == ["teilung"]
    assert data["vorgabe"]["seeds"] == 3
    setup = soup.select_one(".lk-challenge__setup").get_text()
    assert "Last „broadcast“ mit 5 Knoten" in setup
    assert "Das Urteil beruht auf 3 Läufen (Seeds 1–3)" in setup


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        (page(BROADCAST, loesung=START), 1, "Die Lösung scheitert bei Seed"),
        (
            page('last="broadcast" knoten="5" seeds="3"', start=LOESUNG),
            1,
            "Der Startcode besteht schon alle 3 Seeds",
        ),
        (page('last="kaffee"'), 1, "last=„kaffee“ gibt es nicht"),
        (page('last="broadcast" stoerungen="erdbeben"'), 1, "„erdbeben“ gibt es nicht"),
        (page('last="broadcast" seeds="101"'), 1, "Höchstens 100 Seeds"),
        (page(BROADCAST, loesung="x = 1"), 1, "Dein Code definiert keinen Knoten"),
        (
            page(BROADCAST, start="class A(Knoten):\n    pass\nclass B(Knoten):\n    pass"),
            1,
            "mehrere Knoten (A, B)",
        ),
        (
            page(BROADCAST, extra="--- fehlversuch\n" + LOESUNG),
            1,
            "Der Fehlversuch besteht alle Seeds",
        ),
    ],
)
def test_mistakes_are_named_in_german(tmp_path: Path, text: str, line: int, says: str) -> None:
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, text)
    assert says in caught.value.message
    assert caught.value.line >= line


def test_a_budget_on_messages_is_a_check(tmp_path: Path) -> None:
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, page(BROADCAST + ' max_nachrichten="2"'))
    assert "Nachrichten zwischen Knoten je Operation (erlaubt: höchstens 2)" in caught.value.message


def test_a_seed_outcome_names_the_failure_shrinks_it_and_replays() -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges

    vorgabe = challenges.Vorgabe("broadcast", knoten=5, stoerungen=("teilung",), seeds=3)
    klasse, error = run_sync(lambda: challenges.load_node(START))
    assert error is None and klasse is not None
    outcome = next(
        o
        for o in (challenges.seed_outcome(klasse, vorgabe, seed, "") for seed in (1, 2, 3))
        if not o["ok"]
    )
    assert outcome["operationen"] < (outcome["operationen_vorher"] or 0)
    assert any("fehlen" in u or "kennt" in u for u in outcome["urteil"]), outcome["urteil"]
    assert outcome["svg"].startswith("<svg")
    again = challenges.replay(klasse, vorgabe, outcome["kennung"], "")
    assert again["ok"] is False and again["urteil"] == outcome["urteil"]
    only_run = challenges.seed_outcome(klasse, vorgabe, 1, "", urteilen=False)
    assert only_run["ok"] is None and only_run["urteil"] == []


def _geladen(code: str) -> tuple[Any, Any]:
    """The node class ``code`` defines (it must load) and a broadcast of one seed on three
    nodes to run it in."""
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges

    klasse, error = run_sync(lambda: challenges.load_node(code))
    assert error is None and klasse is not None
    return klasse, challenges.Vorgabe("broadcast", knoten=3, seeds=1)


FLUT = START.replace(
    """        if n["message"] not in self.werte:
            self.werte.add(n["message"])
            for k in self.nachbarn:""",
    """        if True:  # forwards again on every receipt: a flood
            self.werte.add(n["message"])
            for k in self.nachbarn:""",
)


def test_a_node_that_floods_gets_a_verdict_not_an_exception(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lessonkit.runtime import challenges

    # A smaller cap ends the same way, three times sooner each (the real one is reached
    # by the build below: test_the_build_proves_a_flooding_attempt_wrong_without_shrinking_it).
    monkeypatch.setattr(challenges, "MAX_EREIGNISSE", 5_000)
    assert FLUT != START
    klasse, vorgabe = _geladen(FLUT)
    for urteilen in (True, False):
        outcome = challenges.seed_outcome(klasse, vorgabe, 1, "", urteilen=urteilen)
        assert outcome["ok"] is False
        assert f"nach {challenges.MAX_EREIGNISSE} Ereignissen ab" in outcome["urteil"][0]
        assert outcome["svg"].startswith("<svg") and outcome["kennung"].startswith("broadcast/")
        # Stopped at the limit, the flood's messages were on the way, not lost in the network.
        k = outcome["kennzahlen"]
        assert k["verloren"] == 0 and k["unterwegs"] > 0
        assert k["unterwegs"] < k["nachrichten"]
    again = challenges.replay(klasse, vorgabe, outcome["kennung"], "")
    assert again["ok"] is False and again["urteil"] == outcome["urteil"]


def test_the_build_proves_a_flooding_attempt_wrong_without_shrinking_it(tmp_path: Path) -> None:
    options = 'last="broadcast" knoten="3" seeds="2" stoerungen="teilung"'
    convert(tmp_path, page(options, extra="--- fehlversuch\n" + FLUT))


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ('max_ausbreitung="1/2"', "vergingen im Median"),
        ('max_ausbreitung="60"', "Median und Höchstwert in Ticks"),
        ('max_ausbreitung="90/60"', "Der Median (90) kann nicht über dem Höchstwert (60)"),
    ],
)
def test_a_latency_goal_is_a_check_and_its_mistakes_are_named(
    tmp_path: Path, options: str, says: str
) -> None:
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, page(f"{BROADCAST} {options}"))
    assert says in caught.value.message


def test_a_latency_goal_belongs_to_broadcast_alone() -> None:
    from lessonkit.runtime import challenges

    with pytest.raises(ValueError, match='nur bei last="broadcast"'):
        challenges.vorgabe_aus_optionen({"last": "lin-kv", "max_ausbreitung": "5/9"})
    vorgabe = challenges.vorgabe_aus_optionen({"last": "broadcast", "max_ausbreitung": "60/120"})
    assert vorgabe.max_ausbreitung == (60, 120)
    assert challenges.Vorgabe.aus_dict(vorgabe.als_dict()) == vorgabe
    assert "im Median höchstens 60 und längstens 120 Ticks" in vorgabe.beschreibung()


def test_the_figures_name_how_long_values_took_to_reach_every_node() -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges

    klasse, _ = run_sync(lambda: challenges.load_node(LOESUNG))
    assert klasse is not None
    schnell = challenges.Vorgabe("broadcast", knoten=5, seeds=1, max_ausbreitung=(60, 120))
    outcome = challenges.seed_outcome(klasse, schnell, 1, "")
    k = outcome["kennzahlen"]
    assert outcome["ok"] is True
    assert k["ausbreitung_median"] is not None and k["ausbreitung_max"] is not None
    assert 0 < k["ausbreitung_median"] <= k["ausbreitung_max"] <= 120
    zu_schnell = challenges.Vorgabe("broadcast", knoten=5, seeds=1, max_ausbreitung=(1, 1))
    outcome = challenges.seed_outcome(klasse, zu_schnell, 1, "")
    assert outcome["ok"] is False
    assert outcome["urteil"] == [
        f"Bis jeder Knoten einen Wert gelesen hatte, vergingen im Median {k['ausbreitung_median']}"
        f" und längstens {k['ausbreitung_max']} Ticks (erlaubt: im Median höchstens 1, längstens"
        " 1 Ticks), gemessen an den Lesen der Clients."
    ]
    echo = challenges.seed_outcome(
        run_sync(lambda: challenges.load_node(ECHO))[0], challenges.Vorgabe("echo"), 1, ""
    )
    assert echo["kennzahlen"]["ausbreitung_median"] is None


def test_a_run_over_the_budget_alone_is_not_shrunk_and_the_budget_counts_the_whole_run() -> None:
    # In a smaller run the fixed cost of a round of messages falls on fewer operations:
    # shrinking a run that fails only the budget would show a worse figure than the reader's.
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges

    klasse, _ = run_sync(lambda: challenges.load_node(LOESUNG))
    assert klasse is not None
    vorgabe = challenges.Vorgabe("broadcast", knoten=5, seeds=1, max_nachrichten=2)
    outcome = challenges.seed_outcome(klasse, vorgabe, 1, "")
    assert outcome["ok"] is False and outcome["operationen_vorher"] is None
    assert len(outcome["urteil"]) == 1
    assert f"gezählt über alle {outcome['operationen']} Operationen" in outcome["urteil"][0]
    # A run that also loses values is shrunk for the loss; the budget is the whole run's.
    klasse, _ = run_sync(lambda: challenges.load_node(START))
    assert klasse is not None
    geteilt = challenges.Vorgabe("broadcast", knoten=5, seeds=1, stoerungen=("teilung",))
    streng = challenges.Vorgabe(
        "broadcast", knoten=5, seeds=1, stoerungen=("teilung",), max_nachrichten=1
    )
    ganz = challenges.seed_outcome(klasse, geteilt, 1, "", verkleinern=False)
    outcome = challenges.seed_outcome(klasse, streng, 1, "")
    assert outcome["operationen"] < (outcome["operationen_vorher"] or 0)
    assert "Broadcast fehlerhaft" in outcome["urteil"][0]
    je = ganz["kennzahlen"]["je_operation"]
    assert outcome["urteil"][-1].startswith(f"{je:.1f} Nachrichten zwischen Knoten je Operation")


ECHO = """
class Echo(Knoten):
    def bei_echo(self, nachricht):
        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})
"""


ENDLOS = START.replace(
    '        if n["message"] not in self.werte:',
    '        while True:  # never ends\n            pass\n        if n["message"] not in self.werte:',
)


def test_an_endless_handler_gets_a_german_verdict_and_a_correct_node_passes_after_it() -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges

    assert ENDLOS != START
    klasse, vorgabe = _geladen(ENDLOS)
    for urteilen in (True, False):
        outcome = challenges.seed_outcome(klasse, vorgabe, 1, "", urteilen=urteilen)
        assert outcome["ok"] is False and outcome["error"] is None
        assert outcome["urteil"][0].startswith("Der Handler bei_broadcast von n")
        assert "endet nicht" in outcome["urteil"][0] and "Zeile" in outcome["urteil"][0]
        assert outcome["svg"].startswith("<svg")
    klasse, _ = run_sync(lambda: challenges.load_node(LOESUNG))
    assert klasse is not None
    assert challenges.seed_outcome(klasse, vorgabe, 1, "")["ok"] is True


def test_an_endless_start_has_a_verdict_without_a_picture() -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges

    code = "class K(Knoten):\n    def beim_start(self):\n        while True:\n            pass\n"
    klasse, _ = run_sync(lambda: challenges.load_node(code))
    assert klasse is not None
    vorgabe = challenges.Vorgabe("broadcast", knoten=3, seeds=1)
    outcome = challenges.seed_outcome(klasse, vorgabe, 1, "")
    assert outcome["ok"] is False and outcome["svg"] == ""
    assert outcome["urteil"][0].startswith("Der Aufruf von beim_start von n1 endet nicht")


def test_a_failing_verdict_names_each_client_as_the_picture_does() -> None:
    import re

    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges

    vorgabe = challenges.Vorgabe("broadcast", knoten=5, stoerungen=("teilung",), seeds=3)
    klasse, _ = run_sync(lambda: challenges.load_node(START))
    assert klasse is not None
    gescheitert = [
        o
        for o in (challenges.seed_outcome(klasse, vorgabe, s, "") for s in (1, 2, 3))
        if not o["ok"]
    ]
    assert gescheitert
    for outcome in gescheitert:
        urteil = " ".join(outcome["urteil"])
        assert "Prozess" not in urteil, urteil
        namen = set(re.findall(r"Client (c\d+)", urteil))
        assert namen, urteil
        spalten = set(re.findall(r">(c\d+)</text>", outcome["svg"]))
        assert namen <= spalten, (namen, spalten)


def test_the_loop_budget_still_works_after_the_build_stopped_an_endless_block() -> None:
    # The build's time limit stops a block with an asynchronous exception; afterwards a
    # trace function (the loop budget in CPython 3.11) must neither spin nor miss a loop.
    import pytest

    from lessonkit.build import timelimit
    from pysim.cluster import Broadcast, LaufAbgebrochen, lauf
    from tests.pysim.knoten_beispiele import Endlos

    with timelimit.time_limit(0.2) as limit:
        try:
            while True:
                pass
        except timelimit.BuildTimeout:
            pass
    assert limit.expired
    with pytest.raises(LaufAbgebrochen, match="Der Handler bei_broadcast von n1 endet nicht"):
        lauf(Endlos, Broadcast(), knoten=3, seed=1)


def test_a_late_partition_is_named_on_the_page_and_outlasts_the_load() -> None:
    from lessonkit.runtime import challenges
    from pysim.cluster import Knoten

    vorgabe = challenges.vorgabe_aus_optionen(
        {"last": "g-counter", "stoerungen": "teilung, nachlauf"}
    )
    assert vorgabe.stoerungen == ("teilung", "nachlauf")
    text = vorgabe.beschreibung()
    assert "3 Störungen (teilung), die letzte eine Netzpartition" in text
    assert "erst nach der letzten Anfrage der Clients heilt" in text
    klasse = type("Leer", (Knoten,), {})
    run = vorgabe.laufe(klasse, 1)
    assert run.geheilt > vorgabe.dauer
    assert run.stoerungen[-1].art == "heile" and run.stoerungen[-1].zeit == run.geheilt


def test_the_page_names_targeted_faults_and_that_faults_last_until_the_load_ends() -> None:
    from lessonkit.runtime import challenges

    register = challenges.vorgabe_aus_optionen(
        {"last": "lin-kv", "stoerungen": "isolation, leader, follower"}
    ).beschreibung()
    assert "3 Störungen (isolation, leader, follower) bis zum Ende der Last" in register
    assert "leader isoliert den Leader, während ein Schreiben unterwegs ist" in register
    assert "follower isoliert einen Follower" in register
    lease = challenges.vorgabe_aus_optionen(
        {"last": "lease-kv", "stoerungen": "pause, inhaber"}
    ).beschreibung()
    assert "inhaber hält den Inhaber der Lease zwischen Prüfen und Schreiben an" in lease
    doppelt = challenges.vorgabe_aus_optionen(
        {"last": "lease-kv", "stoerungen": "inhaber, inhaber, antwort"}
    ).beschreibung()
    # A kind listed twice is drawn twice as often, and the page says so once.
    assert "(inhaber (2-mal so oft), antwort)" in doppelt
    assert doppelt.count("inhaber hält") == 1
    assert "antwort lässt die Antwort eines Dienstes" in doppelt
    ids = challenges.vorgabe_aus_optionen(
        {"last": "unique-ids", "stoerungen": "absturz, uhr"}
    ).beschreibung()
    assert "nach einem Absturz geht die Uhr des Knotens nach" in ids
    assert "bis zum Ende" not in challenges.Vorgabe("echo").beschreibung()


#: The lease stage's node without a token (a design the page lists as wrong), printing the
#: token of every lease it gets: what a reader debugging challenge 7 would write.
DRUCKT_TOKEN = LEASE_OHNE_TOKEN.replace(
    "        marke = {}\n", '        print("Token", lease["token"])\n        marke = {}\n'
)


def test_a_shown_run_carries_what_its_nodes_printed_and_its_messages() -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges
    from pysim.cluster.bild import MAX_NACHRICHTEN

    assert DRUCKT_TOKEN != LEASE_OHNE_TOKEN
    vorgabe = challenges.Vorgabe(
        "lease-kv", stoerungen=("inhaber", "inhaber", "antwort"), anzahl_stoerungen=3, seeds=40
    )
    klasse, error = run_sync(lambda: challenges.load_node(DRUCKT_TOKEN))
    assert error is None and klasse is not None
    outcomes = [challenges.seed_outcome(klasse, vorgabe, seed, "") for seed in range(1, 6)]
    passed = [o for o in outcomes if o["ok"]]
    failed = next(o for o in outcomes if o["ok"] is False)
    # A passed seed of Prüfen is one line on the page: nothing to send.
    assert passed and all(not o["protokoll"] and not o["nachrichten"] for o in passed)
    # The shrunk run: each print with its tick and node, in the order they happened.
    zeilen = failed["protokoll"]
    assert zeilen and all(z["art"] == "ausgabe" for z in zeilen)
    assert all(
        re.fullmatch(r"Token \d+", z["text"]) and z["knoten"] in ("n1", "n2", "n3") for z in zeilen
    )
    assert [z["zeit"] for z in zeilen] == sorted(z["zeit"] for z in zeilen)
    tokens = [int(z["text"].split()[1]) for z in zeilen]
    assert tokens == sorted(tokens), "the lock service hands out growing tokens"
    # Its messages as the picture draws them: a lease's token is in a body.
    nachrichten = failed["nachrichten"]
    assert 0 < len(nachrichten) <= MAX_NACHRICHTEN and failed["nachrichten_weggelassen"] == 0
    vergabe = next(m for m in nachrichten if m["von"] == "lease" and '"token"' in m["inhalt"])
    assert vergabe["schicksal"] == "angekommen" and vergabe["ankunft"] is not None
    assert vergabe["inhalt"].startswith('{"type": "acquire_ok"')
    # Replayed from its identity: the same run, the same lines; passing or not, a replay
    # shows its run (picture, log, messages).
    again = challenges.replay(klasse, vorgabe, failed["kennung"], "")
    assert again["protokoll"] == zeilen and again["nachrichten"] == nachrichten
    gut = challenges.replay(klasse, vorgabe, passed[0]["kennung"], "")
    assert gut["ok"] is True and gut["svg"].startswith("<svg") and gut["protokoll"]
    # Ausführen: seed 1 unjudged, shown.
    only_run = challenges.seed_outcome(klasse, vorgabe, 1, "", urteilen=False)
    assert only_run["protokoll"] and only_run["nachrichten"]
    # Code that does not run: nothing of either.
    kaputt = challenges.failed_to_load("SyntaxError", 1)
    assert (kaputt["protokoll"], kaputt["nachrichten"], kaputt["nachrichten_weggelassen"]) == (
        [],
        [],
        0,
    )


def test_a_shown_run_with_more_messages_than_its_picture_draws_says_how_many_are_left_out() -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges
    from pysim.cluster.bild import MAX_NACHRICHTEN

    vorgabe = challenges.Vorgabe("broadcast", knoten=5, dauer=200, seeds=1)
    klasse, error = run_sync(lambda: challenges.load_node(LOESUNG))
    assert error is None and klasse is not None
    outcome = challenges.seed_outcome(klasse, vorgabe, 1, "", urteilen=False)
    assert len(outcome["nachrichten"]) == MAX_NACHRICHTEN
    assert outcome["nachrichten_weggelassen"] > 0
    assert outcome["protokoll"] == []


#: Identities a reader might paste that no run of the page has: each is named in German,
#: before anything runs (``o0-999999999`` once listed a billion numbers and held Python until
#: the page restarted it).
ABSURD = [
    ("broadcast/k5/s1/d100//o0-999999999", "nennt Operation 999.999.999"),
    ("broadcast/k1000/s1/d100/", "verlangt 1.000 Knoten; hier laufen höchstens 5"),
    ("broadcast/k5/s99999999999/d100/", "Der Seed 99.999.999.999 der Kennung liegt nicht"),
    ("broadcast/k5/s1/d5000/", "verlangt 5.000 Ticks Last; hier sind es höchstens 100"),
    ("broadcast/k5/s1/d100/12:teile:n1|n9", "einen Knoten 'n9' gibt es nicht"),
    ("broadcast/k5/s1/d100/12;teile", "Der Störplan ist an Stelle 1 („12“) nicht lesbar"),
    ("broadcast/k5/s1/d100/500:absturz:n2", "liegt bei t=500"),
    ("echo/k5/s1/d100/", "ein Lauf der Last „echo“; hier läuft die Last „broadcast“"),
    ("broadcast/k5/s1/d100/" + "1:heile;" * 300, "Die Kennung hat 2.421 Zeichen"),
]


@pytest.mark.parametrize(("kennung", "sagt"), ABSURD)
def test_an_absurd_identity_is_named_and_nothing_runs(kennung: str, sagt: str) -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import bridge, challenges
    from pysim.fehler import UngueltigeEingabe

    vorgabe = challenges.Vorgabe("broadcast", knoten=5, stoerungen=("teilung",), seeds=3)
    fehler = challenges.kennung_fehler(vorgabe, kennung)
    assert fehler is not None and sagt in fehler
    # The page asks first (``challenge.check_id``), so a wrong identity changes nothing there.
    args = json.dumps({"vorgabe": vorgabe.als_dict(), "kennung": kennung})
    assert json.loads(run_sync(lambda: bridge.call("challenge.check_id", args))) == fehler
    klasse, _ = run_sync(lambda: challenges.load_node(START))
    assert klasse is not None
    with pytest.raises(UngueltigeEingabe, match=re.escape(fehler)):
        challenges.replay(klasse, vorgabe, kennung, "")


def test_every_identity_the_pages_runs_give_is_within_their_limits() -> None:
    """What Prüfen shows can be replayed: each seed's run of each challenge of the course
    (its solution, with the targeted faults it provokes) has an identity its page accepts."""
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime import challenges
    from tests.lessonkit.wrong_nodes import page_challenges

    found = page_challenges()
    assert len(found) >= 10
    for challenge in (entry.exercise for entry in found):
        vorgabe = challenge.vorgabe
        klasse, error = run_sync(lambda code=challenge.loesung: challenges.load_node(code))
        assert klasse is not None, error
        for seed in range(1, vorgabe.seeds + 1):
            kennung = vorgabe.laufe(klasse, seed).kennung
            assert challenges.kennung_fehler(vorgabe, kennung) is None, (challenge.id, kennung)


def test_a_register_run_shows_when_each_operation_took_effect_and_what_the_nodes_hold() -> None:
    """Porcupine's linearization points on a register's picture, and the panel of each node's
    ``zustand()``; a broadcast run has no points, a node that shows nothing no panel."""
    from lessonkit.build.execute import run_sync
    from lessonkit.fences.workbench import REGISTER
    from lessonkit.runtime import challenges

    vorgabe = challenges.Vorgabe("lin-kv", knoten=3, stoerungen=(), seeds=1)
    zeigt = REGISTER + "\n    def zustand(self):\n        return {'werte': dict(self.werte)}\n"
    for code, panel in ((REGISTER, False), (zeigt, True)):
        klasse, error = run_sync(lambda code=code: challenges.load_node(code))
        assert error is None and klasse is not None
        outcome = challenges.seed_outcome(klasse, vorgabe, 1, "", urteilen=False, zeigen=True)
        assert 'class="linearisierungspunkt"' in outcome["svg"]
        assert ('class="zustand"' in outcome["svg"]) is panel
        assert ("Zustand der Knoten am Ende" in outcome["svg"]) is panel
    broadcast = challenges.Vorgabe("broadcast", knoten=3, stoerungen=(), seeds=1)
    klasse, _ = run_sync(lambda: challenges.load_node(START))
    assert klasse is not None
    outcome = challenges.seed_outcome(klasse, broadcast, 1, "", urteilen=False, zeigen=True)
    assert outcome["svg"].startswith("<svg") and "linearisierungspunkt" not in outcome["svg"]


def test_a_wrong_attempt_that_names_a_rule_must_fail_with_that_rule(tmp_path: Path) -> None:
    """``--- fehlversuch „Name“`` in a challenge: the verdict of its first failing seed (what a
    reader with this mistake sees) names the rule, else the build says which verdict came."""
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, page(BROADCAST, extra="--- fehlversuch „Ein Leader je Term“\n" + START))
    message = caught.value.message
    assert "Der Fehlversuch soll an „Ein Leader je Term“ scheitern" in message
    assert "scheitert bei Seed 1" in message
    # the verdict it got instead, so that the author sees which rule it breaks
    assert "fehlen" in message or "kennt" in message
    # named with a rule its verdict names: the page builds
    convert(
        tmp_path, page(BROADCAST, extra="--- fehlversuch „Ein Leader je Term“ „fehlen“\n" + START)
    )
