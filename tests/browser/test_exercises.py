"""Exercises on the built site: checked right and wrong, saved, restored, and reset."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

FIRST_STEPS = "erste-schritte/"


def exercise(page: Page, exercise_id: str) -> Locator:
    return page.locator(f"#{exercise_id}")


def check(target: Locator) -> None:
    target.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    expect(target.locator(".lk-feedback")).to_be_visible()


def test_prediction_wrong_then_right(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = exercise(page, "erste-vorhersage")
    answer = target.get_by_label("Deine Vorhersage")
    expect(answer).to_have_attribute("placeholder", "z. B. (2, 'b-1')")  # the author's hint
    solution = target.locator("details.lk-exercise__solution")
    expect(solution).to_be_hidden()
    answer.fill("drei")
    check(target)
    expect(target.locator(".lk-feedback")).to_contain_text("kein Python-Wert")
    expect(solution).to_be_hidden()  # an invalid answer is not counted
    answer.fill("(3, 'b-2')")
    check(target)
    expect(target.locator(".lk-feedback")).to_have_text(
        "✗ 1 von 2 richtig: der zweite Wert ist 'b-3', nicht 'b-2'."
    )
    expect(solution).to_be_visible()
    expect(target.locator(".cm-content")).to_be_visible()  # the code is now editable
    answer.fill("(3, 'b-3')")
    answer.press("Enter")
    expect(target).to_have_attribute("data-solved", "true")


def test_code_task_failed_then_solved(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = exercise(page, "erste-aufgabe")
    page.on("dialog", lambda dialog: dialog.accept())
    solution_button = target.get_by_role("button", name="Lösung zeigen")
    expect(solution_button).to_be_disabled()
    check(target)
    expect(target.locator(".lk-feedback")).to_have_text("✗ 0 von 2 Prüfungen bestanden.")
    expect(target.locator(".lk-check--failed").first).to_contain_text(
        "summe([30, 40]) liefert None."
    )
    target.get_by_role("button", name="Hinweis (1 von 1)").click()
    expect(target.locator("details.lk-exercise__hint")).to_contain_text("sum")
    solution_button.click()
    expect(target.locator("details.lk-exercise__solution")).to_be_visible()
    target.locator(".cm-content").fill("def summe(betraege):\n    return sum(betraege)")
    check(target)
    expect(target.locator(".lk-feedback")).to_have_text("✓ Gelöst: alle 2 Prüfungen bestanden.")
    expect(target).to_have_attribute("data-solved", "true")


def test_console_task_and_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = exercise(page, "erste-konsole")
    check(task)
    expect(task.locator(".lk-feedback")).to_contain_text("0 von 1")
    box = task.get_by_label("Befehl für Übung 3")
    box.fill("create topic payments partitions 2")
    box.press("Enter")
    expect(task.locator(".lk-console__entry")).to_have_count(2)
    check(task)
    expect(task).to_have_attribute("data-solved", "true")

    quiz = exercise(page, "erstes-quiz")
    quiz.get_by_label("Auf einem Server des Kurses.").check()
    check(quiz)
    expect(quiz.locator(".lk-feedback")).to_contain_text("Noch nicht")
    expect(quiz.locator(".lk-quiz__why").first).to_be_visible()
    quiz.get_by_label("In deinem Browser, in einem Web Worker.").check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")


def test_the_progress_block_counts_an_exercise_solved_on_the_same_page(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    count = page.locator('.lk-progress__count[data-path="erste-schritte/"]')
    expect(count).to_contain_text("0 von")
    quiz = exercise(page, "erstes-quiz")
    quiz.get_by_label("In deinem Browser, in einem Web Worker.").check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")
    expect(count).to_contain_text("1 von")  # without a reload


def test_draft_survives_reload_and_progress_shows_on_the_start_page(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = exercise(page, "erste-aufgabe")
    target.locator(".cm-content").fill("def summe(betraege):\n    return 0  # mein Entwurf")
    quiz = exercise(page, "erstes-quiz")
    quiz.get_by_label("In deinem Browser, in einem Web Worker.").check()
    check(quiz)
    page.reload()
    expect(exercise(page, "erste-aufgabe").locator(".cm-content")).to_contain_text("mein Entwurf")
    expect(exercise(page, "erstes-quiz")).to_have_attribute("data-solved", "true")
    page.goto(site_url)
    count = page.locator('.lk-progress__count[data-path="erste-schritte/"]')
    expect(count).to_have_text("1 von 4 gelöst")
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Fortschritt zurücksetzen").click()
    expect(count).to_have_text("0 von 4 gelöst")


def test_stale_draft_is_offered_not_restored(page: Page, site_url: str) -> None:
    old = {"digest": "000000000000", "solved": False, "draft": "def summe(b):\n    return 'alt'"}
    page.goto(site_url + FIRST_STEPS)
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        ["lk:exercise:erste-schritte/#erste-aufgabe", json.dumps(old)],
    )
    page.reload()
    target = exercise(page, "erste-aufgabe")
    expect(target.locator(".lk-exercise__stale")).to_contain_text("älteren Fassung")
    expect(target.locator(".cm-content")).to_contain_text("pass")
    target.get_by_role("button", name="Wiederherstellen").click()
    expect(target.locator(".cm-content")).to_contain_text("return 'alt'")
    expect(target.locator(".lk-exercise__stale")).to_have_count(0)


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
    quiz = exercise(page, "erstes-quiz")
    quiz.get_by_label("In deinem Browser, in einem Web Worker.").check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")
    context.close()
