"""The whole site builds strictly; a broken cell stops the build with file and line."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

from bs4 import BeautifulSoup

from lessonkit.build.preload import runtime_preloads
from lessonkit.fences.exercises import sections_with_rows
from tests.conftest import ROOT, mkdocs_build, small_site

EXERCISE = re.compile(
    r"^```(?:vorhersage|aufgabe|konsolen-aufgabe|herausforderung)[^\n]*\n(.*?)^```$", re.M | re.S
)


def test_every_page_builds_with_real_outputs(built_site: Path) -> None:
    page = BeautifulSoup((built_site / "erste-schritte" / "index.html").read_text(), "html.parser")
    cells = page.select("[data-lk-cell]")
    assert len(cells) >= 5
    first = cells[0].select_one("output").get_text()
    assert first == "1 bestellung-1\n2 bestellung-2\n3 bestellung-3\n3"
    assert page.select_one(".lk-output__svg svg title").get_text() == "Balken je Bestellung"
    assert page.find("html")["lang"] == "de"


def test_built_site_serves_runtime_files(built_site: Path) -> None:
    generated = built_site / "assets" / "generated"
    runtime = (generated / "runtime.json").read_text()
    packages = sorted(generated.glob("packages-*.zip"))
    assert len(packages) == 1 and packages[0].name in runtime
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (generated / "pyodide" / name).stat().st_size > 0
    assert (generated / "mermaid.min.js").exists()
    assert (generated / "js" / "lessonkit.js").exists()
    assert (generated / "js" / "worker.js").exists()


def test_pages_with_python_preload_what_their_start_needs(built_site: Path, tmp_path: Path) -> None:
    generated = built_site / "assets" / "generated"
    runtime = json.loads((generated / "runtime.json").read_text())
    page = (built_site / "erste-schritte" / "index.html").read_text()
    listed = re.search(r"\n\s*(\[[^\]]*\])\.forEach\(function \(file\)", page)
    assert listed, "the page's preload list"
    assert "/*lk-preload*/" not in page
    # The worker chooses its start by the WebAssembly's speed: a preload would decide first.
    assert runtime["start"] == "auto"
    assert json.loads(listed[1]) == []
    # A page without Python starts no worker and preloads nothing.
    assert "forEach(function (file)" not in (built_site / "index.html").read_text()
    # A build with a fixed start (LESSONKIT_START, for benchmarks) preloads that start's files.
    fixed = tmp_path / "assets" / "generated"
    fixed.mkdir(parents=True)
    bytecode = [runtime["bytecode"]["stdlib"], runtime["bytecode"]["packages"]]
    for start, files in (("snapshot", [runtime["snapshot"]]), ("bytecode", bytecode)):
        (fixed / "runtime.json").write_text(json.dumps({**runtime, "start": start}))
        assert runtime_preloads(tmp_path) == files
        assert all((generated / name).stat().st_size > 0 for name in files)


def test_failing_cell_stops_the_build_naming_file_and_line(tmp_path: Path) -> None:
    # A small site of its own (the course's configuration, two pages) keeps this fast.
    config = small_site(
        tmp_path,
        {
            "index.md": "# Start\n",
            "kaputt.md": "# Kaputt\n\nEin Absatz.\n\n```pycell\nsumme = 1\nsumme + nicht_da\n```\n",
        },
    )
    result = mkdocs_build(tmp_path / "site", config)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    # The failing line itself (7), and the block's first line (5) for orientation.
    assert (
        "kaputt.md:7: Zelle 1 (Sitzung „main“, Block ab Zeile 5) wirft unerwartet NameError"
        in output
    )
    assert "Zelle 1, Zeile 2 (" in output and "kaputt.md:7)" in output
    assert "summe + nicht_da" in output


def test_no_wrong_attempt_reaches_the_built_site(built_site: Path) -> None:
    # A wrong attempt (`--- fehlversuch`) is proved at build time and never shipped: its
    # comment lines (each names the mistake it plays) are in no lesson's page or search
    # entry.
    index = json.loads((built_site / "search" / "search_index.json").read_text())
    found = 0
    sources = [
        *sorted((ROOT / "docs" / "lektionen").glob("*.md")),
        *sorted((ROOT / "docs" / "herausforderungen").glob("*.md")),
    ]
    for source in sources:
        comments = [
            line.strip()
            for body in EXERCISE.findall(source.read_text(encoding="utf-8"))
            for name, text, _ in sections_with_rows(body)
            if name == "fehlversuch"
            for line in text.splitlines()
            if line.startswith("# ")
        ]
        found += len(comments)
        folder = source.parent.name
        where = f"{folder}/" if source.stem == "index" else f"{folder}/{source.stem}/"
        page = unescape((built_site / where / "index.html").read_text())
        entries = unescape(
            json.dumps(
                [d for d in index["docs"] if d["location"].startswith(where)],
                ensure_ascii=False,
            )
        )
        for comment in comments:
            assert comment not in page and comment not in entries, (source.name, comment)
    assert found >= 50, found
    # What the page does show of the same exercise is found: a check's name.
    page = unescape((built_site / "lektionen" / "ereignisstroeme" / "index.html").read_text())
    assert "Jeder Consumer liest placed, paid, shipped, in dieser Folge" in page
