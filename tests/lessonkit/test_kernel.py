"""The kernel: what a cell's output is (the same code runs in Pyodide)."""

from __future__ import annotations

import asyncio
import time
import tracemalloc

import pytest

from lessonkit.build.execute import run_sync
from lessonkit.runtime.kernel import (
    MAX_ERROR_CHARS,
    MAX_OUTPUT_LINES,
    MAX_VALUE_CHARS,
    Kernel,
    make_sleep,
    run_cell_async,
)


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


# --- Hostile output: every channel is capped (issue 15, items 5-7 and 13) ---------------


def test_a_huge_value_is_cut_with_a_note() -> None:
    value = run("list(range(10**6))")["value"]
    assert value.startswith("[0, 1, 2, 3, ")
    assert len(value) < MAX_VALUE_CHARS + 200
    assert "Wert gekürzt" in value


def peak_memory_of(setup: str, code: str) -> tuple[dict, int]:
    """Run ``setup``, then ``code`` in the same namespace; the peak of new memory for ``code``."""
    namespace: dict = {}
    run(setup, namespace)
    tracemalloc.start()
    try:
        result = run(code, namespace)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_string_is_cut_without_copying_it() -> None:
    result, peak = peak_memory_of("s = 'a' * 10**8", "s")
    assert result["value"].startswith("'aaaa")
    assert len(result["value"]) < MAX_VALUE_CHARS + 200
    assert "Wert gekürzt" in result["value"]
    assert peak < 5_000_000


def test_a_huge_exception_message_is_cut_without_copying_it() -> None:
    result, peak = peak_memory_of("s = 'x' * 10**8", "raise ValueError(s)")
    assert result["error_type"] == "ValueError"
    assert "ValueError: xxxx" in result["error"]
    assert len(result["error"]) < MAX_ERROR_CHARS + 300
    assert "Meldung gekürzt" in result["error"]
    assert peak < 5_000_000


def test_a_deep_traceback_keeps_its_first_and_last_calls() -> None:
    result = run("def f(n):\n    return f(n - 1) if n else 1 / 0\n\nf(500)")
    assert result["error_type"] == "ZeroDivisionError"
    assert result["error"].count("in f") < 50
    assert "weitere Aufrufe ausgelassen" in result["error"]
    assert result["error"].endswith("ZeroDivisionError: division by zero\n")


def test_a_huge_picture_is_replaced_by_a_note() -> None:
    code = (
        "class Bild:\n    def _repr_svg_(self):\n"
        "        return '<svg>' + ' ' * 50_000_000 + '</svg>'\nBild()"
    )
    result = run(code)
    assert result["svg"] is None
    assert "Bild nicht gezeigt" in result["value"]


@pytest.mark.parametrize(("rects", "shown"), [(9_998, True), (20_000, False)])
def test_a_picture_of_too_many_elements_is_replaced_by_a_note(rects: int, shown: bool) -> None:
    code = (
        "class Bild:\n    def _repr_svg_(self):\n"
        f"        return '<svg>' + '<rect/>' * {rects} + '</svg>'\nBild()"
    )
    result = run(code)
    assert (result["svg"] is not None) is shown
    if not shown:
        assert result["value"] == (
            "Bild nicht gezeigt: Das SVG hat 20.002 Elemente, erlaubt sind 10.000."
        )


VALUES = [
    "[]",
    "()",
    "(1,)",
    "{}",
    "set()",
    "frozenset()",
    "frozenset({1})",
    "{1, 2}",
    "[1, 'a', b'x', bytearray(b'y'), 1.5, None, True, 3j]",
    "{'a': [1, (2, 3)], 'b': {'c': {4, 5}}}",
    "['it\\'s', \"\\\"\", '\\n', 'ü', '\\x00']",
    "__import__('collections').OrderedDict(a=1)",
    "__import__('collections').Counter('abba')",
    "__import__('collections').namedtuple('P', 'x y')(1, [2])",
    "[range(3), type, len, ...]",
]


@pytest.mark.parametrize("code", VALUES)
def test_a_short_value_is_shown_exactly_as_repr(code: str) -> None:
    assert run(code)["value"] == repr(eval(code))


def test_recursive_containers_are_shown_as_repr_shows_them() -> None:
    assert run("a = [1]\na.append(a)\nd = {}\nd['d'] = d\n(a, d)")["value"] == (
        "([1, [...]], {'d': {...}})"
    )


def test_many_small_writes_reach_the_page_in_a_few_batches() -> None:
    seen: list[tuple[str, str]] = []
    code = (
        "import sys\nfor i in range(300_000):\n    print('a', end='')\n"
        "    if i % 100_000 == 0:\n        print('!', file=sys.stderr)"
    )
    result = run_sync(
        lambda: run_cell_async(code, {}, "Zelle", lambda s, t: seen.append((s, t)))
    ).to_dict()
    assert len(seen) < 200
    merged: list[list[str]] = []
    for stream, text in seen:  # the batches, merged like the result's output
        if merged and merged[-1][0] == stream:
            merged[-1][1] += text
        else:
            merged.append([stream, text])
    assert merged == result["output"]
    assert [stream for stream, _ in merged][:4] == ["stdout", "stderr", "stdout", "stderr"]


def test_output_that_switches_streams_on_every_write_leaves_in_a_few_batches() -> None:
    """Each batch is one call of ``on_parts`` (one message to the page), however many
    stretches of stdout and stderr it holds (issue 49: 200,000 messages held the page)."""
    batches: list[list[tuple[str, str]]] = []
    code = "import sys\nfor i in range(300_000):\n    print('a', end='')\n    print('b', end='', file=sys.stderr)"
    result = run_sync(
        lambda: run_cell_async(code, {}, "Zelle", on_parts=lambda parts: batches.append(parts))
    ).to_dict()
    assert 0 < len(batches) < 200
    assert sum(len(parts) for parts in batches) > 1000  # stretches: a message each before
    merged: list[list[str]] = []
    for stream, text in (part for parts in batches for part in parts):
        if merged and merged[-1][0] == stream:
            merged[-1][1] += text
        else:
            merged.append([stream, text])
    assert merged == result["output"]


def test_the_first_output_of_a_run_is_handed_over_at_once() -> None:
    seen: list[tuple[str, str]] = []
    code = "import time\nprint('vorher')\ntime.sleep(0.2)\nprint('nachher')"

    def on_chunk(stream: str, text: str) -> None:
        seen.append((stream, text))

    async def scenario() -> list[tuple[str, str]]:
        task = asyncio.ensure_future(run_cell_async(code, {}, "Zelle", on_chunk))
        await asyncio.sleep(0)
        await task
        return seen

    run_sync(scenario)
    assert seen[0] == ("stdout", "vorher")
    assert "".join(text for _, text in seen) == "vorher\nnachher\n"


def test_output_waiting_while_a_cell_awaits_is_handed_over() -> None:
    seen: list[str] = []
    code = "import asyncio\nprint('a')\nprint('b')\nawait asyncio.sleep(0.3)\n'fertig'"
    marks: list[str] = []

    async def scenario() -> None:
        task = asyncio.ensure_future(run_cell_async(code, {}, "Zelle", lambda s, t: seen.append(t)))
        await asyncio.sleep(0.2)
        marks.append("".join(seen))
        await task

    run_sync(scenario)
    assert marks == ["a\nb\n"]


def test_input_says_in_german_that_there_is_no_keyboard_input() -> None:
    result = run("name = input('Wie heißt du? ')")
    assert result["error_type"] == "EOFError"
    assert "keine Tastatureingabe" in result["error"]
    assert result["output"] == [["stdout", "Wie heißt du? "]]


def test_sys_exit_in_a_cell_is_explained_in_german() -> None:
    result = run("import sys\nsys.exit(3)")
    assert result["error_type"] == "SystemExit"
    assert "beenden hier nur diese Zelle" in result["error"]


def test_the_browser_sleep_hands_over_output_then_blocks() -> None:
    seen: list[str] = []
    at_wait: list[str] = []
    waited: list[float] = []

    def wait(milliseconds: float) -> None:
        at_wait.append("".join(seen))
        waited.append(milliseconds)
        time.sleep(milliseconds / 1000)

    namespace = {"schlafe": make_sleep(wait)}
    code = "print('vorher')\nprint('noch')\nschlafe(0.1)\nprint('nachher')"
    run_sync(lambda: run_cell_async(code, namespace, "Zelle", lambda s, t: seen.append(t)))
    assert at_wait[0] == "vorher\nnoch\n"
    assert 50 < sum(waited) < 200
    assert "".join(seen) == "vorher\nnoch\nnachher\n"
    assert run("schlafe(-1)", namespace)["error"].endswith(
        "ValueError: sleep length must be non-negative\n"
    )
    assert run("schlafe('1')", namespace)["error_type"] == "TypeError"
