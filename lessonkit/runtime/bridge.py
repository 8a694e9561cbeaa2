"""The page's way into the worker's Python.

The worker owns one ``Kernel`` (the namespaces of the page's cells) and the
page's consoles; it runs cells through ``kernel`` and everything else through
``call(name, args_json)``, which returns JSON text. Only the names in
``CALLS`` exist, so the page cannot ask Python for anything else.

Background tasks (``asyncio.create_task``) belong to the cell that started them:
their output goes to that cell (``lessonkit.runtime.kernel.cell_streams``), also while no
cell runs, and a new page ends them all.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TextIO

from lessonkit.runtime import challenges, workbench
from lessonkit.runtime.checks import check_code, check_console, predict, prepare
from lessonkit.runtime.consoles import ConsoleSessions
from lessonkit.runtime.integrity import JudgingRecord
from lessonkit.runtime.kernel import Kernel, TextStream, cell_streams
from pysim.cluster.ts_knoten import Gegenstelle, PyodideGegenstelle
from pysim.fehler import SimFehler

if TYPE_CHECKING:  # the browser's Python needs no types at run time
    from lessonkit.build.contract import (
        ChallengeSpec,
        ConsoleLineArgs,
        ConsoleResultData,
        PredictionOutcomeData,
        SeedOutcomeData,
        TaskOutcomeData,
        TsDiagnostic,
        WorkbenchOutcomeData,
    )


class _TaskStream(TextStream):
    """``sys.stdout``/``sys.stderr`` between runs: a background task's output goes to
    the cell that started it; anything else to the worker's own stream."""

    def __init__(self, name: str, base: TextIO) -> None:
        self.name = name
        self.base = base

    def write(self, text: str) -> int:
        owner = cell_streams.get()
        if owner is not None:
            return owner[self.name].write(text)
        return self.base.write(text)

    def flush(self) -> None:
        self.base.flush()


class PageKernel(Kernel):
    """The page's kernel: routes background tasks' output between runs."""

    def before_run(self) -> None:
        judging.take()  # before the reader's first code
        if not isinstance(sys.stdout, _TaskStream):
            sys.stdout = _TaskStream("stdout", sys.stdout)
        if not isinstance(sys.stderr, _TaskStream):
            sys.stderr = _TaskStream("stderr", sys.stderr)


def cancel_tasks() -> int:
    """End every asyncio task the page's cells started (all but the caller's); how many."""
    try:
        current = asyncio.current_task()
        tasks = asyncio.all_tasks()
    except RuntimeError:  # no running event loop: nothing can be pending
        return 0
    pending = [task for task in tasks if task is not current and not task.done()]
    for task in pending:
        task.cancel()
    return len(pending)


#: The judging modules as they were before the reader's first code (``lessonkit.runtime.integrity``).
judging = JudgingRecord()
kernel = PageKernel()
consoles = ConsoleSessions()


def _console_run(
    key: str, kind: str, options: dict[str, str], setup: list[str], line: str
) -> ConsoleResultData:
    result = consoles.run(key, kind, options, setup, line)
    return {
        "ok": result.ok,
        "text": result.text,
        "svg": result.svg,
        "clear": result.clear,
        "command": result.command,
    }


def _console_complete(
    key: str, kind: str, options: dict[str, str], setup: list[str], line: str
) -> list[str]:
    return consoles.complete(key, kind, options, setup, line)


def _console_reset(key: str) -> None:
    consoles.reset(key)


def _console_replay(commands: list[ConsoleLineArgs]) -> int:
    """After a restart: run the reader's console commands again, in their order.

    The simulations are deterministic, so each console reaches the state its
    transcript shows. Each entry has the arguments of ``console.run``.
    """
    for command in commands:
        _console_run(**command)
    return len(commands)


def _page_reset() -> None:
    """A new page: fresh namespaces and consoles, and no task of the old page runs on."""
    cancel_tasks()
    kernel.reset()
    consoles.reset_all()


async def _predict(code: str, answer: str, session: str | None, id: str) -> PredictionOutcomeData:
    # Without a session the prediction runs in a fresh namespace of its own, every time.
    name = session or f"vorhersage:{id}"
    if session is None:
        kernel.sessions.pop(name, None)
    return await predict(code, answer, kernel, name)


async def _check_code(vorbereitung: str, code: str, pruefung: str) -> TaskOutcomeData:
    return (await check_code(vorbereitung, code, pruefung)).to_dict()


def _prepare(session: str, vorbereitung: str) -> None:
    """``Ausführen`` of a code task: a fresh ``session`` with the task's hidden
    preparation run in it; the reader's code runs there next, like a cell."""
    prepare(kernel, session, vorbereitung)


def _check_console(
    key: str, kind: str, options: dict[str, str], setup: list[str], pruefung: str
) -> TaskOutcomeData:
    console, _ = consoles.get(key, kind, options, setup)
    return check_console(console, kind, pruefung).to_dict()


async def _challenge_seed(
    code: str,
    vorgabe: ChallengeSpec,
    seed: int,
    pruefung: str,
    urteilen: bool,
    sprache: Literal["python", "typescript"] = "python",
) -> SeedOutcomeData:
    """One seed of a challenge: ``Prüfen`` calls it once per seed (progress per seed)."""
    klasse, error = await challenges.load_node(code, sprache, _ts_gegenstelle(sprache))
    if klasse is None:
        return challenges.failed_to_load(error or "", seed)
    return challenges.seed_outcome(
        klasse, challenges.Vorgabe.aus_dict(vorgabe), seed, pruefung, urteilen
    )


async def _challenge_replay(
    code: str,
    vorgabe: ChallengeSpec,
    kennung: str,
    pruefung: str,
    sprache: Literal["python", "typescript"] = "python",
) -> SeedOutcomeData:
    """The run a reader pasted (its identity), judged again."""
    klasse, error = await challenges.load_node(code, sprache, _ts_gegenstelle(sprache))
    if klasse is None:
        return challenges.failed_to_load(error or "")
    try:
        return challenges.replay(klasse, challenges.Vorgabe.aus_dict(vorgabe), kennung, pruefung)
    except SimFehler as e:
        return challenges.failed_to_load(str(e))


_ts: Gegenstelle | None = None


def _ts_gegenstelle(sprache: str) -> Gegenstelle | None:
    """For TypeScript: the runtime the worker registered as the JavaScript module
    ``lessonkit_tsnode`` before this call (worker/python-worker.ts ``tsNode``)."""
    global _ts
    if sprache != "typescript":
        return None
    if _ts is None:
        from lessonkit_tsnode import handle  # type: ignore[import-not-found]

        _ts = PyodideGegenstelle(handle)
    return _ts


def _typescript_check(code: str) -> list[TsDiagnostic]:
    """The reader's TypeScript node checked (strict, against the runtime's declarations),
    each error in German with its line: the page shows them before a run."""
    gegenstelle = _ts_gegenstelle("typescript")
    assert gegenstelle is not None
    antwort = gegenstelle.rufe({"op": "check", "code": code})
    if "fault" in antwort:
        raise RuntimeError(str(antwort["fault"]))
    diagnosen: list[TsDiagnostic] = antwort["diagnostics"]
    return diagnosen


def _challenge_check_id(vorgabe: ChallengeSpec, kennung: str) -> str | None:
    """What is wrong with an identity the reader pasted (German), or None: the page asks
    before ``Lauf wiederholen`` clears anything, so a wrong identity changes nothing."""
    return challenges.kennung_fehler(challenges.Vorgabe.aus_dict(vorgabe), kennung)


async def _workbench_seed(
    code: str, optionen: dict[str, str], pruefen: bool
) -> WorkbenchOutcomeData:
    """One seed on the workbench: the form's choices read in Python (every bad one named in
    German, then nothing runs), the reader's node run and judged (``lessonkit.runtime.workbench``)."""
    return await workbench.seed(code, optionen, pruefen)


#: The calls the page can make; their arguments and results are declared in
#: ``lessonkit.build.contract.CALLS`` (tests/lessonkit/test_contract.py compares).
CALLS: dict[str, Callable[..., Any]] = {
    "console.run": _console_run,
    "console.complete": _console_complete,
    "console.reset": _console_reset,
    "console.replay": _console_replay,
    "page.reset": _page_reset,
    "exercise.predict": _predict,
    "exercise.check_code": _check_code,
    "exercise.check_console": _check_console,
    "exercise.prepare": _prepare,
    "challenge.seed": _challenge_seed,
    "challenge.replay": _challenge_replay,
    "challenge.check_id": _challenge_check_id,
    "typescript.check": _typescript_check,
    "workbench.seed": _workbench_seed,
}


#: The calls that give a verdict: each one refuses to give it from changed judging modules
#: (``lessonkit.runtime.integrity``), before it starts and again before it answers (a challenge's node
#: is the reader's code and runs in between).
JUDGING_CALLS = frozenset(
    {
        "exercise.predict",
        "exercise.check_code",
        "exercise.check_console",
        "challenge.seed",
        "challenge.replay",
        "workbench.seed",
    }
)


async def call(name: str, args_json: str) -> str:
    """Run the call ``name`` with keyword arguments from ``args_json``; JSON result."""
    judging.take()  # before the reader's first code
    handler = CALLS.get(name)
    if handler is None:
        raise ValueError(f"Unbekannter Aufruf „{name}“")
    verdict = name in JUDGING_CALLS
    if verdict:
        judging.ensure()
    result = handler(**json.loads(args_json))
    if inspect.isawaitable(result):
        result = await result
    if verdict:
        judging.ensure()
    return json.dumps(result, ensure_ascii=False)
