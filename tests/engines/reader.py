"""What a reader does on a course page, in words of the page (cells, consoles, exercises).

The same for every engine: all of it goes through `Session` (webdriver.py), real
clicks and key presses included.
"""

from __future__ import annotations

from typing import Any

from tests.engines.webdriver import Session

CELLS = "[data-lk-cell]:not([hidden])"

# The hint under a focused editor or console stays half a second after the focus left
# (docs/assets/lessonkit.css), then folds, and what is below it moves up: a click then may
# land beside its target (in WebKit its mouse down and up can come 100 ms apart). Settled:
# every hint is open exactly while its editor or console has the focus.
HINTS_SETTLED = (
    "return [...document.querySelectorAll('.lk-editor__hint, .lk-console__hint')].every((h) =>"
    " (h.getBoundingClientRect().height > 0) ==="
    " h.closest('.lk-cell__code, .lk-exercise__code, .lk-console').matches(':focus-within'))"
)


#: True once an element's box has kept its place over three polls (0.1 s apart): the layout
#: around it has settled (editors mounting near the viewport move what follows them).
SETTLED = """
const box = arguments[0].getBoundingClientRect();
const here = `${Math.round(box.top)},${Math.round(box.left)}`;
const seen = (window.__lkSettled ||= { at: "", times: 0 });
seen.times = seen.at === here ? seen.times + 1 : 0;
seen.at = here;
return seen.times >= 2;
"""


#: Notes in `window.__lkStateChanged` whether the element's `data-state` changes from now on.
WATCH_STATE = """
window.__lkStateChanged = false;
const watch = new MutationObserver(() => { window.__lkStateChanged = true; watch.disconnect(); });
watch.observe(arguments[0], { attributes: true, attributeFilter: ["data-state"] });
"""


class Reader:
    def __init__(self, session: Session, site_url: str) -> None:
        self.session = session
        self.site_url = site_url

    def open(self, path: str) -> None:
        """Load a page of the site and wait until its cells are mounted."""
        self.session.goto(self.site_url + path)
        self.wait_mounted(path)

    def wait_mounted(self, path: str) -> None:
        """Wait until the page's cells are mounted (after a load, a reload)."""
        self.session.wait_for(
            "return document.documentElement.dataset.lkPage && "
            "[...document.querySelectorAll(arguments[0])].every((c) => c.dataset.lkMounted)",
            CELLS,
            message=f"the cells of {path}",
        )

    def text(self, script: str, *args: Any) -> str:
        return self.session.js(script, *args)

    def click(self, target: str | dict[str, str]) -> None:
        """A real click (WebDriver's) once the page's hints have settled (HINTS_SETTLED)."""
        self.session.wait_for(HINTS_SETTLED, message="the hints under editors and consoles")
        self.session.click(target)

    # Cells
    def cell(self, number: int) -> dict[str, str]:
        """The n-th visible cell (1-based, like its label "Zelle n")."""
        return self.session.find(
            "return document.querySelectorAll(arguments[0])[arguments[1] - 1]", CELLS, number
        )

    def part(self, number: int, selector: str) -> dict[str, str]:
        return self.session.find(
            "return document.querySelectorAll(arguments[0])[arguments[1] - 1]"
            ".querySelector(arguments[2])",
            CELLS,
            number,
            selector,
        )

    def state(self, number: int) -> str:
        return self.session.js(
            "return document.querySelectorAll(arguments[0])[arguments[1] - 1].dataset.state",
            CELLS,
            number,
        )

    def wait_state(self, number: int, *states: str, timeout: float = 120) -> str:
        try:
            return self.session.wait_for(
                "const s = document.querySelectorAll(arguments[0])[arguments[1] - 1].dataset.state;"
                "return arguments[2].includes(s) && s;",
                CELLS,
                number,
                list(states),
                timeout=timeout,
            )
        except TimeoutError:
            raise TimeoutError(
                f"cell {number} is {self.state(number)!r}"
                f" ({self.output(number, '.lk-cell__status')!r}), not {'/'.join(states)};"
                f" Python: {self.session.js('return window.lessonkit.runtime.state')!r}"
                f" ({self.session.js('return JSON.stringify(window.lessonkit.runtime.progress)')});"
                f" its output: {self.output(number)!r}"
            ) from None

    def output(self, number: int, selector: str = "output") -> str:
        """The text of a part of a cell's output (textContent: what is in the page)."""
        return self.session.js(
            "const n = document.querySelectorAll(arguments[0])[arguments[1] - 1]"
            ".querySelector(arguments[2]); return n ? n.textContent : null;",
            CELLS,
            number,
            selector,
        )

    def forget_output(self, number: int) -> None:
        """Empty a cell's output, so what shows next is the browser's, not the build's."""
        self.session.js("arguments[0].replaceChildren()", self.part(number, "output"))

    def run(self, number: int) -> str:
        # Editors mount as cells come near the viewport and change the layout (a wrapped
        # line makes an editor taller than the build's code): let the cell's own editor be
        # there and the button stay put, or WebDriver's click may land beside the button.
        self.editor(self.cell(number))
        # A click that lands queues the cell at once (order.ts), so a second never runs twice.
        self.click_until_taken(self.part(number, ".lk-button--run"), self.cell(number))
        return self.wait_state(number, "done", "error")

    def click_until_taken(self, button: dict[str, str], owner: dict[str, str]) -> None:
        """Click `button` once it keeps its place; again, once, if `owner`'s `data-state` did
        not change within 10 s. A click in WebKit can land beside the button while the page
        still moves (a cell left as it was, CI 2026-12-05; a challenge untouched for 300 s,
        one run in three of tests/engines/test_challenge.py, 2026-12-06)."""
        self.session.wait_for(SETTLED, button, message="the button keeps its place")
        self.session.js(WATCH_STATE, owner)
        self.click(button)
        try:
            self.session.wait_for(
                "return window.__lkStateChanged", timeout=10, message="the state changes"
            )
        except TimeoutError:
            self.click(button)

    def editor(self, root: dict[str, str]) -> dict[str, str]:
        """The CodeMirror editor inside `root` (mounted once it is near the viewport)."""
        self.session.js("arguments[0].scrollIntoView({ block: 'center' })", root)
        return self.session.find("return arguments[0].querySelector('.cm-content')", root)

    def edit(self, editor: dict[str, str], code: str) -> None:
        """Replace the code in a CodeMirror editor by typing it (one line per statement)."""
        self.click(editor)
        self.session.press("Control", "a")
        self.session.type(code)

    # Consoles
    def console_input(self, kind: str = "log") -> dict[str, str]:
        return self.session.element(f"[data-lk-console][data-kind={kind}] .lk-console__input")

    def entries(self, kind: str = "log") -> list[str]:
        return self.session.js(
            "return [...document.querySelector(arguments[0])"
            ".querySelectorAll('.lk-console__entry')].map((e) => e.textContent)",
            f"[data-lk-console][data-kind={kind}]",
        )

    def command(self, line: str, kind: str = "log") -> str:
        """Type a console command, press Enter; the new entry's text."""
        before = len(self.entries(kind))
        self.click(self.console_input(kind))
        self.session.type(line)
        self.session.press("Enter")
        self.session.wait_for(
            "return document.querySelector(arguments[0])"
            ".querySelectorAll('.lk-console__entry').length > arguments[1]",
            f"[data-lk-console][data-kind={kind}]",
            before,
            message=f"an answer to {line!r}",
        )
        return self.entries(kind)[-1]

    def value(self, element: dict[str, str], expected: str) -> str:
        """The input's value once it is `expected` (completion asks Python: it takes a while)."""
        return self.session.wait_for(
            "return arguments[0].value === arguments[1] && arguments[1]",
            element,
            expected,
            timeout=20,
            message=f"the input to read {expected!r} (it reads"
            f" {self.session.js('return arguments[0].value', element)!r})",
        )

    # Exercises
    def check(self, exercise: str, timeout: float = 60) -> str:
        """Press the exercise's "Prüfen" (`click_until_taken`: a click that lands sets the
        exercise's `data-state` at once); the feedback's text once it is there."""
        self.session.js(f"document.querySelector('#{exercise} .lk-feedback')?.remove()")
        self.click_until_taken(
            self.session.element(f"#{exercise} .lk-exercise__bar .lk-button--run"),
            self.session.element(f"#{exercise}"),
        )
        return self.feedback(exercise, timeout)

    def feedback(self, exercise: str, timeout: float = 60) -> str:
        return self.session.wait_for(
            f"const f = document.querySelector('#{exercise} .lk-feedback');"
            "return f && f.textContent.trim();",
            timeout=timeout,
            message=f"feedback of {exercise}",
        )

    # Python behind the page
    def python(self, code: str) -> Any:
        """Evaluate `code` in the page's session "main" through the page's runtime."""
        return self.session.js_async(
            "const outcome = await window.lessonkit.runtime.run("
            "{ session: 'main', code: args[0], label: 'Test' }, () => undefined);"
            "return outcome.kind === 'done' ? outcome.result.value : outcome;",
            code,
        )
