"""The ``fortschritt`` block: which exercises of which lesson the reader has solved.

At build time it reads the listed lesson pages (Markdown files in docs_dir) and
finds their exercises by their fence headers; the browser
(frontend/src/components/progress) counts what this reader has solved.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from html import escape
from pathlib import Path
from typing import Any

from lessonkit.build.blocks import PageState, ProgressBlock
from lessonkit.build.contract import ProgressEntry
from lessonkit.build.errors import LessonError
from lessonkit.build.pagedata import data_element, site_path
from lessonkit.fences.kind import FenceKind, PageRun
from lessonkit.fences.moved import earlier_paths


def exercise_pattern(fences: Iterable[str]) -> re.Pattern[str]:
    """The opening line of an exercise fence (one of ``fences``) with its ``id``."""
    names = "|".join(re.escape(name) for name in sorted(fences, key=len, reverse=True))
    return re.compile(
        rf'^[ \t>]*(?:`{{3,}}|~{{3,}})[ \t]*(?:{names})(?![\w-])[^\n]*\bid="([^"]+)"',
        re.MULTILINE,
    )


_TITLE = re.compile(r"^# (.+)$", re.MULTILINE)


class ProgressKind(FenceKind[ProgressBlock, str]):
    """``fortschritt``: lists its pages (``exercise_fences`` names what counts as an exercise)."""

    def __init__(self, exercise_fences: Callable[[], Iterable[str]]) -> None:
        super().__init__({})
        self.exercise_fences = exercise_fences

    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> ProgressBlock:
        pages = [row.strip() for row in src.splitlines() if row.strip()]
        return ProgressBlock(slot=slot, line=line, pages=pages)

    def label(self, block: ProgressBlock, count: Callable[[str], int]) -> str:
        return "Fortschritt"

    async def run(self, block: ProgressBlock, run: PageRun) -> str:
        return render_progress(block, run.page, exercise_pattern(self.exercise_fences()))

    def render(self, block: ProgressBlock, result: str) -> str:
        return result


def render_progress(block: ProgressBlock, page: PageState, exercise: re.Pattern[str]) -> str:
    rows = []
    data: list[ProgressEntry] = []
    here = site_path(page.relative_path)
    for listed in block.pages:
        path = Path(page.docs_dir) / listed
        if not path.is_file():
            raise LessonError(
                page.location.path,
                block.line,
                f"Fortschritt: die Seite „{listed}“ gibt es nicht in {page.docs_dir}/.",
            )
        text = path.read_text(encoding="utf-8")
        ids = exercise.findall(text)
        title_match = _TITLE.search(text)
        title = title_match[1].strip() if title_match else listed
        target = site_path(listed)
        href = os.path.relpath(target or ".", here or ".").replace(os.sep, "/") + "/"
        data.append({"path": target, "ids": ids, "earlier": earlier_paths(text)})
        rows.append(
            f'<tr><td><a href="{escape(href)}">{escape(title)}</a></td>'
            f'<td class="lk-progress__count" data-path="{escape(target)}">{len(ids)} Übungen</td></tr>'
        )
    return (
        '<div class="lk-progress" data-lk-progress>'
        f"{data_element('progress', data)}"
        "<table><thead><tr><th>Lektion</th><th>Übungen</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        "</div>"
    )
