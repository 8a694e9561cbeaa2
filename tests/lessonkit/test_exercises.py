"""Exercises are proved sound at build time; every broken one names file, line and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lessonkit.build.errors import LessonError
from lessonkit.build.execute import run_sync
from lessonkit.runtime.checks import MAX_CHECK_CHARS, check_code, compare_prediction
from lessonkit.runtime.kernel import Kernel
from tests.lessonkit.seiten import convert

PREDICTION = """```vorhersage id="p"
--- frage
Was kommt heraus?
--- code
x = [1, 2]
(len(x), x[-1])
--- antwort
{answer}
```
"""

CODE_TASK = """```aufgabe id="a"
--- start
{start}
--- pruefung
@pruefe("doppelt(2) ist 4")
def _():
    assert doppelt(2) == 4, f"doppelt(2) ist {{doppelt(2)!r}}"
--- hinweis
return
--- loesung
{solution}
```
"""

CONSOLE_TASK = """```konsolen-aufgabe id="k"
--- setup
{setup}
--- pruefung
@pruefe("Topic t existiert")
def _():
    assert "t" in log.topics(), "Kein Topic t."
--- loesung
{solution}
```
"""


def test_sound_exercises_render_with_their_data(tmp_path: Path) -> None:
    text = (
        PREDICTION.format(answer="(2, 2)")
        + "\n"
        + CODE_TASK.format(
            start="def doppelt(x):\n    pass", solution="def doppelt(x):\n    return 2 * x"
        )
        + "\n"
        + CONSOLE_TASK.format(setup="topics", solution="create topic t partitions 1")
        + '\n```quiz id="q"\n--- frage\nJa?\n--- richtig\nJa\n--- falsch\nNein\n--- erklaerung\nDoch nicht.\n```\n'
    )
    soup = convert(tmp_path, text)
    exercises = soup.select("[data-lk-exercise]")
    assert [e["data-type"] for e in exercises] == [
        "vorhersage",
        "aufgabe",
        "konsolen-aufgabe",
        "quiz",
    ]
    labels = [e.select_one(".lk-exercise__head").get_text() for e in exercises]
    assert labels == [
        "Übung 1 · Vorhersage",
        "Übung 2 · Code-Aufgabe",
        "Übung 3 · Konsolen-Aufgabe",
        "Übung 4 · Test",
    ]
    data = [json.loads(e.select_one(".lk-exercise__data")["data-lk-json"]) for e in exercises]
    assert data[3]["richtig"] == [0]
    assert exercises[2].select_one("[data-lk-console]") is not None
    assert "Antwort:" in exercises[0].select_one("details.lk-exercise__solution").get_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            PREDICTION.format(answer="(2, 1)"),
            r"seite\.md:8: Übung 1 \(id „p“\): Die angegebene Antwort \(2, 1\) stimmt nicht .*der zweite Wert ist 2, nicht 1",
        ),
        (PREDICTION.format(answer="zwei"), r"seite\.md:8: Übung 1 .*kein Python-Wert"),
        (
            CODE_TASK.format(
                start="def doppelt(x):\n    pass", solution="def doppelt(x):\n    return x"
            ),
            r"Die Lösung besteht nicht alle Prüfungen:\n  ✗ doppelt\(2\) ist 4: doppelt\(2\) ist 2",
        ),
        (
            CODE_TASK.format(
                start="def doppelt(x):\n    return x + x",
                solution="def doppelt(x):\n    return 2 * x",
            ),
            r"Der Startcode besteht schon alle Prüfungen: eine Prüfung, die nicht scheitern kann",
        ),
        (
            CONSOLE_TASK.format(setup="topics", solution="topics"),
            r"Die Lösung besteht nicht alle Prüfungen:\n  ✗ Topic t existiert: Kein Topic t",
        ),
        (
            CONSOLE_TASK.format(setup="create topic t partitions 1", solution="topics"),
            r"Schon der Ausgangszustand besteht die Prüfung",
        ),
        (
            CONSOLE_TASK.format(setup="topics", solution="crate topic t"),
            r"Der Befehl „crate topic t“ der Lösung scheitert",
        ),
    ],
)
def test_unsound_exercise_fails_the_build(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(LessonError, match=message):
        convert(tmp_path, text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '```quiz id="q"\n--- frage\nJa?\n--- falsch\nA\n--- falsch\nB\n```\n',
            "hat keine richtige Antwort",
        ),
        ('```quiz id="q"\n--- frage\nJa?\n--- richtig\nA\n```\n', "mindestens zwei Antworten"),
        (
            '```vorhersage id="p"\n--- frage\nF\n--- code\n1\n```\n',
            "fehlt der Abschnitt `--- antwort`",
        ),
        ("```vorhersage\n--- frage\nF\n--- code\n1\n--- antwort\n1\n```\n", "braucht eine id"),
        (
            '```aufgabe id="a"\nText davor\n--- start\nx\n```\n',
            "Vor dem ersten Abschnitt steht Text",
        ),
        (
            '```aufgabe id="a"\n--- start\nx\n--- pruefen\ny\n```\n',
            "Unbekannter Abschnitt `--- pruefen`",
        ),
    ],
)
def test_malformed_exercise_names_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    # A section's own error names its `--- name` line (or the stray text), else the fence.
    lines = {"Vor dem ersten": 2, "Unbekannter Abschnitt": 4}
    line = next((n for start, n in lines.items() if message.startswith(start)), 1)
    with pytest.raises(LessonError, match=rf"seite\.md:{line}: ") as info:
        convert(tmp_path, text)
    assert message in str(info.value)


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    quiz = '```quiz id="q"\n--- frage\nJa?\n--- richtig\nA\n--- falsch\nB\n```\n'
    with pytest.raises(LessonError, match="Die id „q“ gibt es auf dieser Seite mehrmals"):
        convert(tmp_path, quiz + "\n" + quiz)


# --- Checks a reader cannot fool or flood (issue 15, items 6 and 13) -------------------

EVIL = "class Immer:\n    def __eq__(self, other):\n        return True\n    __hash__ = None\n"
CHECK_70 = (
    '@pruefe("summe([30, 40]) ist 70")\ndef _():\n'
    "    ergebnis = summe([30, 40])\n"
    '    assert ergebnis == 70, f"summe([30, 40]) liefert {ergebnis!r}."\n'
)


def check(code: str, pruefung: str = CHECK_70) -> dict:
    return run_sync(lambda: check_code("", code, pruefung)).to_dict()


@pytest.mark.parametrize(
    ("answer", "test"),
    [
        ("Immer()", "ergebnis == 70"),
        ("[Immer()]", "ergebnis == [70]"),
        ("(1, Immer())", "ergebnis == (1, 2)"),
        ("{'a': Immer()}", "ergebnis == {'a': 1}"),
        ("type('Zahl', (int,), {'__eq__': lambda s, o: True})(1)", "ergebnis == 70"),
        ("Immer()", "ergebnis in (1, 2)"),
        ("[1, Immer()]", "not ergebnis != [1, 2]"),
    ],
)
def test_an_object_that_equals_everything_does_not_pass(answer: str, test: str) -> None:
    pruefung = CHECK_70.replace("ergebnis == 70", test)
    outcome = check(EVIL + f"def summe(xs):\n    return {answer}\n", pruefung)
    assert outcome["ok"] is False
    assert outcome["checks"][0]["ok"] is False


def test_equal_plain_values_still_pass() -> None:
    pruefung = (
        '@pruefe("Werte")\ndef _():\n'
        "    assert summe([30, 40]) == 70.0\n"
        "    assert [summe([1]), 'a'] == [1, 'a']\n"
        "    assert {'k': (1, 2)} != {'k': (1, 3)}\n"
        "    assert summe([1]) in (1, 2)\n"
        "    assert HTTPStatus.OK == 200\n"
    )
    code = "from http import HTTPStatus\ndef summe(xs):\n    return sum(xs)\n"
    assert check(code, pruefung)["ok"] is True


def test_sys_exit_inside_a_check_gives_a_german_message() -> None:
    outcome = check("import sys\ndef summe(xs):\n    sys.exit(0)\n")
    assert outcome["ok"] is False
    message = outcome["checks"][0]["message"]
    assert "sys.exit()" in message and "return" in message


def test_a_huge_check_message_is_cut() -> None:
    outcome = check("def summe(xs):\n    return 'x' * 10**6\n")
    message = outcome["checks"][0]["message"]
    assert len(message) < MAX_CHECK_CHARS + 200
    assert "gekürzt" in message


def test_a_prediction_with_a_fake_part_is_not_right() -> None:
    evil = run_sync(lambda: _value(EVIL + "(1, Immer())"))
    outcome = compare_prediction(evil, "(1, 2)")
    assert outcome.correct is False
    assert outcome.parts == [True, False]


def test_a_huge_answer_is_not_echoed_in_full() -> None:
    outcome = compare_prediction(1, "(" * 100_000)
    assert outcome.valid is False
    assert len(outcome.message) < 600
    outcome = compare_prediction((1, 2), "(1, '" + "a" * 100_000 + "')")
    assert outcome.valid is True
    assert len(outcome.message) < 600


async def _value(code: str) -> object:
    return (await Kernel().run("p", code)).raw_value


QUIZ = "--- frage\nWas?\n--- richtig\nA\n--- falsch\nB\n--- falsch\nC\n--- falsch\nD\n"


def quiz_order(options: dict[str, object]) -> list[str]:
    from lessonkit.fences.exercises import Quiz, make_quiz

    quiz = make_quiz(0, 1, QUIZ, {"id": "q", **options})
    assert isinstance(quiz, Quiz)
    return [option.text.strip() for option in quiz.optionen]


def test_a_quiz_keeps_its_written_order_unless_told_to_mix() -> None:
    assert quiz_order({}) == ["A", "B", "C", "D"]


@pytest.mark.parametrize("quiz_id", ["q", "kopien", "diagnose-relay"])
def test_mischen_shuffles_a_quiz_the_same_way_every_build(quiz_id: str) -> None:
    from lessonkit.fences.exercises import mix

    first, second = list("ABCD"), list("ABCD")
    mix(first, quiz_id)
    mix(second, quiz_id)
    assert first == second and sorted(first) == list("ABCD")
    assert quiz_order({"id": quiz_id, "mischen": True}) == first


def test_mischen_moves_the_right_answer_across_ids() -> None:
    from lessonkit.fences.exercises import mix

    places = set()
    for n in range(20):
        order = list("ABCD")
        mix(order, f"quiz-{n}")
        places.add(order.index("A"))
    assert places == {0, 1, 2, 3}


def test_a_prediction_passes_its_placeholder_to_the_browser() -> None:
    from lessonkit.fences.exercises import Prediction, make_prediction

    src = "--- frage\nWas?\n--- code\n1 + 1\n--- antwort\n2\n"
    plain = make_prediction(0, 1, src, {"id": "p"})
    told = make_prediction(0, 1, src, {"id": "p", "platzhalter": "z. B. 3"})
    assert isinstance(plain, Prediction) and isinstance(told, Prediction)
    assert plain.data()["platzhalter"] == "ein Python-Wert"
    assert told.data()["platzhalter"] == "z. B. 3"


@pytest.mark.parametrize(
    "fence",
    [
        PREDICTION.format(answer="(2, 2)"),
        CODE_TASK.format(
            start="def doppelt(x):\n    pass", solution="def doppelt(x):\n    return 2 * x"
        ),
        CONSOLE_TASK.format(setup="topics", solution="create topic t partitions 1"),
    ],
    ids=["vorhersage", "aufgabe", "konsolen-aufgabe"],
)
def test_every_hint_of_an_exercise_reaches_the_page_in_order(tmp_path: Path, fence: str) -> None:
    hints = "--- hinweis\nErst *das*.\n--- hinweis\nDann das.\n"
    body = fence.replace("--- hinweis\nreturn\n", "")  # the code task's own hint
    text = body.replace("\n```\n", "\n" + hints + "```\n", 1)
    shown = convert(tmp_path, text).select("details.lk-exercise__hint")
    assert [hint.summary.get_text() for hint in shown] == ["Hinweis 1 von 2", "Hinweis 2 von 2"]
    assert [hint.select_one("p").decode_contents() for hint in shown] == [
        "Erst <em>das</em>.",
        "Dann das.",
    ]


# --- Wrong attempts (``--- fehlversuch``) are proved to fail (issue 26) ----------------

TWO_CHECKS = """```aufgabe id="a"
--- start
def doppelt(x):
    pass
--- pruefung
@pruefe("doppelt(2) ist 4")
def _():
    assert doppelt(2) == 4, f"doppelt(2) ist {{doppelt(2)!r}}"

@pruefe("doppelt(-3) ist -6")
def _():
    assert doppelt(-3) == -6, f"doppelt(-3) ist {{doppelt(-3)!r}}"
--- loesung
def doppelt(x):
    return 2 * x
--- fehlversuch{names}
def doppelt(x):
    {wrong}
```
"""

LOG_TASK = """```konsolen-aufgabe id="k"
--- setup
create topic t partitions 3
--- pruefung
@pruefe("Drei Einträge in einer Partition")
def _():
    teile = {{r.partition for r in log.read("t")}}
    assert len(log.read("t")) == 3, "Es fehlen Einträge."
    assert len(teile) == 1, f"Die Einträge liegen in {{sorted(teile)}}."
--- loesung
produce t key=k {{"n":1}}
produce t key=k {{"n":2}}
produce t key=k {{"n":3}}
--- fehlversuch
{wrong}
```
"""


def test_wrong_attempts_that_fail_build_and_never_reach_the_page(tmp_path: Path) -> None:
    text = (
        PREDICTION.format(answer="(2, 2)").replace("\n```", "\n--- fehlversuch\n(2, 1)\n```")
        + "\n"
        + TWO_CHECKS.format(names=" „doppelt(-3) ist -6“", wrong="return x * x  # SECRET-1")
        + "\n"
        + LOG_TASK.format(wrong='produce t {"n":1}\nproduce t {"n":"SECRET-2"}\nproduce t {"n":3}')
    )
    soup = convert(tmp_path, text)
    page = str(soup)
    assert len(soup.select("[data-lk-exercise]")) == 3
    for secret in ("SECRET-1", "SECRET-2", "(2, 1)", "fehlversuch"):
        assert secret not in page, secret


def test_a_wrong_attempt_does_not_change_the_digest() -> None:
    from lessonkit.fences.exercises import make_code_task

    listed_fence = TWO_CHECKS.format(names="", wrong="return x")
    plain_fence = listed_fence.split("--- fehlversuch")[0] + "```\n"

    def body(fence: str) -> str:
        return fence.split("\n", 1)[1].rsplit("```", 1)[0]

    without = make_code_task(0, 1, body(plain_fence), {"id": "a"})
    listed = make_code_task(0, 1, body(listed_fence), {"id": "a"})
    assert [w.text for w in listed.fehlversuche] == ["def doppelt(x):\n    return x"]
    assert without.digest == listed.digest


@pytest.mark.parametrize(
    ("text", "at", "message"),
    [
        # passes every check: the line of its `--- fehlversuch`
        (
            TWO_CHECKS.format(names="", wrong="return x + x"),
            "--- fehlversuch",
            "Der Fehlversuch besteht alle Prüfungen",
        ),
        # fails one check, but ticks the one it names
        (
            TWO_CHECKS.format(names=" „doppelt(2) ist 4“", wrong="return x * x"),
            "--- fehlversuch",
            "Der Fehlversuch besteht die Prüfung „doppelt(2) ist 4“, an der er scheitern soll",
        ),
        (
            TWO_CHECKS.format(names=' "doppelt(2) ist vier"', wrong="return x * x"),
            "--- fehlversuch",
            "Eine Prüfung „doppelt(2) ist vier“ gibt es nicht",
        ),
        # its own code raises before any check: the line that raises
        (
            TWO_CHECKS.format(names="", wrong="return x\nraise ValueError('kaputt')"),
            "raise ValueError",
            "Der Fehlversuch wirft, bevor eine Prüfung läuft",
        ),
        # a check that breaks on it (instead of failing its assert): the check's line
        (
            TWO_CHECKS.format(names="", wrong="return None").replace(
                'f"doppelt(2) ist {doppelt(2)!r}"', "doppelt(2) + 1"
            ),
            "doppelt(2) + 1",
            "Die Prüfung „doppelt(2) ist 4“ wirft selbst, wenn sie den Fehlversuch ab Zeile 16",
        ),
        (
            PREDICTION.format(answer="(2, 2)").replace("\n```", "\n--- fehlversuch\n(2, 2)\n```"),
            "(2, 2)\n```",
            "Der Fehlversuch (2, 2) gilt als richtig",
        ),
        (
            PREDICTION.format(answer="(2, 2)").replace("\n```", "\n--- fehlversuch\nzwei\n```"),
            "zwei",
            "Der Fehlversuch ist kein Python-Wert",
        ),
        (
            LOG_TASK.format(
                wrong='produce t key=a {"n":1}\nproduce t key=a {"n":2}\nproduce t key=a {"n":3}'
            ),
            "--- fehlversuch",
            "Der Fehlversuch besteht alle Prüfungen",
        ),
        (
            LOG_TASK.format(wrong='produce t {"n":1}\nproduce x {"n":2}'),
            "produce x",
            'Der Befehl „produce x {"n":2}“ des Fehlversuchs scheitert',
        ),
        (
            LOG_TASK.format(wrong='! produce t {"n":1}'),
            "! produce",
            'Der Befehl „produce t {"n":1}“ des Fehlversuchs soll scheitern',
        ),
    ],
)
def test_a_wrong_attempt_that_passes_fails_the_build_at_its_line(
    tmp_path: Path, text: str, at: str, message: str
) -> None:
    # The line named is the first one of the fence that holds ``at``.
    line = text[: text.index(at)].count("\n") + 1
    with pytest.raises(LessonError, match=rf"seite\.md:{line}: Übung 1 \(id „[apk]“\): ") as info:
        convert(tmp_path, text)
    assert message in str(info.value)


def test_a_wrong_command_marked_to_fail_is_fine(tmp_path: Path) -> None:
    wrong = '! update t 0 {"n":1}\nproduce t {"n":1}\nproduce t {"n":2}\nproduce t {"n":3}'
    assert convert(tmp_path, LOG_TASK.format(wrong=wrong)).select("[data-lk-exercise]")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            PREDICTION.format(answer="(2, 2)").replace(
                "\n```", "\n--- fehlversuch „x“\n(2, 1)\n```"
            ),
            "Eine Vorhersage hat nur eine Prüfung",
        ),
        (TWO_CHECKS.format(names=" doppelt", wrong="return x"), "Hinter `--- fehlversuch` steht"),
        (
            TWO_CHECKS.format(names="", wrong="return x").replace(
                "--- fehlversuch\ndef doppelt(x):\n    return x\n", "--- fehlversuch\n"
            ),
            "Der Abschnitt `--- fehlversuch` ist leer",
        ),
        (
            '```quiz id="q"\n--- frage\nJa?\n--- richtig\nA\n--- falsch\nB\n'
            "--- fehlversuch\nA\n```\n",
            "Unbekannter Abschnitt `--- fehlversuch` in `quiz`",
        ),
    ],
)
def test_a_malformed_wrong_attempt_names_its_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(LessonError) as info:
        convert(tmp_path, text)
    assert message in str(info.value)
    head = next(n for n, row in enumerate(text.splitlines(), 1) if "--- fehlversuch" in row)
    assert f"seite.md:{head}: " in str(info.value)


@pytest.mark.parametrize(
    "fence",
    [
        PREDICTION.format(answer="(2, 2)"),
        CODE_TASK.format(
            start="def doppelt(x):\n    pass", solution="def doppelt(x):\n    return 2 * x"
        ),
        CONSOLE_TASK.format(setup="topics", solution="create topic t partitions 1"),
    ],
)
def test_an_edit_above_an_exercise_keeps_its_digest(tmp_path: Path, fence: str) -> None:
    """The reader's progress is keyed by the digest: a paragraph added above the exercise
    must not make it stale. The digest of builds before (with the fence's line) comes along."""

    def data(text: str, name: str) -> dict[str, str]:
        element = convert(tmp_path, text, name).select_one(".lk-exercise__data")
        assert element is not None
        return dict(json.loads(str(element["data-lk-json"])))

    first = data(f"# Seite\n\n{fence}", "eins.md")
    moved = data(f"# Seite\n\nEin neuer Absatz.\n\nNoch einer.\n\n{fence}", "zwei.md")
    assert first["digest"] == moved["digest"]
    assert first["digest_before"] != moved["digest_before"]  # the old digest followed the line
    assert first["digest"] != first["digest_before"]
