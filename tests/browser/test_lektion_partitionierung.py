"""Lesson "Partitionierung und Sharding" in the browser: what only its page has there, the
partition console (its only page): a node that joins, with what moved in text and picture, a
refused node name; on the same page load the console task solved wrong (modulo moves three in
four keys), started over and solved with fixed slots."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.pages import Console, Exercise

LESSON = "lektionen/partitionierung/"


def test_partition_console_moves_keys_and_the_task_wrong_then_right(
    page: Page, site_url: str
) -> None:
    # The page's console starts with 100 keys and n4 just joined.
    console = Console.first(page, kind="partition", on=site_url + LESSON)
    expect(console.picture.locator("svg")).to_contain_text("25 eingezogen")
    console.expect_refusal("dazu N5", "beginnt mit einem Buchstaben")
    console.expect_answer("dazu n5", "n5 kommt dazu.")
    expect(console.picture.locator("svg")).to_contain_text("n5")
    console.expect_answer("vergleiche n6", "modulo")

    Exercise.by_id(page, "part-knoten-dazu").wrong_then_right(
        ["dazu n4"],
        "Höchstens 30 Schlüssel ziehen beim Dazukommen um",
        ["strategie slots", "dazu n4"],
    )
