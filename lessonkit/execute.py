"""Build-time execution: run a page's blocks in page order, in CPython.

Each page gets fresh namespaces (one per session) and fresh consoles, exactly
like a reader who opens the page and runs it from the top. Results are checked
against what the author declared: an unexpected exception or a failing console
command, or a declared one that does not come, fails the build with file and line.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import difflib
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from lessonkit import timelimit, typescript
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
from lessonkit.typescript import TsResult, check_types, run_typescript
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


_SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")


def error_line(block: Cell, error: str) -> int:
    """The file line of the last line of ``block`` that its traceback names."""
    rows = re.findall(rf"^  {re.escape(block.label)}, Zeile (\d+)", error, re.MULTILINE)
    return block.line + int(rows[-1]) if rows else block.line


def with_file_lines(error: str, cells: list[Cell], path: str) -> str:
    """Add the file line to each "Zelle 2, Zeile 4" of a traceback (unique labels only)."""
    labels = [cell.label for cell in cells]
    starts = {cell.label: cell.line for cell in cells if labels.count(cell.label) == 1}

    def add(match: re.Match[str]) -> str:
        start = starts.get(match[2])
        if start is None:
            return match[0]
        return f"{match[0]} ({path}:{start + int(match[3])})"

    return re.sub(r"^(  )(.+?), Zeile (\d+)(?=,|$)", add, error, flags=re.MULTILINE)


def check_cell(
    cell: Cell, result: CellResult, path: str, cells: list[Cell] | None = None, hint: str = ""
) -> None:
    """Raise a LessonError when the run contradicts what the author declared."""
    where = f"{cell.label} (Sitzung „{cell.session}“, Block ab Zeile {cell.line})"
    error = with_file_lines(result.error or "", cells or [cell], path)
    line = error_line(cell, result.error or "")
    if cell.raises is None and result.error is not None:
        if result.error_type in _SYNTAX_ERRORS:
            advice = "Korrigiere den Code: Python kann die Zelle nicht lesen."
        else:
            advice = (
                f'Ist die Ausnahme gewollt, schreibe raises="{result.error_type}" '
                "in die Kopfzeile des Blocks."
            )
        raise LessonError(
            path,
            line,
            f"{where} wirft unerwartet {result.error_type}.\n{error}{hint}{advice}",
        )
    if cell.raises is not None and result.error_type != cell.raises:
        got = (
            f"warf aber {result.error_type}:\n{error}{hint}"
            if result.error
            else "lief aber ohne Fehler durch."
        )
        raise LessonError(path, line, f"{where} soll {cell.raises} werfen, {got}")


def name_error_hint(block: Cell, result: CellResult, kernel: Kernel, later: list[Block]) -> str:
    """For a NameError: is the name defined in another session, or only later?"""
    match = re.search(r"NameError: name '(\w+)' is not defined", result.error or "")
    if match is None:
        return ""
    name = match[1]
    elsewhere = sorted(
        session
        for session, namespace in kernel.sessions.items()
        if session != block.session and name in namespace
    )
    hints = []
    if elsewhere:
        similar = difflib.get_close_matches(block.session, elsewhere, n=1, cutoff=0.6)
        if similar:
            hints.append(
                f"Sitzung „{block.session}“ — Tippfehler? „{name}“ gibt es in Sitzung "
                f"„{similar[0]}“."
            )
        else:
            listed = ", ".join(f"„{session}“" for session in elsewhere)
            hints.append(
                f"„{name}“ gibt es nur in Sitzung {listed}; diese Zelle läuft in "
                f"Sitzung „{block.session}“."
            )
    for other in later:
        if isinstance(other, Cell) and other.session == block.session:
            try:
                defined = name in bound_names(other.code)
            except SyntaxError:
                defined = False
            if defined:
                hints.append(
                    f"„{name}“ wird erst später angelegt, in {other.label} (Zeile {other.line})."
                )
                break
    return "".join(f"Hinweis: {hint}\n" for hint in hints)


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


def _run_typescript(blocks: list[Block], path: str) -> list[TsResult]:
    """Run and type-check the page's TypeScript blocks (all at once: one Node.js call)."""
    ts_blocks = [block for block in blocks if isinstance(block, TsBlock)]
    snippets = [block.code for block in ts_blocks]
    try:
        ran, types = run_typescript(snippets), check_types(snippets)
    except RuntimeError as exc:  # Node.js or tsc missing or broken: not the author's fault
        raise LessonError(path, ts_blocks[0].line, str(exc)) from None
    return [
        TsResult(r.output, r.error, r.line, r.timeout, found)
        for r, found in zip(ran, types, strict=True)
    ]


def _too_long(path: str, block: Block, seconds: float) -> LessonError:
    return LessonError(
        path,
        block.line,
        f"{block.label} läuft länger als {seconds:g} s — Endlosschleife? Der Build hat "
        "den Block abgebrochen. Prüfe Schleifen und `await`s, die nie enden.",
    )


@dataclass
class PageRun:
    """Everything the run of a page gives: results, and hints for errors, by block slot."""

    results: list[BlockResult]
    hints: dict[int, str]


async def _run_all(blocks: list[Block], page: PageState) -> PageRun:
    path = page.location.path
    kernel = Kernel()
    consoles = ConsoleSessions()
    session_setup: dict[str, list[str]] = {}
    offsets: dict[int, int] = {}
    for block in blocks:
        if isinstance(block, ConsoleBlock):
            offsets[block.slot] = len(session_setup.setdefault(block.key, []))
            session_setup[block.key].extend(block.setup)
    ts_results = iter(_run_typescript(blocks, path))
    results: list[BlockResult] = []
    hints: dict[int, str] = {}
    for index, block in enumerate(blocks):
        with timelimit.time_limit(timelimit.TIME_LIMIT) as limit:
            try:
                result = await _run_block(block, page, kernel, consoles, session_setup, offsets)
            except LessonError:
                if not limit.expired:
                    raise
                result = Rendered("")  # the block was stopped: reported below
        if limit.expired:
            raise _too_long(path, block, timelimit.TIME_LIMIT)
        if isinstance(block, TsBlock):
            result = next(ts_results)
        if isinstance(block, Cell) and isinstance(result, CellResult) and result.error:
            hints[block.slot] = name_error_hint(block, result, kernel, blocks[index + 1 :])
        results.append(result)
    return PageRun(results, hints)


async def _run_block(
    block: Block,
    page: PageState,
    kernel: Kernel,
    consoles: ConsoleSessions,
    session_setup: dict[str, list[str]],
    offsets: dict[int, int],
) -> BlockResult:
    """Run one block (a TypeScript block ran before, all at once)."""
    path = page.location.path
    if isinstance(block, Cell):
        return await kernel.run(block.session, block.code, block.label)
    if isinstance(block, ConsoleBlock):
        console, _ = consoles.get(block.key, block.kind, block.options, [])
        commands = [strip_expectation(line)[0] for line in block.setup]
        transcript = [(command, console.run(command)) for command in commands]
        pictures = [result.svg for _, result in transcript if result.svg]
        return ConsoleRun(
            transcript,
            pictures[-1] if pictures else None,
            session_setup[block.key],
            offsets[block.slot],
        )
    if isinstance(block, ProgressBlock):
        return Rendered(render_progress(block, page))
    if isinstance(block, Exercise):
        problem = await verify(block, kernel)
        if problem is not None:
            message, row = problem
            line = block.line if row is None else block.line + 1 + row
            raise LessonError(path, line, f"{block.label} (id „{block.id}“): {message}")
        return ExerciseRun(_task_console(block))
    return Rendered("")  # a TsBlock: its result comes from Node.js


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


def check_typescript(block: TsBlock, result: TsResult, path: str) -> None:
    """A ts-run block must type-check, end, and not throw."""
    if result.type_errors:
        row, message = result.type_errors[0]
        more = len(result.type_errors) - 1
        rest = f" (und {more} weitere Typfehler)" if more else ""
        raise LessonError(
            path,
            block.line + row,
            f"Der TypeScript-Block hat einen Typfehler (tsc --strict): {message}{rest}",
        )
    if result.timeout:
        raise _too_long(path, block, typescript.TIME_LIMIT)
    if result.error:
        line = block.line + result.line if result.line else block.line
        raise LessonError(path, line, f"Der TypeScript-Block wirft in Node.js: {result.error}")


def run_page(page: PageState) -> dict[int, BlockResult]:
    """Run every block of ``page`` in page order; results by block slot."""
    ordered = label_blocks(page.blocks)
    if not ordered:
        return {}
    seen: dict[str, Exercise] = {}
    for block in ordered:
        if not isinstance(block, Exercise):
            continue
        first = seen.setdefault(block.id, block)
        if first is not block:
            raise LessonError(
                page.location.path,
                block.line,
                f"Die id „{block.id}“ gibt es auf dieser Seite mehrmals: in Zeile "
                f"{first.line} ({first.label}) und in Zeile {block.line} ({block.label}). "
                "Gib einer der beiden Übungen eine andere id.",
            )
    check_checks(ordered, page.location.path)
    cwd = os.getcwd()
    try:
        run = run_sync(lambda: _run_all(ordered, page))
    finally:
        os.chdir(cwd)  # a cell must not move the build
    results = run.results
    path = page.location.path
    cells = [block for block in ordered if isinstance(block, Cell)]
    for block, result in zip(ordered, results, strict=True):
        if isinstance(block, Cell) and isinstance(result, CellResult):
            check_cell(block, result, path, cells, run.hints.get(block.slot, ""))
        elif isinstance(block, ConsoleBlock) and isinstance(result, ConsoleRun):
            for index, (_, outcome) in enumerate(result.transcript):
                _check_command(block, index, block.setup[index], outcome, path)
        elif isinstance(block, TsBlock) and isinstance(result, TsResult):
            check_typescript(block, result, path)
    return {block.slot: result for block, result in zip(ordered, results, strict=True)}
