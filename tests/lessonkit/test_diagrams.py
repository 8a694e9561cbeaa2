"""The mermaid fence: every diagram names and describes itself, or the build stops."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.build.errors import LessonError
from tests.lessonkit.seiten import convert


def test_a_diagram_is_a_named_described_figure_around_materials_markup(tmp_path: Path) -> None:
    soup = convert(
        tmp_path,
        '```mermaid titel="Ablauf" beschreibung="A schickt „x“ an B."\n'
        "sequenceDiagram\n    A->>B: x\n```\n",
    )
    figure = soup.select_one("figure.lk-diagram")
    assert figure["aria-label"] == "Ablauf"
    text = soup.select_one(f"#{figure['aria-describedby']}")
    assert text.get_text() == "A schickt „x“ an B."
    assert figure.select_one("pre.mermaid > code").get_text().startswith("sequenceDiagram")


@pytest.mark.parametrize(
    ("header", "missing"),
    [("```mermaid", "titel"), ('```mermaid titel="Ablauf"', "beschreibung")],
)
def test_a_diagram_without_words_stops_the_build(tmp_path: Path, header: str, missing: str) -> None:
    with pytest.raises(LessonError) as error:
        convert(tmp_path, f"Text\n\n{header}\nflowchart LR\n    A --> B\n```\n")
    assert error.value.line == 3
    assert f"`{missing}=" in error.value.message
