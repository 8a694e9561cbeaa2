"""On pages with Python, Material's script waits until Python is ready (overrides/main.html).

It comes earlier when Python fails or the reader touches the page outside the course's
blocks, after 2.5 s at the latest; then search, instant navigation and the page script's
later pages work as before.

The tests assert order and reasons, never durations: on a busy machine Python may take
longer than the 2.5-s fallback, so tests of the order after Python switch that fallback
off (NO_FALLBACK) instead of racing it.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.pages import FIRST_STEPS, Cell

THEME_LOADED = "() => typeof window.document$ === 'object'"


def bundle_requested_at(page: Page) -> float:
    return page.evaluate(
        """() => performance.getEntriesByType('resource')
            .find((entry) => /javascripts\\/bundle\\.[0-9a-f]+\\.min\\.js$/.test(entry.name)).startTime"""
    )


def hang(route: Route) -> None:
    """Never answer: Python keeps loading."""


def search(page: Page) -> None:
    page.locator(".md-search__input").first.click()
    page.keyboard.type("Bestellung", delay=20)
    expect(page.locator(".md-search-result__meta")).to_contain_text("Suchergebnis")


# Clears the loader's fallback timer the moment the loader has set it up.
NO_FALLBACK = """
Object.defineProperty(window, "lessonkitTheme", {
  configurable: true,
  get() { return undefined; },
  set(theme) {
    Object.defineProperty(window, "lessonkitTheme", { value: theme, writable: true, configurable: true });
    queueMicrotask(() => clearTimeout(theme.fallback));
  },
});
"""


def theme_reason(page: Page) -> str:
    return page.evaluate("window.lessonkitTheme.reason")


def open_and_expect_theme_after(page: Page, url: str, moment: str) -> None:
    """Open ``url``: the theme script comes because Python is ready, and only after
    ``moment`` (a JavaScript expression for a `performance.now()` time)."""
    page.goto(url)
    page.wait_for_function(THEME_LOADED)
    assert theme_reason(page) == "python"
    at = page.evaluate(moment)
    assert at is not None and bundle_requested_at(page) >= at


def test_theme_script_comes_once_python_is_ready(page: Page, site_url: str) -> None:
    page.add_init_script(NO_FALLBACK)
    open_and_expect_theme_after(page, site_url + FIRST_STEPS, "window.lessonkit.runtime.readyAt")
    # Material works as usual: copy buttons, search, instant navigation with fresh cells.
    expect(page.get_by_role("button", name="In Zwischenablage kopieren").first).to_be_attached()
    search(page)
    page.keyboard.press("Escape")
    # The search closed (its toggle unchecked) before the click: a click into the closing
    # overlay would not reach the link.
    expect(page.locator("#__search")).not_to_be_checked()
    page.get_by_role("navigation").get_by_role(
        "link", name=re.compile("Queues und Idempotenz")
    ).first.click()
    expect(page.locator("html")).to_have_attribute("data-lk-page", "2")
    Cell.number(page, 1).run()


CLICK_AT_ONCE = """
new MutationObserver((records, observer) => {
  const cell = document.querySelector("[data-lk-cell]:not([hidden])");
  const button = cell && cell.querySelector(".lk-button--run");
  if (!button) return;
  observer.disconnect();
  const output = cell.querySelector("output");
  new MutationObserver(() => {
    if (output.textContent !== "") window.firstOutputAt ??= performance.now();
  }).observe(output, { childList: true, subtree: true, characterData: true });
  button.click();
}).observe(document, { childList: true, subtree: true });
"""


def test_theme_script_waits_for_the_output_the_reader_asked_for(page: Page, site_url: str) -> None:
    # Evaluating it takes the main thread for a while; the output comes first.
    page.add_init_script(NO_FALLBACK)
    page.add_init_script(CLICK_AT_ONCE)
    open_and_expect_theme_after(page, site_url + FIRST_STEPS, "window.firstOutputAt")
    expect(Cell.number(page, 1).value).to_have_text("3")


def test_theme_script_comes_when_the_reader_touches_the_page(page: Page, site_url: str) -> None:
    page.add_init_script(NO_FALLBACK)  # only the touch can bring it, however long that takes
    page.route("**/pyodide.asm.wasm*", hang)
    page.goto(site_url + FIRST_STEPS)
    page.wait_for_function("() => window.lessonkit && window.lessonkit.pages === 1")
    assert page.evaluate(THEME_LOADED) is False
    page.locator("h1").first.click()  # a touch outside the course's blocks brings the theme
    page.wait_for_function(THEME_LOADED)
    assert theme_reason(page) == "touch"
    search(page)
    assert page.evaluate("window.lessonkit.runtime.state") == "loading"


def test_the_search_index_waits_for_python_or_the_search(page: Page, site_url: str) -> None:
    # On a slow connection the index would share the line with Python's files.
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.route("**/pyodide.asm.wasm*", hang)
    page.goto(site_url + FIRST_STEPS)
    page.wait_for_function(THEME_LOADED)  # after 2.5 s without Python
    page.wait_for_timeout(500)  # time enough for the theme's first requests
    assert not [url for url in asked if "search_index.json" in url]
    search(page)  # the reader turns to the search: it is fetched and works
    assert [url for url in asked if "search_index.json" in url]
    assert page.evaluate("window.lessonkit.runtime.state") == "loading"


def test_theme_script_comes_without_python_after_a_while(page: Page, site_url: str) -> None:
    page.route("**/assets/generated/js/worker.js*", hang)
    page.goto(site_url + FIRST_STEPS)
    page.wait_for_function(THEME_LOADED)
    assert theme_reason(page) == "timeout"
    search(page)


def test_dark_system_gets_the_dark_scheme_before_the_theme_script(
    browser: Browser, site_url: str
) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.add_init_script(NO_FALLBACK)
    page.route("**/pyodide.asm.wasm*", hang)
    page.goto(site_url + FIRST_STEPS)
    assert page.evaluate(THEME_LOADED) is False
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    context.close()


def test_pages_without_python_load_the_theme_as_usual(page: Page, site_url: str) -> None:
    page.goto(site_url)  # the start page: progress overview, no Python
    assert page.evaluate("typeof window.lessonkitTheme") == "undefined"
    page.wait_for_function(THEME_LOADED)
