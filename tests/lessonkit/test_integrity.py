"""A verdict only from the course's own judging (lessonkit/runtime/integrity.py, issue 49).

Each test works on a record of its own (``JudgingRecord``) and undoes what it replaced.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import lessonkit.runtime.bridge
import lessonkit.runtime.challenges
import lessonkit.runtime.checks
from lessonkit.build.execute import run_sync
from lessonkit.runtime.integrity import JudgingChanged, JudgingRecord


@contextmanager
def replaced(owner: Any, name: str, value: Any) -> Iterator[None]:
    before = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, before)


def taken() -> JudgingRecord:
    record = JudgingRecord()
    record.take()
    return record


def test_nothing_changed_nothing_said() -> None:
    record = taken()
    assert record.changed() == []
    record.ensure()


@pytest.mark.parametrize(
    ("owner", "name", "shown"),
    [
        (lessonkit.runtime.challenges, "_bestanden", "lessonkit.runtime.challenges._bestanden"),
        (lessonkit.runtime.checks, "run_checks", "lessonkit.runtime.checks.run_checks"),
        (builtins, "all", "builtins.all"),
        (json, "dumps", "json.dumps"),
    ],
)
def test_a_replaced_function_is_named(owner: Any, name: str, shown: str) -> None:
    record = taken()
    with replaced(owner, name, lambda *args, **kwargs: True):
        assert shown in record.changed()
        with pytest.raises(JudgingChanged, match="Die Prüfung des Kurses wurde"):
            record.ensure()
    assert record.changed() == []  # put back: the same objects again


def test_changed_code_defaults_methods_and_the_bridges_calls_are_seen() -> None:
    record = taken()
    function = lessonkit.runtime.challenges._bestanden
    with replaced(function, "__code__", (lambda teile: True).__code__):
        assert "lessonkit.runtime.challenges._bestanden" in record.changed()
    with replaced(lessonkit.runtime.checks.TaskOutcome, "to_dict", lambda self: {}):
        assert "lessonkit.runtime.checks.TaskOutcome.to_dict" in record.changed()
    calls = lessonkit.runtime.bridge.CALLS
    before = calls["exercise.check_code"]
    calls["exercise.check_code"] = lambda **kwargs: None
    try:
        assert "lessonkit.runtime.bridge.CALLS['exercise.check_code']" in record.changed()
    finally:
        calls["exercise.check_code"] = before


def test_the_bridge_refuses_a_verdict_from_changed_judging() -> None:
    lessonkit.runtime.bridge.judging.take()
    args = {
        "vorbereitung": "",
        "code": "x = 1",
        "pruefung": "@pruefe('x')\ndef _():\n    assert x == 2",
    }
    answer = json.loads(
        run_sync(lambda: lessonkit.runtime.bridge.call("exercise.check_code", json.dumps(args)))
    )
    assert answer["ok"] is False
    with replaced(lessonkit.runtime.checks, "run_checks", lambda pruefung, ns: []):
        with pytest.raises(JudgingChanged):
            run_sync(lambda: lessonkit.runtime.bridge.call("exercise.check_code", json.dumps(args)))
    # Calls that judge nothing still answer (a console's command, a reset).
    assert run_sync(lambda: lessonkit.runtime.bridge.call("page.reset", "{}")) == "null"
