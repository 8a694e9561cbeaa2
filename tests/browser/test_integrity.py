"""What the page runs and keeps can be trusted (issue 15, items 9–13).

- Python in the worker has no handle to the origin's caches or storage, and the service
  worker serves a shell file only with the bytes its build made;
- two course sites on one origin keep their own caches and progress;
- a damaged kept memory snapshot is dropped and fetched again;
- a page of a new deployment runs its own runtime, not the cached one of the old;
- every page has a strict Content-Security-Policy, the site works under it, and Python
  cannot reach another origin;
- stored progress is type-checked, drafts are found under `…/index.html`, and the offline
  page cache ignores query strings.

Tests that need the service worker serve their own copy of the built site (as in
test_offline.py) in a fresh browser context.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.browser.conftest import RecordingPage, copy_site
from tests.browser.deploy import deploy
from tests.browser.pages import (
    FIRST_STEPS,
    LESSON_1,
    SW_VERSION,
    Cell,
    Exercise,
    go,
    python_ready,
    python_result,
    run_first_steps_cell_1,
    show_diagram,
    use_console,
    visit_until_cached,
)
from tests.browser.waits import wait_until
from tests.siteserver import StaticServer

# --- Item 9: caches, integrity, two sites on one origin ------------------------------

STORAGE_HANDLES = """
import js
names = ("caches", "indexedDB", "Worker", "SharedWorker")
[n for n in names if hasattr(js, n) or hasattr(js.self, n) or hasattr(js.globalThis, n)]
"""


def test_python_has_no_handle_to_the_origins_caches(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    python_ready(page)
    result = python_result(page, STORAGE_HANDLES, "probe")
    assert result["error"] is None, result["error"]
    assert result["value"] == "[]"
    run_first_steps_cell_1(page)  # the page's own work is unaffected


#: JavaScript: `cached(part)` lists every request the origin's caches keep, with its cache,
#: in the caches whose name contains `part`. Put in front of a script's body.
CACHED = """
  async function cached(part = "") {
    const found = [];
    for (const name of await caches.keys()) {
      if (!name.includes(part)) continue;
      const cache = await caches.open(name);
      for (const request of await cache.keys()) found.push({ name, cache, request });
    }
    return found;
  }
"""

PLANT = (
    "async (path) => {"
    + CACHED
    + """
  const planted = [];
  for (const { name, cache, request } of await cached()) {
    if (!new URL(request.url).pathname.endsWith(path)) continue;
    const headers = { "Content-Type": "text/javascript" };
    await cache.put(request, new Response("window.planted = true;", { headers }));
    planted.push(name);
  }
  return planted;
}"""
)


def test_the_service_worker_never_serves_a_planted_script(
    context: BrowserContext, site: StaticServer
) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)
    # Anything on the origin can write into the Cache API (another site, a script).
    assert page.evaluate(PLANT, "/assets/generated/js/lessonkit.js")
    page.reload()
    run_first_steps_cell_1(page)
    assert page.evaluate("window.planted") is None
    # The planted entry was dropped and fetched again: the site works offline.
    expect(page.locator("html")).to_have_attribute("data-lk-offline", "ready")
    site.close()
    context.set_offline(True)
    page.reload()
    run_first_steps_cell_1(page)
    assert page.evaluate("window.planted") is None


@pytest.fixture
def two_sites(built_site: Path, site_url: str, tmp_path: Path) -> Iterator[StaticServer]:
    """Two copies of the course on one origin, `/a/` and `/b/`, of different deployments."""
    server = StaticServer(tmp_path / "origin", extra_headers={"Vary": "Accept-Encoding"})
    for name in ("a", "b"):
        copy_site(built_site, site_url, tmp_path / "origin" / name, server.url + f"{name}/")
    sw = tmp_path / "origin" / "b" / "sw.js"
    sw.write_text(sw.read_text().replace(SW_VERSION.search(sw.read_text())[1], "0123456789abcdef"))
    yield server
    server.close()


def solve_first_prediction(page: Page) -> None:
    target = Exercise.by_id(page, "erste-vorhersage")
    target.answer.fill("(3, 'b-3')")
    target.answer.press("Enter")
    expect(target.root).to_have_attribute("data-solved", "true")


def test_two_course_sites_on_one_origin_keep_their_own_caches_and_progress(
    context: BrowserContext, two_sites: StaticServer
) -> None:
    page = context.new_page()
    visit_until_cached(page, two_sites.url + "a/" + FIRST_STEPS)
    solve_first_prediction(page)

    other = context.new_page()
    visit_until_cached(other, two_sites.url + "b/" + FIRST_STEPS)
    expect(other.locator("#erste-vorhersage")).not_to_have_attribute("data-solved", "true")
    run_first_steps_cell_1(other)

    # Site b's service worker and memory snapshot deleted nothing of site a.
    other.close()
    two_sites.close()
    context.set_offline(True)
    page.reload()
    run_first_steps_cell_1(page)
    assert "snapshot" in python_ready(page)
    expect(page.locator("#erste-vorhersage")).to_have_attribute("data-solved", "true")


# --- Item 10: the kept memory snapshot ------------------------------------------------

#: JavaScript: `keptSnapshot()`, the kept (inflated) snapshot's cache, request and bytes,
#: or null. "memory" names the page's copy, not the service worker's download.
KEPT = (
    CACHED
    + """
  async function keptSnapshot() {
    const kept = await cached("memory");
    const found = kept.find(({ request }) => request.url.includes("/snapshot-"));
    if (!found) return null;
    const bytes = new Uint8Array(await (await found.cache.match(found.request)).arrayBuffer());
    return { ...found, bytes };
  }
"""
)

KEPT_SNAPSHOT = (
    "async () => {"
    + KEPT
    + """
  const kept = await keptSnapshot();
  const digest = kept && new Uint8Array(await crypto.subtle.digest("SHA-256", kept.bytes));
  return digest && Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}"""
)

DAMAGE = (
    "async (how) => {"
    + KEPT
    + """
  const kept = await keptSnapshot();
  if (!kept) return false;
  const bytes = how === "garbage" ? new TextEncoder().encode("not a snapshot") : kept.bytes;
  if (how !== "garbage") bytes[bytes.length >> 1] ^= 0xff;
  await kept.cache.put(kept.request, new Response(bytes));
  return true;
}"""
)


@pytest.mark.parametrize("how", ["one-byte", "garbage"])
def test_a_damaged_kept_snapshot_is_dropped_and_fetched_again(
    page: Page, site_url: str, how: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    python_ready(page)
    intact = wait_until(page, KEPT_SNAPSHOT, message="the kept snapshot")
    assert page.evaluate(DAMAGE, how)
    assert page.evaluate(KEPT_SNAPSHOT) != intact

    page.reload()
    assert "snapshot" in python_ready(page)  # from the snapshot, downloaded again
    run_first_steps_cell_1(page)
    wait_until(
        page,
        f"async () => (await ({KEPT_SNAPSHOT})()) === {json.dumps(intact)}",
        timeout=20,
        message="the snapshot kept again, intact",
    )


# --- Item 11: one deployment per page -------------------------------------------------

NEW_MODULE = "pysim/neu_in_v2.py"


def deploy_new_runtime(site: Path, version: str) -> None:
    """A deployment with a new pysim module: new package zip, a worker that names it, page
    stamps (tests/browser/deploy.py). Its service worker is still installing: sw.js stays
    the old one."""

    def add_module(files: dict[str, bytes]) -> None:
        files[NEW_MODULE] = b"WERT = 42\n"

    deploy(site, version, packages=add_module, service_worker=False)


def test_a_page_of_a_new_deployment_runs_its_own_runtime(
    context: BrowserContext, site: StaticServer
) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)
    deploy_new_runtime(site.directory, "0123456789abcdef")
    page.reload()
    python_ready(page)
    result = python_result(page, "import pysim.neu_in_v2\npysim.neu_in_v2.WERT", "probe")
    assert result["error"] is None, result["error"]
    assert result["value"] == "42"


def test_instant_navigation_to_a_page_of_a_new_deployment_loads_it_in_full(
    context: BrowserContext, site: StaticServer
) -> None:
    """Instant navigation keeps the first page's script and Python; a page of another
    deployment (its content says so) must not run its cells on them (issue 28)."""
    page = context.new_page()
    page.goto(site.url + FIRST_STEPS)
    page.wait_for_function("() => typeof window.document$ === 'object'")
    page.evaluate("window.sameDocument = true")
    deploy_new_runtime(site.directory, "0123456789abcdef")
    with page.expect_event("load"):  # a full load, not a page swapped in place
        page.get_by_role("navigation").get_by_role(
            "link", name=re.compile("Queues und")
        ).first.click()
    expect(page).to_have_url(site.url + LESSON_1)
    expect(page.locator("html")).to_have_attribute("data-lk-page", "1")  # a full load
    assert page.evaluate("window.sameDocument") is None
    python_ready(page)
    result = python_result(page, "import pysim.neu_in_v2\npysim.neu_in_v2.WERT", "probe")
    assert result["value"] == "42", result["error"]


# --- Item 12: Content-Security-Policy ---------------------------------------------------

CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"')
INLINE = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>", re.S)


def directives(policy: str) -> dict[str, list[str]]:
    parts = [part.split() for part in policy.split(";") if part.strip()]
    return {name: sources for name, *sources in parts}


def test_every_page_has_a_strict_content_security_policy(built_site: Path) -> None:
    pages = sorted(built_site.rglob("*.html"))
    assert pages
    for path in pages:
        html = path.read_text()
        found = CSP.search(html)
        assert found, f"{path}: no Content-Security-Policy"
        assert found.start() < html.index("<script"), f"{path}: policy after a script"
        policy = directives(found[1])
        scripts = policy["script-src"]
        assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, path
        assert "'wasm-unsafe-eval'" in scripts
        # Scripts of this origin, the inline ones by hash, and blob: (a reader's TypeScript node,
        # imported in the Python worker): no other origin.
        hosts = [s for s in scripts if not s.startswith("'") and s not in {"'self'", "blob:"}]
        assert hosts == [], f"{path}: scripts from {hosts}"
        assert policy["connect-src"] == ["'self'"]
        assert policy["default-src"] == ["'self'"]
        for match in INLINE.finditer(html):
            if "src=" in match["attrs"] or "application/json" in match["attrs"]:
                continue
            digest = base64.b64encode(hashlib.sha256(match["body"].encode()).digest()).decode()
            assert f"'sha256-{digest}'" in scripts, f"{path}: inline script without its hash"


RECORD_VIOLATIONS = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def test_the_site_works_under_its_policy(page: Page, site_url: str) -> None:
    page.add_init_script(RECORD_VIOLATIONS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site_url + FIRST_STEPS)
    run_first_steps_cell_1(page)
    use_console(page)
    expect(show_diagram(page)).to_be_visible()
    page.wait_for_function("() => typeof window.document$ === 'object'")
    page.locator(".md-search__input").first.click()
    page.keyboard.type("Bestellung", delay=20)
    expect(page.locator(".md-search-result__meta")).to_contain_text("Suchergebnis")
    page.keyboard.press("Escape")
    go(page, re.compile("Queues und Idempotenz"), 2)
    target = Cell.number(page, 1)
    target.start()
    expect(target.root).to_have_attribute("data-state", "done")
    expect(show_diagram(page)).to_be_visible()
    assert page.evaluate("window.violations") == []
    assert errors == []


FETCH_ELSEWHERE = """
from js import fetch
try:
    antwort = await fetch("https://example.org/")
    ergebnis = "erreicht: " + await antwort.text()
except Exception as fehler:
    ergebnis = "abgelehnt: " + type(fehler).__name__
ergebnis
"""


def test_python_reaches_only_its_own_site(context: BrowserContext, site: StaticServer) -> None:
    elsewhere: list[str] = []

    def only_here(route: Route) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:  # nothing leaves the machine; a refused request never gets here
            elsewhere.append(route.request.url)
            route.fulfill(
                status=200, body="von woanders", headers={"Access-Control-Allow-Origin": "*"}
            )

    context.route("**/*", only_here)
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS)
    page.reload()  # now the service worker serves the worker with its policy
    python_ready(page)
    result = python_result(page, FETCH_ELSEWHERE, "probe")
    assert str(result["value"]).startswith("'abgelehnt"), result
    assert elsewhere == []
    # The site's own files are still reachable from Python.
    own = python_result(page, 'from js import fetch\n(await fetch("/sitemap.xml")).status', "probe")
    assert own["value"] == "200", own


# --- Item 13: stored progress, drafts, the offline page cache ---------------------------


def test_stored_progress_of_the_wrong_types_is_ignored(page: Page, site_url: str) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site_url + FIRST_STEPS)
    exercises = page.evaluate(
        """() => [...document.querySelectorAll("[data-lk-exercise]")].map((root) => {
            const data = JSON.parse(root.querySelector("[data-lk-json]").dataset.lkJson);
            return [root.id, data.digest];
        })"""
    )
    assert exercises
    junk = {"solved": "ja", "answer": 42, "draft": 7}
    page.evaluate(
        """([exercises, junk]) => {
            for (const [id, digest] of exercises) {
                localStorage.setItem(`lk:exercise:erste-schritte/#${id}`,
                    JSON.stringify({ digest, ...junk }));
            }
        }""",
        [exercises, junk],
    )
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-lk-page", "1")
    for exercise_id, _ in exercises:
        expect(page.locator(f"#{exercise_id}")).not_to_have_attribute("data-solved", "true")
    expect(page.locator("#erste-vorhersage").get_by_label("Deine Vorhersage")).to_have_value("")
    solve_first_prediction(page)  # and the page still saves progress
    assert errors == []


def test_a_draft_is_found_when_the_page_is_reached_as_index_html(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    code = Cell.number(page, 1).editor()
    code.fill("entwurf = 'hier'")
    # Saved as the reader types (after a short pause): wait until it is stored.
    wait_until(page, "() => Object.values(localStorage).some((v) => v.includes('entwurf'))")
    page.goto(site_url + FIRST_STEPS + "index.html")
    expect(Cell.number(page, 1).editor()).to_have_text("entwurf = 'hier'")


PAGE_KEYS = (
    "async () => {"
    + CACHED
    + """
  return (await cached("pages")).map(({ request }) => request.url);
}"""
)


def test_the_offline_page_cache_ignores_query_strings(
    context: BrowserContext, site: StaticServer
) -> None:
    page = context.new_page()
    visit_until_cached(page, site.url + FIRST_STEPS + "?h=bestellung")
    keys = page.evaluate(PAGE_KEYS)
    assert site.url + FIRST_STEPS in keys
    assert [key for key in keys if "?" in key] == []

    site.close()
    context.set_offline(True)
    for address in (FIRST_STEPS + "?h=andere", FIRST_STEPS + "index.html"):
        page.goto(site.url + address)
        expect(page.locator("h1").first).to_contain_text("Erste Schritte")
    run_first_steps_cell_1(page)


def test_without_the_page_script_the_reader_is_told_and_mermaid_stays_local(
    recorded: RecordingPage, site_url: str
) -> None:
    """The page script did not come (offline, blocked): a note says so, and the theme's
    diagrams still come from this site's copy of mermaid, never from a CDN (issue 28)."""
    page = recorded.page
    page.route(re.compile(r"/lessonkit\.js"), lambda route: route.abort())
    page.goto(site_url + FIRST_STEPS)
    expect(page.locator(".lk-script-missing")).to_contain_text("ließ sich nicht laden")
    expect(show_diagram(page)).to_be_visible()
    mermaid = [url for url in recorded.requests if "mermaid" in url]
    assert mermaid and all(url.startswith(site_url) for url in mermaid), mermaid
    assert recorded.foreign_requests() == []
