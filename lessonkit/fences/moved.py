"""The ``umgezogen`` block: this page's cells, exercises and consoles stood on other pages.

When an author splits a long page or moves a section, the reader's drafts, solved
exercises and console commands are stored under the old page's path (keys are by
page path, frontend/src/runtime/storage.ts). The new page names the old ones::

    ```umgezogen
    lektionen/ereignisstroeme.md
    ```

and the page script looks there for what belongs to this page's blocks (a draft by
the hash of its cell's code, progress by the exercise's id and digest, console
commands by their console) and moves it here, once. The progress overview counts a
listed page's exercises under the old paths too. Nothing shows on the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lessonkit.build.blocks import MovedBlock
from lessonkit.build.errors import LessonError
from lessonkit.build.pagedata import data_element, site_path
from lessonkit.fences.kind import FenceError, FenceKind, PageRun

#: A page path as an author writes it: relative to docs/, ending in .md.
_PAGE = re.compile(r"^[\w.-]+(?:/[\w.-]+)*\.md$")
#: The block in a page's Markdown (the progress overview reads other pages' text).
_BLOCK = re.compile(
    r"^[ \t]*(`{3,}|~{3,})[ \t]*umgezogen[ \t]*\n(.*?)^[ \t]*\1", re.MULTILINE | re.DOTALL
)


def earlier_paths(markdown: str) -> list[str]:
    """The site paths a page's ``umgezogen`` block names (none without one)."""
    match = _BLOCK.search(markdown)
    if not match:
        return []
    return [site_path(row.strip()) for row in match[2].splitlines() if row.strip()]


class MovedKind(FenceKind[MovedBlock, str]):
    """``umgezogen``: one page path (relative to docs/) per line, none of them this page."""

    one_per_page = (
        MovedBlock,
        "Der Block „umgezogen“ steht zweimal auf der Seite (auch in Zeile {line}): "
        "Nenne alle früheren Seiten in einem Block.",
    )

    def __init__(self) -> None:
        super().__init__({})

    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> MovedBlock:
        pages: list[str] = []
        for row, text in enumerate(src.splitlines()):
            page = text.strip()
            if not page:
                continue
            if not _PAGE.match(page) or {".", ".."} & set(page.split("/")):
                raise FenceError(
                    f"„{page}“ ist kein Seitenpfad: Schreib den Pfad der früheren Seite relativ "
                    "zu docs/, mit .md am Ende (z. B. lektionen/ereignisstroeme.md).",
                    row,
                )
            pages.append(page)
        if not pages:
            raise FenceError(
                "Der Block „umgezogen“ ist leer: Nenne die Seite, auf der die Blöcke früher standen."
            )
        return MovedBlock(slot=slot, line=line, pages=pages)

    def label(self, block: MovedBlock, count: Callable[[str], int]) -> str:
        return "Umzug"

    async def run(self, block: MovedBlock, run: PageRun) -> str:
        here = site_path(run.page.relative_path)
        for page in block.pages:
            if site_path(page) == here:
                raise LessonError(
                    run.path,
                    block.line,
                    f"„umgezogen“ nennt diese Seite selbst ({page}): Nenne die Seite, auf der die Blöcke früher standen.",
                )
        return data_element("umgezogen", [site_path(page) for page in block.pages])

    def render(self, block: MovedBlock, result: str) -> str:
        return result


MOVED = MovedKind()
