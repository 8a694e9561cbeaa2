"""The authoring guide's reference table agrees with the fences lessonkit really has."""

from __future__ import annotations

import re

import pytest

from lessonkit.fences import FENCES
from lessonkit.fences.exercises import SECTIONS
from lessonkit.runtime.consoles import ARTEN
from tests.conftest import ROOT

GUIDE = ROOT / "docs" / "autoren.md"


def reference_rows() -> dict[str, tuple[str, str]]:
    """``| `fence` | options | sections |`` rows of "Nachschlagen: alle Blöcke"."""
    text = GUIDE.read_text(encoding="utf-8")
    part = text.split("## Nachschlagen: alle Blöcke", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in part.splitlines():
        match = re.match(r"^\| `([a-z-]+)` \| (.*?) \| (.*?) \|$", line)
        if match:
            rows[match[1]] = (match[2], match[3])
    return rows


def test_every_fence_has_a_row() -> None:
    assert set(FENCES) <= set(reference_rows())


@pytest.mark.parametrize("fence", sorted(FENCES))
def test_the_row_names_exactly_the_fences_options(fence: str) -> None:
    options, _ = reference_rows()[fence]
    documented = set(re.findall(r"`([a-z_]+)(?:=\"…\")?`", options))
    documented -= {"main", *ARTEN}  # defaults and console kinds, not options
    assert documented == set(FENCES[fence].options), fence


@pytest.mark.parametrize("fence", sorted(SECTIONS))
def test_the_row_names_exactly_the_exercises_sections(fence: str) -> None:
    _, sections = reference_rows()[fence]
    documented = set(re.findall(r"`--- ([a-zäöü]+(?:-ts)?)`", sections))
    required = set(re.findall(r"\*\*`--- ([a-zäöü]+)`\*\*", sections))
    expected = set(SECTIONS[fence]) | ({"hinweis"} if fence != "quiz" else set())
    assert documented == expected, fence
    assert required == {name for name, needed in SECTIONS[fence].items() if needed}, fence


def test_the_guide_names_no_missing_file() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for path in re.findall(r"`((?:docs|lessonkit|tests|scripts|pysim)/[\w./-]+)`", text):
        if "<" not in path:
            assert (ROOT / path).exists(), path
    assert "LESSONS.md" not in text


def _console_section() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    return text.split("## Konsolen:", 1)[1].split("\n## ", 1)[0]


def test_the_console_section_names_every_console_kind() -> None:
    heading = _console_section().splitlines()[0]
    assert re.findall(r"`([a-z]+-konsole)`", heading) == [art.block for art in ARTEN.values()]
    task = " ".join(
        GUIDE.read_text(encoding="utf-8").split("### Konsolen-Aufgabe", 1)[1][:600].split()
    )
    for art in ARTEN.values():  # the name each kind's model has in a ``pruefung``
        assert f'`{art.modell}` (bei `kind="{art.name}"`' in task, art.name


def test_the_console_option_table_is_the_descriptors() -> None:
    """Each option of a console kind has the row its descriptor gives, and no row more."""
    rows = [line for line in _console_section().splitlines() if line.startswith("| `")]
    expected = [
        f'| `{option.name}="…"` | `{art.block}`, `konsolen-aufgabe kind="{art.name}"` | '
        f"{option.standard} | {option.beschreibung} |"
        for art in ARTEN.values()
        for option in art.optionen
    ]
    assert rows[2:] == expected  # after session and hidden, which every console has
    assert [row.split("`")[1] for row in rows[:2]] == ['session="name"', "hidden"]
