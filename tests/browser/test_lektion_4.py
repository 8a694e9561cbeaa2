"""Lektion 4 in headless Chromium: der Broker, CQRS, Event Sourcing und die Übungen, wie ein Leser.

Die Seite beginnt mit leeren Namensräumen: Jede Zelle hier läuft ohne etwas aus Lektion 3.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_4, Cell, Exercise, run_cell_live, ts_output

pytestmark = pytest.mark.browser


def test_in_process_bus_twin(page: Page, site_url: str) -> None:
    """Python and Node.js agree: in one process the read model is current right after emit."""
    expected = "direkt nach emit: 100\ndirekt nach emit: 70\naus dem Verlauf: 70\n"
    python = run_cell_live(page, site_url + LESSON_4, "hoerer += [verlauf.append, projiziere]")
    expect(python.text).to_have_text(expected)
    node = ts_output(page, 'import { EventEmitter } from "node:events"')
    expect(node).to_have_text(
        re.compile(r"direkt nach emit: 100\s+direkt nach emit: 70\s+aus dem Verlauf: 70\s*$")
    )


def test_broker_and_read_your_writes_run_in_the_browser(page: Page, site_url: str) -> None:
    broker = run_cell_live(page, site_url + LESSON_4, "ausfall = range(3, 7)")
    expect(broker.text).to_contain_text("t=7: Benachrichtigung liest 8, Lag 0")

    lesen = Cell.only_one_with(page, "def lies_mindestens(")
    lesen.run_live("done")  # the write side, the projector and the payment run first
    expect(lesen.text).to_have_text("nach 3 Wartezeiten: ('Alice', 42, 'bezahlt', 2)\n")


def test_optimistic_concurrency_in_the_browser(page: Page, site_url: str) -> None:
    # the event store and the command handlers of Schritt 3 run first
    konflikt = run_cell_live(page, site_url + LESSON_4, "v_b = store.version")
    text = konflikt.text
    expect(text).to_contain_text("A schreibt: Stand 10")
    expect(text).to_contain_text("erwartet war Version 2, der Stream steht aber bei Version 3")


def test_transfer_exercise(page: Page, site_url: str) -> None:
    """Two streams: the debit carries the version and comes first, the deposit checks nothing."""
    page.goto(site_url + LESSON_4)
    aufgabe = Exercise.by_id(page, "ueberweisung")
    aufgabe.check()  # the start code writes both without any check
    expect(aufgabe.feedback).to_have_text("✗ 2 von 4 Prüfungen bestanden.")
    aufgabe.editor.fill(
        "def ueberweise(store, von, an, betrag):\n"
        "    version = store.version(von)\n"
        "    if betrag > store.zustand(von, kontostand):\n"
        '        raise ValueError("nicht gedeckt")\n'
        '    aus = {"typ": "auszahlung", "betrag": betrag}\n'
        "    store.append(von, [aus], expected_version=version)\n"
        '    store.append(an, [{"typ": "einzahlung", "betrag": betrag}])\n'
    )
    aufgabe.check_solved("✓ Gelöst: alle 4 Prüfungen bestanden.")
