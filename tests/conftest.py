"""Shared fixtures: the built site, a local server for it, headless Chromium, and Pyodide
under Node.js."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.pyodide import PyodideRunner
from tests.siteserver import StaticServer

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def mkdocs_build(
    site_dir: Path, config: Path | None = None, site_url: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` (as the README's commands do)."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]
    if config is not None:
        command += ["--config-file", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if site_url is not None:
        env["SITE_URL"] = site_url
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)


def small_site(tmp_path: Path, pages: dict[str, str]) -> Path:
    """A site of its own with the course's configuration and only ``pages`` (name -> Markdown),
    without a nav (MkDocs then lists every page). Returns its ``mkdocs.yml``."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs" / "assets", docs / "assets")
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    text = (ROOT / "mkdocs.yml").read_text()
    text = text[: text.index("nav:")] + text[text.index("hooks:") :]
    text = text.replace("docs_dir: docs", f"docs_dir: {docs}")
    text = text.replace("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}")
    text = text.replace(
        "  - lessonkit/mkdocs_hooks.py", f"  - {ROOT / 'lessonkit' / 'mkdocs_hooks.py'}"
    )
    text = text.replace("watch:\n  - pysim\n  - lessonkit\n  - frontend/src\n", "")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"docs_dir: {docs}\n" + text)
    return config


#: A build of the whole course: (folder, the address it will be served at) -> the process.
SiteBuild = Callable[[Path, str], subprocess.CompletedProcess[str]]


def served_build(folder: str, scope: Literal["session", "module"], build: SiteBuild) -> Any:
    """A fixture: a server on 127.0.0.1 for a folder that ``build`` fills first, strictly.
    The build is told the server's address (instant navigation needs the sitemap's
    addresses to carry the server's port)."""

    @pytest.fixture(scope=scope)
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
        served = StaticServer(tmp_path_factory.mktemp(folder))
        try:
            result = build(served.directory, served.url)
            assert result.returncode == 0, result.stdout + result.stderr
            yield served
        finally:
            served.close()

    return server


#: The server for the course built with MkDocs, once per test session (``built_site``).
site_server = served_build("site", "session", lambda site, url: mkdocs_build(site, site_url=url))


@pytest.fixture(scope="session")
def built_site(site_server: StaticServer) -> Path:
    """The whole course, built strictly once per test session, for ``site_server``'s address."""
    return site_server.directory


@pytest.fixture(scope="session")
def site_url(built_site: Path, site_server: StaticServer) -> str:
    """The address of the built site."""
    return site_server.url


def zensical_build(site: Path, site_url: str) -> subprocess.CompletedProcess[str]:
    """``scripts/build-zensical`` into ``site``, for the address ``site_url``."""
    env = {**os.environ, "SITE_URL": site_url, "LESSONKIT_SKIP_SETUP": "1"}
    return subprocess.run(
        [str(ROOT / "scripts" / "build-zensical"), str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )


#: The server for the course built with Zensical, once per test session (``zensical_site``).
zensical_server = served_build("zensical-site", "session", zensical_build)


@pytest.fixture(scope="session")
def zensical_site(zensical_server: StaticServer) -> Path:
    """The whole course, built strictly with Zensical, once per test session."""
    return zensical_server.directory


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} fehlt: `apt-get install chromium` (scripts/test does it as root)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def pyodide(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PyodideRunner]:
    """Real Pyodide under Node.js, started once for every Pyodide test of the session."""
    runner = PyodideRunner(tmp_path_factory.mktemp("pyodide") / "node-stderr.txt")
    try:
        yield runner
    finally:
        runner.close()
