"""Lesson 2 ("Ereignisströme", three pages) in the browser: read it, type commands, solve exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import (
    LESSON_2,
    LESSON_2_OUTAGES,
    LESSON_2_PART_3,
    Console,
    Exercise,
    phone_page,
)

pytestmark = pytest.mark.browser


def test_page_shows_build_results_before_python(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2)
    expect(page.locator("h1")).to_contain_text("Ereignisströme")
    # The hash cell: customer-7 -> 982 -> partition 1, computed at build time.
    expect(page.locator("[data-lk-cell]", has_text="schluessel = ")).to_contain_text("982 % 3 = 1")
    # The TypeScript twin: Node.js output, the late listener misses "Käse".
    page.locator(".tabbed-labels label", has_text="TypeScript").first.click()
    bus = page.locator("[data-lk-ts]").first
    expect(bus).to_contain_text("Zähler: Käse")
    expect(bus).to_contain_text("Summe: Brot")
    expect(bus).not_to_contain_text("Summe: Käse")
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
    expect(entry).to_contain_text("nicht verändert und nicht einzeln gelöscht")

    # Konsole 5 continues the hidden Konsole 4 (session "gruppen").
    groups = Console.titled(page, "Konsole 5 ·")
    expect(groups.log).to_contain_text("email-1")
    groups.expect_answer("describe group billing", "LAG")
    idle = Console.titled(page, "Konsole 6 ·")
    idle.expect_answer("describe group warehouse", "Untätig in „orders“: warehouse-4")


def test_part_3_shows_build_results_before_python(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2_PART_3)
    expect(page.locator("h1")).to_contain_text("Giftpillen, Replay und Event Sourcing")
    # It links back to Teil 1 and Teil 2; Teil 2 links on to it.
    expect(page.locator("article a[href='../ereignisstroeme/']").first).to_be_attached()
    expect(page.locator("article a[href='../ereignisstroeme-ausfall/']").first).to_be_attached()
    # reduce over the events: the stock, computed by Node.js at build time.
    expect(page.locator("[data-lk-ts]").first).to_contain_text("Bestand: 18")
    # Step 9's KafkaJS pattern: skipping the failure loses it, the second loop parks it.
    kafkajs = page.locator("[data-lk-ts]", has_text="eachMessage")
    expect(kafkajs).to_contain_text("a: gespeichert 3")
    expect(kafkajs).to_contain_text("b: gespeichert 3 DLT: [ 'zwölf' ]")
    # The diagnosis: partition 0 waits behind payment 3, partition 1 is done.
    stalled = Console(page.locator("[data-lk-console]", has_text="partitions 2").first)
    expect(stalled.log).to_contain_text("payments  0          1         3     2    billing-1")


def test_typed_replay_commands(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2_PART_3)
    # Replay: from-beginning does not help, reset does.
    replay = Console.titled(page, "Konsole 2 ·")
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
    page.goto(site_url + LESSON_2_PART_3)
    task = Exercise.by_id(page, "billing-2")
    task.type("consume orders group billing-2")
    task.check_fails("eigene Gruppe")
    task.root.get_by_role("button", name="Zurücksetzen").click()
    task.console.expect_answer(
        "consume orders group billing as billing-2", '{"order":65,"total":19.9}'
    )
    task.check_solved()


def test_part_2_continues_part_1(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2_OUTAGES)
    expect(page.locator("h1")).to_contain_text("Doppelte Ereignisse und Ausfälle")
    expect(page.locator("article a[href='../ereignisstroeme/']").first).to_be_attached()
    expect(page.locator("article a[href='../ereignisstroeme-2/']").first).to_be_attached()
    # Step 7's console: no commit, a crash, and the restart reads 64 and 61 again.
    restart = Console.titled(page, "Konsole 1 ·")
    expect(restart.log).to_contain_text("absturz group billing billing-1")
    page.goto(site_url + LESSON_2)
    expect(page.locator("article a[href='../ereignisstroeme-ausfall/']").first).to_be_attached()


def test_rebalancing_before_after_and_zombie(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2_OUTAGES)
    # Before: billing-2 reads partition 2 and has read two records it has not stored.
    before = Console.titled(page, "Konsole 2 ·").picture.locator("svg")
    expect(before.locator(".ungespeichert")).to_have_count(2)
    expect(before).to_contain_text("billing · billing-2")
    # After: billing-2 is gone, billing-1 reads partition 2 and gets 62 and 65 again.
    after = Console.titled(page, "Konsole 3 ·")
    expect(after.log).to_contain_text("billing-2 hat 4 Ticks nicht")
    expect(after.picture.locator("svg .entfernt")).to_contain_text("billing-2: entfernt bei t=4")
    # The zombie's commit is refused, typed live too; the state stays as it was.
    zombie = Console.titled(page, "Konsole 4 ·")
    entry = zombie.command("commit orders group billing as billing-2")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("kann keine Position speichern")
    zombie.expect_answer("describe group billing", "Generation 3")


def test_a_crashed_member_holds_its_partition_until_the_session_timeout(
    page: Page, site_url: str
) -> None:
    # Step 8's crash: billing-2 kept p2 until the third tick without heartbeats. Typed live: a
    # crashed member is marked in the picture, and a consume under its name restarts it.
    page.goto(site_url + LESSON_2_OUTAGES)
    crash = Console.titled(page, "Konsole 5 ·")
    expect(crash.log).to_contain_text("billing-2 hat seit dem Absturz bei t=0 3 Ticks keine")
    crash.expect_answer(
        "describe group billing",
        "billing-2: entfernt bei t=3 (abgestürzt bei t=0, 3 Ticks ohne Herzschlag, "
        "Session Timeout 2).",
    )
    crash.expect_answer("absturz group billing billing-1", "billing-1 ist abgestürzt")
    expect(crash.picture.locator("svg")).to_contain_text("billing · billing-1 (abgestürzt)")
    crash.expect_answer(
        "consume orders group billing",
        "billing-1 startet nach dem Absturz neu und tritt der Gruppe „billing“ neu bei.",
    )


def test_a_restart_without_a_stored_position_loses_everything(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2_OUTAGES)
    task = Exercise.by_id(page, "vor-dem-ersten-commit")
    task.predict_wrong_then_right("[61, 62, 63, 64]", "[]")


def test_stalled_member_exercise(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2_OUTAGES)
    task = Exercise.by_id(page, "haengt")
    task.type("consume orders group billing")
    task.check_fails("noch Mitglied")
    task.type("leave group billing billing-2")
    task.console.expect_answer("consume orders group billing", '{"order":65,"total":19.9}')
    task.check_solved()


def test_each_removal_is_told_at_its_own_moment(page: Page, site_url: str) -> None:
    # Issue 26: after `tick 4` the console said "niemand" and then "billing-1 liest p2".
    page.goto(site_url + LESSON_2_OUTAGES)
    task = Exercise.by_id(page, "haengt")
    task.type("tick", "consume orders group billing")
    entry = task.console.command("tick 4")
    expect(entry.locator(".lk-console__line")).to_have_text(
        [
            "Zeit: t=5 (+4).\n",
            "t=4: billing-2 hat 4 Ticks nicht gelesen (Max Poll Interval 3): aus „billing“ "
            "entfernt.\n",
            "Neue Aufteilung in „orders“ (Generation 3):\n",
            "  billing-1: p0, p1, p2\n",
            "  billing-1 liest p2 ab Position 0.\n",
            "t=5: billing-1 hat 4 Ticks nicht gelesen (Max Poll Interval 3): aus „billing“ "
            "entfernt.\n",
            "Neue Aufteilung in „orders“ (Generation 4):\n",
            "  niemand: Kein Mitglied liest dieses Topic mehr.\n",
        ]
    )


def test_the_keys_are_whole_in_the_pictures_on_a_phone(browser: object, site_url: str) -> None:
    # Step 11: product-7 and product-3 (and customer-7 typed beside them) are told apart on a
    # phone; each line of a key lies inside its cell.
    with phone_page(browser, site_url + LESSON_2_PART_3, touch=True) as page:
        stock = Console(page.locator("[data-lk-console]", has_text="produce stock").first)
        stock.command('produce stock key=customer-7 {"order":61}')
        svg = stock.picture.locator("svg")
        cells = svg.evaluate(
            """(svg) => {
                const rects = [...svg.querySelectorAll("rect.eintrag")].map((r) => r.getBBox());
                return [...svg.querySelectorAll("text.schluessel")].map((t) => {
                    const b = t.getBBox();
                    const cell = rects.find((r) => b.x >= r.x && b.x + b.width <= r.x + r.width
                        && b.y >= r.y && b.y + b.height <= r.y + r.height);
                    return [t.textContent, Boolean(cell)];
                });
            }"""
        )
        keys = [text for text, _ in cells]
        assert "".join(keys).count("product-7") == 3 and "product-3" in "".join(keys), keys
        assert "customer-7" in "".join(keys), keys
        assert all(inside for _, inside in cells), cells
        scale = svg.evaluate(
            "(svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width"
        )
        assert 9 * scale >= 6.5, scale  # the key's font on the phone, in CSS pixels


def test_retry_by_seek_exercise(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_2_PART_3)
    task = Exercise.by_id(page, "noch-ein-versuch")
    # Another consume reads on from the reading position: payment 3 does not come back.
    task.console.expect_answer("consume payments group billing no-commit", '{"payment":5')
    task.check_fails("liest als Nächstes p0:3")
    task.root.get_by_role("button", name="Zurücksetzen").click()
    task.console.expect_answer(
        "seek payments group billing partition 0 to 1", "billing-1: Leseposition p0 2 → 1."
    )
    task.check_solved()
