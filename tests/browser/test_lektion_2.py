"""Lesson 2 ("Ereignisströme") in the browser: read it, type commands, solve exercises."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

LESSON = "lektionen/ereignisstroeme/"


def console_titled(page: Page, title: str) -> Locator:
    """The console whose head starts with ``title`` (e.g. "Konsole 1 ·")."""
    head = page.locator(".lk-console__head", has_text=re.compile("^" + re.escape(title)))
    return page.locator("[data-lk-console]", has=head)


def command(target: Locator, line: str) -> Locator:
    """Type ``line`` into a console, press Enter, return the new transcript entry."""
    entries = target.locator(".lk-console__entry")
    before = entries.count()
    box = target.get_by_label(re.compile("^Befehl für "))
    box.fill(line)
    box.press("Enter")
    expect(entries).to_have_count(before + 1)
    return entries.last


def check(target: Locator) -> Locator:
    target.get_by_role("button", name=re.compile(r"Übung \d+ prüfen")).click()
    feedback = target.locator(".lk-feedback")
    expect(feedback).to_be_visible()
    return feedback


def test_page_shows_build_results_before_python(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    expect(page.locator("h1")).to_contain_text("Ereignisströme")
    # The hash cell: customer-7 -> 982 -> partition 1, computed at build time.
    expect(page.locator("[data-lk-cell]", has_text="schluessel = ")).to_contain_text("982 % 3 = 1")
    # The TypeScript twin: Node.js output, the late listener misses "Käse".
    page.locator(".tabbed-labels label", has_text="TypeScript").first.click()
    expect(page.locator("[data-lk-ts]")).to_contain_text("Zähler: Käse")
    expect(page.locator("[data-lk-ts]")).to_contain_text("Summe: Brot")
    expect(page.locator("[data-lk-ts]")).not_to_contain_text("Summe: Käse")
    # The first console: the topic picture and the transcript of its setup.
    first = console_titled(page, "Konsole 1 ·")
    expect(first.locator(".lk-console__picture svg title")).to_have_text(
        "Topic „orders“ mit 3 Partitionen"
    )
    expect(first.locator(".lk-console__log")).to_contain_text("Hash 982, 982 % 3 = 1")
    # Order lost between partitions: "shipped" is read before "placed".
    log = console_titled(page, "Konsole 3 ·").locator(".lk-console__log").text_content() or ""
    read = log.split("email-1 liest")[1]
    assert read.index('"shipped"') < read.index('{"order":61,"event":"placed"}')


def test_typed_commands_follow_the_story(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    first = console_titled(page, "Konsole 1 ·")
    entry = command(first, 'produce orders key=order-61 {"order":61,"event":"paid"}')
    expect(entry).to_contain_text("→ Partition 1, Offset 1 (p1:1)")
    entry = command(first, "delete orders p1:0")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("nie verändert oder")

    # Konsole 5 continues the hidden Konsole 4 (session "gruppen").
    groups = console_titled(page, "Konsole 5 ·")
    expect(groups.locator(".lk-console__log")).to_contain_text("email-1")
    entry = command(groups, "describe group billing")
    expect(entry).to_contain_text("RÜCKSTAND")
    idle = console_titled(page, "Konsole 6 ·")
    entry = command(idle, "describe group warehouse")
    expect(entry).to_contain_text("Untätig in „orders“: warehouse-4")

    # Replay: from-beginning does not help, reset does.
    replay = console_titled(page, "Konsole 13 ·")
    entry = command(replay, "consume orders group billing from-beginning")
    expect(entry).to_contain_text("from-beginning zählt nicht")
    entry = command(replay, "reset group analytics to latest")
    expect(entry).to_contain_text("p0: 2 → 2")
    expect(replay.locator(".lk-console__picture svg")).to_contain_text("analytics")


def test_console_exercise_solved_by_typing(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    task = page.locator("#bestellung-61")
    expect(check(task)).to_contain_text("0 von 2")
    for event in ("placed", "paid", "shipped"):
        entry = command(task, f'produce orders key=order-61 {{"order":61,"event":"{event}"}}')
        expect(entry).to_contain_text("→ Partition 1")
    expect(check(task)).to_contain_text("Gelöst")
    expect(task).to_have_attribute("data-solved", "true")


def test_second_copy_needs_the_same_group(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    task = page.locator("#billing-2")
    command(task, "consume orders group billing-2")
    check(task)
    expect(task.locator(".lk-check--failed").first).to_contain_text("eigene Gruppe")
    task.get_by_role("button", name="Zurücksetzen").click()
    entry = command(task, "consume orders group billing as billing-2")
    expect(entry).to_contain_text('{"order":65,"total":19.9}')
    expect(check(task)).to_contain_text("Gelöst")


def test_quiz_and_prediction(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    quiz = page.locator("#kopien")
    quiz.get_by_label("Jedes Mitglied liest jedes Ereignis.").check()
    expect(check(quiz)).to_contain_text("Noch nicht")
    quiz.get_by_label("Ein Mitglied bekommt keine Partition und bleibt untätig.").check()
    check(quiz)
    expect(quiz).to_have_attribute("data-solved", "true")

    prediction = page.locator("#rueckstand")
    prediction.get_by_label("Deine Vorhersage").fill("[1, 1]")
    expect(check(prediction)).to_contain_text("0 von 2 richtig")
    prediction.get_by_label("Deine Vorhersage").fill("[0, 2]")
    check(prediction)
    expect(prediction).to_have_attribute("data-solved", "true")


def test_rebalancing_before_after_and_zombie(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    # Before: billing-2 reads partition 2 and has read two records it has not stored.
    before = console_titled(page, "Konsole 9 ·").locator(".lk-console__picture svg")
    expect(before.locator(".ungespeichert")).to_have_count(2)
    expect(before).to_contain_text("billing · billing-2")
    # After: billing-2 is gone, billing-1 reads partition 2 and gets 62 and 65 again.
    after = console_titled(page, "Konsole 10 ·")
    expect(after.locator(".lk-console__log")).to_contain_text("billing-2 hat 4 Ticks nicht")
    expect(after.locator(".lk-console__picture svg .entfernt")).to_contain_text(
        "billing-2: entfernt bei t=4"
    )
    # The zombie's commit is refused, typed live too; the state stays as it was.
    zombie = console_titled(page, "Konsole 11 ·")
    entry = command(zombie, "commit orders group billing as billing-2")
    expect(entry).to_have_class(re.compile("lk-console__entry--error"))
    expect(entry).to_contain_text("kann keine Position speichern")
    entry = command(zombie, "describe group billing")
    expect(entry).to_contain_text("Generation 3")


def test_stalled_member_exercise_and_prediction(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON)
    task = page.locator("#haengt")
    command(task, "consume orders group billing")
    check(task)
    expect(task.locator(".lk-check--failed").first).to_contain_text("noch Mitglied")
    command(task, "leave group billing billing-2")
    entry = command(task, "consume orders group billing")
    expect(entry).to_contain_text('{"order":65,"total":19.9}')
    expect(check(task)).to_contain_text("Gelöst")

    prediction = page.locator("#doppelt-gelesen")
    prediction.get_by_label("Deine Vorhersage").fill("[1, 3, 5]")
    check(prediction)
    expect(prediction).not_to_have_attribute("data-solved", "true")
    prediction.get_by_label("Deine Vorhersage").fill("[3, 5]")
    check(prediction)
    expect(prediction).to_have_attribute("data-solved", "true")


def test_phone_pictures_fit_the_screen(browser: object, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site_url + LESSON)
    widths = page.locator(".lk-console__picture svg").evaluate_all(
        "svgs => svgs.map(s => s.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 390, widths
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= 390, overflow
    context.close()
