"""Firefox ESR and WebKitGTK from Debian: one fresh browser per engine for this folder's
tests (a browser starts in seconds, and only one runs at a time). The memory tests
measure that browser while it is fresh, so they come first."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engines import browsers
from tests.engines.browsers import Engine
from tests.engines.reader import Reader

ENGINE_PARAMS = [pytest.param(name, marks=getattr(pytest.mark, name)) for name in browsers.ENGINES]
MEMORY_TESTS = Path(__file__).with_name("test_memory.py")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """test_memory.py first among this folder's tests (before pytest groups them by engine,
    which keeps their order): its figures are those of a browser that did nothing before."""
    here = [i for i, item in enumerate(items) if item.path.parent == MEMORY_TESTS.parent]
    if here:
        block = [items[i] for i in here]
        block.sort(key=lambda item: item.path != MEMORY_TESTS)  # stable: the rest keeps its order
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
