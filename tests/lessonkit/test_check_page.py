"""The one-page check (``./scripts/check-page``, issue 37): the build's mistakes, the page
rules and output that changes from run to run, in German with file:line."""

from __future__ import annotations

from pathlib import Path

from lessonkit.authoring import check_page

STEADY = "# Seite\n\n```pycell\nprint(sorted({'b', 'a'}))\n```\n"
#: A set of strings prints in the order of their hashes, which the hash seed changes.
UNSTEADY = (
    "# Seite\n\n```pycell\nprint(1)\n```\n\n```pycell\nprint({'a', 'b', 'c', 'd', 'e'})\n```\n"
)


def page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "seite.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_steady_page_is_in_order(tmp_path: Path) -> None:
    assert check_page.check(page(tmp_path, STEADY)) == []


def test_output_that_changes_between_runs_is_named_at_its_block(tmp_path: Path) -> None:
    found = check_page.check(page(tmp_path, UNSTEADY))
    assert [(f.line, f.message.split(" zeigt")[0]) for f in found] == [(7, "Zelle 2")]
    assert "sorted(...)" in found[0].message


def test_a_build_mistake_is_reported_with_its_line(tmp_path: Path) -> None:
    found = check_page.check(page(tmp_path, "# Seite\n\n```pycel\nprint(1)\n```\n"))
    assert [(f.line, "Meintest du ```pycell?" in f.message) for f in found] == [(3, True)]


def test_the_command_names_a_missing_file_and_exits_1(capsys: object) -> None:
    assert check_page.main(["docs/gibtsnicht.md"]) == 1
