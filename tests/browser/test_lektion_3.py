"""Lektion 3 in headless Chromium: asyncio, das Event-Loop-Modell, Actors und die Übungen, wie ein Leser."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

LEKTION = "lektionen/eda-eventloop-actors-cqrs/"


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


def test_asyncio_wartet_gleichzeitig(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    target = cell_with(page, "abfrage(n, gleichzeitig) for n in namen")
    run(target)
    expect(target).to_have_attribute("data-state", "done")
    expect(target.locator(".lk-output__text")).to_have_text(
        "nacheinander: +kunde -kunde +warenkorb -warenkorb +lager -lager\n"
        "gleichzeitig: +kunde +warenkorb +lager -kunde -warenkorb -lager\n"
    )


def test_event_loop_modell_im_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    klassiker = cell_with(page, 'loop.promise_then(lambda: loop.log("C"))')
    run(klassiker)  # die Zellen davor (Import von EventLoop) laufen automatisch mit
    expect(klassiker).to_have_attribute("data-state", "done")
    expect(klassiker.locator(".lk-output__value")).to_have_text("['A', 'D', 'C', 'B']")

    blockiert = cell_with(page, "loop.busy(50)")
    run(blockiert)
    svg = blockiert.locator(".lk-output__svg svg")
    expect(svg).to_be_visible()
    expect(svg.locator("title")).to_contain_text("Timer: zu spät")
    expect(svg).to_contain_text("+40 ms")


def test_blockierte_loop_in_echt(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    target = cell_with(page, "Rechenarbeit, kein await")
    run(target)
    expect(target.locator(".lk-output__text")).to_have_text(
        "Ticks während der Rechenarbeit: 0\ngrößte Lücke ≥ 0,3 s: True\n"
    )


def test_vorhersage_und_actor_aufgabe(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    vorhersage = page.locator("#then-kette")
    antwort = vorhersage.get_by_label("Deine Vorhersage")
    antwort.fill("['start', 'ende', 'then 1', 'then 2', 'microtask', 'timeout']")
    check(vorhersage)
    expect(vorhersage.locator(".lk-feedback")).to_contain_text("4 von 6 richtig")
    antwort.fill("['start', 'ende', 'then 1', 'microtask', 'then 2', 'timeout']")
    check(vorhersage)
    expect(vorhersage).to_have_attribute("data-solved", "true")

    aufgabe = page.locator("#verlorene-updates")
    check(aufgabe)  # der Startcode verliert Updates
    expect(aufgabe.locator(".lk-feedback")).to_have_text("✗ 0 von 2 Prüfungen bestanden.")
    expect(aufgabe.locator(".lk-check--failed").first).to_contain_text("ergebnis ist 100")
    editor = aufgabe.locator(".cm-content")
    code = editor.inner_text()
    alt = (
        "        alt = zaehler.wert  # am Postfach vorbei!\n"
        "        await asyncio.sleep(0)\n"
        "        zaehler.wert = alt + 1\n"
    )
    assert alt in code
    editor.fill(code.replace(alt, "        await zaehler.erhoehen()\n"))
    check(aufgabe)
    expect(aufgabe.locator(".lk-feedback")).to_have_text("✓ Gelöst: alle 2 Prüfungen bestanden.")


def ts_output(page: Page, text: str) -> Locator:
    """The Node.js output of the one TypeScript block whose code contains ``text``."""
    blocks = page.locator("[data-lk-ts]").filter(has_text=text)
    expect(blocks).to_have_count(1)
    return blocks.first.locator("output")


def test_typescript_blocks_show_what_the_prose_claims(page: Page, site_url: str) -> None:
    """The prose builds on these Node.js outputs; a Node.js that behaves otherwise fails here."""
    page.goto(site_url + LEKTION)
    # An ES module runs its promise microtasks before process.nextTick; inside a timer not.
    esm = ts_output(page, 'process.nextTick(() => console.log("nextTick"))')
    expect(esm).to_have_text(re.compile(r"Node\.js\s*sync\s+promise\s+nextTick\s*$"))
    timer = ts_output(page, 'console.log("Timer: nextTick")')
    expect(timer).to_have_text(re.compile(r"Timer: sync\s+Timer: nextTick\s+Timer: promise"))
    ack = ts_output(page, "falsch: Ack, bevor gespeichert ist")
    expect(ack).to_have_text(re.compile(r"m-1 bestätigt\s+m-1 gespeichert"))
    diagnose = ts_output(page, "Sein Absturz ist echt")
    expect(diagnose).to_contain_text("m-19 bestätigt")
    expect(diagnose).to_contain_text("m-17 gespeichert")
    expect(diagnose).not_to_contain_text("m-19 gespeichert")
    expect(diagnose).to_contain_text("Exit-Code: 1")


def test_supervisor_runs_in_the_browser(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    supervisor = cell_with(page, "async def durchlauf(postfach_bleibt)")
    run(supervisor)
    expect(supervisor).to_have_attribute("data-state", "done")
    expect(supervisor.locator(".lk-output__text")).to_contain_text("c: Stand 1")
    expect(supervisor.locator(".lk-output__text")).to_contain_text("verloren: ['c']")


def test_diagnosis_quiz(page: Page, site_url: str) -> None:
    page.goto(site_url + LEKTION)
    quiz = page.locator("#diagnose-consumer")
    quiz.get_by_label(re.compile("m-19 fehlt, weil")).check()
    quiz.get_by_label(re.compile("Die Datenbank hat auch")).check()
    check(quiz)
    expect(quiz.locator(".lk-feedback")).to_contain_text("Noch nicht")
    quiz.get_by_label(re.compile("Die Datenbank hat auch")).uncheck()
    quiz.get_by_label(re.compile("Nach einem Neustart stellt")).check()
    quiz.get_by_label(re.compile("Mit try")).check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")
