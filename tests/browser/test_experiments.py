"""A reader's experiments lose nothing and freeze nothing (issue 15, items 1-4).

Each test reproduces what a curious reader did: change a cell and go on, stop an
endless loop while a console holds state, break Python, start background tasks.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import (
    CHECK,
    FIRST_STEPS,
    LESSON_3,
    Cell,
    Console,
    Exercise,
    go,
    python_bar,
    python_ready,
    python_value,
)


def original_code(target: Cell) -> str:
    data = target.root.locator(".lk-cell__data").get_attribute("data-lk-json") or "{}"
    return str(json.loads(data)["code"])


# --- Item 1: hidden checks of the prose never block the reader -----------------------


def test_a_changed_cell_is_told_kindly_and_the_next_cell_still_runs(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + LESSON_3)
    changed = Cell.with_code(page, "def erhoehe_direkt")
    following = Cell.with_code(page, "class ZaehlerActor")
    code = original_code(changed)
    without_gap = "\n".join(line for line in code.splitlines() if "asyncio.sleep(0)" not in line)
    assert without_gap != code
    changed.run_code(without_gap, "done")
    expect(changed.value).to_have_text("200")  # no lost update now
    following.run("done")  # the hidden check of "100" fails, and stops nothing
    expect(following.output).to_contain_text("nach erhoehen: 1")
    expect(changed.output).to_contain_text(
        "Dein geänderter Code ergibt etwas anderes, als der Text beschreibt"
    )


# --- Item 2: Stopp keeps what the reader did in a console ----------------------------


def test_stopp_elsewhere_keeps_the_consoles_state_and_says_so(page: Page, site_url: str) -> None:
    log = Console.first(page, on=site_url + FIRST_STEPS)
    log.command("create topic experiment partitions 1")
    target = Cell.number(page, 6)
    target.start_code("while True:\n    pass")
    target.stop()
    expect(target.root).to_have_attribute("data-state", "stopped")
    log.command("topics")
    expect(log.entries.last).to_contain_text("experiment")
    expect(log.root.locator(".lk-console__note").last).to_contain_text("Befehl lief noch einmal")


# --- Item 3: no dead ends --------------------------------------------------------------


def test_an_endless_loop_in_a_code_task_can_be_stopped(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = Exercise.by_id(page, "erste-aufgabe")
    task.root.scroll_into_view_if_needed()
    task.editor.fill("def summe(betraege):\n    while True:\n        pass")
    # Stopp while Python still loads only cancels the waiting check (issue 17): loaded first.
    python_ready(page)
    task.root.get_by_role("button", name=CHECK).click()
    expect(task.root).to_have_attribute("data-state", "checking")
    task.root.get_by_role("button", name=re.compile(r"^Stopp: Übung \d+$")).click()
    expect(task.feedback).to_contain_text("Gestoppt")
    task.editor.fill("def summe(betraege):\n    return sum(betraege)")
    task.root.get_by_role("button", name=CHECK).click()
    expect(task.root).to_have_attribute("data-solved", "true")


def test_an_endless_loop_in_a_predictions_run_can_be_stopped(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = Exercise.by_id(page, "erste-vorhersage")
    target.answer.fill("(3, 'b-3')")
    target.answer.press("Enter")
    expect(target.editor).to_be_visible()
    target.editor.fill("while True:\n    pass")
    run_code = target.root.get_by_role("button", name=re.compile(r"^Code von Übung \d+ ausführen$"))
    run_code.click()
    stop = target.root.get_by_role("button", name=re.compile(r"^Stopp: Code von Übung \d+$"))
    expect(stop).to_be_enabled()
    stop.click()
    output = target.root.locator("output.lk-output")
    status = target.root.locator(".lk-exercise__bar [role=status]")
    expect(output).to_contain_text("Gestoppt")
    expect(status).to_have_text("Gestoppt")
    target.editor.fill("print('wieder da')")
    run_code.click()
    expect(output).to_have_text("wieder da\n")
    # As in a cell, the status is the run's one live region; the output is not announced too.
    expect(status).to_have_text("Fertig")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(output).to_have_attribute("aria-live", "off")


def test_os_exit_ends_only_the_cell_and_python_stays(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    target.run_code("x = 7", "done")
    target.run_code("import os\nos._exit(0)", "error")
    expect(target.error).to_contain_text("os._exit() beendet hier nicht Python")
    target.run_code("print(x)", "done")  # the same Python: x is still there
    expect(target.output).to_have_text("7\n")


@pytest.mark.parametrize("code", ["__builtins__.clear()"])
def test_python_that_dies_under_a_cell_restarts_with_a_notice(
    page: Page, site_url: str, code: str
) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    target.editor().fill(code)
    target.start()
    expect(target.root).to_have_attribute("data-state", "error")
    expect(target.output).to_contain_text("abgestürzt")
    expect(python_bar(page)).to_contain_text("abgestürzt und wurde neu gestartet")
    target.run_code("print('wieder da')", "done")
    expect(target.output).to_have_text("wieder da\n")


def test_python_neu_starten_repairs_what_the_readers_code_broke(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    target.run_code("import builtins\ndel builtins.print", "done")
    target.run_code("print('hallo')", "error")
    expect(target.error).to_contain_text("NameError")
    python_bar(page).get_by_role("button", name="Python neu starten").click()
    expect(python_bar(page)).to_contain_text("Python wurde neu gestartet.")
    target.run("done")
    expect(target.output).to_have_text("hallo\n")


# --- Item 4: background tasks belong to their cell and end with the page ---------------

TICKER = """import asyncio, sys
sys.lk_ticks = 0
async def ticker():
    while True:
        sys.lk_ticks += 1
        print("tick")
        await asyncio.sleep(0.05)
aufgabe = asyncio.create_task(ticker())
await asyncio.sleep(0)"""


def test_a_background_task_writes_into_its_own_cell_and_ends_with_the_page(
    page: Page, site_url: str
) -> None:
    page.goto(site_url)
    page.evaluate("window.sameDocument = true")
    go(page, "Erste Schritte", 2)
    # As if an author had published these: a worker that ran the reader's own code
    # is replaced on the next page (test_pasted_code.py), this one must survive it.
    waiting = "import asyncio\nawait asyncio.sleep(0.5)\nprint('fertig')"
    for code in (TICKER, waiting):
        page.evaluate("(code) => window.lessonkit.runtime.publish(code)", code)
    owner, other = Cell.number(page, 6), Cell.number(page, 5)
    owner.run_code(TICKER, "done")
    other.run_code(waiting, "done")
    expect(other.output).to_have_text("fertig\n")  # no tick of the other cell
    expect(owner.output).to_contain_text("tick\ntick\ntick\n")
    go(page, re.compile("Queues und Idempotenz"), 3)
    assert page.evaluate("window.sameDocument") is True  # Python survived the page change
    code = "import asyncio, sys\nn = sys.lk_ticks\nawait asyncio.sleep(0.3)\nsys.lk_ticks - n"
    assert python_value(page, code) == "0"
