"""Shared fixtures: the built site, a local server for it, and headless Chromium."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

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


def mkdocs_build(site_dir: Path, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` (as the README's commands do)."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]
    if config is not None:
        command += ["--config-file", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole course, built strictly once per test session."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(site)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served on 127.0.0.1 (a free port)."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} fehlt: `apt-get install chromium` (scripts/test does it as root)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
