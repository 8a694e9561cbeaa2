"""Lesson "Replikation und Konsistenz" in the browser: what only its page has there, the
replik console (its only page), on the same page load a console task started over
and a quiz with several right answers."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.pages import Console, Exercise

LESSON = "lektionen/replikation/"


def test_replik_console_a_console_task_started_over_and_a_quiz_with_several_answers(
    page: Page, site_url: str
) -> None:
    # The replik console: a stale read, the verdict in the picture, a refused command.
    console = Console.first(page, kind="replik", on=site_url + LESSON)
    console.expect_answer("history", "Nicht linearisierbar")
    console.expect_answer("tick 2", "Zeit: t=4 (+2).")
    console.expect_answer("read x from n2", "n2 liest x → 1")
    expect(console.picture.locator("svg")).to_contain_text("Urteil: nicht linearisierbar")
    console.expect_refusal("failover n1", "schon der Leader")

    # A console task: a wrong quorum fails; "Zurücksetzen" starts over; the right one solves.
    Exercise.by_id(page, "replik-quorum").wrong_then_right(
        ["quorum 3 1 1"], "Nach der Rückkehr", ["quorum 3 2 2"], "✓ Gelöst: der Zustand stimmt."
    )

    # A quiz with several right answers (check boxes): one wrong, unticked, the right ones.
    quiz = Exercise.by_id(page, "replik-diagnose")
    quiz.choose_wrong(re.compile("Es fehlte monotonic reads"))
    quiz.untick(re.compile("Es fehlte monotonic reads"))
    quiz.choose_right(re.compile("Es fehlte read-your-writes"), re.compile("Ein Versions-Token"))
