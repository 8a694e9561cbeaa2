"""Lesson "Zeit, Ordnung und Kausalität" in the browser: build results, a cell, exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

LESSON = "lektionen/zeit-ordnung-kausalitaet/"


def check(target: Locator) -> Locator:
    target.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    feedback = target.locator(".lk-feedback")
    expect(feedback).to_be_visible()
    return feedback


def test_page_shows_build_results_and_pictures(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
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
    page.goto(site_url + LESSON)
    cell = page.locator("[data-lk-cell]", has_text="welt = Welt(kausal=True)")
    cell.get_by_role("button", name="Ausführen").click()
    output = cell.locator("output")
    expect(output).to_contain_text("mail empfängt: ['7 angelegt', '7 bezahlt']", timeout=60_000)
    expect(output.locator("svg title")).to_contain_text("Raum-Zeit-Diagramm")


def test_predictions_and_vector_task(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    lamport = page.locator("#lamport-vorhersage")
    lamport.get_by_label("Deine Vorhersage").fill("[2, 3, 4, 5]")
    check(lamport)
    expect(lamport).not_to_have_attribute("data-solved", "true")
    lamport.get_by_label("Deine Vorhersage").fill("[3, 4, 5, 6]")
    check(lamport)
    expect(lamport).to_have_attribute("data-solved", "true", timeout=60_000)

    task = page.locator("#vektoren-vergleichen")
    check(task)
    expect(task.locator(".lk-check--failed").first).to_be_visible(timeout=60_000)
    editor = task.locator(".cm-content")
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
    expect(check(task)).to_contain_text("Gelöst", timeout=60_000)


def test_diagnosis_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    quiz = page.locator("#diagnose-uhr")
    quiz.get_by_label(re.compile("Die Uhr von backoffice geht mindestens 66 ms nach")).check()
    expect(check(quiz)).to_contain_text("Noch nicht")
    quiz.get_by_label(re.compile("Die 22 ging verloren")).check()
    quiz.get_by_label(re.compile("Hätte backoffice mit dem Kontext")).check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")


def test_phone_pictures_fit_the_screen(browser: object, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site_url + LESSON)
    widths = page.locator("[data-lk-cell] svg").evaluate_all(
        "svgs => svgs.map(s => s.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 390, widths
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
