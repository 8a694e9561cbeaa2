"""Lektion 4 in headless Chromium: der Broker, CQRS, Event Sourcing und die Übungen, wie ein Leser.

Die Seite beginnt mit leeren Namensräumen: Jede Zelle hier läuft ohne etwas aus Lektion 3.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

LEKTION = "lektionen/eda-cqrs/"


def cell_with(page: Page, text: str) -> Locator:
    """Die sichtbare Zelle, deren Code ``text`` enthält (genau eine)."""
    cells = page.locator("[data-lk-cell]:not([hidden])").filter(has_text=text)
    expect(cells).to_have_count(1)
    return cells.first


def run(target: Locator) -> None:
    target.scroll_into_view_if_needed()
    target.locator("output").evaluate("node => node.replaceChildren()")  # die Build-Ausgabe weg
    target.get_by_role("button", name=re.compile("ausführen$")).click()
    expect(target).to_have_attribute("data-state", re.compile("done|error"))


def check(target: Locator) -> None:
    target.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    expect(target.locator(".lk-feedback")).to_be_visible()


def ts_output(page: Page, text: str) -> Locator:
    """The Node.js output of the one TypeScript block whose code contains ``text``."""
    blocks = page.locator("[data-lk-ts]").filter(has_text=text)
    expect(blocks).to_have_count(1)
    return blocks.first.locator("output")


def test_in_process_bus_twin(page: Page, site_url: str) -> None:
    """Python and Node.js agree: in one process the read model is current right after emit."""
    page.goto(site_url + LEKTION)
    expected = "direkt nach emit: 100\ndirekt nach emit: 70\naus dem Verlauf: 70\n"
    python = cell_with(page, "hoerer += [verlauf.append, projiziere]")
    run(python)
    expect(python).to_have_attribute("data-state", "done")
    expect(python.locator(".lk-output__text")).to_have_text(expected)
    node = ts_output(page, 'import { EventEmitter } from "node:events"')
    expect(node).to_have_text(
        re.compile(r"direkt nach emit: 100\s+direkt nach emit: 70\s+aus dem Verlauf: 70\s*$")
    )


def test_broker_and_read_your_writes_run_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    broker = cell_with(page, "ausfall = range(3, 7)")
    run(broker)
    expect(broker).to_have_attribute("data-state", "done")
    expect(broker.locator(".lk-output__text")).to_contain_text(
        "t=7: Benachrichtigung liest 8, Rückstand 0"
    )

    lesen = cell_with(page, "def lies_mindestens(")
    run(lesen)  # the write side, the projector and the payment run first
    expect(lesen).to_have_attribute("data-state", "done")
    expect(lesen.locator(".lk-output__text")).to_have_text(
        "nach 3 Wartezeiten: ('Alice', 42, 'bezahlt', 2)\n"
    )


def test_optimistic_concurrency_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    konflikt = cell_with(page, "v_b = store.version")
    run(konflikt)  # the event store and the command handlers of Schritt 3 run first
    expect(konflikt).to_have_attribute("data-state", "done")
    text = konflikt.locator(".lk-output__text")
    expect(text).to_contain_text("A schreibt: Stand 10")
    expect(text).to_contain_text("erwartet war Version 2, der Stream steht aber bei Version 3")


def test_command_handler_exercise(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    aufgabe = page.locator("#command-handler")
    check(aufgabe)  # the start code writes without checking
    expect(aufgabe.locator(".lk-feedback")).to_have_text("✗ 1 von 3 Prüfungen bestanden.")
    aufgabe.locator(".cm-content").fill(
        "def abheben(store, konto, betrag):\n"
        "    version = store.version(konto)\n"
        "    stand = store.zustand(konto, kontostand)\n"
        "    if betrag > stand:\n"
        '        raise ValueError("nicht gedeckt")\n'
        '    ev = {"typ": "auszahlung", "betrag": betrag}\n'
        "    return store.append(konto, [ev], expected_version=version)\n"
    )
    check(aufgabe)
    expect(aufgabe.locator(".lk-feedback")).to_have_text("✓ Gelöst: alle 3 Prüfungen bestanden.")


def test_projector_diagnosis(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    nacht = cell_with(page, "projektor(absturz_bei_aufruf(merke, 2))")
    run(nacht)
    expect(nacht).to_have_attribute("data-state", "done")
    expect(nacht.locator(".lk-output__text")).to_have_text(
        "Position 1: Alice +42\n"
        "Position 2: Bob +15\n"
        "Absturz, gemerkt ist Position 1\n"
        "Position 2: Bob +15\n"
        "Position 3: Bob +8\n"
        "Lesemodell: [('Alice', 42), ('Bob', 38)]\n"
    )

    quiz = page.locator("#diagnose-projektor")
    quiz.get_by_label(re.compile("Der Projektor hat Bobs Bestellung")).check()
    quiz.get_by_label(re.compile("Das Lesemodell hinkt nur")).check()
    check(quiz)
    expect(quiz.locator(".lk-feedback")).to_contain_text("Noch nicht")
    quiz.get_by_label(re.compile("Das Lesemodell hinkt nur")).uncheck()
    quiz.get_by_label(re.compile("Schreibt der Projektor die Position")).check()
    quiz.get_by_label(re.compile("Der Projektor aus Schritt 2")).check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")
