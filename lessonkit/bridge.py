"""The page's way into the worker's Python.

The worker owns one ``Kernel`` (the namespaces of the page's cells) and the
page's consoles; it runs cells through ``kernel`` and everything else through
``call(name, args_json)``, which returns JSON text. Only the names in
``CALLS`` exist, so the page cannot ask Python for anything else.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from lessonkit.checks import check_code, check_console, predict
from lessonkit.consoles import ConsoleSessions
from lessonkit.kernel import Kernel

kernel = Kernel()
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
    """A new page: fresh namespaces and consoles."""
    kernel.reset()
    consoles.reset_all()


async def _predict(code: str, answer: str, session: str | None, id: str) -> Any:
    # Without a session the prediction runs in a fresh namespace of its own, every time.
    name = session or f"vorhersage:{id}"
    if session is None:
        kernel.sessions.pop(name, None)
    return await predict(code, answer, kernel, name)


async def _check_code(vorbereitung: str, code: str, pruefung: str) -> Any:
    return (await check_code(vorbereitung, code, pruefung)).to_dict()


def _check_console(
    key: str, kind: str, options: dict[str, Any], setup: list[str], pruefung: str
) -> Any:
    console, _ = consoles.get(key, kind, options, setup)
    return check_console(console, kind, pruefung).to_dict()


CALLS: dict[str, Callable[..., Any]] = {
    "console.run": _console_run,
    "console.complete": _console_complete,
    "console.reset": _console_reset,
    "page.reset": _page_reset,
    "exercise.predict": _predict,
    "exercise.check_code": _check_code,
    "exercise.check_console": _check_console,
}


async def call(name: str, args_json: str) -> str:
    """Run the call ``name`` with keyword arguments from ``args_json``; JSON result."""
    handler = CALLS.get(name)
    if handler is None:
        raise ValueError(f"Unbekannter Aufruf „{name}“")
    result = handler(**json.loads(args_json))
    if inspect.isawaitable(result):
        result = await result
    return json.dumps(result, ensure_ascii=False)
