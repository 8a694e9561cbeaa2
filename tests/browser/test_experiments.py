"""A reader's experiments lose nothing and freeze nothing (issue 15, items 1-4).

Each test reproduces what a curious reader did: change a cell and go on, stop an
endless loop while a console holds state, break Python, start background tasks.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.test_cells import FIRST_STEPS, cell, editor
from tests.browser.test_consoles import command, console
from tests.browser.test_exercises import exercise
from tests.browser.test_navigation import go, python_value

pytestmark = pytest.mark.browser

LESSON_3 = "lektionen/eda-eventloop-actors-cqrs/"


def shown_cell(page: Page, text: str) -> Locator:
    """The visible cell whose code contains `text`."""
    return page.locator("[data-lk-cell]:not([hidden])").filter(has_text=text).first


def start(target: Locator) -> None:
    target.get_by_role("button", name=re.compile("ausführen$")).click()


def run_to_end(target: Locator, state: str = "done") -> None:
    start(target)
    expect(target).to_have_attribute("data-state", state)


def original_code(target: Locator) -> str:
    data = target.locator(".lk-cell__data").get_attribute("data-lk-json") or "{}"
    return str(json.loads(data)["code"])


def python_bar(page: Page) -> Locator:
    return page.locator("[data-lk-python-bar]")


# --- Item 1: hidden checks of the prose never block the reader -----------------------


def test_a_changed_cell_is_told_kindly_and_the_next_cell_still_runs(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + LESSON_3)
    changed = shown_cell(page, "def erhoehe_direkt")
    following = shown_cell(page, "class ZaehlerActor")
    code = original_code(changed)
    without_gap = "\n".join(line for line in code.splitlines() if "asyncio.sleep(0)" not in line)
    assert without_gap != code
    editor(changed).fill(without_gap)
    run_to_end(changed)
    expect(changed.locator(".lk-output__value")).to_have_text("200")  # no lost update now
    run_to_end(following)  # the hidden check of "100" fails, and stops nothing
    expect(following.locator("output")).to_contain_text("nach erhoehen: 1")
    expect(changed.locator("output")).to_contain_text(
        "Dein geänderter Code ergibt etwas anderes, als der Text beschreibt"
    )


# --- Item 2: Stopp keeps what the reader did in a console ----------------------------


def test_stopp_elsewhere_keeps_the_consoles_state_and_says_so(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    log = console(page)
    command(page, log, "create topic experiment partitions 1")
    target = cell(page, 6)
    editor(target).fill("while True:\n    pass")
    start(target)
    expect(target).to_have_attribute("data-state", "running")
    target.get_by_role("button", name="Stopp").click()
    expect(target).to_have_attribute("data-state", "stopped")
    command(page, log, "topics")
    expect(log.locator(".lk-console__entry").last).to_contain_text("experiment")
    expect(log.locator(".lk-console__note").last).to_contain_text("Befehl lief noch einmal")


# --- Item 3: no dead ends --------------------------------------------------------------


def test_an_endless_loop_in_a_code_task_can_be_stopped(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = exercise(page, "erste-aufgabe")
    task.scroll_into_view_if_needed()
    task.locator(".cm-content").fill("def summe(betraege):\n    while True:\n        pass")
    # Stopp while Python still loads only cancels the waiting check (issue 17): loaded first.
    page.wait_for_function("() => window.lessonkit.runtime.state === 'ready'")
    task.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    expect(task).to_have_attribute("data-state", "checking")
    task.get_by_role("button", name=re.compile(r"^Stopp: Übung \d+$")).click()
    expect(task.locator(".lk-feedback")).to_contain_text("Gestoppt")
    task.locator(".cm-content").fill("def summe(betraege):\n    return sum(betraege)")
    task.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    expect(task).to_have_attribute("data-solved", "true")


def test_an_endless_loop_in_a_predictions_run_can_be_stopped(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = exercise(page, "erste-vorhersage")
    target.get_by_label("Deine Vorhersage").fill("(3, 'b-3')")
    target.get_by_label("Deine Vorhersage").press("Enter")
    expect(target.locator(".cm-content")).to_be_visible()
    target.locator(".cm-content").fill("while True:\n    pass")
    target.get_by_role("button", name=re.compile(r"^Code von Übung \d+ ausführen$")).click()
    stop = target.get_by_role("button", name=re.compile(r"^Stopp: Code von Übung \d+$"))
    expect(stop).to_be_enabled()
    stop.click()
    expect(target.locator("output.lk-output")).to_contain_text("Gestoppt")
    target.locator(".cm-content").fill("print('wieder da')")
    target.get_by_role("button", name=re.compile(r"^Code von Übung \d+ ausführen$")).click()
    expect(target.locator("output.lk-output")).to_have_text("wieder da\n")


@pytest.mark.parametrize("code", ["import os\nos._exit(0)", "__builtins__.clear()"])
def test_python_that_dies_under_a_cell_restarts_with_a_notice(
    page: Page, site_url: str, code: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = cell(page, 6)
    editor(target).fill(code)
    start(target)
    expect(target).to_have_attribute("data-state", "error")
    expect(target.locator("output")).to_contain_text("abgestürzt")
    expect(python_bar(page)).to_contain_text("abgestürzt und wurde neu gestartet")
    editor(target).fill("print('wieder da')")
    run_to_end(target)
    expect(target.locator("output")).to_have_text("wieder da\n")


def test_python_neu_starten_repairs_what_the_readers_code_broke(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = cell(page, 6)
    editor(target).fill("import builtins\ndel builtins.print")
    run_to_end(target)
    editor(target).fill("print('hallo')")
    run_to_end(target, "error")
    expect(target.locator(".lk-output__error")).to_contain_text("NameError")
    python_bar(page).get_by_role("button", name="Python neu starten").click()
    expect(python_bar(page)).to_contain_text("Python wurde neu gestartet.")
    run_to_end(target)
    expect(target.locator("output")).to_have_text("hallo\n")


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
    owner, other = cell(page, 6), cell(page, 5)
    editor(owner).fill(TICKER)
    run_to_end(owner)
    editor(other).fill("import asyncio\nawait asyncio.sleep(0.5)\nprint('fertig')")
    run_to_end(other)
    expect(other.locator("output")).to_have_text("fertig\n")  # no tick of the other cell
    expect(owner.locator("output")).to_contain_text("tick\ntick\ntick\n")
    go(page, re.compile("Queues und Idempotenz"), 3)
    assert page.evaluate("window.sameDocument") is True  # Python survived the page change
    code = "import asyncio, sys\nn = sys.lk_ticks\nawait asyncio.sleep(0.3)\nsys.lk_ticks - n"
    assert python_value(page, code) == "0"
