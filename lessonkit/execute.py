"""Build-time execution: run a page's blocks in page order, in CPython.

Each page gets fresh namespaces (one per session) and fresh consoles, exactly
like a reader who opens the page and runs it from the top. Results are checked
against what the author declared: an unexpected exception or a failing console
command, or a declared one that does not come, fails the build with file and line.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from lessonkit.blocks import (
    Block,
    Cell,
    ConsoleBlock,
    PageState,
    ProgressBlock,
    TsBlock,
    bound_names,
    read_names,
)
from lessonkit.consoles import ConsoleSessions, strip_expectation
from lessonkit.errors import LessonError
from lessonkit.exercises import ConsoleTask, Exercise, Prediction, verify
from lessonkit.kernel import CellResult, Kernel
from lessonkit.progress import render_progress
from lessonkit.typescript import TsResult, run_typescript
from pysim.console import ConsoleResult

T = TypeVar("T")


@dataclass
class ConsoleRun:
    """A console's setup as the build ran it."""

    transcript: list[tuple[str, ConsoleResult]]  # (command as shown, its result)
    svg: str | None  # the picture after the last command that drew one
    setup: list[str]  # every setup line of the console's state (its session), in page order
    offset: int = 0  # where this console's own lines start in ``setup``


@dataclass
class ExerciseRun:
    """An exercise the build proved sound; a console task also has its console's start."""

    console: ConsoleRun | None = None


@dataclass
class Rendered:
    """A block whose HTML the build made directly (the progress overview)."""

    html: str


BlockResult = CellResult | ConsoleRun | TsResult | ExerciseRun | Rendered


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
    cells = consoles = exercises = 0
    for block in ordered:
        if isinstance(block, Exercise):
            exercises += 1
            block.label = f"Übung {exercises}"
        elif isinstance(block, TsBlock):
            block.label = "TypeScript"
        elif isinstance(block, Cell):
            if block.check:
                block.label = "Prüfung"
            elif block.hidden:
                block.label = "Vorbereitung"
            else:
                cells += 1
                block.label = f"Zelle {cells}"
        elif isinstance(block, ConsoleBlock):
            consoles += 1
            block.label = f"Konsole {consoles}"
        else:
            block.label = "Fortschritt"
    return ordered


def check_checks(blocks: list[Block], path: str) -> None:
    """A check (``pruefung``) may prepare nothing later blocks of its session read.

    In the browser a failing check does not stop the next cell, so the next cell
    must not need anything from it. ``blocks`` are in page order.
    """
    for index, block in enumerate(blocks):
        if not (isinstance(block, Cell) and block.check):
            continue
        try:
            live = bound_names(block.code)
        except SyntaxError:
            continue  # the run reports it with its line
        for later in blocks[index + 1 :]:
            if isinstance(later, Cell) and later.session == block.session:
                code = later.code
            elif isinstance(later, Prediction) and later.session == block.session:
                code = later.code
            else:
                continue
            try:
                own = bound_names(code)
            except SyntaxError:
                own = set()
            needed = sorted((read_names(code) - own) & live)
            if needed:
                names = ", ".join(f"„{name}“" for name in needed)
                raise LessonError(
                    path,
                    block.line,
                    f"Die Prüfung (`pruefung`, Sitzung „{block.session}“) legt {names} an, "
                    f"und {later.label} (Zeile {later.line}) liest es. Eine Prüfung darf "
                    "nichts vorbereiten: Im Browser hält ihr Scheitern die nächste Zelle "
                    "nicht auf. Leg es in einer Vorbereitung (`hidden`) an oder nimm "
                    "`pruefung` heraus.",
                )
            live -= own


def check_cell(cell: Cell, result: CellResult, path: str) -> None:
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
            else "lief aber ohne Fehler durch."
        )
        raise LessonError(path, cell.line, f"{where} soll {cell.raises} werfen, {got}")


def _check_command(
    block: ConsoleBlock, index: int, raw: str, result: ConsoleResult, path: str
) -> None:
    command, should_fail = strip_expectation(raw)
    line = block.line + 1 + block.source_rows[index]
    if result.ok and should_fail:
        raise LessonError(
            path,
            line,
            f"{block.label}: „{command}“ soll scheitern (mit „!“ markiert), gelang aber.",
        )
    if not result.ok and not should_fail:
        raise LessonError(
            path,
            line,
            f"{block.label}: der Befehl „{command}“ scheitert:\n{result.text}\n"
            "Ist der Fehler gewollt, schreibe „!“ vor den Befehl.",
        )


async def _run_all(blocks: list[Block], page: PageState) -> list[BlockResult]:
    path = page.location.path
    kernel = Kernel()
    consoles = ConsoleSessions()
    session_setup: dict[str, list[str]] = {}
    offsets: dict[int, int] = {}
    for block in blocks:
        if isinstance(block, ConsoleBlock):
            offsets[block.slot] = len(session_setup.setdefault(block.key, []))
            session_setup[block.key].extend(block.setup)
    typescript = iter(run_typescript([b.code for b in blocks if isinstance(b, TsBlock)]))
    results: list[BlockResult] = []
    for block in blocks:
        if isinstance(block, Cell):
            results.append(await kernel.run(block.session, block.code, block.label))
        elif isinstance(block, ConsoleBlock):
            console, _ = consoles.get(block.key, block.kind, block.options, [])
            commands = [strip_expectation(line)[0] for line in block.setup]
            transcript = [(command, console.run(command)) for command in commands]
            pictures = [result.svg for _, result in transcript if result.svg]
            results.append(
                ConsoleRun(
                    transcript,
                    pictures[-1] if pictures else None,
                    session_setup[block.key],
                    offsets[block.slot],
                )
            )
        elif isinstance(block, TsBlock):
            results.append(next(typescript))
        elif isinstance(block, ProgressBlock):
            results.append(Rendered(render_progress(block, page)))
        elif isinstance(block, Exercise):
            problem = await verify(block, kernel)
            if problem is not None:
                raise LessonError(path, block.line, f"{block.label} (id „{block.id}“): {problem}")
            results.append(ExerciseRun(_task_console(block)))
    return results


def _task_console(block: Exercise) -> ConsoleRun | None:
    """The starting state of a console task's console, as the page shows it."""
    if not isinstance(block, ConsoleTask):
        return None
    _, results = ConsoleSessions().get("start", block.kind, block.options, block.setup)
    pictures = [result.svg for result in results if result.svg]
    return ConsoleRun(
        list(zip(block.setup, results, strict=True)),
        pictures[-1] if pictures else None,
        block.setup,
    )


def run_page(page: PageState) -> dict[int, BlockResult]:
    """Run every block of ``page`` in page order; results by block slot."""
    ordered = label_blocks(page.blocks)
    if not ordered:
        return {}
    ids = [block.id for block in ordered if isinstance(block, Exercise)]
    for block in ordered:
        if isinstance(block, Exercise) and ids.count(block.id) > 1:
            raise LessonError(
                page.location.path,
                block.line,
                f"Die id „{block.id}“ gibt es auf dieser Seite mehrmals.",
            )
    check_checks(ordered, page.location.path)
    cwd = os.getcwd()
    try:
        results = run_sync(lambda: _run_all(ordered, page))
    finally:
        os.chdir(cwd)  # a cell must not move the build
    path = page.location.path
    for block, result in zip(ordered, results, strict=True):
        if isinstance(block, Cell) and isinstance(result, CellResult):
            check_cell(block, result, path)
        elif isinstance(block, ConsoleBlock) and isinstance(result, ConsoleRun):
            for index, (_, outcome) in enumerate(result.transcript):
                _check_command(block, index, block.setup[index], outcome, path)
        elif isinstance(block, TsBlock) and isinstance(result, TsResult) and result.error:
            raise LessonError(
                path, block.line, f"Der TypeScript-Block wirft in Node.js: {result.error}"
            )
    return {block.slot: result for block, result in zip(ordered, results, strict=True)}
