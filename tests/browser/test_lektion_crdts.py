"""Lesson "CRDTs und Local-First" in the browser: build results, a live cell with its
picture, the exercises (prediction, code task, diagnosis, quiz) and the pictures on a
phone; the counter challenge."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Exercise, assert_fits_a_phone, phone_page, run_cell_live

pytestmark = pytest.mark.browser

LESSON = "lektionen/crdts/"
#: Judging a failing seed runs, checks, shrinks and draws it in the reader's Python.
SLOW = 180_000


def test_page_shows_build_results_pictures_and_yjs(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    expect(page.locator("h1")).to_contain_text("CRDTs und Local-First")
    gesetze = page.locator("[data-lk-cell]", has_text="werte.add(ziel.wert)")
    expect(gesetze.locator("output")).to_contain_text("{6}")
    text = page.locator("[data-lk-cell]", has_text="laptop_ops = ")
    expect(text.locator("output")).to_contain_text("Ein Ksffee")
    titles = page.locator("[data-lk-cell] svg title")
    expect(titles.first).to_have_text("PNCounter: 3 Replikate, t=4")
    yjs = page.locator("[data-lk-ts]", has_text='import * as Y from "yjs"')
    for line in ("laptop Ein Kaffes", "handy Ein Kaffes", "s1 Ein Kaffes", "s2 Ein Kaffes"):
        expect(yjs).to_contain_text(line)


def test_the_or_set_cell_runs_in_the_browser(page: Page, site_url: str) -> None:
    cell = run_cell_live(page, site_url + LESSON, 'sim = CrdtSim("ORSet", seed=3)')
    expect(cell.text).to_contain_text("{'A': ['eier'], 'B': ['brot', 'milch']")
    expect(cell.text).to_contain_text("1 Grabstein)")
    expect(cell.root.locator("output svg title")).to_have_text("ORSet: 3 Replikate, t=12")


def test_the_prediction_refuses_a_wrong_answer_and_takes_the_right_one(
    page: Page, site_url: str
) -> None:
    prediction = Exercise.opened(page, site_url + LESSON + "#pn-vorhersage")
    prediction.predict_wrong_then_right(
        "(3, 3, 3)", "(3, 3, 2)", says="Der dritte von 3 Werten stimmt nicht."
    )


def test_the_diagnosis_names_the_grow_only_set(page: Page, site_url: str) -> None:
    diagnosis = Exercise.opened(page, site_url + LESSON + "#warenkorb-diagnose")
    diagnosis.root.scroll_into_view_if_needed()
    diagnosis.choose_wrong(re.compile("Ein OR-Set: add wins"))  # one answer: radio buttons
    diagnosis.choose_right(re.compile("Eine Menge, deren Abgleich die Artikel vereinigt"))


def test_the_closing_quiz(page: Page, site_url: str) -> None:
    quiz = Exercise.opened(page, site_url + LESSON + "#crdt-test")
    quiz.root.scroll_into_view_if_needed()
    quiz.choose_wrong(re.compile("Zustandsbasierte CRDTs brauchen"))
    quiz.untick(re.compile("Zustandsbasierte CRDTs brauchen"))
    quiz.choose_right(
        re.compile("Ist `?merge`? kommutativ"),
        re.compile("Ein Text-CRDT adressiert"),
        re.compile("Ein OR-Set behält"),
    )


def test_pictures_fit_a_phone(browser: object, site_url: str) -> None:
    with phone_page(browser, site_url + LESSON) as page:
        assert_fits_a_phone(page, "[data-lk-cell] svg")


def test_the_counter_challenge_fails_with_its_start_and_passes_with_the_g_counter(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + LESSON)
    task = Exercise.by_id(page, "crdt-zaehler")
    task.root.scroll_into_view_if_needed()
    expect(task.editor).to_be_visible(timeout=60_000)
    data = json.loads(task.root.locator(".lk-exercise__data").get_attribute("data-lk-json") or "{}")
    seeds = data["vorgabe"]["seeds"]
    task.root.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    expect(task.feedback).to_contain_text(f"von {seeds} Seeds bestanden", timeout=SLOW)
    task.expect_unsolved()
    task.replace_code(data["loesung"])
    expect(task.check()).to_have_text(f"✓ Gelöst: alle {seeds} Seeds bestanden.", timeout=SLOW)
    task.expect_solved()
