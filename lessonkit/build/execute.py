"""Build-time execution: run a page's blocks in page order, in CPython.

Each page gets fresh namespaces (one per session) and fresh consoles, exactly
like a reader who opens the page and runs it from the top. Results are checked
against what the author declared: an unexpected exception or a failing console
command, or a declared one that does not come, fails the build with file and line.
What each block does is its kind's (``lessonkit.fences.FENCES``); this module
only keeps the order, the time limit and the working directory.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from lessonkit.build import timelimit
from lessonkit.build.blocks import Block, PageState
from lessonkit.build.errors import LessonError, too_long
from lessonkit.fences import kind_of
from lessonkit.fences.kind import FenceKind, PageRun

T = TypeVar("T")


def run_sync(start: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion, also when this thread already runs an event loop.

    (A host may call Markdown from inside its own loop; Playwright's sync API keeps
    one running in the test process.) Then the coroutine runs in a fresh thread.
    """

    async def main() -> T:
        return await start()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main()).result()


def label_blocks(blocks: list[Block]) -> list[Block]:
    """Sort blocks into page order and name them ("Zelle 1", "Vorbereitung", "Konsole 1")."""
    ordered = sorted(blocks, key=lambda block: (block.line, block.slot))
    counts: Counter[str] = Counter()

    def count(name: str) -> int:
        counts[name] += 1
        return counts[name]

    for block in ordered:
        block.label = kind_of(block.fence).label(block, count)
    return ordered


def _kind_classes(blocks: list[Block]) -> list[type[FenceKind[Any, Any]]]:
    """The kinds' classes on the page, in the order they first appear (page-wide steps)."""
    return list(dict.fromkeys(type(kind_of(block.fence)) for block in blocks))


async def _run_all(run: PageRun) -> list[Any]:
    for kind in _kind_classes(run.blocks):
        await kind.prepare(run)
    results: list[Any] = []
    for block in run.blocks:
        with timelimit.time_limit(timelimit.TIME_LIMIT) as limit:
            try:
                result = await kind_of(block.fence).run(block, run)
            except LessonError:
                if not limit.expired:
                    raise
                result = None  # the block was stopped: reported below
        if limit.expired:
            seconds = limit.wall_seconds if limit.waited else limit.seconds
            raise too_long(run.path, block.line, block.label, seconds, limit.waited)
        results.append(result)
    return results


def run_page(page: PageState) -> dict[int, Any]:
    """Run every block of ``page`` in page order; results by block slot."""
    ordered = label_blocks(page.blocks)
    if not ordered:
        return {}
    for kind in _kind_classes(ordered):
        kind.validate_page(ordered, page.location.path)
    run = PageRun(page, ordered)
    cwd = os.getcwd()
    try:
        results = run_sync(lambda: _run_all(run))
    finally:
        os.chdir(cwd)  # a cell must not move the build
    for block, result in zip(ordered, results, strict=True):
        kind_of(block.fence).check(block, result, run)
    return {block.slot: result for block, result in zip(ordered, results, strict=True)}
