"""Lesson "Transaktionen und Isolation" in the browser: what only its page has there, the SQL
console (its only page): a statement that waits for another session's lock and goes on at its
commit, in text and picture, a refused statement while it waits; on the same page load the
console task solved wrong (a lost update), started over and solved with FOR UPDATE."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.pages import Console, Exercise

LESSON = "lektionen/transaktionen/"

LOST_UPDATE = [
    "t1 begin",
    "t1 select * from test where id = 1",
    "t2 begin",
    "t2 select * from test where id = 1",
    "t1 update test set value = 11 where id = 1",
    "t1 commit",
    "t2 update test set value = 11 where id = 1",
    "t2 commit",
]
FOR_UPDATE = [
    "t1 begin",
    "t1 select * from test where id = 1 for update",
    "t2 begin",
    "t2 select * from test where id = 1 for update",
    "t1 update test set value = 11 where id = 1",
    "t1 commit",
    "t2 update test set value = 12 where id = 1",
    "t2 commit",
]


def test_sql_console_waits_and_the_console_task_wrong_then_right(page: Page, site_url: str) -> None:
    # The page's console starts with T2's update waiting for T1's lock.
    console = Console.first(page, kind="sql", on=site_url + LESSON)
    expect(console.picture.locator("svg")).to_contain_text(
        "T2: read committed, offen — wartet auf T1"
    )
    console.expect_refusal("t2 select * from test", "T2 wartet noch auf T1")
    console.expect_answer("t1 commit", "T2: update test set value = 12 where id = 1 — 1 Zeile")
    expect(console.picture.locator("svg")).not_to_contain_text("wartet auf")
    console.expect_answer("t2 commit", "T2: commit")
    console.expect_answer("status", "Committet: 1 => 12, 2 => 20")

    Exercise.by_id(page, "tx-lost-update").wrong_then_right(
        LOST_UPDATE, "Am Ende steht 12 in Zeile 1", FOR_UPDATE
    )
