"""What the course's pages say about themselves agrees: the start page's tables of
lessons and challenges and each page's header line, the sections every lesson and every
challenge ends with, the parts of a challenge, and links into the glossary."""

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
#: The challenges (``herausforderung`` fences) and their overview page, ``index.md``.
CHALLENGES = sorted((DOCS / "herausforderungen").glob("*.md"))
#: Every page the start page lists, relative to docs/.
LISTED = [
    *(f"lektionen/{p.name}" for p in LESSONS),
    *(f"herausforderungen/{p.name}" for p in CHALLENGES),
    "erste-schritte.md",
]


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
    assert set(start_page_rows()) == set(LISTED)


@pytest.mark.parametrize("path", LISTED)
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


@pytest.mark.parametrize("page", CHALLENGES, ids=lambda p: p.stem)
def test_a_challenge_page_has_its_parts(page: Path) -> None:
    # Shorter than a lesson: what it is about, the challenges, the sources and beyond.
    text = page.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    for needed in ("Worum es geht", "Quellen und weiterlesen", "Über die Quellen hinaus"):
        assert needed in headings, f"{page.name}: Abschnitt „## {needed}“ fehlt"
    if page.name == "index.md":
        return
    blocks = re.findall(r"^```herausforderung [^\n]*\n(.*?)^```$", text, re.M | re.S)
    assert blocks, f"{page.name}: keine Herausforderung (```herausforderung)"
    for block in blocks:
        assert block.count("--- hinweis") >= 2, f"{page.name}: weniger als zwei Hinweise"
        assert "--- erklaerung" in block, f"{page.name}: eine Lösung ohne Erklärung"
    assert re.search(r"^\s*```ts-run", text, re.M), f"{page.name}: kein ```ts-run"
    assert "raumzeit(" in text, f"{page.name}: kein Lauf mit Bild (raumzeit)"


def glossary_anchors() -> set[str]:
    text = (DOCS / "glossar.md").read_text(encoding="utf-8")
    return set(re.findall(r"\{#([a-z0-9-]+)\}", text))


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: p.stem)
def test_links_into_the_glossary_name_an_existing_entry(page: Path) -> None:
    anchors = glossary_anchors()
    text = page.read_text(encoding="utf-8")
    for anchor in re.findall(r"glossar\.md#([A-Za-z0-9_-]+)", text):
        assert anchor in anchors, f"{page.name}: glossar.md#{anchor} gibt es nicht"


#: A page a reader can finish in one sitting (issue 27: "no lesson page longer than about
#: 7,000 words of Markdown"; counted like ``wc -w``, code and blocks included).
MAX_WORDS = 7_500


@pytest.mark.parametrize("page", LESSONS + CHALLENGES, ids=lambda p: p.stem)
def test_no_page_is_too_long_to_read_in_one_sitting(page: Path) -> None:
    words = len(page.read_text(encoding="utf-8").split())
    assert words <= MAX_WORDS, (
        f"{page.name} hat {words} Wörter, höchstens {MAX_WORDS}: kürzen oder teilen "
        "(docs/autoren.md, „Seite geteilt oder Abschnitt verschoben“)."
    )
