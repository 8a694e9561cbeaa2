"""The fences of a lesson page: runnable cells, consoles, exercises, TypeScript.

Authors write::

    ```pycell session="netz"
    print("Hallo")
    ```

    ```log-konsole
    create topic orders partitions 3
    ```

Options go into the fence's header line, as pymdownx.superfences reads them.
Like markdown-exec, there is one validator and a table of fences (``FENCES``):
each maps a name to its kind (``lessonkit.fences.kind.FenceKind``: options, block,
build-time run, check, HTML). The formatter only registers the block and leaves
a placeholder, because blocks must run in page order and superfences formats
nested fences (in tabs, admonitions) later than top-level ones;
``lessonkit.build.extension`` runs them and fills in the placeholders.
"""

from __future__ import annotations

from typing import Any

from markdown import Markdown

from lessonkit.build.blocks import Block, PageState, placeholder
from lessonkit.build.errors import LessonError
from lessonkit.fences import exercise as exercise_fence
from lessonkit.fences.cell import PYCELL
from lessonkit.fences.console import CONSOLE_FENCES
from lessonkit.fences.kind import FenceError, FenceKind
from lessonkit.fences.messages import MESSAGES
from lessonkit.fences.moved import MOVED
from lessonkit.fences.options import LINE_OPTION, FenceHeader, superfences_validator
from lessonkit.fences.progress import ProgressKind
from lessonkit.fences.ts import TS_RUN
from lessonkit.fences.workbench import WORKBENCH


def exercise_fences() -> list[str]:
    """Every name (aliases too) of a fence that is an exercise."""
    return [name for name in names() if kind_of(name).exercise]


#: Every fence lessonkit provides, by its name in the Markdown.
FENCES: dict[str, FenceKind[Any, Any]] = {
    "pycell": PYCELL,
    **CONSOLE_FENCES,  # log-konsole, queue-konsole, …: one per console kind of pysim
    "ts-run": TS_RUN,
    "vorhersage": exercise_fence.PREDICTION,
    "aufgabe": exercise_fence.CODE_TASK,
    "konsolen-aufgabe": exercise_fence.CONSOLE_TASK,
    "quiz": exercise_fence.QUIZ,
    "herausforderung": exercise_fence.CHALLENGE,
    "fortschritt": ProgressKind(exercise_fences),
    "umgezogen": MOVED,
    "nachrichten": MESSAGES,
    "werkbank": WORKBENCH,
}

#: Earlier names of fences that still work (ARCHITECTURE.md, "Naming"): old -> current.
ALIASES: dict[str, str] = {
    "log-console": "log-konsole",
    "queue-console": "queue-konsole",
}
#: Old option names -> current ones (any fence); the old name keeps working.
OPTION_ALIASES: dict[str, str] = {
    "max_versuche": "max_receive_count",
}


def names() -> list[str]:
    """Every name a fence can have in the Markdown: ``FENCES`` and ``ALIASES``."""
    return [*FENCES, *ALIASES]


def kind_of(name: str) -> FenceKind[Any, Any]:
    """The kind of the fence called ``name`` (an alias names its current kind)."""
    return FENCES[ALIASES.get(name, name)]


def _page(md: Markdown) -> PageState:
    page: PageState | None = getattr(md, "lessonkit_page", None)
    if page is None:
        raise LessonError(
            "<Konfiguration>",
            None,
            "Die Blöcke von lessonkit brauchen die Erweiterung `lessonkit.build.extension` unter "
            "`markdown_extensions` in mkdocs.yml (vor pymdownx.superfences).",
        )
    return page


@superfences_validator
def validate(fence: FenceHeader) -> None:
    """superfences validator: check every option, with a precise message on error."""
    language, inputs, options, line = fence.language, fence.inputs, fence.options, fence.line
    page = _page(fence.md)
    options[LINE_OPTION] = line
    allowed = kind_of(language).options
    for old, new in OPTION_ALIASES.items():
        if old in inputs and new in allowed:
            if new in inputs:
                raise _fence_error(
                    page,
                    line,
                    f"Block `{language}`: „{old}“ ist der alte Name von „{new}“; gib nur „{new}“ an.",
                )
            inputs[new] = inputs.pop(old)
    for key, raw in inputs.items():
        reader = allowed.get(key)
        if reader is None:
            names = ", ".join(sorted(allowed))
            raise _fence_error(
                page, line, f"Unbekannte Option „{key}“ im Block `{language}`. Erlaubt: {names}."
            )
        try:
            options[key] = reader(raw)
        except ValueError as exc:
            raise _fence_error(page, line, f"Block `{language}`: {exc}") from None


def _fence_error(page: PageState, line: int | None, message: str) -> LessonError:
    return LessonError(page.location.path, line, message)


def format_block(
    src: str, language: str, class_name: str, options: dict[str, Any], md: Markdown, **kwargs: Any
) -> str:
    """superfences formatter: register the block, leave a placeholder for it."""
    page = _page(md)
    line = options.get(LINE_OPTION) or 0
    try:
        block: Block = kind_of(language).make(len(page.blocks), line, src, options)
    except FenceError as exc:
        where = line + 1 + exc.row if line and exc.row is not None else line or None
        raise LessonError(page.location.path, where, f"Block `{language}`: {exc}") from None
    block.fence = ALIASES.get(language, language)
    page.blocks.append(block)
    return placeholder(block.slot)


def render_block(block: Block, result: Any) -> str:
    """The finished HTML of any block, from its run (``lessonkit.build.execute.run_page``)."""
    return str(kind_of(block.fence).render(block, result))
