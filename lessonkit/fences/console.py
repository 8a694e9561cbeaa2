"""The console fences (``log-konsole``, ``queue-konsole``, …): a command console.

One fence per console kind of ``pysim`` (``lessonkit.runtime.consoles.ARTEN``), named and
optioned by the kind's descriptor; nothing here names a kind.

At build time the setup commands run through ``pysim.console``; the transcript
and the picture of the resulting state go into the page, and a command fails the
build unless it is marked ``!`` (meant to fail). Consoles with the same
``session`` share one state (``lessonkit.runtime.consoles``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from lessonkit.build.blocks import ConsoleBlock
from lessonkit.build.contract import ConsoleData
from lessonkit.build.errors import LessonError
from lessonkit.build.pagedata import data_element
from lessonkit.build.render import render_console_entry
from lessonkit.fences import options as read
from lessonkit.fences.kind import FenceKind, Options, PageRun
from lessonkit.runtime.consoles import ARTEN, ConsoleSessions, strip_expectation
from pysim.console import ConsoleResult, KonsolenArt, KonsolenOption
from pysim.fehler import SimFehler


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
    """A console of one kind (``pysim.console.KonsolenArt``): its fence and options."""

    def __init__(self, art: KonsolenArt) -> None:
        super().__init__({**_COMMON, **console_options(art.optionen)})
        self.kind = art.name

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
    """The options that build a console (of any kind; the rest are the fence's own)."""
    return {key: value for key, value in options.items() if key in BUILD_OPTIONS}


def _option_reader(option: KonsolenOption) -> Callable[[str], str]:
    """A fence option read as the console kind reads it (the value stays text)."""

    def read_option(value: str) -> str:
        try:
            option.lies(value)
        except SimFehler as exc:
            raise ValueError(str(exc)) from None
        return value

    return read_option


def console_options(options: tuple[KonsolenOption, ...]) -> Options:
    """The fence options that build a console, by name."""
    return {option.name: _option_reader(option) for option in options}


_COMMON: Options = {"session": read.session, "hidden": read.flag("hidden")}

#: Options that build a console, of every kind (``konsolen-aufgabe`` takes each of them
#: and checks it against its ``kind``).
BUILD_OPTIONS: Options = {
    name: reader for art in ARTEN.values() for name, reader in console_options(art.optionen).items()
}

#: The console fences by name: ``log-konsole``, ``queue-konsole``, … one per kind.
CONSOLE_FENCES: dict[str, ConsoleKind] = {art.block: ConsoleKind(art) for art in ARTEN.values()}


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
    title = f"{block.label} · {ARTEN[block.kind].titel}"
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
