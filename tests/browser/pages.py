"""Page objects for the browser tests: the course's pages and blocks, named once.

A test reads like a reader's steps: ``Cell.number(page, 2).run()``,
``Console.first(page).command("topics")``, ``Exercise.by_id(page, "x").check()``.
Each object keeps its Playwright locator in ``root`` for the test's own ``expect``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, expect

FIRST_STEPS = "erste-schritte/"
LESSON_1 = "lektionen/queues-und-idempotenz/"
LESSON_1_PART_2 = "lektionen/outbox-dlq-pubsub/"
LESSON_2 = "lektionen/ereignisstroeme/"
LESSON_2_OUTAGES = "lektionen/ereignisstroeme-ausfall/"
LESSON_2_PART_3 = "lektionen/ereignisstroeme-2/"
LESSON_3 = "lektionen/eda-eventloop-actors-cqrs/"
LESSON_4 = "lektionen/eda-cqrs/"
LESSON_5 = "lektionen/timeouts-retries-backpressure/"
LESSON_TIME = "lektionen/zeit-ordnung-kausalitaet/"
LESSON_SAGAS = "lektionen/sagas/"

#: A phone's viewport (CSS pixels).
PHONE = {"width": 390, "height": 844}

RUN = re.compile("ausführen$")
CHECK = re.compile(r"Übung \d+ prüfen")
FINISHED = re.compile("done|error")
#: The deployment's version baked into sw.js.
SW_VERSION = re.compile(r'version:"([0-9a-f]{16})"')
#: What a solved code or console task's verdict says (and only a solved one).
SOLVED = re.compile("Gelöst")
#: A challenge's verdict when every seed passes.
ALL_SEEDS_PASS = "✓ Gelöst: alle {seeds} Läufe bestanden (Seeds 1–{seeds})."
#: How long a challenge's check may take: a failing seed is run, judged, shrunk and drawn in
#: the reader's Python, every passing one run and judged.
CHALLENGE_CHECK = 180_000
#: What the verdict on a right prediction or quiz answer says.
RIGHT = re.compile("✓ Richtig")
#: What the verdict on a wrong prediction or quiz answer starts with (no solution given).
NOT_YET = re.compile("^✗ Noch nicht")
#: How a run of code without a verdict ends (its status).
RUN_ENDED = re.compile("^(Fertig|Fehler|Gestoppt)$")


class Part:
    """A block's part, found inside the block's ``root`` by a CSS selector.

    Declared once as a class attribute (``text = Part(".lk-output__text")``), read like
    a property: ``cell.text`` is the Locator.
    """

    def __init__(self, selector: str, doc: str | None = None) -> None:
        self.selector = selector
        self.__doc__ = doc

    def __get__(self, block: Any, owner: type | None = None) -> Locator:
        return block.root.locator(self.selector)


@dataclass(frozen=True)
class Cell:
    """A ``pycell`` block."""

    root: Locator

    @classmethod
    def number(cls, page: Page, number: int) -> Cell:
        """The n-th visible cell (1-based, like its label "Zelle n")."""
        return cls(page.locator("[data-lk-cell]:not([hidden])").nth(number - 1))

    @classmethod
    def on(cls, page: Page, url: str, number: int) -> Cell:
        """Goes to ``url`` and gives its n-th visible cell."""
        page.goto(url)
        return cls.number(page, number)

    @classmethod
    def with_code(cls, page: Page, text: str) -> Cell:
        """The first visible cell whose code contains ``text``."""
        return cls(page.locator("[data-lk-cell]:not([hidden])").filter(has_text=text).first)

    @classmethod
    def only_one_with(cls, page: Page, text: str) -> Cell:
        """The one visible cell whose code contains ``text`` (fails if there are more)."""
        cells = page.locator("[data-lk-cell]:not([hidden])").filter(has_text=text)
        expect(cells).to_have_count(1)
        return cls(cells.first)

    output = Part("output")
    text = Part(".lk-output__text", "What the run printed.")
    value = Part(".lk-output__value", "The REPL value of the last line.")
    error = Part(".lk-output__error")
    svg = Part(".lk-output__svg svg")

    def editor(self) -> Locator:
        """The cell's CodeMirror editor (mounted once the cell is near the viewport)."""
        self.root.scroll_into_view_if_needed()
        return self.root.locator(".cm-content")

    def forget_build_output(self) -> None:
        """Empty the output the build wrote, so what shows next is the browser's own."""
        self.output.evaluate("node => node.replaceChildren()")

    def start(self) -> None:
        """Press "Ausführen" without waiting for the end."""
        self.root.get_by_role("button", name=RUN).click()

    def run(self, state: str | re.Pattern[str] = FINISHED) -> None:
        """Press "Ausführen" and wait until the run ended in ``state`` (done or error)."""
        self.start()
        expect(self.root).to_have_attribute("data-state", state)

    def run_code(self, code: str, state: str | re.Pattern[str] = FINISHED) -> None:
        """Type ``code`` over the cell's code and run it to its end."""
        self.editor().fill(code)
        self.run(state)

    def start_code(self, code: str) -> None:
        """Type ``code`` over the cell's code and start it; it is running on return."""
        self.editor().fill(code)
        self.start()
        expect(self.root).to_have_attribute("data-state", "running")

    def run_live(self, state: str | re.Pattern[str] = FINISHED) -> None:
        """Run in the browser, with the build's output gone first."""
        self.forget_build_output()
        self.run(state)

    def stop(self) -> None:
        self.root.get_by_role("button", name="Stopp").click()


@dataclass(frozen=True)
class Console:
    """A ``log-konsole``, ``queue-konsole`` or ``saga-konsole``, or the console of a ``konsolen-aufgabe``."""

    root: Locator

    @classmethod
    def first(cls, page: Page, kind: str = "log", on: str | None = None) -> Console:
        """The open page's first console of ``kind`` (or the page's at ``on``, opened first)."""
        if on is not None:
            page.goto(on)
        return cls(page.locator(f"[data-lk-console][data-kind={kind}]").first)

    @classmethod
    def used_once(cls, page: Page, url: str) -> Console:
        """Goes to ``url`` and gives its first log console after one command (``topics``):
        mounted, with Python ready."""
        page.goto(url)
        console = cls.first(page)
        console.command("topics")
        return console

    @classmethod
    def titled(cls, page: Page, title: str) -> Console:
        """The console whose head starts with ``title`` (e.g. "Konsole 1 ·")."""
        head = page.locator(".lk-console__head", has_text=re.compile("^" + re.escape(title)))
        return cls(page.locator("[data-lk-console]", has=head))

    @property
    def box(self) -> Locator:
        """The command line ("Befehl für Konsole 1", "Befehl für Übung 3")."""
        return self.root.get_by_label(re.compile("^Befehl für "))

    entries = Part(".lk-console__entry")
    log = Part(".lk-console__log")
    picture = Part(".lk-console__picture")

    def command(self, line: str) -> Locator:
        """Type ``line``, press Enter, wait for and return the new transcript entry."""
        before = self.entries.count()
        self.box.fill(line)
        self.box.press("Enter")
        expect(self.entries).to_have_count(before + 1)
        return self.entries.last

    def submit_burst(self, count: int) -> None:
        """Submit the comments ``# Befehl 0`` … ``# Befehl {count - 1}`` in one task, as
        quickly as a reader could never type them; returns without waiting for answers."""
        self.root.evaluate(
            """(root, count) => {
                const box = root.querySelector("input");
                for (let i = 0; i < count; i++) {
                    box.value = `# Befehl ${i}`;
                    box.form.requestSubmit();
                }
            }""",
            count,
        )

    def expect_answer(self, line: str, text: str) -> Locator:
        """Type ``line``; its transcript entry contains ``text``. Return the entry."""
        entry = self.command(line)
        expect(entry).to_contain_text(text)
        return entry

    def expect_refusal(self, line: str, text: str) -> Locator:
        """Type ``line``; its entry is marked as an error and contains ``text``."""
        entry = self.expect_answer(line, text)
        expect(entry).to_have_class(re.compile("lk-console__entry--error"))
        return entry


@dataclass(frozen=True)
class Exercise:
    """A ``vorhersage``, ``aufgabe``, ``konsolen-aufgabe`` or ``quiz``."""

    root: Locator

    @classmethod
    def by_id(cls, page: Page, exercise_id: str) -> Exercise:
        return cls(page.locator(f"#{exercise_id}"))

    @classmethod
    def mounted(cls, page: Page, exercise_id: str, on: str | None = None) -> Exercise:
        """The exercise ``exercise_id`` of the open page (or of the page at ``on``, opened
        first), scrolled to, once its editor shows."""
        if on is not None:
            page.goto(on)
        task = cls.by_id(page, exercise_id)
        task.root.scroll_into_view_if_needed()
        expect(task.editor).to_be_visible(timeout=60_000)
        return task

    @classmethod
    def opened(cls, page: Page, url: str) -> Exercise:
        """Open ``url`` (a page's address with ``#id``) and return the exercise it names."""
        page.goto(url)
        return cls.by_id(page, urlsplit(url).fragment)

    feedback = Part(".lk-feedback")
    notes = Part(".lk-feedback-note", "What the check forgave, or how many tries are left.")
    editor = Part(".cm-content")
    failed_checks = Part(".lk-check--failed")
    solution = Part("details.lk-exercise__solution")
    run_output = Part(".lk-exercise__run", "A code task's output of Ausführen.")
    run_status = Part(".lk-exercise__bar .lk-cell__status")

    @property
    def solution_button(self) -> Locator:
        return self.root.get_by_role("button", name=re.compile("^Lösung zeigen"))

    @property
    def confirmation(self) -> Locator:
        """The in-page question "Lösung zeigen? …" (not the browser's confirm())."""
        return self.root.get_by_role("group", name=re.compile(r"^Lösung zeigen\?"))

    def show_solution(self) -> None:
        """Press "Lösung zeigen", answer the page's question with yes; the solution shows."""
        self.solution_button.click()
        self.confirmation.get_by_role("button", name=re.compile("^Ja, Lösung zeigen")).click()
        expect(self.solution).to_be_visible()

    def run(self) -> Locator:
        """Press a code task's "Ausführen"; wait until the run ended; return its output."""
        self.run_status.evaluate("node => node.replaceChildren()")
        self.root.get_by_role("button", name=re.compile(r"Übung \d+ ausführen$")).click()
        expect(self.run_status).to_have_text(RUN_ENDED)
        return self.run_output

    @property
    def answer(self) -> Locator:
        """A prediction's answer box."""
        return self.root.get_by_label("Deine Vorhersage")

    @property
    def console(self) -> Console:
        return Console(self.root)

    @property
    def data(self) -> dict[str, Any]:
        """What the build wrote for the page's script (starting code, solution, settings)."""
        return json.loads(
            self.root.locator(".lk-exercise__data").get_attribute("data-lk-json") or "{}"
        )

    @property
    def seeds(self) -> list[int]:
        """The seeds a challenge's ``Prüfen`` runs, as the build wrote them."""
        seeds: list[int] = self.data["vorgabe"]["seeds"]
        return seeds

    def press_check(self) -> None:
        """Press "Übung n prüfen" without waiting for anything."""
        self.root.get_by_role("button", name=CHECK).click()

    def check(self) -> Locator:
        """Press "Übung n prüfen"; wait for and return the verdict."""
        self.press_check()
        expect(self.feedback).to_be_visible()
        return self.feedback

    def predict(self, answer: str) -> Locator:
        """Type a prediction's answer and check it; return the verdict."""
        self.answer.fill(answer)
        return self.check()

    def choose(self, *labels: str | re.Pattern[str]) -> None:
        """Tick quiz answers."""
        for label in labels:
            self.root.get_by_label(label).check()

    def choose_wrong(self, *labels: str | re.Pattern[str]) -> None:
        """Tick quiz answers that are not (all) the right ones; checked, they are refused."""
        self.choose(*labels)
        expect(self.check()).to_contain_text("Noch nicht")

    def choose_right(self, *labels: str | re.Pattern[str]) -> None:
        """Tick the quiz answers that make it right; checked, the quiz counts as solved."""
        self.choose(*labels)
        self.check_solved(RIGHT)

    def untick(self, *labels: str | re.Pattern[str]) -> None:
        """Untick answers of a quiz with more than one right answer."""
        for label in labels:
            self.root.get_by_label(label).uncheck()

    def type(self, *lines: str) -> None:
        """Type each line into a console task's console, in order."""
        for line in lines:
            self.console.command(line)

    def replace_code(self, code: str) -> None:
        """Select all of a task's code, delete it, and type ``code`` instead."""
        self.editor.click()
        self.root.page.keyboard.press("Control+A")
        self.root.page.keyboard.press("Delete")
        self.editor.fill(code)

    def expect_solved(self) -> None:
        expect(self.root).to_have_attribute("data-solved", "true")

    def expect_unsolved(self) -> None:
        expect(self.root).not_to_have_attribute("data-solved", "true")

    def check_fails(self, reason: str) -> None:
        """Press "prüfen"; the first failed check names ``reason``."""
        self.check()
        expect(self.failed_checks.first).to_contain_text(reason)

    def passes_with(self, code: str, timeout: float = CHALLENGE_CHECK) -> None:
        """Type ``code`` into a challenge and check it: every seed passes."""
        self.replace_code(code)
        expect(self.check()).to_have_text(ALL_SEEDS_PASS.format(seeds=self.seeds), timeout=timeout)

    def wrong_then_right(
        self,
        wrong: Sequence[str],
        reason: str,
        right: Sequence[str],
        verdict: str | re.Pattern[str] = SOLVED,
    ) -> None:
        """A console task: after the lines ``wrong`` "prüfen" names ``reason``; "Zurücksetzen"
        brings back the console as it was before them; the lines ``right`` solve it."""
        before = self.console.entries.count()
        self.type(*wrong)
        self.check_fails(reason)
        self.root.get_by_role("button", name="Zurücksetzen").click()
        expect(self.console.entries).to_have_count(before)
        self.type(*right)
        self.check_solved(verdict)

    def check_solved(self, verdict: str | re.Pattern[str] = SOLVED) -> None:
        """Press "prüfen"; the verdict is ``verdict`` (or matches it) and the task counts as solved."""
        expect(self.check()).to_have_text(verdict)
        self.expect_solved()

    def predict_wrong(self, answer: str, says: str | None = None) -> None:
        """Predict ``answer``; it is refused (with ``says`` in the verdict, if given)."""
        verdict = self.predict(answer)
        if says is not None:
            expect(verdict).to_contain_text(says)
        self.expect_unsolved()

    def predict_right(self, answer: str) -> None:
        """Predict ``answer``; the prediction counts as solved."""
        self.answer.fill(answer)
        self.check_solved(RIGHT)

    def predict_wrong_then_right(self, wrong: str, right: str, says: str | None = None) -> None:
        """Predict ``wrong``, which is refused (with ``says`` in the verdict, if given), then
        ``right``, which counts as solved."""
        self.predict_wrong(wrong, says)
        self.predict_right(right)


def stored_progress(page: Page, exercise_id: str) -> dict[str, Any] | None:
    """What the page keeps in localStorage for the exercise ``exercise_id`` (its key
    ends with ``#<id>``), or None."""
    return page.evaluate(
        """(id) => {
            for (let i = 0; i < localStorage.length; i++) {
                const key = localStorage.key(i);
                if (key.includes("exercise") && key.endsWith("#" + id)) {
                    return JSON.parse(localStorage.getItem(key));
                }
            }
            return null;
        }""",
        exercise_id,
    )


def store_progress(page: Page, exercise_id: str, value: dict[str, Any]) -> None:
    """Replace what the page keeps for ``exercise_id`` (it must have stored something)."""
    written = page.evaluate(
        """([id, value]) => {
            for (let i = 0; i < localStorage.length; i++) {
                const key = localStorage.key(i);
                if (key.includes("exercise") && key.endsWith("#" + id)) {
                    localStorage.setItem(key, value);
                    return true;
                }
            }
            return false;
        }""",
        [exercise_id, json.dumps(value)],
    )
    assert written, f"nothing stored for {exercise_id}"


def focused(page: Page) -> str:
    """The accessible name (aria-label, else text) of the element that has focus."""
    return page.evaluate(
        """() => {
            const node = document.activeElement;
            return (node.getAttribute("aria-label") || node.textContent || "").trim();
        }"""
    )


def run_first_steps_cell_1(page: Page) -> None:
    """Run cell 1 of "Erste Schritte" in the browser and check its live output."""
    first = Cell.number(page, 1)
    first.run_live()
    expect(first.root).to_have_attribute("data-state", "done")
    expect(first.text).to_have_text("1 bestellung-1\n2 bestellung-2\n3 bestellung-3\n")
    expect(first.value).to_have_text("3")


def use_console(page: Page, offset: int = 1) -> None:
    """Type a command into the first log console and check its answer: the ``offset``
    its record gets (2 when the page replays this command kept from an earlier visit
    first: the reader's command runs after the replay)."""
    log = Console.first(page)
    log.box.fill('produce orders key=order-61 {"order":61,"event":"placed"}')
    log.box.press("Enter")
    expect(log.entries.last).to_contain_text(f"Partition 1, Offset {offset}")


def run_cell_live(page: Page, url: str, code: str) -> Cell:
    """Open ``url`` and run the one cell whose code contains ``code`` in the browser, with the
    build's output gone first, until it is done (the cells of its session before it run
    with it); return it for the test's own ``expect``."""
    page.goto(url)
    cell = Cell.only_one_with(page, code)
    cell.run_live("done")
    return cell


def show_diagram(page: Page) -> Locator:
    """Scroll to the page's first mermaid diagram (drawn when near the viewport).

    Scrolled by the page itself: the theme replaces `pre.mermaid` by the drawn
    `div.mermaid` once it is near, which could detach the element under Playwright's
    own scrolling, which waits for the element to hold still first.
    """
    page.locator(".mermaid").first.evaluate(
        "(element) => element.scrollIntoView({ block: 'center' })"
    )
    return page.locator("div.mermaid svg").first


def ts_output(page: Page, text: str) -> Locator:
    """The Node.js output of the one TypeScript block whose code contains ``text``."""
    blocks = page.locator("[data-lk-ts]").filter(has_text=text)
    expect(blocks).to_have_count(1)
    return blocks.first.locator("output")


def go(page: Page, link: str | re.Pattern[str], count: int) -> None:
    """Follow a navigation link and wait until the page script mounted page number `count`."""
    page.get_by_role("navigation").get_by_role("link", name=link).first.click()
    expect(page.locator("html")).to_have_attribute("data-lk-page", str(count))


def python_result(page: Page, code: str, session: str = "main") -> dict[str, Any]:
    """Run `code` in the page's Python (as a cell would) and return the kernel's result."""
    outcome = page.evaluate(
        """async ([code, session]) => await window.lessonkit.runtime.run(
            { session, label: "Test", code }, () => undefined)""",
        [code, session],
    )
    assert outcome["kind"] == "done", outcome  # not restarted, cancelled, failed, unavailable
    return outcome["result"]


def python_value(page: Page, code: str) -> str:
    """The REPL value of `code` in the page's session "main"."""
    return str(python_result(page, code)["value"])


def python_ready(page: Page) -> dict[str, int]:
    """Wait until the page's Python has started; return when each boot stage ended (ms)."""
    page.wait_for_function("() => window.lessonkit && window.lessonkit.runtime.state === 'ready'")
    return page.evaluate("window.lessonkit.runtime.readyStages")


def visit_until_cached(page: Page, url: str) -> None:
    """Open ``url`` and wait until the service worker has kept it and the runtime."""
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-lk-offline", "ready")


def python_bar(page: Page) -> Locator:
    """The page's bar about Python ("Python neu starten", crash notices)."""
    return page.locator("[data-lk-python-bar]")


@contextmanager
def phone_page(
    browser: Any, url: str, viewport: dict[str, int] = PHONE, touch: bool = False
) -> Iterator[Page]:
    """``url`` in a fresh context at a phone's width (or ``viewport``), with a touch screen
    (``pointer: coarse``) if ``touch``."""
    context = browser.new_context(viewport=viewport, has_touch=touch)
    try:
        page = context.new_page()
        page.goto(url)
        yield page
    finally:
        context.close()


def picture_widths(page: Page, selector: str) -> list[float]:
    """The drawn widths of the pictures ``selector`` finds."""
    return page.locator(selector).evaluate_all(
        "svgs => svgs.map(s => s.getBoundingClientRect().width)"
    )


def assert_fits_a_phone(page: Page, pictures: str) -> None:
    """On a page at a phone's width, every picture ``pictures`` finds (at least one) and the
    page itself are no wider than the phone's screen."""
    widths = picture_widths(page, pictures)
    assert widths and max(widths) <= PHONE["width"], widths
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"], overflow


def pages_of(site: Path) -> list[str]:
    """Every page of the built site, as a path below its root ("" is the start page)."""
    found = []
    for index in sorted(site.rglob("index.html")):
        relative = index.parent.relative_to(site).as_posix()
        if relative.startswith("assets"):
            continue
        found.append("" if relative == "." else relative + "/")
    return found


def pages_written_in(docs: Path) -> list[str]:
    """The page each Markdown file in ``docs`` becomes, as ``pages_of`` names it; known
    before the build (to name a test per page)."""
    found = []
    for source in docs.rglob("*.md"):
        relative = source.relative_to(docs).with_suffix("")
        if relative.parts[0] == "assets":
            continue
        folder = relative.parent if relative.name == "index" else relative
        found.append("" if folder == Path() else folder.as_posix() + "/")
    return sorted(found)


#: Counts the worker's output messages (the page's worker is made with `new Worker`).
COUNT_OUTPUT_MESSAGES = """
window.lkOutputMessages = 0;
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const type = event.data && event.data.type;
      if (type === "chunk" || type === "chunks") window.lkOutputMessages += 1;
    });
  }
};
"""
