"""Lesson "Sagas" in the browser: build results, a cell, the saga console, the console task.

Its prediction, code task and pictures on a phone are rows of test_lektionen.py.
The TypeScript table is also checked against the model's table, entry by entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from pysim.saga import UEBERGAENGE
from tests.browser.pages import LESSON_SAGAS, Cell, Console, Exercise

pytestmark = pytest.mark.browser

PAGE = Path(__file__).parents[2] / "docs" / "lektionen" / "sagas.md"
#: One entry of the TypeScript table: "zustand:ereignis": "neu" (or null).
TS_ENTRY = re.compile(r'^\s+"([a-z ]+):([a-z_]+)": (null|"[a-z ]+"),$', re.M)


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
    task = Exercise.by_id(page, "erstattung-wiederholen")
    task.type("stoerung ablehnen versand")
    task.check_fails("start b7")
    task.type("stoerung verspaetet zahlung kompensation", "start b7", "tick 20")
    task.check_solved()


def test_typescript_table_is_the_models_table(page: Page, site_url: str) -> None:
    """The TypeScript twin lists the 12 entries of ``UEBERGAENGE``, no more, no fewer,
    and Node.js prints exactly what the Python cell prints."""
    block = PAGE.read_text(encoding="utf-8").split("```ts-run", 1)[1].split("```", 1)[0]
    table = block.split("const TABELLE", 1)[1].split("};", 1)[0]
    entries = {
        (state, event): None if after == "null" else after.strip('"')
        for state, event, after in TS_ENTRY.findall(table)
    }
    assert entries == UEBERGAENGE
    page.goto(site_url + LESSON_SAGAS)
    python = Cell.only_one_with(page, "print(len(UEBERGAENGE)")
    shown = python.root.locator(".lk-stdout").text_content()
    typescript = page.locator("[data-lk-ts]").first.locator(".lk-stdout")
    assert shown and typescript.text_content() == shown
