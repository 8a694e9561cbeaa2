"""Lesson "Zeit, Ordnung und Kausalität" in the browser: build results and a cell.

Its exercises and pictures on a phone are rows of test_lektionen.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_TIME

pytestmark = pytest.mark.browser


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_TIME)
    expect(page.locator("h1")).to_contain_text("Zeit, Ordnung und Kausalität")
    cell = page.locator("[data-lk-cell]", has_text="start_uhr = lager.uhr()")
    expect(cell).to_contain_text("Dauer mit uhr(): -34")
    expect(cell).to_contain_text("Dauer mit monoton(): 50")
    pause = page.locator("[data-lk-cell]", has_text="GC pause: 3 s")
    expect(pause).to_contain_text("geschrieben bei 3000, die Sperre galt bis 100")
    titles = page.locator("[data-lk-cell] svg title")
    expect(titles.first).to_have_text(
        "Raum-Zeit-Diagramm: 2 Knoten (katalog_a, katalog_b), 2 Ereignisse, 0 Nachrichten"
    )
    page.locator(".tabbed-labels label", has_text="TypeScript").first.click()
    expect(page.locator("[data-lk-ts]").first).to_contain_text("80 lager reserviert")


def test_a_cell_runs_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_TIME)
    cell = page.locator("[data-lk-cell]", has_text="welt = Welt(kausal=True)")
    cell.get_by_role("button", name="Ausführen").click()
    output = cell.locator("output")
    expect(output).to_contain_text("mail empfängt: ['7 angelegt', '7 bezahlt']", timeout=60_000)
    expect(output.locator("svg title")).to_contain_text("Raum-Zeit-Diagramm")
