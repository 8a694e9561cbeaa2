"""The TypeScript on the pages: its output comes from Node.js, and Node.js still agrees."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from lessonkit.build.errors import LessonError
from lessonkit.build.typescript import run_typescript
from tests.lessonkit.seiten import convert


def test_every_typescript_block_prints_what_the_page_shows(built_site: Path) -> None:
    blocks = [
        block
        for path in sorted(built_site.rglob("*.html"))
        for block in BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").select(
            "[data-lk-ts]"
        )
    ]
    assert blocks, "no ts-run block on the site"
    codes = [block.select_one(".highlight code").get_text() for block in blocks]
    shown = [block.select_one(".lk-stdout").get_text() for block in blocks]
    assert [result.output for result in run_typescript(codes)] == shown


def test_types_are_stripped_and_timers_finish(tmp_path: Path) -> None:
    soup = convert(
        tmp_path,
        "```ts-run\nconst n: number = 1;\nsetTimeout(() => console.log('spät'), 0);\n"
        "Promise.resolve().then(() => console.log('Microtask'));\nconsole.log(n);\n```\n",
    )
    assert soup.select_one(".lk-stdout").get_text() == "1\nMicrotask\nspät\n"


def test_typescript_that_throws_fails_the_build(tmp_path: Path) -> None:
    with pytest.raises(
        LessonError, match=r"seite\.md:2: Der TypeScript-Block wirft in Node.js: Error: kaputt"
    ):
        convert(tmp_path, "```ts-run\nthrow new Error('kaputt');\n```\n")
