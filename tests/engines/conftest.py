"""Firefox ESR and WebKitGTK from Debian, one fresh browser per engine and test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engines import browsers
from tests.engines.browsers import Engine
from tests.engines.reader import Reader

ENGINE_PARAMS = [pytest.param(name, marks=getattr(pytest.mark, name)) for name in browsers.ENGINES]


def require_browsers() -> None:
    if missing := browsers.missing():
        pytest.fail(
            f"{', '.join(missing)} fehlt: `apt-get install firefox-esr webkit2gtk-driver xvfb`"
            " (scripts/test does it as root)"
        )


@pytest.fixture(scope="module", params=ENGINE_PARAMS)
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
    engine.session.goto(site_url)
    engine.session.js("localStorage.clear(); sessionStorage.clear();")
    return Reader(engine.session, site_url)
