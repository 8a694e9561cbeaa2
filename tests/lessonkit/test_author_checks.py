"""Author mistakes that used to reach the reader, each refused by the build at its own line
with a German message (issue 37; ``lessonkit.authoring.author_checks``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.authoring import author_checks
from tests.lessonkit.seiten import convert, fails_at

TASK = """\
# T

```aufgabe id="a"
--- start
def f():
    pass
--- pruefung
@pruefe("f liefert 1")
def _():
{check}
--- loesung
def f():
    return 1
```
"""


@pytest.mark.parametrize(
    ("header", "meant"),
    [
        ("pycel", "pycell"),
        ("ts-runn", "ts-run"),
        ('pycel session="x"', "pycell"),
        ("quitz", "quiz"),
    ],
)
def test_a_misspelt_fence_is_named_at_its_own_line(tmp_path: Path, header: str, meant: str) -> None:
    text = f"# T\n\nText.\n\n```{header}\nprint(1)\n```\n\n```pycell\nprint(2)\n```\n"
    fails_at(tmp_path, text, 5, f"Meintest du ```{meant}?")


def test_languages_that_are_not_ours_stay_code_blocks(tmp_path: Path) -> None:
    text = "# T\n\n```python\nprint(1)\n```\n\n```text\nx\n```\n\n```bash\nls\n```\n"
    assert len(convert(tmp_path, text).select("pre")) == 3


def test_a_backtick_fence_inside_an_exercise_says_to_use_tildes(tmp_path: Path) -> None:
    text = (
        '# T\n\n```aufgabe id="a"\n--- aufgabe\nSo sieht es aus:\n```python\nf()\n```\n'
        "--- start\ndef f():\n    pass\n```\n"
    )
    fails_at(tmp_path, text, 6, "Schreibe den inneren Codeblock mit ~~~")


def test_a_tilde_fence_inside_an_exercise_is_fine(tmp_path: Path) -> None:
    text = (
        '# T\n\n````aufgabe id="a"\n--- aufgabe\nSo:\n```python\nf()\n```\n--- start\n'
        'def f():\n    pass\n--- pruefung\n@pruefe("f liefert 1")\ndef _():\n'
        "    assert f() == 1\n--- loesung\ndef f():\n    return 1\n````\n"
    )
    assert convert(tmp_path, text).select_one("[data-lk-exercise]") is not None


@pytest.mark.parametrize(
    ("code", "module"),
    [
        ("import requests", "requests"),
        ("from numpy import array", "numpy"),
        ("import lessonkit.fences.exercises", "lessonkit.fences.exercises"),
    ],
)
def test_an_import_the_browser_lacks_is_refused_at_its_line(
    tmp_path: Path, code: str, module: str
) -> None:
    text = f"# T\n\n```pycell\nx = 1\n{code}\n```\n"
    fails_at(tmp_path, text, 5, f"Das Python der Seite (Pyodide) hat „{module}“ nicht.")


def test_the_standard_library_and_pysim_are_there() -> None:
    code = "import math, json, sqlite3, asyncio, random\nfrom pysim.log import regeln\n"
    assert author_checks.foreign_imports(code) == []
    assert author_checks.foreign_imports("import lessonkit.runtime.checks") == []


def test_an_import_in_an_exercise_section_is_refused_at_its_line(tmp_path: Path) -> None:
    text = TASK.format(check="    assert f() == 1").replace(
        "--- loesung\ndef f():", "--- loesung\nimport requests\ndef f():"
    )
    fails_at(tmp_path, text, 12, "`--- loesung`")


@pytest.mark.parametrize("check", ["    assert True", "    pass", "    assert 1 == 1"])
def test_a_check_that_cannot_fail_is_named_at_its_line(tmp_path: Path, check: str) -> None:
    fails_at(
        tmp_path, TASK.format(check=check), 8, "Die Prüfung „f liefert 1“ kann nicht scheitern"
    )


def test_a_prose_check_that_cannot_fail_is_refused(tmp_path: Path) -> None:
    text = "# T\n\n```pycell\nx = 1\n```\n\n```pycell pruefung\nassert True\n```\n"
    fails_at(tmp_path, text, 7, "kann nicht scheitern")


@pytest.mark.parametrize(
    "code", ["assert f() == 1", "assert x", "f()", "raise ValueError", "d['k']", "assert a == b"]
)
def test_a_check_that_can_fail_passes(code: str) -> None:
    import ast

    assert not author_checks.cannot_fail(ast.parse(code).body)


def test_os_exit_in_a_cell_ends_the_cell_not_the_build(tmp_path: Path) -> None:
    text = "# T\n\n```pycell\nimport os\nos._exit(3)\n```\n"
    error = fails_at(tmp_path, text, 5, "os._exit() beendet hier nicht Python")
    assert "OsExitIgnored" in error.message


def test_os_exit_is_itself_again_after_the_cell() -> None:
    import os

    from lessonkit.build.execute import run_sync
    from lessonkit.runtime.kernel import Kernel

    before = os._exit
    result = run_sync(lambda: Kernel().run("s", "import os\nos._exit(0)"))
    assert result.error_type == "OsExitIgnored"
    assert os._exit is before


def test_a_link_to_a_missing_glossary_entry_is_named_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "glossar.md").write_text("# Glossar\n\n### Offset {#offset}\n")
    text = "# T\n\nEin [Offset](glossar.md#offset) und ein\n[Lag](glossar.md#offsett).\n"
    fails_at(tmp_path, text, 4, "glossar.md#offsett gibt es nicht. Meintest du „offset“?")


def test_posix_exit_is_the_same_and_ends_only_the_cell_too() -> None:
    from lessonkit.build.execute import run_sync
    from lessonkit.runtime.kernel import Kernel

    result = run_sync(lambda: Kernel().run("s", "import posix\nposix._exit(0)"))
    assert result.error_type == "OsExitIgnored"
