"""Lesson "Replikation und Konsistenz" in the browser: build results, a cell, the replik
console, the predictions, the code task, the console task, the quizzes, pictures on a phone.

The rows this lesson would have in test_lektionen.py's tables are here, so the shared
table stays untouched while the lesson is new."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Cell, Console, Exercise, assert_fits_a_phone, phone_page

pytestmark = pytest.mark.browser

LESSON = "lektionen/replikation/"

TOKEN_LOESUNG = """def lies(speicher, key, token):
    for name in speicher.namen:
        if name != speicher.leader and speicher.stand(name) >= token:
            return speicher.read(key, von=name).wert
    return speicher.read(key).wert
"""


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    expect(page.locator("h1")).to_contain_text("Replikation und Konsistenz")
    cell = page.locator("[data-lk-cell]", has_text='s.read("name", von="n2")').first
    expect(cell).to_contain_text("n2 bei t = 1 liest None")
    expect(page.locator("[data-lk-ts]").first).to_contain_text("sofort: Mira")
    console = page.locator("[data-lk-console][data-kind=replik]").first
    expect(console.locator(".lk-console__head")).to_contain_text("Replik-Konsole")
    expect(console.locator(".lk-console__log")).to_contain_text("n2 liest x → None")
    expect(console.locator(".lk-console__picture svg title")).to_contain_text("Leader n1")


def test_a_cell_runs_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    cell = Cell.only_one_with(page, 'for wert in ["a", "b", "c", "d"]')
    cell.run()
    expect(cell.output).to_contain_text("verloren: ['d']", timeout=60_000)


def test_console_shows_a_stale_read_and_its_verdict(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    console = Console.first(page, kind="replik")
    console.expect_answer("history", "Nicht linearisierbar")
    console.expect_answer("tick 2", "Zeit: t=4 (+2).")
    console.expect_answer("read x from n2", "n2 liest x → 1")
    expect(console.picture.locator("svg")).to_contain_text("Urteil: nicht linearisierbar")
    entry = console.command("failover n1")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("schon der Leader")


def test_predictions_refuse_wrong_and_take_right(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    lag = Exercise.by_id(page, "replik-lag-vorhersage")
    lag.predict_wrong_then_right("[2, 1]", "[1, None]")
    failover = Exercise.by_id(page, "replik-failover-vorhersage")
    failover.predict_wrong_then_right("['c']", "['b', 'c']")


def test_code_task_start_fails_and_a_solution_passes(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    task = Exercise.by_id(page, "replik-token")
    task.check_fails("Ein Follower mit Lag 3")
    task.replace_code(TOKEN_LOESUNG)
    task.check_solved()


def test_console_task_right_and_wrong(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    task = Exercise.by_id(page, "replik-quorum")
    task.type("quorum 3 1 1")
    task.check_fails("Nach der Rückkehr")
    task.type("quorum 3 2 2")
    task.check_solved()


def test_diagnosis_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    quiz = Exercise.by_id(page, "replik-diagnose")
    quiz.choose_wrong(re.compile("Es fehlte monotonic reads"))
    quiz.untick(re.compile("Es fehlte monotonic reads"))
    quiz.choose_right(re.compile("Es fehlte read-your-writes"), re.compile("Ein Versions-Token"))


def test_pictures_fit_a_phone(browser: object, site_url: str) -> None:
    with phone_page(browser, site_url + LESSON) as page:
        assert_fits_a_phone(page, ".lk-console__picture svg")
