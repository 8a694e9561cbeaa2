"""Lektion 3 in headless Chromium: asyncio, das Event-Loop-Modell und die Übungen, wie ein Leser."""

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
    target = cell_with(page, "abfrage(n) for n in namen")
    run(target)
    expect(target).to_have_attribute("data-state", "done")
    expect(target.locator(".lk-output__text")).to_have_text(
        "nacheinander ≥ 3 Wartezeiten: True\ngleichzeitig < 2 Wartezeiten: True\n"
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
