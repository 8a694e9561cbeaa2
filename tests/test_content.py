"""What the course's pages say about themselves agrees: the start page's tables of
lessons and challenges and each page's header line, the sections every lesson and every
challenge ends with, the parts of a challenge, links into the glossary, and the words the
course decided on (docs/glossar.md, „Ein Wort je Sache“)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from lessonkit.authoring import page_rules
from tests.conftest import ROOT

DOCS = ROOT / "docs"
LESSONS = sorted((DOCS / "lektionen").glob("*.md"))
#: The challenges (``herausforderung`` fences) and their overview page, ``index.md``.
CHALLENGES = sorted((DOCS / "herausforderungen").glob("*.md"))
#: Every page the start page lists, relative to docs/.
LISTED = [
    *(f"lektionen/{p.name}" for p in LESSONS),
    *(f"herausforderungen/{p.name}" for p in CHALLENGES),
    "erste-schritte.md",
]


def findings(rule: Callable[[Path], list[page_rules.Finding]], page: Path) -> str:
    """What ``rule`` finds on ``page``, one German line each (empty: all is well)."""
    return "\n".join(str(finding) for finding in rule(page))


def test_start_page_lists_every_lesson() -> None:
    assert set(page_rules.start_rows()) == set(LISTED), (
        "Die Tabelle der Startseite nennt andere Seiten als docs/lektionen, "
        "docs/herausforderungen und erste-schritte.md."
    )


@pytest.mark.parametrize("path", LISTED)
def test_start_page_and_lesson_header_agree(path: str) -> None:
    assert not findings(page_rules.check_start_page, DOCS / path), findings(
        page_rules.check_start_page, DOCS / path
    )


@pytest.mark.parametrize("page", LESSONS + CHALLENGES, ids=lambda p: p.stem)
def test_lesson_ends_with_its_sources(page: Path) -> None:
    found = findings(page_rules.check_sections, page)
    assert not found, found


@pytest.mark.parametrize("page", CHALLENGES, ids=lambda p: p.stem)
def test_a_challenge_page_has_its_parts(page: Path) -> None:
    # Shorter than a lesson: what it is about, the challenges, the sources and beyond.
    text = page.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    for needed in ("Worum es geht", "Quellen und weiterlesen", "Über die Quellen hinaus"):
        assert needed in headings, f"{page.name}: Abschnitt „## {needed}“ fehlt"
    if page.name == "index.md" or re.search(r"^```werkbank\b", text, re.M):
        return  # the overview, and the workbench: no challenge of their own
    blocks = re.findall(r"^```herausforderung [^\n]*\n(.*?)^```$", text, re.M | re.S)
    assert blocks, f"{page.name}: keine Herausforderung (```herausforderung)"
    for block in blocks:
        assert block.count("--- hinweis") >= 2, f"{page.name}: weniger als zwei Hinweise"
        assert "--- erklaerung" in block, f"{page.name}: eine Lösung ohne Erklärung"
    assert re.search(r"^\s*```ts-run", text, re.M), f"{page.name}: kein ```ts-run"
    assert "raumzeit(" in text, f"{page.name}: kein Lauf mit Bild (raumzeit)"


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: p.stem)
def test_links_into_the_glossary_name_an_existing_entry(page: Path) -> None:
    found = findings(page_rules.check_glossary_links, page)
    assert not found, found


@pytest.mark.parametrize("page", LESSONS + CHALLENGES, ids=lambda p: p.stem)
def test_no_page_is_too_long_to_read_in_one_sitting(page: Path) -> None:
    found = findings(page_rules.check_length, page)
    assert not found, found


def test_a_challenges_typescript_twin_does_not_count_toward_the_length(tmp_path: Path) -> None:
    # A reader reads one language: the TypeScript sections, however long, are not counted;
    # the Python ones and the prose are.
    page = tmp_path / "herausforderungen" / "lang.md"
    page.parent.mkdir()
    prose = "Wort " * (page_rules.MAX_WORDS - 40)
    twin = "--- start-ts\n" + "ts " * 5_000 + "\n--- loesung-ts\n" + "ts " * 5_000 + "\n"
    block = f'```herausforderung id="x"\n--- start\npass\n{twin}```\n'
    page.write_text(prose + "\n" + block)
    assert findings(page_rules.check_length, page) == ""
    page.write_text(prose + "\n" + block.replace("--- start\npass", "--- start\n" + "py " * 100))
    assert findings(page_rules.check_length, page)


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: p.stem)
def test_the_code_a_reader_sees_fits_a_phone(page: Path) -> None:
    if page.name == "autoren.md":
        return  # the guide's examples show Markdown, not code a reader runs
    found = findings(page_rules.check_code_lines, page)
    assert not found, found


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_draws_a_diagram(page: Path) -> None:
    found = findings(page_rules.check_diagram, page)
    assert not found, found


TAB_DIAGRAM = """=== "Ablauf"

    ```mermaid titel="A" beschreibung="B"
    sequenceDiagram
        A->>B: hallo
    ```
"""
#: The guide's way of showing a diagram's Markdown: not a diagram a reader sees.
SHOWN_MARKDOWN = """````markdown
```mermaid titel="A" beschreibung="B"
sequenceDiagram
    A->>B: hallo
```
````
"""


@pytest.mark.parametrize(
    ("folder", "body", "found"),
    [
        ("lektionen", "Nur Text.\n", True),
        ("lektionen", TAB_DIAGRAM, False),
        ("lektionen", SHOWN_MARKDOWN, True),
        ("herausforderungen", "Nur Text.\n", False),
    ],
    ids=["lesson-without", "lesson-diagram-in-a-tab", "lesson-markdown-example", "challenge"],
)
def test_the_diagram_rule(tmp_path: Path, folder: str, body: str, found: bool) -> None:
    """A lesson without a diagram is reported, one with a diagram in a tab is not, a
    diagram shown as Markdown inside another block does not count, a challenge needs none."""
    page = tmp_path / folder / "neu.md"
    page.parent.mkdir()
    page.write_text("# Neu\n\n" + body, encoding="utf-8")
    messages = [f.message for f in page_rules.check_diagram(page)]
    assert bool(messages) is found, messages
    if found:
        assert "kein mermaid-Diagramm" in messages[0]


def test_the_rules_find_what_they_are_for(tmp_path: Path) -> None:
    """Each rule can fail: a page that breaks every one of them."""
    page = tmp_path / "lektionen" / "neu.md"
    page.parent.mkdir()
    page.write_text(
        "# Neu\nTrack X · ca. 5 Min.\n\nSiehe [Begriff](../glossar.md#gibtsnicht).\n\n"
        "```pycell\n" + "x = 1  # " + "a" * 60 + "\n```\n\nEine Replik antwortet.\n",
        encoding="utf-8",
    )
    messages = [f.message for f in page_rules.check(page)]
    assert any("hat nicht die Form" in m for m in messages)
    assert any("fehlt in `nav`" in m for m in messages)
    assert any("„## Merksatz“ fehlt" in m for m in messages)
    assert any("glossar.md#gibtsnicht gibt es nicht" in m for m in messages)
    assert any("Zeichen lang, höchstens 60" in m for m in messages)
    assert any("„Replik“ sagt der Kurs nicht mehr" in m for m in messages)


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: p.stem)
def test_a_page_uses_the_course_words(page: Path) -> None:
    found = findings(page_rules.check_words, page)
    assert not found, found


#: Prose with a retired word, and the word the rule must name (at the given line).
RETIRED = [
    ("Eine Replik antwortet sofort.", 1, "Replik"),
    ("Drei Repliken antworten.", 1, "Repliken"),
    ("Das Lesen trifft ein Read Replica.", 1, "ein Read Replica"),
    ("`query` ist eine Attrappe mit der Form des Clients.", 1, "Attrappe"),
    ("Ein pausierter Halter schreibt mit einem alten Token.", 1, "Halter"),
    ("Linearisierbar ist die strengste Zusage.", 1, "Zusage"),
    ("Vorher.\n\nNach einer\nTrennung wählt die Mehrheit.", 4, "Trennung"),
    ("Eine Netztrennung teilt den Cluster.", 1, "Netztrennung"),
    ("Der Prüfer liest nur die Geschichte des Laufs.", 1, "Geschichte"),
    ("Der Consumer bucht 30 € vom Konto ab.", 1, "bucht"),
    ("Die Zahlung wurde doppelt gebucht.", 1, "gebucht"),
    ("Das Geld ist abgebucht, die Mail fehlt.", 1, "abgebucht"),
    ("Der Sperrdienst vergibt die Lease.", 1, "Sperrdienst"),
    ("Nach der Wahl-Frist kandidiert n2.", 1, "Wahl-Frist"),
    ("Der Leader schickt Herzschläge.", 1, "Herzschläge"),
    ("Ein Grabstein bleibt im Set.", 1, "Grabstein"),
    (
        '```quiz id="q"\n--- frage\nWas tut eine Replik?\n--- richtig\nSie antwortet.\n```',
        3,
        "Replik",
    ),
    ('```aufgabe id="a"\n--- start\nx = 1\n--- hinweis\nDenk an die Zusage.\n```', 5, "Zusage"),
    (
        '```mermaid titel="Eine Trennung" beschreibung="Zwei Seiten."\nsequenceDiagram\n```',
        1,
        "Trennung",
    ),
    ("```mermaid\nsequenceDiagram\n    participant R as Replik 1\n```", 3, "Replik"),
]

#: Prose a retired word's rule must leave alone: code, other meanings, a word named in quotes.
INNOCENT = [
    "Ein Replikat antwortet; die Replikation läuft asynchron.",
    "Die `replik-konsole` zeigt es, [hier](../glossar.md#trennung).",
    "Schreib „Replik“ nicht mehr, sag „Replikat“.",
    "Eine Read Replica antwortet, der Read Replica fehlt nichts.",
    "```pycell\nprint(lease.halter, 'Halter', 'Replik')\n```",
    '```aufgabe id="a"\n--- start\n# Trennung, Geschichte\n--- hinweis\nDenk an das Netz.\n```',
    "Der Platzhalter steht grau im Feld einer Lease.",
    "Der Halter des Fahrrads ist locker.",
    "Die Trennung von Lesen und Schreiben ist CQRS.",
    "Der Abend aus der Geschichte: 70 Anfragen, 250 ms Timeout.",
    "Allgemeines Fachwissen: die Geschichte vom Knoten, der zu früh schrieb.",
    "Ein Reise-Portal bucht Flug, Hotel und Mietwagen für 900 €.",
    "Die Rechnungsstellung verbucht die Zahlung 3.",
    "Eine Zeile im Kassenbuch ist eine Buchung über 30 €.",
    "Das Lager bucht eine Jacke aus dem Bestand.",
]


@pytest.mark.parametrize(("prose", "line", "word"), RETIRED)
def test_a_retired_word_is_named_with_its_line(prose: str, line: int, word: str) -> None:
    assert [(n, w) for n, w, _ in page_rules.retired_words(prose)] == [(line, word)]


@pytest.mark.parametrize("prose", INNOCENT)
def test_code_other_meanings_and_quoted_names_are_no_finding(prose: str) -> None:
    assert page_rules.retired_words(prose) == []
