"""Cells on the built site, driven in headless Chromium like a reader would."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import RecordingPage

pytestmark = pytest.mark.browser

FIRST_STEPS = "erste-schritte/"


def cell(page: Page, number: int) -> Locator:
    """The n-th visible cell (1-based, like its label "Zelle n")."""
    return page.locator("[data-lk-cell]:not([hidden])").nth(number - 1)


def editor(target: Locator) -> Locator:
    """The cell's CodeMirror editor (mounted once the cell is near the viewport)."""
    target.scroll_into_view_if_needed()
    return target.locator(".cm-content")


def run(target: Locator) -> None:
    target.get_by_role("button", name=re.compile("ausführen$")).click()
    expect(target).to_have_attribute("data-state", re.compile("done|error"))


def run_first_steps_cell_1(page: Page) -> None:
    """Run cell 1 of "Erste Schritte" in the browser and check its live output."""
    first = cell(page, 1)
    first.locator("output").evaluate("node => node.replaceChildren()")  # forget the build's output
    run(first)
    expect(first).to_have_attribute("data-state", "done")
    expect(first.locator(".lk-output__text")).to_have_text(
        "1 bestellung-1\n2 bestellung-2\n3 bestellung-3\n"
    )
    expect(first.locator(".lk-output__value")).to_have_text("3")


def test_cell_runs_and_shows_its_output(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    run_first_steps_cell_1(page)


def test_second_cell_sees_the_first_cells_variables(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    run(cell(page, 2))  # runs cell 1 first, automatically
    expect(cell(page, 2).locator("output")).to_have_text("Jetzt sind es 4 Bestellungen.\n")
    expect(cell(page, 1)).to_have_attribute("data-state", "done")
    run(cell(page, 2))  # once more: the namespace is shared and kept
    expect(cell(page, 2).locator("output")).to_have_text("Jetzt sind es 5 Bestellungen.\n")


def test_exception_shows_a_short_traceback(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = cell(page, 3)
    run(target)
    error = target.locator(".lk-output__error")
    expect(error).to_contain_text("Zelle 3, Zeile 4")
    expect(error).to_contain_text("ZeroDivisionError: division by zero")
    assert "pyodide" not in error.inner_text().lower()


def test_endless_loop_is_stopped_and_the_next_run_works(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = cell(page, 6)
    editor(target).fill("while True:\n    pass")
    target.get_by_role("button", name=re.compile("ausführen$")).click()
    expect(target).to_have_attribute("data-state", "running")
    # Stopp while Python still loads only cancels the waiting run (issue 17): loaded first.
    page.wait_for_function("() => window.lessonkit.runtime.state === 'ready'")
    page.wait_for_timeout(500)
    # The page stays responsive while Python loops in the worker.
    assert page.evaluate("1 + 1") == 2
    target.get_by_role("button", name="Stopp").click()
    expect(target).to_have_attribute("data-state", "stopped")
    expect(target.locator("output")).to_contain_text("Python wurde neu gestartet")
    target.get_by_role("button", name="Zurücksetzen").click()
    run(target)
    expect(target.locator("output")).to_have_text("Runde 0\nRunde 1\nRunde 2\n")


def test_picture_from_repr_svg_is_shown_safely(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = cell(page, 4)
    target.locator("output").evaluate("node => node.replaceChildren()")
    run(target)
    svg = target.locator(".lk-output__svg svg")
    expect(svg).to_be_visible()
    expect(svg.locator("title")).to_have_text("Balken je Bestellung")
    assert svg.locator("rect").count() == 3


def test_script_inside_a_picture_does_not_run(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = cell(page, 5)
    editor(target).fill(
        "class Boese:\n"
        "    def _repr_svg_(self):\n"
        '        return (\'<svg xmlns="http://www.w3.org/2000/svg" onload="window.pwned=1">\'\n'
        '                \'<script>window.pwned=2</script><rect width="5" height="5"/></svg>\')\n'
        "Boese()"
    )
    run(target)
    expect(target.locator(".lk-output__svg svg rect")).to_have_count(1)
    assert target.locator(".lk-output__svg script").count() == 0
    assert page.evaluate("window.pwned") is None


def show_diagram(page: Page) -> Locator:
    """Scroll to the page's first mermaid diagram (drawn when near the viewport).

    Scrolled by the page itself: the theme replaces `pre.mermaid` by the drawn
    `div.mermaid` once it is near, which could detach the element under Playwright's
    own scrolling, which waits for the element to hold still first.
    """
    page.locator(".mermaid").first.evaluate(
        "(element) => element.scrollIntoView({ block: 'center' })"
    )
    return page.locator("div.mermaid svg").first


def test_mermaid_draws_a_diagram_only_when_it_comes_into_view(
    recorded: RecordingPage, site_url: str
) -> None:
    page = recorded.page
    page.goto(site_url + FIRST_STEPS)
    page.wait_for_load_state("networkidle")
    assert not [url for url in recorded.requests if "mermaid" in url]
    diagram = show_diagram(page)
    expect(diagram).to_be_visible()
    expect(diagram).to_contain_text("Versand")
    # The address carries the deployment (?v=…): compare its path only.
    paths = [urlsplit(url).path for url in recorded.requests]
    assert "/assets/generated/mermaid.min.js" in paths


def test_keyboard_alone_runs_a_cell(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = cell(page, 1)
    editor(target).focus()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nprint('per Tastatur')")
    page.keyboard.press("Shift+Enter")
    expect(target).to_have_attribute("data-state", "done")
    expect(target.locator(".lk-output__text")).to_contain_text("per Tastatur")
    page.keyboard.press("Escape")  # Escape, then Tab leaves the editor (after typing)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Ausführen"
    page.keyboard.press("Enter")
    expect(target).to_have_attribute("data-state", "done")


def test_edited_code_survives_a_reload(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    editor(cell(page, 2)).click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nprint('meine Änderung')")
    page.reload()
    expect(editor(cell(page, 2))).to_contain_text("meine Änderung")
    expect(cell(page, 2).locator("output")).to_contain_text("wiederhergestellt")
    cell(page, 2).get_by_role("button", name="Zurücksetzen").click()
    expect(editor(cell(page, 2))).not_to_contain_text("meine Änderung")


def test_no_request_leaves_the_site(recorded: RecordingPage, site_url: str) -> None:
    page = recorded.page
    page.goto(site_url + FIRST_STEPS)
    run(cell(page, 4))
    expect(show_diagram(page)).to_be_visible()
    page.goto(site_url)
    page.locator(".md-search__input").first.click()
    page.keyboard.type("Bestellung", delay=20)  # the search runs in its own worker, offline
    expect(page.locator(".md-search-result__meta")).to_contain_text("Suchergebnis")
    assert any("pyodide.asm.wasm" in url for url in recorded.requests)
    assert recorded.foreign_requests() == []
