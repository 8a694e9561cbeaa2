"""Cells on the built site, driven in headless Chromium like a reader would."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.browser.conftest import RecordingPage
from tests.browser.pages import (
    FIRST_STEPS,
    Cell,
    phone_page,
    python_ready,
    run_first_steps_cell_1,
    show_diagram,
)


def test_cell_runs_and_shows_its_output(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    run_first_steps_cell_1(page)


def test_second_cell_sees_the_first_cells_variables(page: Page, site_url: str) -> None:
    second = Cell.on(page, site_url + FIRST_STEPS, 2)
    second.run()  # runs cell 1 first, automatically
    expect(second.output).to_have_text("Jetzt sind es 4 Bestellungen.\n")
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")
    second.run()  # once more: the namespace is shared and kept
    expect(second.output).to_have_text("Jetzt sind es 5 Bestellungen.\n")


def test_exception_shows_a_short_traceback(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 3)
    target.run()
    error = target.error
    expect(error).to_contain_text("Zelle 3, Zeile 4")
    expect(error).to_contain_text("ZeroDivisionError: division by zero")
    assert "pyodide" not in error.inner_text().lower()


def test_endless_loop_is_stopped_and_the_next_run_works(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    target.start_code("while True:\n    pass")
    # Stopp while Python still loads only cancels the waiting run (issue 17): loaded first.
    python_ready(page)
    expect(target.root).to_have_attribute("data-state", "running")
    # The page stays responsive while Python loops in the worker.
    assert page.evaluate("1 + 1") == 2
    target.stop()
    expect(target.root).to_have_attribute("data-state", "stopped")
    expect(target.output).to_contain_text("Python wurde neu gestartet")
    target.root.get_by_role("button", name="Zurücksetzen").click()
    target.run()
    expect(target.output).to_have_text("Runde 0\nRunde 1\nRunde 2\n")


def test_picture_from_repr_svg_is_shown_safely(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 4)
    target.run_live()
    svg = target.svg
    expect(svg).to_be_visible()
    expect(svg.locator("title")).to_have_text("Balken je Bestellung")
    assert svg.locator("rect").count() == 3


def test_script_inside_a_picture_does_not_run(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 5)
    target.editor().fill(
        "class Boese:\n"
        "    def _repr_svg_(self):\n"
        '        return (\'<svg xmlns="http://www.w3.org/2000/svg" onload="window.pwned=1">\'\n'
        '                \'<script>window.pwned=2</script><rect width="5" height="5"/></svg>\')\n'
        "Boese()"
    )
    target.run()
    expect(target.svg.locator("rect")).to_have_count(1)
    assert target.root.locator(".lk-output__svg script").count() == 0
    assert page.evaluate("window.pwned") is None


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
    target = Cell.on(page, site_url + FIRST_STEPS, 1)
    target.editor().focus()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nprint('per Tastatur')")
    page.keyboard.press("Shift+Enter")
    expect(target.root).to_have_attribute("data-state", "done")
    expect(target.text).to_contain_text("per Tastatur")
    page.keyboard.press("Escape")  # Escape, then Tab leaves the editor (after typing)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Ausführen"
    page.keyboard.press("Enter")
    expect(target.root).to_have_attribute("data-state", "done")


def test_edited_code_survives_a_reload(page: Page, site_url: str) -> None:
    second = Cell.on(page, site_url + FIRST_STEPS, 2)
    second.editor().click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nprint('meine Änderung')")
    page.reload()
    expect(second.editor()).to_contain_text("meine Änderung")
    expect(second.output).to_contain_text("wiederhergestellt")
    second.root.get_by_role("button", name="Zurücksetzen").click()
    expect(second.editor()).not_to_contain_text("meine Änderung")


def test_no_request_leaves_the_site(recorded: RecordingPage, site_url: str) -> None:
    page = recorded.page
    page.goto(site_url + FIRST_STEPS)
    Cell.number(page, 4).run()
    expect(show_diagram(page)).to_be_visible()
    page.goto(site_url)
    page.locator(".md-search__input").first.click()
    page.keyboard.type("Bestellung", delay=20)  # the search runs in its own worker, offline
    expect(page.locator(".md-search-result__meta")).to_contain_text("Suchergebnis")
    assert any("pyodide.asm.wasm" in url for url in recorded.requests)
    assert recorded.foreign_requests() == []


def test_on_a_touch_screen_the_editor_hint_names_no_keys(browser: Any, site_url: str) -> None:
    # A phone's keyboard has no Tab and no Esc: the hint says what works there instead.
    with phone_page(browser, site_url + FIRST_STEPS, touch=True) as page:
        editor = Cell.number(page, 1).editor()
        editor.tap()
        hint = Cell.number(page, 1).root.locator(".lk-editor__hint")
        expect(hint).to_be_visible()
        shown = hint.inner_text()
        assert "Ausführen" in shown and "Tab" not in shown and "Esc" not in shown, shown


def test_on_a_phone_a_long_line_wraps_under_its_own_indentation(
    browser: Any, site_url: str
) -> None:
    # A phone shows about 40 characters of a line: the editor wraps instead of scrolling
    # sideways, and a wrapped indented line goes on under its indentation, not the margin.
    with phone_page(browser, site_url + FIRST_STEPS) as page:
        editor = Cell.number(page, 1).editor()
        lang = "    " + ", ".join(f"wert_{i} = {i}" for i in range(12))
        editor.fill("def f():\n" + lang + "\n    return 1")
        scroller = Cell.number(page, 1).root.locator(".cm-scroller")
        assert scroller.evaluate("(s) => s.scrollWidth - s.clientWidth") <= 0
        line = Cell.number(page, 1).root.locator(".cm-line").nth(1)
        expect(line).to_have_class(re.compile("lk-wrap-indent"))
        rows = line.evaluate(
            """(line) => {
                const range = document.createRange(); range.selectNodeContents(line);
                const rects = [...range.getClientRects()].filter((r) => r.width > 0);
                const box = line.getBoundingClientRect();
                return rects.map((r) => [Math.round(r.top), Math.round(r.left - box.left)]);
            }"""
        )
        tops = sorted({top for top, _ in rows})
        assert len(tops) >= 2, rows  # it wraps
        first = min(left for top, left in rows if top == tops[0])
        rest = min(left for top, left in rows if top == tops[1])
        assert rest > first + 20, rows  # the next row starts under the indentation
