"""Fixtures for the lessonkit tests."""

from __future__ import annotations

import pytest

import lessonkit.bridge
from lessonkit.integrity import JudgingRecord


@pytest.fixture(autouse=True)
def fresh_judging_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's bridge notes the judging modules anew at its first call: tests replace
    functions of them on purpose (a stand-in for `load_node`), as a reader's cell would not
    before the page's first run (lessonkit/integrity.py)."""
    monkeypatch.setattr(lessonkit.bridge, "judging", JudgingRecord())
