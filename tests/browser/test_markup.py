"""One markup for results: the page script renders live results exactly as the build does.

The build writes a cell's output and a console's answers with ``lessonkit/build/render.py``;
the page script renders live ones with ``OutputView`` (streamed and at once) and
``Transcript``. This golden test runs those TypeScript renderers in Chromium on the
results below and compares their HTML with ``render.py``'s, so a markup change that
is made on one side only fails here. Pictures are compared by place, not content
(the page sanitises them: tests/browser/test_hostile_output.py).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from lessonkit.build.render import render_console_entry, render_output
from lessonkit.runtime.kernel import CellResult
from pysim import Queue
from pysim.console import ConsoleResult

ROOT = Path(__file__).resolve().parents[2]
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"

_queue = Queue()
_queue.send("a")
PICTURE = _queue._repr_svg_()

CELL_RESULTS = [
    CellResult(),
    CellResult(output=[("stdout", "hallo\n")]),
    CellResult(
        output=[("stdout", "a < b & \"c\" 'd'\n"), ("stderr", "Warnung: ä\n"), ("stdout", "x")],
        value="{'k': [1, 2]}",
    ),
    CellResult(value="'<b>fett</b>'"),
    CellResult(svg=PICTURE),
    CellResult(
        output=[("stdout", "vorher\n")],
        error="Traceback (letzter Aufruf zuletzt):\n  Zelle 1, Zeile 2\nValueError: <kaputt>\n",
        error_type="ValueError",
    ),
    CellResult(output=[("stdout", "1\n" * 3), ("stderr", "… Ausgabe gekürzt\n")], truncated=True),
    # Direction-switching characters in printed output, a value and a message are written
    # as their code point, as in a console's transcript.
    CellResult(
        output=[("stdout", "datei-\u202egnp.exe\n"), ("stderr", "\u2066a\u2069 \u202a\u202d\n")],
        value="'\u202e'",
        error="ValueError: \u202ekaputt\n",
        error_type="ValueError",
    ),
]

CONSOLE_RESULTS = [
    ("create topic orders partitions 3", ConsoleResult(True, "Topic „orders“ angelegt.")),
    ('produce orders {"a":1}', ConsoleResult(True, "Zeile 1\n  eingerückt <x>\n", PICTURE)),
    ("update orders", ConsoleResult(False, "Unbekannter Befehl „update“.")),
    ("# nur ein Kommentar", ConsoleResult(True, "")),
    # Code in backticks becomes <code>, as text: a hostile string stays text.
    (
        "describ <img src=x onerror=alert(1)>",
        ConsoleResult(
            False,
            "Den Befehl „<img src=x onerror=alert(1)>“ gibt es nicht.\n"
            "Meintest du `describe`? (`<b>fett</b>` & `a&b`)\n"
            '`hilfe` zeigt alle Befehle. {"a":"`x`"} ` x ` a`b`c ``\n'
            "  eingerückt `bleibt` so\n"
            "Eine lange Zeile, die der Browser umbricht, nicht pysim: " + "lang " * 30,
        ),
    ),
    # Direction-switching characters (a record value, a refused command) are written as
    # their code point in both renderers; raw, they mirrored the rest of the line.
    (
        "read orders \u202e# \u2066x\u2069",
        ConsoleResult(
            True,
            'p0:0  -  {"name":"\u202egnp.exe"}\n'
            "Wert \u202a\u202b\u202c\u202d\u202e \u2066\u2067\u2068\u2069 Ende, `\u202ecode`\n"
            "  eingerückt \u202e bleibt",
        ),
    ),
]

COMPARE = """
({ cells, consoles }) => {
  const { OutputView, Transcript } = window.lkMarkup;
  // Pictures by place only; serialise both sides through the same parser.
  const normal = (html) => html.replace(/<svg[\\s\\S]*?<\\/svg>/g, "<svg></svg>");
  const parsed = (html) => {
    const box = document.createElement("div");
    box.innerHTML = html;
    return normal(box.innerHTML);
  };
  const problems = [];
  cells.forEach(({ result, html }, index) => {
    const want = parsed(html);
    const direct = document.createElement("output");
    new OutputView(direct).showResult(result);
    const streamed = document.createElement("output");
    const view = new OutputView(streamed);
    for (const [stream, text] of result.output) {
      const half = Math.ceil(text.length / 2);
      view.appendChunk(stream, text.slice(0, half));
      if (half < text.length) view.appendChunk(stream, text.slice(half));
    }
    view.showResult(result);
    for (const [how, node] of [["at once", direct], ["streamed", streamed]]) {
      const got = normal(node.innerHTML);
      if (got !== want) problems.push({ cell: index, how, want, got });
    }
  });
  consoles.forEach(({ command, result, html }, index) => {
    const log = document.createElement("pre");
    new Transcript(log, document.createElement("div")).append(command, result);
    const injected = log.querySelectorAll("img, b, script").length;
    if (injected) problems.push({ console: index, injected });
    const got = normal(log.innerHTML);
    const want = parsed(html);
    if (got !== want) problems.push({ console: index, want, got });
  });
  return problems;
}
"""


@pytest.fixture(scope="module")
def renderers(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The page script's renderers, bundled (esbuild, as frontend/build.mjs does)."""
    out = tmp_path_factory.mktemp("markup") / "markup.js"
    subprocess.run(
        [
            str(ESBUILD),
            str(Path(__file__).with_name("markup_entry.ts")),
            "--bundle",
            "--format=iife",
            "--global-name=lkMarkup",
            f"--outfile={out}",
            "--log-level=warning",
        ],
        check=True,
        cwd=ROOT,
    )
    return out.read_text(encoding="utf-8")


def test_live_results_have_the_builds_markup(browser: Any, renderers: str) -> None:
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(content=renderers)
        cells = [{"result": r.to_dict(), "html": render_output(r)} for r in CELL_RESULTS]
        consoles = [
            {
                "command": command,
                "result": result.to_dict(),
                "html": render_console_entry(command, result),
            }
            for command, result in CONSOLE_RESULTS
        ]
        problems = page.evaluate(COMPARE, {"cells": cells, "consoles": consoles})
    finally:
        page.close()
    assert problems == []


CAPPED = """
() => {
  const { Transcript } = window.lkMarkup;
  const log = document.createElement("pre");
  const transcript = new Transcript(log, document.createElement("div"));
  transcript.append("x".repeat(10_000_000), { ok: false, text: "a".repeat(50_000), clear: false, svg: null });
  const entry = log.firstElementChild;
  return {
    command: entry.querySelector(".lk-console__cmd").textContent,
    answer: entry.querySelector(".lk-console__out").textContent,
  };
}
"""


def test_a_huge_command_and_answer_are_cut_with_a_note(browser: Any, renderers: str) -> None:
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(content=renderers)
        shown = page.evaluate(CAPPED)
    finally:
        page.close()
    assert shown["command"] == "$ " + "x" * 300 + " … (gekürzt, 10.000.000 Zeichen)"
    assert shown["answer"] == "a" * 20_000 + "\n… (gekürzt, 50.000 Zeichen)\n"


SAME_PICTURE = """
(svg) => {
  const { Transcript } = window.lkMarkup;
  const picture = document.createElement("div");
  const transcript = new Transcript(document.createElement("pre"), picture);
  const answer = (picture) => ({ ok: true, text: "ok", clear: false, svg: picture });
  transcript.append("topics", answer(svg));
  const first = picture.firstChild;
  transcript.append("topics", answer(svg));
  const kept = picture.firstChild === first;
  transcript.append("groups", answer(svg.replace("</svg>", "<rect/></svg>")));
  const changed = picture.firstChild !== first;
  const second = picture.firstChild;
  picture.replaceChildren(document.createElement("p"));  // the console's reset
  transcript.append("groups", answer(svg.replace("</svg>", "<rect/></svg>")));
  return { kept, changed, redrawn: picture.firstChild !== second && picture.firstChild.localName === "svg" };
}
"""


def test_an_answer_with_the_same_picture_leaves_it_drawn(browser: Any, renderers: str) -> None:
    """Most commands change nothing that is drawn: the picture is not sanitised and laid out
    again (issue 28: each command's work on the page's main thread)."""
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(content=renderers)
        shown = page.evaluate(SAME_PICTURE, PICTURE)
    finally:
        page.close()
    assert shown == {"kept": True, "changed": True, "redrawn": True}
