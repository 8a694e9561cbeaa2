"""lessonkit's rooms (ARCHITECTURE.md, "Parts"): what ships to the browser stands alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lessonkit.build import assets

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = sorted((ROOT / "lessonkit" / "runtime").glob("*.py"))


def lessonkit_imports(path: Path) -> list[str]:
    """Every lessonkit module ``path`` imports when it runs (imports for type checkers only,
    under ``if TYPE_CHECKING:``, never run in the browser)."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            found.append(node.module or "")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return [name for name in found if name.split(".")[0] == "lessonkit"]


@pytest.mark.parametrize("path", RUNTIME, ids=lambda path: path.name)
def test_a_runtime_module_imports_only_the_runtime(path: Path) -> None:
    outside = [
        name
        for name in lessonkit_imports(path)
        if name != "lessonkit" and not name.startswith("lessonkit.runtime")
    ]
    assert outside == [], f"{path.name} imports {outside}: the browser does not have them"


def test_the_browser_gets_the_runtime_room_and_nothing_else_of_lessonkit() -> None:
    assert [entry for entry in assets.PACKAGED if entry[0].startswith("lessonkit")] == [
        ("lessonkit", "__init__.py"),
        ("lessonkit/runtime", "*.py"),
    ]


def test_no_module_is_left_in_lessonkit_s_hall() -> None:
    """Every module has a room; only the package's ``__init__.py`` stands in lessonkit/."""
    assert [path.name for path in (ROOT / "lessonkit").glob("*.py")] == ["__init__.py"]
