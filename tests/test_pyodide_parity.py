"""Every cell of every page gives the same output in Pyodide as in the build (CPython).

This is how we know the browser shows what the build wrote into the page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from tests.pyodide import run_in_pyodide, run_natively


def collect_pages(site: Path) -> list[dict[str, Any]]:
    """The cells of every built page, in page order, as the browser reads them."""
    pages = []
    for path in sorted(site.rglob("*.html")):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        cells = []
        for cell in soup.select("[data-lk-cell]"):
            data = json.loads(cell.select_one("script.lk-cell__data").get_text())
            cells.append({key: data[key] for key in ("session", "code", "label")})
            cells[-1]["built_text"] = cell.select_one("output").get_text()
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
def test_cells_agree_in_cpython_and_pyodide(built_site: Path, tmp_path: Path) -> None:
    pages = collect_pages(built_site)
    assert pages, "no cells found in the built site"
    pyodide = run_in_pyodide(pages, tmp_path)
    assert pyodide["python"].startswith("3.14")
    for page, in_pyodide in zip(pages, pyodide["pages"], strict=True):
        native = run_natively(page["cells"])
        for cell, ours, theirs in zip(page["cells"], native, in_pyodide["results"], strict=True):
            where = f"{page['name']} {cell['label']}"
            assert visible_text(ours) == cell["built_text"], f"{where}: build output differs"
            assert theirs == ours, f"{where}: Pyodide differs from CPython"
