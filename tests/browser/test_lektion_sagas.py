"""Lesson "Sagas" in the browser: the saga console, which only this page has.

What the page's cells, consoles and exercises claim is checked without a browser
(tests/test_lesson_pages.py); its pictures on a phone in test_every_page.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_SAGAS, Console

pytestmark = pytest.mark.browser


def test_saga_console_restarts_the_orchestrator(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_SAGAS)
    console = Console.first(page, kind="saga")
    console.expect_answer("neustart orchestrator", "→ versand: beauftragen")
    console.expect_answer("tick 10", "Saga b7: abgeschlossen.")
    expect(console.picture.locator("svg title")).to_contain_text("abgeschlossen")
    console.expect_refusal("stoerung ablehnen mail", "nach dem Pivot")
