"""A reader's journey through "Erste Schritte" and lesson 1, in Firefox and in WebKit.

The same steps as the Chromium tests (tests/browser/), driven by WebDriver with real
clicks and key presses. Each engine gets one browser for this module; every test
starts on the start page with the reader's storage emptied.
"""

from __future__ import annotations

import time

from tests.engines.browsers import Engine
from tests.engines.reader import Reader
from tests.engines.webdriver import WebDriverError

FIRST_STEPS = "erste-schritte/"
LESSON_1 = "lektionen/queues-und-idempotenz/"


def follow_instantly(reader: Reader, path: str, count: int) -> None:
    """Click the navigation's link to ``path``: an instant page change, page ``count``.
    Instant navigation is Material's: its script comes once Python is ready (before that,
    a click loads the next page in full, which works too)."""
    # Instant navigation starts once the theme has its sitemap; a click before is a full load.
    reader.session.wait_for(
        "return typeof window.document$ === 'object' && performance.getEntriesByType('resource')"
        ".some((e) => e.name.endsWith('/sitemap.xml') && e.responseEnd > 0)",
        message="the theme's instant navigation (its sitemap loaded)",
    )
    # The visible one of the navigation's links to it (WebKit found a hidden one first).
    link = reader.session.find(
        "return [...document.querySelectorAll('.md-nav--primary a')].find((a) =>"
        " new URL(a.href).pathname.endsWith(arguments[0]) && a.getClientRects().length > 0"
        " && getComputedStyle(a).visibility === 'visible')",
        "/" + path,
    )
    reader.session.js("arguments[0].scrollIntoView({ block: 'center' })", link)
    try:
        reader.session.click(link)
    except WebDriverError as error:
        # WebKit calls a link of a section opened after an instant page change "not
        # interactable"; the theme's instant navigation takes a click event alike.
        if "not interactable" not in str(error):
            raise
        reader.session.js("arguments[0].click()", link)
    reader.session.wait_for(
        "return location.pathname.endsWith(arguments[0]) &&"
        " document.documentElement.dataset.lkPage === arguments[1]",
        "/" + path,
        str(count),
        message=f"{path or 'the start page'}, mounted after instant navigation",
    )


def test_first_cell_runs(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    reader.forget_output(1)
    assert reader.run(1) == "done"
    assert (
        reader.output(1, ".lk-output__text") == "1 bestellung-1\n2 bestellung-2\n3 bestellung-3\n"
    )
    assert reader.output(1, ".lk-output__value") == "3"
    stages = reader.session.js("return window.lessonkit.runtime.readyStages")
    assert "snapshot" in stages, stages  # this engine starts from the memory snapshot
    # The inflated snapshot is kept in the Cache API for the next visit ...
    kept = reader.session.wait_for(
        "return caches.open('lessonkit:/:memory').then((c) => c.keys())"
        ".then((keys) => keys.length === 1 && new URL(keys[0].url).pathname)",
        message="the kept snapshot",
    )
    assert kept.startswith("/assets/generated/snapshot-")
    # ... and the service worker has stored the site for offline use.
    offline = reader.session.wait_for(
        "return document.documentElement.dataset.lkOffline",
        timeout=120,
        message="the offline copy",
    )
    assert offline == "ready"


def test_edit_and_run_with_shift_enter(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    reader.session.click(reader.editor(reader.cell(1)))
    reader.session.press("Control", "End")
    reader.session.type("\nprint('per Tastatur')")
    reader.session.press("Shift", "Enter")
    reader.session.wait_for(
        "return document.querySelector('[data-lk-cell] output').textContent"
        ".includes('per Tastatur')",
        message="the typed line's output",
    )
    assert reader.wait_state(1, "done") == "done"


def test_exception_shows_a_short_traceback(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    assert reader.run(3) == "error"
    error = reader.output(3, ".lk-output__error")
    assert "Zelle 3, Zeile 4" in error
    assert "ZeroDivisionError: division by zero" in error
    assert "pyodide" not in error.lower()


def test_stopp_ends_an_endless_loop_and_the_next_run_works(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    reader.edit(reader.editor(reader.cell(6)), "while True: pass")
    reader.session.click(reader.part(6, ".lk-button--run"))
    reader.wait_state(6, "running")
    # Stopp while Python still loads only cancels the waiting run (issue 17): loaded first.
    reader.session.wait_for(
        "return window.lessonkit.runtime.state === 'ready'", message="Python ready"
    )
    time.sleep(0.5)
    assert reader.session.js("return 1 + 1") == 2  # the page stays responsive
    reader.session.click(reader.part(6, ".lk-button--stop"))
    assert reader.wait_state(6, "stopped") == "stopped"
    assert "Python wurde neu gestartet" in reader.output(6)
    reader.session.click(reader.part(6, ".lk-button--reset"))
    assert reader.run(6) == "done"
    assert reader.output(6) == "Runde 0\nRunde 1\nRunde 2\n"


def test_time_sleep_waits_in_the_worker(reader: Reader) -> None:
    """time.sleep blocks on Atomics.wait over a shared WebAssembly memory (python-worker.ts)."""
    reader.open(FIRST_STEPS)
    assert reader.run(1) == "done"
    code = "import time\nt = time.monotonic()\ntime.sleep(0.3)\ntime.monotonic() - t >= 0.29"
    assert reader.python(code) == "True"


def test_console_with_history_and_completion(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    answer = reader.command("consume orders group billing from-beginning")
    assert "p1:0" in answer
    box = reader.console_input()
    reader.session.press("ArrowUp")
    reader.value(box, "consume orders group billing from-beginning")
    reader.session.press("Control", "a")
    reader.session.press("Backspace")
    reader.session.type("desc")
    reader.session.press("Tab")
    reader.value(box, "describe ")
    reader.session.type("group b")
    reader.session.press("Tab")
    reader.value(box, "describe group billing ")
    reader.session.press("Enter")
    reader.session.wait_for(
        "const e = document.querySelector('[data-lk-console][data-kind=log]')"
        ".querySelectorAll('.lk-console__entry');"
        "return e.length === 4 && e[3].textContent.includes('billing-1');",
        message="describe's answer",
    )


def test_prediction_and_code_task_wrong_then_right(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    reader.session.click("#erste-vorhersage .lk-exercise__answer-row input")
    reader.session.type("(3, 'b-2')")
    assert reader.check("erste-vorhersage") == (
        "✗ Noch nicht: Der zweite von 2 Werten stimmt nicht."
    )
    reader.session.click("#erste-vorhersage .lk-exercise__answer-row input")
    reader.session.press("Control", "a")
    reader.session.type("(3, 'b-3')\n")
    reader.session.wait_for("return document.querySelector('#erste-vorhersage').dataset.solved")

    assert reader.check("erste-aufgabe") == "✗ 0 von 2 Prüfungen bestanden."
    reader.edit(
        reader.editor(reader.session.element("#erste-aufgabe")),
        "def summe(betraege): return sum(betraege)",
    )
    assert reader.check("erste-aufgabe") == "✓ Gelöst: alle 2 Prüfungen bestanden."


def test_picture_and_diagram(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    reader.forget_output(4)
    assert reader.run(4) == "done"
    picture = reader.session.js(
        "const svg = document.querySelectorAll('[data-lk-cell]:not([hidden])')[3]"
        ".querySelector('.lk-output__svg svg');"
        "return svg && [svg.querySelector('title').textContent,"
        " svg.querySelectorAll('rect').length, svg.getBoundingClientRect().height > 0];"
    )
    assert picture == ["Balken je Bestellung", 3, True]
    # Material draws the diagram into a closed shadow root: what the page can see is
    # that `pre.mermaid` became a drawn `div.mermaid` of some height.
    reader.session.element(".mermaid")
    reader.session.wait_for(
        "const d = document.querySelector('div.mermaid');"
        "return d && d.getBoundingClientRect().height > 50;",
        message="a drawn mermaid diagram",
    )


def test_instant_navigation_keeps_python(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    assert reader.run(1) == "done"
    reader.python("import sys; sys.lk_same_python = True")
    reader.session.js("window.sameDocument = true")
    follow_instantly(reader, LESSON_1, 2)
    assert reader.session.js("return window.sameDocument") is True  # no full page load
    assert reader.python("import sys; getattr(sys, 'lk_same_python', False)") == "True"
    assert reader.python("'bestellungen' in globals()") == "False"  # a fresh namespace
    reader.forget_output(1)
    assert reader.run(1) == "done"
    assert reader.output(1)


def test_a_reload_restores_a_draft(reader: Reader) -> None:
    reader.open(FIRST_STEPS)
    reader.session.click(reader.editor(reader.cell(2)))
    reader.session.press("Control", "End")
    reader.session.type("\nprint('meine Änderung')")
    reader.edit(
        reader.editor(reader.session.element("#erste-aufgabe")),
        "def summe(betraege): return 0  # mein Entwurf",
    )
    time.sleep(1)  # drafts are saved as the reader types
    reader.session.reload()
    reader.open(FIRST_STEPS)
    # The editor shows the draft once it is mounted (near the viewport).
    restored = reader.editor(reader.cell(2))
    assert "meine Änderung" in reader.session.js("return arguments[0].textContent", restored)
    assert "wiederhergestellt" in reader.output(2)
    draft = reader.editor(reader.session.element("#erste-aufgabe"))
    assert "mein Entwurf" in reader.session.js("return arguments[0].textContent", draft)


def draft_of(reader: Reader, number: int) -> str:
    return reader.session.js("return arguments[0].textContent", reader.editor(reader.cell(number)))


def test_drafts_and_progress_survive_instant_navigation_and_reload(reader: Reader) -> None:
    """Entered at the start page, then instantly to pages at two depths (issue 26)."""
    reader.open("")
    follow_instantly(reader, FIRST_STEPS, 2)
    reader.session.click(reader.editor(reader.cell(2)))
    reader.session.press("Control", "End")
    reader.session.type("\nprint('Entwurf eins')")
    reader.session.click("#erste-vorhersage .lk-exercise__answer-row input")
    reader.session.type("(3, 'b-3')\n")
    reader.session.wait_for("return document.querySelector('#erste-vorhersage').dataset.solved")
    follow_instantly(reader, LESSON_1, 3)
    reader.session.click(reader.editor(reader.cell(1)))
    reader.session.press("Control", "End")
    reader.session.type("\nprint('Entwurf zwei')")
    time.sleep(1)  # drafts are saved as the reader types

    reader.session.reload()
    reader.open(LESSON_1)
    assert "Entwurf zwei" in draft_of(reader, 1)
    reader.open(FIRST_STEPS)
    assert "Entwurf eins" in draft_of(reader, 2)
    assert reader.session.js("return document.querySelector('#erste-vorhersage').dataset.solved")
    reader.open("")
    count = reader.session.wait_for(
        "const c = document.querySelector('.lk-progress__count[data-path=\"erste-schritte/\"]');"
        "return c && c.textContent.includes('1 von') && c.textContent",
        message="the overview counting the solved prediction",
    )
    assert count == "1 von 4 gelöst"


def test_no_request_leaves_the_site(engine: Engine, reader: Reader) -> None:
    """Everything above and this: every page of the course, and the search."""
    reader.open(LESSON_1)
    assert reader.run(1) == "done"
    reader.session.goto(reader.site_url)
    reader.session.click(".md-search__input")
    reader.session.type("Bestellung")
    reader.session.wait_for(
        "const m = document.querySelector('.md-search-result__meta');"
        "return m && m.textContent.includes('Suchergebnis');",
        message="search results",
    )
    assert engine.proxy.attempts == []
