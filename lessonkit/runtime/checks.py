"""Checking a reader's answer: predictions, code tasks and console tasks.

The same functions check at build time (proving that an exercise's solution
passes and its starting point fails) and in the browser (the reader's
attempt), so both agree by construction. Pure standard library plus the
kernel; the browser reaches them through ``lessonkit.runtime.bridge``.

Authors write checks as functions decorated with ``@pruefe("what it checks")``
that ``assert`` with a German message; see docs/autoren.md.

A reader's code must not pass by cheating the comparison: ``==``, ``!=``, ``in``
and ``not in`` in a check are rewritten to ``gleich``/``enthalten`` (see there),
which an object whose ``__eq__`` always returns ``True`` cannot fool. Nothing a
check says back may flood the page: messages are cut to ``MAX_CHECK_CHARS``.

Forgiving, with a German note instead of a silent ✗ (issue 26): text written with
``ae``/``oe``/``ue``/``ss`` for ``ä``/``ö``/``ü``/``ß`` counts as the same text (in a
prediction and in a check's ``==`` and ``in``), a prediction may say ``true``,
``false`` and ``null``, and ``10.0`` counts as ``10``. The build does not forgive:
an author's answer or solution that needs a note is refused (``lessonkit.fences.exercises``).
A failure that the reader's code causes in several checks is told once, under the
first of them; the others point there.
"""

from __future__ import annotations

import ast
import contextvars
import itertools
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lessonkit.runtime.consoles import ARTEN
from lessonkit.runtime.kernel import (
    JS_LITERALS,
    CellResult,
    Kernel,
    bounded_repr,
    format_error,
    js_literal_note,
    no_input,
)
from pysim.fehler import anzahl

if TYPE_CHECKING:  # the browser's Python needs no types at run time
    from lessonkit.build.contract import CheckOutcomeData, PredictionOutcomeData, TaskOutcomeData
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
    #: What the check forgave (``ae`` for ``ä``, …), in German; passed or not.
    notes: list[str] = field(default_factory=list)


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
                "notes": list(check.notes),
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
    namespace["__lk_gleich__"] = gleich
    namespace["__lk_enthalten__"] = enthalten
    namespace["__lk_gleich_nachsichtig__"] = gleich_nachsichtig
    namespace["__lk_enthalten_nachsichtig__"] = enthalten_nachsichtig
    tree = _StrictComparisons().visit(ast.parse(pruefung, PRUEFUNG))
    exec(compile(ast.fix_missing_locations(tree), PRUEFUNG, "exec"), namespace)
    outcomes = []
    #: The first check that failed for each cause (``_cause``): later ones point there.
    first: dict[object, str] = {}
    #: Notes already told under an earlier check.
    told: set[str] = set()
    with no_input():
        for name, function in checks:
            notes: list[str] = []
            token = _notes.set(notes)
            try:
                outcome, cause = _run_one(name, function)
            finally:
                _notes.reset(token)
            outcome.notes = [note for note in notes if note not in told]
            told.update(notes)
            if cause is not None:
                if cause in first:
                    outcome.message = f"Derselbe Fehler wie bei „{first[cause]}“ (oben)."
                else:
                    first[cause] = name
            outcomes.append(outcome)
    if not checks:
        raise ValueError("Die Prüfung definiert keine einzige Funktion mit @pruefe(…).")
    return outcomes


def _run_one(name: str, function: Callable[[], Any]) -> tuple[CheckOutcome, object | None]:
    """Run one check: its outcome and, if it failed, what caused it (``_cause``)."""
    try:
        function()
    except AssertionError as exc:
        if not str(exc):  # a bare assert says nothing: two of them need not share a cause
            return CheckOutcome(name, False, "Diese Prüfung ist nicht erfüllt."), None
        message = _cut(str(exc))
        return CheckOutcome(name, False, message), ("assert", message)
    except SystemExit:
        return CheckOutcome(name, False, EXIT_IN_CHECK), ("exit",)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the reader's code (or the check) raised
        frames = traceback.extract_tb(exc.__traceback__)
        own = frames[-1].lineno if frames and frames[-1].filename == PRUEFUNG else None
        message = _cut(format_error(exc).strip())
        return CheckOutcome(name, False, message, own), _cause(exc, frames)
    return CheckOutcome(name, True), None


def _cause(exc: BaseException, frames: traceback.StackSummary) -> object:
    """Where an exception came from: its type and the line that raised it. Two checks
    that call the reader's code into the same error share it, whatever the values in
    its message (a random wait time, say)."""
    if not frames:
        return (type(exc).__qualname__, str(exc))
    last = frames[-1]
    if last.filename == PRUEFUNG:  # raised by the check's own line: that line is its own
        return (type(exc).__qualname__, str(exc), last.lineno)
    return (type(exc).__qualname__, last.filename, last.lineno)


def _cut(message: str) -> str:
    if len(message) <= MAX_CHECK_CHARS:
        return message
    return message[:MAX_CHECK_CHARS] + f" … (Meldung gekürzt auf {MAX_CHECK_CHARS} Zeichen)"


class _StrictComparisons(ast.NodeTransformer):
    """``a == b`` -> ``gleich_nachsichtig(a, b)``, ``a != b`` -> ``not gleich(a, b)``,
    likewise ``in``: the positive tests forgive ``ae`` for ``ä`` (with a note), the
    negative ones do not (``'laeuft' != 'läuft'`` stays true).

    Only single comparisons: a chain (``a == b == c``) keeps Python's meaning. The helpers'
    names end in ``__`` so that Python does not mangle them inside a class body.
    """

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        op = node.ops[0]
        helper = {
            ast.Eq: "__lk_gleich_nachsichtig__",
            ast.NotEq: "__lk_gleich__",
            ast.In: "__lk_enthalten_nachsichtig__",
        }
        name = helper.get(type(op), "__lk_enthalten__" if isinstance(op, ast.NotIn) else None)
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


#: The notes of the check that runs now (``run_checks``); None outside a check.
_notes: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "lessonkit_check_notes", default=None
)

_UMLAUTS = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"} | {"Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ẞ": "SS"}
)
#: At most this many parts of two values are rewritten to compare them without umlauts.
_FOLD_BUDGET = 10_000


def _fold(value: Any, budget: list[int]) -> Any:
    """``value`` with ``ä`` written ``ae`` (and so on) in every text of a plain value:
    texts, and lists, tuples, dicts and sets of them. ``OverflowError`` once
    ``budget[0]`` parts are used up."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    kind = type(value)
    if kind is str:
        return value.translate(_UMLAUTS)
    if kind in (list, tuple, set, frozenset):
        return kind(_fold(part, budget) for part in value)
    if kind is dict:
        return {_fold(key, budget): _fold(part, budget) for key, part in value.items()}
    return value


def _same_without_umlauts(a: Any, b: Any) -> bool:
    """True if the plain values ``a`` and ``b`` are equal once ``ä`` is written ``ae``
    (and so on) in both."""
    try:
        return bool(_fold(a, [_FOLD_BUDGET]) == _fold(b, [_FOLD_BUDGET]))
    except (OverflowError, TypeError, RecursionError):  # too big, or unhashable once folded
        return False


def _has_umlaut(value: Any) -> bool:
    return isinstance(value, str) and value != value.translate(_UMLAUTS)


def umlaut_note(written: Any, meant: Any) -> str:
    """The German note that ``written`` (the reader's) counts as ``meant``."""
    return f"„{_text(written)}“ zählt als „{_text(meant)}“: {UMLAUT_RULE}"


#: Why a text written without umlauts still counts.
UMLAUT_RULE = "ae, oe, ue und ss für ä, ö, ü und ß sind in Ordnung."


def _text(value: Any) -> str:
    """A value for a note: a short text as it is, anything else as its (cut) repr."""
    if isinstance(value, str) and len(value) <= MAX_ECHO_CHARS:
        return value
    return _shown(value, MAX_ECHO_CHARS)


def _note(text: str) -> None:
    notes = _notes.get()
    if notes is not None and text not in notes:
        notes.append(text)


def _forgiven(a: Any, b: Any) -> None:
    """Note that ``a`` and ``b`` were taken as equal: the one without umlauts is the
    reader's way of writing the other."""
    written, meant = (b, a) if _has_umlaut(a) or not _has_umlaut(b) else (a, b)
    if isinstance(written, str) and isinstance(meant, str):
        _note(umlaut_note(written, meant))
    else:
        _note(f"Texte ohne Umlaute zählen: {UMLAUT_RULE}")


def gleich_nachsichtig(a: Any, b: Any) -> bool:
    """``a == b`` in a check: ``gleich``; and two plain values that differ only in umlauts
    written ``ae``, ``oe``, ``ue`` or ``ss`` count as equal, with a note for the reader."""
    if gleich(a, b):
        return True
    if _plain(a) and _plain(b) and _same_without_umlauts(a, b):
        _forgiven(a, b)
        return True
    return False


def enthalten_nachsichtig(item: Any, container: Any) -> bool:
    """``item in container`` in a check, forgiving umlauts like ``gleich_nachsichtig``."""
    if enthalten(item, container):
        return True
    if type(item) is str and type(container) is str:
        if item.translate(_UMLAUTS) in container.translate(_UMLAUTS):
            _note(f"„{_text(item)}“ steht darin, mit Umlauten geschrieben: {UMLAUT_RULE}")
            return True
        return False
    if _plain(item) and any(_eq_of(type(container)) is kind for kind in _COLLECTION_EQ):
        for part in itertools.islice(container, _FOLD_BUDGET):
            if _plain(part) and _same_without_umlauts(item, part):
                _forgiven(item, part)
                return True
    return False


def prepare(kernel: Kernel, session: str, vorbereitung: str) -> None:
    """Empty ``session`` and run a task's hidden preparation in it (as ``check_code``
    does before the reader's code), so the reader's code can run there on its own."""
    kernel.sessions.pop(session, None)
    namespace = kernel.namespace(session)
    if vorbereitung.strip():
        exec(compile(vorbereitung, VORBEREITUNG, "exec"), namespace)


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
    # the model under the name its kind's descriptor gives (``log``, ``queue``, …)
    namespace[ARTEN[kind].modell] = console.modell
    checks = run_checks(pruefung, namespace)
    return TaskOutcome(all(check.ok for check in checks), checks)


@dataclass
class PredictionOutcome:
    """How a reader's prediction compares with what the code really returns."""

    valid: bool  # False: the answer is no Python literal (nothing was counted)
    correct: bool = False
    #: What is right or wrong, with the real value: for the author (the build) and once
    #: the reader has solved it.
    message: str = ""
    actual: str = ""  # repr of the real value
    parts: list[bool] = field(default_factory=list)  # per component, for tuples and lists
    #: What is wrong without giving the real value away: for a reader who tries again.
    nudge: str = ""
    #: What was forgiven (``true`` for ``True``, ``ae`` for ``ä``, ``10.0`` for ``10``).
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> PredictionOutcomeData:
        return {
            "valid": self.valid,
            "correct": self.correct,
            "message": self.message,
            "actual": self.actual,
            "parts": list(self.parts),
            "nudge": self.nudge or self.message,
            "notes": list(self.notes),
        }


#: What ``parse_answer`` says to text that is no Python value.
_NO_VALUE = (
    "„{text}“ ist kein Python-Wert. Schreib Zahlen, Zeichenketten in Anführungszeichen, "
    "Tupel in runden Klammern, z. B. (2, 'a', True)."
)
_PARSE_ERRORS = (ValueError, SyntaxError, TypeError, MemoryError, RecursionError)


def read_answer(text: str) -> tuple[Any, list[str]]:
    """The reader's answer as a Python value, and a note for each JavaScript literal
    (``true``, ``false``, ``null``) it was read with; ValueError with a German message
    if it is no value at all."""
    if not text.strip():
        raise ValueError("Trag zuerst eine Antwort ein, zum Beispiel (1, 2, 0).")
    source = text.strip()
    try:
        return ast.literal_eval(source), []
    except _PARSE_ERRORS:
        pass
    try:
        seen: list[str] = []
        tree = _JsLiterals(seen).visit(ast.parse(source, mode="eval"))
        if not seen:
            raise ValueError
        value = ast.literal_eval(tree)
    except _PARSE_ERRORS:
        raise ValueError(_NO_VALUE.format(text=_echo(source))) from None
    return value, [js_literal_note(js) for js in dict.fromkeys(seen)]


class _JsLiterals(ast.NodeTransformer):
    """``true`` -> ``True``, ``false`` -> ``False``, ``null`` -> ``None``; notes each."""

    def __init__(self, seen: list[str]) -> None:
        self.seen = seen

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in JS_LITERALS:
            return node
        self.seen.append(node.id)
        return ast.copy_location(
            ast.Constant({"True": True, "False": False, "None": None}[JS_LITERALS[node.id]]), node
        )


def parse_answer(text: str) -> Any:
    """The reader's answer as a Python value; ValueError with a German message if it is none."""
    return read_answer(text)[0]


def _echo(text: str) -> str:
    """The reader's own text, repeated in a message, at most ``MAX_ECHO_CHARS`` long."""
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS] + " …"


def _shown(value: Any, limit: int = MAX_SHOWN_CHARS) -> str:
    """``repr(value)`` for a message, cut (without building all of it) when long."""
    text, cut = bounded_repr(value, limit)
    return text + " …" if cut else text


def _ordinal(index: int) -> str:
    return f"der {ORDINALS[index]} Wert" if index < len(ORDINALS) else f"der {index + 1}. Wert"


def _ordinal_word(index: int) -> str:
    return f"der {ORDINALS[index]}" if index < len(ORDINALS) else f"der {index + 1}."


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def _match(answer: Any, actual: Any, notes: list[str]) -> bool:
    """The reader's ``answer`` is ``actual``: exactly, or forgiven with a note (``10.0``
    for ``10``, ``ae`` for ``ä``, a list for a tuple and the reverse, part by part)."""
    if type(answer) is type(actual) and gleich(answer, actual):
        return True
    if _number(answer) and _number(actual):
        if answer != actual:
            return False
        written, meant = _shown(answer, MAX_ECHO_CHARS), _shown(actual, MAX_ECHO_CHARS)
        _add(notes, f"`{written}` zählt als `{meant}`: Der Code liefert {_KINDS[type(actual)][0]}.")
        return True
    if type(answer) is str and type(actual) is str:
        if _same_without_umlauts(answer, actual):
            _add(notes, umlaut_note(answer, actual))
            return True
        return False
    if type(answer) in (list, tuple) and type(actual) in (list, tuple):
        if len(answer) != len(actual):
            return False
        found: list[str] = []
        if not all(_match(a, b, found) for a, b in zip(answer, actual, strict=True)):
            return False
        if type(answer) is not type(actual):
            found.insert(0, _kind_note(answer, actual))
        for note in found:
            _add(notes, note)
        return True
    if type(answer) is dict and type(actual) is dict and _plain(answer) and _plain(actual):
        if _same_without_umlauts(answer, actual):
            _add(notes, f"Texte ohne Umlaute zählen: {UMLAUT_RULE}")
            return True
    if type(answer) in (set, frozenset) and type(answer) is type(actual):
        if _plain(answer) and _plain(actual) and _same_without_umlauts(answer, actual):
            _add(notes, f"Texte ohne Umlaute zählen: {UMLAUT_RULE}")
            return True
    return False


def _add(notes: list[str], note: str) -> None:
    if note not in notes:
        notes.append(note)


#: What kind of value, for a nudge that does not give the value away: as the code
#: delivers it („liefert einen Text“) and as the answer is it („ist ein Text“).
_KINDS: dict[type, tuple[str, str]] = {
    int: ("eine ganze Zahl", "eine ganze Zahl"),
    float: ("eine Kommazahl", "eine Kommazahl"),
    bool: ("einen Wahrheitswert (True oder False)", "ein Wahrheitswert"),
    str: ("einen Text", "ein Text"),
    tuple: ("ein Tupel", "ein Tupel"),
    list: ("eine Liste", "eine Liste"),
    dict: ("ein Dict", "ein Dict"),
    set: ("eine Menge", "eine Menge"),
    frozenset: ("eine Menge", "eine Menge"),
    type(None): ("None", "None"),
}


def _kind(value: Any) -> tuple[str, str] | None:
    return _KINDS.get(type(value))


def _kind_note(answer: Any, actual: Any) -> str:
    """A list answered for a tuple (or the reverse): it counts, and the reader hears."""
    return (
        f"Der Code liefert {_KINDS[type(actual)][0]}, deine Antwort ist "
        f"{_KINDS[type(answer)][1]}; das zählt hier auch."
    )


def _wrong_places(wrong: list[int], total: int) -> str:
    """„Der zweite von 3 Werten stimmt nicht.“ and the like: where, not what."""
    if len(wrong) == total:
        return f"Keiner der {total} Werte stimmt." if total > 1 else "Der Wert stimmt nicht."
    if len(wrong) > 3:
        return f"{len(wrong)} von {total} Werten stimmen nicht."
    places = [_ordinal_word(i) for i in wrong]
    named = places[0] if len(places) == 1 else ", ".join(places[:-1]) + " und " + places[-1]
    verb = "stimmt" if len(wrong) == 1 else "stimmen"
    return f"{named[0].upper()}{named[1:]} von {total} Werten {verb} nicht."


def compare_prediction(actual: Any, answer_text: str) -> PredictionOutcome:
    """Compare the real value with the reader's answer, per component where it has parts."""
    try:
        answer, notes = read_answer(answer_text)
    except ValueError as exc:
        return PredictionOutcome(valid=False, message=str(exc))
    shown = _shown(actual)
    right = f"Richtig: der Code liefert {shown}."
    sequences = isinstance(actual, (tuple, list)) and isinstance(answer, (tuple, list))
    if not sequences:
        if _match(answer, actual, notes):
            return PredictionOutcome(True, True, right, shown, nudge=right, notes=notes)
        answer_kind, actual_kind = _kind(answer), _kind(actual)
        if (
            answer_kind
            and actual_kind
            and answer_kind != actual_kind
            and not (_number(answer) and _number(actual))
        ):
            nudge = f"Der Code liefert {actual_kind[0]}, deine Antwort ist {answer_kind[1]}."
        else:
            nudge = "Der Code liefert einen anderen Wert."
        message = f"Nicht ganz: der Code liefert {shown}."
        return PredictionOutcome(True, False, message, shown, nudge=nudge, notes=notes)
    if len(answer) != len(actual):
        message = (
            f"Der Code liefert {anzahl(len(actual), 'Wert', 'Werte')}, deine Antwort hat "
            f"{len(answer)}."
        )
        return PredictionOutcome(True, False, message, shown, nudge=message, notes=notes)
    parts = [_match(a, b, notes) for a, b in zip(answer, actual, strict=True)]
    wrong = [i for i, ok in enumerate(parts) if not ok]
    if not wrong:
        if type(answer) is not type(actual):
            notes.insert(0, _kind_note(answer, actual))
        return PredictionOutcome(True, True, right, shown, parts, nudge=right, notes=notes)
    details = "; ".join(
        f"{_ordinal(i)} ist {_shown(actual[i], MAX_ECHO_CHARS)}, "
        f"nicht {_shown(answer[i], MAX_ECHO_CHARS)}"
        for i in wrong
    )
    message = _cut(f"{parts.count(True)} von {len(parts)} richtig: {details}.")
    nudge = _wrong_places(wrong, len(parts))
    return PredictionOutcome(True, False, message, shown, parts, nudge=nudge, notes=notes)


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
