"""Fixtures for the lessonkit tests."""

from __future__ import annotations

import pytest

import lessonkit.runtime.bridge
from lessonkit.runtime.integrity import JudgingRecord


@pytest.fixture(autouse=True)
def fresh_judging_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's bridge notes the judging modules anew at its first call: tests replace
    functions of them on purpose (a stand-in for `load_node`), as a reader's cell would not
    before the page's first run (lessonkit/runtime/integrity.py)."""
    monkeypatch.setattr(lessonkit.runtime.bridge, "judging", JudgingRecord())
