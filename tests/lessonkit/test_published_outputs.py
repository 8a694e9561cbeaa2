"""tests/published_outputs.py: what a build's blocks show, and the blocks that differ."""

from __future__ import annotations

import json
from pathlib import Path

from tests.published_outputs import compare, dump, main

CELL = """<div data-lk-cell><script class="lk-data" data-lk-json='{json}'></script>
<output>{shown}</output><svg><title>{title}</title></svg></div>"""


def site(root: Path, shown: str, title: str = "Bild") -> Path:
    page = root / "lektion" / "index.html"
    page.parent.mkdir(parents=True)
    data = json.dumps({"label": "Zelle 1"}).replace("'", "&#39;")
    page.write_text(CELL.format(json=data, shown=shown, title=title), encoding="utf-8")
    return root


def test_a_changed_output_is_named_with_a_diff_and_an_unchanged_one_is_not(
    tmp_path: Path,
) -> None:
    before = dump(site(tmp_path / "a", "1\n2\n"), svg=False)
    assert before == {"lektion/index.html › Zelle 1": "1\n2\n"}
    assert compare(before, dump(site(tmp_path / "b", "1\n2\n"), svg=False)) == []
    [report] = compare(before, dump(site(tmp_path / "c", "1\n3\n"), svg=False))
    assert report.startswith("lektion/index.html › Zelle 1:") and "-2\n+3" in report
    assert compare(before, {}) == ["lektion/index.html › Zelle 1: nicht mehr da"]


def test_svg_compares_the_pictures_markup_too(tmp_path: Path) -> None:
    a = dump(site(tmp_path / "a", "x", "Bild"), svg=True)
    b = dump(site(tmp_path / "b", "x", "Bild 2"), svg=True)
    assert compare(dump(site(tmp_path / "c", "x", "Bild"), svg=False), {}) != []
    assert compare(a, b) != [] and compare(a, a) == []


def test_the_command_exits_1_when_blocks_differ(tmp_path: Path) -> None:
    (tmp_path / "vorher.json").write_text(json.dumps({"s › Zelle 1": "1"}))
    (tmp_path / "nachher.json").write_text(json.dumps({"s › Zelle 1": "2"}))
    assert main(["compare", str(tmp_path / "vorher.json"), str(tmp_path / "vorher.json")]) == 0
    assert main(["compare", str(tmp_path / "vorher.json"), str(tmp_path / "nachher.json")]) == 1
