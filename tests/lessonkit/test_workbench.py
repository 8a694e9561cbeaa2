"""The workbench (``werkbank``): the fence offers every workload with a starting node the build
proves wrong, every fault kind and the limits; the bridge's ``workbench.seed`` reads the form's
choices in Python, names each bad one in German and then runs nothing, and runs good ones as
a challenge's seed (Ausführen whole, with its picture also when it passes; Prüfen shrunk)."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from lessonkit.authoring.page_rules import MAX_CODE_CHARS
from lessonkit.build import contract
from lessonkit.build.errors import LessonError
from lessonkit.build.execute import run_sync
from lessonkit.fences import workbench as workbench_fence
from lessonkit.runtime import bridge, challenges, workbench
from pysim.cluster import FENSTER
from pysim.cluster.lasten import LASTEN
from pysim.cluster.stoerungen import GEZIELT_TEXT
from tests.lessonkit.seiten import convert
from tests.pysim.knoten_beispiele import ECHO

PAGE = "herausforderungen/werkbank.md"


def site(tmp_path: Path, fence: str = '```werkbank last="lin-kv"\n```\n') -> BeautifulSoup:
    """The workbench on its page below herausforderungen/, beside the challenge pages it links."""
    folder = tmp_path / "docs" / "herausforderungen"
    folder.mkdir(parents=True, exist_ok=True)
    for name, angebot in workbench_fence.ANGEBOT.items():
        (tmp_path / "docs" / angebot.seite).write_text(f"# Seite {name}\n", encoding="utf-8")
    return convert(tmp_path, "# Werkbank\n\n" + fence, name=PAGE)


def data_of(soup: BeautifulSoup) -> dict[str, Any]:
    element = soup.select_one("[data-lk-werkbank] > .lk-werkbank__data")
    assert element is not None
    return dict(json.loads(str(element["data-lk-json"])))


def keys_of(shape: type) -> set[str]:
    return set(typing.get_type_hints(shape))


def test_the_block_offers_every_workload_fault_and_limit_with_the_contracts_shape(
    tmp_path: Path,
) -> None:
    soup = site(tmp_path)
    data = data_of(soup)
    assert set(data) == keys_of(contract.WorkbenchData)
    assert [w["name"] for w in data["lasten"]] == list(workbench_fence.ANGEBOT)
    assert {w["name"] for w in data["lasten"]} == set(LASTEN)
    for choice in data["lasten"]:
        assert set(choice) == keys_of(contract.WorkloadChoice)
        angebot = workbench_fence.ANGEBOT[choice["name"]]
        # A link from herausforderungen/werkbank/ to the sibling page, and its title.
        page = angebot.seite.removeprefix("herausforderungen/").removesuffix(".md")
        assert choice["seite"] == f"../{page}/"
        assert choice["titel"] == f"Seite {choice['name']}"
        assert choice["start"] == angebot.start
    assert [s["name"] for s in data["stoerungen"]] == list(FENSTER)
    for kind in data["stoerungen"]:
        assert set(kind) == keys_of(contract.FaultChoice)
        assert kind["gezielt"] == (kind["name"] in GEZIELT_TEXT)
        if kind["gezielt"]:  # the challenge pages' own sentence
            assert kind["text"] == GEZIELT_TEXT[kind["name"]]
    assert data["grenzen"] == {
        "max_knoten": 9,
        "min_dauer": workbench.MIN_DAUER,
        "max_dauer": workbench.MAX_DAUER,
        "max_fenster": workbench.MAX_FENSTER,
        "max_seed": workbench.MAX_SEED,
        "max_seeds": 100,
    }
    assert data["felder"] == workbench.FELDER
    assert data["voreinstellung"] == {**workbench.VOREINSTELLUNG, "last": "lin-kv"}


def test_without_javascript_the_block_says_in_german_what_it_offers(tmp_path: Path) -> None:
    offer = site(tmp_path).select_one(".lk-werkbank__offer")
    assert offer is not None
    text = " ".join(offer.get_text().split())
    assert text.startswith("Die Werkbank braucht JavaScript.")
    for name, angebot in workbench_fence.ANGEBOT.items():
        assert f"{name}: {angebot.prueft}" in text
    links = [a["href"] for a in offer.select("a")]
    assert links == [
        "../" + a.seite.removeprefix("herausforderungen/").removesuffix(".md") + "/"
        for a in workbench_fence.ANGEBOT.values()
    ]
    for kind in FENSTER:
        assert f"{kind}" in text and workbench_fence.STOERUNG_TEXT[kind] in text
    assert "1 bis 9 Knoten" in text and "„Prüfen“ über 1 bis 100 Läufe" in text


@pytest.mark.parametrize(
    ("fence", "says"),
    [
        ("```werkbank\nclass A(Knoten): pass\n```\n", "Der Block „werkbank“ bleibt leer"),
        ('```werkbank last="kaffee"\n```\n', "last=„kaffee“ gibt es nicht"),
        ('```werkbank\n```\n\n```werkbank last="echo"\n```\n', "höchstens eine Werkbank"),
    ],
)
def test_an_authors_mistake_is_named_in_german(tmp_path: Path, fence: str, says: str) -> None:
    with pytest.raises(LessonError) as caught:
        site(tmp_path, fence)
    assert says in caught.value.message


def test_a_missing_challenge_page_fails_the_build(tmp_path: Path) -> None:
    site(tmp_path)
    (tmp_path / "docs" / "herausforderungen" / "lease.md").unlink()
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, "```werkbank\n```\n", name=PAGE)
    assert "die Seite „herausforderungen/lease.md“ gibt es nicht" in caught.value.message


def test_every_workload_and_fault_kind_has_its_entry_and_the_starting_code_fits_a_phone() -> None:
    assert set(workbench_fence.ANGEBOT) == set(LASTEN)
    assert set(workbench_fence.STOERUNG_TEXT) == set(FENSTER)
    for name, angebot in workbench_fence.ANGEBOT.items():
        assert angebot.probe.last == name
        for line in angebot.start.splitlines():
            assert len(line) <= MAX_CODE_CHARS, (name, line)


STUMMES_ECHO = """\
class EchoKnoten(Knoten):
    def bei_echo(self, nachricht):
        self.sende(nachricht.src, {"type": "echo_ok", "echo": "?"})
"""


@pytest.mark.parametrize(
    ("start", "says"),
    [
        (ECHO, "besteht alle 3 Läufe"),
        (STUMMES_ECHO, "in keinem der 3 Läufe bekam ein Client eine Antwort"),
        ("x = 1", "läuft nicht"),
    ],
    ids=["passes", "never-answers", "no-node"],
)
def test_the_build_proves_each_starting_node_answers_and_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: str, says: str
) -> None:
    echo = workbench_fence.ANGEBOT["echo"]
    monkeypatch.setitem(
        workbench_fence.ANGEBOT,
        "echo",
        workbench_fence.Angebot(echo.prueft, echo.seite, start, echo.probe),
    )
    with pytest.raises(LessonError) as caught:
        site(tmp_path)
    assert "Werkbank: Der Startknoten für „echo“" in caught.value.message
    assert says in caught.value.message


# --- the bridge's call ---------------------------------------------------------------------

#: A lin-kv node that keeps each value on its own node: wrong with more than one node.
JEDER_FUER_SICH = workbench_fence.REGISTER
#: What the form of the browser test sends: lin-kv, 3 nodes, partitions.
TEILUNG = {
    **workbench.VOREINSTELLUNG,
    "last": "lin-kv",
    "stoerungen": "teilung",
    "dauer": "60",
}


def call(code: str, optionen: dict[str, Any], pruefen: bool = False) -> dict[str, Any]:
    """``workbench.seed`` as the page calls it: JSON in, JSON out."""
    args = json.dumps({"code": code, "optionen": optionen, "pruefen": pruefen})
    answer: dict[str, Any] = json.loads(run_sync(lambda: bridge.call("workbench.seed", args)))
    assert set(answer) == keys_of(contract.WorkbenchOutcomeData)
    return answer


def test_ausfuehren_judges_the_forms_seed_and_shows_the_whole_run() -> None:
    answer = call(JEDER_FUER_SICH, TEILUNG)
    assert answer["fehler"] == []
    assert answer["beschreibung"].startswith("Last „lin-kv“ mit 3 Knoten, 60 Ticks, je Lauf 3")
    assert answer["beschreibung"].endswith("Seed 1.")
    outcome = answer["ergebnis"]
    assert set(outcome) == keys_of(contract.SeedOutcomeData)
    assert outcome["ok"] is False and outcome["seed"] == 1
    assert outcome["urteil"][0].startswith("Nicht linearisierbar")
    assert outcome["kennung"].startswith("lin-kv/k3/s1/d60/")
    assert "teile" in outcome["kennung"]
    assert outcome["operationen_vorher"] is None  # shown whole, not shrunk
    assert outcome["svg"].startswith("<svg")


def test_ausfuehren_of_a_passing_node_still_draws_its_run() -> None:
    answer = call(ECHO, {**workbench.VOREINSTELLUNG, "seed": "7"})
    outcome = answer["ergebnis"]
    assert outcome["ok"] is True and outcome["urteil"] == [] and outcome["seed"] == 7
    assert outcome["svg"].startswith("<svg")


def test_pruefen_runs_seed_after_seed_and_shrinks_the_one_that_fails() -> None:
    answer = call(JEDER_FUER_SICH, {**TEILUNG, "seed": "1", "seeds": "3"}, pruefen=True)
    outcome = answer["ergebnis"]
    assert answer["beschreibung"].endswith("„Prüfen“ hält beim ersten an, der scheitert.")
    assert outcome["ok"] is False
    assert outcome["operationen"] < (outcome["operationen_vorher"] or 0)
    # A passed seed of Prüfen is one line on the page: no picture to draw or send.
    passed = call(ECHO, {**workbench.VOREINSTELLUNG, "seed": "2"}, pruefen=True)
    assert passed["ergebnis"]["ok"] is True and passed["ergebnis"]["svg"] == ""


def test_code_without_a_node_is_the_readers_error_in_german() -> None:
    outcome = call("x = 1", TEILUNG)["ergebnis"]
    assert outcome["error"].startswith("Dein Code definiert keinen Knoten")


#: A bad value per field, and what the German message says about it.
BAD = [
    ("last", "kaffee", "Last: „kaffee“ gibt es nicht. Es gibt: broadcast, echo"),
    ("knoten", "0", "Knoten: „0“ ist keine ganze Zahl von 1 bis 9."),
    ("knoten", "10", "Knoten: „10“ ist keine ganze Zahl von 1 bis 9."),
    ("knoten", "drei", "Knoten: „drei“ ist keine ganze Zahl von 1 bis 9."),
    ("dauer", "5000", "Dauer: „5000“ ist keine ganze Zahl von 10 bis 300."),
    ("dauer", "1e3", "Dauer: „1e3“ ist keine ganze Zahl"),
    ("stoerungen", "teilung, erdbeben", "Störungen: „erdbeben“ gibt es nicht. Es gibt: teilung"),
    ("anzahl_stoerungen", "0", "Störfenster je Lauf: „0“ ist keine ganze Zahl von 1 bis 10."),
    ("verlust_prozent", "150", "Nachrichtenverlust: „150“ ist keine Zahl von 0 bis 100"),
    ("verlust_prozent", "nan", "Nachrichtenverlust: „nan“ ist keine Zahl von 0 bis 100"),
    ("verlust_prozent", "-5", "Nachrichtenverlust: „-5“ ist keine Zahl von 0 bis 100"),
    ("seed", "-1", "Seed: „-1“ ist keine ganze Zahl von 1 bis 1.000.000."),
    ("seed", "9" * 12, "Seed: „999999999999“ ist keine ganze Zahl"),
    ("seeds", "101", "Läufe für „Prüfen“: „101“ ist keine ganze Zahl von 1 bis 100."),
    ("seeds", "", "Läufe für „Prüfen“: „“ ist keine ganze Zahl von 1 bis 100."),
]


@pytest.fixture
def nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's code must not even be loaded when the choices are bad."""

    async def refuse(code: str) -> Any:
        raise AssertionError("the reader's code ran despite bad choices")

    monkeypatch.setattr(challenges, "load_node", refuse)


@pytest.mark.parametrize(("feld", "wert", "says"), BAD, ids=[f"{f}={w[:8]}" for f, w, _ in BAD])
@pytest.mark.usefixtures("nothing_runs")
def test_a_bad_choice_is_named_in_german_and_nothing_runs(feld: str, wert: str, says: str) -> None:
    answer = call(JEDER_FUER_SICH, {**TEILUNG, feld: wert})
    assert answer["ergebnis"] is None and answer["beschreibung"] == ""
    assert [p["feld"] for p in answer["fehler"]] == [feld]
    assert answer["fehler"][0]["text"].startswith(says), answer["fehler"][0]["text"]


@pytest.mark.usefixtures("nothing_runs")
def test_every_bad_choice_is_named_at_once_in_the_forms_order() -> None:
    bad = {**TEILUNG, "seeds": "0", "knoten": "99", "gift": "1", "dauer": 100}
    answer = call(JEDER_FUER_SICH, bad)
    assert [p["feld"] for p in answer["fehler"]] == ["knoten", "dauer", "seeds", "gift"]
    texts = [p["text"] for p in answer["fehler"]]
    assert texts[1] == "Dauer: Die Angabe ist kein Text, sondern 100."
    assert texts[3] == "Die Werkbank kennt die Angabe „gift“ nicht."


@pytest.mark.usefixtures("nothing_runs")
def test_pruefen_runs_only_its_own_seeds() -> None:
    answer = call(JEDER_FUER_SICH, {**TEILUNG, "seed": "6", "seeds": "5"}, pruefen=True)
    assert answer["fehler"] == [
        {
            "feld": "seed",
            "text": "Seed: „Prüfen“ läuft über die Seeds 1 bis 5; Seed 6 gehört nicht dazu.",
        }
    ]


def test_good_choices_become_the_challenges_vorgabe() -> None:
    wahl = workbench.lies_wahl(
        {
            **workbench.VOREINSTELLUNG,
            "last": "broadcast",
            "knoten": " 5 ",
            "stoerungen": "teilung, nachlauf",
            "verlust_prozent": "12,5",
            "seed": "42",
        }
    )
    assert wahl.seed == 42
    assert wahl.vorgabe == challenges.Vorgabe(
        "broadcast",
        knoten=5,
        dauer=100,
        stoerungen=("teilung", "nachlauf"),
        anzahl_stoerungen=3,
        seeds=5,
        verlust=0.125,
    )
    # Missing fields take the form's first choices.
    assert workbench.lies_wahl({}).vorgabe == challenges.Vorgabe("echo")


def test_the_pages_table_names_every_workload_once_with_its_challenge() -> None:
    """docs/herausforderungen/werkbank.md says in its own words what each checker checks: one
    row per workload the block offers, linking the same challenge."""
    text = (Path(__file__).resolve().parents[2] / "docs" / PAGE).read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \| [^|]+ \| \[[^\]]+\]\(([a-z-]+\.md)\) \|$", text, re.M)
    assert [name for name, _ in rows] == list(workbench_fence.ANGEBOT)
    for name, link in rows:
        assert f"herausforderungen/{link}" == workbench_fence.ANGEBOT[name].seite
    assert re.search(r"^```werkbank\b", text, re.M)
