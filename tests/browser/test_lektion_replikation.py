"""Lesson "Replikation und Konsistenz" in the browser: what only its page has there, the
replik console (its only page), on the same page load a console task started over
and a quiz with several right answers.

What the page's cells, consoles and exercises claim is checked without a browser
(tests/test_lesson_pages.py); its pictures on a phone in test_every_page.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Console, Exercise

pytestmark = pytest.mark.browser

LESSON = "lektionen/replikation/"


def test_replik_console_a_console_task_started_over_and_a_quiz_with_several_answers(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + LESSON)
    # The replik console: a stale read, the verdict in the picture, a refused command.
    console = Console.first(page, kind="replik")
    console.expect_answer("history", "Nicht linearisierbar")
    console.expect_answer("tick 2", "Zeit: t=4 (+2).")
    console.expect_answer("read x from n2", "n2 liest x → 1")
    expect(console.picture.locator("svg")).to_contain_text("Urteil: nicht linearisierbar")
    console.expect_refusal("failover n1", "schon der Leader")

    # A console task: a wrong quorum fails; "Zurücksetzen" starts over; the right one solves.
    task = Exercise.by_id(page, "replik-quorum")
    task.fails_then_starts_over(["quorum 3 1 1"], "Nach der Rückkehr")
    task.type("quorum 3 2 2")
    task.check_solved("✓ Gelöst: der Zustand stimmt.")

    # A quiz with several right answers (check boxes): one wrong, unticked, the right ones.
    quiz = Exercise.by_id(page, "replik-diagnose")
    quiz.choose_wrong(re.compile("Es fehlte monotonic reads"))
    quiz.untick(re.compile("Es fehlte monotonic reads"))
    quiz.choose_right(re.compile("Es fehlte read-your-writes"), re.compile("Ein Versions-Token"))
