"""Lesson "Zeit, Ordnung und Kausalität" in the browser: build results, a cell, exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_TIME, Exercise

pytestmark = pytest.mark.browser

#: Compares two vector clocks: before, after, equal or concurrent.
VERGLEICHE = """def vergleiche(v, w):
    ks = set(v) | set(w)
    kl = any(v.get(k, 0) < w.get(k, 0) for k in ks)
    gr = any(v.get(k, 0) > w.get(k, 0) for k in ks)
    if kl and gr:
        return "nebenläufig"
    return "vorher" if kl else "nachher" if gr else "gleich"
"""


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
    lamport.predict_wrong("[2, 3, 4, 5]")
    lamport.predict_right("[3, 4, 5, 6]")

    task = Exercise.by_id(page, "vektoren-vergleichen")
    task.check()
    expect(task.failed_checks.first).to_be_visible()
    task.replace_code(VERGLEICHE)
    task.check_solved()


def test_diagnosis_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_TIME)
    quiz = Exercise.by_id(page, "diagnose-uhr")
    quiz.choose_wrong(re.compile("Die Uhr von backoffice geht mindestens 66 ms nach"))
    quiz.choose_right(
        re.compile("Die 22 ging verloren"), re.compile("Hätte backoffice mit dem Kontext")
    )
