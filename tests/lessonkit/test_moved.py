"""``umgezogen``: a page names the pages its blocks stood on; the reader's work follows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lessonkit.build.errors import LessonError
from lessonkit.fences.moved import earlier_paths
from tests.lessonkit.seiten import QUIZ, convert

MOVED = (
    """\
# Teil 2

```umgezogen
lektionen/ereignisstroeme.md
index.md
```

"""
    + QUIZ
)


def test_the_page_carries_the_earlier_pages_as_key_paths(tmp_path: Path) -> None:
    soup = convert(tmp_path, MOVED, name="teil-2.md")
    data = soup.select(".lk-umgezogen__data")
    assert [json.loads(element["data-lk-json"]) for element in data] == [
        ["lektionen/ereignisstroeme/", ""]
    ]
    assert data[0].has_attr("hidden")


def test_the_progress_overview_names_a_pages_earlier_paths(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "teil-2.md").write_text(MOVED, encoding="utf-8")
    soup = convert(tmp_path, "```fortschritt\nteil-2.md\n```\n", name="index.md")
    [entry] = json.loads(soup.select_one(".lk-progress__data")["data-lk-json"])
    assert entry == {"path": "teil-2/", "ids": ["q"], "earlier": ["lektionen/ereignisstroeme/", ""]}
    assert earlier_paths("kein Block") == []


@pytest.mark.parametrize(
    ("body", "line", "says"),
    [
        ("```umgezogen\nlektionen/alt\n```\n", 2, "kein Seitenpfad"),
        ("```umgezogen\n../alt.md\n```\n", 2, "kein Seitenpfad"),
        ("```umgezogen\n\n```\n", 1, "ist leer"),
        ("```umgezogen\nseite.md\n```\n", 1, "diese Seite selbst"),
        ("```umgezogen\na.md\n```\n\n```umgezogen\nb.md\n```\n", 5, "zweimal"),
    ],
)
def test_mistakes_are_named_at_their_line(tmp_path: Path, body: str, line: int, says: str) -> None:
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, body)
    assert caught.value.line == line
    assert says in caught.value.message
