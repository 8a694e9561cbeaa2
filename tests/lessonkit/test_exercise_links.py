"""Links in an exercise's sections reach the page as MkDocs writes the page's own links
(lessonkit/build/links.py); a link to a page or anchor that does not exist stops the build with
page, line, exercise and link."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from markdown import Markdown
from markdown.preprocessors import Preprocessor

from lessonkit.build import links
from lessonkit.build.errors import LessonError
from tests.lessonkit.seiten import make_markdown

#: Pages beside the exercise's page: the overview of its folder and a page one folder up.
OTHER_PAGES = {
    "kapitel/index.md": "# Überblick\n\n## Nachrichten\n\nText.\n",
    "glossar.md": "# Glossar\n\n### Idempotent {#idempotent}\n\nText.\n",
}

QUIZ = """\
# Seite

## Eigene Stelle

```quiz id="frage-1"
--- frage
Was steht im [Überblick](index.md#nachrichten)?
--- richtig
Siehe [Glossar](../glossar.md#idempotent).
--- erklaerung
Eine [eigene Stelle](#eigene-stelle) und [dieselbe Seite](seite.md#eigene-stelle).
--- falsch
Nichts; [draußen](https://example.org/a.md#b) und [Post](mailto:autorin@example.org).
```
"""

CODE_TASK = """\
# Seite

```aufgabe id="aufgabe-1"
--- aufgabe
Lies erst [den Überblick](index.md).
--- start
x = 1
--- pruefung
@pruefe("x ist 2")
def _():
    assert x == 2, "x ist nicht 2."
--- hinweis
Im [Glossar](../glossar.md#idempotent) steht es.
--- loesung
x = 2
--- erklaerung
Mehr dazu [oben](index.md#nachrichten).
```
"""

CHALLENGE = """\
# Seite

```herausforderung id="echo" last="echo" seeds="1"
--- aufgabe
Antworte wie im [Überblick](index.md#nachrichten).
--- start
class K(Knoten):
    def bei_echo(self, nachricht):
        self.antworte(nachricht, {"type": "echo_ok", "echo": "falsch"})
--- hinweis
Lies [Idempotent](../glossar.md#idempotent).
--- loesung
class K(Knoten):
    def bei_echo(self, nachricht):
        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})
--- erklaerung
Siehe [oben](#eigene-stelle).

## Eigene Stelle
```
"""


def build(tmp_path: Path, text: str, page: str = "kapitel/seite.md") -> BeautifulSoup:
    """Convert ``text`` as the page ``page`` of a docs folder that also holds OTHER_PAGES."""
    docs = tmp_path / "docs"
    for name, content in {**OTHER_PAGES, page: text}.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(content, encoding="utf-8")
    return BeautifulSoup(make_markdown(docs).convert(text), "html.parser")


def hrefs(soup: BeautifulSoup) -> list[str]:
    return [str(a["href"]) for a in soup.select(".lk-exercise a[href]")]


def test_quiz_links_are_written_as_mkdocs_writes_the_pages_own(tmp_path: Path) -> None:
    soup = build(tmp_path, QUIZ)
    assert hrefs(soup) == [
        "../#nachrichten",  # kapitel/index.md from kapitel/seite/
        "../../glossar/#idempotent",
        "#eigene-stelle",
        "./#eigene-stelle",
        "https://example.org/a.md#b",
        "mailto:autorin@example.org",
        "../../glossar/#idempotent",  # the right answer again, in the solution
    ]


def test_a_code_tasks_task_hint_and_explanation_links_are_converted(tmp_path: Path) -> None:
    soup = build(tmp_path, CODE_TASK)
    assert hrefs(soup) == ["../", "../../glossar/#idempotent", "../#nachrichten"]


def test_a_challenges_sections_links_are_converted(tmp_path: Path) -> None:
    soup = build(tmp_path, CHALLENGE.replace("## Eigene Stelle\n```", "```\n\n## Eigene Stelle"))
    assert hrefs(soup) == ["../#nachrichten", "../../glossar/#idempotent", "#eigene-stelle"]
    # What the front end gets carries no section text, so no link to convert.
    assert "glossar" not in str(soup.select_one(".lk-exercise__data"))


def test_without_directory_urls_the_links_name_the_html_files(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    build(tmp_path, QUIZ)
    converter = make_markdown(docs)
    converter.postprocessors["lessonkit_blocks"].use_directory_urls = False
    soup = BeautifulSoup(converter.convert(QUIZ), "html.parser")
    assert hrefs(soup)[:2] == ["index.html#nachrichten", "../glossar.html#idempotent"]


class ZensicalContext(Preprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """Stands for the preprocessor Zensical registers in the Markdown of each page."""

    def run(self, lines: list[str]) -> list[str]:
        return lines


def under_zensical(docs: Path) -> Markdown:
    converter = make_markdown(docs)
    converter.preprocessors.register(ZensicalContext(converter), "rendering_context", 0)
    return converter


def test_under_zensical_links_are_checked_and_left_as_written(tmp_path: Path) -> None:
    # Zensical rewrites every relative link of the finished page itself, relative to the
    # page's Markdown file: converted links would be converted twice.
    build(tmp_path, QUIZ)
    soup = BeautifulSoup(under_zensical(tmp_path / "docs").convert(QUIZ), "html.parser")
    assert hrefs(soup)[:4] == [
        "index.md#nachrichten",
        "../glossar.md#idempotent",
        "#eigene-stelle",
        "seite.md#eigene-stelle",
    ]
    wrong = QUIZ.replace("index.md#", "indx.md#")
    (tmp_path / "docs" / "kapitel" / "seite.md").write_text(wrong, encoding="utf-8")
    with pytest.raises(LessonError) as caught:
        under_zensical(tmp_path / "docs").convert(wrong)
    assert "„kapitel/indx.md“, und diese Datei gibt es nicht" in caught.value.message


@pytest.mark.parametrize(
    ("wrong", "says"),
    [
        ("indx.md#nachrichten", "„kapitel/indx.md“, und diese Datei gibt es nicht"),
        ("../glosar.md#idempotent", "Meintest du „glossar.md“?"),
        ("../../draussen.md", "führt aus dem Ordner der Seiten hinaus"),
        ("/glossar.md", "beginnt mit „/“"),
        ("../kapitel/", "zeigt auf den Ordner „kapitel/“ der Seiten, nicht auf eine Seite"),
        ("../", "zeigt auf den obersten Ordner der Seiten, nicht auf eine Seite"),
    ],
)
def test_a_link_to_a_missing_page_names_page_line_exercise_and_link(
    tmp_path: Path, wrong: str, says: str
) -> None:
    text = QUIZ.replace("../glossar.md#idempotent", wrong)
    with pytest.raises(LessonError) as caught:
        build(tmp_path, text)
    error = caught.value
    assert error.path.endswith("kapitel/seite.md")
    assert error.line == 9  # the line of the link, inside the fence
    assert f"Übung 1 (id „frage-1“): Der Link „{wrong}“ " in error.message
    assert says in error.message


def test_a_link_to_a_missing_anchor_on_the_same_page_stops_the_build(tmp_path: Path) -> None:
    with pytest.raises(LessonError) as caught:
        build(tmp_path, QUIZ.replace("(#eigene-stelle)", "(#eigene-stele)"))
    error = caught.value
    assert error.line == 11
    assert "Der Link „#eigene-stele“ zeigt auf eine Stelle, die es auf der Seite" in error.message
    assert "„kapitel/seite.md“ nicht gibt" in error.message
    assert "Meintest du „#eigene-stelle“?" in error.message


def test_anchors_on_other_pages_are_checked_against_their_finished_html(tmp_path: Path) -> None:
    build(tmp_path, QUIZ)
    pages = {
        "kapitel/seite.md": "<h2 id='eigene-stelle'>x</h2>",
        "kapitel/index.md": "<h2 id='nachrichten'>Nachrichten</h2>",
        "glossar.md": "<h3 id='idempotent'>Idempotent</h3>",
    }
    links.check_anchors(pages)  # all there
    links.check_anchors({"kapitel/seite.md": ""})  # targets not converted: nothing to say
    pages["glossar.md"] = "<h3 id='idempotenz'>Idempotenz</h3><a name='alt'></a>"
    with pytest.raises(LessonError) as caught:
        links.check_anchors(pages)
    error = caught.value
    assert error.line == 9
    assert "Übung 1 (id „frage-1“): Der Link „../glossar.md#idempotent“" in error.message
    assert "auf der Seite „glossar.md“ nicht gibt: kein Element mit der id „idempotent“" in (
        error.message
    )
    assert "Meintest du „#idempotenz“?" in error.message
    assert links.anchors_in(pages["glossar.md"]) == {"idempotenz", "alt"}


def test_a_page_converted_again_forgets_its_earlier_links(tmp_path: Path) -> None:
    build(tmp_path, QUIZ)
    build(tmp_path, textwrap.dedent("# Seite\n\nKeine Übung mehr.\n"))
    links.check_anchors({"kapitel/seite.md": "", "glossar.md": "", "kapitel/index.md": ""})
