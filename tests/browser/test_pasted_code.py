"""Code a reader pastes cannot reach out of its page (issue 49).

- It sends nothing off the site's origin, on a first visit (no service worker yet) as on
  a returning one: Python's worker is made from a `blob:` URL and so runs under the page's
  own Content-Security-Policy (frontend/src/runtime/sandboxed-worker.ts). A second server
  on another port records whatever reaches it.
- It cannot read what another page sends its worker: a worker that ran the reader's own
  code is replaced on instant navigation; one that ran only the author's stays.
- It cannot bend the judging: a checker replaced by a cell gives no verdict and stores
  nothing, on the same page (lessonkit/runtime/integrity.py) and on the next.
- It cannot write the origin-private file system, and `close()` restarts Python with a
  German note instead of leaving every later run waiting.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.pages import (
    FIRST_STEPS,
    Cell,
    Console,
    Exercise,
    go,
    python_bar,
    python_ready,
    python_result,
    run_first_steps_cell_1,
    stored_progress,
)
from tests.siteserver import REACH_OUT, Elsewhere, StaticServer


@pytest.fixture
def elsewhere() -> Iterator[Elsewhere]:
    server = Elsewhere()
    yield server
    server.close()


def reach_out(page: Page, elsewhere: Elsewhere) -> None:
    python_ready(page)
    result = python_result(page, REACH_OUT.format(u=elsewhere.url), "probe")
    assert result["error"] is None, result["error"]
    page.wait_for_timeout(500)  # a request still on its way has arrived
    assert elsewhere.reached == []


def test_pasted_code_reaches_no_other_origin_on_a_first_visit_or_a_returning_one(
    context: BrowserContext, site: StaticServer, elsewhere: Elsewhere
) -> None:
    page = context.new_page()
    page.goto(site.url + FIRST_STEPS)  # a first visit: Python starts before any service worker
    assert page.evaluate("navigator.serviceWorker.controller") is None
    reach_out(page, elsewhere)
    expect(page.locator("html")).to_have_attribute("data-lk-offline", "ready")
    own = python_result(page, 'from js import fetch\n(await fetch("/sitemap.xml")).status')
    assert own["value"] == "200", own  # the site's own files stay reachable

    page.reload()  # returning: the service worker serves the page and the runtime
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    reach_out(page, elsewhere)
    run_first_steps_cell_1(page)

    site.close()  # offline, the blob worker still gets its files from the service worker
    context.set_offline(True)
    page.reload()
    run_first_steps_cell_1(page)


#: Records what the page's Python worker posts (the page's workers are made with `new Worker`).
RECORD_WORKER_MESSAGES = """
window.lkPosted = [];
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => window.lkPosted.push(event.data));
  }
};
"""

#: A cell that listens in its worker and posts every console command it sees to the page.
LISTEN_IN = """
import js
from pyodide.ffi import create_proxy

def mithoeren(event):
    daten = event.data
    if getattr(daten, "type", None) == "call" and daten.name == "console.run":
        js.postMessage(js.JSON.parse(js.JSON.stringify(daten.args)))

js.self.addEventListener("message", create_proxy(mithoeren))
"""


def overheard(page: Page) -> list[str]:
    return page.evaluate(
        "window.lkPosted.filter((m) => m && m.line !== undefined).map((m) => m.line)"
    )


def test_code_a_reader_ran_cannot_listen_to_the_next_pages_console(
    page: Page, site_url: str
) -> None:
    page.add_init_script(RECORD_WORKER_MESSAGES)
    page.goto(site_url + FIRST_STEPS)
    Cell.number(page, 6).run_code(LISTEN_IN)
    console = Console.first(page)
    console.command("topics")
    assert overheard(page) == ["topics"]  # its own page: the reader's code hears it
    page.wait_for_function("() => typeof window.document$ === 'object'")

    go(page, re.compile("Queues und Idempotenz"), 2)
    Console.first(page, "queue").command("send geheim")
    assert overheard(page) == ["topics"]  # the next page has a fresh worker
    python_ready(page)


def test_a_worker_that_ran_only_the_authors_code_serves_the_next_page(
    page: Page, site_url: str
) -> None:
    page.add_init_script(RECORD_WORKER_MESSAGES)
    page.goto(site_url + FIRST_STEPS)
    run_first_steps_cell_1(page)
    assert page.evaluate("window.lessonkit.runtime.ranReaderCode") is False
    epoch = page.evaluate("window.lessonkit.runtime.epoch")
    page.wait_for_function("() => typeof window.document$ === 'object'")
    go(page, re.compile("Queues und Idempotenz"), 2)
    Cell.number(page, 1).run()
    expect(Cell.number(page, 1).root).to_have_attribute("data-state", "done")
    assert page.evaluate("window.lessonkit.runtime.epoch") == epoch  # the same Python


#: A cell that makes every code task pass (its checks are never run).
BEND_THE_CHECKS = "import lessonkit.runtime.checks as K\nK.run_checks = lambda pruefung, ns: []"
#: A cell that makes every challenge pass.
BEND_THE_CHALLENGES = "import lessonkit.runtime.challenges as C\nC._bestanden = lambda teile: True"
CHANGED = "Die Prüfung des Kurses wurde in diesem Python verändert"


def test_a_checker_a_cell_replaced_gives_no_verdict_and_stores_nothing(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    Cell.number(page, 6).run_code(BEND_THE_CHECKS)
    task = Exercise.by_id(page, "erste-aufgabe")
    verdict = task.check()  # the starting code, which fails both checks
    expect(verdict).to_contain_text(CHANGED)
    expect(verdict).to_contain_text("lessonkit.runtime.checks.run_checks")
    expect(verdict).not_to_contain_text("Traceback")
    task.expect_unsolved()
    assert stored_progress(page, "erste-aufgabe") is None
    task.root.get_by_role("button", name="Python neu starten").click()
    expect(task.check()).to_have_text("✗ 0 von 2 Prüfungen bestanden.")


def test_a_challenge_checker_replaced_on_one_page_judges_nothing_on_the_next(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    Cell.number(page, 6).run_code(BEND_THE_CHALLENGES)
    page.wait_for_function("() => typeof window.document$ === 'object'")
    go(page, re.compile("Echo"), 2)
    task = Exercise.mounted(page, "echo")
    task.press_check()
    expect(task.feedback).to_contain_text(re.compile(r"Seed \d+ scheitert"), timeout=180_000)
    task.expect_unsolved()
    assert stored_progress(page, "echo") is None or not stored_progress(page, "echo").get("solved")


def test_a_challenges_own_node_cannot_replace_its_checker(page: Page, site_url: str) -> None:
    task = Exercise.mounted(page, "echo", on=site_url + "herausforderungen/echo/")
    data = task.data
    task.replace_code(data["start"] + "\n\n" + BEND_THE_CHALLENGES + "\n")  # fails seeds
    task.press_check()
    expect(task.feedback).to_contain_text(CHANGED, timeout=180_000)
    task.expect_unsolved()


WRITE_THE_PRIVATE_FILE_SYSTEM = """
import js
try:
    ordner = await js.navigator.storage.getDirectory()
    datei = await ordner.getFileHandle("gepflanzt.txt", js.JSON.parse('{"create": true}'))
    ergebnis = "geschrieben"
except Exception as fehler:
    ergebnis = "abgelehnt: " + type(fehler).__name__
[ergebnis, hasattr(js.navigator, "storage"), hasattr(js.self.navigator, "storageBuckets")]
"""

PAGE_SEES = """async () => {
  const names = [];
  for await (const [name] of (await navigator.storage.getDirectory()).entries()) names.push(name);
  return names;
}"""


def test_python_cannot_write_the_origin_private_file_system(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    python_ready(page)
    result = python_result(page, WRITE_THE_PRIVATE_FILE_SYSTEM, "probe")
    assert result["value"] == "['abgelehnt: AttributeError', False, False]", result
    assert page.evaluate(PAGE_SEES) == []


def test_close_restarts_python_with_a_german_note(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    target.run_code("import js\njs.self.close()", "error")
    expect(target.output).to_contain_text("Dieser Lauf hat Python beendet (close() des Workers)")
    expect(python_bar(page)).to_contain_text("Code hat Python beendet (close())")
    run_first_steps_cell_1(page)  # the next run answers
    target.run_code("import js\njs.close()", "error")  # the global name too, for good
    run_first_steps_cell_1(page)
