"""Build-time execution: run a page's cells in page order, in CPython.

Each page gets fresh namespaces (one per session), exactly like a reader who
opens the page and runs it from the top. The results are checked against what
the author declared: an unexpected exception, or a declared one that does not
come, fails the build with file and line.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
from collections.abc import Awaitable, Callable
from typing import TypeVar

from lessonkit.errors import LessonError
from lessonkit.fences import Cell, PageState
from lessonkit.kernel import CellResult, Kernel

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


def label_cells(cells: list[Cell]) -> list[Cell]:
    """Sort cells into page order and name them ("Zelle 1", …; hidden ones "Vorbereitung")."""
    ordered = sorted(cells, key=lambda cell: (cell.line, cell.slot))
    number = 0
    for cell in ordered:
        if cell.hidden:
            cell.label = "Vorbereitung"
        else:
            number += 1
            cell.label = f"Zelle {number}"
    return ordered


def check_result(cell: Cell, result: CellResult, path: str) -> None:
    """Raise a LessonError when the run contradicts what the author declared."""
    where = f"{cell.label} (Sitzung „{cell.session}“)"
    if cell.raises is None and result.error is not None:
        raise LessonError(
            path,
            cell.line,
            f"{where} wirft unerwartet {result.error_type}.\n{result.error}"
            f'Ist die Ausnahme gewollt, schreibe raises="{result.error_type}" '
            "in die Kopfzeile des Blocks.",
        )
    if cell.raises is not None and result.error_type != cell.raises:
        got = (
            f"warf aber {result.error_type}:\n{result.error}"
            if result.error
            else ("lief aber ohne Fehler durch.")
        )
        raise LessonError(path, cell.line, f"{where} soll {cell.raises} werfen, {got}")


async def _run_all(cells: list[Cell]) -> list[CellResult]:
    kernel = Kernel()
    return [await kernel.run(cell.session, cell.code, cell.label) for cell in cells]


def run_page(page: PageState) -> dict[int, CellResult]:
    """Run every cell of ``page`` in page order; results by cell slot."""
    ordered = label_cells(page.cells)
    if not ordered:
        return {}
    cwd = os.getcwd()
    try:
        results = run_sync(lambda: _run_all(ordered))
    finally:
        os.chdir(cwd)  # a cell must not move the build
    for cell, result in zip(ordered, results, strict=True):
        check_result(cell, result, page.location.path)
    return {cell.slot: result for cell, result in zip(ordered, results, strict=True)}
