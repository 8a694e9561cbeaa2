"""What the lessons do alike, one table each: a cell run live prints what the page
claims; a prediction or quiz refuses a wrong answer and takes the right one; a code
task's start code fails and the solution passes; the pictures fit a phone's screen.

Exercises are named by their address, ``page#id``, as a reader's link would."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import (
    LESSON_1,
    LESSON_2,
    LESSON_2_OUTAGES,
    LESSON_2_PART_3,
    LESSON_3,
    LESSON_4,
    LESSON_5,
    LESSON_SAGAS,
    LESSON_TIME,
    Exercise,
    assert_fits_a_phone,
    phone_page,
    run_cell_live,
)

pytestmark = pytest.mark.browser


def rows(table: dict[str, tuple[Any, ...]]) -> list[Any]:
    """A table keyed by exercise address as parameters, each named by the exercise's id."""
    return [pytest.param(key, *row, id=key.split("#")[-1]) for key, row in table.items()]


FAKE_NETZ = "['bestellung-1', 'bestellung-4', 'bestellung-3', 'bestellung-3', 'bestellung-5']"
NEBENLAEUFIG = (
    "nacheinander: +kunde -kunde +warenkorb -warenkorb +lager -lager\n"
    "nebenläufig: +kunde +warenkorb +lager -kunde -warenkorb -lager\n"
)
RECHENARBEIT = "Ticks während der Rechenarbeit: 0\ngrößte Lücke ≥ 0,3 s: True\n"
PROJEKTOR_ABSTURZ = (
    "Position 1: Alice +42\n"
    "Position 2: Bob +15\n"
    "Absturz, gemerkt ist Position 1\n"
    "Position 2: Bob +15\n"
    "Position 3: Bob +8\n"
    "Lesemodell: [('Alice', 42), ('Bob', 38)]\n"
)


@pytest.mark.parametrize(
    ("lesson", "code", "part", "shown"),
    [
        pytest.param(LESSON_1, "FakeNetz(seed=300)", "value", FAKE_NETZ, id="fake-netz"),
        pytest.param(
            LESSON_1,
            'spaet = q.ack(a["id"], versuch=a["versuche"])',
            "text",
            "Ack von A: False | offen: 1\nAck von C: True\n",  # a late ack changes nothing
            id="spaetes-ack",
        ),
        pytest.param(
            LESSON_3, "abfrage(n, nebenlaeufig) for n in namen", "text", NEBENLAEUFIG, id="asyncio"
        ),
        pytest.param(LESSON_3, "Rechenarbeit, kein await", "text", RECHENARBEIT, id="blockiert"),
        pytest.param(
            LESSON_4,
            "projiziere_umsatz(absturz_bei_aufruf(merke, 2))",
            "text",
            PROJEKTOR_ABSTURZ,
            id="projektor",
        ),
    ],
)
def test_a_cell_run_live_shows_what_the_page_says(
    page: Page, site_url: str, lesson: str, code: str, part: Literal["text", "value"], shown: str
) -> None:
    """Run in the browser with the build's output gone, the cell (and the cells of its
    session before it) print exactly ``shown``."""
    cell = run_cell_live(page, site_url + lesson, code)
    expect(getattr(cell, part)).to_have_text(shown)


#: Each prediction: a wrong answer, what the verdict says to it (where the test asks),
#: the right answer.
PREDICTIONS: dict[str, tuple[str, str | None, str]] = {
    LESSON_1 + "#zeitfenster-vorhersagen": (
        "(1, 2, 0)",
        "Noch nicht: Der erste von 3 Werten stimmt nicht.",
        "(2, 2, 0)",
    ),
    LESSON_2 + "#rueckstand": ("[1, 1]", "Keiner der 2 Werte stimmt.", "[0, 2]"),
    LESSON_2_OUTAGES + "#doppelt-gelesen": ("[1, 3, 5]", None, "[3, 5]"),
    LESSON_3 + "#then-kette": (
        "['start', 'ende', 'then 1', 'then 2', 'microtask', 'timeout']",
        "Der vierte und der fünfte von 6 Werten stimmen nicht.",
        "['start', 'ende', 'then 1', 'microtask', 'then 2', 'timeout']",
    ),
    LESSON_5 + "#little": ("4", "Der Code liefert einen anderen Wert.", "10"),
    LESSON_SAGAS + "#saga-kompensationen": (
        "(['lager', 'zahlung'], 130)",
        None,
        "(['zahlung'], 100)",
    ),
    LESSON_TIME + "#lamport-vorhersage": ("[2, 3, 4, 5]", None, "[3, 4, 5, 6]"),
}


@pytest.mark.parametrize(("address", "wrong", "says", "right"), rows(PREDICTIONS))
def test_a_prediction_refuses_a_wrong_answer_and_takes_the_right_one(
    page: Page, site_url: str, address: str, wrong: str, says: str | None, right: str
) -> None:
    prediction = Exercise.opened(page, site_url + address)
    prediction.predict_wrong_then_right(wrong, right, says)


Choice = str | re.Pattern[str]

#: Each quiz: answers ticked first (not all right), those of them unticked again, and
#: those then ticked to make it right.
QUIZZES: dict[str, tuple[list[Choice], list[Choice], list[Choice]]] = {
    LESSON_1 + "#diagnose-doppelt": (
        ["Die Arbeit dauert 4 Ticks, das Zeitfenster nur 3."],
        [],
        ["Die Worker sind nicht idempotent."],
    ),
    LESSON_2 + "#kopien": (
        ["Jedes Mitglied liest jedes Ereignis."],
        [],
        ["Ein Mitglied bekommt keine Partition und bleibt untätig."],
    ),
    LESSON_2_PART_3 + "#diagnose-stillstand": (
        [re.compile("scheitert bei jedem Versuch"), re.compile("ist abgestürzt, und die Gruppe")],
        [re.compile("ist abgestürzt, und die Gruppe")],
        [re.compile("Der Lag von Partition 0 wächst")],
    ),
    LESSON_3 + "#diagnose-consumer": (
        [re.compile("m-19 fehlt, weil"), re.compile("Die Datenbank hat auch")],
        [re.compile("Die Datenbank hat auch")],
        [re.compile("Nach einem Neustart stellt"), re.compile("Mit try")],
    ),
    LESSON_4 + "#diagnose-projektor": (
        [re.compile("Die Projektion hat Bobs Bestellung"), re.compile("Das Lesemodell hinkt nur")],
        [re.compile("Das Lesemodell hinkt nur")],
        [
            re.compile("Schreibt die Projektion die Position"),
            re.compile("Die Projektion aus Schritt 2"),
        ],
    ),
    LESSON_TIME + "#diagnose-uhr": (
        [re.compile("Die Uhr von backoffice geht mindestens 66 ms nach")],
        [],
        [re.compile("Die 22 ging verloren"), re.compile("Hätte backoffice mit dem Kontext")],
    ),
}


@pytest.mark.parametrize(("address", "wrong", "untick", "right"), rows(QUIZZES))
def test_a_quiz_refuses_a_wrong_choice_and_takes_the_right_one(
    page: Page,
    site_url: str,
    address: str,
    wrong: list[Choice],
    untick: list[Choice],
    right: list[Choice],
) -> None:
    quiz = Exercise.opened(page, site_url + address)
    quiz.root.scroll_into_view_if_needed()
    quiz.choose_wrong(*wrong)
    quiz.untick(*untick)
    quiz.choose_right(*right)


#: The idempotent refund: each saga's payment comes back once (below the given charge).
ERSTATTEN = """def abbuchen(stand, saga):
    stand['kunde'] -= 30
    stand['gebucht'][saga] = 30

def erstatten(stand, saga):
    if saga in stand['gebucht']:
        stand['kunde'] += stand['gebucht'].pop(saga)
"""

#: Compares two vector clocks: before, after, equal or concurrent.
VERGLEICHE = """def vergleiche(v, w):
    ks = set(v) | set(w)
    kl = any(v.get(k, 0) < w.get(k, 0) for k in ks)
    gr = any(v.get(k, 0) > w.get(k, 0) for k in ks)
    if kl and gr:
        return "nebenläufig"
    return "vorher" if kl else "nachher" if gr else "gleich"
"""

ORSET_MERGE = """def merge(a, b):
    return {"marken": a["marken"] | b["marken"],
            "grabsteine": a["grabsteine"] | b["grabsteine"]}
"""

#: The storage with fencing, as a reader would type it.
FENCING = """class MeinSpeicher:
    def __init__(self):
        self.daten = []
        self.groesster = 0

    def schreibe(self, von, wert, token):
        if token < self.groesster:
            return False
        self.groesster = token
        self.daten.append(wert)
        return True
"""

#: Each code task with the solution the test types.
SOLUTIONS = {
    LESSON_SAGAS + "#idempotente-erstattung": (ERSTATTEN,),
    LESSON_TIME + "#vektoren-vergleichen": (VERGLEICHE,),
    "lektionen/crdts/#orset-merge": (ORSET_MERGE,),
    "lektionen/leases-fencing/#leases-fencing-speicher": (FENCING,),
}


@pytest.mark.parametrize(("address", "solution"), rows(SOLUTIONS))
def test_a_code_task_fails_with_its_start_code_and_passes_with_the_solution(
    page: Page, site_url: str, address: str, solution: str
) -> None:
    task = Exercise.opened(page, site_url + address)
    task.check()
    expect(task.failed_checks.first).to_be_visible()
    task.replace_code(solution)
    task.check_solved()


@pytest.mark.parametrize(
    ("lesson", "pictures"),
    [
        pytest.param(LESSON_2, ".lk-console__picture svg", id="ereignisstroeme"),
        pytest.param(LESSON_2_OUTAGES, ".lk-console__picture svg", id="ereignisstroeme-ausfall"),
        pytest.param(LESSON_2_PART_3, ".lk-console__picture svg", id="ereignisstroeme-2"),
        pytest.param(LESSON_5, "[data-lk-cell] svg", id="timeouts"),
        pytest.param(LESSON_TIME, "[data-lk-cell] svg", id="zeit"),
        pytest.param(LESSON_SAGAS, "[data-lk-cell] svg, .lk-console__picture svg", id="sagas"),
    ],
)
def test_pictures_fit_a_phone(browser: object, site_url: str, lesson: str, pictures: str) -> None:
    with phone_page(browser, site_url + lesson) as page:
        assert_fits_a_phone(page, pictures)
