"""Steps of a reader's journey: one test walks several of them on one loaded page, and a
failure names the step it broke in (the steps after it do not run)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class StepFailed(AssertionError):
    """A step of a journey failed; the failure itself is its cause (shown above it)."""


@contextmanager
def step(name: str) -> Iterator[None]:
    try:
        yield
    except Exception as error:
        raise StepFailed(f"step {name!r}: {type(error).__name__}: {error}") from error
