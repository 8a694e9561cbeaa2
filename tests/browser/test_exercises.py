"""Exercises on the built site: checked right and wrong, saved, restored, and reset."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.pages import FIRST_STEPS, Exercise

#: The right answer of the quiz on "Erste Schritte".
IN_THE_BROWSER = "In deinem Browser, in einem Web Worker."


def test_prediction_wrong_then_right(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = Exercise.by_id(page, "erste-vorhersage")
    answer = target.answer
    expect(answer).to_have_attribute("placeholder", "z. B. (2, 'b-1')")  # the author's hint
    solution = target.root.locator("details.lk-exercise__solution")
    expect(solution).to_be_hidden()
    answer.fill("drei")
    target.check()
    expect(target.feedback).to_contain_text("kein Python-Wert")
    expect(solution).to_be_hidden()  # an invalid answer is not counted
    answer.fill("(3, 'b-2')")
    target.check()
    expect(target.feedback).to_have_text("✗ Noch nicht: Der zweite von 2 Werten stimmt nicht.")
    expect(solution).to_be_hidden()  # a wrong answer may try again (issue 26)
    answer.fill("(3, 'b-3')")
    answer.press("Enter")
    expect(target.root).to_have_attribute("data-solved", "true")
    expect(solution).to_be_visible()
    expect(target.editor).to_be_visible()  # the code is now editable


def test_code_task_failed_then_solved(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = Exercise.by_id(page, "erste-aufgabe")
    solution_button = target.solution_button
    expect(solution_button).to_be_disabled()
    target.check()
    expect(target.feedback).to_have_text("✗ 0 von 2 Prüfungen bestanden.")
    expect(target.failed_checks.first).to_contain_text("summe([30, 40]) liefert None.")
    target.root.get_by_role("button", name="Hinweis (1 von 1)").click()
    expect(target.root.locator("details.lk-exercise__hint")).to_contain_text("sum")
    target.show_solution()  # asked in the page, not with the browser's confirm()
    target.editor.fill("def summe(betraege):\n    return sum(betraege)")
    target.check_solved("✓ Gelöst: alle 2 Prüfungen bestanden.")


def test_console_task_and_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = Exercise.by_id(page, "erste-konsole")
    expect(task.check()).to_contain_text("0 von 1")
    box = task.root.get_by_label("Befehl für Übung 3")
    box.fill("create topic payments partitions 2")
    box.press("Enter")
    expect(task.console.entries).to_have_count(2)
    task.check_solved()

    quiz = Exercise.by_id(page, "erstes-quiz")
    quiz.choose_wrong("Auf einem Server des Kurses.")
    expect(quiz.root.locator(".lk-quiz__why").first).to_be_visible()
    quiz.choose_right(IN_THE_BROWSER)


def test_the_progress_block_counts_an_exercise_solved_on_the_same_page(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    count = page.locator('.lk-progress__count[data-path="erste-schritte/"]')
    expect(count).to_contain_text("0 von")
    Exercise.by_id(page, "erstes-quiz").choose_right(IN_THE_BROWSER)
    expect(count).to_contain_text("1 von")  # without a reload


def test_draft_survives_reload_and_progress_shows_on_the_start_page(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = Exercise.by_id(page, "erste-aufgabe")
    target.editor.fill("def summe(betraege):\n    return 0  # mein Entwurf")
    quiz = Exercise.by_id(page, "erstes-quiz")
    quiz.choose(IN_THE_BROWSER)
    quiz.check()
    page.reload()
    expect(target.editor).to_contain_text("mein Entwurf")
    expect(quiz.root).to_have_attribute("data-solved", "true")
    page.goto(site_url)
    count = page.locator('.lk-progress__count[data-path="erste-schritte/"]')
    expect(count).to_have_text("1 von 4 gelöst")
    reset_progress(page, count)
    expect(count).to_have_text("0 von 4 gelöst")


#: The in-page question of „Fortschritt zurücksetzen“ (not the browser's confirm()).
RESET_QUESTION = re.compile("^Alle gelösten Übungen")


def reset_progress(page: Page, count: Locator) -> None:
    """Press „Fortschritt zurücksetzen“: „Behalten“ keeps all, „Ja, alles löschen“ resets."""
    page.on("dialog", lambda dialog: pytest.fail(f"browser dialog: {dialog.message}"))
    reset = page.get_by_role("button", name="Fortschritt zurücksetzen")
    before = count.inner_text()
    reset.click()
    question = page.get_by_role("group", name=RESET_QUESTION)
    question.get_by_role("button", name="Behalten: Fortschritt").click()
    expect(question).to_have_count(0)
    expect(reset).to_be_focused()
    expect(count).to_have_text(before)
    reset.click()
    question.get_by_role("button", name="Ja, alles löschen: Fortschritt").click()
    expect(question).to_have_count(0)
    expect(reset).to_be_focused()


def test_a_full_storage_still_shows_progress_and_the_reset(browser: Any, site_url: str) -> None:
    # Writing fails (quota), reading works: the overview counts what is stored, says the
    # storage is full, and keeps the reset, which frees the space.
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(site_url + FIRST_STEPS)
        Exercise.by_id(page, "erstes-quiz").choose_right(IN_THE_BROWSER)
        context.add_init_script(
            "Storage.prototype.setItem = function () "
            "{ throw new DOMException('voll', 'QuotaExceededError'); };"
        )
        page.goto(site_url)
        count = page.locator('.lk-progress__count[data-path="erste-schritte/"]')
        expect(count).to_have_text("1 von 4 gelöst")
        expect(page.locator(".lk-progress")).to_contain_text(
            "Der Speicher dieses Browsers für die Seite ist voll"
        )
        expect(page.locator(".lk-progress")).not_to_contain_text("privates Fenster")
        reset_progress(page, count)
        expect(count).to_have_text("0 von 4 gelöst")
    finally:
        context.close()


def plant(page: Page, url: str, key: str, value: object) -> None:
    """Open ``url`` with ``value`` stored under ``key``, as an earlier visit left it."""
    page.goto(url)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(value)])
    page.reload()


def test_stale_draft_is_offered_not_restored(page: Page, site_url: str) -> None:
    old = {"digest": "000000000000", "solved": False, "draft": "def summe(b):\n    return 'alt'"}
    plant(page, site_url + FIRST_STEPS, "lk:exercise:erste-schritte/#erste-aufgabe", old)
    target = Exercise.by_id(page, "erste-aufgabe")
    stale = target.root.locator(".lk-exercise__stale")
    expect(stale).to_contain_text("älteren Fassung")
    expect(target.editor).to_contain_text("pass")
    target.root.get_by_role("button", name="Wiederherstellen").click()
    expect(target.editor).to_contain_text("return 'alt'")
    expect(stale).to_have_count(0)


def test_solved_in_an_earlier_version_stays_solved_here_and_in_the_overview(
    page: Page, site_url: str
) -> None:
    """An author's edit changes the digest; the reader's solve stays, on the page and in
    the overview alike (issue 28: they disagreed)."""
    old = {"digest": "000000000000", "solved": True, "answer": "1"}
    plant(page, site_url + FIRST_STEPS, "lk:/:exercise:erste-schritte/#erstes-quiz", old)
    quiz = Exercise.by_id(page, "erstes-quiz")
    quiz.expect_solved()
    count = page.locator('.lk-progress__count[data-path="erste-schritte/"]')
    expect(count).to_contain_text("1 von")
    quiz.root.get_by_role("button", name="Verwerfen").click()
    page.reload()
    quiz.expect_solved()
    expect(count).to_contain_text("1 von")


def test_exercises_work_without_storage(browser: object, site_url: str) -> None:
    context = browser.new_context()  # type: ignore[attr-defined]
    context.add_init_script(
        "Storage.prototype.setItem = function () { throw new DOMException('voll', 'QuotaExceededError'); };"
    )
    page = context.new_page()
    page.goto(site_url + FIRST_STEPS)
    expect(
        page.get_by_text("Dein Fortschritt wird in diesem Browser nicht gespeichert").first
    ).to_be_visible()
    Exercise.by_id(page, "erstes-quiz").choose_right(IN_THE_BROWSER)
    context.close()
