"""A challenge's node in TypeScript, in Chromium, as a reader writes it: TypeScript picked above
the editor, a node with a type error (named in German at its line, marked in the editor, and
nothing runs), a node that compiles but fails the check (the same verdict a Python node gets),
then the solution (solved). The choice and both drafts stay over a reload; an endless
handler ends with the loop budget's message and the page stays usable.

That a TypeScript node and a Python node get the same verdicts, runs and pictures is proven
without a browser (tests/tsnode/); the build proves every page's TypeScript solution passes
and its start fails."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.pages import Exercise

ECHO = "herausforderungen/echo/"
SLOW = 120_000

#: `msg.body.echo` is `unknown`: calling a string's method on it is a type error (line 3).
TYPFEHLER = """\
class Zurufer extends Node {
  onEcho(msg: Message) {
    const text: string = msg.body.echo;
    this.reply(msg, { type: "echo_ok", echo: text.toUpperCase() });
  }
}
"""

#: Compiles, answers every request, but with another text: the checker names it.
LAUT = """\
class Zurufer extends Node {
  onEcho(msg: Message) {
    const text = String(msg.body.echo);
    this.reply(msg, { type: "echo_ok", echo: text.toUpperCase() });
  }
}
"""

ENDLOS = """\
class Zurufer extends Node {
  onEcho(msg: Message) {
    let n = 0;
    while (true) {
      n += 1;
    }
  }
}
"""


def language(task: Exercise, name: str) -> None:
    task.root.get_by_role("radio", name=name).check()


def test_a_typescript_node_wrong_then_right_and_the_choice_kept(page: Page, site_url: str) -> None:
    task = Exercise.mounted(page, "echo", on=site_url + ECHO)
    expect(task.editor).to_contain_text("class Zurufer(Knoten)")

    language(task, "TypeScript")
    expect(task.editor).to_contain_text("class Zurufer extends Node")
    expect(task.editor).to_have_attribute("aria-label", re.compile("^TypeScript-Code von"))

    # A type error: said in German at its line, marked there; nothing runs.
    task.replace_code(TYPFEHLER)
    task.press_check()
    expect(task.feedback).to_contain_text("Dein TypeScript hat einen Typfehler", timeout=SLOW)
    expect(task.root.locator("output.lk-exercise__feedback")).to_contain_text("Zeile 3: ")
    expect(task.root.locator(".cm-lintRange-error")).to_have_count(1)
    expect(task.root.locator(".lk-challenge__seed")).to_have_count(0)
    task.expect_unsolved()

    # Compiles, but answers with another text: the checker's verdict, as for Python.
    task.replace_code(LAUT)
    task.press_check()
    expect(task.feedback).to_contain_text(re.compile(r"Seed \d+ scheitert"), timeout=SLOW)
    expect(task.root.locator(".cm-lintRange-error")).to_have_count(0)
    failed = task.root.locator(".lk-challenge__seed--failed").first
    expect(failed.locator(".lk-challenge__verdict").first).to_contain_text("HALLO")
    task.expect_unsolved()

    task.passes_with(task.data["loesung_ts"], timeout=SLOW)
    task.expect_solved()

    # A reload: TypeScript is still the choice, with the reader's TypeScript draft; Python
    # keeps its own (the start, never touched).
    page.reload()
    task = Exercise.mounted(page, "echo")
    expect(task.root.get_by_role("radio", name="TypeScript")).to_be_checked()
    expect(task.editor).to_contain_text("this.reply(msg, body)")
    language(task, "Python")
    expect(task.editor).to_contain_text("class Zurufer(Knoten)")
    language(task, "TypeScript")
    expect(task.editor).to_contain_text("this.reply(msg, body)")


def test_an_endless_typescript_handler_ends_with_the_budget_and_the_page_stays(
    page: Page, site_url: str
) -> None:
    task = Exercise.mounted(page, "echo", on=site_url + ECHO)
    language(task, "TypeScript")
    task.replace_code(ENDLOS)
    task.press_check()
    expect(task.feedback).to_contain_text(re.compile(r"Seed 1 scheitert"), timeout=SLOW)
    verdict = task.root.locator(".lk-challenge__seed--failed .lk-challenge__verdict").first
    expect(verdict).to_contain_text("onEcho")
    expect(task.editor).to_contain_text("while (true)")
    # The page still answers: the solution passes now.
    task.passes_with(task.data["loesung_ts"], timeout=SLOW)
