"""Consoles on the built site: typing commands, history, completion, reset."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

FIRST_STEPS = "erste-schritte/"


def console(page: Page, kind: str = "log") -> Locator:
    return page.locator(f"[data-lk-console][data-kind={kind}]").first


def command(page: Page, target: Locator, line: str) -> None:
    entries = target.locator(".lk-console__entry").count()
    box = target.get_by_label("Befehl für Konsole", exact=False)
    box.fill(line)
    box.press("Enter")
    expect(target.locator(".lk-console__entry")).to_have_count(entries + 1)


def test_commands_change_text_and_picture(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    log = console(page)
    picture_before = log.locator(".lk-console__picture").inner_html()
    command(page, log, 'produce orders key=order-61 {"order":61,"event":"placed"}')
    expect(log.locator(".lk-console__entry").last).to_contain_text("Partition 1, Offset 1")
    assert log.locator(".lk-console__picture").inner_html() != picture_before
    expect(log.locator(".lk-console__picture svg title")).to_have_text(
        "Topic „orders“ mit 3 Partitionen"
    )
    command(page, log, "describ group billing")
    last = log.locator(".lk-console__entry").last
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
    log = console(page)
    box = log.get_by_label("Befehl für Konsole 1")
    command(page, log, "consume orders group billing from-beginning")
    expect(log.locator(".lk-console__entry").last).to_contain_text("p1:0")
    box.press("ArrowUp")
    expect(box).to_have_value("consume orders group billing from-beginning")
    box.fill("desc")
    box.press("Tab")
    expect(box).to_have_value("describe ")
    box.press_sequentially("group b")
    box.press("Tab")
    expect(box).to_have_value("describe group billing ")
    box.press("Enter")
    expect(log.locator(".lk-console__entry").last).to_contain_text("billing-1")
    log.get_by_role("button", name="Zurücksetzen").click()
    expect(log.locator(".lk-console__entry")).to_have_count(2)
    command(page, log, "groups")
    expect(log.locator(".lk-console__entry").last).to_contain_text("Noch keine Gruppen")


def test_queue_console_timeline(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    queue = console(page, "queue")
    command(page, queue, "tick 2")
    command(page, queue, "receive as B")
    expect(queue.locator(".lk-console__entry").last).to_contain_text("B bekommt Nachricht 1")
    expect(queue.locator(".lk-console__picture svg")).to_contain_text("B")
