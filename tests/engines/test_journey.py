"""A reader's journey through "Erste Schritte" and lesson 1, in Firefox and in WebKit.

The same steps as the Chromium tests (tests/browser/), driven by WebDriver with real
clicks and key presses. Each engine's browser serves all of tests/engines/ (conftest.py);
every test starts on the start page with the reader's storage emptied. A page load
starts Python anew, which in WebKit takes seconds: so a test walks several steps on one
loaded page, as a reader does, and a failure names the step it broke in (steps.py).
"""

from __future__ import annotations

from tests.engines.browsers import Engine
from tests.engines.reader import Reader
from tests.engines.steps import step
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
        reader.click(link)
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


def type_at_end(reader: Reader, editor: dict[str, str], text: str) -> None:
    """Click into an editor, go to the end of its code and type ``text``."""
    reader.click(editor)
    reader.session.press("Control", "End")
    reader.session.type(text)


def wait_stored(reader: Reader, text: str) -> None:
    """Drafts are saved as the reader types: wait until one holding ``text`` is stored."""
    reader.session.wait_for(
        "return Object.keys(localStorage).some((k) => localStorage.getItem(k).includes(arguments[0]))",
        text,
        message=f"a draft holding {text!r} in localStorage",
    )


def draft_of(reader: Reader, editor: dict[str, str]) -> str:
    return reader.session.js("return arguments[0].textContent", editor)


def test_first_steps_every_tool_on_one_page(reader: Reader) -> None:
    """One load of "Erste Schritte": the first cell and what the page keeps for the next
    visit (before anything restarts Python), then each of its tools as the reader tries
    it, Stopp last (it restarts Python)."""
    reader.open(FIRST_STEPS)

    with step("the first cell runs from the memory snapshot"):
        reader.forget_output(1)  # what shows next is the browser's, not the build's
        assert reader.run(1) == "done"
        assert (
            reader.output(1, ".lk-output__text")
            == "1 bestellung-1\n2 bestellung-2\n3 bestellung-3\n"
        )
        assert reader.output(1, ".lk-output__value") == "3"
        stages = reader.session.js("return window.lessonkit.runtime.readyStages")
        assert "snapshot" in stages, stages  # this engine starts from the memory snapshot

    with step("the snapshot is kept in the Cache API and the site stored for offline use"):
        kept = reader.session.wait_for(
            # The decoded WebAssembly is kept there too (worker/kept.ts).
            "return caches.open('lessonkit:/:memory').then((c) => c.keys())"
            ".then((keys) => keys.map((key) => new URL(key.url).pathname)"
            ".find((path) => path.includes('/snapshot-')) || false)",
            message="the kept snapshot",
        )
        assert kept.startswith("/assets/generated/snapshot-")
        offline = reader.session.wait_for(
            "return document.documentElement.dataset.lkOffline",
            timeout=120,
            message="the offline copy",
        )
        assert offline == "ready"

    with step("an exception shows a short traceback"):
        assert reader.run(3) == "error"
        error = reader.output(3, ".lk-output__error")
        assert "Zelle 3, Zeile 4" in error
        assert "ZeroDivisionError: division by zero" in error
        assert "pyodide" not in error.lower()

    with step("a picture (_repr_svg_) and a mermaid diagram"):
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

    with step("an edited cell runs with Shift+Enter"):
        type_at_end(reader, reader.editor(reader.cell(1)), "\nprint('per Tastatur')")
        reader.session.press("Shift", "Enter")
        # Only this run prints the typed line; it ends in "done".
        reader.session.wait_for(
            "return document.querySelector('[data-lk-cell] output').textContent"
            ".includes('per Tastatur')",
            message="the typed line's output",
        )
        assert reader.wait_state(1, "done") == "done"

    with step("time.sleep waits in the worker"):
        # It blocks on Atomics.wait over a shared WebAssembly memory (python-worker.ts).
        code = "import time\nt = time.monotonic()\ntime.sleep(0.3)\ntime.monotonic() - t >= 0.29"
        assert reader.python(code) == "True"

    with step("a console with history (ArrowUp) and Tab completion"):
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

    with step("a prediction, wrong then right"):
        reader.click("#erste-vorhersage .lk-exercise__answer-row input")
        reader.session.type("(3, 'b-2')")
        assert reader.check("erste-vorhersage") == (
            "✗ Noch nicht: Der zweite von 2 Werten stimmt nicht."
        )
        reader.click("#erste-vorhersage .lk-exercise__answer-row input")
        reader.session.press("Control", "a")
        reader.session.type("(3, 'b-3')\n")
        reader.session.wait_for(
            "return document.querySelector('#erste-vorhersage').dataset.solved",
            message="the prediction solved",
        )

    with step("a code task, wrong then right"):
        assert reader.check("erste-aufgabe") == "✗ 0 von 2 Prüfungen bestanden."
        reader.edit(
            reader.editor(reader.session.element("#erste-aufgabe")),
            "def summe(betraege): return sum(betraege)",
        )
        assert reader.check("erste-aufgabe") == "✓ Gelöst: alle 2 Prüfungen bestanden."

    with step("Stopp ends an endless loop, and the next run works"):
        # The loop says when it runs in the worker: Stopp while Python still loads would
        # only cancel the waiting run (issue 17).
        reader.edit(reader.editor(reader.cell(6)), "print('Schleife läuft')\nwhile True: pass")
        reader.click(reader.part(6, ".lk-button--run"))
        reader.session.wait_for(
            "const c = document.querySelectorAll(arguments[0])[5];"
            "return c.dataset.state === 'running' &&"
            " c.querySelector('output').textContent.includes('Schleife läuft');",
            "[data-lk-cell]:not([hidden])",
            message="the endless loop running in the worker",
        )
        assert reader.session.js("return 1 + 1") == 2  # the page stays responsive
        reader.click(reader.part(6, ".lk-button--stop"))
        assert reader.wait_state(6, "stopped") == "stopped"
        assert "Python wurde neu gestartet" in reader.output(6)
        reader.click(reader.part(6, ".lk-button--reset"))
        assert reader.run(6) == "done"
        assert reader.output(6) == "Runde 0\nRunde 1\nRunde 2\n"


def test_python_drafts_and_progress_across_pages_then_the_search(
    engine: Engine, reader: Reader
) -> None:
    """Entered at the start page, then instantly to pages at two depths (issue 26): Python
    stays, drafts and progress survive a reload; the search; nothing left the site."""
    reader.open("")
    follow_instantly(reader, FIRST_STEPS, 2)

    with step("a cell runs after an instant page change"):
        reader.forget_output(1)
        assert reader.run(1) == "done"
        assert reader.output(1)
        # The test's marker counts as the author's code: the reader's own would give the
        # next page a fresh Python (tests/browser/test_pasted_code.py).
        marker = "import sys; sys.lk_same_python = True"
        reader.session.js("window.lessonkit.runtime.publish(arguments[0])", marker)
        reader.python(marker)
        reader.session.js("window.sameDocument = true")

    with step("drafts in a cell and a code task, a solved prediction"):
        type_at_end(reader, reader.editor(reader.cell(2)), "\nprint('Entwurf eins')")
        reader.edit(
            reader.editor(reader.session.element("#erste-aufgabe")),
            "def summe(betraege): return 0  # mein Entwurf",
        )
        reader.click("#erste-vorhersage .lk-exercise__answer-row input")
        reader.session.type("(3, 'b-3')\n")
        reader.session.wait_for(
            "return document.querySelector('#erste-vorhersage').dataset.solved",
            message="the prediction solved",
        )
        wait_stored(reader, "Entwurf eins")
        wait_stored(reader, "mein Entwurf")

    with step("instant navigation keeps Python, with a fresh namespace"):
        follow_instantly(reader, LESSON_1, 3)
        assert reader.session.js("return window.sameDocument") is True  # no full page load
        assert reader.python("import sys; getattr(sys, 'lk_same_python', False)") == "True"
        assert reader.python("'bestellungen' in globals()") == "False"
        reader.forget_output(1)
        assert reader.run(1) == "done"
        assert reader.output(1)

    with step("a reload restores the draft typed on the page"):
        type_at_end(reader, reader.editor(reader.cell(1)), "\nprint('Entwurf zwei')")
        wait_stored(reader, "Entwurf zwei")
        reader.session.reload()
        reader.wait_mounted(LESSON_1)
        # The editor shows the draft once it is mounted (near the viewport).
        assert "Entwurf zwei" in draft_of(reader, reader.editor(reader.cell(1)))
        assert "wiederhergestellt" in reader.output(1)

    with step("the other page's drafts and its solved prediction"):
        reader.open(FIRST_STEPS)
        assert "Entwurf eins" in draft_of(reader, reader.editor(reader.cell(2)))
        assert "wiederhergestellt" in reader.output(2)
        task = reader.editor(reader.session.element("#erste-aufgabe"))
        assert "mein Entwurf" in draft_of(reader, task)
        assert reader.session.js(
            "return document.querySelector('#erste-vorhersage').dataset.solved"
        )

    with step("the overview counts the solved prediction"):
        reader.open("")
        count = reader.session.wait_for(
            "const c = document.querySelector('.lk-progress__count[data-path=\"erste-schritte/\"]');"
            "return c && c.textContent.includes('1 von') && c.textContent",
            message="the overview counting the solved prediction",
        )
        assert count == "1 von 4 gelöst"

    with step("the search finds the course's pages"):
        reader.click(".md-search__input")
        reader.session.type("Bestellung")
        reader.session.wait_for(
            "const m = document.querySelector('.md-search-result__meta');"
            "return m && m.textContent.includes('Suchergebnis');",
            message="search results",
        )

    with step("no request left the machine (all this browser did, the tests before included)"):
        assert engine.proxy.attempts == []
