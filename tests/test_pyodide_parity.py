"""Every cell of every page gives the same output in Pyodide as in the build (CPython).

This is how we know the browser shows what the build wrote into the page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from tests.pyodide import PyodideRunner, run_natively

#: Runs a console's whole setup as the browser does (lessonkit.runtime.consoles) and prints each result.
CONSOLE_CODE = """
import json
from lessonkit.runtime.consoles import ConsoleSessions
_console, _results = ConsoleSessions().get("k", {kind!r}, {options!r}, {setup!r})
for _result in _results:
    print(_result.to_json())
"""


def collect_pages(site: Path) -> list[dict[str, Any]]:
    """The cells and consoles of every built page, in page order, as the browser reads them.

    A console becomes a cell (in a session of its own) that replays its setup.
    """
    pages = []
    for path in sorted(site.rglob("*.html")):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        cells = []
        for block in soup.select("[data-lk-cell], [data-lk-console]"):
            data = json.loads(block.select_one("[data-lk-json]")["data-lk-json"])
            if block.has_attr("data-lk-console"):
                code = CONSOLE_CODE.format(**data)
                cells.append({"session": data["key"], "code": code, "label": data["label"]})
                cells[-1]["built_text"] = block.select_one(".lk-console__log").get_text()
                cells[-1]["entries"] = len(block.select(".lk-console__entry"))
                cells[-1]["offset"] = data.get("offset", 0)
                cells[-1]["console"] = True
            else:
                cells.append({key: data[key] for key in ("session", "code", "label")})
                cells[-1]["built_text"] = block.select_one("output").get_text()
        if cells:
            pages.append({"name": path.relative_to(site).as_posix(), "cells": cells})
    return pages


def visible_text(result: dict[str, Any]) -> str:
    """What the <output> of a result shows as text (SVG pictures: their <title>)."""
    text = "".join(chunk for _, chunk in result["output"])
    text += result["value"] or ""
    if result["svg"]:
        text += BeautifulSoup(result["svg"], "html.parser").get_text()
    return text + (result["error"] or "")


@pytest.mark.pyodide
def test_cells_agree_in_cpython_and_pyodide(
    built_site: Path, pyodide: PyodideRunner, tmp_path: Path
) -> None:
    # Both of the browser's starts, each in a Node.js process of its own, while CPython
    # runs the same cells here: the three share the two cores. (The plain start, which
    # both fall back to, imports the same sources as the bytecode start compiled.)
    pages = collect_pages(built_site)
    assert pages, "no cells found in the built site"
    other = PyodideRunner(tmp_path / "bytecode-start.txt")
    try:
        pyodide.send(pages, start="snapshot")
        other.send(pages, start="bytecode")
        natives = [run_natively(page["cells"]) for page in pages]
        starts = {"snapshot start": pyodide.receive(), "bytecode start": other.receive()}
    finally:
        other.close()
    for start, in_pyodide_pages in starts.items():
        assert in_pyodide_pages["python"].startswith("3.14")
        for page, native, in_pyodide in zip(pages, natives, in_pyodide_pages["pages"], strict=True):
            for cell, ours, theirs in zip(
                page["cells"], native, in_pyodide["results"], strict=True
            ):
                where = f"{page['name']} {cell['label']}"
                if cell.get("console"):
                    assert_console_matches_build(
                        ours, cell["built_text"], cell["offset"], cell["entries"], where
                    )
                else:
                    assert visible_text(ours) == cell["built_text"], f"{where}: build differs"
                assert theirs == ours, f"{where}: Pyodide ({start}) differs from CPython"


def assert_console_matches_build(
    result: dict[str, Any], built: str, offset: int, entries: int, where: str
) -> None:
    """The console's own commands (``entries`` lines of its session's setup, starting at
    ``offset``) answered exactly as its built transcript shows. Hidden setups show none."""
    assert result["error"] is None, f"{where}: {result['error']}"
    lines = "".join(t for _, t in result["output"]).splitlines()
    answers = [json.loads(line)["text"] for line in lines][offset : offset + entries]
    position = 0
    for answer in answers:
        found = built.find(answer, position)
        assert found >= 0, f"{where}: build transcript lacks {answer!r}"
        position = found + len(answer)


@pytest.mark.pyodide
def test_the_snapshot_holds_the_judging_record_which_the_start_leaves_unchanged(
    pyodide: PyodideRunner,
) -> None:
    # Taken by the snapshot's maker (lessonkit/node/make_snapshot.mjs), so a reader's first
    # run need not take it; the plain start takes it at the first run, as the bytecode one.
    code = (
        "import lessonkit.runtime.bridge as b\n"
        "print(b.judging._parts is not None, len(b.judging._parts or ()) > 1000, b.judging.changed())"
    )
    page = {"name": "record", "cells": [{"session": "s", "code": code, "label": "Zelle 1"}]}
    for start, expected in (("snapshot", "True True []"), ("plain", "False False []")):
        result = pyodide.run([page], start=start)["pages"][0]["results"][0]
        assert result["error"] is None, result["error"]
        assert "".join(text for _, text in result["output"]).strip() == expected, start
