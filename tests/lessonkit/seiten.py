"""Markdown converted as the site converts it: what the fence tests share."""

from __future__ import annotations

import textwrap
from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup

from lessonkit.build.errors import LessonError
from lessonkit.fences import format_block, names, validate
from lessonkit.fences import mermaid as mermaid_fence

#: A quiz a test page can hold (id ``q``: "Ja?", right "Ja", wrong "Nein").
QUIZ = """\
```quiz id="q"
--- frage
Ja?
--- richtig
Ja
--- falsch
Nein
```
"""


def make_markdown(docs: Path) -> markdown.Markdown:
    """A Markdown converter configured like mkdocs.yml's, for pages in ``docs``."""
    fences = [
        {"name": name, "class": name, "validator": validate, "format": format_block}
        for name in names()  # like mkdocs.yml: every fence and every earlier name
    ]
    fences.append(
        {
            "name": "mermaid",
            "class": "mermaid",
            "validator": mermaid_fence.validate,
            "format": mermaid_fence.format_mermaid,
        }
    )
    return markdown.Markdown(
        extensions=[
            "toc",
            "admonition",
            "pymdownx.tabbed",
            "lessonkit.build.extension",
            "pymdownx.superfences",
        ],
        extension_configs={
            "lessonkit.build.extension": {"docs_dir": str(docs)},
            "pymdownx.superfences": {"custom_fences": fences},
        },
    )


def convert(tmp_path: Path, text: str, name: str = "seite.md") -> BeautifulSoup:
    """Convert ``text`` as the site does, with the page stored in a docs folder."""
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    source = textwrap.dedent(text)
    (docs / name).write_text(source, encoding="utf-8")
    return BeautifulSoup(make_markdown(docs).convert(source), "html.parser")


def build_error(tmp_path: Path, text: str) -> LessonError:
    """The author's error that converting ``text`` raises (the test fails without one)."""
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, text)
    return caught.value


def fails_at(tmp_path: Path, text: str, line: int, says: str) -> LessonError:
    """The page ``text`` fails the build at ``line`` and tells the author ``says``: an
    author's mistake, never an internal error."""
    error = build_error(tmp_path, text)
    assert error.line == line
    assert says in error.message
    assert "Interner Fehler" not in error.message
    return error
