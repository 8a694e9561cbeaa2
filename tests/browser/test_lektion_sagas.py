"""Lesson "Sagas" in the browser: build results, a cell, the saga console, exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

LESSON = "lektionen/sagas/"


def check(target: Locator) -> Locator:
    target.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    feedback = target.locator(".lk-feedback")
    expect(feedback).to_be_visible()
    return feedback


def command(target: Locator, line: str) -> Locator:
    """Type ``line`` into a console, press Enter, return the new transcript entry."""
    entries = target.locator(".lk-console__entry")
    before = entries.count()
    box = target.get_by_label(re.compile("^Befehl für "))
    box.fill(line)
    box.press("Enter")
    expect(entries).to_have_count(before + 1, timeout=60_000)
    return entries.last


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    expect(page.locator("h1")).to_contain_text("Sagas")
    cell = page.locator("[data-lk-cell]", has_text='sim.stoere("ablehnen", "versand")').first
    expect(cell).to_contain_text("t=10: Saga b7: kompensiert.")
    expect(cell.locator("svg title")).to_have_text("Saga „b7“ bei t=10: kompensiert")
    page.locator(".tabbed-labels label", has_text="TypeScript").first.click()
    expect(page.locator("[data-lk-ts]").first).to_contain_text("wird kompensiert")
    console = page.locator("[data-lk-console]").first
    expect(console.locator(".lk-console__head")).to_contain_text("Saga-Konsole")
    expect(console.locator(".lk-console__log")).to_contain_text("Orchestrator stürzt ab")


def test_a_cell_runs_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    cell = page.locator("[data-lk-cell]", has_text='sim.stoere("verspaetet", "lager")')
    cell.get_by_role("button", name="Ausführen").click()
    output = cell.locator("output")
    expect(output).to_contain_text("{'b7/lager/reservieren': 1}", timeout=60_000)
    expect(output).to_contain_text("lager: Schlüssel schon bekannt.")


def test_console_restarts_the_orchestrator(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    console = page.locator("[data-lk-console]").first
    entry = command(console, "neustart orchestrator")
    expect(entry).to_contain_text("→ versand: beauftragen")
    entry = command(console, "tick 10")
    expect(entry).to_contain_text("Saga b7: abgeschlossen.")
    expect(console.locator(".lk-console__picture svg title")).to_contain_text("abgeschlossen")
    entry = command(console, "stoerung ablehnen mail")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("nach dem Pivot")


def test_console_task_right_and_wrong(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    task = page.locator("#saga-zu-ende")
    command(task, "tick 10")
    check(task)
    expect(task.locator(".lk-check--failed").first).to_contain_text("läuft")
    command(task, "neustart orchestrator")
    command(task, "tick 10")
    expect(check(task)).to_contain_text("Gelöst")
    expect(task).to_have_attribute("data-solved", "true")


def test_prediction_and_idempotent_refund(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    prediction = page.locator("#saga-kompensationen")
    prediction.get_by_label("Deine Vorhersage").fill("(['lager', 'zahlung'], 130)")
    check(prediction)
    expect(prediction).not_to_have_attribute("data-solved", "true", timeout=60_000)
    prediction.get_by_label("Deine Vorhersage").fill("(['zahlung'], 100)")
    check(prediction)
    expect(prediction).to_have_attribute("data-solved", "true", timeout=60_000)

    task = page.locator("#idempotente-erstattung")
    check(task)
    expect(task.locator(".lk-check--failed").first).to_be_visible(timeout=60_000)
    editor = task.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    editor.fill(
        "def erstatten(stand, saga):\n"
        "    if saga in stand['gebucht']:\n"
        "        stand['kunde'] += stand['gebucht'].pop(saga)\n"
    )
    expect(check(task)).to_contain_text("Gelöst", timeout=60_000)


def test_phone_pictures_fit_the_screen(browser: object, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site_url + LESSON)
    widths = page.locator("[data-lk-cell] svg, .lk-console__picture svg").evaluate_all(
        "svgs => svgs.map(s => s.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 390, widths
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
