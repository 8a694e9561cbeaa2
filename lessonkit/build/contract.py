"""The contract between Python and the page script: every shape that crosses, once.

What crosses from Python to the browser is declared here as ``TypedDict``s: a
cell's result, a console's answer, the outcomes of exercise checks, the data
each block carries in its page (``data-lk-json``), and the bridge's calls
(``lessonkit.runtime.bridge.CALLS``: name, arguments, result). The Python side builds
these dicts with these types (mypy checks each literal); the TypeScript side
imports ``frontend/src/generated/contract.ts``, which this module writes::

    python -m lessonkit.build.contract > frontend/src/generated/contract.ts

``tests/lessonkit/test_contract.py`` fails when the committed file differs from
what this module writes, and when ``CALLS`` or a Python class drifts from it.
Only typing at run time: the browser's Python never imports this module.
"""

from __future__ import annotations

import inspect
import sys
import types
import typing
from typing import Any, Literal, NotRequired, TypedDict, Union

# --- results -------------------------------------------------------------------------------


class CellResultData(TypedDict):
    """A cell's run (``lessonkit.runtime.kernel.CellResult.to_dict``)."""

    #: Output in the order written: [stream, text], stream "stdout" or "stderr".
    output: list[tuple[str, str]]
    value: str | None
    svg: str | None
    error: str | None
    error_type: str | None
    truncated: bool


class ConsoleResultData(TypedDict):
    """A console command's answer (``pysim.console.ConsoleResult``)."""

    ok: bool
    text: str
    svg: str | None
    clear: bool
    command: str


class CheckOutcomeData(TypedDict):
    """One check of a task (``lessonkit.runtime.checks.CheckOutcome``)."""

    name: str
    ok: bool
    message: str
    #: Line in ``--- pruefung`` where the check itself raised; null otherwise.
    check_line: int | None
    #: What the check forgave the reader (``ae`` for ``ä``), in German; passed or not.
    notes: list[str]


class TaskOutcomeData(TypedDict):
    """A code or console task checked (``lessonkit.runtime.checks.TaskOutcome``)."""

    ok: bool
    checks: list[CheckOutcomeData]
    error: str | None
    output: str


class PredictionOutcomeData(TypedDict):
    """A prediction compared (``lessonkit.runtime.checks.PredictionOutcome``), with the run."""

    valid: bool
    correct: bool
    #: What is right or wrong, with the real value (for the author, and once solved).
    message: str
    actual: str
    parts: list[bool]
    #: What is wrong without giving the real value away (for a reader trying again).
    nudge: str
    #: What was forgiven (``true`` for ``True``, ``ae`` for ``ä``, ``10.0`` for ``10``).
    notes: list[str]
    #: The run of the prediction's code (missing when the answer was no Python value).
    result: NotRequired[CellResultData]


# --- the data a block carries in its page ---------------------------------------------------


class CellData(TypedDict):
    """A ``pycell`` (``lessonkit.fences.cell``)."""

    code: str
    session: str
    label: str
    hidden: bool
    raises: str | None
    #: A hidden check of the prose: its failure never stops the next cell.
    check: bool


class ConsoleData(TypedDict):
    """A console (``lessonkit.fences.console``): what ``console.run`` needs besides the line."""

    key: str
    kind: str
    options: dict[str, str]
    #: Every setup line of the console's state (its session), in page order.
    setup: list[str]
    #: Where this console's own lines start in ``setup``. The page script needs none of it (it
    #: replays the whole session); tests/test_pyodide_parity.py does, to find a console's own
    #: answers after a hidden console of the same session, whose lines the page does not show.
    offset: int
    label: str


class ExerciseBase(TypedDict):
    """What every exercise carries (``lessonkit.fences.exercises``)."""

    id: str
    digest: str
    #: The digest as builds before 2026-12 made it (with the fence's line): progress
    #: stored under it still counts.
    digest_before: str
    label: str


class PredictionData(ExerciseBase):
    type: Literal["vorhersage"]
    code: str
    session: str | None
    platzhalter: str
    #: After this many wrong answers the solution shows by itself; null: only on request.
    versuche: int | None


class CodeTaskData(ExerciseBase):
    type: Literal["aufgabe"]
    vorbereitung: str
    start: str
    pruefung: str
    loesung: str


class ConsoleTaskData(ExerciseBase):
    type: Literal["konsolen-aufgabe"]
    kind: str
    options: dict[str, str]
    setup: list[str]
    pruefung: str
    loesung: list[str]


class QuizData(ExerciseBase):
    type: Literal["quiz"]
    #: Indices of the right answers.
    richtig: list[int]
    #: After this many wrong answers the solution shows by itself; null: only on request.
    versuche: int | None


class ChallengeSpec(TypedDict):
    """What a challenge runs (``lessonkit.runtime.challenges.Vorgabe``): workload, cluster, faults."""

    last: str
    knoten: int
    dauer: int
    #: Kinds of fault windows drawn from each seed (``pysim.cluster.FENSTER``); none: no faults.
    stoerungen: list[str]
    anzahl_stoerungen: int
    seeds: int
    verlust: float
    timeout: int
    max_nachrichten: float | None
    #: ``broadcast``: the most ticks until every node read a value, [median, maximum].
    max_ausbreitung: list[int] | None
    last_optionen: dict[str, str]


class ChallengeData(ExerciseBase):
    type: Literal["herausforderung"]
    start: str
    pruefung: str
    loesung: str
    #: The same node in TypeScript (``--- start-ts``/``--- loesung-ts``), null without them.
    start_ts: str | None
    loesung_ts: str | None
    vorgabe: ChallengeSpec


ExerciseData = PredictionData | CodeTaskData | ConsoleTaskData | QuizData | ChallengeData


class WorkloadChoice(TypedDict):
    """A workload on the workbench (``lessonkit.fences.workbench.ANGEBOT``)."""

    name: str
    #: What its checker checks, one German sentence.
    prueft: str
    #: Its challenge page, relative to the workbench's page.
    seite: str
    #: The page's Markdown file relative to the workbench's (``echo.md``): the link of the
    #: HTML without JavaScript, converted as every author's link is (``lessonkit.build.links``).
    datei: str
    titel: str
    #: The node the form starts with for it.
    start: str


class FaultChoice(TypedDict):
    """A kind of fault on the workbench (``pysim.cluster.FENSTER``)."""

    name: str
    text: str
    gezielt: bool


class WorkbenchLimits(TypedDict):
    """The workbench's limits (``lessonkit.runtime.workbench``): the form offers them, Python enforces them."""

    max_knoten: int
    min_dauer: int
    max_dauer: int
    max_fenster: int
    max_seed: int
    max_seeds: int


class WorkbenchData(TypedDict):
    """A ``werkbank`` block (``lessonkit.fences.workbench``)."""

    lasten: list[WorkloadChoice]
    stoerungen: list[FaultChoice]
    grenzen: WorkbenchLimits
    #: The form's fields and their German labels, in order (``lessonkit.runtime.workbench.FELDER``).
    felder: dict[str, str]
    #: The form's first choices, each as the text the form sends.
    voreinstellung: dict[str, str]


class ProgressEntry(TypedDict):
    """A lesson in a ``fortschritt`` overview: its address and its exercises' ids."""

    path: str
    ids: list[str]
    #: Pages its exercises stood on before (its ``umgezogen`` block): progress there counts.
    earlier: list[str]


# --- the bridge's calls ---------------------------------------------------------------------


class ConsoleArgs(TypedDict):
    """Which console: its key on the page and how to build it (``lessonkit.runtime.consoles``)."""

    key: str
    kind: str
    options: dict[str, str]
    setup: list[str]


class ConsoleLineArgs(ConsoleArgs):
    line: str


class ConsoleResetArgs(TypedDict):
    key: str


class ConsoleReplayArgs(TypedDict):
    #: The reader's commands on the page, in order: each the arguments of ``console.run``.
    commands: list[ConsoleLineArgs]


class NoArgs(TypedDict):
    pass


class PredictArgs(TypedDict):
    code: str
    answer: str
    session: str | None
    id: str


class CheckCodeArgs(TypedDict):
    vorbereitung: str
    code: str
    pruefung: str


class CheckConsoleArgs(ConsoleArgs):
    pruefung: str


class PrepareArgs(TypedDict):
    #: The session the reader's code then runs in (``Ausführen`` of a code task).
    session: str
    vorbereitung: str


#: The language of a challenge's node: the reader picks it on the page.
Sprache = Literal["python", "typescript"]


class SeedArgs(TypedDict):
    code: str
    sprache: Sprache
    vorgabe: ChallengeSpec
    seed: int
    pruefung: str
    #: False: ``Ausführen`` (the run and its picture, no verdict).
    urteilen: bool


class ReplayArgs(TypedDict):
    code: str
    sprache: Sprache
    vorgabe: ChallengeSpec
    kennung: str
    pruefung: str


class TsCheckArgs(TypedDict):
    """A TypeScript node checked for type errors (strict) before it runs."""

    code: str


class TsProblem(TypedDict):
    """One type error of a TypeScript node, said in German, at its line (from 1)."""

    line: int
    column: int
    message: str


class CheckIdArgs(TypedDict):
    """An identity the reader pasted, checked before ``Lauf wiederholen`` changes anything."""

    vorgabe: ChallengeSpec
    kennung: str


class SeedFigures(TypedDict):
    nachrichten: int
    #: Lost in the network, at a partition or at a crashed receiver.
    verloren: int
    #: Still on the way when the run ended (a run stopped at the event limit leaves many).
    unterwegs: int
    je_operation: float
    ok_anteil: float
    latenz_p50: int | None
    latenz_p99: int | None
    latenz_max: int | None
    #: ``broadcast``: ticks from a value's broadcast until every node had read it (median,
    #: maximum over the values every node read); None for other workloads.
    ausbreitung_median: int | None
    ausbreitung_max: int | None


class RunLogLine(TypedDict):
    """A line of a run's log (``pysim.cluster.protokoll.Zeile``): what a node noted or printed."""

    zeit: int
    knoten: str
    #: "notiz" (``self.notiz``), "ausgabe" (``print``), "ausgelassen" (what the cap left out).
    art: Literal["notiz", "ausgabe", "ausgelassen"]
    text: str


class RunMessage(TypedDict):
    """A message of a run, as its picture draws it (``pysim.cluster.cluster.Sendung``)."""

    gesendet: int
    #: The tick it arrived (or was dropped there); None: lost on the wire.
    ankunft: int | None
    von: str
    an: str
    #: What became of it, in German ("angekommen", "verloren im Netz", …).
    schicksal: str
    #: The body as short JSON, cut with "…" (``pysim.cluster.protokoll.inhalt_text``).
    inhalt: str


class SeedOutcomeData(TypedDict):
    """One seed of a challenge (``lessonkit.runtime.challenges``); ``error``: the reader's code failed
    before anything ran (then nothing else is set)."""

    error: str | None
    seed: int
    #: True passed, False failed (the shrunk run), None: only run, not judged.
    ok: bool | None
    urteil: list[str]
    kennung: str
    operationen: int
    #: Operations of the first failing run before shrinking (None when nothing was shrunk).
    operationen_vorher: int | None
    kennzahlen: SeedFigures
    svg: str
    #: What the nodes of the run shown noted and printed (empty when no run is shown).
    protokoll: list[RunLogLine]
    #: The messages of the run shown, as many as its picture draws (empty when none is shown).
    nachrichten: list[RunMessage]
    #: Messages between the nodes and clients of the run that ``nachrichten`` leaves out.
    nachrichten_weggelassen: int


class WorkbenchArgs(TypedDict):
    code: str
    #: The form's choices, each as text (``lessonkit.runtime.workbench.FELDER``); Python reads them.
    optionen: dict[str, str]
    #: True: one seed of Prüfen (1 to ``seeds``, a failing one shrunk); False: Ausführen.
    pruefen: bool


class WorkbenchProblem(TypedDict):
    """A choice the workbench does not run: the form's field (empty: the choices together)."""

    feld: str
    text: str


class WorkbenchOutcomeData(TypedDict):
    """A seed on the workbench (``lessonkit.runtime.workbench.seed``)."""

    #: Every bad choice, in German; when there is one, nothing ran.
    fehler: list[WorkbenchProblem]
    #: The choices in words (empty when they are bad).
    beschreibung: str
    #: The seed's outcome, as a challenge's (None when the choices are bad).
    ergebnis: SeedOutcomeData | None


#: Every call the page can make into ``lessonkit.runtime.bridge``: name -> (arguments, result).
CALLS: dict[str, tuple[type, Any]] = {
    "console.run": (ConsoleLineArgs, ConsoleResultData),
    "console.complete": (ConsoleLineArgs, list[str]),
    "console.reset": (ConsoleResetArgs, None),
    "console.replay": (ConsoleReplayArgs, int),
    "page.reset": (NoArgs, None),
    "exercise.predict": (PredictArgs, PredictionOutcomeData),
    "exercise.check_code": (CheckCodeArgs, TaskOutcomeData),
    "exercise.check_console": (CheckConsoleArgs, TaskOutcomeData),
    "exercise.prepare": (PrepareArgs, None),
    "challenge.seed": (SeedArgs, SeedOutcomeData),
    "challenge.replay": (ReplayArgs, SeedOutcomeData),
    "challenge.check_id": (CheckIdArgs, str | None),
    "challenge.ts_check": (TsCheckArgs, list[TsProblem]),
    "workbench.seed": (WorkbenchArgs, WorkbenchOutcomeData),
}

#: Shapes written to TypeScript, in this order (aliases after the interfaces they name).
SHAPES: list[type] = [
    CellResultData,
    ConsoleResultData,
    CheckOutcomeData,
    TaskOutcomeData,
    PredictionOutcomeData,
    CellData,
    ConsoleData,
    ExerciseBase,
    PredictionData,
    CodeTaskData,
    ConsoleTaskData,
    QuizData,
    ChallengeSpec,
    ChallengeData,
    WorkloadChoice,
    FaultChoice,
    WorkbenchLimits,
    WorkbenchData,
    ProgressEntry,
    ConsoleArgs,
    ConsoleLineArgs,
    ConsoleResetArgs,
    ConsoleReplayArgs,
    NoArgs,
    PredictArgs,
    CheckCodeArgs,
    CheckConsoleArgs,
    SeedArgs,
    ReplayArgs,
    TsCheckArgs,
    TsProblem,
    CheckIdArgs,
    SeedFigures,
    RunLogLine,
    RunMessage,
    SeedOutcomeData,
    PrepareArgs,
    WorkbenchArgs,
    WorkbenchProblem,
    WorkbenchOutcomeData,
]
ALIASES: dict[str, Any] = {"ExerciseData": ExerciseData}


# --- the TypeScript writer ------------------------------------------------------------------


def ts_type(hint: Any) -> str:
    """A Python type hint as TypeScript."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is None or hint is type(None):
        return "null"
    if hint is str:
        return "string"
    if hint is bool:
        return "boolean"
    if hint in (int, float):
        return "number"
    if isinstance(hint, type) and typing.is_typeddict(hint):
        return hint.__name__
    if origin is list:
        inner = ts_type(args[0])
        return f"Array<{inner}>" if " " in inner else f"{inner}[]"
    if origin is tuple:
        return "[" + ", ".join(ts_type(arg) for arg in args) + "]"
    if origin is dict and args[0] is str:
        return f"Record<string, {ts_type(args[1])}>"
    if origin in (Union, types.UnionType):
        named = [name for name, alias in ALIASES.items() if alias == hint]
        if named:
            return named[0]
        return " | ".join(ts_type(arg) for arg in args)
    if origin is Literal:
        return " | ".join(f'"{arg}"' for arg in args)
    raise TypeError(f"no TypeScript for {hint!r}")


def _comments(shape: type) -> dict[str, str]:
    """The ``#:`` comments above each field in this module's source."""
    comments: dict[str, str] = {}
    pending: list[str] = []
    for line in inspect.getsource(shape).splitlines():
        stripped = line.strip()
        if stripped.startswith("#:"):
            pending.append(stripped[2:].strip())
        elif ":" in stripped and not stripped.startswith(("class ", '"')):
            comments[stripped.split(":", 1)[0]] = " ".join(pending)
            pending = []
        else:
            pending = []
    return comments


def _doc(text: str) -> str:
    return text.strip().replace("``", "`")


def interface(shape: type) -> str:
    """One TypedDict as a TypeScript interface (inherited fields written out)."""
    hints = typing.get_type_hints(shape, include_extras=True)
    comments = _comments(shape)
    lines = []
    if shape.__doc__:
        lines.append(f"/** {_doc(shape.__doc__)} */")
    if not hints:
        return "\n".join([*lines, f"export type {shape.__name__} = Record<string, never>;"])
    lines.append(f"export interface {shape.__name__} {{")
    for name, hint in hints.items():
        optional = typing.get_origin(hint) is NotRequired
        if optional:
            hint = typing.get_args(hint)[0]
        if comments.get(name):
            lines.append(f"  /** {_doc(comments[name])} */")
        lines.append(f"  {name}{'?' if optional else ''}: {ts_type(hint)};")
    lines.append("}")
    return "\n".join(lines)


def typescript() -> str:
    """The whole of ``frontend/src/generated/contract.ts``."""
    parts = [
        "// Generated by `python -m lessonkit.build.contract` from lessonkit/build/contract.py. Do not edit:",
        "// change the Python declarations and run it again (tests/lessonkit/test_contract.py).",
        "",
    ]
    for shape in SHAPES:
        parts.extend([interface(shape), ""])
    for name, alias in ALIASES.items():
        union = " | ".join(ts_type(arg) for arg in typing.get_args(alias))
        parts.extend([f"export type {name} = {union};", ""])
    parts.append(
        "/** The bridge's calls (`lessonkit.runtime.bridge.CALLS`): arguments and result. */"
    )
    parts.append("export interface Calls {")
    for name, (args, result) in CALLS.items():
        parts.append(f'  "{name}": {{ args: {ts_type(args)}; result: {ts_type(result)} }};')
    parts.extend(["}", "", "export type CallName = keyof Calls;", ""])
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(typescript())
