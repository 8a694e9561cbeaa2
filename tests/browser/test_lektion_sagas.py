"""Lesson "Sagas" in the browser: build results, a cell, the saga console, exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import LESSON_SAGAS, PHONE, Cell, Console, Exercise

pytestmark = pytest.mark.browser


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_SAGAS)
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
    page.goto(site_url + LESSON_SAGAS)
    cell = Cell.only_one_with(page, 'sim.stoere("verspaetet", "lager")')
    cell.run()
    output = cell.output
    expect(output).to_contain_text("{'b7/lager/reservieren': 1}", timeout=60_000)
    expect(output).to_contain_text("lager: Schlüssel schon bekannt.")


def test_console_restarts_the_orchestrator(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_SAGAS)
    console = Console.first(page, kind="saga")
    entry = console.command("neustart orchestrator")
    expect(entry).to_contain_text("→ versand: beauftragen")
    entry = console.command("tick 10")
    expect(entry).to_contain_text("Saga b7: abgeschlossen.")
    expect(console.picture.locator("svg title")).to_contain_text("abgeschlossen")
    entry = console.command("stoerung ablehnen mail")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("nach dem Pivot")


def test_console_task_right_and_wrong(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_SAGAS)
    task = Exercise.by_id(page, "saga-zu-ende")
    task.console.command("tick 10")
    task.check()
    expect(task.failed_checks.first).to_contain_text("läuft")
    task.console.command("neustart orchestrator")
    task.console.command("tick 10")
    expect(task.check()).to_contain_text("Gelöst")
    expect(task.root).to_have_attribute("data-solved", "true")


def test_prediction_and_idempotent_refund(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_SAGAS)
    prediction = Exercise.by_id(page, "saga-kompensationen")
    prediction.predict("(['lager', 'zahlung'], 130)")
    expect(prediction.root).not_to_have_attribute("data-solved", "true")
    prediction.predict("(['zahlung'], 100)")
    expect(prediction.root).to_have_attribute("data-solved", "true")

    task = Exercise.by_id(page, "idempotente-erstattung")
    task.check()
    expect(task.failed_checks.first).to_be_visible()
    editor = task.editor
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    editor.fill(
        "def erstatten(stand, saga):\n"
        "    if saga in stand['gebucht']:\n"
        "        stand['kunde'] += stand['gebucht'].pop(saga)\n"
    )
    expect(task.check()).to_contain_text("Gelöst")


def test_phone_pictures_fit_the_screen(browser: Browser, site_url: str) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_url + LESSON_SAGAS)
    widths = page.locator("[data-lk-cell] svg, .lk-console__picture svg").evaluate_all(
        "svgs => svgs.map(s => s.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 390, widths
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
