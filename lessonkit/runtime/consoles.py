"""The command consoles of a page, by key, at build time and in the browser.

A console's state is one of ``pysim``'s consoles (``LogKonsole``, ``QueueKonsole``, …).
Each console on a page has its own state, unless the author gives several the
same ``session``: then they share one, built by replaying the setup commands of
all of them in page order. Pure standard library plus ``pysim``: shipped to the
browser and called there through ``lessonkit.runtime.bridge``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pysim.console import ConsoleResult, KonsolenArt, arten
from pysim.console.basis import BasisKonsole

#: Any console (each kind is a ``BasisKonsole`` on its model).
AnyConsole = BasisKonsole[Any]

#: Every console kind, by its ``kind=`` name: the descriptors at the end of each
#: ``pysim/<simulation>/konsole.py`` (``pysim.console.arten``).
ARTEN: dict[str, KonsolenArt] = arten()

#: The consoles a fence can create: kind -> factory(options).
KINDS: dict[str, Callable[[dict[str, Any]], AnyConsole]] = {
    name: art.erzeuge for name, art in ARTEN.items()
}


def strip_expectation(line: str) -> tuple[str, bool]:
    """A setup line ``! cmd`` is meant to fail: return (``cmd``, True)."""
    stripped = line.strip()
    if stripped.startswith("!"):
        return stripped[1:].strip(), True
    return stripped, False


class ConsoleSessions:
    """Live consoles by key; a console is created (and its setup replayed) on first use."""

    def __init__(self) -> None:
        self.consoles: dict[str, AnyConsole] = {}

    def get(
        self, key: str, kind: str, options: dict[str, Any], setup: list[str]
    ) -> tuple[AnyConsole, list[ConsoleResult]]:
        """The console ``key``; when new, created and given its setup (whose results are returned)."""
        if key in self.consoles:
            return self.consoles[key], []
        console = KINDS[kind](options)
        self.consoles[key] = console
        return console, [console.run(strip_expectation(line)[0]) for line in setup]

    def run(
        self, key: str, kind: str, options: dict[str, Any], setup: list[str], line: str
    ) -> ConsoleResult:
        console, _ = self.get(key, kind, options, setup)
        return console.run(line)

    def complete(
        self, key: str, kind: str, options: dict[str, Any], setup: list[str], line: str
    ) -> list[str]:
        console, _ = self.get(key, kind, options, setup)
        return console.complete(line)

    def reset(self, key: str) -> None:
        """Forget ``key``: the next use starts again from the author's setup."""
        self.consoles.pop(key, None)

    def reset_all(self) -> None:
        self.consoles.clear()
