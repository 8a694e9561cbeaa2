"""A fresh browser page per test, recording every request it makes; a copy of the built
site on a server of its own, for tests that take the network away."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.siteserver import StaticServer, copy_site

# A cold start of Python under a loaded CI machine can take several seconds.
expect.set_options(timeout=60_000)

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder drives Chromium: marked ``browser`` here, once, before
    ``-m`` selects (``scripts/test --fast`` leaves them out, a new file's as well)."""
    for item in items:
        if item.path.parent == HERE:
            item.add_marker(pytest.mark.browser)


# Material draws mermaid diagrams into a closed shadow root; open it for the tests.
OPEN_SHADOW_ROOTS = """
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) { return attach.call(this, { ...init, mode: "open" }); };
"""


class RecordingPage:
    """A Playwright page plus the list of URLs it requested."""

    def __init__(self, page: Page, requests: list[str]) -> None:
        self.page = page
        self.requests = requests

    def foreign_requests(self) -> list[str]:
        return [url for url in self.requests if urlsplit(url).hostname not in ("127.0.0.1", None)]


@contextmanager
def recording_page(browser: Browser) -> Iterator[RecordingPage]:
    """A page in a fresh desktop-sized context that records its requests."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(OPEN_SHADOW_ROOTS)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.set_default_timeout(60_000)
    yield RecordingPage(page, requests)
    context.close()


@pytest.fixture
def recorded(browser: Browser, site_url: str) -> Iterator[RecordingPage]:
    with recording_page(browser) as recorded:
        yield recorded


@pytest.fixture
def page(recorded: RecordingPage) -> Page:
    return recorded.page


@pytest.fixture
def site(built_site: Path, site_url: str, tmp_path: Path) -> Iterator[StaticServer]:
    """A copy of the built site on a server of its own, which the test may stop.

    The server sends `Vary: Accept-Encoding`, as GitHub Pages does: cached files must
    still match.
    """
    server = StaticServer(tmp_path / "site", extra_headers={"Vary": "Accept-Encoding"})
    copy_site(built_site, site_url, tmp_path / "site", server.url)
    yield server
    server.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh desktop-sized context (service workers and their caches live per context)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(60_000)
    yield context
    context.close()
