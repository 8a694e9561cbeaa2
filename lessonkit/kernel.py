"""Run one cell of Python code the way a notebook does.

This module is the single place that defines what a cell's output *is*. It is
pure standard library and runs unchanged in two places:

* at build time in CPython (``lessonkit.execute``), whose results are written
  into the HTML, and
* in the reader's browser inside Pyodide (``frontend/src/worker``).

Because both sides call the same code, the page shows before Python loads
exactly what the reader gets when they press ``Ausführen``; the test suite
checks that the two really agree.

Semantics, like a REPL: stdout and stderr are captured in order; if the last
statement is an expression, its value is shown (``repr``, or a picture when it
has ``_repr_svg_``); an exception becomes a short German traceback that only
lists the reader's own cells, with their own line numbers. Top-level ``await``
is allowed.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import json
import linecache
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

#: Output beyond either limit is dropped, so a ``print`` loop cannot exhaust the tab.
MAX_OUTPUT_LINES = 5000
MAX_OUTPUT_CHARS = 200_000

TRUNCATION_NOTE = (
    "\n… Ausgabe gekürzt: mehr als {lines} Zeilen oder {chars} Zeichen. "
    "Der Rest wurde verworfen, die Zelle lief aber weiter.\n"
)

#: Receives each captured piece of output as it is written: ("stdout" | "stderr", text).
ChunkCallback = Callable[[str, str], None]

_CELL_PREFIX = "<lessonkit-cell "


@dataclass
class CellResult:
    """Everything one run of a cell produced."""

    #: Captured output in the order it was written, adjacent pieces of one stream merged.
    output: list[tuple[str, str]] = field(default_factory=list)
    #: ``repr`` of the last expression, when it has a value and no picture.
    value: str | None = None
    #: SVG text of the last expression, when it has ``_repr_svg_``.
    svg: str | None = None
    #: Short traceback, when the cell raised.
    error: str | None = None
    #: Name of the exception class, when the cell raised (e.g. ``"ValueError"``).
    error_type: str | None = None
    #: True when output was cut at the limits above.
    truncated: bool = False
    #: The last expression's value itself (for checking predictions; never serialised).
    raw_value: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON and for the browser."""
        return {
            "output": [list(chunk) for chunk in self.output],
            "value": self.value,
            "svg": self.svg,
            "error": self.error,
            "error_type": self.error_type,
            "truncated": self.truncated,
        }

    def to_json(self) -> str:
        """The same data as JSON text (how the worker hands it to the page)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


class _Capture:
    """A text stream that records what a cell writes, up to the output limits."""

    def __init__(self, name: str, result: CellResult, on_chunk: ChunkCallback | None) -> None:
        self._name = name
        self._result = result
        self._on_chunk = on_chunk
        self.budget = _Budget()

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        kept = self.budget.take(text)
        if kept:
            self._append(kept)
        if self.budget.exhausted and not self._result.truncated:
            self._result.truncated = True
            self._append(
                TRUNCATION_NOTE.format(lines=MAX_OUTPUT_LINES, chars=MAX_OUTPUT_CHARS),
                stream="stderr",
            )
        return len(text)

    def _append(self, text: str, stream: str | None = None) -> None:
        name = stream or self._name
        output = self._result.output
        if output and output[-1][0] == name:
            output[-1] = (name, output[-1][1] + text)
        else:
            output.append((name, text))
        if self._on_chunk is not None:
            self._on_chunk(name, text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return "utf-8"


class _Budget:
    """Lines and characters still allowed; shared by stdout and stderr of one run."""

    def __init__(self) -> None:
        self.lines = MAX_OUTPUT_LINES
        self.chars = MAX_OUTPUT_CHARS
        self.exhausted = False

    def take(self, text: str) -> str:
        """Return the part of ``text`` that still fits; mark the budget exhausted if cut."""
        if self.exhausted:
            return ""
        kept: list[str] = []
        dropped = False
        for piece in text.splitlines(keepends=True):
            if self.lines <= 0 or self.chars <= 0:
                dropped = True
                break
            cut = piece[: self.chars]
            dropped = len(cut) < len(piece)
            kept.append(cut)
            self.chars -= len(cut)
            if cut.endswith("\n"):
                self.lines -= 1
        self.exhausted = dropped
        return "".join(kept)


def cell_filename(label: str) -> str:
    """The pseudo file name under which a cell's code is compiled."""
    return f"{_CELL_PREFIX}{label}>"


def _label_of(filename: str) -> str | None:
    if filename.startswith(_CELL_PREFIX) and filename.endswith(">"):
        return filename[len(_CELL_PREFIX) : -1]
    return None


def _compile(code: str, filename: str) -> tuple[CodeType | None, CodeType | None]:
    """Compile a cell into (statements, last expression or None)."""
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    tree = ast.parse(code, filename, "exec")
    last: ast.expr | None = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body.pop().value
    body = compile(tree, filename, "exec", flags=flags, dont_inherit=True)
    expr = None
    if last is not None:
        expr = compile(ast.Expression(last), filename, "eval", flags=flags, dont_inherit=True)
    return body, expr


async def _evaluate(code: CodeType, namespace: dict[str, Any]) -> Any:
    value = eval(code, namespace)
    if code.co_flags & inspect.CO_COROUTINE:
        value = await value
    return value


def format_error(exc: BaseException) -> str:
    """A short traceback in German that lists only frames of cells."""
    lines = ["Traceback (letzter Aufruf zuletzt):\n"]
    for frame in traceback.extract_tb(exc.__traceback__):
        label = _label_of(frame.filename)
        if label is None:
            continue  # frames of the kernel, Pyodide or libraries: not the reader's code
        where = f"  {label}, Zeile {frame.lineno}"
        if frame.name != "<module>":
            where += f", in {frame.name}"
        lines.append(where + "\n")
        if frame.line:
            lines.append(f"    {frame.line.strip()}\n")
    if len(lines) == 1:
        lines = []
    if isinstance(exc, SyntaxError):
        lines.extend(_format_syntax_error(exc))
    else:
        lines.extend(traceback.format_exception_only(type(exc), exc))
    return "".join(lines)


def _format_syntax_error(exc: SyntaxError) -> list[str]:
    label = _label_of(exc.filename or "") or "Zelle"
    head = f"  {label}, Zeile {exc.lineno}\n" if exc.lineno else ""
    text = (exc.text or "").rstrip("\n")
    lines = [head]
    if text.strip():
        stripped = text.lstrip()
        lines.append(f"    {stripped}\n")
        if exc.offset:
            caret = max(exc.offset - (len(text) - len(stripped)), 1)
            lines.append("    " + " " * (caret - 1) + "^\n")
    lines.append(f"{type(exc).__name__}: {exc.msg}\n")
    return lines


async def run_cell_async(
    code: str,
    namespace: dict[str, Any],
    label: str = "Zelle",
    on_chunk: ChunkCallback | None = None,
) -> CellResult:
    """Run ``code`` in ``namespace`` and return what it produced.

    ``label`` names the cell in tracebacks ("Zelle 3"). ``on_chunk`` receives
    output while the cell runs (the browser streams it to the page).
    """
    result = CellResult()
    filename = cell_filename(label)
    # Register the source so tracebacks can quote the reader's lines.
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    stdout = _Capture("stdout", result, on_chunk)
    stderr = _Capture("stderr", result, on_chunk)
    stderr.budget = stdout.budget
    namespace.setdefault("__name__", "__main__")
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):  # type: ignore[type-var]
            body, expr = _compile(code, filename)
            if body is not None:
                await _evaluate(body, namespace)
            if expr is not None:
                value = await _evaluate(expr, namespace)
                _show_value(value, result)
    except BaseException as exc:
        result.error_type = type(exc).__name__
        if isinstance(exc, KeyboardInterrupt):
            result.error = "KeyboardInterrupt: Die Zelle wurde gestoppt.\n"
        else:
            result.error = format_error(exc)
    return result


def _show_value(value: Any, result: CellResult) -> None:
    result.raw_value = value
    if value is None:
        return
    to_svg = getattr(value, "_repr_svg_", None)
    if callable(to_svg) and not isinstance(value, type):
        svg = to_svg()
        if isinstance(svg, str):
            result.svg = svg
            return
    result.value = repr(value)


class Kernel:
    """Named namespaces ("sessions") in which cells run, like notebook kernels."""

    def __init__(self) -> None:
        self.sessions: dict[str, dict[str, Any]] = {}

    def namespace(self, session: str) -> dict[str, Any]:
        """The namespace of ``session``, created empty on first use."""
        if session not in self.sessions:
            self.sessions[session] = {"__name__": "__main__", "__builtins__": __builtins__}
        return self.sessions[session]

    def reset(self) -> None:
        """Forget every session (a new page, or a restart)."""
        self.sessions.clear()

    async def run(
        self,
        session: str,
        code: str,
        label: str = "Zelle",
        on_chunk: ChunkCallback | None = None,
    ) -> CellResult:
        """Run ``code`` in ``session``'s namespace."""
        return await run_cell_async(code, self.namespace(session), label, on_chunk)
