"""What a kind of fence is: one object that knows everything about its blocks.

A kind (``FenceKind``) has its options, makes its block from the fence, labels it
in page order, runs it at build time, checks the run against what the author
declared and writes its HTML (with the data the page script reads). The table of
kinds is ``lessonkit.fences.FENCES``; ``lessonkit.build.execute`` and
``lessonkit.fences.render_block`` only walk it, so adding a fence is one module with its kind
(and one TypeScript component, and its section in docs/autoren.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from lessonkit.build.blocks import Block, PageState
from lessonkit.build.errors import LessonError
from lessonkit.runtime.consoles import ConsoleSessions
from lessonkit.runtime.kernel import Kernel

#: An option's reader: the raw text from the fence header -> the value (ValueError if wrong).
Options = dict[str, Callable[[str], Any]]

B = TypeVar("B", bound=Block)
R = TypeVar("R")


@dataclass
class PageRun:
    """The build's run of one page: what every block of the page shares."""

    page: PageState
    #: The page's blocks in page order, labelled.
    blocks: list[Block]
    kernel: Kernel = field(default_factory=Kernel)
    consoles: ConsoleSessions = field(default_factory=ConsoleSessions)
    #: What a kind's ``prepare`` computed for the whole page, by the kind's class name.
    prepared: dict[str, Any] = field(default_factory=dict)
    #: Hints that an error message adds (a NameError's likely cause), by block slot.
    hints: dict[int, str] = field(default_factory=dict)

    @property
    def path(self) -> str:
        return self.page.location.path


class FenceError(ValueError):
    """A fence is malformed (its body or options); the build adds file and line.

    ``row`` is the 0-based row in the fence's body the error is about (e.g. a
    ``--- name`` line), when there is one; otherwise the build names the fence's first line.
    """

    def __init__(self, message: str, row: int | None = None) -> None:
        super().__init__(message)
        self.row = row


def refuse_body(src: str, fence: str, source: str) -> None:
    """Refuse a body in a fence that takes none; ``source`` says where its content comes from."""
    if src.strip():
        raise FenceError(f"Der Block „{fence}“ bleibt leer: {source}")


class FenceKind(Generic[B, R]):
    """One kind of fence. Subclasses override what their blocks need.

    ``run`` happens inside the build's time limit per block, in page order;
    ``check`` after every block of the page ran; ``render`` at last, per block.
    Page-wide steps (``validate_page`` before running, ``prepare`` before the
    first block runs) are class methods and run once per class, not per fence name.
    """

    #: Options of the fence header (see ``lessonkit.fences.options``), by name.
    options: Options
    #: True for exercises: the progress overview (``fortschritt``) counts them by their id.
    exercise: bool = False
    #: For a kind of which a page holds one block at most: the block's class and the German
    #: message for a second one (at its line), naming the first one's line as ``{line}``.
    one_per_page: tuple[type[Block], str] | None = None

    def __init__(self, options: Options) -> None:
        self.options = options

    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> B:
        """The block for a fence's body ``src`` with its validated ``options``."""
        raise NotImplementedError

    def label(self, block: B, count: Callable[[str], int]) -> str:
        """The block's name in messages and on the page; ``count("Zelle")`` numbers it."""
        raise NotImplementedError

    @classmethod
    def validate_page(cls, blocks: list[Block], path: str) -> None:
        """Refuse a page whose blocks contradict each other (before anything runs); here, a
        second block where ``one_per_page`` allows one."""
        if cls.one_per_page is None:
            return
        kind, says = cls.one_per_page
        found = [block for block in blocks if isinstance(block, kind)]
        if len(found) > 1:
            raise LessonError(path, found[1].line, says.format(line=found[0].line))

    @classmethod
    async def prepare(cls, run: PageRun) -> None:
        """Work for all of the page's blocks at once, before the first block runs."""

    async def run(self, block: B, run: PageRun) -> R:
        """Run the block at build time; raise ``LessonError`` for what cannot work."""
        raise NotImplementedError

    def check(self, block: B, result: R, run: PageRun) -> None:
        """Compare the run with what the author declared (after the whole page ran)."""

    def render(self, block: B, result: R) -> str:
        """The block's finished HTML."""
        raise NotImplementedError
