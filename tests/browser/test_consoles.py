"""Consoles on the built site: typing commands, history, completion, reset."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.pages import FIRST_STEPS, PHONE, Cell, Console, phone_page


def test_commands_change_text_and_picture(page: Page, site_url: str) -> None:
    log = Console.first(page, on=site_url + FIRST_STEPS)
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
    log = Console.first(page, on=site_url + FIRST_STEPS)
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
    queue = Console.first(page, "queue", on=site_url + FIRST_STEPS)
    queue.command("tick 2")
    queue.command("receive as B")
    expect(queue.entries.last).to_contain_text("B bekommt Nachricht 1")
    expect(queue.picture.locator("svg")).to_contain_text("B")


#: The rows a block's text takes, and where its first and its later rows start (px).
ROWS = """(node) => {
    const text = node.firstChild;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, text.length - (text.data.endsWith("\\n") ? 1 : 0));
    const rects = [...range.getClientRects()];
    const box = node.getBoundingClientRect();
    const tops = new Set(rects.map((r) => Math.round(r.top)));
    const lefts = rects.map((r) => Math.round(r.left - box.left));
    return { rows: tops.size, first: lefts[0], rest: Math.min(...lefts.slice(1)) };
}"""


def test_the_browser_wraps_a_long_answer_with_a_hanging_indent(browser: Any, site_url: str) -> None:
    # pysim no longer breaks lines itself: the browser wraps a long line to the width there
    # is, its continuation indented; a wider screen needs fewer rows. No sideways scrolling.
    # A long command wraps after its "$ ".
    rows = {}
    for viewport in (PHONE, {"width": 1280, "height": 900}):
        with phone_page(browser, site_url + FIRST_STEPS, viewport) as page:
            log = Console.first(page)
            entry = log.command("max-poll 3")
            line = entry.locator(".lk-console__line").first
            expect(line).to_have_text(
                "Max Poll Interval: 3 Ticks. Wer länger als 3 Ticks nicht liest (consume), "
                "verlässt bei tick die Gruppe, auch wenn er noch arbeitet.\n"
            )
            answer = line.evaluate(ROWS)
            command = log.command(
                'produce orders key=customer-7 {"order":62,"total":8.90,"why":"second"}'
            ).locator(".lk-console__cmd")
            rows[viewport["width"]] = (answer, command.evaluate(ROWS))
            scroll = log.log.evaluate("(log) => log.scrollWidth - log.clientWidth")
            assert scroll <= 0, scroll
    (answer, command), (wide, _) = rows[390], rows[1280]
    assert answer["rows"] > wide["rows"] >= 1, rows
    assert answer["rest"] > answer["first"] + 20, rows  # the answer's hanging indent (4ch)
    assert command["rows"] > 1 and command["rest"] > command["first"] + 10, rows


def test_a_status_table_keeps_its_columns_on_a_phone(browser: Any, site_url: str) -> None:
    # Rows of a table (indented lines: `status`) never wrap; the log scrolls sideways if a
    # row is wider than a phone. The sentence above the table still wraps.
    with phone_page(browser, site_url + "lektionen/replikation/") as page:
        log = Console.first(page, kind="replik")
        entry = log.command("status")
        rows = entry.locator(".lk-console__line--row")
        expect(rows.first).to_contain_text("ROLLE")
        assert rows.count() >= 4
        for i in range(rows.count()):
            assert rows.nth(i).evaluate(ROWS)["rows"] == 1, rows.nth(i).text_content()
        lefts = rows.evaluate_all(
            """(rows) => rows.map((row) => {
                const text = row.firstChild; const at = text.data.indexOf("ROLLE") >= 0
                    ? text.data.indexOf("ROLLE") : text.data.search(/(Leader|Follower)/);
                const range = document.createRange(); range.setStart(text, at);
                range.setEnd(text, at + 1); return Math.round(range.getClientRects()[0].left);
            })"""
        )
        assert len(set(lefts)) == 1, lefts  # the second column starts at one x in every row


def test_touch_buttons_complete_and_recall_commands(browser: Any, site_url: str) -> None:
    # A phone's keyboard has no Tab and no arrow keys: buttons do what they do, and the hint
    # names the buttons, not the keys.
    with phone_page(browser, site_url + FIRST_STEPS, touch=True) as page:
        log = Console.first(page)
        box = log.box
        complete = log.root.get_by_role("button", name="Befehl ergänzen: Konsole 1")
        back = log.root.get_by_role("button", name="Vorheriger Befehl: Konsole 1")
        forward = log.root.get_by_role("button", name="Nächster Befehl: Konsole 1")
        for button in (complete, back, forward):
            expect(button).to_be_visible()
            size = button.bounding_box()
            assert size and size["height"] >= 40 and size["width"] >= 40, size
        log.command("topics")
        box.tap()
        box.fill("desc")
        complete.tap()
        expect(box).to_have_value("describe ")
        expect(box).to_be_focused()  # the phone's keyboard stays open
        box.fill("c")
        complete.tap()
        expect(log.log.locator(".lk-console__note").last).to_contain_text("Möglich: clear commit")
        box.fill("")
        back.tap()
        expect(box).to_have_value("topics")
        forward.tap()
        expect(box).to_have_value("")
        hint = log.root.locator(".lk-console__hint")
        expect(hint).to_be_visible()
        expect(hint).to_have_text(re.compile("⇥ ergänzt Befehle und Namen"))
        assert "Tab" not in hint.inner_text() and "Enter" not in hint.inner_text()
        assert "Tab" not in box.evaluate(
            "(box) => document.getElementById(box.getAttribute('aria-describedby')).innerText"
        )


def test_with_a_mouse_the_hint_names_the_keys_and_no_touch_buttons_show(
    page: Page, site_url: str
) -> None:
    log = Console.first(page, on=site_url + FIRST_STEPS)
    log.box.focus()
    hint = log.root.locator(".lk-console__hint")
    expect(hint).to_be_visible()
    assert hint.inner_text() == (
        "Enter führt aus · ↑ ↓ holen frühere Befehle zurück · Tab ergänzt Befehle und Namen"
    )
    expect(log.root.locator(".lk-button--touch")).to_have_count(3)
    for button in log.root.locator(".lk-button--touch").all():
        expect(button).to_be_hidden()


def test_a_huge_pasted_line_is_cut_before_it_is_sent_and_when_it_is_shown(
    page: Page, site_url: str
) -> None:
    log = Console.used_once(page, site_url + FIRST_STEPS)
    # The input line takes no more than twice what Python accepts; Python refuses that.
    assert log.box.get_attribute("maxlength") == "4000"
    log.box.fill("x" * 100_000)
    assert len(log.box.input_value()) == 4000
    before = log.entries.count()
    log.box.press("Enter")
    expect(log.entries).to_have_count(before + 1)
    expect(log.entries.last).to_contain_text("Die Zeile ist zu lang")
    shown = log.entries.last.locator(".lk-console__cmd").inner_text()
    assert shown.endswith("x … (gekürzt, 4.000 Zeichen)") and len(shown) < 400, shown[-80:]
    # A value the page sets itself (past maxlength) is cut, too: the note has its length.
    log.box.evaluate("(box) => { box.value = 'produce orders ' + 'y'.repeat(1_000_000); }")
    log.box.press("Enter")
    expect(log.entries.last.locator(".lk-console__cmd")).to_have_text(
        re.compile(r"y … \(gekürzt, 1\.000\.015 Zeichen\)$")
    )
    expect(log.entries.last).to_contain_text("Die Zeile ist zu lang")
    saved = page.evaluate(
        "() => Object.keys(localStorage).filter((k) => k.includes(':consoles:'))"
        ".map((k) => localStorage.getItem(k).length)"
    )
    assert saved and max(saved) < 10_000, saved


def test_the_transcript_keeps_its_newest_entries_with_a_note(page: Page, site_url: str) -> None:
    log = Console.used_once(page, site_url + FIRST_STEPS)
    log.submit_burst(400)
    expect(log.entries.last).to_have_text(re.compile(r"^\$ # Befehl 399\s*$"))
    kept = log.log.evaluate("(log) => log.childElementCount")
    assert kept == 301, kept  # 300 entries and the note
    expect(log.log.locator(".lk-console__note").first).to_have_text(
        "Ältere Einträge wurden entfernt: Hier stehen die letzten 300."
    )
    expect(log.log.locator(".lk-console__note--dropped")).to_have_count(1)
    expect(log.entries.first).to_have_text(re.compile(r"^\$ # Befehl 100\s*$"))


def test_a_command_queued_before_a_reset_does_not_count_after_it(page: Page, site_url: str) -> None:
    # The reader types a command while a cell runs (it waits), then presses Zurücksetzen:
    # the reset is the later act. Transcript, Python and the kept commands agree, also
    # after a restart of Python (which replays what the page recorded).
    log = Console.first(page, on=site_url + FIRST_STEPS)
    produce = 'produce orders key=order-61 {"order":61,"event":"placed"}'
    log.expect_answer(produce, "Partition 1, Offset 1")
    entries = log.entries.count()
    cell = Cell.number(page, 1)
    cell.start_code("import time\ntime.sleep(3)")
    log.box.fill(produce)
    log.box.press("Enter")
    log.root.get_by_role("button", name="Zurücksetzen").click()
    expect(cell.root).to_have_attribute("data-state", "done")
    expect(log.log.locator(".lk-console__note").last).to_contain_text(
        "lief noch vor dem Zurücksetzen und gilt nicht mehr"
    )
    expect(log.entries).to_have_count(entries - 1)  # the author's entries only
    saved = page.evaluate("() => Object.keys(localStorage).filter((k) => k.includes(':consoles:'))")
    assert saved == [], saved
    log.expect_answer(produce, "Partition 1, Offset 1")
    # A restart replays exactly that one command: the state is the transcript's.
    cell.start_code("import time\ntime.sleep(30)")
    cell.stop()
    expect(log.log.locator(".lk-console__note").last).to_contain_text("Python wurde neu gestartet")
    log.expect_answer(produce, "Partition 1, Offset 2")
