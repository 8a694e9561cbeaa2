"""Consoles on the built site: typing commands, history, completion, reset."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import FIRST_STEPS, PHONE, Console, phone_page

pytestmark = pytest.mark.browser


def test_commands_change_text_and_picture(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    log = Console.first(page)
    picture_before = log.picture.inner_html()
    log.command('produce orders key=order-61 {"order":61,"event":"placed"}')
    expect(log.entries.last).to_contain_text("Partition 1, Offset 1")
    assert log.picture.inner_html() != picture_before
    expect(log.picture.locator("svg title")).to_have_text("Topic „orders“ mit 3 Partitionen")
    log.command("describ group billing")
    last = log.entries.last
    expect(last).to_have_class("lk-console__entry lk-console__entry--error")
    expect(last).to_contain_text("Meintest du describe?")
    # Code in the answer is code, without its backticks.
    expect(last.locator("code.lk-console__code")).to_have_text(["describe", "hilfe"])
    # Live answers have the build's markup: a block per line (hanging indent on phones).
    lines = last.locator(".lk-console__out > .lk-console__line")
    expect(lines.first).to_be_visible()
    assert last.locator(".lk-console__out").evaluate("(out) => out.textContent") == "".join(
        lines.all_text_contents()
    )


def test_history_completion_and_reset(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    log = Console.first(page)
    box = log.root.get_by_label("Befehl für Konsole 1")
    log.command("consume orders group billing from-beginning")
    expect(log.entries.last).to_contain_text("p1:0")
    box.press("ArrowUp")
    expect(box).to_have_value("consume orders group billing from-beginning")
    box.fill("desc")
    box.press("Tab")
    expect(box).to_have_value("describe ")
    box.press_sequentially("group b")
    box.press("Tab")
    expect(box).to_have_value("describe group billing ")
    box.press("Enter")
    expect(log.entries.last).to_contain_text("billing-1")
    log.root.get_by_role("button", name="Zurücksetzen").click()
    expect(log.entries).to_have_count(2)
    log.command("groups")
    expect(log.entries.last).to_contain_text("Noch keine Gruppen")


def test_queue_console_timeline(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    queue = Console.first(page, "queue")
    queue.command("tick 2")
    queue.command("receive as B")
    expect(queue.entries.last).to_contain_text("B bekommt Nachricht 1")
    expect(queue.picture.locator("svg")).to_contain_text("B")


def test_the_browser_wraps_a_long_answer_with_a_hanging_indent(browser: Any, site_url: str) -> None:
    # pysim no longer breaks lines itself: the browser wraps a long line to the width there
    # is, its continuation indented; a wider screen needs fewer rows. No sideways scrolling.
    rows = {}
    for viewport in (PHONE, {"width": 1280, "height": 900}):
        with phone_page(browser, site_url + FIRST_STEPS, viewport) as page:
            log = Console.first(page)
            log.command("timeout 3")
            line = log.entries.last.locator(".lk-console__line").first
            expect(line).to_have_text(
                "Sitzungs-Zeitfenster: 3 Ticks. Wer länger als 3 Ticks ohne consume bleibt, "
                "fliegt bei tick aus der Gruppe.\n"
            )
            rows[viewport["width"]] = line.evaluate(
                """(line) => {
                    const text = line.firstChild;
                    const range = document.createRange();
                    range.setStart(text, 0);
                    range.setEnd(text, text.length - 1);  // without the line's own newline
                    const rects = [...range.getClientRects()];
                    const box = line.getBoundingClientRect();
                    const tops = new Set(rects.map((r) => Math.round(r.top)));
                    const lefts = rects.map((r) => Math.round(r.left - box.left));
                    return { rows: tops.size, first: lefts[0], rest: Math.min(...lefts.slice(1)) };
                }"""
            )
            scroll = log.log.evaluate("(log) => log.scrollWidth - log.clientWidth")
            assert scroll <= 0, scroll
    assert rows[390]["rows"] > rows[1280]["rows"] >= 1, rows
    assert rows[390]["rest"] > rows[390]["first"] + 20, rows  # the hanging indent (4ch)
