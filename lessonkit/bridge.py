"""The calls the browser may make into the worker's Python, besides running cells.

The worker calls ``call(name, args_json)`` and gets JSON text back. Only the
names in ``CALLS`` exist, so the page cannot ask Python for anything else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from lessonkit.consoles import ConsoleSessions

consoles = ConsoleSessions()


def _console_run(key: str, kind: str, options: dict[str, Any], setup: list[str], line: str) -> Any:
    return consoles.run(key, kind, options, setup, line).to_dict()


def _console_complete(
    key: str, kind: str, options: dict[str, Any], setup: list[str], line: str
) -> Any:
    return consoles.complete(key, kind, options, setup, line)


def _console_reset(key: str) -> None:
    consoles.reset(key)


def _page_reset() -> None:
    consoles.reset_all()


CALLS: dict[str, Callable[..., Any]] = {
    "console.run": _console_run,
    "console.complete": _console_complete,
    "console.reset": _console_reset,
    "page.reset": _page_reset,
}


def call(name: str, args_json: str) -> str:
    """Run the call ``name`` with keyword arguments from ``args_json``; JSON result."""
    handler = CALLS.get(name)
    if handler is None:
        raise ValueError(f"Unbekannter Aufruf „{name}“")
    return json.dumps(handler(**json.loads(args_json)), ensure_ascii=False)
