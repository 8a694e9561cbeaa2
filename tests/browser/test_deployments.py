"""One deployment at a time, and only recorded bytes from the caches (issue 49, High 1 and 3,
and the kept WebAssembly's cache).

Served as a host like GitHub Pages serves a project: below ``/kurs/``, every file with
``Cache-Control: max-age=600``, so after a deployment the browser may take a page or a
script from its own cache and another file new from the network. Deployments are
simulated on the served copy (tests/browser/deploy.py): what a second build would change.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.deploy import deploy, version_of
from tests.browser.pages import (
    FIRST_STEPS,
    LESSON_2,
    Cell,
    python_ready,
    run_first_steps_cell_1,
    use_console,
    visit_until_cached,
)
from tests.browser.waits import wait_until
from tests.siteserver import StaticServer, copy_site

NEW = "0123456789abcdef"
CHALLENGE = "herausforderungen/echo/"
RELOADING = "Sie wird neu geladen"
STUCK = "auch nach dem Neuladen kam wieder die alte Fassung"


class Host:
    """The built course below ``/kurs/``, each file fresh for ten minutes; files whose path
    contains one of ``evicted`` are never kept by the browser (as if its cache had let
    them go), so they come from the deployment the server has now."""

    def __init__(
        self, built_site: Path, site_url: str, folder: Path, evicted: tuple[str, ...]
    ) -> None:
        self.server = StaticServer(folder, cache_seconds=600)
        self.site = folder / "kurs"
        self.url = self.server.url + "kurs/"
        copy_site(built_site, site_url, self.site, self.url)
        served = self.server._server.RequestHandlerClass
        assert isinstance(served, functools.partial)

        class Evicting(served.func):  # type: ignore[misc,name-defined]
            def end_headers(self) -> None:
                if any(part in self.path for part in evicted):
                    self.cache_seconds = None
                    self.send_header("Cache-Control", "no-store")
                super().end_headers()

        self.server._server.RequestHandlerClass = functools.partial(Evicting, **served.keywords)


@pytest.fixture
def host(
    request: pytest.FixtureRequest, built_site: Path, site_url: str, tmp_path: Path
) -> Iterator[Host]:
    marker = request.node.get_closest_marker("evicted")
    served = Host(built_site, site_url, tmp_path / "root", marker.args if marker else ())
    yield served
    served.server.close()


@pytest.fixture
def no_service_worker(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.set_default_timeout(60_000)
    yield context
    context.close()


def first_steps_ready(context: BrowserContext, host: Host) -> Page:
    """A new tab on the host's first steps page, once Python answers there."""
    page = context.new_page()
    page.goto(host.url + FIRST_STEPS)
    python_ready(page)
    return page


def page_version(page: Page) -> str:
    return page.locator('meta[name="lessonkit-version"]').get_attribute("content") or ""


def loads(page: Page) -> list[str]:
    """How this document was reached ("navigate", "reload", …)."""
    return page.evaluate("performance.getEntriesByType('navigation').map((entry) => entry.type)")


def expect_current(page: Page, version: str) -> None:
    """The page, its script and its Python are all of deployment ``version``."""
    expect(page.locator('meta[name="lessonkit-version"]')).to_have_attribute("content", version)
    python_ready(page)
    assert page.evaluate("window.lessonkit.version") == version


def rename_console_run(files: dict[str, bytes]) -> None:
    """A deployment that renames a bridge call (Python's side)."""
    bridge = files["lessonkit/runtime/bridge.py"].decode()
    assert '"console.run"' in bridge
    files["lessonkit/runtime/bridge.py"] = bridge.replace(
        '"console.run"', '"console.ausfuehren"'
    ).encode()


def renamed_in_page_script(site: Path) -> None:
    """The same rename in the new page script (its chunks included)."""
    for script in (site / "assets" / "generated" / "js").rglob("*.js"):
        text = script.read_text()
        if '"console.run"' in text:
            script.write_text(text.replace('"console.run"', '"console.ausfuehren"'))


# --- High 1: an old page never runs a new runtime ---------------------------------------


def test_an_old_page_from_the_browsers_cache_runs_its_own_runtime(
    no_service_worker: BrowserContext, host: Host
) -> None:
    """Path (b) of the issue: no service worker, a deployment renames a bridge call, a
    lesson visited before opens in a new tab from the browser's cache. Its worker came
    with it, and the runtime's names come with the worker: its console answers."""
    old = version_of(host.site)
    first = first_steps_ready(no_service_worker, host)
    use_console(first)
    first.close()

    renamed_in_page_script(host.site)
    deploy(host.site, NEW, packages=rename_console_run)

    page = first_steps_ready(no_service_worker, host)
    assert page.evaluate("window.lessonkit.version") == page_version(page) == old
    # The same context kept the first tab's command: it runs again first, on this runtime.
    use_console(page, offset=2)
    expect(page.locator("[data-lk-console]").first).to_contain_text("Dein Befehl von vorhin lief")
    expect(page.locator("[data-lk-console]").first).not_to_contain_text("Unbekannter Aufruf")


@pytest.mark.evicted("/worker.js")
def test_an_old_page_with_a_new_worker_reloads_once_and_keeps_the_readers_work(
    no_service_worker: BrowserContext, host: Host
) -> None:
    """The old page and page script from the browser's cache, the worker new from the
    network: the worker says so before it loads anything, the page reloads into the new
    deployment, and the draft and console command from before are there."""
    page = first_steps_ready(no_service_worker, host)
    use_console(page)
    cell = Cell.number(page, 1)
    editor = cell.editor()
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nprint('mein Entwurf')")  # the last thing typed before the deployment

    renamed_in_page_script(host.site)
    deploy(host.site, NEW, packages=rename_console_run)
    other = no_service_worker.new_page()
    other.goto(host.url + FIRST_STEPS)
    expect_current(other, NEW)
    assert loads(other) == ["reload"]
    expect(Cell.number(other, 1).editor()).to_contain_text("mein Entwurf")
    log = other.locator("[data-lk-console]").first
    expect(log).to_contain_text("Partition 1, Offset 1")  # the command ran again, on the new Python
    expect(log).not_to_contain_text("Unbekannter Aufruf")


@pytest.mark.evicted("/worker.js")
def test_when_the_server_keeps_sending_the_old_page_the_page_says_so_and_stops(
    no_service_worker: BrowserContext, host: Host
) -> None:
    """The host's pages are still the old ones (say a cache in front of it has not caught
    up) while the worker is new: one reload, then a German notice, no loop, no Python."""
    first_steps_ready(no_service_worker, host)  # an old tab, open while the new one lands
    deploy(host.site, NEW, only=("assets/generated/js/**/*.js",))  # pages stay the old ones

    other = no_service_worker.new_page()
    other.goto(host.url + FIRST_STEPS)
    notice = other.locator(".lk-out-of-date")
    expect(notice).to_contain_text(STUCK)
    expect(other.locator("html")).to_have_attribute("data-lk-out-of-date", "stuck")
    assert loads(other) == ["reload"]  # reloaded once, and no more
    assert other.evaluate("window.lessonkit.runtime.state") != "ready"
    # The build's output stays readable.
    expect(other.locator("[data-lk-cell] output").first).to_contain_text("bestellung-1")


@pytest.mark.evicted("/lessonkit.css")
def test_an_old_page_with_a_new_stylesheet_reloads_into_the_new_deployment(
    no_service_worker: BrowserContext, host: Host
) -> None:
    first_steps_ready(no_service_worker, host)  # an old tab, open while the new one lands
    deploy(host.site, NEW)
    other = no_service_worker.new_page()
    other.goto(host.url + FIRST_STEPS)
    expect_current(other, NEW)
    assert loads(other) == ["reload"]
    assert (
        other.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--lk-version')"
        ).strip('" ')
        == NEW
    )


def test_after_neu_laden_a_page_kept_by_the_browser_reloads_into_the_new_deployment(
    context: BrowserContext, host: Host
) -> None:
    """Path (a) of the issue: a lesson kept offline, a challenge, the lesson again; a
    deployment; "Neu laden"; the challenge in a new tab comes from the browser's cache,
    old, while the active service worker is the new one. It must not run the new script
    and Python under the old page: it reloads itself into the new deployment."""
    page = context.new_page()
    visit_until_cached(page, host.url + FIRST_STEPS)
    page.goto(host.url + CHALLENGE)
    python_ready(page)
    page.goto(host.url + FIRST_STEPS)
    python_ready(page)

    deploy(host.site, NEW)
    page.reload()
    notice = page.locator(".lk-update")
    expect(notice).to_contain_text("Eine neue Version des Kurses ist da.")
    with page.expect_navigation():
        notice.get_by_role("button", name="Neu laden").click()
    expect_current(page, NEW)

    challenge = context.new_page()
    challenge.goto(host.url + CHALLENGE)
    expect_current(challenge, NEW)


# --- High 3: the service worker serves only recorded bytes --------------------------------

#: JavaScript: put `body` in place of every cached copy whose path matches `pattern`, or
#: under `address` into the page cache when none does; returns the caches written.
PLANT = """async ([pattern, address, body, type]) => {
  const planted = [];
  const headers = { "Content-Type": type };
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (!new RegExp(pattern).test(new URL(request.url).pathname)) continue;
      await cache.put(request, new Response(body, { headers }));
      planted.push(name);
    }
  }
  if (address && planted.length === 0) {
    const pages = (await caches.keys()).find((name) => name.includes(":pages"));
    await (await caches.open(pages)).put(address, new Response(body, { headers }));
    planted.push(pages);
  }
  return planted;
}"""

#: JavaScript: the cached entries that still hold planted bytes.
PLANTED_LEFT = """async () => {
  const left = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if ((await (await cache.match(request)).text()).includes("window.planted")) left.push(request.url);
    }
  }
  return left;
}"""

FAKE_LESSON = "<!doctype html><title>Lektion</title><h1>Gefälschte Lektion</h1>"


def test_offline_a_planted_theme_script_or_lesson_page_is_refused(
    context: BrowserContext, site: StaticServer
) -> None:
    """Served without `max-age`: the browser's own cache has nothing (it has expired), so
    offline only the service worker's caches could answer."""
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)
    bundle = r"/assets/javascripts/bundle\.[0-9a-f]+\.min\.js$"
    theme = page.evaluate(PLANT, [bundle, None, "window.planted = true;", "text/javascript"])
    assert theme and all(":pages" in name for name in theme)
    site.close()
    context.set_offline(True)

    # The lesson's own copy is intact: it loads and runs; the planted theme script does not.
    page.reload()
    expect(page.locator("h1").first).to_contain_text("Erste Schritte")
    run_first_steps_cell_1(page)
    page.wait_for_function("() => window.lessonkitTheme && window.lessonkitTheme.requested")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.planted") is None
    assert page.evaluate(PLANTED_LEFT) == []  # dropped from the cache

    # A fake lesson in place of a visited one, and one never visited: the offline note.
    assert page.evaluate(PLANT, [r"/erste-schritte/$", None, FAKE_LESSON, "text/html"])
    assert page.evaluate(PLANT, [r"^$", site.url + LESSON_2, FAKE_LESSON, "text/html"])
    # (The browser's own cache may still hold the real page for a moment: that one, never
    # the planted one.)
    page.goto(site.url + FIRST_STEPS)
    expect(page.locator("h1").first).not_to_have_text(re.compile("Gefälschte"))
    page.goto(site.url + LESSON_2)
    expect(page.locator("h1")).to_have_text("Du bist offline")


# --- Low: the kept WebAssembly goes into the site's own cache ------------------------------

KEPT_WASM = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) {
      if (new URL(request.url).pathname.endsWith("/pyodide.asm.wasm")) found.push(name);
    }
  }
  return found;
}"""


def test_the_kept_webassembly_goes_into_the_sites_cache_below_a_sub_path(
    no_service_worker: BrowserContext, host: Host
) -> None:
    page = first_steps_ready(no_service_worker, host)
    # Where it went before: one folder too deep. An entry left there is dropped.
    page.evaluate(
        """async (url) => (await caches.open("lessonkit:/kurs/assets/:memory"))
            .put(url + "?sha256=alt", new Response("alt"))""",
        host.url + "assets/generated/pyodide/pyodide.asm.wasm",
    )
    page.reload()
    python_ready(page)
    wait_until(page, f"async () => (await ({KEPT_WASM})()).length > 0", message="the kept copy")
    assert page.evaluate(KEPT_WASM) == ["lessonkit:/kurs/:memory"]
    assert "lessonkit:/kurs/assets/:memory" not in page.evaluate("caches.keys()")
    assert re.fullmatch(r"[0-9a-f]{16}", page_version(page))
