"""Run one cell of Python code the way a notebook does.

This module is the single place that defines what a cell's output *is*. It is
pure standard library and runs unchanged in two places:

* at build time in CPython (``lessonkit.build.execute``), whose results are written
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

Nothing a cell produces may freeze or crash the tab, so every channel has a
limit, enforced here (the worker and the page trust these sizes): output
(``MAX_OUTPUT_*``), the value's repr (``MAX_VALUE_CHARS``, computed without
building the whole repr of a large built-in value), the traceback and its
message (``MAX_ERROR_CHARS``), pictures (``MAX_SVG_CHARS``). What was cut is
said in German where it was cut. Output reaches the page in batches, at most
every ``FLUSH_SECONDS``, so many small writes do not flood it with messages.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import contextvars
import inspect
import json
import linecache
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import CodeType
from typing import TYPE_CHECKING, Any, NoReturn, SupportsIndex, cast

from pysim.fehler import begrenzter_repr

if TYPE_CHECKING:  # the browser's Python needs no types at run time
    from lessonkit.build.contract import CellResultData

#: Output beyond either limit is dropped, so a ``print`` loop cannot exhaust the tab.
MAX_OUTPUT_LINES = 5000
MAX_OUTPUT_CHARS = 200_000

TRUNCATION_NOTE = (
    "\n… Ausgabe gekürzt: mehr als {lines} Zeilen oder {chars} Zeichen. "
    "Der Rest wurde verworfen, die Zelle lief aber weiter.\n"
)

#: Longest repr of a cell's value that is shown.
MAX_VALUE_CHARS = 10_000
#: Longest traceback that is shown, and the longest exception message in it.
MAX_ERROR_CHARS = 10_000
MAX_MESSAGE_CHARS = MAX_ERROR_CHARS // 2
#: Tracebacks with more frames keep the first and last ``KEPT_FRAMES`` of them.
MAX_FRAMES = 30
KEPT_FRAMES = 10
#: Largest picture (SVG text) that is shown; a larger one is replaced by a note.
MAX_SVG_CHARS = 1_000_000
#: Most elements (counted as "<") a shown picture may have: laying out 65,000 held the
#: page for over a second. The page script keeps the same cap (output/render.ts).
MAX_SVG_ELEMENTS = 10_000
#: Streamed output is handed to ``on_chunk`` at most this often (plus first and last).
FLUSH_SECONDS = 0.05

NO_INPUT_MESSAGE = (
    "input() geht hier nicht: Eine Zelle bekommt keine Tastatureingabe (kein Terminal). "
    "Schreib den Wert direkt in den Code, z. B. name = 'Ada'."
)
EXIT_NOTE = (
    "sys.exit() und exit() beenden hier nur diese Zelle; Python läuft weiter "
    "und die Variablen bleiben.\n"
)
#: JavaScript's words for Python's ``True``, ``False`` and ``None``.
JS_LITERALS = {"true": "True", "false": "False", "null": "None"}


def js_literal_note(js: str) -> str:
    """The German note for a JavaScript literal where Python has its own word."""
    return f"In Python: `{JS_LITERALS[js]}`, nicht `{js}`."


#: Receives each captured piece of output as it is written: ("stdout" | "stderr", text).
ChunkCallback = Callable[[str, str], None]
#: Receives one batch of output, its stretches in order: [("stdout" | "stderr", text), ...].
#: The browser's worker posts each batch as one message: output that switches streams
#: on every write (``print(…); print(…, file=sys.stderr)``) is thousands of stretches
#: per batch, and one message each kept the page's main thread busy for seconds.
PartsCallback = Callable[[list[tuple[str, str]]], None]

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

    def to_dict(self) -> CellResultData:
        """Plain data for JSON and for the browser (``lessonkit.build.contract.CellResultData``)."""
        return {
            # Pairs as lists, as JSON gives them back (the contract's [stream, text]).
            "output": cast("list[tuple[str, str]]", [list(chunk) for chunk in self.output]),
            "value": self.value,
            "svg": self.svg,
            "error": self.error,
            "error_type": self.error_type,
            "truncated": self.truncated,
        }

    def to_json(self) -> str:
        """The same data as JSON text (how the worker hands it to the page)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


class _Output:
    """Output of one run: pieces in order (joined once at the end) and batches for the page."""

    def __init__(
        self, on_chunk: ChunkCallback | None, on_parts: PartsCallback | None = None
    ) -> None:
        #: [stream, pieces] with adjacent pieces of one stream together.
        self.pieces: list[tuple[str, list[str]]] = []
        self._on_chunk = on_chunk
        self._on_parts = on_parts
        self._streaming = on_chunk is not None or on_parts is not None
        self._pending: list[tuple[str, list[str]]] = []
        self._flushed_at = -FLUSH_SECONDS  # the first write of a run is handed over at once
        self._timer: Any = None

    def add(self, stream: str, text: str) -> None:
        for target in (self.pieces, self._pending) if self._streaming else (self.pieces,):
            if target and target[-1][0] == stream:
                target[-1][1].append(text)
            else:
                target.append((stream, [text]))
        if not self._streaming:
            return
        if time.monotonic() - self._flushed_at >= FLUSH_SECONDS:
            self.flush()
        elif self._timer is None:
            self._flush_later()

    def _flush_later(self) -> None:
        """While the cell awaits, the event loop hands over what waits (no later write may come)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer = loop.call_later(FLUSH_SECONDS, self.flush)

    def flush(self) -> None:
        """Hand what waits to ``on_parts`` in one call, or to ``on_chunk``, one call per
        stretch of one stream."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        pending, self._pending = self._pending, []
        self._flushed_at = time.monotonic()
        if self._on_parts is not None:
            if pending:
                self._on_parts([(stream, "".join(pieces)) for stream, pieces in pending])
        elif self._on_chunk is not None:
            for stream, pieces in pending:
                self._on_chunk(stream, "".join(pieces))

    def merged(self) -> list[tuple[str, str]]:
        return [(stream, "".join(pieces)) for stream, pieces in self.pieces]


#: The streams of the cell whose code runs. asyncio copies the context into every task
#: a cell starts, so a background task's output goes to the cell that started it (also
#: after that cell ended: on ``on_chunk``), never into the cell that happens to run.
cell_streams: contextvars.ContextVar[dict[str, _Capture] | None] = contextvars.ContextVar(
    "lessonkit_cell_streams", default=None
)


class TextStream:
    """What ``sys.stdout`` must also answer besides ``write``: no terminal, UTF-8."""

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return "utf-8"


class _Capture(TextStream):
    """A text stream that records what a cell writes, up to the output limits."""

    def __init__(self, name: str, result: CellResult, output: _Output, budget: _Budget) -> None:
        self._name = name
        self._result = result
        self._output = output
        self.budget = budget

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        owner = cell_streams.get()
        if owner is not None and owner[self._name] is not self:
            return owner[self._name].write(text)  # a task another cell started
        kept = self.budget.take(text)
        if kept:
            self._output.add(self._name, kept)
        if self.budget.exhausted and not self._result.truncated:
            self._result.truncated = True
            self._output.add(
                "stderr", TRUNCATION_NOTE.format(lines=MAX_OUTPUT_LINES, chars=MAX_OUTPUT_CHARS)
            )
        return len(text)

    def flush(self) -> None:
        pass  # batches leave on their own schedule (``_Output``); see also ``hand_over``

    def hand_over(self) -> None:
        """Hand what waits to the page now (before the cell blocks, e.g. in ``time.sleep``)."""
        self._output.flush()


def make_sleep(wait: Callable[[float], object]) -> Callable[[float | SupportsIndex], None]:
    """A ``time.sleep`` that blocks by calling ``wait(milliseconds)``.

    For the browser, with the worker's ``Atomics.wait``: Pyodide's own ``time.sleep``
    needs WebAssembly stack switching, which not every browser has (Chromium without
    it raises "RuntimeError: WebAssembly stack switching not supported"). This one
    blocks the worker, i.e. only the running cell, like a sleep in CPython; ``Stopp``
    ends it. Output printed before the sleep reaches the page first.
    """

    def sleep(seconds: float | SupportsIndex) -> None:
        if isinstance(seconds, (str, bytes)) or not hasattr(seconds, "__float__"):
            name = type(seconds).__name__
            raise TypeError(f"'{name}' object cannot be interpreted as an integer or float")
        left = float(seconds)
        if left < 0:
            raise ValueError("sleep length must be non-negative")
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, _Capture):
                stream.hand_over()
        end = time.monotonic() + left
        while left > 0:
            wait(left * 1000)
            left = end - time.monotonic()

    return sleep


def install_sleep(wait: Callable[[float], object]) -> None:
    """Replace ``time.sleep`` with ``make_sleep(wait)`` (the browser worker does, at start)."""
    time.sleep = make_sleep(wait)


class _NoInput:
    """``sys.stdin`` of a run: there is no keyboard, so reading says so in German.

    An ``EOFError`` like Python's own at the end of input, so ``except EOFError`` works.
    """

    def readline(self, size: int = -1) -> str:
        raise EOFError(NO_INPUT_MESSAGE)

    read = readline

    def readlines(self, hint: int = -1) -> list[str]:
        raise EOFError(NO_INPUT_MESSAGE)

    def __iter__(self) -> _NoInput:
        return self

    def __next__(self) -> str:
        raise EOFError(NO_INPUT_MESSAGE)

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(NO_INPUT_MESSAGE)

    @property
    def encoding(self) -> str:
        return "utf-8"


OS_EXIT_MESSAGE = (
    "os._exit() beendet hier nicht Python (das würde die Seite und den Build mitreißen), "
    "sondern nur diese Zelle. Für das Ende einer Zelle genügt return in einer Funktion "
    "oder sys.exit()."
)


class OsExitIgnored(SystemExit):
    """``os._exit()`` in a cell: it ends the cell, like ``sys.exit()``, not the process."""


def _os_exit(status: int) -> NoReturn:
    raise OsExitIgnored(OS_EXIT_MESSAGE)


@contextlib.contextmanager
def no_os_exit() -> Iterator[None]:
    """``os._exit`` ends only the cell: in the build it would end the whole build without a
    word (exit code and nothing else), in the browser the Python worker."""
    # ``os._exit`` is ``posix._exit``: both names, or ``import posix`` would still end it all.
    modules = [m for m in (os, sys.modules.get("posix")) if m is not None]
    saved = [getattr(m, "_exit") for m in modules]  # noqa: B009  (posix has no type stub)
    for module in modules:
        setattr(module, "_exit", _os_exit)  # noqa: B010
    try:
        yield
    finally:
        for module, original in zip(modules, saved, strict=True):
            setattr(module, "_exit", original)  # noqa: B010


@contextlib.contextmanager
def no_input() -> Iterator[None]:
    """``input()`` and ``sys.stdin`` raise a German ``EOFError`` instead of waiting."""
    saved = sys.stdin
    sys.stdin = _NoInput()
    try:
        yield
    finally:
        sys.stdin = saved


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
    final = tree.body[-1] if tree.body else None
    if isinstance(final, ast.Expr):
        tree.body.pop()
        last = final.value
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


#: Added to Python's "No module named …": what this course's Python holds.
MISSING_MODULE_NOTE = (
    "Hinweis: Das Modul „{name}“ gibt es in diesem Python nicht. Der Kurs bringt Pythons "
    "Standardbibliothek und pysim mit, aber keine Pakete von PyPI (etwa numpy oder requests)."
)


def format_error(exc: BaseException) -> str:
    """A short traceback in German that lists only frames of cells, at most ``MAX_ERROR_CHARS``."""
    # None stands for the frames left out of a deep recursion.
    frames: list[traceback.FrameSummary | None] = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        # frames of the kernel, Pyodide or libraries: not the reader's code
        if _label_of(frame.filename) is not None
    ]
    lines = ["Traceback (letzter Aufruf zuletzt):\n"] if frames else []
    if len(frames) > MAX_FRAMES:  # deep recursion: the start and the end say what happened
        left_out = len(frames) - 2 * KEPT_FRAMES
        frames = [*frames[:KEPT_FRAMES], None, *frames[-KEPT_FRAMES:]]
    for frame in frames:
        if frame is None:
            lines.append(f"  … {_zahl(left_out)} weitere Aufrufe ausgelassen …\n")
            continue
        where = f"  {_label_of(frame.filename)}, Zeile {frame.lineno}"
        if frame.name != "<module>":
            where += f", in {frame.name}"
        lines.append(where + "\n")
        if frame.line:
            lines.append(f"    {_shorten(frame.line.strip(), 200)}\n")
    if isinstance(exc, SyntaxError):
        lines.extend(_format_syntax_error(exc))
    else:
        lines.extend(_format_exception_only(exc))
    if isinstance(exc, SystemExit) and not isinstance(exc, OsExitIgnored):
        lines.append(EXIT_NOTE)
    name = getattr(exc, "name", None) if isinstance(exc, NameError) else None
    if isinstance(name, str) and name in JS_LITERALS:
        lines.append(js_literal_note(name) + "\n")
    if isinstance(exc, ModuleNotFoundError) and str(exc).startswith("No module named"):
        lines.append(MISSING_MODULE_NOTE.format(name=exc.name or "?") + "\n")
    text = "".join(lines)
    if len(text) > MAX_ERROR_CHARS:
        text = (
            text[:MAX_ERROR_CHARS]
            + f"\n… Fehlermeldung gekürzt auf {_zahl(MAX_ERROR_CHARS)} Zeichen.\n"
        )
    return text


def _format_exception_only(exc: BaseException) -> list[str]:
    """Python's last traceback line(s), with the message cut before it is copied.

    ``str()`` of an exception with one ``str`` argument returns that very string, so a
    100 MB message is sliced here rather than copied into "ValueError: …" first.
    """
    try:
        message = str(exc)
    except Exception:
        message = ""
    if len(message) <= MAX_MESSAGE_CHARS:
        return traceback.format_exception_only(type(exc), exc)
    kind = type(exc)
    name = kind.__qualname__
    if kind.__module__ not in ("__main__", "builtins"):
        name = f"{kind.__module__}.{name}"
    return [
        f"{name}: {message[:MAX_MESSAGE_CHARS]}\n",
        f"… Meldung gekürzt: {_zahl(len(message))} Zeichen, "
        f"gezeigt werden die ersten {_zahl(MAX_MESSAGE_CHARS)}.\n",
    ]


def _zahl(number: int) -> str:
    """German digit grouping: 10000 -> "10.000"."""
    return f"{number:,}".replace(",", ".")


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + " …"


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
    on_parts: PartsCallback | None = None,
) -> CellResult:
    """Run ``code`` in ``namespace`` and return what it produced.

    ``label`` names the cell in tracebacks ("Zelle 3"). ``on_chunk`` receives
    output while the cell runs (the browser streams it to the page); ``on_parts``,
    if given, receives it instead, one batch per call.
    """
    result = CellResult()
    filename = cell_filename(label)
    # Register the source so tracebacks can quote the reader's lines.
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    output = _Output(on_chunk, on_parts)
    budget = _Budget()  # one budget for both streams
    stdout = _Capture("stdout", result, output, budget)
    stderr = _Capture("stderr", result, output, budget)
    namespace.setdefault("__name__", "__main__")
    streams = cell_streams.set({"stdout": stdout, "stderr": stderr})
    try:
        with (
            contextlib.redirect_stdout(stdout),
            contextlib.redirect_stderr(stderr),
            no_input(),
            no_os_exit(),
        ):
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
    finally:
        cell_streams.reset(streams)
        output.flush()
        result.output = output.merged()
    return result


def _show_value(value: Any, result: CellResult) -> None:
    result.raw_value = value
    if value is None:
        return
    to_svg = getattr(value, "_repr_svg_", None)
    if callable(to_svg) and not isinstance(value, type):
        svg = to_svg()
        if isinstance(svg, str):
            if len(svg) > MAX_SVG_CHARS:
                result.value = (
                    f"Bild nicht gezeigt: Das SVG hat {_zahl(len(svg))} Zeichen, "
                    f"erlaubt sind {_zahl(MAX_SVG_CHARS)}."
                )
            elif (elements := svg.count("<")) > MAX_SVG_ELEMENTS:
                result.value = (
                    f"Bild nicht gezeigt: Das SVG hat {_zahl(elements)} Elemente, "
                    f"erlaubt sind {_zahl(MAX_SVG_ELEMENTS)}."
                )
            else:
                result.svg = svg
            return
    text, cut = bounded_repr(value, MAX_VALUE_CHARS)
    if cut:
        text += f"\n… Wert gekürzt: gezeigt werden die ersten {_zahl(MAX_VALUE_CHARS)} Zeichen."
    result.value = text


def bounded_repr(value: Any, limit: int) -> tuple[str, bool]:
    """``repr(value)`` cut to ``limit`` characters, and whether it was cut.

    Built-in strings and containers (exact types) are written piece by piece and
    stop at the limit, so a list of a million numbers or a 100 MB string is never
    turned into one huge string; for them the text equals ``repr`` exactly while
    it fits. pysim's verdicts cut values the same way (``pysim.fehler.begrenzter_repr``).
    """
    return begrenzter_repr(value, limit)


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

    def before_run(self) -> None:
        """Called before every run; the browser's page kernel takes over the streams here."""

    async def run(
        self,
        session: str,
        code: str,
        label: str = "Zelle",
        on_chunk: ChunkCallback | None = None,
        on_parts: PartsCallback | None = None,
    ) -> CellResult:
        """Run ``code`` in ``session``'s namespace."""
        self.before_run()
        return await run_cell_async(code, self.namespace(session), label, on_chunk, on_parts)
