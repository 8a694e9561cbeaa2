"""Lesson 2 ("Ereignisströme") in the browser: read it, type commands, solve exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import LESSON_2, Console, Exercise

pytestmark = pytest.mark.browser


def test_page_shows_build_results_before_python(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    expect(page.locator("h1")).to_contain_text("Ereignisströme")
    # The hash cell: customer-7 -> 982 -> partition 1, computed at build time.
    expect(page.locator("[data-lk-cell]", has_text="schluessel = ")).to_contain_text("982 % 3 = 1")
    # The TypeScript twin: Node.js output, the late listener misses "Käse".
    page.locator(".tabbed-labels label", has_text="TypeScript").first.click()
    expect(page.locator("[data-lk-ts]")).to_contain_text("Zähler: Käse")
    expect(page.locator("[data-lk-ts]")).to_contain_text("Summe: Brot")
    expect(page.locator("[data-lk-ts]")).not_to_contain_text("Summe: Käse")
    # The first console: the topic picture and the transcript of its setup.
    first = Console.titled(page, "Konsole 1 ·")
    expect(first.picture.locator("svg title")).to_have_text("Topic „orders“ mit 3 Partitionen")
    expect(first.log).to_contain_text("Hash 982, 982 % 3 = 1")
    # Order lost between partitions: "shipped" is read before "placed".
    log = Console.titled(page, "Konsole 3 ·").log.text_content() or ""
    read = log.split("email-1 liest")[1]
    assert read.index('"shipped"') < read.index('{"order":61,"event":"placed"}')


def test_typed_commands_follow_the_story(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    first = Console.titled(page, "Konsole 1 ·")
    first.expect_answer(
        'produce orders key=order-61 {"order":61,"event":"paid"}', "→ Partition 1, Offset 1 (p1:1)"
    )
    entry = first.command("delete orders p1:0")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("nie verändert oder")

    # Konsole 5 continues the hidden Konsole 4 (session "gruppen").
    groups = Console.titled(page, "Konsole 5 ·")
    expect(groups.log).to_contain_text("email-1")
    groups.expect_answer("describe group billing", "RÜCKSTAND")
    idle = Console.titled(page, "Konsole 6 ·")
    idle.expect_answer("describe group warehouse", "Untätig in „orders“: warehouse-4")

    # Replay: from-beginning does not help, reset does.
    replay = Console.titled(page, "Konsole 13 ·")
    replay.expect_answer(
        "consume orders group billing from-beginning", "from-beginning zählt nicht"
    )
    replay.expect_answer("reset group analytics to latest", "p0: 2 → 2")
    expect(replay.picture.locator("svg")).to_contain_text("analytics")


def test_console_exercise_solved_by_typing(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    task = Exercise.by_id(page, "bestellung-61")
    expect(task.check()).to_contain_text("0 von 2")
    for event in ("placed", "paid", "shipped"):
        line = f'produce orders key=order-61 {{"order":61,"event":"{event}"}}'
        task.console.expect_answer(line, "→ Partition 1")
    task.check_solved()


def test_second_copy_needs_the_same_group(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    task = Exercise.by_id(page, "billing-2")
    task.type("consume orders group billing-2")
    task.check_fails("eigene Gruppe")
    task.root.get_by_role("button", name="Zurücksetzen").click()
    task.console.expect_answer(
        "consume orders group billing as billing-2", '{"order":65,"total":19.9}'
    )
    task.check_solved()


def test_rebalancing_before_after_and_zombie(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    # Before: billing-2 reads partition 2 and has read two records it has not stored.
    before = Console.titled(page, "Konsole 9 ·").picture.locator("svg")
    expect(before.locator(".ungespeichert")).to_have_count(2)
    expect(before).to_contain_text("billing · billing-2")
    # After: billing-2 is gone, billing-1 reads partition 2 and gets 62 and 65 again.
    after = Console.titled(page, "Konsole 10 ·")
    expect(after.log).to_contain_text("billing-2 hat 4 Ticks nicht")
    expect(after.picture.locator("svg .entfernt")).to_contain_text("billing-2: entfernt bei t=4")
    # The zombie's commit is refused, typed live too; the state stays as it was.
    zombie = Console.titled(page, "Konsole 11 ·")
    entry = zombie.command("commit orders group billing as billing-2")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("kann keine Position speichern")
    zombie.expect_answer("describe group billing", "Generation 3")


def test_stalled_member_exercise(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    task = Exercise.by_id(page, "haengt")
    task.type("consume orders group billing")
    task.check_fails("noch Mitglied")
    task.type("leave group billing billing-2")
    task.console.expect_answer("consume orders group billing", '{"order":65,"total":19.9}')
    task.check_solved()


def test_retry_by_seek_exercise(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    task = Exercise.by_id(page, "noch-ein-versuch")
    # Another consume reads on from the reading position: payment 3 does not come back.
    task.console.expect_answer("consume payments group billing no-commit", '{"payment":5')
    task.check_fails("liest als Nächstes p0:3")
    task.root.get_by_role("button", name="Zurücksetzen").click()
    task.console.expect_answer(
        "seek payments group billing partition 0 to 1", "billing-1: Leseposition p0 2 → 1."
    )
    task.check_solved()
