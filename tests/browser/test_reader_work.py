"""The reader's work across page changes, reloads and the network going away (issue 26).

Deployed like GitHub Pages serves a project: the course below a path of its own
(``/kurs/``), built with ``site_url`` so Material's instant navigation is on. A reader
enters at the start page or at a deep page, clicks from page to page, types drafts
and solves exercises, reloads, goes back and forth and offline: nothing is lost, and
the progress overview counts it. Before the fix, every page at another depth than
the first one stored its keys under a wrong page path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import copy_site
from tests.browser.pages import (
    FIRST_STEPS,
    LESSON_2,
    LESSON_2_OUTAGES,
    LESSON_2_PART_3,
    RIGHT,
    Cell,
    Console,
    Exercise,
    go,
)
from tests.siteserver import StaticServer

IN_THE_BROWSER = "In deinem Browser, in einem Web Worker."
LESSON_2_LINK = re.compile("Ereignisströme")


class Course:
    """A copy of the built course served below ``/kurs/``, which the test may take away."""

    def __init__(self, built_site: Path, site_url: str, folder: Path) -> None:
        self.server = StaticServer(folder)
        self.url = self.server.url + "kurs/"
        copy_site(built_site, site_url, folder / "kurs", self.url)


@pytest.fixture
def course(built_site: Path, site_url: str, tmp_path: Path) -> Iterator[Course]:
    served = Course(built_site, site_url, tmp_path / "root")
    yield served
    served.server.close()


def mounted(page: Page, count: int) -> None:
    expect(page.locator("html")).to_have_attribute("data-lk-page", str(count))


def follow(page: Page, link: str | re.Pattern[str]) -> None:
    """Follow a navigation link (instant: the page script mounts its next page)."""
    go(page, link, int(page.locator("html").get_attribute("data-lk-page") or "0") + 1)


TITLES = {FIRST_STEPS: "Erste Schritte", LESSON_2: "Ereignisströme"}


def arrived(page: Page, course: Course, path: str) -> None:
    """After back or forward (instant or a full load): the page at ``path``, mounted."""
    expect(page).to_have_url(course.url + path)
    expect(page.locator("article h1").first).to_contain_text(TITLES[path])
    expect(page.locator("[data-lk-cell]:not([data-lk-mounted])")).to_have_count(0)


def instant(page: Page) -> None:
    """Wait for Material's script (it comes once Python is ready) and its sitemap: links
    are instant then (a click before is a full page load)."""
    page.wait_for_function(
        "() => typeof window.document$ === 'object' && performance.getEntriesByType('resource')"
        ".some((e) => e.name.endsWith('/sitemap.xml') && e.responseEnd > 0)"
    )


def type_draft(page: Page, number: int, line: str) -> None:
    editor = Cell.number(page, number).editor()
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type(f"\n{line}")


def expect_draft(page: Page, number: int, line: str) -> None:
    cell = Cell.number(page, number)
    expect(cell.editor()).to_contain_text(line)
    # The build's output under it belongs to the author's code, and the page says so.
    expect(cell.output).to_contain_text("gehört noch zum ursprünglichen Code")


def work_on_first_steps(page: Page) -> None:
    """A draft in cell 2 and the quiz solved; the overview on the same page follows at once."""
    type_draft(page, 2, "print('Entwurf Erste Schritte')")
    count = page.locator('.lk-progress__count[data-path="erste-schritte/"]')
    expect(count).to_contain_text("0 von")
    Exercise.by_id(page, "erstes-quiz").choose_right(IN_THE_BROWSER)
    expect(count).to_contain_text("1 von")


def work_on_lesson_2(page: Page) -> None:
    type_draft(page, 1, "print('Entwurf Lektion 2')")
    prediction = Exercise.by_id(page, "rueckstand")
    prediction.answer.fill("[0, 2]")
    prediction.check_solved(RIGHT)


def expect_first_steps_kept(page: Page) -> None:
    expect_draft(page, 2, "Entwurf Erste Schritte")
    Exercise.by_id(page, "erstes-quiz").expect_solved()


def expect_lesson_2_kept(page: Page) -> None:
    expect_draft(page, 1, "Entwurf Lektion 2")
    Exercise.by_id(page, "rueckstand").expect_solved()


def expect_overview(page: Page, counts: dict[str, str]) -> None:
    for path, text in counts.items():
        count = page.locator(f'.lk-progress__count[data-path="{path}"]')
        expect(count).to_contain_text(text)


def go_offline_and_reload(page: Page, context: BrowserContext, course: Course) -> None:
    """Wait until the service worker has kept what was visited; take the network away."""
    expect(page.locator("html")).to_have_attribute("data-lk-offline", "ready")
    course.server.close()
    context.set_offline(True)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-lk-page", "1")


def test_entering_at_the_start_page_nothing_is_lost(
    context: BrowserContext, course: Course
) -> None:
    page = context.new_page()
    page.goto(course.url)
    mounted(page, 1)
    instant(page)
    follow(page, "Erste Schritte")
    work_on_first_steps(page)
    follow(page, LESSON_2_LINK)
    work_on_lesson_2(page)

    page.reload()
    mounted(page, 1)
    expect_lesson_2_kept(page)
    page.go_back()
    arrived(page, course, FIRST_STEPS)
    expect_first_steps_kept(page)
    page.reload()
    expect_first_steps_kept(page)
    page.go_forward()
    arrived(page, course, LESSON_2)
    expect_lesson_2_kept(page)

    instant(page)
    follow(page, "Start")
    expect_overview(page, {"erste-schritte/": "1 von 4", "lektionen/ereignisstroeme/": "1 von"})
    go_offline_and_reload(page, context, course)
    expect_overview(page, {"erste-schritte/": "1 von 4", "lektionen/ereignisstroeme/": "1 von"})
    page.go_back()  # lesson 2, from the service worker
    arrived(page, course, LESSON_2)
    expect_lesson_2_kept(page)
    page.go_back()
    arrived(page, course, FIRST_STEPS)
    expect_first_steps_kept(page)


def test_entering_at_a_deep_page_nothing_is_lost(context: BrowserContext, course: Course) -> None:
    page = context.new_page()
    page.goto(course.url + LESSON_2)
    mounted(page, 1)
    work_on_lesson_2(page)
    instant(page)
    follow(page, "Erste Schritte")
    work_on_first_steps(page)
    follow(page, "Start")
    expect_overview(page, {"erste-schritte/": "1 von 4", "lektionen/ereignisstroeme/": "1 von"})

    page.reload()
    expect_overview(page, {"erste-schritte/": "1 von 4", "lektionen/ereignisstroeme/": "1 von"})
    page.go_back()
    arrived(page, course, FIRST_STEPS)
    expect_first_steps_kept(page)
    go_offline_and_reload(page, context, course)
    expect_first_steps_kept(page)
    instant(page)
    follow(page, LESSON_2_LINK)
    expect_lesson_2_kept(page)


def page_data(page: Page, selector: str, nth: int = 0) -> dict[str, Any]:
    """A block's page data (lessonkit/build/pagedata.py: JSON in `data-lk-json`)."""
    return json.loads(page.locator(selector).nth(nth).get_attribute("data-lk-json") or "{}")


def built_data(built_site: Path, path: str, kind: str) -> list[dict[str, Any]]:
    """The page data of every block of ``kind`` (``cell``, ``console``, ``exercise``) of the
    built page at ``path``, in page order: read without opening the page in a browser."""
    html = (built_site / path / "index.html").read_text(encoding="utf-8")
    found = re.findall(rf'class="lk-{kind}__data"[^>]*data-lk-json="([^"]*)"', html)
    return [json.loads(unescape(text)) for text in found]


def fnv1a(text: str) -> str:
    """The draft key's hash of a cell's code (frontend/src/components/cell/storage.ts)."""
    value = 0x811C9DC5
    units = text.encode("utf-16-le")
    for at in range(0, len(units), 2):  # JavaScript's charCodeAt: UTF-16 code units
        value ^= int.from_bytes(units[at : at + 2], "little")
        value = (value * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def test_work_stored_under_a_misplaced_key_is_found_again(
    context: BrowserContext, course: Course
) -> None:
    """What the page script before the fix wrote (entering at the start page, then a
    click to "Erste Schritte": no page path) moves to its page; another page's stays."""
    page = context.new_page()
    page.goto(course.url + FIRST_STEPS)
    mounted(page, 1)
    code = page_data(page, ".lk-cell__data", 1)["code"]
    digest = page_data(page, "#erstes-quiz .lk-exercise__data")["digest"]
    misplaced = {
        f"lk:/kurs/:draft:#1:{fnv1a(code)}": "print('von früher')",
        "lk:/kurs/:exercise:#erstes-quiz": json.dumps({"digest": digest, "solved": True}),
        "lk:/kurs/:exercise:#rueckstand": json.dumps({"digest": "fremd", "solved": True}),
    }
    page.evaluate(
        "(items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
        misplaced,
    )
    page.reload()
    expect(Cell.number(page, 2).editor()).to_contain_text("von früher")
    Exercise.by_id(page, "erstes-quiz").expect_solved()
    stored = page.evaluate("() => Object.keys(localStorage).sort()")
    assert f"lk:/kurs/:draft:erste-schritte/#1:{fnv1a(code)}" in stored
    assert "lk:/kurs/:exercise:erste-schritte/#erstes-quiz" in stored
    assert "lk:/kurs/:exercise:#erstes-quiz" not in stored
    assert "lk:/kurs/:exercise:#rueckstand" in stored  # not this page's: left alone


def test_a_reload_runs_the_readers_console_commands_again(page: Page, site_url: str) -> None:
    log = Console.first(page, on=site_url + FIRST_STEPS)
    log.expect_answer('produce orders key=order-61 {"order":61}', "Partition 1, Offset 1")
    page.reload()
    # The transcript and the state are back: the next record on that partition is offset 2.
    expect(log.entries.filter(has_text="key=order-61")).to_have_count(1)
    expect(log.root.locator(".lk-console__note")).to_contain_text("von vorhin lief noch einmal")
    log.expect_answer('produce orders key=order-61 {"order":62}', "Partition 1, Offset 2")
    log.box.press("ArrowUp")
    expect(log.box).to_have_value('produce orders key=order-61 {"order":62}')
    log.box.press("ArrowUp")
    expect(log.box).to_have_value('produce orders key=order-61 {"order":61}')
    # Zurücksetzen: back to the author's state, and a reload keeps it so.
    log.root.get_by_role("button", name=re.compile("zurücksetzen$")).click()
    page.reload()
    expect(log.entries.filter(has_text="key=order-61")).to_have_count(0)
    log.expect_answer('produce orders key=order-61 {"order":61}', "Partition 1, Offset 1")


def console_version(data: dict[str, Any]) -> str:
    """What a console starts from, as ``consoleVersion`` hashes it (console/saved.ts)."""
    started = [data["kind"], data["options"], data["setup"]]
    return fnv1a(json.dumps(started, ensure_ascii=False, separators=(",", ":")))


#: Where the blocks stood on the single lesson-2 page before it was split (its cells by
#: index among all cells, its plain consoles by slot): what that page's script stored.
OLD_LESSON_2 = "lektionen/ereignisstroeme/"
OLD_GIFT_CELL = 17  # the first cell of session "gift" (step 9), now Teil 3's first cell
OLD_HASH_CELL = 4  # "schluessel = …" (step 4), on Teil 1 still at index 4
OLD_STOCK_CONSOLE = "console:61"  # the topic "stock" (step 11)
OLD_FIRST_CONSOLE = "console:4"  # step 1's console, on Teil 1 still in slot 4
RETURNED = 'produce stock key=product-7 {"product":7,"change":1,"why":"returned"}'


def planted(context: BrowserContext, course: Course, items: dict[str, str]) -> Page:
    """The start page after a reader's storage held ``items`` (as the single lesson-2 page
    wrote them), reloaded so that every block reads them."""
    page = context.new_page()
    page.goto(course.url)
    mounted(page, 1)
    page.evaluate(
        "(items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
        items,
    )
    page.reload()
    return page


def expect_moved(
    page: Page,
    site: str,
    lesson: str,
    draft: str,
    solved: str,
    console: tuple[str, str],
) -> tuple[Console, dict[str, str]]:
    """Open ``lesson``, where work on the single lesson-2 page moved: its first cell holds
    ``draft``, the exercise ``solved`` counts as solved here (stored under this page, no longer
    under the old one), and the console whose setup shows ``console[0]`` shows the command
    ``console[1]`` once. The console and what localStorage holds, for the rest of the test."""
    page.goto(site + lesson)
    mounted(page, 1)
    expect(Cell.number(page, 1).editor()).to_contain_text(draft)
    Exercise.by_id(page, solved).expect_solved()
    setup, line = console
    moved = Console(page.locator("[data-lk-console]", has_text=setup).first)
    expect(moved.entries.filter(has_text=line)).to_have_count(1)
    stored: dict[str, str] = page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")
    assert f"lk:/kurs/:exercise:{lesson}#{solved}" in stored
    assert f"lk:/kurs/:exercise:{OLD_LESSON_2}#{solved}" not in stored
    return moved, stored


def test_work_on_the_steps_that_moved_to_part_3_moves_with_them(
    context: BrowserContext, course: Course, built_site: Path
) -> None:
    """Lesson 2 was one page; steps 9 to 12 stand on Teil 3 now, which names the old page
    (`umgezogen`). What the old page stored for them (a draft, a solved exercise, console
    commands) moves to Teil 3 once; the overview counts the exercise before Teil 3 was ever
    opened; what belongs to Teil 1 stays where it was."""
    part_1 = built_data(built_site, LESSON_2, "cell")
    part_2 = built_data(built_site, LESSON_2_PART_3, "cell")
    gift, hash_cell = part_2[1]["code"], part_1[OLD_HASH_CELL]["code"]
    assert part_2[1]["session"] == "gift" and hash_cell.startswith("schluessel = ")
    retention = next(
        d for d in built_data(built_site, LESSON_2_PART_3, "exercise") if d["id"] == "retention"
    )
    stock = next(
        d
        for d in built_data(built_site, LESSON_2_PART_3, "console")
        if d["setup"][0] == "create topic stock partitions 3" and d["key"].startswith("console:")
    )
    first = built_data(built_site, LESSON_2, "console")[0]
    assert first["key"] == OLD_FIRST_CONSOLE
    typed = [
        {"key": OLD_FIRST_CONSOLE, "version": console_version(first), "line": "topics"},
        {"key": OLD_STOCK_CONSOLE, "version": console_version(stock), "line": RETURNED},
    ]
    old = kept_on_lesson_2(
        drafts=[
            (OLD_GIFT_CELL, gift, "\nprint('Entwurf von früher')"),
            (OLD_HASH_CELL, hash_cell, "\nprint('bleibt in Teil 1')"),
        ],
        solved=retention,
        typed=typed,
    )
    page = planted(context, course, old)
    # Counted on Teil 3 before it was ever opened, and not on Teil 1.
    expect_overview(page, {LESSON_2_PART_3: "1 von", LESSON_2: "0 von"})

    moved, stored = expect_moved(
        page,
        course.url,
        LESSON_2_PART_3,
        draft="Entwurf von früher",
        solved="retention",
        console=("key=product-3", 'why":"returned'),
    )
    expect(moved.log).to_contain_text("→ Partition 2, Offset 3 (p2:3)")
    assert f"lk:/kurs/:draft:{LESSON_2_PART_3}#1:{fnv1a(gift)}" in stored
    assert f"lk:/kurs/:draft:{OLD_LESSON_2}#{OLD_GIFT_CELL}:{fnv1a(gift)}" not in stored
    # Of the old page's commands only Teil 1's are left there; the moved one is Teil 3's.
    assert json.loads(stored[f"lk:/kurs/:consoles:{OLD_LESSON_2}"]) == typed[:1]
    here = json.loads(stored[f"lk:/kurs/:consoles:{LESSON_2_PART_3}"])
    assert [(c["key"], c["line"]) for c in here] == [(stock["key"], RETURNED)]

    # Teil 1 keeps its own: the draft of a cell that stayed, and its console's command.
    page.goto(course.url + LESSON_2)
    mounted(page, 1)
    expect(Cell.number(page, 3).editor()).to_contain_text("bleibt in Teil 1")
    expect(Console.titled(page, "Konsole 1 ·").entries.filter(has_text="topics")).to_have_count(1)


def kept_on_lesson_2(
    drafts: list[tuple[int, str, str]], solved: dict[str, Any], typed: list[dict[str, Any]]
) -> dict[str, str]:
    """What the browser kept for the single lesson-2 page: drafts (the cell's slot there,
    the build's code, what the reader added), a solved exercise (its build data) and the
    commands typed into its consoles."""
    kept = {
        f"lk:/kurs/:draft:{OLD_LESSON_2}#{slot}:{fnv1a(code)}": code + added
        for slot, code, added in drafts
    }
    kept[f"lk:/kurs/:exercise:{OLD_LESSON_2}#{solved['id']}"] = json.dumps(
        {"digest": solved["digest"], "solved": True}
    )
    kept[f"lk:/kurs/:consoles:{OLD_LESSON_2}"] = json.dumps(typed)
    return kept


#: Steps 7 and 8 on the single lesson-2 page (the same slots as above).
OLD_SQL_CELL = 12  # step 7's SQLite cell, now Teil 2's first visible cell
OLD_CRASH_CONSOLE = "console:39"  # step 8's crash ("session-timeout 2")


def test_work_on_steps_7_and_8_moves_to_their_own_page(
    context: BrowserContext, course: Course, built_site: Path
) -> None:
    """Steps 7 and 8 left Teil 1 for a page of their own, which names the old page
    (`umgezogen`): a draft of step 7's cell, a solved exercise of step 8 and the commands
    typed into step 8's plain crash console move there once and are counted there."""
    cells = built_data(built_site, LESSON_2_OUTAGES, "cell")
    sql = next(d["code"] for d in cells if d["code"].startswith("import sqlite3"))
    stalled = next(
        d for d in built_data(built_site, LESSON_2_OUTAGES, "exercise") if d["id"] == "haengt"
    )
    crash = next(
        d
        for d in built_data(built_site, LESSON_2_OUTAGES, "console")
        if d["setup"][0] == "session-timeout 2"
    )
    typed = [
        {
            "key": OLD_CRASH_CONSOLE,
            "version": console_version(crash),
            "line": "describe group billing",
        }
    ]
    old = kept_on_lesson_2(
        drafts=[(OLD_SQL_CELL, sql, "\nprint('Entwurf aus Schritt 7')")],
        solved=stalled,
        typed=typed,
    )
    page = planted(context, course, old)
    expect_overview(page, {LESSON_2_OUTAGES: "1 von", LESSON_2: "0 von"})

    _, stored = expect_moved(
        page,
        course.url,
        LESSON_2_OUTAGES,
        draft="Entwurf aus Schritt 7",
        solved="haengt",
        console=("session-timeout 2", "describe group billing"),
    )
    here = cells.index(next(d for d in cells if d["code"] == sql))
    assert f"lk:/kurs/:draft:{LESSON_2_OUTAGES}#{here}:{fnv1a(sql)}" in stored
    assert f"lk:/kurs/:draft:{OLD_LESSON_2}#{OLD_SQL_CELL}:{fnv1a(sql)}" not in stored
    assert f"lk:/kurs/:consoles:{OLD_LESSON_2}" not in stored
    mine = json.loads(stored[f"lk:/kurs/:consoles:{LESSON_2_OUTAGES}"])
    assert [(c["key"], c["line"]) for c in mine] == [(crash["key"], "describe group billing")]
