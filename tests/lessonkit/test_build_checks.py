"""The build catches an author's mistakes, each with file:line and what to do (issue 18).

Every test here fails without the check it names: a page with the mistake builds
green, hangs, or fails with an internal traceback instead.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from lessonkit.build import timelimit, typescript
from tests.conftest import ROOT
from tests.lessonkit.seiten import build_error, convert, fails_at


@pytest.fixture
def node_types() -> None:
    """The ts-run checks need typescript and @types/node (``./scripts/setup`` installs both,
    from package.json): without them these tests fail and say so, they never skip."""
    missing = [
        str(path.relative_to(ROOT))
        for path in (typescript.NODE_TYPES, typescript.TSC)
        if not path.exists()
    ]
    if missing:
        pytest.fail(f"{', '.join(missing)} fehlt: ./scripts/setup ausführen", pytrace=False)


needs_node_types = pytest.mark.usefixtures("node_types")


class _AnyTagLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without resolving its tags (!ENV, !!python/name)."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def site_config() -> dict[str, Any]:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), _AnyTagLoader)


# --- 1. ts-run runs to completion, output under its own block ------------------------------


@needs_node_types
def test_a_late_timer_prints_under_its_own_block(tmp_path: Path) -> None:
    soup = convert(
        tmp_path,
        """\
        ```ts-run
        setTimeout(() => console.log("spät"), 300);
        ```

        ```ts-run
        console.log("zwei");
        ```
        """,
    )
    assert [o.get_text() for o in soup.select(".lk-stdout")] == ["spät\n", "zwei\n"]


@needs_node_types
def test_an_async_rejection_fails_like_a_throw_with_its_line(tmp_path: Path) -> None:
    error = build_error(
        tmp_path,
        """\
        Text.

        ```ts-run
        const f = async () => {
          throw new Error("weg");
        };
        f();
        ```
        """,
    )
    assert error.line == 5
    assert error.message.endswith("seite.md:5: Der TypeScript-Block wirft in Node.js: Error: weg")


@needs_node_types
@pytest.mark.parametrize(
    ("code", "says"),
    [
        (
            "setInterval(() => {}, 10);",
            ["läuft länger als 1 s: Node.js wartet", "`setInterval` ohne `clearInterval`"],
        ),
        ('setTimeout(() => console.log("spät"), 5000);', ["ein Timer, der zu spät feuert"]),
    ],
    ids=["interval", "late-timer"],
)
def test_a_snippet_still_waiting_at_the_time_limit_is_told_what_it_waits_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str, says: list[str]
) -> None:
    monkeypatch.setattr(typescript, "TIME_LIMIT", 1)
    error = fails_at(tmp_path, f"```ts-run\n{code}\n```\n", 1, says[0])
    assert all(part in error.message for part in says), error.message
    assert "Endlosschleife" not in error.message  # a late timer is no endless loop


# --- 2. TypeScript types are checked --------------------------------------------------------


@needs_node_types
def test_a_type_error_fails_with_the_snippets_line(tmp_path: Path) -> None:
    page = '```ts-run\nconsole.log("ok");\nconst n: number = "eins";\n```\n'
    fails_at(tmp_path, page, 3, "Typfehler (tsc --strict): TS2322")


@needs_node_types
def test_node_apis_type_check(tmp_path: Path) -> None:
    soup = convert(
        tmp_path,
        """\
        ```ts-run
        import { EventEmitter } from "node:events";
        const bus = new EventEmitter();
        bus.on("x", (n: number) => console.log(n));
        process.nextTick(() => bus.emit("x", 1));
        await new Promise((ok) => setTimeout(ok, 1));
        ```
        """,
    )
    assert soup.select_one(".lk-stdout").get_text() == "1\n"


# --- 3. A time limit for every block --------------------------------------------------------


@pytest.mark.parametrize(
    "page",
    [
        "```pycell\nwhile True:\n    pass\n```\n",
        "```pycell\nimport asyncio\nawait asyncio.Event().wait()\n```\n",
        """\
        ```aufgabe id="ewig"
        --- start
        def f():
            ...
        --- pruefung
        @pruefe("f")
        def _():
            while True:
                pass
        --- loesung
        def f():
            return 1
        ```
        """,
        """\
        ```vorhersage id="ewig"
        --- frage
        Was kommt?
        --- code
        while True:
            pass
        1
        --- antwort
        1
        ```
        """,
    ],
    ids=["cell-loop", "cell-await", "exercise-check", "prediction"],
)
def test_a_block_that_never_ends_fails_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: str
) -> None:
    monkeypatch.setattr(timelimit, "TIME_LIMIT", 0.5)
    if "Event().wait()" in page:  # waits without computing: the clock stops it
        fails_at(tmp_path, page, 1, "läuft länger als 5 s und wartet dabei")
    else:
        fails_at(tmp_path, page, 1, "läuft länger als 0.5 s Rechenzeit — Endlosschleife?")


def test_the_build_goes_on_after_a_block_within_its_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timelimit, "TIME_LIMIT", 2)
    soup = convert(tmp_path, "```pycell\nimport asyncio\nawait asyncio.sleep(0.1)\n1\n```\n")
    assert soup.select_one(".lk-output__value").get_text() == "1"


# --- 4. Unrecognised fences -----------------------------------------------------------------


def test_an_unindented_line_in_a_tab_fails_the_build(tmp_path: Path) -> None:
    error = build_error(
        tmp_path,
        """\
        === "Python"

            ```pycell
            x = 1
        print(x)
            ```
        """,
    )
    assert error.line == 3
    assert "alle Zeilen im Tab mit 4 Leerzeichen einrücken" in error.message.replace("Alle", "alle")


# --- 5. Invalid mermaid ---------------------------------------------------------------------


def test_an_invalid_diagram_fails_with_its_line(tmp_path: Path) -> None:
    fails_at(
        tmp_path,
        """\
        Text.

        === "Ablauf"

            ```mermaid
            sequenceDiagram
                A->>B: hallo
                B-->>
            ```
        """,
        8,
        "mermaid-Diagramm ist ungültig",
    )


def test_a_misspelt_diagram_type_fails(tmp_path: Path) -> None:
    error = build_error(tmp_path, "```mermaid\nsequenceDiagramm\n    A->>B: hallo\n```\n")
    assert error.line in (1, 2)


def test_valid_diagrams_of_types_that_need_a_dom_pass(tmp_path: Path) -> None:
    convert(
        tmp_path,
        """\
        ```mermaid titel="Zustände" beschreibung="Ein Zustand: Offen."
        stateDiagram-v2
            [*] --> Offen
        ```

        ```mermaid titel="Klassen" beschreibung="Topic erbt von Queue."
        classDiagram
            Queue <|-- Topic
        ```
        """,
    )


# --- 6. No misleading advice ----------------------------------------------------------------


def test_a_syntax_error_never_suggests_raises(tmp_path: Path) -> None:
    error = build_error(tmp_path, "```pycell\nif True:\nprint(1)\n```\n")
    assert "IndentationError" in error.message
    assert "raises=" not in error.message


def test_a_name_from_a_similar_session_suggests_a_typo(tmp_path: Path) -> None:
    error = build_error(
        tmp_path,
        """\
        ```pycell session="retry"
        versuche = 3
        ```

        ```pycell session="retyr"
        versuche
        ```
        """,
    )
    assert "Sitzung „retyr“ — Tippfehler?" in error.message


def test_a_bug_in_a_check_is_the_checks_bug(tmp_path: Path) -> None:
    error = fails_at(
        tmp_path,
        """\
        ```aufgabe id="doppelt"
        --- start
        def doppelt(x):
            ...
        --- pruefung
        @pruefe("doppelt(2) ist 4")
        def _():
            assert doppelt(2) == vier
        --- loesung
        def doppelt(x):
            return 2 * x
        ```
        """,
        8,
        "Fehler im Code der Prüfung",
    )
    assert "Die Lösung besteht nicht" not in error.message


def test_a_broken_pruefung_section_is_no_internal_error(tmp_path: Path) -> None:
    fails_at(
        tmp_path,
        """\
        ```aufgabe id="kaputt"
        --- start
        x = 1
        --- pruefung
        @pruefe("x")
        def _(:
            assert x == 2
        --- loesung
        x = 2
        ```
        """,
        6,
        "`--- pruefung` selbst wirft",
    )


def test_a_prediction_without_a_final_expression_is_no_internal_error(tmp_path: Path) -> None:
    error = build_error(
        tmp_path,
        '```vorhersage id="p"\n--- frage\nF?\n--- code\nx = 1\n--- antwort\n1\n```\n',
    )
    assert "Interner Fehler" not in error.message
    assert error.line == 4


def test_hidden_with_a_value_is_rejected(tmp_path: Path) -> None:
    error = build_error(tmp_path, '```pycell hidden="false"\nx = 1\n```\n')
    assert "ist ein Schalter ohne Wert" in error.message


# --- 7. Exact lines -------------------------------------------------------------------------


def test_a_cell_error_names_the_absolute_line(tmp_path: Path) -> None:
    fails_at(
        tmp_path,
        """\
        # Seite

        ```pycell
        a = 1
        b = 0
        a / b
        ```
        """,
        6,
        "seite.md:6)",  # also inside the traceback
    )


def test_a_section_error_names_the_section_line(tmp_path: Path) -> None:
    error = build_error(
        tmp_path,
        """\
        ```quiz id="q"
        --- frage
        Was?
        --- richtig
        Ja.
        --- falsh
        Nein.
        ```
        """,
    )
    assert error.line == 6


def test_a_duplicate_id_names_both_lines(tmp_path: Path) -> None:
    quiz = '```quiz id="q"\n--- frage\nF\n--- richtig\nR\n--- falsch\nF\n```\n'
    fails_at(tmp_path, f"{quiz}\n{quiz}", 10, "in Zeile 1 (Übung 1) und in Zeile 10 (Übung 2)")


def test_a_failing_setup_command_of_a_console_task_names_its_line(tmp_path: Path) -> None:
    fails_at(
        tmp_path,
        """\
        ```konsolen-aufgabe id="k"
        --- setup
        create topic orders partitions 3

        consum orders
        --- pruefung
        @pruefe("x")
        def _():
            assert False
        --- loesung
        topics
        ```
        """,
        5,
        "„consum orders“",
    )


# --- 8. A lesson missing from nav -----------------------------------------------------------


def test_a_page_missing_from_nav_fails_the_strict_build(tmp_path: Path) -> None:
    """The site's own ``validation`` settings, on a tiny site with one page left out."""
    validation = site_config()["validation"]
    docs = tmp_path / "docs"
    (docs / "lektionen").mkdir(parents=True)
    (docs / "index.md").write_text("# Start\n", encoding="utf-8")
    (docs / "lektionen" / "neu.md").write_text("# Neu\n", encoding="utf-8")
    config = {"site_name": "Test", "nav": [{"Start": "index.md"}], "validation": validation}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode != 0
    assert "lektionen/neu.md" in done.stderr


def test_guide_examples_are_untouched(tmp_path: Path) -> None:
    """A fence inside a code example is text, not a leftover fence."""
    convert(tmp_path, textwrap.dedent("````markdown\n```pycell\nx = 1\n```\n````\n"))
