"""How Python starts in the browser: from the memory snapshot on a fast line, from bytecode
on a slow one, or plainly when it cannot."""

from __future__ import annotations

from pathlib import Path

import pytest
import zstandard
from playwright.sync_api import Page, Route

from tests.browser.conftest import RecordingPage
from tests.browser.pages import FIRST_STEPS, python_ready, run_first_steps_cell_1
from tests.browser.waits import wait_until
from tests.siteserver import StaticServer


def console_messages(page: Page) -> list[str]:
    """What the page and its workers write to the console from now on."""
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    return messages


def test_python_starts_from_the_snapshot(page: Page, site_url: str) -> None:
    warnings = console_messages(page)
    page.goto(site_url + FIRST_STEPS)
    stages = python_ready(page)
    # The test server is a fast line: the worker chose the snapshot (choose-start.ts).
    assert "start:snapshot" in stages, stages
    assert "snapshot" in stages and stages["snapshot"] <= stages["loadPyodide"]
    assert not [text for text in warnings if "Speicherabbild" in text]
    run_first_steps_cell_1(page)


def test_a_broken_snapshot_falls_back_to_a_plain_start(page: Page, site_url: str) -> None:
    warnings = console_messages(page)

    def garbage(route: Route) -> None:
        route.fulfill(status=200, body=b"not a snapshot", content_type="application/gzip")

    page.context.route("**/snapshot-*", garbage)
    page.goto(site_url + FIRST_STEPS)
    stages = python_ready(page)
    assert "snapshot" not in stages
    assert [text for text in warnings if "Speicherabbild nicht nutzbar" in text]
    run_first_steps_cell_1(page)  # the reader notices nothing


def test_a_snapshot_that_differs_from_its_digest_is_not_used_nor_kept(
    page: Page, site_url: str, built_site: Path
) -> None:
    """Pyodide starts from a download while its SHA-256 is still checked (snapshot.ts): a
    snapshot one byte off the build's is refused before the reader's code runs."""
    (packed,) = (built_site / "assets" / "generated").glob("snapshot-*.lks.zst")
    inflated = bytearray(zstandard.ZstdDecompressor().decompress(packed.read_bytes()))
    inflated[len(inflated) // 2] ^= 0xFF
    damaged = zstandard.ZstdCompressor(level=1, write_content_size=True).compress(bytes(inflated))
    warnings = console_messages(page)
    page.context.route(
        "**/snapshot-*",
        lambda route: route.fulfill(status=200, body=damaged, content_type="application/zstd"),
    )
    page.goto(site_url + FIRST_STEPS)
    stages = python_ready(page)
    assert "snapshot" in stages and "without snapshot" in stages, stages  # it came, was refused
    assert [text for text in warnings if "Prüfsumme stimmt nicht" in text], warnings
    run_first_steps_cell_1(page)  # the reader notices nothing
    page.wait_for_timeout(2000)  # past the moment a good download is kept (python-worker.ts)
    assert page.evaluate(KEPT_FILES) == [], "a snapshot that failed its check was kept"


#: JavaScript: the site paths of what the worker kept in the Cache API (kept.ts).
KEPT_FILES = """async () => {
    const cache = await caches.open("lessonkit:/:memory");  // per site: offline/protocol.ts
    return (await cache.keys())
        .map((request) => new URL(request.url).pathname)
        .filter((path) => path.includes("/snapshot-"));
}"""


def sent_since(server: StaticServer, start: int, part: str) -> list[str]:
    """File names of the bodies the server sent since its ``start``-th one whose path has
    ``part``: what was downloaded, whoever asked (the page's preload and a worker's request
    for the same file are one download: ARCHITECTURE.md, "Runtime preloads")."""
    return [
        path.split("?")[0].rsplit("/", 1)[-1] for path, *_ in server.sent[start:] if part in path
    ]


def test_the_inflated_snapshot_is_kept_for_the_next_visit(
    recorded: RecordingPage, site_url: str, site_server: StaticServer
) -> None:
    page = recorded.page
    start = len(site_server.sent)
    page.goto(site_url + FIRST_STEPS)
    python_ready(page)
    # Kept a second after Python's start, with the decoded WebAssembly (python-worker.ts).
    (name,) = wait_until(page, KEPT_FILES, message="one kept snapshot")
    assert name.startswith("/assets/generated/snapshot-")

    # Downloaded once (a preload of it, in a build with the start fixed, joins the request).
    assert len(sent_since(site_server, start, "/snapshot-")) == 1
    again = len(site_server.sent)
    page.reload()
    assert "snapshot" in python_ready(page)  # started from the snapshot again
    assert sent_since(site_server, again, "/snapshot-") == []  # not downloaded again
    run_first_steps_cell_1(page)


def test_the_webassembly_comes_as_its_zstandard_copy(
    recorded: RecordingPage, site_url: str, site_server: StaticServer
) -> None:
    # 2.9 MB instead of gzip's 3.5 (worker/wasm.ts); the plain file is never asked for.
    page = recorded.page
    start = len(site_server.sent)
    page.goto(site_url + FIRST_STEPS)
    assert "snapshot" in python_ready(page)  # the decoder's own memory was not taken for Python's
    wasm = [url.split("?")[0].rsplit("/", 1)[-1] for url in recorded.requests if ".wasm" in url]
    assert wasm == ["pyodide.asm.wasm.zst"]
    assert sent_since(site_server, start, ".wasm") == ["pyodide.asm.wasm.zst"]
    run_first_steps_cell_1(page)


def test_without_the_zstandard_copy_the_plain_webassembly_serves(
    recorded: RecordingPage, site_url: str
) -> None:
    page = recorded.page
    warnings = console_messages(page)
    page.context.route("**/pyodide.asm.wasm.zst", lambda route: route.fulfill(status=404))
    page.goto(site_url + FIRST_STEPS)
    assert "snapshot" in python_ready(page)
    assert any(url.endswith("/pyodide.asm.wasm") for url in recorded.requests)
    assert [text for text in warnings if "pyodide.asm.wasm.zst nicht nutzbar" in text]
    run_first_steps_cell_1(page)


PACKAGES_CHECK = """
import os, sys, pysim.log
zip = "/home/pyodide/lessonkit-packages.zip"
[zip in sys.path, pysim.log.__file__.startswith(zip), sorted(os.listdir("/home/pyodide"))]
"""


@pytest.mark.parametrize("start", ["snapshot", "plain"])
def test_python_imports_the_packages_from_their_zip(page: Page, site_url: str, start: str) -> None:
    # Written into the file system as it is, not unpacked (lessonkit/node/packages.mjs).
    if start == "plain":
        page.context.route("**/snapshot-*", lambda route: route.fulfill(status=404))
    page.goto(site_url + FIRST_STEPS)
    stages = python_ready(page)
    assert ("snapshot" in stages) == (start == "snapshot")
    value = page.evaluate(
        """async (code) => (await window.lessonkit.runtime.run(
            { session: "check", label: "Test", code }, () => undefined)).result.value""",
        PACKAGES_CHECK,
    )
    assert value == "[True, True, ['lessonkit-packages.zip']]"


BYTECODE_CHECK = """
import json, sys, pysim.log
zip = "/home/pyodide/lessonkit-packages.zip"
import email.message  # not among the course's modules: the full library comes on demand
[pysim.log.__file__.endswith(".pyc"), json.__file__.endswith(".pyc"), zip in sys.path,
 email.message.__name__]
"""


def test_a_slow_line_starts_from_bytecode(page: Page, built_site: Path) -> None:
    # 16 Mbit/s: below the speed at which the worker takes the snapshot (choose-start.ts),
    # which it tells by how fast the WebAssembly came. The snapshot is never sent.
    slow = StaticServer(built_site, link=(16_000_000, 0.02))
    try:
        warnings = console_messages(page)
        page.goto(slow.url + FIRST_STEPS)
        stages = python_ready(page)
        assert "start:bytecode" in stages and "snapshot" not in stages, stages
        assert not [text for text in warnings if "nicht nutzbar" in text], warnings
        sent = sent_since(slow, 0, "/assets/generated/")
        assert not [name for name in sent if name.startswith("snapshot-")], sent
        bytecode = sorted(name for name in sent if name.startswith("bytecode-"))
        assert [name.rsplit("-", 1)[1] for name in bytecode] == [
            "packages.zip.zst",
            "stdlib.zip.zst",
        ], sent
        run_first_steps_cell_1(page)
        value = page.evaluate(
            """async (code) => (await window.lessonkit.runtime.run(
                { session: "check", label: "Test", code }, () => undefined)).result.value""",
            BYTECODE_CHECK,
        )
        assert value == "[True, True, True, 'email.message']"
    finally:
        slow.close()
