"""The blocks of a page that the build runs: what each fence turns into."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field

from lessonkit.build.source import SourceLocation


@dataclass
class Block:
    """A fence of a page that the build runs."""

    slot: int  # order in which superfences met it; names its placeholder
    line: int  # line of the opening fence in the Markdown file
    label: str = ""  # "Zelle 3", "Konsole 1": set once the page order is known
    fence: str = ""  # the fence's name (its kind in ``lessonkit.fences.FENCES``)

    def session_code(self) -> tuple[str, str] | None:
        """(session, code) when the block runs Python in a session of the page's cells."""
        return None


@dataclass
class Cell(Block):
    """One ``pycell`` block, as the author wrote it."""

    code: str = ""
    session: str = "main"
    hidden: bool = False
    raises: str | None = None
    #: A check of the prose (``pruefung``, or a hidden cell of ``assert``s only): later
    #: cells need nothing from it, so in the browser its failure never stops them.
    check: bool = False

    def session_code(self) -> tuple[str, str] | None:
        return self.session, self.code


@dataclass
class ConsoleBlock(Block):
    """One console block (``log-konsole``, ``queue-konsole``): its setup commands."""

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
class MovedBlock(Block):
    """An ``umgezogen`` block: the pages this page's blocks stood on before (``lessonkit.fences.moved``)."""

    pages: list[str] = field(default_factory=list)  # paths relative to docs_dir


@dataclass
class PageState:
    """What the build knows about the page being converted."""

    location: SourceLocation
    docs_dir: str = "docs"
    blocks: list[Block] = field(default_factory=list)
    #: The page's mermaid diagrams: (line of the opening fence, the diagram's text).
    diagrams: list[tuple[int, str]] = field(default_factory=list)

    @property
    def relative_path(self) -> str:
        """The page's file relative to ``docs_dir``, with ``/`` (``lektionen/a.md``)."""
        return os.path.relpath(self.location.path, self.docs_dir).replace(os.sep, "/")


def asserts_only(code: str) -> bool:
    """Is ``code`` nothing but ``assert`` statements that bind no name (a prose check)?"""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    return (
        bool(tree.body)
        and all(isinstance(statement, ast.Assert) for statement in tree.body)
        and not any(isinstance(node, ast.NamedExpr) for node in ast.walk(tree))
    )


def _scopes(tree: ast.AST) -> list[ast.AST]:
    """``tree``'s nodes outside the bodies of functions and classes (the cell's own scope)."""
    nodes: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        nodes.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo.extend(node.decorator_list)  # the body has a scope of its own
        elif isinstance(node, ast.Lambda):
            todo.extend(node.args.defaults)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return nodes


def bound_names(code: str) -> set[str]:
    """Names ``code`` binds in the namespace it runs in (assignments, imports, def, class)."""
    names: set[str] = set()
    for node in _scopes(ast.parse(code)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    names.update(
        node.target.id
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name)
    )
    return names


def read_names(code: str) -> set[str]:
    """Every name ``code`` reads anywhere (also inside functions: they read globals)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    return {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


def placeholder(slot: int) -> str:
    """The marker a formatter leaves where the finished block goes."""
    return f"<!--lessonkit-block-{slot}-->"


PLACEHOLDER = re.compile(r"<!--lessonkit-block-(\d+)-->")


@dataclass
class MessagesBlock(Block):
    """A ``nachrichten`` block: the table of a workload's messages (``lessonkit.fences.messages``)."""

    last: str = ""


@dataclass
class WorkbenchBlock(Block):
    """A ``werkbank`` block: the reader's own node under chosen faults (``lessonkit.fences.workbench``)."""

    #: The workload the form starts with.
    last: str = "echo"
