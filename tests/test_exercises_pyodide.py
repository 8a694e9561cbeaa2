"""Every exercise of the site is judged the same in Pyodide as at build time.

For each exercise on the built pages, its solution and its starting point are
checked through lessonkit.runtime.checks in CPython and in real Pyodide under Node.js
(the browser's checks); the outcomes must be identical, the solution must pass
and the start must fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from tests.pyodide import PyodideRunner, run_natively

CHECK = """
import json
from lessonkit.runtime import challenges
from lessonkit.runtime.checks import check_code, check_console, predict
from lessonkit.runtime.consoles import ConsoleSessions
from lessonkit.runtime.kernel import Kernel

data = json.loads({data!r})
answer = {answer!r}
if data["type"] == "vorhersage":
    kernel = Kernel()
    # With ``session``: the session's cells above it first, as the page runs them.
    for code, raises in {above!r}:
        ran = await kernel.run("vorhersage", code)
        assert ran.error is None or ran.error_type == raises, ran.error
    outcome = await predict(data["code"], answer, kernel, "vorhersage")
    outcome.pop("result")
    print(json.dumps(outcome, ensure_ascii=False, sort_keys=True))
elif data["type"] == "aufgabe":
    for code in (data["loesung"], data["start"]):
        outcome = await check_code(data["vorbereitung"], code, data["pruefung"])
        print(json.dumps(outcome.to_dict(), ensure_ascii=False, sort_keys=True))
elif data["type"] == "konsolen-aufgabe":
    for commands in (data["loesung"], []):
        console, _ = ConsoleSessions().get("k", data["kind"], data["options"], data["setup"])
        for command in commands:
            console.run(command)
        outcome = check_console(console, data["kind"], data["pruefung"])
        print(json.dumps(outcome.to_dict(), ensure_ascii=False, sort_keys=True))
elif data["type"] == "herausforderung":
    vorgabe = challenges.Vorgabe.aus_dict(data["vorgabe"])
    for code in (data["loesung"], data["start"]):
        klasse, error = await challenges.load_node(code)
        seeds = []
        for seed in range(1, vorgabe.seeds + 1):  # as the page's Prüfen: to the first failure
            o = challenges.seed_outcome(klasse, vorgabe, seed, data["pruefung"])
            seeds.append([o["seed"], o["ok"], o["urteil"], o["kennung"], len(o["svg"])])
            if not o["ok"]:
                break
        ok = error is None and all(s[1] for s in seeds)
        print(json.dumps(dict(ok=ok, error=error, seeds=seeds), ensure_ascii=False))
"""


def exercise_cells(site: Path) -> list[dict[str, Any]]:
    cells = []
    for path in sorted(site.rglob("*.html")):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        page_cells: list[dict[str, Any]] = []  # the page's cells above, in page order
        for block in soup.select("[data-lk-cell], [data-lk-exercise]"):
            if block.has_attr("data-lk-cell"):
                page_cells.append(json.loads(block.select_one("[data-lk-json]")["data-lk-json"]))
                continue
            data = json.loads(block.select_one(".lk-exercise__data")["data-lk-json"])
            if data["type"] == "quiz":
                continue  # checked in the page itself, without Python
            answer, above = "", []
            if data["type"] == "vorhersage":
                answer = block.select_one(".lk-exercise__answer code").get_text()
                session = data["session"]
                above = [
                    (c["code"], c["raises"])
                    for c in page_cells
                    if session and c["session"] == session
                ]
            label = f"{path.relative_to(site).as_posix()} {data['id']}"
            cells.append(
                {
                    "session": label,
                    "code": CHECK.format(data=json.dumps(data), answer=answer, above=above),
                    "label": label,
                }
            )
    return cells


def verdicts(result: dict[str, Any]) -> list[dict[str, Any]]:
    assert result["error"] is None, result["error"]
    return [json.loads(line) for line in "".join(t for _, t in result["output"]).splitlines()]


@pytest.mark.pyodide
def test_exercises_are_judged_alike_in_cpython_and_pyodide(
    built_site: Path, pyodide: PyodideRunner
) -> None:
    cells = exercise_cells(built_site)
    assert len(cells) >= 10
    pyodide.send([{"name": "exercises", "cells": cells}], start="snapshot")
    native = run_natively(cells)  # meanwhile, on the other core
    judged = pyodide.receive()
    for cell, ours, theirs in zip(cells, native, judged["pages"][0]["results"], strict=True):
        mine, browser = verdicts(ours), verdicts(theirs)
        assert mine == browser, f"{cell['label']}: Pyodide judges differently"
        if len(mine) == 1:  # a prediction: the stated answer is right
            assert mine[0]["correct"], f"{cell['label']}: {mine[0]['message']}"
        else:  # a task: the solution passes, the start does not
            assert mine[0]["ok"] and not mine[1]["ok"], cell["label"]
