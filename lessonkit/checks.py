"""Checking a reader's answer: predictions, code tasks and console tasks.

The same functions check at build time (proving that an exercise's solution
passes and its starting point fails) and in the browser (the reader's
attempt), so both agree by construction. Pure standard library plus the
kernel; the browser reaches them through ``lessonkit.bridge``.

Authors write checks as functions decorated with ``@pruefe("what it checks")``
that ``assert`` with a German message; see docs/autoren.md.

A reader's code must not pass by cheating the comparison: ``==``, ``!=``, ``in``
and ``not in`` in a check are rewritten to ``gleich``/``enthalten`` (see there),
which an object whose ``__eq__`` always returns ``True`` cannot fool. Nothing a
check says back may flood the page: messages are cut to ``MAX_CHECK_CHARS``.
"""

from __future__ import annotations

import ast
import itertools
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lessonkit.kernel import CellResult, Kernel, bounded_repr, format_error, no_input

if TYPE_CHECKING:  # the browser's Python needs no types at run time
    from lessonkit.contract import CheckOutcomeData, PredictionOutcomeData, TaskOutcomeData
    from pysim.console.basis import BasisKonsole

#: Longest message of one check that is shown.
MAX_CHECK_CHARS = 2_000
#: Longest piece of the reader's answer that a message repeats.
MAX_ECHO_CHARS = 200
#: Longest value that a prediction's message shows.
MAX_SHOWN_CHARS = 500

EXIT_IN_CHECK = (
    "Dein Code rief sys.exit() oder exit() auf. Eine Aufgabe prüft, was deine "
    "Funktionen zurückgeben: gib das Ergebnis mit return zurück, statt das Programm zu beenden."
)

#: The pseudo file names of a task's hidden sections (tracebacks name them).
PRUEFUNG = "<pruefung>"
VORBEREITUNG = "<vorbereitung>"

ORDINALS = ("erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte")


@dataclass
class CheckOutcome:
    """One check of a task: its description, passed or not, and why not."""

    name: str
    ok: bool
    message: str = ""
    #: Line of the check's own code (``--- pruefung``) where it raised something other
    #: than an ``AssertionError``; None when it failed an assert or in the reader's code.
    check_line: int | None = None


@dataclass
class TaskOutcome:
    """The result of checking a code or console task."""

    ok: bool
    checks: list[CheckOutcome] = field(default_factory=list)
    #: The reader's own code failed before any check could run (traceback).
    error: str | None = None
    #: What the reader's code printed.
    output: str = ""

    def to_dict(self) -> TaskOutcomeData:
        checks: list[CheckOutcomeData] = [
            {
                "name": check.name,
                "ok": check.ok,
                "message": check.message,
                "check_line": check.check_line,
            }
            for check in self.checks
        ]
        return {"ok": self.ok, "checks": checks, "error": self.error, "output": self.output}


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
    namespace["__lk_gleich"] = gleich
    namespace["__lk_enthalten"] = enthalten
    tree = _StrictComparisons().visit(ast.parse(pruefung, PRUEFUNG))
    exec(compile(ast.fix_missing_locations(tree), PRUEFUNG, "exec"), namespace)
    outcomes = []
    with no_input():
        for name, function in checks:
            try:
                function()
            except AssertionError as exc:
                message = str(exc) or "Diese Prüfung ist nicht erfüllt."
                outcomes.append(CheckOutcome(name, False, _cut(message)))
            except SystemExit:
                outcomes.append(CheckOutcome(name, False, EXIT_IN_CHECK))
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # the reader's code (or the check) raised
                frames = traceback.extract_tb(exc.__traceback__)
                own = frames[-1].lineno if frames and frames[-1].filename == PRUEFUNG else None
                message = _cut(format_error(exc).strip())
                outcomes.append(CheckOutcome(name, False, message, own))
            else:
                outcomes.append(CheckOutcome(name, True))
    if not checks:
        raise ValueError("Die Prüfung definiert keine einzige Funktion mit @pruefe(…).")
    return outcomes


def _cut(message: str) -> str:
    if len(message) <= MAX_CHECK_CHARS:
        return message
    return message[:MAX_CHECK_CHARS] + f" … (Meldung gekürzt auf {MAX_CHECK_CHARS} Zeichen)"


class _StrictComparisons(ast.NodeTransformer):
    """``a == b`` -> ``gleich(a, b)``, ``a != b`` -> ``not gleich(a, b)``, likewise ``in``.

    Only single comparisons: a chain (``a == b == c``) keeps Python's meaning.
    """

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        op = node.ops[0]
        helper = {ast.Eq: "__lk_gleich", ast.NotEq: "__lk_gleich", ast.In: "__lk_enthalten"}
        name = helper.get(type(op), "__lk_enthalten" if isinstance(op, ast.NotIn) else None)
        if name is None:
            return node
        call: ast.expr = ast.Call(
            func=ast.Name(id=name, ctx=ast.Load()),
            args=[node.left, node.comparators[0]],
            keywords=[],
        )
        if isinstance(op, (ast.NotEq, ast.NotIn)):
            call = ast.UnaryOp(op=ast.Not(), operand=call)
        return ast.copy_location(call, node)


def _eq_of(kind: type) -> Any:
    """The ``__eq__`` that Python really uses for ``kind``, read from the class dicts.

    (``kind.__eq__`` could be answered by a metaclass with something else.)
    """
    for klass in type.__dict__["__mro__"].__get__(kind):
        eq = type.__dict__["__dict__"].__get__(klass).get("__eq__")
        if eq is not None:
            return eq
    return object.__eq__


#: Equality of these built-in types is plain C code that only looks at values
#: (``object.__eq__`` is identity): a reader cannot change what it says.
_PLAIN_EQ = tuple(_eq_of(kind) for kind in (object, int, float, complex, str, bytes, range))
_SEQUENCE_EQ = (_eq_of(list), _eq_of(tuple))
_COLLECTION_EQ = (*_SEQUENCE_EQ, _eq_of(dict), _eq_of(set), _eq_of(frozenset))


def _plain(value: Any, depth: int = 0) -> bool:
    """True if ``==`` on ``value`` runs only built-in equality: plain values, and lists,
    tuples, dicts and sets (also subclasses that keep their ``__eq__``) of plain values."""
    eq = _eq_of(type(value))
    if any(eq is plain for plain in _PLAIN_EQ):
        return True
    if depth > 50 or not any(eq is collection for collection in _COLLECTION_EQ):
        return False
    parts = itertools.chain.from_iterable(value.items()) if isinstance(value, dict) else value
    return all(_plain(part, depth + 1) for part in parts)


def gleich(a: Any, b: Any) -> bool:
    """``a == b`` as a check means it, strictly.

    Plain values (``_plain``) compare as Python compares them: ``70 == 70.0``,
    ``[1, 'a'] == [1, 'a']``. Otherwise lists and tuples compare part by part, dicts
    with plain keys key by key, and anything else only with an object of exactly its
    own type, and must be equal both ways. So a reader's object whose ``__eq__`` always
    says ``True`` equals nothing but objects of its own class: the author's values in a
    check never are. (An object of the same foreign type is trusted to compare
    honestly, e.g. two pysim objects.)
    """
    if _plain(a) and _plain(b):
        return bool(a == b)
    eq = _eq_of(type(a))
    if eq is _eq_of(type(b)):
        if any(eq is sequence for sequence in _SEQUENCE_EQ):
            return len(a) == len(b) and all(gleich(x, y) for x, y in zip(a, b, strict=True))
        if eq is _eq_of(dict) and all(_plain(key) for key in itertools.chain(a, b)):
            return a.keys() == b.keys() and all(gleich(a[key], b[key]) for key in a)
    return type(a) is type(b) and bool(a == b) and bool(b == a)


def enthalten(item: Any, container: Any) -> bool:
    """``item in container`` with ``gleich`` for the parts of a built-in collection."""
    if _plain(item) and _plain(container):
        return item in container
    if any(_eq_of(type(container)) is kind for kind in _COLLECTION_EQ):
        return any(gleich(item, part) for part in container)
    return item in container


async def check_code(vorbereitung: str, code: str, pruefung: str) -> TaskOutcome:
    """Run the hidden preparation, the reader's code, then the author's checks."""
    kernel = Kernel()
    namespace = kernel.namespace("aufgabe")
    if vorbereitung.strip():
        exec(compile(vorbereitung, VORBEREITUNG, "exec"), namespace)
    result: CellResult = await kernel.run("aufgabe", code, "Dein Code")
    output = "".join(text for _, text in result.output)
    if result.error is not None:
        return TaskOutcome(False, [], result.error, output)
    checks = run_checks(pruefung, namespace)
    return TaskOutcome(all(check.ok for check in checks), checks, None, output)


def check_console(console: BasisKonsole[Any], kind: str, pruefung: str) -> TaskOutcome:
    """Run the author's checks against a console's state."""
    namespace: dict[str, Any] = {"__name__": "__main__", "konsole": console}
    # the model under the kind's name: ``log``, ``queue`` or ``saga``
    namespace[kind] = console.modell
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

    def to_dict(self) -> PredictionOutcomeData:
        return {
            "valid": self.valid,
            "correct": self.correct,
            "message": self.message,
            "actual": self.actual,
            "parts": list(self.parts),
        }


def parse_answer(text: str) -> Any:
    """The reader's answer as a Python value; ValueError with a German message if it is none."""
    if not text.strip():
        raise ValueError("Trag zuerst eine Antwort ein, zum Beispiel (1, 2, 0).")
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ValueError(
            f"„{_echo(text.strip())}“ ist kein Python-Wert. Schreib Zahlen, Zeichenketten in "
            "Anführungszeichen, Tupel in runden Klammern, z. B. (2, 'a', True)."
        ) from None


def _echo(text: str) -> str:
    """The reader's own text, repeated in a message, at most ``MAX_ECHO_CHARS`` long."""
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS] + " …"


def _shown(value: Any, limit: int = MAX_SHOWN_CHARS) -> str:
    """``repr(value)`` for a message, cut (without building all of it) when long."""
    text, cut = bounded_repr(value, limit)
    return text + " …" if cut else text


def _ordinal(index: int) -> str:
    return f"der {ORDINALS[index]} Wert" if index < len(ORDINALS) else f"der {index + 1}. Wert"


def compare_prediction(actual: Any, answer_text: str) -> PredictionOutcome:
    """Compare the real value with the reader's answer, per component where it has parts."""
    try:
        answer = parse_answer(answer_text)
    except ValueError as exc:
        return PredictionOutcome(valid=False, message=str(exc))
    shown = _shown(actual)
    if type(answer) is type(actual) and gleich(answer, actual):
        return PredictionOutcome(True, True, f"Richtig: der Code liefert {shown}.", shown)
    if isinstance(actual, (tuple, list)) and isinstance(answer, (tuple, list)):
        if len(answer) == len(actual):
            parts = [gleich(a, b) for a, b in zip(answer, actual, strict=True)]
            wrong = [i for i, ok in enumerate(parts) if not ok]
            if not wrong:
                return PredictionOutcome(
                    True, True, f"Richtig: der Code liefert {shown}.", shown, parts
                )
            details = "; ".join(
                f"{_ordinal(i)} ist {_shown(actual[i], MAX_ECHO_CHARS)}, "
                f"nicht {_shown(answer[i], MAX_ECHO_CHARS)}"
                for i in wrong
            )
            message = _cut(f"{parts.count(True)} von {len(parts)} richtig: {details}.")
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


async def predict(code: str, answer: str, kernel: Kernel, session: str) -> PredictionOutcomeData:
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
