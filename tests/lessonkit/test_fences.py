"""The pycell fence: options, page order, outputs in the HTML, errors with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pymdownx.superfences import SuperFencesException

from lessonkit.build.errors import LessonError
from tests.lessonkit.seiten import convert, make_markdown


def outputs(soup: BeautifulSoup) -> list[str]:
    return [cell.select_one("output").get_text() for cell in soup.select("[data-lk-cell]")]


def test_cell_shows_code_and_real_output(tmp_path: Path) -> None:
    soup = convert(tmp_path, '```pycell\nprint("hallo")\n6 * 7\n```\n')
    cell = soup.select_one("[data-lk-cell]")
    assert cell.select_one(".lk-cell__code").get_text().strip() == 'print("hallo")\n6 * 7'
    assert cell.select_one(".lk-output__text").get_text() == "hallo\n"
    assert cell.select_one(".lk-output__value").get_text() == "42"
    # The status announces a run, not the output (announced twice before, issue 17).
    assert cell.select_one("output")["aria-live"] == "off"


def test_cells_run_in_page_order_even_when_nested(tmp_path: Path) -> None:
    # superfences formats the fence inside the tab later than top-level ones;
    # the cells must still run top to bottom.
    soup = convert(
        tmp_path,
        """\
        ```pycell
        spur = ["a"]
        ```

        === "Tab"

            ```pycell
            spur.append("b")
            print(spur)
            ```

        ```pycell
        spur.append("c")
        print(spur)
        ```
        """,
    )
    assert outputs(soup) == ["", "['a', 'b']\n", "['a', 'b', 'c']\n"]
    labels = [
        cell.select_one(".lk-cell__label").get_text() for cell in soup.select("[data-lk-cell]")
    ]
    assert labels == ["Zelle 1", "Zelle 2", "Zelle 3"]


@pytest.mark.parametrize(
    ("header", "expected"),
    [("pycell", "1\n"), ('pycell session="eigen"', "NameError"), ("pycell hidden", "1\n")],
)
def test_sessions_and_hidden_cells(tmp_path: Path, header: str, expected: str) -> None:
    raises = ' raises="NameError"' if expected == "NameError" else ""
    soup = convert(
        tmp_path, f"```pycell hidden\nx = 1\n```\n\n```{header}{raises}\nprint(x)\n```\n"
    )
    cells = soup.select("[data-lk-cell]")
    assert cells[0].has_attr("hidden")
    assert expected in cells[1].select_one("output").get_text()


def cell_data(cell: object) -> dict[str, object]:
    import json

    return json.loads(cell.select_one("[data-lk-json]")["data-lk-json"])  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("header", "code", "label"),
    [
        ("pycell pruefung", "y = x + 1\nassert y == 2", "Prüfung"),
        ("pycell hidden", "assert x == 1\nassert x > 0", "Prüfung"),
        ("pycell hidden", "y = x\nassert y == 1", "Vorbereitung"),
        ("pycell hidden", "assert (y := x) == 1", "Vorbereitung"),
        ("pycell", "assert x == 1", "Zelle 1"),
    ],
)
def test_prose_checks_are_told_apart_from_setup(
    tmp_path: Path, header: str, code: str, label: str
) -> None:
    soup = convert(tmp_path, f"```pycell hidden\nx = 1\n```\n\n```{header}\n{code}\n```\n")
    cell = soup.select("[data-lk-cell]")[1]
    data = cell_data(cell)
    # A prose check, and only a check, is labelled „Prüfung“.
    assert (data["check"], data["label"]) == (label == "Prüfung", label)
    assert cell.has_attr("hidden") == (header != "pycell")


def test_a_failing_check_fails_the_build(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match=r"seite\.md:6: Prüfung .* AssertionError"):
        convert(tmp_path, "```pycell\nx = 1\n```\n\n```pycell pruefung\nassert x == 2\n```\n")


def test_a_check_may_not_prepare_what_a_later_cell_reads(tmp_path: Path) -> None:
    text = (
        "```pycell\nx = 1\n```\n\n```pycell pruefung\ny = x * 2\nassert y == 2\n```\n\n"
        "```pycell\nprint(y)\n```\n"
    )
    with pytest.raises(LessonError, match=r"seite\.md:5: .*„y“ an, und Zelle 2 \(Zeile 10\)"):
        convert(tmp_path, text)


def test_a_later_cell_may_bind_the_checks_names_itself(tmp_path: Path) -> None:
    text = (
        "```pycell pruefung\ny = 2\nassert y == 2\n```\n\n"
        "```pycell\ny = 3\nprint(y)\n```\n\n"
        '```pycell session="anders"\ny = 4\n```\n'
    )
    assert outputs(convert(tmp_path, text))[1] == "3\n"


def test_declared_exception_is_shown(tmp_path: Path) -> None:
    soup = convert(tmp_path, '```pycell raises="KeyError"\n{}["fehlt"]\n```\n')
    assert "KeyError: 'fehlt'" in soup.select_one(".lk-output__error").get_text()


def test_fence_examples_inside_code_blocks_stay_untouched(tmp_path: Path) -> None:
    soup = convert(tmp_path, "````markdown\n```pycell\nprint(1)\n```\n````\n")
    assert soup.select("[data-lk-cell]") == []
    assert "lkline" not in soup.get_text()


def test_unexpected_exception_names_file_and_line(tmp_path: Path) -> None:
    text = "# Titel\n\nText.\n\n```pycell\nx = 1\nx / 0\n```\n"
    with pytest.raises(LessonError) as info:
        convert(tmp_path, text, name="lektion.md")
    message = str(info.value)
    # the failing line itself, and the block it is in
    assert "lektion.md:7: Zelle 1 (Sitzung „main“, Block ab Zeile 5)" in message
    assert "ZeroDivisionError" in message
    assert 'raises="ZeroDivisionError"' in message


def test_declared_exception_that_does_not_come_fails(tmp_path: Path) -> None:
    with pytest.raises(
        LessonError,
        match=r"seite\.md:3: Zelle 1 .* soll ValueError werfen, lief aber ohne Fehler durch",
    ):
        convert(tmp_path, "Text\n\n```pycell raises=\"ValueError\"\nprint('ok')\n```\n")


def test_wrong_exception_fails(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match="soll ValueError werfen, warf aber KeyError"):
        convert(tmp_path, '```pycell raises="ValueError"\n{}["x"]\n```\n')


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('pycell sesion="x"', "Unbekannte Option „sesion“"),
        ('pycell session="zwei wörter"', "kein gültiger Name"),
        ('pycell raises="Value Error!"', "kein Name einer Ausnahme"),
        ('pycell hidden="vielleicht"', "ist ein Schalter"),
        ('pycell pruefung="vielleicht"', "ist ein Schalter"),
        ('pycell pruefung raises="ValueError"', "erwartet keine Ausnahme"),
    ],
)
def test_bad_options_name_file_and_line(tmp_path: Path, header: str, message: str) -> None:
    with pytest.raises(SuperFencesException) as info:
        convert(tmp_path, f"# T\n\n```{header}\nprint(1)\n```\n")
    assert "seite.md:3:" in str(info.value)
    assert message in str(info.value)


def test_front_matter_keeps_line_numbers_right(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "mit-kopf.md").write_text(
        "---\ntitle: X\n---\n\n```pycell\n1/0\n```\n", encoding="utf-8"
    )
    # MkDocs strips the front matter before rendering: convert only the rest.
    with pytest.raises(LessonError, match=r"mit-kopf\.md:6: "):
        make_markdown(docs).convert("```pycell\n1/0\n```\n")


def test_a_page_runs_once_however_many_headings_it_has(tmp_path: Path) -> None:
    # toc runs every postprocessor on each heading; the cells must still run once.
    log = tmp_path / "runs.txt"
    headings = "".join(f"## Abschnitt {i}\n\nText.\n\n" for i in range(5))
    convert(tmp_path, f"# Titel\n\n{headings}```pycell\nopen({str(log)!r}, 'a').write('x')\n```\n")
    assert log.read_text() == "x"
