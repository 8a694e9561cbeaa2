"""Lektion 3 in headless Chromium: asyncio, das Event-Loop-Modell, Actors und die Übungen, wie ein Leser."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_3, Cell, Exercise, run_cell_live, ts_output

pytestmark = pytest.mark.browser


def test_event_loop_modell_im_browser(page: Page, site_url: str) -> None:
    # die Zellen davor (Import von EventLoop) laufen automatisch mit
    klassiker = run_cell_live(page, site_url + LESSON_3, 'loop.promise_then(lambda: loop.log("C"))')
    expect(klassiker.value).to_have_text("['A', 'D', 'C', 'B']")

    blockiert = Cell.only_one_with(page, "loop.busy(50)")
    blockiert.run_live()
    svg = blockiert.svg
    expect(svg).to_be_visible()
    expect(svg.locator("title")).to_contain_text("Timer: zu spät")
    expect(svg).to_contain_text("+40 ms")


def test_actor_aufgabe(page: Page, site_url: str) -> None:
    """Check and book in two messages oversells; one message the actor decides on does not."""
    page.goto(site_url + LESSON_3)
    aufgabe = Exercise.by_id(page, "ausverkauft")
    aufgabe.check()  # the start code sells five of three
    expect(aufgabe.feedback).to_have_text("✗ 1 von 3 Prüfungen bestanden.")
    expect(aufgabe.failed_checks.first).to_contain_text("5-mal „gekauft“")
    editor = aufgabe.editor
    code = editor.inner_text()
    alt_lager = (
        '        if art == "bestand":\n'
        "            return self._bestand\n"
        '        if art == "abbuchen":\n'
    )
    alt_kauf = (
        '    frei = await lager.frage("bestand")\n'
        "    if frei < 1:\n"
        '        return f"{kundin}: ausverkauft"\n'
        '    await lager.frage("abbuchen", 1)\n'
        '    return f"{kundin}: gekauft"\n'
    )
    assert alt_lager in code and alt_kauf in code
    neu_lager = (
        '        if art == "abbuchen":\n'
        "            if self._bestand < menge:\n"
        "                return False\n"
    )
    neu_kauf = (
        '    if await lager.frage("abbuchen", 1):\n'
        '        return f"{kundin}: gekauft"\n'
        '    return f"{kundin}: ausverkauft"\n'
    )
    gebucht = "            self._bestand -= menge\n            return self._bestand\n"
    assert gebucht in code
    neu = code.replace(alt_lager, neu_lager).replace(alt_kauf, neu_kauf)
    neu = neu.replace(gebucht, "            self._bestand -= menge\n            return True\n")
    editor.fill(neu)
    aufgabe.check_solved("✓ Gelöst: alle 3 Prüfungen bestanden.")


def test_typescript_blocks_show_what_the_prose_claims(page: Page, site_url: str) -> None:
    """The prose builds on these Node.js outputs; a Node.js that behaves otherwise fails here."""
    page.goto(site_url + LESSON_3)
    # An ES module runs its promise microtasks before process.nextTick; inside a timer not.
    esm = ts_output(page, 'process.nextTick(() => console.log("nextTick"))')
    expect(esm).to_have_text(re.compile(r"Node\.js\s*sync\s+promise\s+nextTick\s*$"))
    timer = ts_output(page, 'console.log("Timer: nextTick")')
    expect(timer).to_have_text(re.compile(r"Timer: sync\s+Timer: nextTick\s+Timer: promise"))
    # Node.js keeps one list of timers per delay: L2 (100 ms) before M1, though M1 was due first.
    listen = ts_output(page, 'setTimeout(() => console.log("L2"), 100)')
    expect(listen).to_have_text(re.compile(r"Node\.js\s*L1\s+L2\s+M1\s*$"))
    ack = ts_output(page, "falsch: Ack, bevor gespeichert ist")
    expect(ack).to_have_text(re.compile(r"m-1 bestätigt\s+m-1 gespeichert"))
    diagnose = ts_output(page, "Sein Absturz ist echt")
    expect(diagnose).to_contain_text("m-19 bestätigt")
    expect(diagnose).to_contain_text("m-17 gespeichert")
    expect(diagnose).not_to_contain_text("m-19 gespeichert")
    expect(diagnose).to_contain_text("Exit-Code: 1")


def test_supervisor_runs_in_the_browser(page: Page, site_url: str) -> None:
    supervisor = run_cell_live(page, site_url + LESSON_3, "async def durchlauf(postfach_bleibt)")
    expect(supervisor.text).to_contain_text("c: Stand 1")
    expect(supervisor.text).to_contain_text("verloren: ['c']")
