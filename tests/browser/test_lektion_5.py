"""Lektion 5 ("Timeouts, Retries und Backpressure") in headless Chromium, like a reader."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

LEKTION = "lektionen/timeouts-retries-backpressure/"

RETRY_MIT_JITTER = (
    "BASIS = 100\n"
    "DECKEL = 2000\n"
    "VERSUCHE = 4\n"
    "\n"
    "def retry(versuch, anfrage, zufall):\n"
    "    if not anfrage.idempotent or versuch >= VERSUCHE:\n"
    "        return None\n"
    "    grenze = min(DECKEL, BASIS * 2 ** (versuch - 1))\n"
    "    return int(zufall.random() * grenze)\n"
)


def cell_with(page: Page, text: str) -> Locator:
    """The one visible cell whose code contains ``text``."""
    cells = page.locator("[data-lk-cell]:not([hidden])").filter(has_text=text)
    expect(cells).to_have_count(1)
    return cells.first


def run(target: Locator) -> None:
    target.scroll_into_view_if_needed()
    target.locator("output").evaluate("node => node.replaceChildren()")  # drop the build output
    target.get_by_role("button", name=re.compile("ausführen$")).click()
    expect(target).to_have_attribute("data-state", re.compile("done|error"))


def check(target: Locator) -> Locator:
    target.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    feedback = target.locator(".lk-feedback")
    expect(feedback).to_be_visible()
    return feedback


def test_build_shows_numbers_and_pictures_before_python(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    expect(page.locator("h1")).to_contain_text("Timeouts, Retries und Backpressure")
    erste = cell_with(page, "normal = Lastsim(")
    expect(erste).to_contain_text("Latenz: p50 42 ms, p90 115 ms, p99 208 ms")
    expect(erste.locator("svg title")).to_have_text("Latenz: Perzentile der erfolgreichen Anfragen")
    # Node.js output of the TypeScript twins (built with Node, not run in the browser)
    page.locator(".tabbed-labels label", has_text="TypeScript").first.click()
    ts = page.locator("[data-lk-ts]").filter(has_text="AbortSignal.timeout(ms)")
    expect(ts.locator("output")).to_contain_text("nach 100 ms abgebrochen (TimeoutError)")
    strom = page.locator("[data-lk-ts]").filter(has_text="highWaterMark: 3")
    expect(strom.locator("output")).to_contain_text("write(2) → false")


def test_retry_storm_runs_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    sturm = cell_with(page, "sturm = preisdienst(")
    run(sturm)  # the cells before it (Lastsim, preisdienst) run first
    expect(sturm).to_have_attribute("data-state", "done")
    expect(sturm.locator(".lk-output__text")).to_contain_text(
        "1382 Anfragen, 4608 Versuche, 307 erfolgreich (22%)"
    )
    expect(sturm.locator("svg title")).to_have_text("Warteschlange und Worker über die Zeit")
    expect(sturm.locator("svg polyline.wartend")).to_have_count(1)

    welle = cell_with(page, 'mit_jitter = welle("jitter")')
    run(welle)
    expect(welle).to_have_attribute("data-state", "done")
    expect(welle.locator(".lk-output__text")).to_contain_text("199 erfolgreich")
    expect(welle.locator("svg rect.wiederholt").first).to_be_attached()


def test_retry_exercise_wrong_then_right(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    aufgabe = page.locator("#retry-jitter")
    feedback = check(aufgabe)  # the start code retries everything after a fixed 100 ms
    expect(feedback).to_contain_text("1 von 4")
    expect(aufgabe.locator(".lk-check--failed").first).to_contain_text("nicht idempotente")
    aufgabe.locator(".cm-content").fill(RETRY_MIT_JITTER)
    expect(check(aufgabe)).to_have_text("✓ Gelöst: alle 4 Prüfungen bestanden.")
    expect(aufgabe).to_have_attribute("data-solved", "true")


def test_little_prediction(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    vorhersage = page.locator("#little")
    vorhersage.get_by_label("Deine Vorhersage").fill("4")
    expect(check(vorhersage)).to_contain_text("Nicht ganz")
    vorhersage.get_by_label("Deine Vorhersage").fill("10")
    check(vorhersage)
    expect(vorhersage).to_have_attribute("data-solved", "true")


def test_pictures_fit_a_phone(browser: object, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site_url + LEKTION)
    widths = page.locator("[data-lk-cell] svg").evaluate_all(
        "svgs => svgs.map(s => s.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 390, widths
    context.close()
