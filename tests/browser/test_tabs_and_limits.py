"""What the reader typed is never lost without a word (issue 49): more console commands
than the page keeps, and one page open in two tabs of one browser."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.pages import FIRST_STEPS, Cell, Console

KEPT = "() => Object.keys(localStorage).filter((k) => k.includes(':consoles:'))"


def test_more_commands_than_the_page_keeps_are_said_to_be_not_kept(
    page: Page, site_url: str
) -> None:
    log = Console.used_once(page, site_url + FIRST_STEPS)
    assert page.evaluate(KEPT) != []
    log.submit_burst(500)
    note = log.log.locator(".lk-console__note", has_text="Mehr als 500 Befehle")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("Nach dem Neuladen beginnt die Konsole beim Ausgangszustand")
    assert page.evaluate(KEPT) == []


def test_a_draft_typed_in_one_tab_shows_in_the_other(
    context: BrowserContext, site_url: str
) -> None:
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(site_url + FIRST_STEPS)
        Cell.number(page, 2).editor()  # mounted
    Cell.number(first, 2).editor().fill("print('aus dem ersten Tab')")
    other = Cell.number(second, 2)
    expect(other.editor()).to_have_text("print('aus dem ersten Tab')")
    expect(other.output).to_contain_text(
        "In einem anderen Tab dieser Seite wurde diese Zelle geändert"
    )
    # Typing on in the second tab keeps the whole text there, and it follows back.
    other.editor().click()
    second.keyboard.press("End")
    second.keyboard.type("\nprint('und aus dem zweiten')")
    expect(Cell.number(first, 2).editor()).to_contain_text("und aus dem zweiten")
    expect(Cell.number(first, 2).editor()).to_contain_text("aus dem ersten Tab")
    second.reload()
    expect(Cell.number(second, 2).editor()).to_contain_text("und aus dem zweiten")


def test_commands_kept_by_another_tab_are_said_so(context: BrowserContext, site_url: str) -> None:
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(site_url + FIRST_STEPS)
    Console.first(first).expect_answer("topics", "orders")
    Console.first(second).expect_answer(
        'produce orders key=order-61 {"order":61,"event":"placed"}', "Partition 1, Offset 1"
    )
    note = Console.first(first).log.locator(".lk-console__note", has_text="anderen Tab")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("Ein Neuladen bringt die Befehle des Tabs zurück")
    # The first tab's next command keeps its own commands again; now the second hears of it.
    Console.first(first).expect_answer("topics", "orders")
    expect(
        Console.first(second).log.locator(".lk-console__note", has_text="anderen Tab")
    ).to_have_count(1)
    first.reload()
    restored = Console.first(first)
    expect(restored.log.locator(".lk-console__note").last).to_contain_text(
        "Deine 2 Befehle von vorhin"
    )
