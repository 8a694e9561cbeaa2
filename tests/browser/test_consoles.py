"""Consoles on the built site: typing commands, history, completion, reset."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import FIRST_STEPS, Console

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
    expect(last).to_contain_text("Meintest du `describe`?")
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
