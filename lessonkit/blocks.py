"""The blocks of a page that the build runs: what each fence turns into."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lessonkit.source import SourceLocation


@dataclass
class Block:
    """A fence of a page that the build runs."""

    slot: int  # order in which superfences met it; names its placeholder
    line: int  # line of the opening fence in the Markdown file
    label: str = ""  # "Zelle 3", "Konsole 1": set once the page order is known


@dataclass
class Cell(Block):
    """One ``pycell`` block, as the author wrote it."""

    code: str = ""
    session: str = "main"
    hidden: bool = False
    raises: str | None = None


@dataclass
class ConsoleBlock(Block):
    """One ``log-console`` or ``queue-console`` block: its setup commands."""

    kind: str = "log"
    setup: list[str] = field(default_factory=list)
    session: str | None = None  # consoles with the same session share their state
    hidden: bool = False  # run the setup, show only the resulting picture
    options: dict[str, str] = field(default_factory=dict)
    source_rows: list[int] = field(default_factory=list)  # row in the fence of each setup line

    @property
    def key(self) -> str:
        """The console's state on the page: its session, or its own."""
        return f"session:{self.session}" if self.session else f"console:{self.slot}"


@dataclass
class TsBlock(Block):
    """One ``ts-run`` block: TypeScript whose output Node.js produces at build time."""

    code: str = ""


@dataclass
class ProgressBlock(Block):
    """A ``fortschritt`` block: the reader's progress in the listed lesson pages."""

    pages: list[str] = field(default_factory=list)  # paths relative to docs_dir


@dataclass
class PageState:
    """What the build knows about the page being converted."""

    location: SourceLocation
    docs_dir: str = "docs"
    blocks: list[Block] = field(default_factory=list)


def placeholder(slot: int) -> str:
    """The marker a formatter leaves where the finished block goes."""
    return f"<!--lessonkit-block-{slot}-->"


PLACEHOLDER = re.compile(r"<!--lessonkit-block-(\d+)-->")
