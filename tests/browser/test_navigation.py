"""Instant navigation: Python survives page changes, each page starts fresh."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RecordingPage
from tests.browser.test_cells import cell, editor, run, show_diagram

pytestmark = pytest.mark.browser


def go(page: Page, link: str | re.Pattern[str], count: int) -> None:
    """Follow a navigation link and wait until the page script mounted page number `count`."""
    page.get_by_role("navigation").get_by_role("link", name=link).first.click()
    expect(page.locator("html")).to_have_attribute("data-lk-page", str(count))


def python_value(page: Page, code: str) -> str:
    """Evaluate `code` in the page's session "main" through the page's runtime."""
    return page.evaluate(
        """async (code) => {
            const result = await window.lessonkit.runtime.run(
                { session: "main", code, label: "Test" }, () => undefined);
            return result.value;
        }""",
        code,
    )


def test_python_survives_three_lessons_and_back_and_forward(
    recorded: RecordingPage, site_url: str
) -> None:
    page = recorded.page
    page.goto(site_url)
    page.evaluate("window.sameDocument = true")

    go(page, "Erste Schritte", 2)
    run(cell(page, 1))
    expect(cell(page, 1).locator(".lk-output__value")).to_have_text("3")
    expect(show_diagram(page)).to_be_visible()  # drawn after navigation too

    go(page, re.compile("Queues und Idempotenz"), 3)
    assert python_value(page, "'bestellungen' in globals()") == "False"  # fresh namespace
    run(cell(page, 1))
    expect(cell(page, 1)).to_have_attribute("data-state", "done")

    go(page, re.compile("Ereignisströme"), 4)
    run(cell(page, 1))
    expect(cell(page, 1)).to_have_attribute("data-state", "done")
    console = page.locator("[data-lk-console]").first
    console.scroll_into_view_if_needed()
    console.get_by_role("textbox").fill("topics")
    console.get_by_role("textbox").press("Enter")
    expect(console.locator(".lk-console__entry").last).to_contain_text("topics")

    go(page, re.compile("Event Loop und Actors"), 5)
    run(cell(page, 1))
    expect(cell(page, 1)).to_have_attribute("data-state", "done")

    assert page.evaluate("window.sameDocument") is True  # no full page load happened
    starts = [url for url in recorded.requests if urlsplit(url).path.endswith("/worker.js")]
    assert len(starts) == 1, starts  # one Python for all pages

    page.go_back()
    expect(page).to_have_url(re.compile("ereignisstroeme/$"))
    expect(page.locator("html")).to_have_attribute("data-lk-page", "6")
    run(cell(page, 2))
    expect(cell(page, 2)).to_have_attribute("data-state", re.compile("done|error"))
    page.go_forward()
    expect(page).to_have_url(re.compile("eda-eventloop-actors-cqrs/$"))
    expect(page.locator("html")).to_have_attribute("data-lk-page", "7")
    run(cell(page, 1))
    expect(cell(page, 1)).to_have_attribute("data-state", "done")
    assert recorded.foreign_requests() == []

    page.reload()  # a full load still works
    expect(page.locator("html")).to_have_attribute("data-lk-page", "1")
    run(cell(page, 1))
    expect(cell(page, 1)).to_have_attribute("data-state", "done")


def test_a_cell_left_running_does_not_block_the_next_page(page: Page, site_url: str) -> None:
    page.goto(site_url + "erste-schritte/")
    target = cell(page, 1)
    editor(target).fill("while True:\n    pass")
    target.get_by_role("button", name=re.compile("ausführen$")).click()
    expect(target).to_have_attribute("data-state", "running")
    # Instant navigation is Material's: its script comes once Python is ready.
    page.wait_for_function("() => typeof window.document$ === 'object'")

    go(page, re.compile("Queues und Idempotenz"), 2)
    run(cell(page, 1))  # Python was restarted for the new page
    expect(cell(page, 1)).to_have_attribute("data-state", "done")
