"""Firefox ESR and WebKitGTK from Debian: one fresh browser per engine for this folder's
tests (a browser starts in seconds, and only one runs at a time). In each browser the
tests marked `fresh_browser` come first and those marked `last_in_browser` last."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engines import browsers
from tests.engines.browsers import Engine
from tests.engines.reader import Reader

ENGINE_PARAMS = [pytest.param(name, marks=getattr(pytest.mark, name)) for name in browsers.ENGINES]
HERE = Path(__file__).parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "fresh_browser: runs first in its engine's browser (measures it as it started)"
    )
    config.addinivalue_line(
        "markers", "last_in_browser: runs last in its engine's browser (it disturbs what follows)"
    )


def browser_order(item: pytest.Item) -> int:
    if item.get_closest_marker("fresh_browser"):
        return 0
    return 2 if item.get_closest_marker("last_in_browser") else 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """This folder's tests in browser order (stable: the rest keeps its order); pytest then
    groups them by engine, keeping that order within each engine's browser."""
    here = [i for i, item in enumerate(items) if item.path.parent == HERE]
    block = sorted((items[i] for i in here), key=browser_order)
    for i, item in zip(here, block, strict=True):
        items[i] = item


def require_browsers() -> None:
    if missing := browsers.missing():
        pytest.fail(
            f"{', '.join(missing)} fehlt: `apt-get install firefox-esr webkit2gtk-driver xvfb`"
            " (scripts/test does it as root)"
        )


@pytest.fixture(scope="package", params=ENGINE_PARAMS)
def engine(
    request: pytest.FixtureRequest, site_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    require_browsers()
    log = tmp_path_factory.mktemp(f"{request.param}-log") / "browser.log"
    with browsers.launch(request.param, log) as engine:
        yield engine


@pytest.fixture
def reader(engine: Engine, site_url: str) -> Reader:
    """The engine's window on the site's start page, with nothing a reader left before."""
    engine.visits += 1
    engine.session.goto(site_url)
    engine.session.js("localStorage.clear(); sessionStorage.clear();")
    return Reader(engine.session, site_url)
