"""Lesson 0 "Idempotency Keys und Atomarität" in the browser: build results and pictures,
a cell, the prediction, the code task with its crash and race checks, the two quizzes,
and the pictures on a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Cell, Exercise

pytestmark = pytest.mark.browser

LESSON_0 = "lektionen/idempotenz-grundlagen/"
PAGE = Path(__file__).parents[2] / "docs" / "lektionen" / "idempotenz-grundlagen.md"


def task_solution() -> str:
    """The code task's ``--- loesung`` as the page's author wrote it."""
    text = PAGE.read_text(encoding="utf-8")
    block = text.split('```aufgabe id="schluessel-transaktion"', 1)[1]
    return block.split("--- loesung\n", 1)[1].split("\n--- ", 1)[0]


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_0)
    expect(page.locator("h1")).to_contain_text("Idempotency Keys")
    cell = page.locator("[data-lk-cell]", has_text='ZahlungsSim(modus="ohne")').first
    expect(cell).to_contain_text("Server bucht 30 € (Buchung 2), 201")
    expect(cell.locator("svg title")).to_have_text("Zahlungen bei t=11: 2 Buchungen")
    ts = page.locator("[data-lk-ts]").first
    expect(ts).to_contain_text("Versuch 1: TimeoutError")
    expect(ts).to_contain_text("Buchungen beim Server: 1")


def test_a_cell_runs_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_0)
    cell = Cell.only_one_with(page, 'for modus in ("getrennt", "atomar")')
    cell.run()
    expect(cell.output).to_contain_text("{'getrennt': 2, 'atomar': 1}", timeout=60_000)
    expect(cell.output).to_contain_text("die Buchung bleibt")


def test_prediction_right_and_wrong(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_0)
    task = Exercise.by_id(page, "doppelklick-verloren")
    task.predict_wrong_then_right("(2, 1)", "(3, 1)")


def test_code_task_start_fails_and_solution_passes(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_0)
    task = Exercise.by_id(page, "schluessel-transaktion")
    task.check_fails("Wiederholung")
    task.replace_code(task_solution())
    task.check_solved()


def test_diagnosis_and_closing_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_0)
    diagnose = Exercise.by_id(page, "diagnose-aufbewahrung")
    diagnose.choose_wrong("Der Client schickt bei der Wiederholung")
    diagnose.choose_right("Als die Wiederholung ankam")
    quiz = Exercise.by_id(page, "idempotenz-abschluss")
    quiz.choose_right("Ein zweites", "Der Client erzeugt den Schlüssel einmal")


def test_pictures_fit_a_phone(page: Page, site_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + LESSON_0)
    pictures = page.locator("[data-lk-cell] output svg")
    expect(pictures).to_have_count(4)
    for i in range(pictures.count()):
        box = pictures.nth(i).bounding_box()
        assert box is not None and box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
