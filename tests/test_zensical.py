"""The course built with Zensical (Material for MkDocs' successor) instead of MkDocs.

``scripts/build-zensical`` builds it once for this module; the tests check that the
pages carry the build's real outputs and Material's page machinery, that nothing in
the output fetches from another origin (tests/test_no_foreign_origin.py checks both
builds), and,
in headless Chromium, that a cell runs, a console takes a command, an exercise is
checked and the search works, with no request leaving 127.0.0.1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import Page, expect

from tests.browser.conftest import RecordingPage, recording_page
from tests.browser.pages import Cell, Exercise, run_first_steps_cell_1, show_diagram, use_console
from tests.siteserver import StaticServer

FIRST_STEPS = "erste-schritte/"


def soup(site: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / page / "index.html").read_text(encoding="utf-8"), "html.parser")


def test_pages_carry_the_build_outputs_and_materials_machinery(zensical_site: Path) -> None:
    page = soup(zensical_site, "erste-schritte")
    assert page.find("html")["lang"] == "de"
    cells = page.select("[data-lk-cell]")
    assert len(cells) >= 5
    assert (
        cells[0].select_one("output").get_text()
        == "1 bestellung-1\n2 bestellung-2\n3 bestellung-3\n3"
    )
    assert page.select("[data-lk-console]") and page.select("[data-lk-exercise]")
    # overrides/main.html (theme.custom_dir) starts the worker in <head>.
    assert "lessonkitEarlyWorker" in str(page.find("head"))
    # extra_javascript keeps type: module; the theme has Material's __config for the page script.
    scripts = [script for script in page.select("script[src]") if "lessonkit.js" in script["src"]]
    assert [script.get("type") for script in scripts] == ["module"]
    assert page.select_one("script#__config") is not None
    generated = zensical_site / "assets" / "generated"
    for name in ("runtime.json", "js/lessonkit.js", "js/worker.js", "pyodide/pyodide.asm.wasm"):
        assert (generated / name).stat().st_size > 0, name


@pytest.fixture
def recorded(
    browser: object, zensical_site: Path, zensical_server: StaticServer
) -> Iterator[RecordingPage]:
    with recording_page(browser) as recorded:
        yield recorded


@pytest.mark.browser
def test_cell_console_exercise_navigation_and_search_stay_on_the_site(
    recorded: RecordingPage, zensical_server: StaticServer
) -> None:
    page: Page = recorded.page  # type: ignore[assignment]
    page.goto(zensical_server.url + FIRST_STEPS)

    run_first_steps_cell_1(page)

    use_console(page)

    quiz = Exercise.by_id(page, "erstes-quiz")
    quiz.choose("In deinem Browser, in einem Web Worker.")
    quiz.check()
    expect(quiz.root).to_have_attribute("data-solved", "true")

    expect(show_diagram(page)).to_contain_text("Versand")

    # Instant navigation: the next page comes without a reload (the window keeps its
    # marker), Zensical's document$ announces it and its cells run.
    page.evaluate("window.lkSamePage = true")
    page.locator(".md-nav__link", has_text="1 · Queues und Idempotenz").first.click()
    expect(page).to_have_url(re.compile("lektionen/queues-und-idempotenz/"))
    expect(page.locator("h1")).to_contain_text("Grundprobleme, Queues und idempotente Consumer")
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")
    assert page.evaluate("window.lkSamePage") is True

    page.goto(zensical_server.url)
    # Zensical's own search: a dialog (in a shadow root) instead of Material's field.
    page.locator(".md-search__button").click()
    page.keyboard.type("Bestellung", delay=20)  # the search runs in its own worker, offline
    expect(page.get_by_role("listbox").get_by_role("option").first).to_contain_text("Bestellung")

    assert any("pyodide.asm.wasm" in url for url in recorded.requests)
    assert recorded.foreign_requests() == []
