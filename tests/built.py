"""The built site read without a browser: a page's blocks as the build wrote them, and
what the page's Python answers a reader, run here in CPython with the same lessonkit
code (kernel, checks, consoles) the browser runs in Pyodide.

Named like the browser's page objects (tests/browser/pages.py), so a test reads like a
reader's steps: ``Lesson(site, path).cell("x = 1")``, ``ConsoleTask.on(lesson,
"id").check_fails("…")``. That the browser answers alike is proven once for all pages:
every cell and console setup (tests/test_pyodide_parity.py) and every exercise
(tests/test_exercises_pyodide.py) give the same in Pyodide as in CPython, and the
block-kind browser tests (tests/browser/test_cells.py, test_consoles.py,
test_exercises.py, test_trying_again.py, …) show that a page shows what the code answers.
"""

from __future__ import annotations

import asyncio
import json
import re
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup, Tag

from lessonkit.build.execute import run_sync
from lessonkit.build.render import render_console_entry, render_output
from lessonkit.runtime.checks import TaskOutcome, check_code, check_console, predict
from lessonkit.runtime.consoles import ConsoleSessions
from lessonkit.runtime.kernel import CellResult, Kernel
from pysim.console import ConsoleResult


def said(node: Tag | str) -> str:
    """A node's text (or a text) with its whitespace collapsed, as Playwright's
    ``to_contain_text`` compares."""
    text = node if isinstance(node, str) else node.get_text()
    return " ".join(text.split())


@cache
def _soup(index: Path) -> BeautifulSoup:
    return BeautifulSoup(index.read_text(encoding="utf-8"), "html.parser")


def _json(node: Tag, selector: str) -> dict[str, Any]:
    data = node.select_one(selector)
    assert data is not None, selector
    return dict(json.loads(str(data["data-lk-json"])))


def _the_one(nodes: list[Tag], what: str) -> Tag:
    assert len(nodes) == 1, f"{len(nodes)} × {what}"
    return nodes[0]


@dataclass(frozen=True)
class Lesson:
    """A built page (``path`` below the site, e.g. ``lektionen/sagas/``)."""

    site: Path
    path: str

    @property
    def soup(self) -> BeautifulSoup:
        return _soup(self.site / self.path / "index.html")

    @property
    def title(self) -> str:
        return said(_the_one(self.soup.select("article h1"), "h1"))

    def links_to(self, href: str) -> bool:
        """The article links to ``href`` (as written in the page, e.g. ``../sagas/``)."""
        return bool(self.soup.select(f'article a[href="{href}"]'))

    def cells(self) -> list[Tag]:
        """Every cell, hidden ones too, in page order."""
        return list(self.soup.select("[data-lk-cell]"))

    def cell(self, code: str) -> Tag:
        """The one visible cell whose code contains ``code``."""
        return _the_one(
            [c for c in self.cells() if not c.has_attr("hidden") and code in cell_code(c)], code
        )

    def first_cell(self, code: str) -> Tag:
        """The first visible cell whose code contains ``code``."""
        return next(c for c in self.cells() if not c.has_attr("hidden") and code in cell_code(c))

    def typescript(self, code: str = "") -> Tag:
        """The first ``ts-run`` block whose code contains ``code``, its output in ``.lk-stdout``."""
        blocks = [b for b in self.soup.select("[data-lk-ts]") if code in b.get_text()]
        assert blocks, code
        return blocks[0]

    def the_typescript(self, code: str) -> Tag:
        """The one ``ts-run`` block whose code contains ``code``."""
        return _the_one([b for b in self.soup.select("[data-lk-ts]") if code in b.get_text()], code)

    def console(self, title: str) -> Tag:
        """The console whose head starts with ``title`` (e.g. "Konsole 1 ·")."""
        return _the_one(
            [
                c
                for c in self.soup.select("[data-lk-console]")
                if said(c.select_one(".lk-console__head") or "").startswith(title)
            ],
            title,
        )

    def first_console(self, kind: str | None = None, text: str = "") -> Tag:
        """The first console (of ``kind``) whose text contains ``text``."""
        selector = "[data-lk-console]" + (f"[data-kind={kind}]" if kind else "")
        return next(c for c in self.soup.select(selector) if text in c.get_text())

    def exercise(self, exercise_id: str) -> Tag:
        return _the_one(self.soup.select(f"#{exercise_id}"), exercise_id)

    def exercise_data(self, exercise_id: str) -> dict[str, Any]:
        """What the build gave the exercise's script (``lessonkit.build.contract``)."""
        return _json(self.exercise(exercise_id), ".lk-exercise__data")


def cell_code(cell: Tag) -> str:
    return str(_json(cell, ".lk-cell__data")["code"])


def picture(node: Tag | str | None) -> Tag:
    """The SVG picture in ``node`` (a block, or a picture's SVG text)."""
    if isinstance(node, Tag):
        found = node.select_one("svg")
    else:
        found = BeautifulSoup(node or "", "html.parser").select_one("svg")
    assert found is not None, "no picture"
    return found


def title_of(node: Tag | str | None) -> str:
    """The ``<title>`` of the picture in ``node``."""
    title = picture(node).select_one("title")
    assert title is not None
    return said(title)


# --- cells --------------------------------------------------------------------------


class Reader:
    """A reader on a freshly opened page who runs cells with "Ausführen", in one Python:
    running a cell first runs the earlier cells of its session that have not run yet
    (hidden ones too, in page order), then the cell, then the hidden checks right after
    it (frontend/src/components/cell/order.ts, ``plan``)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.blocks = lesson.cells()
        self.data = [_json(cell, ".lk-cell__data") for cell in self.blocks]
        self.kernel = Kernel()
        self.ran: set[int] = set()
        # The page's Python is one interpreter with one event loop, and so is the build's
        # run of a page (lessonkit.build.execute): every run here goes to one loop in one thread
        # of its own (sqlite3 objects stay in the thread that made them; the test's own
        # thread may hold Playwright's loop).
        self._thread = ThreadPoolExecutor(max_workers=1)
        self._loop = self._thread.submit(asyncio.new_event_loop).result()
        weakref.finalize(self, _stop, self._thread, self._loop)

    def _run(self, index: int) -> CellResult:
        cell = self.data[index]
        run = self.kernel.run(cell["session"], cell["code"], cell["label"])
        result = self._thread.submit(self._loop.run_until_complete, run).result()
        self.ran.add(index)
        return result

    def run(self, code: str) -> CellResult:
        """Run the one visible cell whose code contains ``code``; return its result."""
        target = self.blocks.index(self.lesson.cell(code))
        session = self.data[target]["session"]
        mine = [i for i, cell in enumerate(self.data) if cell["session"] == session]
        for index in mine[: mine.index(target)]:
            if index not in self.ran:
                before = self._run(index)
                assert before.error is None or before.error_type == self.data[index]["raises"]
        result = self._run(target)
        for index in mine[mine.index(target) + 1 :]:
            if not self.data[index]["check"]:
                break
            check = self._run(index)
            assert check.error is None, check.error  # the prose's hidden check still holds
        return result


def _stop(thread: ThreadPoolExecutor, loop: asyncio.AbstractEventLoop) -> None:
    thread.submit(loop.close)
    thread.shutdown(wait=False)


def run_alone(lesson: Lesson, code: str) -> CellResult:
    """The cell whose code contains ``code`` run on a freshly opened page."""
    return Reader(lesson).run(code)


def printed(result: CellResult) -> str:
    """What the run printed (the browser's ``.lk-output__text``)."""
    return "".join(text for _, text in result.output)


def shown(result: CellResult) -> str:
    """The text the run's ``<output>`` shows: printed text, value, picture, error."""
    return BeautifulSoup(render_output(result), "html.parser").get_text()


# --- consoles -----------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """A console's answer to a typed command, as its transcript entry shows it."""

    result: ConsoleResult

    @property
    def ok(self) -> bool:
        return self.result.ok

    @property
    def entry(self) -> Tag:
        entry = BeautifulSoup(render_console_entry("", self.result), "html.parser").select_one(
            ".lk-console__entry"
        )
        assert entry is not None
        return entry

    @property
    def text(self) -> str:
        return said(self.entry)

    @property
    def lines(self) -> list[str]:
        """Each line of the answer as the transcript shows it, with its line break."""
        return [line.get_text() for line in self.entry.select(".lk-console__line")]

    @property
    def svg(self) -> str | None:
        return self.result.svg


class LiveConsole:
    """A console of a page as the page's Python holds it after its setup; typed commands
    change it as in the browser (``lessonkit.runtime.bridge``'s ``console.run``)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.sessions = ConsoleSessions()
        self.console()

    @classmethod
    def of(cls, console: Tag) -> LiveConsole:
        return cls(_json(console, ".lk-console__data"))

    def console(self) -> Any:
        d = self.data
        console, _ = self.sessions.get(d["key"], d["kind"], d["options"], d["setup"])
        return console

    def command(self, line: str) -> Answer:
        d = self.data
        return Answer(self.sessions.run(d["key"], d["kind"], d["options"], d["setup"], line))

    def type(self, *lines: str) -> None:
        """Type each line (each must be answered without an error)."""
        for line in lines:
            answer = self.command(line)
            assert answer.ok, (line, answer.text)

    def expect_answer(self, line: str, text: str) -> Answer:
        """Type ``line``; its answer contains ``text``. Return it."""
        answer = self.command(line)
        assert said(text) in answer.text, (line, answer.text)
        return answer

    def expect_error(self, line: str, text: str) -> Answer:
        """Type ``line``; it is refused (an error entry) with ``text`` in the answer."""
        answer = self.command(line)
        assert not answer.ok and said(text) in answer.text, (line, answer.text)
        return answer

    def reset(self) -> None:
        """ "Zurücksetzen": back to the author's setup."""
        self.sessions.reset(self.data["key"])


def passed(outcome: TaskOutcome) -> str:
    """The verdict's count, "6 von 8", as "✗ 6 von 8 Prüfungen bestanden." says it."""
    return f"{sum(check.ok for check in outcome.checks)} von {len(outcome.checks)}"


def failed_checks(outcome: TaskOutcome) -> list[str]:
    """The failed checks as the page lists them: name and message."""
    return [said(f"{check.name} {check.message}") for check in outcome.checks if not check.ok]


class ConsoleTask(LiveConsole):
    """A ``konsolen-aufgabe``: its console, and its check of the console's state."""

    def __init__(self, console: Tag, task: dict[str, Any]) -> None:
        super().__init__(_json(console, ".lk-console__data"))
        self.task = task

    @classmethod
    def on(cls, lesson: Lesson, exercise_id: str) -> ConsoleTask:
        root = lesson.exercise(exercise_id)
        console = root.select_one("[data-lk-console]")
        assert console is not None
        return cls(console, _json(root, ".lk-exercise__data"))

    def check(self) -> TaskOutcome:
        return check_console(self.console(), self.task["kind"], self.task["pruefung"])

    def check_fails(self, reason: str) -> TaskOutcome:
        """ "prüfen": the first failed check names ``reason``."""
        outcome = self.check()
        assert not outcome.ok and reason in failed_checks(outcome)[0], failed_checks(outcome)
        return outcome

    def check_solved(self) -> None:
        outcome = self.check()
        assert outcome.ok, failed_checks(outcome)


class CodeTask:
    """An ``aufgabe``: the reader's code checked by the task's checks."""

    def __init__(self, task: dict[str, Any]) -> None:
        self.task = task

    @classmethod
    def on(cls, lesson: Lesson, exercise_id: str) -> CodeTask:
        return cls(_json(lesson.exercise(exercise_id), ".lk-exercise__data"))

    @property
    def start(self) -> str:
        return str(self.task["start"])

    @property
    def solution(self) -> str:
        return str(self.task["loesung"])

    def check(self, code: str | None = None) -> TaskOutcome:
        """ "prüfen" with ``code`` in the editor (the start code if None)."""
        task = self.task
        code = self.start if code is None else code
        return run_sync(lambda: check_code(task["vorbereitung"], code, task["pruefung"]))

    def check_fails(self, code: str | None, reason: str) -> TaskOutcome:
        outcome = self.check(code)
        assert not outcome.ok and reason in failed_checks(outcome)[0], failed_checks(outcome)
        return outcome

    def check_solved(self, code: str) -> None:
        outcome = self.check(code)
        assert outcome.ok and outcome.error is None, (outcome.error, failed_checks(outcome))


def prediction_verdict(lesson: Lesson, exercise_id: str, answer: str) -> dict[str, Any]:
    """A prediction checked with ``answer`` on a freshly opened page (with ``session``:
    after the session's cells above it, as the page runs them first)."""
    root = lesson.exercise(exercise_id)
    data = _json(root, ".lk-exercise__data")
    session = data["session"]
    above: list[dict[str, Any]] = []
    for block in lesson.soup.select("[data-lk-cell], [data-lk-exercise]"):
        if block is root:
            break
        if session and block.has_attr("data-lk-cell"):
            cell = _json(block, ".lk-cell__data")
            if cell["session"] == session:
                above.append(cell)

    async def run() -> dict[str, Any]:
        kernel = Kernel()
        for cell in above:
            await kernel.run(cell["session"], cell["code"], cell["label"])
        return dict(await predict(data["code"], answer, kernel, session or f"v:{exercise_id}"))

    return run_sync(run)


@dataclass(frozen=True)
class QuizOption:
    label: str
    why: str
    right: bool


def quiz_options(lesson: Lesson, exercise_id: str) -> list[QuizOption]:
    """A quiz's options as the page shows them, each with its explanation and whether the
    page counts it right (the ``richtig`` indices the browser judges by)."""
    root = lesson.exercise(exercise_id)
    right = set(_json(root, ".lk-exercise__data")["richtig"])
    options = []
    for item in root.select("li.lk-quiz__option"):
        box = item.select_one("input")
        label = item.select_one("label")
        why = item.select_one(".lk-quiz__why")
        assert box is not None and label is not None
        options.append(QuizOption(said(label), said(why or ""), int(str(box["value"])) in right))
    return options


def option(options: list[QuizOption], label: str | re.Pattern[str]) -> QuizOption:
    """The one option whose label contains ``label`` (or matches the pattern), as
    Playwright's ``get_by_label`` finds it."""
    if isinstance(label, str):
        found = [o for o in options if said(label).lower() in o.label.lower()]
    else:
        found = [o for o in options if label.search(o.label)]
    assert len(found) == 1, (label, [o.label for o in options])
    return found[0]
