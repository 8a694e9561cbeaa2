"""Offline use: the service worker keeps a visited lesson working without a network,
and a new deployment replaces its cache only when the reader asks.

Each test serves its own copy of the built site and closes that server to take the
network away (as well as switching the browser context offline), so nothing can
quietly come from the network. Each test has a fresh browser context: service
workers and their caches live per context.
"""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, Request, expect

from tests.browser.pages import (
    FIRST_STEPS,
    LESSON_1,
    LESSON_2,
    SW_VERSION,
    run_first_steps_cell_1,
    use_console,
    visit_until_cached,
)
from tests.browser.waits import wait_until
from tests.siteserver import StaticServer

NOT_VISITED = LESSON_2
SECOND_VISITED = LESSON_1


def shell(version: str) -> str:
    """The shell cache of a deployment of the site at the server's root (offline/protocol.ts)."""
    return f"lessonkit:/:shell-{version}"


def cache_names(page: Page) -> list[str]:
    return sorted(page.evaluate("caches.keys()"))


def test_visited_lesson_works_offline(context: BrowserContext, site: StaticServer) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)

    site.close()
    context.set_offline(True)
    failed: list[str] = []

    def note_failed(request: Request) -> None:
        # The WebAssembly's copy and the snapshot are asked for while their kept copies are
        # looked for, and stopped once those are found (worker/wasm.ts, snapshot.ts).
        stopped = request.failure == "net::ERR_ABORTED" and request.url.endswith(".zst")
        if not stopped:
            failed.append(f"{request.url}: {request.failure}")

    page.on("requestfailed", note_failed)
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    expect(page.locator("h1").first).to_contain_text("Erste Schritte")
    run_first_steps_cell_1(page)
    # Python came from the memory snapshot (its kept copy), not a plain start.
    assert "snapshot" in page.evaluate("window.lessonkit.runtime.readyStages")
    use_console(page)
    page.locator(".md-search__input").first.click()
    page.keyboard.type("Bestellung", delay=20)
    expect(page.locator(".md-search-result__meta")).to_contain_text("Suchergebnis")
    assert failed == []

    # A page never opened online is not stored: a short German note, not the browser's error.
    page.goto(site.url + NOT_VISITED)
    expect(page.locator("h1")).to_have_text("Du bist offline")


def test_returning_visit_does_not_wait_for_the_service_worker(
    context: BrowserContext, site: StaticServer
) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)
    page.reload()
    run_first_steps_cell_1(page)
    # The page's HTML is requested while the service worker starts (navigation preload).
    state = page.evaluate(
        "async () => (await navigator.serviceWorker.ready).navigationPreload.getState()"
    )
    assert state["enabled"] is True
    # The runtime comes from the service worker, which checks each file's bytes (no static
    # route: that would answer from the cache unchecked).
    via_worker = page.evaluate(
        """() => performance.getEntriesByType('resource')
            .filter((entry) => entry.name.includes('/assets/generated/'))
            .every((entry) => entry.workerStart > 0)"""
    )
    assert via_worker


def test_new_deployment_offers_reload_and_replaces_the_cache(
    context: BrowserContext, site: StaticServer
) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)
    sw = site.directory / "sw.js"
    old = SW_VERSION.search(sw.read_text()).group(1)
    assert shell(old) in cache_names(page)

    # A new deployment: the service worker's version changes.
    new = "0123456789abcdef"
    assert new != old
    sw.write_text(sw.read_text().replace(old, new))
    page.reload()  # the browser looks for a new service worker on navigation
    page.evaluate("window.sameDocument = true")
    notice = page.locator(".lk-update")
    expect(notice).to_contain_text("Eine neue Version des Kurses ist da.")
    # The reader is not interrupted: the page was not reloaded by itself.
    assert page.evaluate("window.sameDocument") is True
    assert shell(old) in cache_names(page)

    with page.expect_navigation():
        notice.get_by_role("button", name="Neu laden").click()
    assert page.evaluate("window.sameDocument") is None
    expect(page.locator("html")).to_have_attribute("data-lk-offline", "ready")
    names = cache_names(page)
    assert shell(new) in names
    assert shell(old) not in names
    expect(page.locator(".lk-update")).to_have_count(0)

    # The new cache is complete on its own.
    site.close()
    context.set_offline(True)
    page.reload()
    run_first_steps_cell_1(page)


def test_no_service_worker_under_live_reload(context: BrowserContext, site: StaticServer) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)
    # mkdocs serve's live-reload script defines window.livereload.
    page.add_init_script("window.livereload = function () {};")
    page.reload()
    wait_until(page, "async () => (await navigator.serviceWorker.getRegistrations()).length === 0")
    # The worker still controls this page until it is left; retired, it stores nothing more
    # of what the page loads (the search index, a chunk). Only the kept snapshot may stay.
    wait_until(page, "async () => (await caches.keys()).every((name) => name.endsWith(':memory'))")
    run_first_steps_cell_1(page)
    page.wait_for_load_state("networkidle")
    assert [name for name in cache_names(page) if not name.endswith(":memory")] == []


def test_instant_navigation_between_visited_lessons_offline(
    context: BrowserContext, site: StaticServer
) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + SECOND_VISITED)
    page.get_by_role("navigation").get_by_role("link", name="Erste Schritte").first.click()
    expect(page.locator("html")).to_have_attribute("data-lk-page", "2")
    expect(page.locator("html")).to_have_attribute("data-lk-offline", "ready")

    site.close()
    context.set_offline(True)
    page.evaluate("window.sameDocument = true")
    run_first_steps_cell_1(page)
    page.get_by_role("navigation").get_by_role(
        "link", name=re.compile("Queues und Idempotenz")
    ).first.click()
    expect(page.locator("html")).to_have_attribute("data-lk-page", "3")
    cell = page.locator("[data-lk-cell]:not([hidden])").first
    cell.get_by_role("button", name=re.compile("ausführen$")).click()
    expect(cell).to_have_attribute("data-state", "done")
    page.go_back()
    expect(page.locator("html")).to_have_attribute("data-lk-page", "4")
    run_first_steps_cell_1(page)
    assert page.evaluate("window.sameDocument") is True  # no full page load, no network
