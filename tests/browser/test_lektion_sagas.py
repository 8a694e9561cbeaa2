"""Lesson "Sagas" in the browser: the saga console, which only this page has."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_SAGAS, Console


def test_saga_console_restarts_the_orchestrator(page: Page, site_url: str) -> None:
    console = Console.first(page, kind="saga", on=site_url + LESSON_SAGAS)
    console.expect_answer("neustart orchestrator", "→ versand: beauftragen")
    console.expect_answer("tick 10", "Saga b7: abgeschlossen.")
    expect(console.picture.locator("svg title")).to_contain_text("abgeschlossen")
    console.expect_refusal("stoerung ablehnen mail", "nach dem Pivot")
