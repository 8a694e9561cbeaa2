"""Waiting for a page condition that only a promise can tell (the Cache API, service workers).

Playwright's `wait_for_function` does not await what the function returns: a promise is
truthy, so an async condition "holds" at once and the wait waits for nothing
(tests/test_test_rules.py keeps such calls out of the tests). `wait_until` awaits each answer.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page

POLL_MS = 100


def wait_until(
    page: Page, function: str, arg: Any = None, *, timeout: float = 60, message: str = ""
) -> Any:
    """Evaluate the (async) page `function` until its value is truthy; return that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(function, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout} s for {message or function} (last: {value!r})")
        page.wait_for_timeout(POLL_MS)
