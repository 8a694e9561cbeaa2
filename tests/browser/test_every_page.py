"""Every page of the built site, opened in one browser context (its cache shared, as a
reader's): the page loads and its script mounts every block, no request leaves
127.0.0.1, nothing is logged as an error, Python answers where the page has cells,
consoles or exercises, axe-core finds no serious violation in the light scheme (at a
desktop's and a phone's width: ``tests/browser/axe.py``; the dark scheme:
test_accessibility.py), and at a phone's width neither the page nor a picture (in a
cell's output or a console) is wider than the screen.

What a page's blocks claim is checked without a browser (tests/test_lesson_pages.py);
each block kind's behaviour in the browser is tested once (test_cells.py,
test_consoles.py, test_exercises.py, …).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.browser import axe
from tests.browser.pages import (
    PHONE,
    assert_fits_a_phone,
    pages_of,
    pages_written_in,
    python_value,
)
from tests.conftest import ROOT

PAGES = pages_written_in(ROOT / "docs")
#: The blocks the page script mounts (frontend/src/components/blocks.ts).
BLOCKS = (
    "[data-lk-cell], [data-lk-console], [data-lk-exercise], [data-lk-progress], [data-lk-werkbank]"
)
#: Blocks that need Python.
PYTHON_BLOCKS = "[data-lk-cell], [data-lk-console], [data-lk-exercise], [data-lk-werkbank]"
#: The pictures the build drew into cells' outputs and consoles.
PICTURES = "[data-lk-cell] svg, .lk-console__picture svg"


class Requests:
    """Every URL the shared context requested (pages and their workers), since ``clear``."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def clear(self) -> None:
        self.urls.clear()

    def foreign(self) -> list[str]:
        return [url for url in self.urls if urlsplit(url).hostname not in ("127.0.0.1", None)]


@pytest.fixture(scope="module")
def shared(browser: Browser, site_url: str) -> Iterator[tuple[BrowserContext, Requests]]:
    """One desktop-sized context for every page of this module, recording its requests."""
    context = browser.new_context(
        viewport={"width": axe.WIDTHS[0], "height": 900}, color_scheme="light"
    )
    context.set_default_timeout(60_000)
    axe.install(context)
    requests = Requests()
    context.on("request", lambda request: requests.urls.append(request.url))
    yield context, requests
    context.close()


def test_the_pages_tested_are_the_built_sites_pages(built_site: Path) -> None:
    assert sorted(pages_of(built_site)) == PAGES


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.rstrip("/") or "start")
def test_a_page_loads_cleanly_python_answers_axe_finds_nothing_serious_and_it_fits_a_phone(
    shared: tuple[BrowserContext, Requests], site_url: str, path: str
) -> None:
    context, requests = shared
    requests.clear()
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(f"{error.name}: {error.message}"))
    try:
        page.goto(site_url + path)
        expect(page.locator("html")).to_have_attribute("data-lk-page", "1")
        expect(page.locator(f":is({BLOCKS}):not([data-lk-mounted])")).to_have_count(0)
        if page.locator(PYTHON_BLOCKS).count():
            assert python_value(page, "6 * 7") == "42"
        axe.wait_mounted(page)
        # The start page whole at both widths (axe.views); its report is asserted last.
        report = axe.audit(page, "light", whole=path == "", name=f"/{path}")
        page.set_viewport_size(PHONE)
        if page.locator(PICTURES).count():
            assert_fits_a_phone(page, PICTURES)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        assert errors == []
        assert requests.foreign() == []
        assert not report, "\n".join(report)
    finally:
        page.close()
