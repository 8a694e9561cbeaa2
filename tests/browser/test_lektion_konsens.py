"""Lesson "Konsens: Leader-Wahl und Raft" in the browser: build results and pictures, a
cell run live, the two predictions, the vote-rule code task (judged by pruefe_wahl in the
reader's Python), the console task with the old leader, the diagnosis, the closing quiz and the pictures on a phone."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Cell, Exercise, assert_fits_a_phone, phone_page, run_cell_live

pytestmark = pytest.mark.browser

LESSON = "lektionen/konsens-raft/"
#: pruefe_wahl runs, and for a wrong rule shrinks, dozens of fault schedules in Pyodide.
SLOW = 180_000

ONE_VOTE_ONLY = """def stimme(a):
    return (a.term == a.mein_term
            and a.meine_stimme in (None, a.kandidat))
"""


def test_page_shows_build_results_pictures_and_typescript(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    expect(page.locator("h1")).to_contain_text("Konsens: Leader-Wahl und Raft")
    wahl = Cell.only_one_with(page, "sim = RaftSim(3, seed=1)\nsim.tick(40)\nfor t, text")
    expect(wahl.text).to_contain_text("t= 21  n2 ist Leader in Term 1")
    expect(wahl.root.locator("output svg title")).to_have_text("Raft bei t=40, Leader n2")
    minderheit = page.locator("[data-lk-cell]", has_text='sim.trenne(["n2", "n1"])').first
    expect(minderheit.locator("output svg title")).to_have_text("Raft bei t=140, Leader n3")
    fake = page.locator("[data-lk-ts]", has_text="class FakeEtcd")
    expect(fake).to_contain_text("b: angenommen (#3)")
    expect(fake).to_contain_text("put: kein Quorum: 2 von 3 nötig")
    tabelle = page.locator("[data-lk-ts]", has_text="UEBERGAENGE")
    expect(tabelle).to_contain_text("mehrheit → Leader")


def test_the_flapping_network_cell_runs_alike_in_the_browser(page: Page, site_url: str) -> None:
    cell = run_cell_live(page, site_url + LESSON, "def flattern(seed")
    expect(cell.text).to_have_text("Term am Ende: 10\n{'fail': 2, 'info': 8, 'ok': 29}\nTrue []\n")


def test_who_can_lead_after_the_partition(page: Page, site_url: str) -> None:
    prediction = Exercise.opened(page, site_url + LESSON + "#raft-wer-leader")
    prediction.predict_wrong_then_right(
        "('n5', 'Kandidat')", "('n4', 'Kandidat')", says="Der erste von 2 Werten stimmt nicht."
    )


def test_which_entries_survive(page: Page, site_url: str) -> None:
    prediction = Exercise.opened(page, site_url + LESSON + "#raft-was-ueberlebt")
    prediction.predict_wrong_then_right("[1, 41]", "[1]")


def test_the_vote_rule_fails_without_the_up_to_date_check_and_passes_with_it(
    page: Page, site_url: str
) -> None:
    task = Exercise.opened(page, site_url + LESSON + "#raft-stimmregel")
    expect(task.editor).to_be_visible(timeout=60_000)
    task.root.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    expect(task.failed_checks.first).to_contain_text("Höchstens eine Stimme je Term", timeout=SLOW)
    task.expect_unsolved()
    task.replace_code(ONE_VOTE_ONLY)
    task.root.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    expect(task.failed_checks.first).to_contain_text("Mindestens so aktuell", timeout=SLOW)
    expect(task.failed_checks.filter(has_text="40 Störungspläne")).to_contain_text(
        "Seed 11: Der festgeschriebene Eintrag 1 (Term 2, leer) fehlt im Log von n3"
    )
    task.expect_unsolved()
    data = json.loads(task.root.locator(".lk-exercise__data").get_attribute("data-lk-json") or "{}")
    task.replace_code(data["loesung"])
    expect(task.check()).to_have_text(re.compile("Gelöst"), timeout=SLOW)
    task.expect_solved()


def test_the_old_leaders_write_stays_open_and_the_cluster_heals(page: Page, site_url: str) -> None:
    task = Exercise.opened(page, site_url + LESSON + "#raft-alter-leader")
    task.root.scroll_into_view_if_needed()
    task.type("partition n2", "write x 2 to n2", "tick 50", "write x 3", "tick 10")
    task.check_fails("Nach der Heilung hat der alte Leader das Log des neuen")
    task.type("heal", "tick 30")
    task.check_solved()


def test_the_diagnosis_and_the_closing_quiz(page: Page, site_url: str) -> None:
    diagnosis = Exercise.opened(page, site_url + LESSON + "#raft-diagnose")
    diagnosis.root.scroll_into_view_if_needed()
    diagnosis.choose_wrong(re.compile("Zwei Leader im selben Term"))
    diagnosis.choose_right(re.compile("Die Aktualitätsregel"))
    test = Exercise.by_id(page, "raft-test")
    test.root.scroll_into_view_if_needed()
    test.choose_wrong(re.compile("Ein Cluster aus vier Knoten"), re.compile("höchstens zwei"))
    test.untick(re.compile("höchstens zwei"))
    test.choose_right(
        re.compile("Bekommt ein Client einen Timeout"),
        re.compile("Zwei Knoten können sich gleichzeitig"),
    )


def test_pictures_fit_a_phone(browser: object, site_url: str) -> None:
    with phone_page(browser, site_url + LESSON) as page:
        assert_fits_a_phone(page, "[data-lk-cell] svg")
