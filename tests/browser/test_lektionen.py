"""What the lessons show alike, one table each: a cell run live prints what the page
claims, and the pictures fit a phone's screen."""

from __future__ import annotations

from typing import Literal

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import (
    LESSON_1,
    LESSON_2,
    LESSON_3,
    LESSON_4,
    LESSON_5,
    LESSON_SAGAS,
    LESSON_TIME,
    Cell,
    phone_page,
    picture_widths,
)

pytestmark = pytest.mark.browser

FAKE_NETZ = "['bestellung-1', 'bestellung-4', 'bestellung-3', 'bestellung-3', 'bestellung-5']"
GLEICHZEITIG = (
    "nacheinander: +kunde -kunde +warenkorb -warenkorb +lager -lager\n"
    "gleichzeitig: +kunde +warenkorb +lager -kunde -warenkorb -lager\n"
)
RECHENARBEIT = "Ticks während der Rechenarbeit: 0\ngrößte Lücke ≥ 0,3 s: True\n"
PROJEKTOR_ABSTURZ = (
    "Position 1: Alice +42\n"
    "Position 2: Bob +15\n"
    "Absturz, gemerkt ist Position 1\n"
    "Position 2: Bob +15\n"
    "Position 3: Bob +8\n"
    "Lesemodell: [('Alice', 42), ('Bob', 38)]\n"
)


@pytest.mark.parametrize(
    ("lesson", "code", "part", "shown"),
    [
        pytest.param(LESSON_1, "FakeNetz(seed=300)", "value", FAKE_NETZ, id="fake-netz"),
        pytest.param(
            LESSON_3, "abfrage(n, gleichzeitig) for n in namen", "text", GLEICHZEITIG, id="asyncio"
        ),
        pytest.param(LESSON_3, "Rechenarbeit, kein await", "text", RECHENARBEIT, id="blockiert"),
        pytest.param(
            LESSON_4,
            "projektor(absturz_bei_aufruf(merke, 2))",
            "text",
            PROJEKTOR_ABSTURZ,
            id="projektor",
        ),
    ],
)
def test_a_cell_run_live_shows_what_the_page_says(
    page: Page, site_url: str, lesson: str, code: str, part: Literal["text", "value"], shown: str
) -> None:
    """Run in the browser with the build's output gone, the cell (and the cells of its
    session before it) print exactly ``shown``."""
    page.goto(site_url + lesson)
    cell = Cell.only_one_with(page, code)
    cell.run_live("done")
    expect(getattr(cell, part)).to_have_text(shown)


@pytest.mark.parametrize(
    ("lesson", "pictures"),
    [
        pytest.param(LESSON_2, ".lk-console__picture svg", id="ereignisstroeme"),
        pytest.param(LESSON_5, "[data-lk-cell] svg", id="timeouts"),
        pytest.param(LESSON_TIME, "[data-lk-cell] svg", id="zeit"),
        pytest.param(LESSON_SAGAS, "[data-lk-cell] svg, .lk-console__picture svg", id="sagas"),
    ],
)
def test_pictures_fit_a_phone(browser: object, site_url: str, lesson: str, pictures: str) -> None:
    with phone_page(browser, site_url + lesson) as page:
        widths = picture_widths(page, pictures)
        assert widths and max(widths) <= 390, widths
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= 390, overflow
