"""The one error type of the build: it names the Markdown file and line."""

from __future__ import annotations

from pymdownx.superfences import SuperFencesException

try:  # Under MkDocs, a BuildError ends the build with our message and no Python traceback.
    from mkdocs.exceptions import BuildError as _Base
except ImportError:  # pragma: no cover - other generators (Zensical) show the plain message
    # mypy checks with MkDocs installed, so it sees this as a second definition of _Base.
    class _Base(Exception):  # type: ignore[no-redef]
        """Like MkDocs' BuildError: ``message`` is the whole text."""

        def __init__(self, message: str) -> None:
            super().__init__(message)
            self.message = message


# pymdown-extensions has no types, so SuperFencesException is Any to mypy.
class LessonError(_Base, SuperFencesException):  # type: ignore[misc]
    """A lesson page is wrong: ``path:line: what is wrong and how to fix it``.

    ``message`` is that whole text. Also a SuperFencesException: superfences swallows every other exception raised
    while it validates or formats a fence (and would show the fence as plain code).
    """

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


def too_long(path: str, line: int, label: str, seconds: float, waited: bool = False) -> LessonError:
    """A block ran past its time limit (the build stopped it): ``seconds`` of processor
    time, or, if it ``waited``, that many seconds on the clock."""
    if waited:
        return LessonError(
            path,
            line,
            f"{label} läuft länger als {seconds:g} s und wartet dabei — ein `await` oder "
            "`time.sleep`, das nie endet? Der Build hat den Block abgebrochen.",
        )
    return LessonError(
        path,
        line,
        f"{label} läuft länger als {seconds:g} s Rechenzeit — Endlosschleife? Der Build "
        "hat den Block abgebrochen. Prüfe Schleifen und `await`s, die nie enden.",
    )
