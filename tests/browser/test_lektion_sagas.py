"""Lesson "Sagas" in the browser: build results, a cell, the saga console, the console task.

Its prediction, code task and pictures on a phone are rows of test_lektionen.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_SAGAS, Cell, Console, Exercise

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
    console.expect_answer("neustart orchestrator", "→ versand: beauftragen")
    console.expect_answer("tick 10", "Saga b7: abgeschlossen.")
    expect(console.picture.locator("svg title")).to_contain_text("abgeschlossen")
    entry = console.command("stoerung ablehnen mail")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("nach dem Pivot")


def test_console_task_right_and_wrong(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_SAGAS)
    task = Exercise.by_id(page, "saga-zu-ende")
    task.type("tick 10")
    task.check_fails("läuft")
    task.type("neustart orchestrator", "tick 10")
    task.check_solved()
