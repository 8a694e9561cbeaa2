"""Checks that let a reader fail and try again (issue 26): a wrong prediction hears what
is wrong without the real value; harmless slips (``ae`` for ``ä``, ``true`` for
``True``, ``10.0`` for ``10``) count, each with a German note; a failure of the reader's
code is told once, under the first check it breaks. The build forgives authors nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.build.errors import LessonError
from lessonkit.build.execute import run_sync
from lessonkit.runtime.bridge import _prepare, kernel
from lessonkit.runtime.checks import check_code, compare_prediction, predict
from lessonkit.runtime.kernel import Kernel
from tests.lessonkit.seiten import convert

# --- predictions: a nudge, never the value --------------------------------------------


@pytest.mark.parametrize(
    ("actual", "answer", "nudge"),
    [
        ((3, "b-3"), "(3, 'b-2')", "Der zweite von 2 Werten stimmt nicht."),
        ((1, 2, 3), "(0, 2, 0)", "Der erste und der dritte von 3 Werten stimmen nicht."),
        ((1, 2), "(0, 0)", "Keiner der 2 Werte stimmt."),
        (list(range(6)), "[9, 9, 9, 9, 4, 5]", "4 von 6 Werten stimmen nicht."),
        ((1, 2), "(1, 2, 3)", "Der Code liefert 2 Werte, deine Antwort hat 3."),
        (10, "4", "Der Code liefert einen anderen Wert."),
        (10, "'10'", "Der Code liefert eine ganze Zahl, deine Antwort ist ein Text."),
        ("läuft", "True", "Der Code liefert einen Text, deine Antwort ist ein Wahrheitswert."),
    ],
)
def test_a_wrong_prediction_hears_where_it_is_wrong_not_the_value(
    actual: object, answer: str, nudge: str
) -> None:
    outcome = compare_prediction(actual, answer)
    assert outcome.valid and not outcome.correct
    assert outcome.nudge == nudge
    assert outcome.to_dict()["nudge"] == nudge
    assert repr(actual) not in outcome.nudge


def test_the_authors_message_still_names_the_real_values() -> None:
    outcome = compare_prediction((3, "b-3"), "(3, 'b-2')")
    assert outcome.message == "1 von 2 richtig: der zweite Wert ist 'b-3', nicht 'b-2'."
    assert "b-3" not in outcome.nudge


@pytest.mark.parametrize(
    ("actual", "answer", "note"),
    [
        ((True, None), "(true, null)", "In Python: `True`, nicht `true`."),
        ((True, None), "(true, null)", "In Python: `None`, nicht `null`."),
        (False, "false", "In Python: `False`, nicht `false`."),
        (("läuft", "gesendet", 70), "('laeuft', 'gesendet', 70)", "„laeuft“ zählt als „läuft“"),
        ("Straße", "'Strasse'", "„Strasse“ zählt als „Straße“"),
        ("Übung", "'Uebung'", "„Uebung“ zählt als „Übung“"),
        (10, "10.0", "`10.0` zählt als `10`: Der Code liefert eine ganze Zahl."),
        ((1, 2), "[1, 2]", "Der Code liefert ein Tupel, deine Antwort ist eine Liste"),
        ([(1, 2)], "[[1, 2]]", "Der Code liefert ein Tupel, deine Antwort ist eine Liste"),
        ({"grün": 1}, "{'gruen': 1}", "ae, oe, ue und ss für ä, ö, ü und ß"),
    ],
)
def test_a_harmless_slip_counts_with_a_note(actual: object, answer: str, note: str) -> None:
    outcome = compare_prediction(actual, answer)
    assert outcome.valid and outcome.correct, outcome
    assert any(note in text for text in outcome.notes), outcome.notes


def test_an_exact_answer_has_no_note() -> None:
    outcome = compare_prediction(("läuft", True), "('läuft', True)")
    assert outcome.correct and outcome.notes == []


@pytest.mark.parametrize(
    ("actual", "answer"),
    [
        (1, "True"),  # a bool is no number here
        ("laeuft", "'lauft'"),
        ("Masse", "'Maße'"),  # both ways: ß is ss, so these are the same text …
    ],
)
def test_what_is_not_a_slip_is_not_forgiven(actual: object, answer: str) -> None:
    outcome = compare_prediction(actual, answer)
    if actual == "Masse":  # … and counted, with a note
        assert outcome.correct and outcome.notes
    else:
        assert not outcome.correct


def test_a_js_literal_in_a_wrong_answer_keeps_its_note() -> None:
    outcome = compare_prediction((False, 2), "(true, 2)")
    assert not outcome.correct
    assert outcome.notes == ["In Python: `True`, nicht `true`."]
    assert outcome.nudge == "Der erste von 2 Werten stimmt nicht."


def test_an_unknown_name_is_still_no_value() -> None:
    outcome = compare_prediction(1, "(true, undefined)")
    assert not outcome.valid
    assert "kein Python-Wert" in outcome.message


def test_predict_in_the_browser_sends_nudge_and_notes() -> None:
    outcome = run_sync(lambda: predict("(1 == 1, 'grün')", "(true, 'gruen')", Kernel(), "p"))
    assert outcome["correct"] is True
    assert outcome["notes"] == [
        "In Python: `True`, nicht `true`.",
        "„gruen“ zählt als „grün“: ae, oe, ue und ss für ä, ö, ü und ß sind in Ordnung.",
    ]


# --- code tasks: forgiving ==, and one report per failure ------------------------------

VERGLEICH = (
    '@pruefe("(2,0) und (1,1) sind nebenläufig")\ndef _():\n'
    "    r = vergleiche()\n"
    '    assert r == "nebenläufig", f"vergleiche liefert {r!r}."\n'
    '@pruefe("in einer Liste")\ndef _():\n'
    '    assert vergleiche() in ["vorher", "nebenläufig"], "nicht in der Liste"\n'
    '@pruefe("!= bleibt streng")\ndef _():\n'
    '    assert vergleiche() != "nebenläufig", "gleich"\n'
)


def check(code: str, pruefung: str) -> dict:
    return run_sync(lambda: check_code("", code, pruefung)).to_dict()


def test_a_check_counts_a_text_without_umlauts_with_a_note() -> None:
    outcome = check("def vergleiche():\n    return 'nebenlaeufig'\n", VERGLEICH)
    first, listed, strict = outcome["checks"]
    assert first["ok"] and listed["ok"]
    note = "„nebenlaeufig“ zählt als „nebenläufig“: ae, oe, ue und ss für ä, ö, ü und ß sind in Ordnung."
    assert first["notes"] == [note]
    assert listed["notes"] == []  # told once, under the first check
    assert strict["ok"] is True and strict["notes"] == []  # != does not forgive


def test_a_check_with_the_exact_text_has_no_note() -> None:
    outcome = check("def vergleiche():\n    return 'nebenläufig'\n", VERGLEICH)
    assert [c["notes"] for c in outcome["checks"]] == [[], [], []]


def test_a_failure_of_the_readers_code_is_told_once() -> None:
    pruefung = "".join(
        f'@pruefe("Prüfung {n}")\ndef _():\n    assert f({n}) == {n}, "falsch"\n' for n in (1, 2, 3)
    )
    code = "import random\ndef f(x):\n    raise ValueError(f'kaputt {random.random()}')\n"
    first, second, third = check(code, pruefung)["checks"]
    assert "ValueError: kaputt" in first["message"]
    assert "Dein Code, Zeile 3, in f" in first["message"]
    assert second["message"] == "Derselbe Fehler wie bei „Prüfung 1“ (oben)."
    assert third["message"] == "Derselbe Fehler wie bei „Prüfung 1“ (oben)."
    assert not (first["ok"] or second["ok"] or third["ok"])


def test_the_same_assert_message_is_told_once_and_bare_asserts_each_time() -> None:
    pruefung = (
        '@pruefe("A")\ndef _():\n    assert isinstance(G, int), f"G ist {G!r}, keine ganze Zahl."\n'
        '@pruefe("B")\ndef _():\n    assert isinstance(G, int), f"G ist {G!r}, keine ganze Zahl."\n'
        '@pruefe("C")\ndef _():\n    assert G > 20\n'
        '@pruefe("D")\ndef _():\n    assert G > 30\n'
    )
    a, b, c, d = check("G = 11.0\n", pruefung)["checks"]
    assert a["message"] == "G ist 11.0, keine ganze Zahl."
    assert b["message"] == "Derselbe Fehler wie bei „A“ (oben)."
    assert c["message"] == d["message"] == "Diese Prüfung ist nicht erfüllt."


def test_different_errors_are_each_told() -> None:
    pruefung = '@pruefe("A")\ndef _():\n    f(0)\n@pruefe("B")\ndef _():\n    f(1)\n'
    code = "def f(x):\n    if x:\n        raise KeyError(x)\n    return 1 / x\n"
    a, b = check(code, pruefung)["checks"]
    assert "ZeroDivisionError" in a["message"]
    assert "KeyError" in b["message"]


def test_js_true_in_the_readers_code_gets_a_note() -> None:
    pruefung = '@pruefe("f ist wahr")\ndef _():\n    assert f() == True, "nein"\n'
    outcome = check("def f():\n    return true\n", pruefung)
    assert "NameError: name 'true' is not defined" in outcome["checks"][0]["message"]
    assert "In Python: `True`, nicht `true`." in outcome["checks"][0]["message"]
    top = check("x = null\n", pruefung)
    assert top["error"] and "In Python: `None`, nicht `null`." in top["error"]


# --- Ausführen: the task's preparation, then the reader's code ------------------------


def test_prepare_gives_the_readers_run_a_fresh_session_with_the_preparation() -> None:
    _prepare("aufgabe:t", "def lauf(g):\n    return g * 2\n")
    run = run_sync(lambda: kernel.run("aufgabe:t", "x = lauf(21)\nx"))
    assert run.error is None and run.value == "42"
    _prepare("aufgabe:t", "def lauf(g):\n    return g * 2\n")
    again = run_sync(lambda: kernel.run("aufgabe:t", "x"))
    assert again.error_type == "NameError"  # fresh: the earlier run's x is gone


# --- the build forgives authors nothing -----------------------------------------------

PREDICTION = """```vorhersage id="p"
--- frage
Was kommt heraus?
--- code
("läuft", 1 == 1, 10)
--- antwort
{answer}
```
"""


@pytest.mark.parametrize(
    "answer",
    ["('laeuft', True, 10)", "('läuft', true, 10)", "('läuft', True, 10.0)", "['läuft', True, 10]"],
)
def test_an_authors_answer_that_needs_forgiveness_fails_the_build(
    tmp_path: Path, answer: str
) -> None:
    with pytest.raises(LessonError, match="stimmt nur, weil der Browser Lesern etwas nachsieht"):
        convert(tmp_path, PREDICTION.format(answer=answer))


def test_an_authors_solution_that_needs_forgiveness_fails_the_build(tmp_path: Path) -> None:
    task = (
        '```aufgabe id="a"\n--- start\ndef vergleiche():\n    pass\n--- pruefung\n'
        + VERGLEICH.split('@pruefe("in')[0]
        + "--- loesung\ndef vergleiche():\n    return 'nebenlaeufig'\n```\n"
    )
    with pytest.raises(LessonError, match="besteht die Prüfungen nur, weil der Browser"):
        convert(tmp_path, task)


@pytest.mark.parametrize("fence", ["vorhersage", "quiz"])
def test_versuche_reaches_the_browser(tmp_path: Path, fence: str) -> None:
    import json

    body = (
        PREDICTION.format(answer="('läuft', True, 10)")
        if fence == "vorhersage"
        else '```quiz id="p"\n--- frage\nJa?\n--- richtig\nJa\n--- falsch\nNein\n```\n'
    )
    told = body.replace('id="p"', 'id="p" versuche="3"', 1)
    for text, tries in ((body, None), (told, 3)):
        soup = convert(tmp_path, text)
        data = json.loads(soup.select_one(".lk-exercise__data")["data-lk-json"])
        assert data["versuche"] == tries


def test_versuche_must_be_a_whole_number(tmp_path: Path) -> None:
    text = '```quiz id="q" versuche="0"\n--- frage\nJa?\n--- richtig\nJa\n--- falsch\nNein\n```\n'
    with pytest.raises(Exception, match="versuche=„0“ ist keine ganze Zahl ab 1"):
        convert(tmp_path, text)


def test_a_comparison_inside_a_class_body_of_a_check_works() -> None:
    """Python mangles ``__name`` inside a class body; the helpers must survive that."""
    from lessonkit.runtime.checks import run_checks

    pruefung = """
@pruefe("in einer Klasse")
def _():
    class Innen:
        gleich = 1 + 1 == 2
        drin = "a" in "ab"
        anders = 1 != 2
    assert Innen.gleich and Innen.drin and Innen.anders
"""
    [check] = run_checks(pruefung, {"__name__": "__main__"})
    assert check.ok, check.message
