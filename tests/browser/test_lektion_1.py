"""Lesson 1 (Teil 1 and Teil 2) on the built site, walked through like a reader would."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_1, LESSON_1_PART_2, Cell, Console, Exercise

pytestmark = pytest.mark.browser

#: Übung 3's function up to its transaction; the two answers below differ only in order.
KOPF = """import sqlite3


def verarbeite(con, msg):
    body = msg["body"]
    with con:
"""
#: The effects: points and a mail.
WIRKUNG = """        con.execute(
            "UPDATE punkte SET stand = stand + ? WHERE kunde = ?",
            (body["punkte"], body["kunde"]),
        )
        con.execute(
            "INSERT INTO mails (kunde, text) VALUES (?, ?)",
            (body["kunde"], "Punkte gutgeschrieben"),
        )
"""
#: The check: the payment's id is remembered once; a second time it raises.
MERKEN = """        try:
            con.execute(
                "INSERT INTO gesehen (schluessel) VALUES (?)",
                (body["zahlung_id"],),
            )
        except sqlite3.IntegrityError:
            return False
"""
ENDE = "        return True\n"

#: Effect before check: a caught IntegrityError commits the effect.
FALSCHE_REIHENFOLGE = KOPF + WIRKUNG + MERKEN + ENDE
LOESUNG = KOPF + MERKEN + WIRKUNG + ENDE


def test_idempotent_consumer_cell_books_once(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1)
    naiv = Cell.with_code(page, "buche(msg)  # dieselbe Nachricht")
    naiv.run()
    expect(naiv.value).to_have_text("40")
    idempotent = Cell.with_code(page, "erstes, zweites = buche(msg), buche(msg)")
    idempotent.run()
    expect(idempotent.output).to_have_text("True False 70\n")
    falsch = Cell.with_code(page, "buche_falsch(msg), buche_falsch(msg)")
    falsch.run()
    expect(falsch.output).to_have_text("True False 40\n")


def test_queue_console_makes_the_message_visible_again(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1)
    queue = Console.first(page, "queue")
    queue.expect_answer("tick 1", "t=3: Nachricht 1 wieder sichtbar (kein ack).")
    queue.expect_answer("receive as C", "C bekommt Nachricht 1 „zahlung-1“ (Versuch 2).")
    expect(queue.picture.locator("svg")).to_contain_text("C")
    queue.expect_answer("ack 1 as A", "Das ack ist veraltet")  # A is finally done: an old delivery
    queue.expect_answer("ack 1 as C", "Nachricht 1 bestätigt und gelöscht.")
    queue.expect_answer("ack 1", "schon bestätigt")


def test_uebung_3_wrong_order_fails_and_solution_passes(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1)
    target = Exercise.by_id(page, "treuepunkte-schluessel")
    target.root.scroll_into_view_if_needed()
    target.editor.fill(FALSCHE_REIHENFOLGE)
    expect(target.check()).to_have_text("✗ 6 von 8 Prüfungen bestanden.")
    failed = target.failed_checks
    expect(failed).to_have_count(2)
    expect(failed.last).to_contain_text("Der Shop sendet dieselbe Zahlung")
    expect(failed.last).to_contain_text("Stand und Mails = (200, 2)")
    target.editor.fill(LOESUNG)
    target.check_solved("✓ Gelöst: alle 8 Prüfungen bestanden.")


def test_uebung_4_log_shows_the_double_charge(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1)
    log = Cell.with_code(page, "q = lauf(dauer=4)")
    log.run()
    expect(log.output).to_contain_text("t=10 W1: zahlung-1 belastet, ack -> False")


def test_teil_2_dlq_console_and_console_task(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1_PART_2)
    queue = Console.first(page, "queue")
    queue.command("tick 3")
    queue.expect_answer("receive as B", "(Versuch 2)")
    queue.expect_answer("tick 3", "Nachricht 1 → Dead Letter Queue")
    queue.expect_answer("status", "Dead Letter Queue: 1")

    task = Exercise.by_id(page, "gift-in-die-dlq")
    task.root.scroll_into_view_if_needed()
    expect(task.check()).to_contain_text("0 von 3")
    task.type("receive as A", "ack 1", "receive as B", "receive as C", "ack 3", "tick 3")
    task.console.expect_answer("receive as D", "(Versuch 2)")
    task.type("tick 3")
    task.check_solved("✓ Gelöst: der Zustand stimmt.")


def test_teil_2_relay_start_code_loses_an_event(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1_PART_2)
    target = Exercise.by_id(page, "relay-bauen")
    target.root.scroll_into_view_if_needed()
    expect(target.check()).to_have_text("✗ 3 von 4 Prüfungen bestanden.")
    expect(target.failed_checks).to_contain_text("Verloren: [2]")


def test_teil_2_batch_relay_resends_the_whole_batch(page: Page, site_url: str) -> None:
    prediction = Exercise.opened(page, site_url + LESSON_1_PART_2 + "#relay-stapel")
    prediction.predict_wrong_then_right(
        "(4, [1, 2, 2, 3])", "(5, [1, 2, 1, 2, 3])", says="Keiner der 2 Werte stimmt."
    )


def test_teil_2_dlq_quiz_decides_per_message(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1_PART_2)
    nacht = Cell.with_code(page, "KURS = {")
    nacht.run()
    expect(nacht.output).to_contain_text("63 KeyError: 'CHF'")
    quiz = Exercise.by_id(page, "dlq-entscheiden")
    quiz.root.scroll_into_view_if_needed()
    quiz.choose_wrong(re.compile("Keine Eile"))
    expect(quiz.root.get_by_text(re.compile("Am Donnerstagabend"))).to_be_visible()
    quiz.untick(re.compile("Keine Eile"))
    quiz.choose_right(re.compile("63 und 64 zurückschicken"), re.compile("62 nicht unverändert"))


def test_teil_2_two_relays_send_the_rows_both_read(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_1_PART_2)
    nacht = Cell.with_code(page, 'sende(con, "B", b[1])')
    nacht.run_live()
    expect(nacht.output).to_contain_text("B liest 2 offene Zeilen")
    expect(nacht.output).to_contain_text("Queue: [61, 62, 62, 63, 63]")
    quiz = Exercise.by_id(page, "zwei-relays")
    quiz.root.scroll_into_view_if_needed()
    quiz.choose_wrong(re.compile("Der Relay vermerkt eine Zeile"))
    quiz.untick(re.compile("Der Relay vermerkt eine Zeile"))
    quiz.choose_right(
        re.compile("B hat gelesen"), re.compile("Jeder Relay sperrt"), re.compile("Der Consumer")
    )
