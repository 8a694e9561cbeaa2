"""Lektion 5 ("Timeouts, Retries und Backpressure") in headless Chromium, like a reader."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_5, Cell, Exercise, run_cell_live, ts_output

pytestmark = pytest.mark.browser

RETRY_MIT_JITTER = """BASIS = 100
DECKEL = 300
VERSUCHE = 4

def retry(versuch, anfrage, zufall):
    if not anfrage.idempotent or versuch >= VERSUCHE:
        return None
    grenze = min(DECKEL, BASIS * 2 ** (versuch - 1))
    return int(zufall.random() * grenze)
"""


def test_build_shows_numbers_and_pictures_before_python(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_5)
    expect(page.locator("h1")).to_contain_text("Timeouts, Retries und Backpressure")
    erste = Cell.only_one_with(page, "normal = Lastsim(")
    expect(erste.root).to_contain_text("Latenz: p50 42 ms, p90 115 ms, p99 208 ms")
    expect(erste.root.locator("svg title")).to_have_text(
        "Latenz: Perzentile der erfolgreichen Anfragen"
    )
    # Node.js output of the TypeScript twins (built with Node, not run in the browser)
    page.locator(".tabbed-labels label", has_text="TypeScript").first.click()
    ts = page.locator("[data-lk-ts]").filter(has_text="AbortSignal.timeout(ms)")
    expect(ts.locator("output")).to_contain_text("nach 100 ms abgebrochen (TimeoutError)")
    strom = page.locator("[data-lk-ts]").filter(has_text="highWaterMark: 3")
    expect(strom.locator("output")).to_contain_text("write(2) → false")


def test_fetch_with_retry_prints_each_attempt(page: Page, site_url: str) -> None:
    """The TypeScript pattern ran in Node.js at build time against its fake fetch."""
    page.goto(site_url + LESSON_5)
    output = ts_output(page, "async function fetchWithRetry(")
    expect(output).to_contain_text(
        "Versuch 1: TimeoutError\n  Pause zufällig unter 100 ms\n"
        "Versuch 2: Status 503\n  Pause 1000 ms (Retry-After)\n"
        "Versuch 3: Status 200\n→ 200, ok: true"
    )
    expect(output).to_contain_text("Versuch 1: Status 404\n→ 404, ok: false")
    expect(output).to_contain_text("Retry-After reicht über die Deadline\n→ 503, ok: false")
    expect(output).to_contain_text("Nutzer geht weg:\n→ AbortError")


def test_retry_storm_runs_in_the_browser(page: Page, site_url: str) -> None:
    # the cells before it (Lastsim, preisdienst) run first
    sturm = run_cell_live(page, site_url + LESSON_5, "sturm = preisdienst(")
    expect(sturm.text).to_contain_text("1382 Anfragen, 4608 Versuche, 307 erfolgreich (22%)")
    expect(sturm.root.locator("svg title")).to_have_text("Warteschlange und Worker über die Zeit")
    expect(sturm.root.locator("svg polyline.wartend")).to_have_count(1)

    welle = Cell.only_one_with(page, 'mit_jitter = welle("jitter")')
    welle.run_live("done")
    expect(welle.text).to_contain_text("199 erfolgreich")
    expect(welle.root.locator("svg rect.wiederholt").first).to_be_attached()


def test_the_storm_outlasts_its_trigger(page: Page, site_url: str) -> None:
    """Step 4: half a second of slowness is absorbed, a whole one tips it for good."""
    kippen = run_cell_live(page, site_url + LESSON_5, "def sturm_nach(ms):")
    expect(kippen.text).to_contain_text("Störung  500 ms: 1382 Antworten, 1389 Versuche")
    expect(kippen.text).to_contain_text("Störung 1000 ms: 307 Antworten, 4608 Versuche")
    expect(kippen.text).to_contain_text("Störung 2000 ms: 307 Antworten, 4608 Versuche")


def test_median_prediction_refuses_the_tail_guess(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_5)
    prediction = Exercise.by_id(page, "auslastung-median-schwanz")
    prediction.predict_wrong_then_right("(True, True)", "(True, False)", says="Noch nicht")


def test_bound_task_accepts_a_bound_just_below_the_largest(page: Page, site_url: str) -> None:
    """Übung 4: the exact largest bound is chance; two below it count, three do not."""
    page.goto(site_url + LESSON_5)
    task = Exercise.by_id(page, "grenze-p99")
    task.replace_code("GRENZE = 8\n")
    task.check_fails("Es geht größer")
    task.replace_code("GRENZE = 9\n")
    task.check_solved()


def test_retry_exercise_wrong_then_right(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_5)
    aufgabe = Exercise.by_id(page, "retry-jitter")
    feedback = aufgabe.check()  # the start code retries everything after a fixed 100 ms
    expect(feedback).to_contain_text("1 von 4")
    expect(aufgabe.failed_checks.first).to_contain_text("nicht idempotente")
    aufgabe.editor.fill(RETRY_MIT_JITTER)
    aufgabe.check_solved("✓ Gelöst: alle 4 Prüfungen bestanden.")
