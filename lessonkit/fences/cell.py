"""The ``pycell`` fence: a runnable Python cell.

At build time the cell runs in CPython through the same kernel as in the browser;
its output goes into the page, and the build fails when the run contradicts what
the author declared (an unexpected exception, or a ``raises`` that does not come).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from html import escape
from typing import Any

from lessonkit.authoring import author_checks
from lessonkit.build.blocks import Block, Cell, asserts_only, bound_names, read_names
from lessonkit.build.contract import CellData
from lessonkit.build.errors import LessonError
from lessonkit.build.pagedata import data_element
from lessonkit.build.render import highlight_python, render_output
from lessonkit.fences import options as read
from lessonkit.fences.kind import FenceError, FenceKind, PageRun
from lessonkit.runtime.kernel import CellResult, Kernel

_SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")


class CellKind(FenceKind[Cell, CellResult]):
    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> Cell:
        check = options.get("pruefung", False)
        hidden = options.get("hidden", False) or check  # a check is never shown
        if check and options.get("raises"):
            raise FenceError(
                "Eine Prüfung (`pruefung`) erwartet keine Ausnahme: nimm `raises` heraus "
                "oder `pruefung` (dann zeigt die Zelle den Fehler)."
            )
        return Cell(
            slot=slot,
            line=line,
            code=src,
            session=options.get("session", "main"),
            hidden=hidden,
            raises=options.get("raises"),
            check=check or (hidden and not options.get("raises") and asserts_only(src)),
        )

    def label(self, block: Cell, count: Callable[[str], int]) -> str:
        if block.check:
            return "Prüfung"
        if block.hidden:
            return "Vorbereitung"
        return f"Zelle {count('Zelle')}"

    @classmethod
    def validate_page(cls, blocks: list[Block], path: str) -> None:
        check_checks(blocks, path)
        for block in blocks:
            if not isinstance(block, Cell):
                continue
            for row, module in author_checks.foreign_imports(block.code):
                message = author_checks.import_message(block.label, module)
                raise LessonError(path, block.line + 1 + row, message)
            if block.check and author_checks.cell_cannot_fail(block.code):
                raise LessonError(
                    path,
                    block.line,
                    f"Die Prüfung (`pruefung`, Sitzung „{block.session}“) kann nicht "
                    "scheitern (kein `assert`, das falsch werden kann, kein Aufruf, kein "
                    "`raise`): Sie prüft nichts, was der Text sagt. Schreib hinein, was "
                    "stimmen muss, z. B. `assert summe == 42`.",
                )

    async def run(self, block: Cell, run: PageRun) -> CellResult:
        result = await run.kernel.run(block.session, block.code, block.label)
        if result.error:
            position = next(i for i, other in enumerate(run.blocks) if other is block)
            later = run.blocks[position + 1 :]
            run.hints[block.slot] = name_error_hint(block, result, run.kernel, later)
        return result

    def check(self, block: Cell, result: CellResult, run: PageRun) -> None:
        cells = [other for other in run.blocks if isinstance(other, Cell)]
        check_cell(block, result, run.path, cells, run.hints.get(block.slot, ""))

    def render(self, block: Cell, result: CellResult) -> str:
        return render_cell(block, result)


#: The fence ``pycell``.
PYCELL = CellKind(
    {
        "session": read.session,
        "hidden": read.flag("hidden"),
        "raises": read.exception_name,
        "pruefung": read.flag("pruefung"),
    }
)


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
            runs = later.session_code()
            if runs is None or runs[0] != block.session:
                continue
            code = runs[1]
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


def render_cell(cell: Cell, result: CellResult | None) -> str:
    """A whole cell: its data, its highlighted code and its output."""
    data: CellData = {
        "code": cell.code,
        "session": cell.session,
        "label": cell.label,
        "hidden": cell.hidden,
        "raises": cell.raises,
        "check": cell.check,
    }
    attrs = f'class="lk-cell" data-lk-cell data-session="{escape(cell.session)}"'
    if cell.hidden:
        attrs += " hidden"
    return (
        f"<div {attrs}>"
        f"{data_element('cell', data)}"
        f'<div class="lk-cell__head"><span class="lk-cell__label">{escape(cell.label)}</span></div>'
        f'<div class="lk-cell__code">{highlight_python(cell.code)}</div>'
        # Not a live region (an <output> is a status by default): the cell's status
        # announces the run, so announcing the output as well would say it twice.
        f'<output class="lk-output" role="group" aria-live="off" '
        f'aria-label="Ergebnis von {escape(cell.label)}">'
        f"{render_output(result)}</output>"
        "</div>"
    )
