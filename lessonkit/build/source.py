"""Find which Markdown file a page's text came from, and at which line it starts.

Markdown extensions are not told the file they render. The build needs it for
error messages (``docs/lektion.md:42: …``), so we look the text up among the
files in ``docs_dir``. Generators strip front matter before rendering; the
offset of the text inside the file gives the line numbers back.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SourceLocation:
    """Where a page's Markdown text lives."""

    path: str  # relative to the working directory, e.g. "docs/index.md"
    first_line: int  # 1-based line number of the text's first line in the file

    def line(self, index: int) -> int:
        """File line number of the 0-based line ``index`` of the page text."""
        return self.first_line + index


#: ``SourceLocation.path`` of a text found in no file of ``docs_dir``.
UNKNOWN_PAGE = "<unbekannte Seite>"

_cache: dict[Path, tuple[float, str]] = {}


def _read(path: Path) -> str:
    mtime = path.stat().st_mtime
    cached = _cache.get(path)
    if cached is None or cached[0] != mtime:
        text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        cached = (mtime, text)
        _cache[path] = cached
    return cached[1]


def locate(text: str, docs_dir: str) -> SourceLocation:
    """The file in ``docs_dir`` that contains ``text`` (first match in path order)."""
    text = text.replace("\r\n", "\n")
    needle = text.strip("\n")
    leading_blank_lines = len(text) - len(text.lstrip("\n"))
    root = Path(docs_dir)
    if needle and root.is_dir():
        for path in sorted(root.rglob("*.md")):
            content = _read(path)
            start = content.find(needle)
            if start >= 0:
                rel = os.path.relpath(path)
                first = content.count("\n", 0, start) + 1 - leading_blank_lines
                return SourceLocation(rel, first)
    return SourceLocation(UNKNOWN_PAGE, 1)
