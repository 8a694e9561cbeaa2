"""Instant navigation: Python survives page changes, each page starts fresh."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.browser.conftest import RecordingPage
from tests.browser.pages import FIRST_STEPS, Cell, go, python_value, show_diagram


def test_python_survives_three_lessons_and_back_and_forward(
    recorded: RecordingPage, site_url: str
) -> None:
    page = recorded.page
    page.goto(site_url)
    page.evaluate("window.sameDocument = true")

    go(page, "Erste Schritte", 2)
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).value).to_have_text("3")
    expect(show_diagram(page)).to_be_visible()  # drawn after navigation too

    go(page, re.compile("Queues und Idempotenz"), 3)
    # The test's probe counts as the author's: code the reader wrote replaces the worker on
    # the next page (tests/browser/test_pasted_code.py), which this test asserts is kept.
    probe = "'bestellungen' in globals()"
    page.evaluate("(code) => window.lessonkit.runtime.publish(code)", probe)
    assert python_value(page, probe) == "False"  # fresh namespace
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")

    go(page, re.compile("Ereignisströme"), 4)
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")
    console = page.locator("[data-lk-console]").first
    console.scroll_into_view_if_needed()
    console.get_by_role("textbox").fill("topics")
    console.get_by_role("textbox").press("Enter")
    expect(console.locator(".lk-console__entry").last).to_contain_text("topics")

    go(page, re.compile("Event Loop und Actors"), 5)
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")

    assert page.evaluate("window.sameDocument") is True  # no full page load happened
    starts = [url for url in recorded.requests if urlsplit(url).path.endswith("/worker.js")]
    assert len(starts) == 1, starts  # one Python for all pages

    page.go_back()
    expect(page).to_have_url(re.compile("ereignisstroeme/$"))
    expect(page.locator("html")).to_have_attribute("data-lk-page", "6")
    Cell.number(page, 2).run()
    expect(Cell.number(page, 2).root).to_have_attribute("data-state", re.compile("done|error"))
    page.go_forward()
    expect(page).to_have_url(re.compile("eda-eventloop-actors-cqrs/$"))
    expect(page.locator("html")).to_have_attribute("data-lk-page", "7")
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")
    assert recorded.foreign_requests() == []

    page.reload()  # a full load still works
    expect(page.locator("html")).to_have_attribute("data-lk-page", "1")
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")


def test_a_cell_left_running_does_not_block_the_next_page(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 1)
    target.start_code("while True:\n    pass")
    # Instant navigation is Material's: its script comes once Python is ready.
    page.wait_for_function("() => typeof window.document$ === 'object'")

    go(page, re.compile("Queues und Idempotenz"), 2)
    Cell.number(page, 1).run()  # Python was restarted for the new page
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")


def test_nothing_shows_through_below_the_sidebars_sticky_title(page: Page, site_url: str) -> None:
    # On a wide screen the navigation's title stays on top while its entries scroll under it.
    # Material hides them with a blurred shadow, whose blur let the tops of a half-hidden
    # entry show through below the two-line title; the band below it is solid now.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + "herausforderungen/register/")
    title = page.locator(".md-sidebar--primary .md-nav--primary > .md-nav__title")
    expect(title).to_be_visible()
    style = title.evaluate(
        "(t) => { const s = getComputedStyle(t); return [s.position, s.boxShadow]; }"
    )
    assert style[0] == "sticky", style
    shadows = re.findall(r"(-?[\d.]+)px (-?[\d.]+)px ([\d.]+)px", style[1])
    assert shadows and all(float(blur) == 0 for _, _, blur in shadows), style
    assert any(float(y) > 0 for _, y, _ in shadows), style  # a band below the title
