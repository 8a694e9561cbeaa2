"""The exercise fences: ``vorhersage``, ``aufgabe``, ``konsolen-aufgabe``, ``quiz``.

Parsing, the build-time proof and the HTML of each live in ``lessonkit.fences.exercises``
(one class per exercise); this module makes them fence kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lessonkit.authoring import author_checks
from lessonkit.build.blocks import Block, ConsoleBlock
from lessonkit.build.errors import LessonError
from lessonkit.fences import options as read
from lessonkit.fences.console import BUILD_OPTIONS, ConsoleRun, console_start, render_console
from lessonkit.fences.exercises import (
    ConsoleTask,
    Exercise,
    make_challenge,
    make_code_task,
    make_console_task,
    make_prediction,
    make_quiz,
    render_exercise,
)
from lessonkit.fences.kind import FenceKind, Options, PageRun


class ExerciseKind(FenceKind[Exercise, ConsoleRun | None]):
    """An exercise; a console task's result is its console's starting state."""

    exercise = True

    def __init__(
        self, options: Options, make: Callable[[int, int, str, dict[str, Any]], Exercise]
    ) -> None:
        super().__init__(options)
        self._make = make

    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> Exercise:
        return self._make(slot, line, src, options)

    def label(self, block: Exercise, count: Callable[[str], int]) -> str:
        return f"Übung {count('Übung')}"

    @classmethod
    def validate_page(cls, blocks: list[Block], path: str) -> None:
        """An exercise's id is unique on its page (it keys the reader's progress); its
        code imports only what the browser has; each of its checks can fail."""
        seen: dict[str, Exercise] = {}
        for block in blocks:
            if not isinstance(block, Exercise):
                continue
            _check_author_mistakes(block, path)
            first = seen.setdefault(block.id, block)
            if first is not block:
                raise LessonError(
                    path,
                    block.line,
                    f"Die id „{block.id}“ gibt es auf dieser Seite mehrmals: in Zeile "
                    f"{first.line} ({first.label}) und in Zeile {block.line} ({block.label}). "
                    "Gib einer der beiden Übungen eine andere id.",
                )

    async def run(self, block: Exercise, run: PageRun) -> ConsoleRun | None:
        problem = await block.verify(run.kernel)
        if problem is not None:
            message, row = problem
            line = block.line if row is None else block.line + 1 + row
            raise LessonError(run.path, line, f"{block.label} (id „{block.id}“): {message}")
        if isinstance(block, ConsoleTask):
            return console_start(block.kind, block.options, block.setup)
        return None

    def render(self, block: Exercise, result: ConsoleRun | None) -> str:
        console = ""
        if isinstance(block, ConsoleTask) and result is not None:
            console_block = ConsoleBlock(
                slot=block.slot,
                line=block.line,
                label=block.label,
                kind=block.kind,
                options=block.options,
                setup=block.setup,
            )
            console = render_console(console_block, result, key=f"exercise:{block.id}")
        return render_exercise(block, console)


_SHUFFLE = read.flag("mischen")
#: ``versuche="3"``: after that many wrong answers the solution shows by itself.
_TRIES = read.positive_int("versuche")

#: The fence ``vorhersage``.
PREDICTION = ExerciseKind(
    {
        "id": read.exercise_id,
        "session": read.session,
        "platzhalter": read.placeholder,
        "versuche": _TRIES,
    },
    make_prediction,
)
#: The fence ``aufgabe``.
CODE_TASK = ExerciseKind({"id": read.exercise_id}, make_code_task)
#: The fence ``konsolen-aufgabe``.
CONSOLE_TASK = ExerciseKind(
    {
        "id": read.exercise_id,
        "kind": read.console_kind,
        # every kind's options; make_console_task refuses those its kind does not know
        **BUILD_OPTIONS,
    },
    make_console_task,
)
#: The fence ``quiz``.
QUIZ = ExerciseKind({"id": read.exercise_id, "mischen": _SHUFFLE, "versuche": _TRIES}, make_quiz)


#: ``seeds="5"``, ``knoten="3"`` …: whole numbers from 1; ``verlust="0.1"``, ``max_nachrichten="20"``.
def _share(name: str) -> Callable[[str], str]:
    def read_value(value: str) -> str:
        try:
            number = float(value)
        except ValueError:
            number = -1.0
        if not 0 <= number <= (1 if name == "verlust" else 1_000_000):
            grenze = "von 0 bis 1" if name == "verlust" else "ab 0"
            raise ValueError(f'{name}=„{value}“ ist keine Zahl {grenze}, z. B. {name}="0.1".')
        return value

    return read_value


#: The fence ``herausforderung`` (``lessonkit.runtime.challenges``).
CHALLENGE = ExerciseKind(
    {
        "id": read.exercise_id,
        "last": read.matching(
            r"^[a-z][a-z0-9-]{0,29}$",
            'last=„{value}“ ist kein Name einer Last, z. B. last="broadcast".',
        ),
        "knoten": read.positive_int("knoten"),
        "dauer": read.positive_int("dauer"),
        "seeds": read.positive_int("seeds"),
        "stoerungen": read.matching(
            r"^[a-z, ]{1,100}$",
            'stoerungen=„{value}“: Namen mit Kommas, z. B. stoerungen="teilung, absturz".',
        ),
        "anzahl_stoerungen": read.positive_int("anzahl_stoerungen"),
        "verlust": _share("verlust"),
        "timeout": read.positive_int("timeout"),
        "max_nachrichten": _share("max_nachrichten"),
        "max_ausbreitung": read.matching(
            r"^[1-9][0-9]{0,5}/[1-9][0-9]{0,5}$",
            "max_ausbreitung=„{value}“: Median und Höchstwert in Ticks, z. B. "
            'max_ausbreitung="60/120".',
        ),
        "topologie": read.matching(
            r"^(alle|linie|gitter)$", "topologie=„{value}“: „alle“, „linie“ oder „gitter“."
        ),
        "schluessel": read.positive_int("schluessel"),
        # txn-rw-register: the level the transaction checker demands
        "isolation": read.matching(
            r"^(read uncommitted|read committed|snapshot isolation|serialisierbar)$",
            "isolation=„{value}“: „read uncommitted“, „read committed“, „snapshot isolation“ "
            "oder „serialisierbar“.",
        ),
    },
    make_challenge,
)


def _check_author_mistakes(block: Exercise, path: str) -> None:
    """Refuse what the build's CPython runs but the reader's browser cannot, and a check
    that cannot fail (``lessonkit.authoring.author_checks``), at the line it stands on."""

    def line_of(section: str, row: int) -> int:
        found = block.row_of(section, row)
        return block.line if found is None else block.line + 1 + found

    for section in author_checks.CODE_SECTIONS.get(block.type, ()):
        code = getattr(block, section, "")
        for row, module in author_checks.foreign_imports(code):
            message = author_checks.import_message(f"{block.label} (`--- {section}`)", module)
            raise LessonError(path, line_of(section, row), message)
    pruefung = getattr(block, "pruefung", "")
    if isinstance(pruefung, str) and pruefung.strip():
        for row, name in author_checks.checks_that_cannot_fail(pruefung):
            message = author_checks.cannot_fail_message(block.label, name)
            raise LessonError(path, line_of("pruefung", row), message)
