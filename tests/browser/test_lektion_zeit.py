"""Lesson "Zeit, Ordnung und Kausalität" in the browser: build results, a cell, exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_TIME, Exercise, phone_page, picture_widths

pytestmark = pytest.mark.browser


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_TIME)
    expect(page.locator("h1")).to_contain_text("Zeit, Ordnung und Kausalität")
    cell = page.locator("[data-lk-cell]", has_text="start_uhr = lager.uhr()")
    expect(cell).to_contain_text("Dauer mit uhr(): -34")
    expect(cell).to_contain_text("Dauer mit monoton(): 50")
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


def test_predictions_and_vector_task(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_TIME)
    lamport = Exercise.by_id(page, "lamport-vorhersage")
    lamport.predict("[2, 3, 4, 5]")
    expect(lamport.root).not_to_have_attribute("data-solved", "true")
    lamport.predict("[3, 4, 5, 6]")
    expect(lamport.root).to_have_attribute("data-solved", "true", timeout=60_000)

    task = Exercise.by_id(page, "vektoren-vergleichen")
    task.check()
    expect(task.failed_checks.first).to_be_visible(timeout=60_000)
    editor = task.editor
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    editor.fill(
        "def vergleiche(v, w):\n"
        "    ks = set(v) | set(w)\n"
        "    kl = any(v.get(k, 0) < w.get(k, 0) for k in ks)\n"
        "    gr = any(v.get(k, 0) > w.get(k, 0) for k in ks)\n"
        "    if kl and gr:\n"
        '        return "nebenläufig"\n'
        '    return "vorher" if kl else "nachher" if gr else "gleich"\n'
    )
    expect(task.check()).to_contain_text("Gelöst", timeout=60_000)


def test_diagnosis_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_TIME)
    quiz = Exercise.by_id(page, "diagnose-uhr")
    quiz.choose(re.compile("Die Uhr von backoffice geht mindestens 66 ms nach"))
    expect(quiz.check()).to_contain_text("Noch nicht")
    quiz.choose(re.compile("Die 22 ging verloren"), re.compile("Hätte backoffice mit dem Kontext"))
    quiz.check()
    expect(quiz.root).to_have_attribute("data-solved", "true")


def test_phone_pictures_fit_the_screen(browser: object, site_url: str) -> None:
    with phone_page(browser, site_url + LESSON_TIME) as page:
        widths = picture_widths(page, "[data-lk-cell] svg")
        assert widths and max(widths) <= 390, widths
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
