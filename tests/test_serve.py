"""The author's loop: under ``mkdocs serve`` a page that stops building shows its error in the
browser (it used to hang every request), and the lesson comes back once the fix builds."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.conftest import ROOT, small_site

GOOD = "# Seite\n\n```pycell\nsumme = 1\nsumme + 1\n```\n"
BROKEN = "# Seite\n\n```pycell\nsumme = 1\nsumme + nicht_da\n```\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    """Status and text of ``url``; a request that hangs counts as no answer (0)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except (TimeoutError, urllib.error.URLError, ConnectionError):
        return 0, ""


def wait_for(url: str, status: int, text: str, seconds: float = 120) -> str:
    deadline = time.monotonic() + seconds
    seen: tuple[int, str] = (0, "")
    while time.monotonic() < deadline:
        seen = get(url)
        if seen[0] == status and text in seen[1]:
            return seen[1]
        time.sleep(0.5)
    raise AssertionError(f"{url}: erwartet {status} mit „{text}“, zuletzt {seen[0]}")


def test_a_broken_rebuild_shows_its_error_and_the_fix_brings_the_page_back(
    tmp_path: Path,
) -> None:
    config = small_site(tmp_path, {"index.md": "# Start\n", "seite.md": GOOD})
    page = tmp_path / "docs" / "seite.md"
    port = free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "mkdocs", "serve", "--config-file", str(config)),
            *("--dev-addr", f"127.0.0.1:{port}", "--livereload"),
        ],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/seite/"
    try:
        wait_for(url, 200, "Seite")
        page.write_text(BROKEN, encoding="utf-8")
        error = wait_for(url, 500, "Der Build ist fehlgeschlagen")
        assert "seite.md:5: Zelle 1" in error and "NameError" in error
        assert "livereload" in error  # the page reloads itself once the fix builds
        page.write_text(GOOD, encoding="utf-8")
        wait_for(url, 200, "Seite")
    finally:
        server.terminate()
        server.wait(timeout=30)
