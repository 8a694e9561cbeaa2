"""Accessibility (issue 17): axe-core on every page, and the whole journey by keyboard.

The audit runs axe-core (npm, pinned) on every page of the built site in both colour
schemes at a desktop and a phone width (what each view leaves out, and why:
``tests/browser/axe.py``, ``views``), after the course's blocks have mounted, and fails
on any serious or critical violation: the light scheme in tests/browser/test_every_page.py,
which opens every page anyway, the dark scheme here. The keyboard tests walk a cell, a console,
each exercise kind and the footer navigation without a mouse.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser import axe
from tests.browser.conftest import OPEN_SHADOW_ROOTS
from tests.browser.pages import FIRST_STEPS, PHONE, Cell, Console, pages_of


def test_what_the_audit_leaves_out_is_measured_elsewhere() -> None:
    # Should the course colour by width, the phone view must measure contrast again;
    # should a scheme change more than colours, the dark view must audit every rule.
    assert not axe.colours_by_width(), axe.colours_by_width()
    assert not axe.scheme_rules_beyond_colours(), axe.scheme_rules_beyond_colours()
    wrong = '[data-md-color-scheme="slate"] .lk-cell { --lk-x: red; display: none }'
    assert axe.scheme_rules_beyond_colours(wrong) == [
        '[data-md-color-scheme="slate"] .lk-cell { display: none }'
    ]
    assert axe.scheme_rules_beyond_colours("@media (prefers-color-scheme: dark) { a { --x: 1 } }")
    assert axe.views("dark", whole=True) == [(1280, {}), (390, {})]
    assert axe.views("light") == [(1280, {}), (390, {"without": ("color-contrast",)})]


def rules_named(report: str) -> set[str]:
    """The rules a part of ``axe.audit``'s report names (``describe``'s unindented lines)."""
    return {line.split(" (")[0] for line in report.splitlines()[1:] if not line.startswith(" ")}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_view_finds_what_it_audits(browser: Any, site_url: str, scheme: str) -> None:
    # Planted: grey text on grey (a contrast violation) and a button without a name.
    with axe.audited_page(
        browser, viewport={"width": axe.WIDTHS[0], "height": 900}, color_scheme=scheme
    ) as page:
        page.goto(site_url + FIRST_STEPS)
        axe.wait_mounted(page)
        page.evaluate(
            """() => {
                const text = document.createElement("p");
                text.textContent = "kaum lesbar";
                Object.assign(text.style, { color: "#777", background: "#888" });
                document.querySelector("article").prepend(text, document.createElement("button"));
            }"""
        )
        report = axe.audit(page, scheme, name="probe")
        # Each part: its view's head line, then one line per rule (indented: its nodes).
        views = {part.splitlines()[0]: rules_named(part) for part in report}
        if scheme == "light":  # every rule on the desktop, all but contrast on the phone
            assert views == {
                "== probe (light, 1280 px)": {"color-contrast", "button-name"},
                "== probe (light, 390 px)": {"button-name"},
            }
        else:  # the colour rules, on the desktop
            assert views == {"== probe (dark, 1280 px)": {"color-contrast"}}
        whole = axe.audit(page, scheme, whole=True, name="probe")
        assert [rules_named(part) >= {"color-contrast", "button-name"} for part in whole] == [
            True,
            True,
        ]


def test_axe_finds_no_serious_violation_on_any_page_in_the_dark_scheme(
    browser: Any, built_site: Path, site_url: str
) -> None:
    # The light scheme is audited where every page is opened anyway, in
    # tests/browser/test_every_page.py; here each page once more, in the dark scheme.
    context = browser.new_context(
        viewport={"width": axe.WIDTHS[0], "height": 900}, color_scheme="dark"
    )
    axe.install(context)
    page = context.new_page()
    page.set_default_timeout(60_000)
    paths = pages_of(built_site)
    assert len(paths) >= 9, paths
    assert "" in paths  # the start page, audited whole at every width
    report = []
    try:
        for path in paths:
            page.set_viewport_size({"width": axe.WIDTHS[0], "height": 900})
            page.goto(site_url + path)
            axe.wait_mounted(page)
            report += axe.audit(page, "dark", whole=path == "", name=f"/{path}")
    finally:
        context.close()
    assert not report, "\n".join(report)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_in_a_console_on_a_touch_screen(
    browser: Any, site_url: str, scheme: str
) -> None:
    # The touch buttons, the hint for touch and code in an error answer, as a phone shows them.
    with axe.audited_page(browser, viewport=PHONE, color_scheme=scheme, has_touch=True) as page:
        page.goto(site_url + FIRST_STEPS)
        axe.wait_mounted(page)
        console = Console.first(page)
        console.command("describ group billing")
        expect(console.root.locator("code.lk-console__code").first).to_be_visible()
        console.box.focus()
        expect(console.root.locator(".lk-console__hint")).to_be_visible()
        found = axe.violations(page, "[data-lk-console]")
        assert not found, axe.describe(found)


# --- keyboard -------------------------------------------------------------------------


def active(page: Page) -> dict[str, str]:
    """What has focus: tag, text, accessible-name attribute, classes."""
    return page.evaluate(
        """() => {
            const el = document.activeElement;
            return {
                tag: el.tagName.toLowerCase(),
                text: (el.textContent || "").trim().slice(0, 80),
                label: el.getAttribute("aria-label") || "",
                cls: el.className && el.className.baseVal === undefined ? el.className : "",
            };
        }"""
    )


def tab_until(page: Page, predicate: object, limit: int = 40) -> None:
    """Press Tab until `predicate(active(page))` holds."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if predicate(active(page)):  # type: ignore[operator]
            return
    raise AssertionError(f"focus never arrived; last: {active(page)}")


def focus_before(target: Locator) -> None:
    """Put focus on the element just before `target` in the page (its head line)."""
    target.scroll_into_view_if_needed()
    target.evaluate(
        """(node) => {
            const head = node.querySelector(".lk-cell__head, .lk-exercise__head, .lk-console__head");
            head.tabIndex = -1;
            head.focus();
        }"""
    )


def test_tab_passes_through_a_cell_editor_without_changing_the_code(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = Cell.number(page, 1).root
    expect(target.locator(".cm-content")).to_be_visible()
    before = target.locator(".cm-content").inner_text()
    focus_before(target)
    page.keyboard.press("Tab")
    assert "cm-content" in active(page)["cls"]
    hint = target.locator(".lk-editor__hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Strg+M")
    page.keyboard.press("Tab")  # the reader has not typed: Tab moves on
    assert active(page)["text"] == "Ausführen"
    assert target.locator(".cm-content").inner_text() == before
    # Typing opts in to indenting; Escape, then Tab leaves; Ctrl+M switches.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Control+End")
    page.keyboard.type("\nx = 1")
    expect(hint).to_contain_text("Esc, dann Tab: Editor verlassen")
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    expect(target.locator(".cm-content")).to_contain_text("    x = 1")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert active(page)["text"] == "Ausführen"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Control+m")
    expect(hint).to_have_attribute("data-tab", "moves")
    page.keyboard.press("Tab")
    assert active(page)["text"] == "Ausführen"


def test_run_keeps_focus_and_the_status_is_the_one_live_region(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    second = Cell.number(page, 2).root
    run = second.get_by_role("button", name="Zelle 2 ausführen")
    run.focus()
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("data-state", "done")
    # Still on the button (a disabled one would have dropped focus to <body>).
    assert active(page)["label"] == "Zelle 2 ausführen"
    status = second.locator(".lk-cell__status")
    expect(status).to_have_text(re.compile(r"^Fertig \(\d+,\d\d s\)$"))
    expect(status).to_have_attribute("aria-live", "polite")
    # Zelle 1 ran first, silently; no output is a live region.
    expect(Cell.number(page, 1).root.locator(".lk-cell__status")).to_have_attribute(
        "aria-live", "off"
    )
    outputs = page.locator("[data-lk-cell] output")
    cells = page.locator("[data-lk-cell]").count()
    assert cells > 0
    expect(outputs).to_have_count(cells)  # every cell's, hidden ones too
    for output in outputs.all():
        assert output.get_attribute("aria-live") == "off"
    # A second Enter on the same, still focused button runs again.
    page.keyboard.press("Enter")
    expect(second.locator("output")).to_contain_text("5 Bestellungen")


def test_single_key_shortcuts_of_the_theme_stay_out_of_the_course(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    axe.wait_mounted(page)
    url = page.url
    Cell.number(page, 1).root.get_by_role("button", name="Zelle 1 zurücksetzen").focus()
    for key in ["n", "p", "s", "."]:
        page.keyboard.press(key)
    page.wait_for_timeout(500)
    assert page.url == url
    assert "lk-button" in active(page)["cls"]


def test_console_by_keyboard_and_its_transcript_scrolls(page: Page, site_url: str) -> None:
    page.goto(site_url + "lektionen/ereignisstroeme/")
    console = page.locator("[data-lk-console]").first
    focus_before(console)
    page.keyboard.press("Tab")
    log = console.locator(".lk-console__log")
    assert active(page)["tag"] == "pre"  # the transcript: focusable, labelled
    expect(log).to_have_attribute("aria-label", re.compile("^Verlauf von "))
    page.keyboard.press("Tab")
    assert active(page)["tag"] == "input"
    page.keyboard.type("topics")
    page.keyboard.press("Enter")
    expect(console.locator(".lk-console__entry").last).to_contain_text("topics")
    # The picture says its state in words, also after a command (sanitised live SVG).
    desc = console.locator(".lk-console__picture svg[role=img] desc")
    before = desc.text_content()
    assert before and before.startswith("Topic „orders“")
    page.keyboard.type('produce orders {"order": 70}')
    page.keyboard.press("Enter")
    expect(desc).not_to_have_text(before)
    expect(desc).to_contain_text("Topic „orders“")
    names = [b.get_attribute("aria-label") for b in console.get_by_role("button").all()]
    # Ausführen and Zurücksetzen; the touch buttons (Ergänzen, ↑, ↓) show on touch screens only.
    assert len(names) == 2, names
    assert all(name and re.search(r"Konsole \d+", name) for name in names), names


def test_each_exercise_kind_by_keyboard(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    axe.wait_mounted(page)
    # Prediction: type, Enter.
    prediction = page.locator("#erste-vorhersage")
    prediction.get_by_label("Deine Vorhersage").focus()
    page.keyboard.type("(3, 'b-3')")
    page.keyboard.press("Enter")
    expect(prediction).to_have_attribute("data-solved", "true")

    # Code task: Tab through the editor leaves the start code unchanged; Prüfen keeps focus;
    # the hint button stays focused after the last hint.
    task = page.locator("#erste-aufgabe")
    code = task.locator(".cm-content")
    expect(code).to_be_visible()
    start = code.inner_text()
    focus_before(task)
    tab_until(page, lambda a: "cm-content" in a["cls"])
    page.keyboard.press("Tab")
    assert code.inner_text() == start
    assert active(page)["label"] == "Übung 2 ausführen"  # runs without a verdict
    page.keyboard.press("Tab")
    assert active(page)["label"].endswith("prüfen")
    page.keyboard.press("Enter")
    expect(task.locator(".lk-feedback")).to_contain_text("0 von 2")
    assert active(page)["label"].endswith("prüfen")
    hint = task.get_by_role("button", name=re.compile(r"^Hinweis"))
    hint.focus()
    page.keyboard.press("Enter")
    assert active(page)["label"].startswith("Alle Hinweise gezeigt")
    expect(task.locator(".lk-output__error, .lk-feedback--wrong").first).to_be_visible()

    # Console task: type a command, Enter, then Prüfen by keyboard.
    console_task = page.locator("#erste-konsole")
    console_task.get_by_label("Befehl für Übung 3").focus()
    page.keyboard.type("create topic payments partitions 2")
    page.keyboard.press("Enter")
    expect(console_task.locator(".lk-console__entry")).to_have_count(2)
    console_task.get_by_role("button", name="Übung 3 prüfen").focus()
    page.keyboard.press("Enter")
    expect(console_task).to_have_attribute("data-solved", "true")

    # Quiz: a named group; arrow keys choose, Enter checks; the verdict is text.
    quiz = page.locator("#erstes-quiz")
    group = quiz.get_by_role("group")
    expect(group).to_have_accessible_name(re.compile("Wähle"))
    quiz.locator("input").first.focus()
    page.keyboard.press("Space")
    outline = quiz.locator("input").first.evaluate("node => getComputedStyle(node).outlineStyle")
    assert outline != "none"  # visible focus on the radio
    tab_until(page, lambda a: a["label"].endswith("prüfen"))
    page.keyboard.press("Enter")
    expect(quiz.locator(".lk-quiz__verdict").first).to_be_visible()
    expect(quiz.locator(".lk-quiz__verdict")).to_contain_text([re.compile("Richtig|Falsch")])
    # A wrong answer keeps the solution back; it comes on request, asked in the page.
    solution = quiz.locator("details.lk-exercise__solution")
    expect(solution).to_be_hidden()
    page.keyboard.press("Tab")
    assert active(page)["label"].startswith("Lösung zeigen")
    page.keyboard.press("Enter")
    assert active(page)["label"].startswith("Ja, Lösung zeigen")
    page.keyboard.press("Enter")
    expect(solution).to_be_visible()
    assert active(page)["tag"] == "summary"


def test_footer_navigation_starts_the_next_page_at_its_heading(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    axe.wait_mounted(page)
    page.evaluate("window.sameDocument = true")
    for count in (2, 3, 4):
        link = page.locator("a.md-footer__link--next")
        link.focus()
        page.keyboard.press("Enter")
        expect(page.locator("html")).to_have_attribute("data-lk-page", str(count))
        assert page.evaluate("window.sameDocument") is True  # instant navigation
        # The new page at its top, focus on its heading (once the page has settled).
        page.wait_for_function(
            "() => window.scrollY === 0 && document.activeElement.tagName === 'H1'"
        )


def test_stopp_while_python_loads_cancels_without_restarting(
    browser: object, site_url: str, tmp_path: Path
) -> None:
    """A slow start: the reader sees bytes arrive; Stopp ends the waiting run only."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)  # type: ignore[attr-defined]
    context.add_init_script(OPEN_SHADOW_ROOTS)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        held: list[object] = []
        # Pyodide's Emscripten module waits until the test lets it through; its WebAssembly
        # and the chosen start's files download meanwhile (the reader sees their bytes).
        page.route(re.compile(r"pyodide\.asm\.mjs"), lambda route: held.append(route))
        page.goto(site_url + FIRST_STEPS)
        first = Cell.number(page, 1).root
        build_output = first.locator("output").inner_text()
        first.get_by_role("button", name="Zelle 1 ausführen").click()
        status = first.locator(".lk-cell__status")
        expect(status).to_have_text(re.compile(r"^Python (wird geladen|startet) …$"))
        expect(first.locator(".lk-cell__progress")).to_have_text(re.compile(r"MB$"))
        expect(first.locator("output")).to_have_text(build_output)  # kept while it loads
        first.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "loading-phone.png"))
        epoch = page.evaluate("window.lessonkit.runtime.epoch")
        first.get_by_role("button", name="Stopp: Zelle 1").click()
        expect(status).to_contain_text("Abgebrochen")
        assert page.evaluate("window.lessonkit.runtime.epoch") == epoch  # no restart
        assert page.evaluate("window.lessonkit.runtime.state") == "loading"
        expect(first.locator("output")).to_have_text(build_output)
        for route in held:
            route.continue_()  # type: ignore[attr-defined]
        first.get_by_role("button", name="Zelle 1 ausführen").click()
        expect(first).to_have_attribute("data-state", "done")
    finally:
        context.close()


def test_quiz_verdicts_show_in_forced_colours(page: Page, site_url: str, tmp_path: Path) -> None:
    page.emulate_media(forced_colors="active")
    page.goto(site_url + FIRST_STEPS)
    quiz = page.locator("#erstes-quiz")
    quiz.get_by_label("Auf einem Server des Kurses.").check()
    quiz.get_by_role("button", name=re.compile("prüfen$")).click()
    verdicts = quiz.locator(".lk-quiz__verdict")
    expect(verdicts.first).to_be_visible()
    expect(quiz.locator("li.lk-quiz__option", has_text="Auf einem Server")).to_contain_text(
        "✗ Falsch"
    )
    quiz.get_by_role("button", name=re.compile("^Lösung zeigen")).click()
    quiz.get_by_role("button", name=re.compile("^Ja, Lösung zeigen")).click()
    expect(quiz.locator("li.lk-quiz__option", has_text="Web Worker")).to_contain_text(
        "✓ Richtig (nicht gewählt)"
    )
    quiz.screenshot(path=str(tmp_path / "quiz-forced-colours.png"))


def test_a_wide_table_on_a_phone_is_a_focusable_named_region(
    browser: object, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 900})  # type: ignore[attr-defined]
    try:
        page = context.new_page()
        page.goto(site_url + "autoren/")
        regions = page.locator(".md-typeset__scrollwrap[role=region]")
        expect(regions.first).to_have_attribute("aria-label", "Tabelle, seitlich scrollbar")
        expect(regions.first).to_have_attribute("tabindex", "0")
        wide = regions.count()
        assert wide >= 1
        # At desktop width more tables fit: fewer are regions, and none that fits is one.
        page.set_viewport_size({"width": 1280, "height": 900})
        expect(page.locator(".md-typeset__scrollwrap[role=region]")).not_to_have_count(wide)
        fitting = page.evaluate(
            "[...document.querySelectorAll('.md-typeset__scrollwrap')]"
            ".filter(w => w.scrollWidth <= w.clientWidth + 1 && w.hasAttribute('tabindex')).length"
        )
        assert fitting == 0
    finally:
        context.close()
