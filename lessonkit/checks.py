"""Checking a reader's answer: predictions, code tasks and console tasks.

The same functions check at build time (proving that an exercise's solution
passes and its starting point fails) and in the browser (the reader's
attempt), so both agree by construction. Pure standard library plus the
kernel; the browser reaches them through ``lessonkit.bridge``.

Authors write checks as functions decorated with ``@pruefe("what it checks")``
that ``assert`` with a German message; see docs/autoren.md.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from lessonkit.kernel import CellResult, Kernel, format_error

ORDINALS = ("erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte")


@dataclass
class CheckOutcome:
    """One check of a task: its description, passed or not, and why not."""

    name: str
    ok: bool
    message: str = ""


@dataclass
class TaskOutcome:
    """The result of checking a code or console task."""

    ok: bool
    checks: list[CheckOutcome] = field(default_factory=list)
    #: The reader's own code failed before any check could run (traceback).
    error: str | None = None
    #: What the reader's code printed.
    output: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _registry(namespace: dict[str, Any]) -> list[tuple[str, Callable[[], Any]]]:
    checks: list[tuple[str, Callable[[], Any]]] = []

    def pruefe(name: str) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
        def register(function: Callable[[], Any]) -> Callable[[], Any]:
            checks.append((name, function))
            return function

        return register

    namespace["pruefe"] = pruefe
    return checks


def run_checks(pruefung: str, namespace: dict[str, Any]) -> list[CheckOutcome]:
    """Define the author's checks in ``namespace`` and run each, in order."""
    checks = _registry(namespace)
    exec(compile(pruefung, "<pruefung>", "exec"), namespace)
    outcomes = []
    for name, function in checks:
        try:
            function()
        except AssertionError as exc:
            outcomes.append(
                CheckOutcome(name, False, str(exc) or "Diese Prüfung ist nicht erfüllt.")
            )
        except Exception as exc:  # the reader's code raised inside a check
            outcomes.append(CheckOutcome(name, False, format_error(exc).strip()))
        else:
            outcomes.append(CheckOutcome(name, True))
    if not checks:
        raise ValueError("Die Prüfung definiert keine einzige Funktion mit @pruefe(…).")
    return outcomes


async def check_code(vorbereitung: str, code: str, pruefung: str) -> TaskOutcome:
    """Run the hidden preparation, the reader's code, then the author's checks."""
    kernel = Kernel()
    namespace = kernel.namespace("aufgabe")
    if vorbereitung.strip():
        exec(compile(vorbereitung, "<vorbereitung>", "exec"), namespace)
    result: CellResult = await kernel.run("aufgabe", code, "Dein Code")
    output = "".join(text for _, text in result.output)
    if result.error is not None:
        return TaskOutcome(False, [], result.error, output)
    checks = run_checks(pruefung, namespace)
    return TaskOutcome(all(check.ok for check in checks), checks, None, output)


def check_console(console: Any, kind: str, pruefung: str) -> TaskOutcome:
    """Run the author's checks against a console's state."""
    namespace: dict[str, Any] = {"__name__": "__main__", "konsole": console}
    namespace["log" if kind == "log" else "queue"] = console.log if kind == "log" else console.queue
    checks = run_checks(pruefung, namespace)
    return TaskOutcome(all(check.ok for check in checks), checks)


@dataclass
class PredictionOutcome:
    """How a reader's prediction compares with what the code really returns."""

    valid: bool  # False: the answer is no Python literal (nothing was counted)
    correct: bool = False
    message: str = ""
    actual: str = ""  # repr of the real value
    parts: list[bool] = field(default_factory=list)  # per component, for tuples and lists

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_answer(text: str) -> Any:
    """The reader's answer as a Python value; ValueError with a German message if it is none."""
    if not text.strip():
        raise ValueError("Trag zuerst eine Antwort ein, zum Beispiel (1, 2, 0).")
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ValueError(
            f"„{text.strip()}“ ist kein Python-Wert. Schreib Zahlen, Zeichenketten in "
            "Anführungszeichen, Tupel in runden Klammern, z. B. (2, 'a', True)."
        ) from None


def _ordinal(index: int) -> str:
    return f"der {ORDINALS[index]} Wert" if index < len(ORDINALS) else f"der {index + 1}. Wert"


def compare_prediction(actual: Any, answer_text: str) -> PredictionOutcome:
    """Compare the real value with the reader's answer, per component where it has parts."""
    try:
        answer = parse_answer(answer_text)
    except ValueError as exc:
        return PredictionOutcome(valid=False, message=str(exc))
    shown = repr(actual)
    if answer == actual and type(answer) is type(actual):
        return PredictionOutcome(True, True, f"Richtig: der Code liefert {shown}.", shown)
    if isinstance(actual, (tuple, list)) and isinstance(answer, (tuple, list)):
        if len(answer) == len(actual):
            parts = [a == b for a, b in zip(answer, actual, strict=True)]
            wrong = [i for i, ok in enumerate(parts) if not ok]
            if not wrong:
                return PredictionOutcome(
                    True, True, f"Richtig: der Code liefert {shown}.", shown, parts
                )
            details = "; ".join(
                f"{_ordinal(i)} ist {actual[i]!r}, nicht {answer[i]!r}" for i in wrong
            )
            message = f"{parts.count(True)} von {len(parts)} richtig: {details}."
            return PredictionOutcome(True, False, message, shown, parts)
        return PredictionOutcome(
            True,
            False,
            f"Der Code liefert {len(actual)} Werte, deine Antwort hat {len(answer)}.",
            shown,
        )
    return PredictionOutcome(True, False, f"Nicht ganz: der Code liefert {shown}.", shown)


async def evaluate(code: str, kernel: Kernel, session: str, label: str) -> CellResult:
    """Run a prediction's code like a cell; ``raw_value`` is the value to compare."""
    tree = ast.parse(code)
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError("Der Code einer Vorhersage muss mit einem Ausdruck enden (dem Ergebnis).")
    return await kernel.run(session, code, label)


async def predict(code: str, answer: str, kernel: Kernel, session: str) -> dict[str, Any]:
    """Browser entry: run the prediction's code in ``session``, compare with the answer."""
    try:
        parse_answer(answer)
    except ValueError as exc:
        return PredictionOutcome(valid=False, message=str(exc)).to_dict()
    result = await evaluate(code, kernel, session, "Vorhersage")
    if result.error is not None:
        return {
            **PredictionOutcome(True, False, result.error).to_dict(),
            "result": result.to_dict(),
        }
    return {**compare_prediction(result.raw_value, answer).to_dict(), "result": result.to_dict()}
