"""A cell that floods the page cannot take the reader's keyboard away, and one that uses
up Python's memory does not leave it broken (issue 49).

Two ways a cell floods: writing output in a tight loop (the kernel hands each batch over
in one message, however often it switches between stdout and stderr) and posting
messages itself (`js.postMessage` in a loop: the page ends that Python and says so).
How long a key takes to show meanwhile is measured by `benchmarks/bench_flood.py`;
these tests assert what happens, not how fast.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.pages import COUNT_OUTPUT_MESSAGES, FIRST_STEPS, RUN, Cell

SWITCHING_STREAMS = (
    "import sys\nfor _ in range(150_000):\n    print('a', end='')\n"
    "    print('b', end='', file=sys.stderr)"
)


def test_output_that_switches_streams_on_every_write_arrives_in_a_few_messages(
    page: Page, site_url: str
) -> None:
    page.add_init_script(COUNT_OUTPUT_MESSAGES)
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    target.run_code(SWITCHING_STREAMS)
    expect(target.text).to_contain_text("Ausgabe gekürzt")
    assert target.text.inner_text().startswith("ab" * 500)
    # One message per stretch of one stream was 200,000 messages.
    assert 0 < page.evaluate("window.lkOutputMessages") < 500
    # The page draws at most 2,000 spans and says that it stops telling the streams apart.
    assert target.text.locator("span").count() <= 2_000
    expect(target.output).to_contain_text("Ausgabe und Fehlerausgabe wechseln mehr als 2.000-mal")


FLOOD = "import js\nwhile True:\n    js.postMessage(0)"


def test_a_cell_that_floods_the_page_with_messages_is_ended_and_typing_goes_on(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    flooding, other = Cell.number(page, 6), Cell.number(page, 5)
    flooding.editor().fill(FLOOD)
    editor = other.editor()
    editor.click()
    page.keyboard.press("End")
    # Started from the page, so the focus stays in the other cell's editor.
    flooding.root.get_by_role("button", name=RUN).evaluate("(button) => button.click()")
    page.keyboard.type("  # weiter")
    expect(flooding.output).to_contain_text("mit Nachrichten überflutet")
    expect(flooding.root).to_have_attribute("data-state", "error")
    expect(editor).to_contain_text("# weiter")
    expect(page.locator(".lk-python-bar__status")).to_contain_text("überflutet")
    # Python is back: the next run answers.
    flooding.run_code("print('wieder da')")
    expect(flooding.text).to_have_text("wieder da\n")


#: Keeps all the memory Python can get, in ever smaller pieces, and catches each
#: MemoryError: the cell ends, but every later run that needed memory said MemoryError.
USE_UP_MEMORY = """
behalten = []
n = 10**8
while n > 10:
    try:
        behalten.append('x' * n)
    except MemoryError:
        n //= 2
len(behalten) > 0
"""


def test_python_whose_memory_is_used_up_is_restarted_with_a_note(page: Page, site_url: str) -> None:
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    target.run_code(USE_UP_MEMORY)
    # Which run finds no memory depends on the heap's layout (the package's files change
    # it): the filling run itself, when what it does after the loop fails (state `error`),
    # or the next run that needs memory (6 MB, less than the 8 MB the worker's probe asks
    # for). A run that needs only a few bytes may still be served from what Python had.
    if target.root.get_attribute("data-state") == "done":
        target.run_code("print(len('danach' * 10**6))", "error")
    expect(target.output).to_contain_text("keinen freien Speicher")
    expect(page.locator(".lk-python-bar__status")).to_contain_text("keinen freien Speicher")
    target.run_code("print('wieder da')")
    expect(target.text).to_have_text("wieder da\n")
