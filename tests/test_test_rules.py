"""Rules the tests themselves keep, so that a test can fail when the product is wrong."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).parent
ASYNC = re.compile(r"\basync\b|\bawait\b|\.then\(")


def module_strings(tree: ast.Module) -> dict[str, str]:
    """Module-level `NAME = "..."` constants, to read a condition passed by name."""
    strings = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    strings[target.id] = node.value.value
    return strings


def condition_text(node: ast.expr, strings: dict[str, str]) -> str:
    if isinstance(node, ast.Name):
        return strings.get(node.id, "")
    return ast.unparse(node)  # a literal, an f-string, a concatenation


def async_waits(path: Path) -> list[int]:
    """The lines where `path` hands an async condition to `wait_for_function`."""
    tree = ast.parse(path.read_text(), str(path))
    strings = module_strings(tree)
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "wait_for_function"
        and node.args
        and ASYNC.search(condition_text(node.args[0], strings))
    ]


def imported_test_modules(path: Path) -> list[str]:
    """The test modules (``test_*.py``) that ``path`` imports."""
    tree = ast.parse(path.read_text(), str(path))
    names = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    names += [
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    ]
    return [
        name
        for name in names
        if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")
    ]


#: Each rule: what finds where a file breaks it, and what to do instead.
RULES: dict[str, tuple[Callable[[Path], list[Any]], str]] = {
    # Playwright's wait_for_function does not await a promise (a promise is truthy): such a
    # wait passes at once. tests/browser/waits.py's `wait_until` awaits each answer.
    "async-wait": (async_waits, "use wait_until (tests/browser/waits.py)"),
    # A helper inside a test module is hard to find, and a test imported with it runs twice.
    "test-import": (
        imported_test_modules,
        "move what is shared to a helper module (pages.py, seiten.py, konsolen.py) or a conftest",
    ),
}


@pytest.mark.parametrize(
    "path", sorted(TESTS.rglob("*.py")), ids=lambda p: str(p.relative_to(TESTS))
)
def test_every_file_keeps_the_rules(path: Path) -> None:
    broken = {advice: found for finder, advice in RULES.values() if (found := finder(path))}
    assert broken == {}, path


@pytest.mark.parametrize(
    ("rule", "sample", "expected"),
    [
        (
            "async-wait",
            'READY = "async () => (await caches.keys()).length > 0"\n'
            "page.wait_for_function(READY)\n"
            'page.wait_for_function(f"() => ({X})().then((d) => d !== null)")\n'
            'page.wait_for_function("() => window.ready === true")\n',
            [2, 3],
        ),
        (
            "test-import",
            "import tests.test_no_foreign_origin as foreign\n"
            "from tests.lessonkit.test_fences import convert\n"
            "from tests.lessonkit.seiten import convert\n"
            "from tests.browser import pages\n",
            ["tests.test_no_foreign_origin", "tests.lessonkit.test_fences"],
        ),
    ],
)
def test_a_rule_finds_what_breaks_it(
    tmp_path: Path, rule: str, sample: str, expected: list[Any]
) -> None:
    path = tmp_path / "sample.py"
    path.write_text(sample)
    finder, _ = RULES[rule]
    assert finder(path) == expected
