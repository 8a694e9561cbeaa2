"""Exercises that let a reader fail and try again (issue 26).

A wrong quiz answer or prediction hears "Noch nicht" and what is wrong, never the
solution; the reader tries again. The solution shows on "Lösung zeigen" after a question
in the page (no browser dialog), by keyboard too, or by itself after the author's number
of tries. A code task runs without a verdict (Ausführen). Harmless slips count with a
German note. Progress records solved, the tries and whether the solution was shown, and
progress stored before all this still reads."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser import axe
from tests.browser.pages import (
    FIRST_STEPS,
    LESSON_5,
    LESSON_SAGAS,
    LESSON_TIME,
    NOT_YET,
    Exercise,
    focused,
    python_ready,
    store_progress,
    stored_progress,
)
from tests.conftest import served_small_site

#: The right answer of the quiz on "Erste Schritte", and a wrong one.
IN_THE_BROWSER = "In deinem Browser, in einem Web Worker."
ON_A_SERVER = "Auf einem Server des Kurses."


@pytest.fixture
def no_dialogs(page: Page) -> Iterator[list[str]]:
    """The browser's own dialogs (confirm, alert) the page opens: none, we expect."""
    opened: list[str] = []

    def dismiss(dialog: object) -> None:
        opened.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", dismiss)
    yield opened
    assert opened == [], f"the page opened a browser dialog: {opened}"


def option(quiz: Exercise, text: str) -> object:
    return quiz.root.locator("li.lk-quiz__option", has_text=text)


def test_a_wrong_quiz_answer_is_not_yet_and_the_reader_tries_again(
    page: Page, site_url: str, no_dialogs: list[str]
) -> None:
    page.goto(site_url + FIRST_STEPS)
    quiz = Exercise.by_id(page, "erstes-quiz")
    expect(quiz.solution_button).to_be_disabled()  # nothing tried yet
    quiz.choose(ON_A_SERVER)
    expect(quiz.check()).to_have_text(
        "✗ Noch nicht: Diese Antwort stimmt nicht. Versuch eine andere."
    )
    wrong, right = option(quiz, "Auf einem Server"), option(quiz, "Web Worker")
    expect(wrong.locator(".lk-quiz__verdict")).to_have_text("✗ Falsch")
    expect(wrong.locator(".lk-quiz__why")).to_be_visible()  # why this one is wrong
    expect(right.locator(".lk-quiz__verdict")).to_have_count(0)  # no spoiler
    expect(right.locator(".lk-quiz__why")).to_be_hidden()
    expect(quiz.solution).to_be_hidden()
    expect(quiz.notes).to_have_text(["Bei der falschen Antwort steht, warum."])
    expect(quiz.solution_button).to_be_enabled()
    # The same answer again: the verdict says which try it is (a live region says it anew).
    expect(quiz.check()).to_have_text(re.compile(r"^✗ Noch nicht \(2\. Versuch\): "))
    quiz.choose_right(IN_THE_BROWSER)
    expect(quiz.solution).to_be_visible()
    expect(right.locator(".lk-quiz__verdict")).to_have_text("✓ Richtig")
    expect(wrong.locator(".lk-quiz__verdict")).to_have_text("✗ Falsch")  # still true
    progress = stored_progress(page, "erstes-quiz")
    assert progress is not None
    assert progress["solved"] is True and progress["tries"] == 2
    assert not progress.get("revealed")


def test_a_wrong_prediction_hears_which_value_is_wrong_but_not_the_value(
    page: Page, site_url: str, no_dialogs: list[str]
) -> None:
    page.goto(site_url + FIRST_STEPS)
    prediction = Exercise.by_id(page, "erste-vorhersage")
    verdict = prediction.predict("(3, 'b-2')")
    expect(verdict).to_have_text("✗ Noch nicht: Der zweite von 2 Werten stimmt nicht.")
    expect(prediction.root.locator("output.lk-exercise__feedback")).not_to_contain_text("b-3")
    expect(prediction.solution).to_be_hidden()
    # Running the code would show the value: it becomes runnable with the solution.
    expect(prediction.root.get_by_role("button", name=re.compile("^Code von"))).to_have_count(0)
    expect(prediction.predict("(2, 'b-3')")).to_have_text(
        "✗ Noch nicht (2. Versuch): Der erste von 2 Werten stimmt nicht."
    )
    prediction.predict_right("(3, 'b-3')")
    expect(prediction.solution).to_be_visible()
    expect(prediction.editor).to_be_visible()
    progress = stored_progress(page, "erste-vorhersage")
    assert progress is not None
    assert progress["solved"] is True and progress["tries"] == 2
    assert progress["answer"] == "(3, 'b-3')"


def test_the_solution_shows_on_request_after_a_question_in_the_page_by_keyboard(
    page: Page, site_url: str, no_dialogs: list[str]
) -> None:
    page.goto(site_url + FIRST_STEPS)
    quiz = Exercise.by_id(page, "erstes-quiz")
    quiz.choose_wrong(ON_A_SERVER)
    asking = quiz.solution_button
    expect(asking).to_have_attribute("aria-expanded", "false")
    asking.focus()
    page.keyboard.press("Enter")
    question = quiz.confirmation
    expect(question).to_be_visible()
    expect(question).to_contain_text("Lösung zeigen? Ein weiterer eigener Versuch lohnt sich oft.")
    expect(asking).to_have_attribute("aria-expanded", "true")
    assert focused(page) == "Ja, Lösung zeigen: Übung 4"
    # Escape: nothing shown, focus back where the reader was.
    page.keyboard.press("Escape")
    expect(question).to_have_count(0)
    assert focused(page) == "Lösung zeigen: Übung 4"
    expect(quiz.solution).to_be_hidden()
    # "Weiter versuchen" does the same.
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused(page) == "Weiter versuchen: Übung 4"
    page.keyboard.press("Enter")
    expect(question).to_have_count(0)
    assert focused(page) == "Lösung zeigen: Übung 4"
    # Yes: the solution and every option's verdict; focus on the solution.
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(quiz.solution).to_be_visible()
    assert focused(page) == "Lösung"
    expect(option(quiz, "Web Worker").locator(".lk-quiz__verdict")).to_have_text(
        "✓ Richtig (nicht gewählt)"
    )
    expect(option(quiz, "Web Worker").locator(".lk-quiz__why")).to_be_visible()
    expect(asking).to_be_hidden()
    quiz.expect_unsolved()
    progress = stored_progress(page, "erstes-quiz")
    assert progress is not None
    assert progress["revealed"] is True and progress["solved"] is False
    # A reload keeps what the reader has seen.
    page.reload()
    expect(quiz.solution).to_be_visible()
    expect(option(quiz, "Web Worker").locator(".lk-quiz__verdict")).to_have_text(
        "✓ Richtig (nicht gewählt)"
    )
    quiz.expect_unsolved()


def test_a_predictions_solution_on_request_makes_its_code_runnable(
    page: Page, site_url: str, no_dialogs: list[str]
) -> None:
    page.goto(site_url + FIRST_STEPS)
    prediction = Exercise.by_id(page, "erste-vorhersage")
    prediction.predict_wrong("(3, 'b-2')")
    prediction.show_solution()
    expect(prediction.solution).to_contain_text("Antwort: (3, 'b-3')")
    expect(prediction.editor).to_be_visible()
    # Once the solution is out, a wrong answer may name the real values.
    expect(prediction.predict("(3, 'b-1')")).to_have_text(
        "✗ Noch nicht (2. Versuch): 1 von 2 richtig: der zweite Wert ist 'b-3', nicht 'b-1'."
    )
    progress = stored_progress(page, "erste-vorhersage")
    assert progress is not None and progress["revealed"] is True


def test_a_code_tasks_solution_asks_in_the_page_too(
    page: Page, site_url: str, no_dialogs: list[str]
) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = Exercise.by_id(page, "erste-aufgabe")
    expect(task.solution_button).to_be_disabled()
    task.check()
    task.solution_button.click()
    task.confirmation.get_by_role("button", name=re.compile("^Weiter versuchen")).click()
    expect(task.solution).to_be_hidden()
    task.show_solution()
    progress = stored_progress(page, "erste-aufgabe")
    assert progress is not None and progress["revealed"] is True and progress["tries"] == 1


def test_a_code_task_runs_the_readers_code_without_a_verdict(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = Exercise.by_id(page, "erste-aufgabe")
    task.replace_code("def summe(betraege):\n    return 0\n\nprint('Probe:', summe([30, 40]))")
    output = task.run()
    expect(task.run_status).to_have_text("Fertig")
    expect(output).to_contain_text("Probe: 0")
    expect(task.feedback).to_have_count(0)  # no ✓, no ✗
    expect(task.failed_checks).to_have_count(0)
    task.expect_unsolved()
    expect(task.solution_button).to_be_disabled()  # a run is no try
    task.replace_code("1 / 0")
    output = task.run()
    expect(task.run_status).to_have_text("Fehler")
    expect(output.locator(".lk-output__error")).to_contain_text("ZeroDivisionError")
    expect(task.feedback).to_have_count(0)
    progress = stored_progress(page, "erste-aufgabe")
    assert progress is None or not progress.get("tries")  # runs are no tries
    # One result at a time: a check replaces the run's output, a run the verdict.
    task.check()
    expect(output).to_be_empty()
    expect(task.run_status).to_be_empty()
    task.run()
    expect(task.feedback).to_have_count(0)


def test_a_solved_task_checked_again_keeps_solved_once_and_shows_the_latest_verdict(
    page: Page, site_url: str
) -> None:
    """The progress never forgets a solve, but the border follows what the code does now."""
    page.goto(site_url + FIRST_STEPS)
    task = Exercise.by_id(page, "erste-aufgabe")
    head = task.root.locator(".lk-exercise__head")

    def border() -> str:
        return str(task.root.evaluate("node => getComputedStyle(node).borderLeftColor"))

    def mark() -> str:
        return str(head.evaluate("node => getComputedStyle(node, '::after').content"))

    unsolved = border()
    task.replace_code("def summe(betraege):\n    return sum(betraege)\n")
    task.check_solved("✓ Gelöst: alle 2 Prüfungen bestanden.")
    solved = border()
    assert solved != unsolved and "gelöst ✓" in mark()
    task.replace_code("def summe(betraege):\n    return 0\n")
    expect(task.check()).to_have_text(re.compile(r"^✗ \d von 2 Prüfungen bestanden\.$"))
    task.expect_solved()  # for good: the overview counts it
    expect(task.root).to_have_attribute("data-latest", "wrong")
    assert border() == unsolved and "einmal gelöst" in mark()
    progress = stored_progress(page, "erste-aufgabe")
    assert progress is not None and progress["solved"] is True
    task.replace_code("def summe(betraege):\n    return sum(betraege)\n")
    task.check_solved("✓ Gelöst: alle 2 Prüfungen bestanden.")
    assert border() == solved and "gelöst ✓" in mark()
    # A reload knows only the progress: solved.
    page.reload()
    task.expect_solved()
    assert border() == solved and "gelöst ✓" in mark()


def test_a_code_tasks_endless_run_can_be_stopped(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = Exercise.by_id(page, "erste-aufgabe")
    task.replace_code("while True:\n    pass\n")
    python_ready(page)  # Stopp while Python loads only cancels the waiting run
    task.root.get_by_role("button", name="Übung 2 ausführen").click()
    expect(task.root).to_have_attribute("data-state", "running")
    task.root.get_by_role("button", name="Stopp: Übung 2").click()
    expect(task.run_status).to_have_text("Gestoppt")
    expect(task.run_output).to_contain_text(
        "Gestoppt. Python wurde neu gestartet; führ den Code noch einmal aus"
    )
    expect(task.feedback).to_have_count(0)
    task.replace_code("print('wieder da')\n")
    expect(task.run()).to_have_text("wieder da\n")


def test_lesson_5s_try_values_task_runs_with_its_preparation(page: Page, site_url: str) -> None:
    """Übung 4 says "Probier Werte aus": each try shows p99, none is a red ✗."""
    page.goto(site_url + LESSON_5)
    task = Exercise.by_id(page, "grenze-p99")
    expect(task.run()).to_contain_text("Grenze None: p99 330 ms, 0 abgelehnt")
    task.replace_code("GRENZE = 11\n\ne = lauf(GRENZE)\nprint(f'Grenze {GRENZE}: p99 {e.p99} ms')")
    expect(task.run()).to_contain_text("Grenze 11: p99 242 ms")
    expect(task.feedback).to_have_count(0)
    task.check_solved()


def test_harmless_slips_in_a_prediction_count_with_a_note(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_5)
    prediction = Exercise.by_id(page, "auslastung-median-schwanz")
    prediction.predict_right("(true, False)")
    expect(prediction.notes).to_have_text(["In Python: True, nicht true."])
    expect(prediction.notes.locator("code")).to_have_text(["True", "true"])

    page.goto(site_url + LESSON_SAGAS)
    prediction = Exercise.by_id(page, "saga-absturz-kompensation")
    prediction.predict_right("('wird kompensiert', 'wird kompensiert', 70.0, 3)")
    expect(prediction.notes).to_have_text(["70.0 zählt als 70: Der Code liefert eine ganze Zahl."])


def test_a_text_without_umlauts_passes_a_check_with_a_note(page: Page, site_url: str) -> None:
    page.goto(site_url + LESSON_TIME)
    task = Exercise.by_id(page, "vektoren-vergleichen")
    # The page's own solution, written without the umlaut.
    task.replace_code(task.data["loesung"].replace("nebenläufig", "nebenlaeufig"))
    task.check_solved()
    expect(task.root.locator(".lk-check__note").first).to_have_text(
        "„nebenlaeufig“ zählt als „nebenläufig“: ae, oe, ue und ss für ä, ö, ü und ß sind in Ordnung."
    )


def test_a_failure_of_the_readers_code_is_told_once_under_its_check(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + LESSON_5)
    task = Exercise.by_id(page, "retry-jitter")
    task.replace_code(
        "BASIS = 100\nDECKEL = 2000\nVERSUCHE = 4\n\n"
        "def retry(versuch, anfrage, zufall):\n    return zufal.random()\n"
    )
    expect(task.check()).to_have_text("✗ 0 von 4 Prüfungen bestanden.")
    messages = task.root.locator(".lk-check--failed .lk-check__message")
    expect(messages.first).to_contain_text("NameError: name 'zufal' is not defined")
    first = "Derselbe Fehler wie bei „Nicht idempotente Anfragen werden nie wiederholt“ (oben)."
    expect(messages).to_have_text([re.compile("NameError"), first, first, first])


def test_javascripts_true_in_code_gets_a_python_note(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    task = Exercise.by_id(page, "erste-aufgabe")
    task.replace_code("def summe(betraege):\n    return true\n")
    task.check()
    expect(task.failed_checks.first).to_contain_text("In Python: `True`, nicht `true`.")


def test_progress_stored_before_tries_were_counted_still_reads(page: Page, site_url: str) -> None:
    """Values written by the code before issue 26: {digest, solved, draft?, answer?}."""
    page.goto(site_url + FIRST_STEPS)
    quiz = Exercise.by_id(page, "erstes-quiz")
    prediction = Exercise.by_id(page, "erste-vorhersage")
    quiz.choose(ON_A_SERVER)  # now something is stored for both
    prediction.answer.fill("(1, 'x')")

    def digest(exercise: Exercise) -> str:
        data = exercise.root.locator(".lk-exercise__data").get_attribute("data-lk-json")
        return str(json.loads(data or "{}")["digest"])

    store_progress(page, "erstes-quiz", {"digest": digest(quiz), "solved": True, "answer": "1"})
    store_progress(
        page,
        "erste-vorhersage",
        {"digest": digest(prediction), "solved": False, "answer": "(3, 'b-2')"},
    )
    page.reload()
    quiz.expect_solved()
    expect(quiz.root.get_by_label(IN_THE_BROWSER)).to_be_checked()
    expect(quiz.solution).to_be_hidden()  # solved, but the solution was never asked for
    expect(prediction.answer).to_have_value("(3, 'b-2')")
    expect(prediction.solution_button).to_be_disabled()  # no try recorded
    expect(prediction.predict("(3, 'b-2')")).to_have_text(NOT_YET)
    progress = stored_progress(page, "erste-vorhersage")
    assert progress == {
        "digest": digest(prediction),
        "solved": False,
        "answer": "(3, 'b-2')",
        "tries": 1,
    }


# --- the author's number of tries (a small site of its own) ---------------------------

TRIES_PAGE = """# Versuche

```quiz id="drei" versuche="2"
--- frage
Wie viele?
--- falsch
Eins
--- falsch
Zwei
--- richtig
Drei
```

```vorhersage id="summe" versuche="2"
--- frage
Was liefert der Code?
--- code
sum([1, 2])
--- antwort
3
```
"""


@pytest.fixture(scope="module")
def tries_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served_small_site(tmp_path_factory.mktemp("tries"), {"versuche.md": TRIES_PAGE}) as url:
        yield url + "versuche/"


def test_the_solution_shows_by_itself_after_the_authors_tries(
    page: Page, tries_site: str, no_dialogs: list[str]
) -> None:
    page.goto(tries_site)
    quiz = Exercise.by_id(page, "drei")
    quiz.choose("Eins")
    expect(quiz.check()).to_have_text(NOT_YET)
    expect(quiz.notes).to_have_text(["Noch 1 Versuch, dann erscheint die Lösung."])
    expect(quiz.solution).to_be_hidden()
    quiz.choose("Zwei")
    expect(quiz.check()).to_have_text(re.compile(r"^✗ Noch nicht \(2\. Versuch\)"))
    expect(quiz.notes).to_have_text(["Nach 2 Versuchen steht die Lösung unten."])
    expect(quiz.solution).to_be_visible()
    expect(option(quiz, "Drei").locator(".lk-quiz__verdict")).to_have_text(
        "✓ Richtig (nicht gewählt)"
    )

    prediction = Exercise.by_id(page, "summe")
    expect(prediction.predict("4")).to_have_text(
        "✗ Noch nicht: Der Code liefert einen anderen Wert."
    )
    expect(prediction.notes).to_have_text(["Noch 1 Versuch, dann erscheint die Lösung."])
    prediction.predict("'3'")
    expect(prediction.solution).to_be_visible()
    expect(prediction.editor).to_be_visible()
    progress = stored_progress(page, "summe")
    assert progress is not None and progress["revealed"] is True and progress["tries"] == 2
    prediction.predict_right("3")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_while_the_reader_tries_again(
    browser: object, site_url: str, scheme: str
) -> None:
    """A retried quiz with its question open, a retried prediction, a code task's run, in
    each view of the scheme (``axe.views``: the page loaded once, the viewport resized)."""
    with axe.audited_page(
        browser, viewport={"width": axe.WIDTHS[0], "height": 900}, color_scheme=scheme
    ) as page:
        page.goto(site_url + FIRST_STEPS)
        axe.wait_mounted(page)
        Exercise.by_id(page, "erste-vorhersage").predict_wrong("(3, 'b-2')")
        task = Exercise.by_id(page, "erste-aufgabe")
        task.replace_code("print('Probe')\n")
        expect(task.run()).to_contain_text("Probe")
        quiz = Exercise.by_id(page, "erstes-quiz")
        quiz.choose_wrong(ON_A_SERVER)
        quiz.solution_button.click()
        expect(quiz.confirmation).to_be_visible()
        report = axe.audit(page, scheme, name=FIRST_STEPS)
        expect(quiz.confirmation).to_be_visible()  # what was audited was still there
        assert not report, "\n".join(report)
