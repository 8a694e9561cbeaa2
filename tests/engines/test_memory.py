"""Memory, as a phone would care: a lesson's peak after the snapshot start and after every
cell, and a snapshot whose memory is refused falls back to a plain start.

Firefox and WebKit have no page memory API (Chromium's `performance.memory` counts
the JavaScript heap only, not WebAssembly), so the figures are the browser's
processes' proportional set size (PSS, shared pages divided among the processes
sharing them) from /proc, sampled every 50 ms while the page works.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.engines.browsers import Engine
from tests.engines.reader import CELLS, Reader
from tests.siteserver import StaticServer

LESSON = "lektionen/queues-und-idempotenz/"


def pss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:  # ended meanwhile
            continue
    return total


@contextmanager
def peak_memory(engine: Engine) -> Iterator[list[int]]:
    """Samples the browser's PSS until the block ends; yields [peak] (filled in at the end)."""
    peak = [0]
    running = True

    def sample() -> None:
        while running:
            peak[0] = max(peak[0], pss_bytes(engine.pids()))
            time.sleep(0.05)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield peak
    finally:
        running = False
        thread.join()


def wait_ready(reader: Reader) -> dict[str, int]:
    reader.session.wait_for(
        "return window.lessonkit && window.lessonkit.runtime.state === 'ready'",
        timeout=120,
        message="Python ready",
    )
    return reader.session.js("return window.lessonkit.runtime.readyStages")


@pytest.mark.fresh_browser
def test_peak_memory_of_a_lesson(engine: Engine, reader: Reader) -> None:
    assert engine.visits == 1, "the browser served other tests before: the figures need a fresh one"
    reader.session.goto("about:blank")
    idle = pss_bytes(engine.pids())
    with peak_memory(engine) as started:
        reader.open(LESSON)
        stages = wait_ready(reader)
    assert "snapshot" in stages
    count = reader.session.js("return document.querySelectorAll(arguments[0]).length", CELLS)
    with peak_memory(engine) as all_cells:
        # The last cell runs every earlier cell of its session first; then each one again.
        for number in range(1, count + 1):
            state = reader.run(number)
            raises = reader.session.js(
                "const c = document.querySelectorAll(arguments[0])[arguments[1] - 1];"
                "return JSON.parse(c.querySelector('.lk-cell__data').dataset.lkJson).raises;",
                CELLS,
                number,
            )
            assert state == ("error" if raises else "done"), (number, reader.output(number))
    mb = 1 / 2**20
    print(
        f"\n{engine.name}: browser PSS idle {idle * mb:.0f} MB, peak after the snapshot start"
        f" {started[0] * mb:.0f} MB, peak while running all {count} cells"
        f" {all_cells[0] * mb:.0f} MB"
    )
    # A guard, not a phone's limit: the whole desktop browser peaks at ~0.8 GB today.
    assert all_cells[0] < 1.5 * 2**30
    assert engine.proxy.attempts == []


# Stands in for a device that refuses memory: in Python's worker, which inflates the
# snapshot (16 MB, 31 MB unpacked), every typed array made with a length above 12 MiB
# fails as WebKit fails an allocation it cannot make (a plain start makes none).
REFUSE_MEMORY = """
globalThis.Uint8Array = class extends Uint8Array {
  constructor(...args) {
    if (typeof args[0] === "number" && args[0] > 12 * 2 ** 20) throw new RangeError("Out of memory");
    super(...args);
  }
};
"""


@pytest.fixture(scope="package")
def refusing_site(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A copy of the built site whose Python worker cannot get the snapshot's memory
    (a test build: the product has no switch for this)."""
    site = tmp_path_factory.mktemp("refusing") / "site"
    shutil.copytree(built_site, site)
    worker = site / "assets" / "generated" / "js" / "worker.js"
    worker.write_text(REFUSE_MEMORY + worker.read_text())
    server = StaticServer(site)
    yield server.url
    server.close()


# Last in its browser: in WebKit, a journey after it in the same browser found the course's
# Cache API emptied (no kept snapshot, the offline copy "incomplete") in 11 of 15 runs
# (2026-12-05). A snapshot start on another origin did not do that (4 of 4 runs passed);
# why this plain start does is not known.
@pytest.mark.last_in_browser
def test_refused_memory_falls_back_to_a_plain_start(engine: Engine, refusing_site: str) -> None:
    reader = Reader(engine.session, refusing_site)
    reader.open(LESSON)
    stages = wait_ready(reader)
    assert "snapshot" not in stages, stages  # started plainly, and the reader sees nothing
    reader.forget_output(1)
    assert reader.run(1) == "done"
    assert reader.output(1)
