"""What the course's pages say about themselves agrees: the start page's table of
lessons and each lesson's header line, the sections every lesson ends with, and links
into the glossary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = ROOT / "docs"
#: A row of the start page's table: | [Title](path.md) | Track · Thema | ca. N Min. |
ROW = re.compile(
    r"^\| \[(?P<title>[^\]]+)\]\((?P<path>[^)]+\.md)\) \| (?P<track>[^|]+) \| (?P<dauer>[^|]+) \|$"
)
#: A lesson's header line: Track <Track> · <Thema> · ca. N Min.[ · Teil x von y]
HEADER = re.compile(
    r"^Track (?P<track>.+?) · (?P<thema>.+?) · (?P<dauer>ca\. \d+ Min\.)(?: · .+)?$"
)
LESSONS = sorted((DOCS / "lektionen").glob("*.md"))


def start_page_rows() -> dict[str, dict[str, str]]:
    rows = {}
    for line in (DOCS / "index.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line.strip())
        if match:
            rows[match["path"]] = {k: v.strip() for k, v in match.groupdict().items()}
    return rows


def header(page: Path) -> re.Match[str]:
    lines = page.read_text(encoding="utf-8").splitlines()
    line = next(text for text in lines[1:6] if text.startswith("Track "))
    match = HEADER.match(line)
    assert match, f"{page.name}: Kopfzeile „{line}“ hat nicht die Form „Track … · … · ca. N Min.“"
    return match


def test_start_page_lists_every_lesson() -> None:
    listed = set(start_page_rows())
    pages = {f"lektionen/{p.name}" for p in LESSONS} | {"erste-schritte.md"}
    assert listed == pages


@pytest.mark.parametrize("path", [*(f"lektionen/{p.name}" for p in LESSONS), "erste-schritte.md"])
def test_start_page_and_lesson_header_agree(path: str) -> None:
    row = start_page_rows()[path]
    match = header(DOCS / path)
    assert row["track"] == f"{match['track']} · {match['thema']}", path
    assert row["dauer"] == match["dauer"], path


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.stem)
def test_lesson_ends_with_its_sources(page: Path) -> None:
    headings = re.findall(r"^## (.+)$", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    for needed in ("Merksatz", "Prüfstein", "Quellen und weiterlesen", "Über die Quellen hinaus"):
        assert needed in headings, f"{page.name}: Abschnitt „## {needed}“ fehlt"


def glossary_anchors() -> set[str]:
    text = (DOCS / "glossar.md").read_text(encoding="utf-8")
    return set(re.findall(r"\{#([a-z0-9-]+)\}", text))


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: p.stem)
def test_links_into_the_glossary_name_an_existing_entry(page: Path) -> None:
    anchors = glossary_anchors()
    text = page.read_text(encoding="utf-8")
    for anchor in re.findall(r"glossar\.md#([A-Za-z0-9_-]+)", text):
        assert anchor in anchors, f"{page.name}: glossar.md#{anchor} gibt es nicht"
