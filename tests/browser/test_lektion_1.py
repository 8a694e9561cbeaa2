"""Lesson 1 (Teil 1 and Teil 2) on the built site, walked through like a reader would."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

TEIL_1 = "lektionen/queues-und-idempotenz/"
TEIL_2 = "lektionen/outbox-dlq-pubsub/"

#: Übung 3 with effect before check: a caught IntegrityError commits the effect.
FALSCHE_REIHENFOLGE = """import sqlite3


def verarbeite(con, msg):
    body = msg["body"]
    with con:
        con.execute(
            "UPDATE punkte SET stand = stand + ? WHERE kunde = ?",
            (body["punkte"], body["kunde"]),
        )
        con.execute(
            "INSERT INTO mails (kunde, text) VALUES (?, ?)",
            (body["kunde"], "Punkte gutgeschrieben"),
        )
        try:
            con.execute(
                "INSERT INTO gesehen (event_id) VALUES (?)",
                (body["event_id"],),
            )
        except sqlite3.IntegrityError:
            return False
        return True
"""

LOESUNG = """import sqlite3


def verarbeite(con, msg):
    body = msg["body"]
    with con:
        try:
            con.execute(
                "INSERT INTO gesehen (event_id) VALUES (?)",
                (body["event_id"],),
            )
        except sqlite3.IntegrityError:
            return False
        con.execute(
            "UPDATE punkte SET stand = stand + ? WHERE kunde = ?",
            (body["punkte"], body["kunde"]),
        )
        con.execute(
            "INSERT INTO mails (kunde, text) VALUES (?, ?)",
            (body["kunde"], "Punkte gutgeschrieben"),
        )
        return True
"""


def cell_with(page: Page, text: str) -> Locator:
    """The visible cell whose code contains ``text``."""
    return page.locator("[data-lk-cell]:not([hidden])").filter(has_text=text).first


def run(target: Locator) -> None:
    target.scroll_into_view_if_needed()
    target.get_by_role("button", name=re.compile("ausführen$")).click()
    expect(target).to_have_attribute("data-state", re.compile("done|error"))


def command(target: Locator, box: Locator, line: str) -> Locator:
    """Type ``line`` into a console and return the entry it produced."""
    entries = target.locator(".lk-console__entry")
    count = entries.count()
    box.fill(line)
    box.press("Enter")
    expect(entries).to_have_count(count + 1)
    return entries.last


def exercise(page: Page, exercise_id: str) -> Locator:
    return page.locator(f"#{exercise_id}")


def check(target: Locator) -> Locator:
    target.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    feedback = target.locator(".lk-feedback")
    expect(feedback).to_be_visible()
    return feedback


def test_fake_netz_shows_loss_duplicate_and_reordering(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_1)
    netz = cell_with(page, "FakeNetz(seed=300)")
    netz.locator("output").evaluate("node => node.replaceChildren()")  # forget the build's
    run(netz)
    expect(netz).to_have_attribute("data-state", "done")
    expect(netz.locator(".lk-output__value")).to_have_text(
        "['bestellung-1', 'bestellung-4', 'bestellung-3', 'bestellung-3', 'bestellung-5']"
    )


def test_idempotent_consumer_cell_books_once(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_1)
    naiv = cell_with(page, "buche(msg)  # dieselbe Nachricht")
    run(naiv)
    expect(naiv.locator(".lk-output__value")).to_have_text("40")
    idempotent = cell_with(page, "erstes, zweites = buche(msg), buche(msg)")
    run(idempotent)
    expect(idempotent.locator("output")).to_have_text("True False 70\n")
    falsch = cell_with(page, "buche_falsch(msg), buche_falsch(msg)")
    run(falsch)
    expect(falsch.locator("output")).to_have_text("True False 40\n")


def test_late_ack_with_receipt_handle_changes_nothing(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_1)
    beleg = cell_with(page, 'spaet = q.ack(a["id"], versuch=a["versuche"])')
    run(beleg)
    expect(beleg.locator("output")).to_have_text("Ack von A: False | offen: 1\nAck von C: True\n")


def test_queue_console_makes_the_message_visible_again(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_1)
    queue = page.locator("[data-lk-console][data-kind=queue]").first
    box = queue.get_by_label("Befehl für Konsole", exact=False)
    entry = command(queue, box, "tick 1")
    expect(entry).to_contain_text("t=3: Nachricht 1 wieder sichtbar (kein ack).")
    entry = command(queue, box, "receive as C")
    expect(entry).to_contain_text("C bekommt Nachricht 1 „zahlung-1“ (Versuch 2).")
    expect(queue.locator(".lk-console__picture svg")).to_contain_text("C")
    entry = command(queue, box, "ack 1 as A")  # A is finally done: an old delivery
    expect(entry).to_contain_text("Das ack ist veraltet")
    entry = command(queue, box, "ack 1 as C")
    expect(entry).to_contain_text("Nachricht 1 bestätigt und gelöscht.")
    entry = command(queue, box, "ack 1")
    expect(entry).to_contain_text("schon bestätigt")


def test_uebung_1_prediction(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_1)
    target = exercise(page, "zeitfenster-vorhersagen")
    answer = target.get_by_label("Deine Vorhersage")
    answer.fill("(1, 2, 0)")
    expect(check(target)).to_contain_text("der erste Wert ist 2, nicht 1")
    answer.fill("(2, 2, 0)")
    expect(check(target)).to_contain_text("Richtig")
    expect(target).to_have_attribute("data-solved", "true")


def test_uebung_3_wrong_order_fails_and_solution_passes(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_1)
    target = exercise(page, "treuepunkte-neue-id")
    target.scroll_into_view_if_needed()
    editor = target.locator(".cm-content")
    editor.fill(FALSCHE_REIHENFOLGE)
    expect(check(target)).to_have_text("✗ 6 von 8 Prüfungen bestanden.")
    failed = target.locator(".lk-check--failed")
    expect(failed).to_have_count(2)
    expect(failed.last).to_contain_text("Der Shop sendet neu")
    expect(failed.last).to_contain_text("anna hat 200 Punkte und 2 Mails")
    editor.fill(LOESUNG)
    expect(check(target)).to_have_text("✓ Gelöst: alle 8 Prüfungen bestanden.")
    expect(target).to_have_attribute("data-solved", "true")


def test_uebung_4_diagnosis(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_1)
    log = cell_with(page, "q = lauf(dauer=4)")
    run(log)
    expect(log.locator("output")).to_contain_text("t=10 W1: zahlung-1 belastet, ack -> False")
    quiz = exercise(page, "diagnose-doppelt")
    quiz.scroll_into_view_if_needed()
    quiz.get_by_label("Die Arbeit dauert 4 Ticks, das Zeitfenster nur 3.").check()
    expect(check(quiz)).to_contain_text("Noch nicht")
    quiz.get_by_label("Die Worker sind nicht idempotent.").check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")


def test_teil_2_dlq_console_and_console_task(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_2)
    queue = page.locator("[data-lk-console][data-kind=queue]").first
    box = queue.get_by_label("Befehl für Konsole", exact=False)
    command(queue, box, "tick 3")
    expect(command(queue, box, "receive as B")).to_contain_text("(Versuch 2)")
    expect(command(queue, box, "tick 3")).to_contain_text("Nachricht 1 → Dead Letter Queue")
    expect(command(queue, box, "status")).to_contain_text("Dead Letter Queue: 1")

    task = exercise(page, "gift-in-die-dlq")
    task.scroll_into_view_if_needed()
    expect(check(task)).to_contain_text("0 von 3")
    task_box = task.get_by_label("Befehl für Übung 3")
    for line in ("receive as A", "ack 1", "receive as B", "receive as C", "ack 3", "tick 3"):
        command(task, task_box, line)
    expect(command(task, task_box, "receive as D")).to_contain_text("(Versuch 2)")
    command(task, task_box, "tick 3")
    expect(check(task)).to_have_text("✓ Gelöst: der Zustand stimmt.")
    expect(task).to_have_attribute("data-solved", "true")


def test_teil_2_relay_start_code_loses_an_event(page: Page, site_url: str) -> None:
    page.goto(site_url + TEIL_2)
    target = exercise(page, "relay-bauen")
    target.scroll_into_view_if_needed()
    expect(check(target)).to_have_text("✗ 3 von 4 Prüfungen bestanden.")
    expect(target.locator(".lk-check--failed")).to_contain_text("Verloren: [2]")
