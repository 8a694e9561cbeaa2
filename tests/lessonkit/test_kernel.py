"""The kernel: what a cell's output is (the same code runs in Pyodide)."""

from __future__ import annotations

import pytest

from lessonkit.execute import run_sync
from lessonkit.kernel import MAX_OUTPUT_LINES, Kernel, run_cell_async


def run(code: str, namespace: dict | None = None) -> dict:
    namespace = {} if namespace is None else namespace
    return run_sync(lambda: run_cell_async(code, namespace, "Zelle 7")).to_dict()


@pytest.mark.parametrize(
    ("code", "key", "expected"),
    [
        ("print('hallo')", "output", [["stdout", "hallo\n"]]),
        ("1 + 2", "value", "3"),
        ("x = 1", "value", None),
        ("None", "value", None),
        ("'text'", "value", "'text'"),
        (
            "import sys\nprint('a')\nprint('b', file=sys.stderr)\nprint('c')",
            "output",
            [["stdout", "a\n"], ["stderr", "b\n"], ["stdout", "c\n"]],
        ),
        ("import asyncio\nawait asyncio.sleep(0)\n'fertig'", "value", "'fertig'"),
        (
            "class Bild:\n    def _repr_svg_(self):\n        return '<svg/>'\nBild()",
            "svg",
            "<svg/>",
        ),
        ("class Bild:\n    def _repr_svg_(self):\n        return '<svg/>'\nBild", "svg", None),
    ],
)
def test_results_like_a_repl(code: str, key: str, expected: object) -> None:
    assert run(code)[key] == expected


def test_error_lists_only_the_cells_own_lines() -> None:
    result = run("def teile(a, b):\n    return a / b\n\nteile(1, 0)")
    assert result["error_type"] == "ZeroDivisionError"
    assert result["error"] == (
        "Traceback (letzter Aufruf zuletzt):\n"
        "  Zelle 7, Zeile 4\n"
        "    teile(1, 0)\n"
        "  Zelle 7, Zeile 2, in teile\n"
        "    return a / b\n"
        "ZeroDivisionError: division by zero\n"
    )
    assert "kernel.py" not in result["error"]


def test_syntax_error_names_the_line() -> None:
    result = run("x = 1\ny = (\n")
    assert result["error_type"] == "SyntaxError"
    assert result["error"].startswith("  Zelle 7, Zeile 2\n")


def test_output_before_an_error_is_kept() -> None:
    result = run("print('vorher')\nraise ValueError('kaputt')")
    assert result["output"] == [["stdout", "vorher\n"]]
    assert result["error"].endswith("ValueError: kaputt\n")


def test_huge_output_is_capped_with_a_note() -> None:
    result = run("for i in range(100_000):\n    print(i)")
    text = "".join(chunk for _, chunk in result["output"])
    assert result["truncated"] is True
    assert text.count("\n") <= MAX_OUTPUT_LINES + 3
    assert "Ausgabe gekürzt" in text
    assert result["output"][0][1].startswith("0\n1\n")


def test_output_is_streamed_while_running() -> None:
    seen: list[tuple[str, str]] = []
    run_sync(
        lambda: run_cell_async("print(1)\nprint(2)", {}, "Zelle", lambda s, t: seen.append((s, t)))
    )
    assert "".join(t for _, t in seen) == "1\n2\n"


def test_sessions_share_and_separate_namespaces() -> None:
    kernel = Kernel()

    async def scenario() -> list[dict]:
        return [
            (await kernel.run("main", "x = 41")).to_dict(),
            (await kernel.run("main", "x + 1")).to_dict(),
            (await kernel.run("andere", "x")).to_dict(),
        ]

    _, second, other = run_sync(scenario)
    assert second["value"] == "42"
    assert other["error_type"] == "NameError"
    kernel.reset()
    assert kernel.sessions == {}
