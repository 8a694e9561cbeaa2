"""The console fences (``log-konsole``, ``queue-konsole``, ``saga-konsole``): a command console.

At build time the setup commands run through ``pysim.console``; the transcript
and the picture of the resulting state go into the page, and a command fails the
build unless it is marked ``!`` (meant to fail). Consoles with the same
``session`` share one state (``lessonkit.consoles``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from lessonkit import options as read
from lessonkit.blocks import ConsoleBlock
from lessonkit.consoles import ConsoleSessions, strip_expectation
from lessonkit.contract import ConsoleData
from lessonkit.errors import LessonError
from lessonkit.fence_kind import FenceKind, Options, PageRun
from lessonkit.pagedata import data_element
from lessonkit.render import render_console_entry
from pysim.console import ConsoleResult

#: What the console's head line calls each kind (``lessonkit.consoles.KINDS``).
CONSOLE_TITLES = {"log": "Log-Konsole", "queue": "Queue-Konsole", "saga": "Saga-Konsole"}
#: Options that build the console (passed on to ``lessonkit.consoles.KINDS``).
_BUILD_OPTIONS = ("visibility_timeout", "max_receive_count")


@dataclass
class ConsoleRun:
    """A console's setup as the build ran it."""

    transcript: list[tuple[str, ConsoleResult]]  # (command as shown, its result)
    svg: str | None  # the picture after the last command that drew one
    setup: list[str]  # every setup line of the console's state (its session), in page order
    offset: int = 0  # where this console's own lines start in ``setup``


@dataclass
class _Sessions:
    """Every console state's setup lines in page order, and where each console's start."""

    setup: dict[str, list[str]]
    offsets: dict[int, int]


class ConsoleKind(FenceKind[ConsoleBlock, ConsoleRun]):
    """A console of one ``kind`` of ``lessonkit.consoles.KINDS``."""

    def __init__(self, kind: str, options: Options) -> None:
        super().__init__(options)
        self.kind = kind

    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> ConsoleBlock:
        rows = [(index, row) for index, row in enumerate(src.splitlines()) if row.strip()]
        return ConsoleBlock(
            slot=slot,
            line=line,
            kind=self.kind,
            setup=[row for _, row in rows],
            source_rows=[index for index, _ in rows],
            session=options.get("session"),
            hidden=options.get("hidden", False),
            options=build_options(options),
        )

    def label(self, block: ConsoleBlock, count: Callable[[str], int]) -> str:
        return f"Konsole {count('Konsole')}"

    @classmethod
    async def prepare(cls, run: PageRun) -> None:
        sessions = _Sessions({}, {})
        for block in run.blocks:
            if isinstance(block, ConsoleBlock):
                sessions.offsets[block.slot] = len(sessions.setup.setdefault(block.key, []))
                sessions.setup[block.key].extend(block.setup)
        run.prepared[cls.__name__] = sessions

    async def run(self, block: ConsoleBlock, run: PageRun) -> ConsoleRun:
        sessions: _Sessions = run.prepared[type(self).__name__]
        console, _ = run.consoles.get(block.key, block.kind, block.options, [])
        commands = [strip_expectation(line)[0] for line in block.setup]
        transcript = [(command, console.run(command)) for command in commands]
        pictures = [result.svg for _, result in transcript if result.svg]
        return ConsoleRun(
            transcript,
            pictures[-1] if pictures else None,
            sessions.setup[block.key],
            sessions.offsets[block.slot],
        )

    def check(self, block: ConsoleBlock, result: ConsoleRun, run: PageRun) -> None:
        for index, (_, outcome) in enumerate(result.transcript):
            _check_command(block, index, block.setup[index], outcome, run.path)

    def render(self, block: ConsoleBlock, result: ConsoleRun) -> str:
        return render_console(block, result)


def build_options(options: dict[str, Any]) -> dict[str, str]:
    """The options that build a console (the rest are the fence's own)."""
    return {key: value for key, value in options.items() if key in _BUILD_OPTIONS}


_COMMON: Options = {"session": read.session, "hidden": read.flag("hidden")}

#: The fence ``log-konsole``.
LOG_CONSOLE = ConsoleKind("log", _COMMON)
#: The fence ``queue-konsole``.
QUEUE_CONSOLE = ConsoleKind(
    "queue",
    {
        **_COMMON,
        "visibility_timeout": read.positive_int("visibility_timeout"),
        "max_receive_count": read.positive_int("max_receive_count"),
    },
)
#: The fence ``saga-konsole``.
SAGA_CONSOLE = ConsoleKind("saga", _COMMON)


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


def render_console(block: ConsoleBlock, run: ConsoleRun, key: str | None = None) -> str:
    """A console: its data, the picture of its state and the transcript of its setup."""
    data: ConsoleData = {
        "key": key or block.key,
        "kind": block.kind,
        "options": block.options,
        "setup": run.setup,
        "offset": run.offset,
        "label": block.label,
    }
    entries = (
        ""
        if block.hidden
        else "".join(render_console_entry(command, result) for command, result in run.transcript)
    )
    title = f"{block.label} · {CONSOLE_TITLES[block.kind]}"
    if block.session:
        title += f" · Sitzung „{block.session}“"
    picture = run.svg or ""
    return (
        f'<div class="lk-console" data-lk-console data-kind="{block.kind}">'
        f"{data_element('console', data)}"
        f'<div class="lk-console__head">{escape(title)}</div>'
        f'<div class="lk-console__picture">{picture}</div>'
        # Focusable: a long transcript scrolls, also by keyboard.
        f'<pre class="lk-console__log" role="log" aria-live="polite" tabindex="0" '
        f'aria-label="Verlauf von {escape(block.label)}">{entries}</pre>'
        "</div>"
    )


def console_start(kind: str, options: dict[str, str], setup: list[str]) -> ConsoleRun:
    """A console's state after ``setup`` on its own (a console task's start), as shown."""
    _, results = ConsoleSessions().get("start", kind, options, setup)
    pictures = [result.svg for result in results if result.svg]
    return ConsoleRun(
        list(zip(setup, results, strict=True)), pictures[-1] if pictures else None, setup
    )
