"""Lesson "Leases, Sperren und Fencing Tokens" in the browser: build results, a cell run
live, the prediction, the code task, the quizzes and the pictures on a phone.

Kept in this module (not yet as rows of test_lektionen.py, which another branch owns)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Exercise, assert_fits_a_phone, phone_page, run_cell_live

pytestmark = pytest.mark.browser

LESSON = "lektionen/leases-fencing/"


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    expect(page.locator("h1")).to_contain_text("Leases, Sperren und Fencing Tokens")
    pause = page.locator("[data-lk-cell]", has_text="pausen=[(5, 12)]").first
    expect(pause).to_contain_text("t=18  Speicher nimmt an: 'a schreibt' mit Token #1")
    expect(pause.locator("svg title")).to_have_text("Leases ohne Fencing bei t=18")
    ts = page.locator("[data-lk-ts]").first
    expect(ts).to_contain_text("a mit #1: abgelehnt")


def test_the_count_of_many_runs_is_the_same_live(page: Page, site_url: str) -> None:
    cell = run_cell_live(page, site_url + LESSON, "def zaehle(fencing):")
    expect(cell.text).to_have_text("ohne Fencing: (17, 596)\nmit Fencing:  (0, 588)\n")


def test_the_prediction(page: Page, site_url: str) -> None:
    prediction = Exercise.opened(page, site_url + LESSON + "#leases-wer-landet")
    prediction.predict_wrong_then_right("[('a', False), ('b', True)]", "[('a', True), ('b', True)]")


def test_the_diagnosis_and_the_closing_quiz(page: Page, site_url: str) -> None:
    quiz = Exercise.opened(page, site_url + LESSON + "#leases-diagnose")
    quiz.root.scroll_into_view_if_needed()
    quiz.choose_wrong(re.compile("Eine GC-Pause zwischen Prüfung"))
    quiz.choose_right(re.compile("Die Uhr von worker-1 geht nach"))
    test = Exercise.by_id(page, "leases-test")
    test.root.scroll_into_view_if_needed()
    test.choose_wrong(re.compile("Den Fencing Token muss"), re.compile("doppelt so lange"))
    test.untick(re.compile("doppelt so lange"))
    test.choose_right(re.compile("Die Leader-Wahl von"))


def test_pictures_fit_a_phone(browser: object, site_url: str) -> None:
    with phone_page(browser, site_url + LESSON) as page:
        assert_fits_a_phone(page, "[data-lk-cell] svg")
