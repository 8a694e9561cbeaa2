"""A prediction with ``session`` (issue 37): it needs what the session's cells above it
define, so the browser runs them first, quietly, as a cell does; a reader who answers
right before running anything is right, and one whose edited cell above fails hears why,
without the answer counting."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Cell, Exercise
from tests.conftest import served_small_site

PAGE = """# Vorhersage mit Sitzung

Das Konto beginnt mit 40 €.

```pycell session="konto"
stand = 40
```

Dann kommen 2 € dazu.

```pycell session="konto"
stand += 2
```

Eine Zelle einer anderen Sitzung läuft dafür nicht.

```pycell session="anderes"
print("eine andere Sitzung")
```

```vorhersage id="stand" session="konto"
--- frage
Welchen Wert hat `stand` jetzt?
--- code
stand
--- antwort
42
```
"""


@pytest.fixture(scope="module")
def session_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served_small_site(
        tmp_path_factory.mktemp("session-prediction"), {"sitzung.md": PAGE}
    ) as url:
        yield url + "sitzung/"


def test_a_right_answer_before_any_cell_ran_is_right(page: Page, session_site: str) -> None:
    page.goto(session_site)
    prediction = Exercise.by_id(page, "stand")
    prediction.predict_right("42")
    expect(prediction.feedback).not_to_contain_text("NameError")
    # The session's cells ran, quietly; the other session's did not.
    expect(Cell.number(page, 2).root).to_have_attribute("data-state", "done")
    expect(Cell.number(page, 3).root).not_to_have_attribute("data-state", "done")


def test_a_failing_cell_above_is_named_and_the_answer_does_not_count(
    page: Page, session_site: str
) -> None:
    page.goto(session_site)
    Cell.number(page, 1).editor().fill("stand = 40 / 0")
    prediction = Exercise.by_id(page, "stand")
    prediction.answer.fill("42")
    prediction.check()
    expect(prediction.feedback).to_contain_text(re.compile(r"Zelle 1 davor lief nicht durch"))
    expect(prediction.feedback).to_contain_text("Diese Antwort zählt nicht.")
    expect(prediction.root).not_to_have_attribute("data-solved", "true")
    expect(prediction.solution_button).to_be_disabled()  # nothing was tried
