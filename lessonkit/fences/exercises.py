"""Exercises: predictions, code tasks, console tasks and quizzes.

Each exercise is a fence whose body is split into sections by lines
``--- name`` (see docs/autoren.md). This module turns a fence into an
exercise block (``make_*``), proves at build time that it is sound
(``verify``: the stated answer is what the code returns, the solution passes,
the starting point fails, every wrong attempt the author lists (``--- fehlversuch``)
fails, a quiz has a right answer) and writes its HTML (``render``), which the browser
(frontend/src/components/exercise) mounts on. Wrong attempts never reach the page.
"""

from __future__ import annotations

import hashlib
import random
import re
import traceback
from dataclasses import dataclass, field
from html import escape
from typing import Any

import markdown

from lessonkit.build import links, tsnode
from lessonkit.build.blocks import Block
from lessonkit.build.contract import (
    ChallengeData,
    CodeTaskData,
    ConsoleTaskData,
    ExerciseData,
    PredictionData,
    QuizData,
    SeedOutcomeData,
)
from lessonkit.build.pagedata import data_element
from lessonkit.build.render import highlight_python, highlight_typescript
from lessonkit.fences.console import build_options
from lessonkit.fences.kind import FenceError
from lessonkit.fences.options import LINE_OPTION
from lessonkit.runtime import challenges
from lessonkit.runtime.challenges import Vorgabe
from lessonkit.runtime.checks import (
    PRUEFUNG,
    VORBEREITUNG,
    TaskOutcome,
    check_code,
    check_console,
    compare_prediction,
    evaluate,
    run_checks,
)
from lessonkit.runtime.consoles import ARTEN, ConsoleSessions, strip_expectation
from lessonkit.runtime.kernel import Kernel
from pysim.cluster import Knoten
from pysim.fehler import SimFehler

_SECTION = re.compile(r"^--- ?([a-zäöü]+(?:-ts)?)\s*$")
#: A wrong attempt may name the checks it must fail: ``--- fehlversuch „Name“``.
_WRONG_NAMED = re.compile(r"^--- ?(fehlversuch(?:-ts)?)\s+(\S.*?)\s*$")
_CHECK_NAME = re.compile(r'„([^“”]*)[“”]|"([^"]*)"')
#: Sections that may stand any number of times.
REPEATABLE = ("hinweis", "fehlversuch", "fehlversuch-ts")
#: A challenge's TypeScript sections (``start-ts``, ``loesung-ts``, ``fehlversuch-ts``): left out
#: of the digest like wrong attempts, so adding a TypeScript rendering keeps Python drafts.
TS_SECTIONS = ("start-ts", "loesung-ts", "fehlversuch-ts")


def _section_line(line: str) -> tuple[str, str] | None:
    """(name, what follows the name) of a ``--- name`` line, or None for a text line."""
    match = _SECTION.match(line) or _WRONG_NAMED.match(line)
    if match is None:
        return None
    return match[1], (match[2] if match.re is _WRONG_NAMED else "")


@dataclass
class WrongAttempt:
    """A typical wrong answer the author lists (``--- fehlversuch``): the build proves it
    fails. Never shown, never in the page data."""

    text: str
    #: Row (0-based, in the fence's body) of its ``--- fehlversuch`` line.
    row: int
    #: The checks (their ``@pruefe`` names) it must fail; empty: it must fail any.
    names: list[str] = field(default_factory=list)


@dataclass
class Exercise(Block):
    """What every exercise has: an id on its page and a hash of its content."""

    id: str = ""
    digest: str = ""  # changes when the author changes the exercise (stale drafts)
    digest_before: str = ""  # the digest before 2026-12, which hashed the fence's line too
    type: str = ""
    label_prefix: str = "Übung"
    #: Row (0-based, in the fence's body) of each section's ``--- name`` line.
    rows: dict[str, int] = field(default_factory=dict)
    #: The fence's body, to name the line of a command or of a check's code.
    src: str = ""
    #: Typical wrong answers (``--- fehlversuch``) that ``verify`` proves to fail.
    fehlversuche: list[WrongAttempt] = field(default_factory=list)

    def row_of(self, section: str, offset: int = 0, head: int | None = None) -> int | None:
        """Row of line ``offset`` (0-based) of ``section``'s text, or None without it.

        ``head``: the row of this section's ``--- name`` line, for a section that stands
        more than once (``fehlversuch``); otherwise its first.
        """
        head = self.rows.get(section) if head is None else head
        if head is None:
            return None
        lines = self.src.splitlines()
        row = head + 1
        while row < len(lines) and not lines[row].strip():  # the text is stripped
            row += 1
        return row + offset

    def row_of_command(self, section: str, index: int, head: int | None = None) -> int | None:
        """Row of the ``index``-th non-blank line of ``section`` (a command)."""
        head = self.rows.get(section) if head is None else head
        if head is None:
            return None
        lines = self.src.splitlines()
        seen = -1
        for row in range(head + 1, len(lines)):
            if _section_line(lines[row]):
                break
            if lines[row].strip():
                seen += 1
                if seen == index:
                    return row
        return head

    async def verify(self, kernel: Kernel) -> Problem | None:
        """Prove the exercise sound: what is wrong and where, or None if all is well."""
        return None

    def data(self) -> ExerciseData:
        """What the browser needs to run and check the exercise."""
        raise NotImplementedError

    def body(self, console_html: str) -> list[str]:
        """The HTML between the exercise's head and its feedback."""
        raise NotImplementedError


@dataclass
class Prediction(Exercise):
    frage: str = ""
    code: str = ""
    antwort: str = ""
    erklaerung: str = ""
    session: str | None = None
    platzhalter: str = "ein Python-Wert"
    hinweise: list[str] = field(default_factory=list)
    #: After this many wrong answers the solution shows by itself (None: only on request).
    versuche: int | None = None

    def session_code(self) -> tuple[str, str] | None:
        return (self.session, self.code) if self.session is not None else None

    async def verify(self, kernel: Kernel) -> Problem | None:
        return await _verify_prediction(self, kernel)

    def data(self) -> PredictionData:
        return {
            "id": self.id,
            "type": "vorhersage",
            "digest": self.digest,
            "digest_before": self.digest_before,
            "label": self.label,
            "code": self.code,
            "session": self.session,
            "platzhalter": self.platzhalter,
            "versuche": self.versuche,
        }

    def body(self, console_html: str) -> list[str]:
        answer = f'<p class="lk-exercise__answer">Antwort: <code>{escape(self.antwort)}</code></p>'
        return [
            f'<div class="lk-exercise__text">{md(self.frage)}</div>',
            f'<div class="lk-exercise__code">{highlight_python(self.code)}</div>',
            *_hint_html(self.hinweise),
            _details("lk-exercise__solution", "Lösung", answer + md(self.erklaerung)),
        ]


@dataclass
class CodeTask(Exercise):
    aufgabe: str = ""
    vorbereitung: str = ""
    start: str = ""
    pruefung: str = ""
    loesung: str = ""
    hinweise: list[str] = field(default_factory=list)
    erklaerung: str = ""

    async def verify(self, kernel: Kernel) -> Problem | None:
        try:
            solved = await check_code(self.vorbereitung, self.loesung, self.pruefung)
        except Exception as exc:
            return _broken_section(self, exc)
        if not solved.ok or _forgiven(solved):
            return _solution_fails(self, solved, "loesung")
        start = await check_code(self.vorbereitung, self.start, self.pruefung)
        if start.ok:
            return (
                "Der Startcode besteht schon alle Prüfungen: eine Prüfung, die nicht "
                "scheitern kann.",
                self.rows.get("start"),
            )
        for attempt in self.fehlversuche:
            outcome = await check_code(self.vorbereitung, attempt.text, self.pruefung)
            if outcome.error:
                line = _cell_row(outcome.error, "Dein Code")
                return (
                    "Der Fehlversuch wirft, bevor eine Prüfung läuft:\n"
                    f"{outcome.error}\nEin Fehlversuch soll an einer Prüfung scheitern, "
                    "nicht an seinem eigenen Code.",
                    self.row_of("fehlversuch", (line or 1) - 1, attempt.row),
                )
            problem = _wrong_attempt_passes(self, attempt, outcome)
            if problem is not None:
                return problem
        return None

    def data(self) -> CodeTaskData:
        return {
            "id": self.id,
            "type": "aufgabe",
            "digest": self.digest,
            "digest_before": self.digest_before,
            "label": self.label,
            "vorbereitung": self.vorbereitung,
            "start": self.start,
            "pruefung": self.pruefung,
            "loesung": self.loesung,
        }

    def body(self, console_html: str) -> list[str]:
        solution = highlight_python(self.loesung) + md(self.erklaerung)
        return [
            f'<div class="lk-exercise__text">{md(self.aufgabe)}</div>',
            f'<div class="lk-exercise__code">{highlight_python(self.start)}</div>',
            *_hint_html(self.hinweise),
            _details("lk-exercise__solution", "Lösung", solution),
        ]


@dataclass
class Challenge(Exercise):
    """``herausforderung``: the reader writes a node; it runs under the workload and faults of
    ``vorgabe`` for every seed, judged by the workload's checker (``lessonkit.runtime.challenges``)."""

    aufgabe: str = ""
    start: str = ""
    pruefung: str = ""
    loesung: str = ""
    hinweise: list[str] = field(default_factory=list)
    erklaerung: str = ""
    vorgabe: Vorgabe = field(default_factory=lambda: Vorgabe("echo"))
    #: The same node in TypeScript (``--- start-ts``/``--- loesung-ts``; empty: Python only).
    start_ts: str = ""
    loesung_ts: str = ""
    fehlversuche_ts: list[WrongAttempt] = field(default_factory=list)

    async def _outcomes(
        self, code: str, bis_zum_ersten_fehler: bool = False, sprache: str = "python"
    ) -> tuple[str | None, list[SeedOutcomeData]]:
        """Every seed's outcome; ``bis_zum_ersten_fehler`` (code that must fail): up to the
        first failing seed, unshrunk (the build only needs to know that one fails)."""
        klasse, error = await _load(code, sprache)
        if klasse is None:
            return error, []
        outcomes: list[SeedOutcomeData] = []
        for seed in range(1, self.vorgabe.seeds + 1):
            outcome = challenges.seed_outcome(
                klasse,
                self.vorgabe,
                seed,
                self.pruefung,
                verkleinern=not bis_zum_ersten_fehler,
            )
            outcomes.append(outcome)
            if bis_zum_ersten_fehler and not outcome["ok"]:
                break
        return None, outcomes

    async def verify(self, kernel: Kernel) -> Problem | None:
        try:
            self.vorgabe.neue_last()
        except SimFehler as e:
            return (str(e), None)
        problem = await self._prove("python", self.loesung, self.start, self.fehlversuche)
        if problem is not None or not self.loesung_ts:
            return problem
        problem = self._ts_type_errors()
        if problem is not None:
            return problem
        return await self._prove("typescript", self.loesung_ts, self.start_ts, self.fehlversuche_ts)

    async def _prove(
        self, sprache: str, loesung: str, start: str, fehlversuche: list[WrongAttempt]
    ) -> Problem | None:
        """The solution passes every seed, the start and every wrong attempt fail one (in
        ``sprache``: the Python sections, or the TypeScript ones, ``--- loesung-ts`` …)."""
        ts = "-ts" if sprache == "typescript" else ""
        vor = "TypeScript-" if ts else ""
        error, outcomes = await self._outcomes(loesung, sprache=sprache)
        if error is not None:
            line = _cell_row(error, "Dein Code")
            return (
                f"Die {vor}Lösung läuft nicht:\n{error}",
                _in_section(self, "loesung" + ts, line),
            )
        for outcome in outcomes:
            if not outcome["ok"]:
                return (
                    f"Die {vor}Lösung scheitert bei Seed {outcome['seed']}: "
                    f"{' '.join(outcome['urteil'])}\nDer kleinste Lauf: {outcome['kennung']}",
                    self.rows.get("loesung" + ts),
                )
        error, outcomes = await self._outcomes(start, bis_zum_ersten_fehler=True, sprache=sprache)
        if error is not None:
            line = _cell_row(error, "Dein Code")
            return (
                f"Der {vor}Startcode läuft nicht:\n{error}\nLeser sollen mit Code beginnen, der "
                "läuft und an einem Seed scheitert.",
                _in_section(self, "start" + ts, line),
            )
        if all(outcome["ok"] for outcome in outcomes):
            return (
                f"Der {vor}Startcode besteht schon alle {self.vorgabe.seeds} Seeds: eine "
                "Herausforderung, die nicht scheitern kann. Mehr Seeds, mehr Störungen oder eine "
                "strengere Prüfung.",
                self.rows.get("start" + ts),
            )
        for attempt in fehlversuche:
            error, outcomes = await self._outcomes(
                attempt.text, bis_zum_ersten_fehler=True, sprache=sprache
            )
            if error is None and all(outcome["ok"] for outcome in outcomes):
                return (
                    f"Der {vor}Fehlversuch besteht alle Seeds: Diese falsche Lösung ginge durch.",
                    self.row_of("fehlversuch" + ts, 0, attempt.row),
                )
            failing = next((o["seed"] for o in outcomes if not o["ok"]), None)
            checks = await self._failing_checks(attempt, failing, sprache)
            problem = _wrong_rule(attempt, error, outcomes, checks)
            if problem is not None:
                return problem
        return None

    def _ts_type_errors(self) -> Problem | None:
        """Every TypeScript section type-checks (strict, against the runtime's declarations)."""
        for section, code, head in [
            ("loesung-ts", self.loesung_ts, None),
            ("start-ts", self.start_ts, None),
            *[("fehlversuch-ts", a.text, a.row) for a in self.fehlversuche_ts],
        ]:
            fehler = ts_type_errors(code)
            if fehler:
                line = fehler[0][0]
                return (
                    f"Der TypeScript-Code in `--- {section}` hat Typfehler (strict):\n"
                    + "\n".join(f"Zeile {z}: {t}" for z, t in fehler[:5]),
                    self.row_of(section, max(line, 1) - 1, head),
                )
        return None

    async def _failing_checks(
        self, attempt: WrongAttempt, seed: int | None, sprache: str = "python"
    ) -> set[str]:
        """The author's checks (``@pruefe`` names of ``--- pruefung``) that fail on ``seed``,
        the first the wrong attempt fails: a name after ``--- fehlversuch`` may be one."""
        if not attempt.names or not self.pruefung.strip() or seed is None:
            return set()
        klasse, _ = await _load(attempt.text, sprache)
        if klasse is None:
            return set()
        try:
            run = self.vorgabe.laufe(klasse, seed)
        except SimFehler:  # a run that floods: its verdict names no check
            return set()
        checks = run_checks(self.pruefung, {"__name__": "__main__", "lauf": run})
        return {check.name for check in checks if not check.ok}

    def data(self) -> ChallengeData:
        return {
            "id": self.id,
            "type": "herausforderung",
            "digest": self.digest,
            "digest_before": self.digest_before,
            "label": self.label,
            "start": self.start,
            "pruefung": self.pruefung,
            "loesung": self.loesung,
            "start_ts": self.start_ts or None,
            "loesung_ts": self.loesung_ts or None,
            "vorgabe": self.vorgabe.als_dict(),
        }

    def body(self, console_html: str) -> list[str]:
        code = highlight_python(self.loesung)
        if self.loesung_ts:
            # Both languages' solutions; the page shows the reader's (without JavaScript: Python).
            code = (
                f'<div data-lk-solution-language="python">{code}</div>'
                '<div data-lk-solution-language="typescript" hidden>'
                f"{highlight_typescript(self.loesung_ts)}</div>"
            )
        solution = code + md(self.erklaerung)
        return [
            f'<div class="lk-exercise__text">{md(self.aufgabe)}</div>',
            f'<p class="lk-challenge__setup">{escape(self.vorgabe.beschreibung())}</p>',
            f'<div class="lk-exercise__code">{highlight_python(self.start)}</div>',
            *_hint_html(self.hinweise),
            _details("lk-exercise__solution", "Lösung", solution),
        ]


@dataclass
class ConsoleTask(Exercise):
    aufgabe: str = ""
    kind: str = "log"
    options: dict[str, str] = field(default_factory=dict)
    setup: list[str] = field(default_factory=list)
    pruefung: str = ""
    loesung: list[str] = field(default_factory=list)
    hinweise: list[str] = field(default_factory=list)
    erklaerung: str = ""

    async def verify(self, kernel: Kernel) -> Problem | None:
        try:
            return _verify_console(self)
        except Exception as exc:
            return _broken_section(self, exc)

    def data(self) -> ConsoleTaskData:
        return {
            "id": self.id,
            "type": "konsolen-aufgabe",
            "digest": self.digest,
            "digest_before": self.digest_before,
            "label": self.label,
            "kind": self.kind,
            "options": self.options,
            "setup": self.setup,
            "pruefung": self.pruefung,
            "loesung": self.loesung,
        }

    def body(self, console_html: str) -> list[str]:
        commands = "".join(f"{escape(c)}\n" for c in self.loesung)
        solution = f'<pre class="lk-exercise__commands"><code>{commands}</code></pre>'
        return [
            f'<div class="lk-exercise__text">{md(self.aufgabe)}</div>',
            console_html,
            *_hint_html(self.hinweise),
            _details("lk-exercise__solution", "Lösung", solution + md(self.erklaerung)),
        ]


@dataclass
class QuizOption:
    text: str
    richtig: bool
    erklaerung: str = ""


@dataclass
class Quiz(Exercise):
    frage: str = ""
    optionen: list[QuizOption] = field(default_factory=list)
    #: After this many wrong answers the solution shows by itself (None: only on request).
    versuche: int | None = None

    # verify: a quiz was checked while parsing (``make_quiz``).

    def data(self) -> QuizData:
        return {
            "id": self.id,
            "type": "quiz",
            "digest": self.digest,
            "digest_before": self.digest_before,
            "label": self.label,
            "richtig": [i for i, o in enumerate(self.optionen) if o.richtig],
            "versuche": self.versuche,
        }

    def body(self, console_html: str) -> list[str]:
        kind = "checkbox" if sum(o.richtig for o in self.optionen) > 1 else "radio"
        items = []
        for index, option in enumerate(self.optionen):
            explanation = (
                f'<div class="lk-quiz__why" hidden>{md(option.erklaerung)}</div>'
                if option.erklaerung
                else ""
            )
            items.append(
                f'<li class="lk-quiz__option"><label><input type="{kind}" name="lk-quiz-{escape(self.id)}" '
                f'value="{index}"> <span>{md(option.text)}</span></label>{explanation}</li>'
            )
        # A group named by what to do and described by the question (a legend may not
        # hold the question's paragraphs and code).
        legend = "Wähle eine Antwort." if kind == "radio" else "Wähle alle richtigen Antworten."
        right = "".join(f"<li>{md(o.text)}</li>" for o in self.optionen if o.richtig)
        return [
            f'<div class="lk-exercise__text" id="{escape(self.id)}-frage">{md(self.frage)}</div>',
            f'<fieldset class="lk-quiz" aria-describedby="{escape(self.id)}-frage">'
            f'<legend class="lk-quiz__legend">{legend}</legend>'
            f'<ul class="lk-quiz__options">{"".join(items)}</ul></fieldset>',
            _details("lk-exercise__solution", "Lösung", f"<ul>{right}</ul>"),
        ]


# --- parsing -----------------------------------------------------------------------------


def sections_with_rows(src: str) -> list[tuple[str, str, int]]:
    """Split a fence body at ``--- name`` lines into (name, text, row of the name line)."""
    parts: list[tuple[str, list[str], int]] = []
    for row, line in enumerate(src.splitlines()):
        head = _section_line(line)
        if head:
            parts.append((head[0], [], row))
        elif parts:
            parts[-1][1].append(line)
        elif line.strip():
            raise FenceError(
                f"Vor dem ersten Abschnitt steht Text: „{line.strip()}“. "
                "Jeder Abschnitt beginnt mit einer Zeile wie `--- frage`.",
                row,
            )
    return [(name, "\n".join(lines).strip("\n"), row) for name, lines, row in parts]


def sections(src: str) -> list[tuple[str, str]]:
    """Split a fence body at ``--- name`` lines into (name, text) pairs."""
    return [(name, text) for name, text, _ in sections_with_rows(src)]


def _rows(src: str) -> dict[str, int]:
    rows: dict[str, int] = {}
    for name, _, row in sections_with_rows(src):
        rows.setdefault(name, row)
    return rows


def _single(src: str, allowed: dict[str, bool], fence: str) -> dict[str, str]:
    """Sections by name; ``allowed`` says which exist and whether each is required."""
    result: dict[str, str] = {}
    for name, text, row in sections_with_rows(src):
        if name not in allowed and name != "hinweis":
            names = ", ".join(f"`{n}`" for n in [*allowed, "hinweis"])
            raise FenceError(
                f"Unbekannter Abschnitt `--- {name}` in `{fence}`. Erlaubt: {names}.", row
            )
        if name not in REPEATABLE:
            if name in result:
                raise FenceError(f"Der Abschnitt `--- {name}` steht zweimal in `{fence}`.", row)
            result[name] = text
    for name, required in allowed.items():
        if required and not result.get(name, "").strip():
            raise FenceError(f"In `{fence}` fehlt der Abschnitt `--- {name}` (oder er ist leer).")
    return result


def _hints(found: list[tuple[str, str]]) -> list[str]:
    return [text for name, text in found if name == "hinweis"]


def _wrong_attempts(src: str, fence: str, section: str = "fehlversuch") -> list[WrongAttempt]:
    """The ``--- fehlversuch`` sections (or ``--- fehlversuch-ts``), each with the check names
    its line gives."""
    attempts = []
    lines = src.splitlines()
    for name, text, row in sections_with_rows(src):
        if name != section:
            continue
        if not text.strip():
            raise FenceError(f"Der Abschnitt `--- {section}` ist leer.", row)
        after = _section_line(lines[row])
        given = after[1] if after else ""
        names = [a or b for a, b in _CHECK_NAME.findall(given)]
        if given and (not names or _CHECK_NAME.sub("", given).strip()):
            raise FenceError(
                "Hinter `--- fehlversuch` steht nichts oder der Name einer Prüfung in "
                f"Anführungszeichen, so wie bei `@pruefe(…)`: `--- fehlversuch „Name“`. "
                f"Hier steht „{given}“.",
                row,
            )
        if names and fence == "vorhersage":
            raise FenceError(
                "Eine Vorhersage hat nur eine Prüfung, ihre Antwort: Hinter "
                "`--- fehlversuch` steht hier kein Name.",
                row,
            )
        attempts.append(WrongAttempt(text, row, names))
    return attempts


def _visible_src(src: str) -> str:
    """The fence's body without its wrong attempts: the reader never sees those, so a
    change to them keeps the digest (and the reader's draft)."""
    kept: list[str] = []
    inside = False
    for line in src.splitlines(keepends=True):
        head = _section_line(line.rstrip("\r\n"))
        if head:
            inside = head[0] == "fehlversuch"
        if not inside:
            kept.append(line)
    return "".join(kept)


def _without_typescript(src: str) -> str:
    """The fence's body as it was before it had TypeScript sections (``TS_SECTIONS``): the
    same text to the byte, so adding a TypeScript rendering keeps every digest."""
    kept: list[str] = []
    inside = False
    for line in src.splitlines(keepends=True):
        head = _section_line(line.rstrip("\r\n"))
        if head:
            inside = head[0] in TS_SECTIONS
        if not inside:
            kept.append(line)
    text = "".join(kept)
    if text != src and not src.endswith("\n") and text.endswith("\n"):
        text = text[:-1]  # the last section lost its end: the body had no line end there
    return text


def _digest(type_: str, options: dict[str, Any], src: str) -> str:
    return hashlib.sha256(f"{type_}\n{sorted(options.items())}\n{src}".encode()).hexdigest()[:12]


def _common(src: str, slot: int, line: int, options: dict[str, Any], type_: str) -> dict[str, Any]:
    exercise_id = options.get("id")
    if not exercise_id:
        raise FenceError(f'Eine Übung braucht eine id, z. B. ```{type_} id="uebung-1"```.')
    seen = _visible_src(_without_typescript(src))
    # What the reader sees decides the digest, not where it stands: an edit above the
    # exercise keeps the reader's progress. Until 2026-12 the fence's line (lkline) was
    # hashed too; progress stored under that digest is still taken (``digest_before``).
    content = {name: value for name, value in options.items() if name != LINE_OPTION}
    return {
        "slot": slot,
        "line": line,
        "id": exercise_id,
        "digest": _digest(type_, content, seen),
        "digest_before": _digest(type_, options, seen),
        "type": type_,
        "rows": _rows(src),
        "src": src,
        "fehlversuche": [] if type_ == "quiz" else _wrong_attempts(src, type_),
    }


#: The sections of each exercise fence: name -> required. Each of these also takes any
#: number of ``--- hinweis`` (hints, shown one by one) and of ``--- fehlversuch`` (wrong
#: attempts, proved to fail, never shown). A quiz is ``frage`` and answers
#: (``richtig``/``falsch``, each optionally followed by its ``erklaerung``).
SECTIONS: dict[str, dict[str, bool]] = {
    "vorhersage": {
        "frage": True,
        "code": True,
        "antwort": True,
        "erklaerung": False,
        "fehlversuch": False,
    },
    "aufgabe": {
        "aufgabe": False,
        "vorbereitung": False,
        "start": True,
        "pruefung": True,
        "loesung": True,
        "erklaerung": False,
        "fehlversuch": False,
    },
    "konsolen-aufgabe": {
        "aufgabe": False,
        "setup": False,
        "pruefung": True,
        "loesung": True,
        "erklaerung": False,
        "fehlversuch": False,
    },
    "quiz": {"frage": True, "richtig": True, "falsch": False, "erklaerung": False},
    "herausforderung": {
        "aufgabe": False,
        "start": True,
        "pruefung": False,
        "loesung": True,
        "erklaerung": False,
        "fehlversuch": False,
        "start-ts": False,
        "loesung-ts": False,
        "fehlversuch-ts": False,
    },
}


def make_prediction(slot: int, line: int, src: str, options: dict[str, Any]) -> Prediction:
    parts = _single(src, SECTIONS["vorhersage"], "vorhersage")
    return Prediction(
        **_common(src, slot, line, options, "vorhersage"),
        frage=parts["frage"],
        code=parts["code"],
        antwort=parts["antwort"].strip(),
        erklaerung=parts.get("erklaerung", ""),
        session=options.get("session"),
        platzhalter=options.get("platzhalter") or Prediction.platzhalter,
        hinweise=_hints(sections(src)),
        versuche=_tries(options),
    )


def make_code_task(slot: int, line: int, src: str, options: dict[str, Any]) -> CodeTask:
    found = sections(src)
    parts = _single(src, SECTIONS["aufgabe"], "aufgabe")
    return CodeTask(
        **_common(src, slot, line, options, "aufgabe"),
        aufgabe=parts.get("aufgabe", ""),
        vorbereitung=parts.get("vorbereitung", ""),
        start=parts["start"],
        pruefung=parts["pruefung"],
        loesung=parts["loesung"],
        hinweise=_hints(found),
        erklaerung=parts.get("erklaerung", ""),
    )


def make_challenge(slot: int, line: int, src: str, options: dict[str, Any]) -> Challenge:
    found = sections(src)
    parts = _single(src, SECTIONS["herausforderung"], "herausforderung")
    start_ts, loesung_ts = parts.get("start-ts", ""), parts.get("loesung-ts", "")
    fehlversuche_ts = _wrong_attempts(src, "herausforderung", "fehlversuch-ts")
    if bool(start_ts.strip()) != bool(loesung_ts.strip()) or (fehlversuche_ts and not start_ts):
        raise FenceError(
            "Eine Herausforderung in TypeScript braucht beide Abschnitte, `--- start-ts` und "
            "`--- loesung-ts` (`--- fehlversuch-ts` nur mit ihnen)."
        )
    return Challenge(
        **_common(src, slot, line, options, "herausforderung"),
        aufgabe=parts.get("aufgabe", ""),
        start=parts["start"],
        pruefung=parts.get("pruefung", ""),
        loesung=parts["loesung"],
        start_ts=start_ts,
        loesung_ts=loesung_ts,
        fehlversuche_ts=fehlversuche_ts,
        hinweise=_hints(found),
        erklaerung=parts.get("erklaerung", ""),
        vorgabe=_challenge_setup(options),
    )


async def _load(code: str, sprache: str) -> tuple[type[Knoten] | None, str | None]:
    """The node class of a challenge's code in ``sprache`` (``python``/``typescript``), or the
    German error why there is none. TypeScript runs in the build's one Node.js process."""
    gegenstelle = tsnode.gegenstelle() if sprache == "typescript" else None
    return await challenges.load_node(code, sprache, gegenstelle)


def ts_type_errors(code: str) -> list[tuple[int, str]]:
    """``code``'s TypeScript errors (strict, against the runtime's declarations): (line, text)."""
    antwort = tsnode.gegenstelle().rufe({"op": "check", "code": code})
    return [(int(d["line"]), f"TS{d['code']}: {d['message']}") for d in antwort["diagnostics"]]


def _challenge_setup(options: dict[str, Any]) -> Vorgabe:
    try:
        return challenges.vorgabe_aus_optionen(options)
    except ValueError as e:
        raise FenceError(str(e)) from None


def _lines(text: str) -> list[str]:
    return [row for row in text.splitlines() if row.strip()]


def make_console_task(slot: int, line: int, src: str, options: dict[str, Any]) -> ConsoleTask:
    found = sections(src)
    parts = _single(src, SECTIONS["konsolen-aufgabe"], "konsolen-aufgabe")
    kind = options.get("kind", "log")
    console_options = build_options(options)
    try:
        # The fence takes every kind's options; this kind must know each one given.
        ARTEN[kind].pruefe(console_options)
    except SimFehler as exc:
        raise FenceError(str(exc)) from None
    return ConsoleTask(
        **_common(src, slot, line, options, "konsolen-aufgabe"),
        aufgabe=parts.get("aufgabe", ""),
        kind=kind,
        options=console_options,
        setup=_lines(parts.get("setup", "")),
        pruefung=parts["pruefung"],
        loesung=_lines(parts["loesung"]),
        hinweise=_hints(found),
        erklaerung=parts.get("erklaerung", ""),
    )


def mix(items: list[Any], seed: str) -> None:
    """Shuffle ``items`` in place, the same way at every build: Fisher–Yates driven by
    ``random.Random(seed).random()`` (a text seed goes through SHA-512, not ``hash()``), so
    the right answer does not always stand first and the order never changes by itself."""
    rng = random.Random(seed)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def make_quiz(slot: int, line: int, src: str, options: dict[str, Any]) -> Quiz:
    frage = ""
    optionen: list[QuizOption] = []
    for name, text, row in sections_with_rows(src):
        if name == "frage":
            if frage:
                raise FenceError("Der Abschnitt `--- frage` steht zweimal in `quiz`.", row)
            frage = text
        elif name in ("richtig", "falsch"):
            optionen.append(QuizOption(text, name == "richtig"))
        elif name == "erklaerung":
            if not optionen or optionen[-1].erklaerung:
                raise FenceError(
                    "`--- erklaerung` gehört direkt hinter eine Antwort "
                    "(`--- richtig`/`--- falsch`).",
                    row,
                )
            optionen[-1].erklaerung = text
        else:
            raise FenceError(
                f"Unbekannter Abschnitt `--- {name}` in `quiz`. "
                "Erlaubt: `frage`, `richtig`, `falsch`, `erklaerung`.",
                row,
            )
    if not frage.strip():
        raise FenceError("In `quiz` fehlt der Abschnitt `--- frage`.")
    if len(optionen) < 2:
        raise FenceError(
            "Ein Quiz braucht mindestens zwei Antworten (`--- richtig`, `--- falsch`)."
        )
    if not any(option.richtig for option in optionen):
        raise FenceError("Dieses Quiz hat keine richtige Antwort: markiere sie mit `--- richtig`.")
    if options.get("mischen"):
        mix(optionen, str(options.get("id", "")))
    return Quiz(
        **_common(src, slot, line, options, "quiz"),
        frage=frage,
        optionen=optionen,
        versuche=_tries(options),
    )


def _tries(options: dict[str, Any]) -> int | None:
    """``versuche="3"`` as a number (the option's reader checked it), or None."""
    value = options.get("versuche")
    return int(value) if value else None


# --- verification at build time --------------------------------------------------------


#: What ``verify`` finds wrong: a German message and the row (0-based, in the fence's
#: body) it is about, or None for the fence's first line.
Problem = tuple[str, int | None]


def _cell_row(error: str, label: str) -> int | None:
    """The last line (1-based) of the cell ``label`` that a kernel traceback names."""
    rows = re.findall(rf"^  {re.escape(label)}, Zeile (\d+)", error, re.MULTILINE)
    return int(rows[-1]) if rows else None


def _in_section(exercise: Exercise, section: str, line: int | None) -> int | None:
    """Row in the fence of line ``line`` (1-based) of ``section``; the section's own
    ``--- name`` row when the line is unknown."""
    if line is None:
        return exercise.rows.get(section)
    return exercise.row_of(section, line - 1)


def _raised_in_section(exc: BaseException) -> tuple[str, int | None]:
    """Which hidden section (``vorbereitung``/``pruefung``) raised, and in which line."""
    if isinstance(exc, SyntaxError) and exc.filename in (PRUEFUNG, VORBEREITUNG):
        return exc.filename.strip("<>"), exc.lineno
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename in (PRUEFUNG, VORBEREITUNG):
            return frame.filename.strip("<>"), frame.lineno
    return "pruefung", None


def _broken_section(exercise: Exercise, exc: BaseException) -> Problem:
    section, line = _raised_in_section(exc)
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    where = f" in seiner Zeile {line}" if line else ""
    return (
        f"Der Abschnitt `--- {section}` selbst wirft{where}: {detail}\n"
        "Das ist ein Fehler im Code der Übung, nicht in der Lösung.",
        _in_section(exercise, section, line),
    )


def _solution_fails(exercise: Exercise, outcome: TaskOutcome, section: str) -> Problem:
    """Why the solution fails: its own error, a bug in a check, or a failed check."""
    if outcome.error:
        line = _cell_row(outcome.error, "Dein Code")
        return (f"Die Lösung wirft:\n{outcome.error}", _in_section(exercise, section, line))
    failed = [check for check in outcome.checks if not check.ok]
    broken = [check for check in failed if check.check_line is not None]
    if broken:
        check = broken[0]
        return (
            f"Die Prüfung „{check.name}“ wirft selbst, in Zeile {check.check_line} des "
            f"Abschnitts `--- pruefung`:\n{check.message}\n"
            "Das ist ein Fehler im Code der Prüfung (oder sie rechnet nicht mit dem, "
            "was die Lösung liefert), nicht in der Lösung.",
            _in_section(exercise, "pruefung", check.check_line),
        )
    if not failed:  # passed, but only with a reader's forgiveness
        noted = "\n".join(f"  ✓ {c.name}: {' '.join(c.notes)}" for c in outcome.checks if c.notes)
        return (
            "Die Lösung besteht die Prüfungen nur, weil der Browser Lesern etwas "
            f"nachsieht:\n{noted}\nSchreib die Lösung genau so, wie die Prüfung es erwartet.",
            exercise.rows.get(section),
        )
    listed = "\n".join(f"  ✗ {c.name}: {c.message}" for c in failed)
    return (f"Die Lösung besteht nicht alle Prüfungen:\n{listed}", exercise.rows.get(section))


def _forgiven(outcome: TaskOutcome) -> bool:
    """Some check passed only because it forgives a reader (``ae`` for ``ä``)."""
    return any(check.notes for check in outcome.checks)


async def _verify_prediction(exercise: Prediction, kernel: Kernel) -> Problem | None:
    session = exercise.session or f"vorhersage:{exercise.id}"
    try:
        result = await evaluate(exercise.code, kernel, session, exercise.label)
    except SyntaxError as exc:
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return (
            f"Der Code der Vorhersage ist kein gültiges Python: {detail}",
            _in_section(exercise, "code", exc.lineno),
        )
    except ValueError as exc:
        return (str(exc), exercise.rows.get("code"))
    if result.error is not None:
        line = _cell_row(result.error, exercise.label)
        return (
            f"Der Code der Vorhersage wirft:\n{result.error}",
            _in_section(exercise, "code", line),
        )
    outcome = compare_prediction(result.raw_value, exercise.antwort)
    if not outcome.valid:
        return (
            f"Die angegebene Antwort ist kein Python-Wert: {outcome.message}",
            exercise.row_of("antwort"),
        )
    if not outcome.correct:
        return (
            f"Die angegebene Antwort {exercise.antwort} stimmt nicht mit dem Code überein: "
            f"{outcome.message}",
            exercise.row_of("antwort"),
        )
    if outcome.notes:
        return (
            f"Die angegebene Antwort {exercise.antwort} stimmt nur, weil der Browser Lesern "
            f"etwas nachsieht ({' '.join(outcome.notes)}). Schreib sie genau so, wie der "
            f"Code sie liefert: {outcome.actual}",
            exercise.row_of("antwort"),
        )
    for attempt in exercise.fehlversuche:
        wrong = compare_prediction(result.raw_value, attempt.text)
        if not wrong.valid:
            return (
                f"Der Fehlversuch ist kein Python-Wert: {wrong.message}",
                exercise.row_of("fehlversuch", 0, attempt.row),
            )
        if wrong.correct:
            return (
                f"Der Fehlversuch {attempt.text.strip()} gilt als richtig ({wrong.message}): "
                "Diese falsche Antwort ginge durch. Ist sie doch richtig, streiche sie; "
                "sonst stell die Frage so, dass der falsche Gedanke ein anderes Ergebnis "
                "gibt.",
                exercise.row_of("fehlversuch", 0, attempt.row),
            )
    return None


def _verify_console(task: ConsoleTask) -> Problem | None:
    sessions = ConsoleSessions()
    console, results = sessions.get("loesung", task.kind, task.options, task.setup)
    for index, (command, result) in enumerate(zip(task.setup, results, strict=True)):
        if not result.ok:
            return (
                f"Der Befehl „{command}“ im Abschnitt `setup` scheitert:\n{result.text}",
                task.row_of_command("setup", index),
            )
    for index, command in enumerate(task.loesung):
        result = console.run(command)
        if not result.ok:
            return (
                f"Der Befehl „{command}“ der Lösung scheitert:\n{result.text}",
                task.row_of_command("loesung", index),
            )
    solved = check_console(console, task.kind, task.pruefung)
    if not solved.ok or _forgiven(solved):
        return _solution_fails(task, solved, "loesung")
    start, _ = sessions.get("start", task.kind, task.options, task.setup)
    if check_console(start, task.kind, task.pruefung).ok:
        return (
            "Schon der Ausgangszustand besteht die Prüfung: eine Prüfung, die nicht "
            "scheitern kann.",
            task.rows.get("setup"),
        )
    for number, attempt in enumerate(task.fehlversuche):
        console, _ = sessions.get(f"fehlversuch-{number}", task.kind, task.options, task.setup)
        for index, line in enumerate(_lines(attempt.text)):
            command, meant_to_fail = strip_expectation(line)
            result = console.run(command)
            if result.ok == meant_to_fail:
                how = (
                    "soll scheitern (mit „!“ markiert), gelang aber"
                    if meant_to_fail
                    else f"scheitert:\n{result.text}\nSoll er scheitern, setz „!“ davor"
                )
                return (
                    f"Der Befehl „{command}“ des Fehlversuchs {how}.",
                    task.row_of_command("fehlversuch", index, attempt.row),
                )
        outcome = check_console(console, task.kind, task.pruefung)
        problem = _wrong_attempt_passes(task, attempt, outcome)
        if problem is not None:
            return problem
    return None


def _wrong_rule(
    attempt: WrongAttempt,
    error: str | None,
    outcomes: list[SeedOutcomeData],
    failing_checks: set[str],
) -> Problem | None:
    """A challenge's wrong attempt that names rules (``--- fehlversuch „Ein Leader je Term“``)
    must fail its first failing seed with a verdict naming one of them, or with one of the
    author's checks of that name (``failing_checks``): the verdict a reader with this mistake
    sees. None when it does (or names none)."""
    if not attempt.names:
        return None
    if error is not None:
        gesagt = error
    else:
        gescheitert = next(outcome for outcome in outcomes if not outcome["ok"])
        gesagt = " ".join(gescheitert["urteil"])
        if any(name in gesagt or name in failing_checks for name in attempt.names):
            return None
    genannt = " oder ".join(f"„{name}“" for name in attempt.names)
    wo = "läuft nicht" if error is not None else f"scheitert bei Seed {gescheitert['seed']}"
    return (
        f"Der Fehlversuch soll an {genannt} scheitern, aber er {wo}, und das Urteil nennt "
        f"keine davon:\n{gesagt}\nSchärfe Störungen oder Seeds, bis er an seiner Regel "
        "scheitert, oder nenne die Regel, die er bricht.",
        attempt.row,
    )


def _wrong_attempt_passes(
    exercise: Exercise, attempt: WrongAttempt, outcome: TaskOutcome
) -> Problem | None:
    """What is wrong when a wrong attempt passes (all checks, or a check it names), or
    when a check breaks on it instead of failing with its message; None if it fails."""
    for check in outcome.checks:
        if check.check_line is not None:
            return (
                f"Die Prüfung „{check.name}“ wirft selbst, wenn sie den Fehlversuch ab "
                f"Zeile {exercise.line + 1 + attempt.row} prüft (Zeile {check.check_line} "
                f"des Abschnitts `--- pruefung`):\n{check.message}\n"
                "Leser mit diesem Fehler sähen diese Meldung. Lass die Prüfung mit einem "
                "`assert` und einer deutschen Meldung scheitern.",
                _in_section(exercise, "pruefung", check.check_line),
            )
    by_name = {check.name: check for check in outcome.checks}
    for name in attempt.names:
        if name not in by_name:
            known = ", ".join(f"„{check.name}“" for check in outcome.checks)
            return (
                f"Eine Prüfung „{name}“ gibt es nicht. Hinter `--- fehlversuch` steht der "
                f"Name aus `@pruefe(…)`, genau so geschrieben; die Prüfungen heißen: {known}.",
                attempt.row,
            )
        if by_name[name].ok:
            return (
                f"Der Fehlversuch besteht die Prüfung „{name}“, an der er scheitern soll: "
                "Sie hakt diese falsche Lösung als richtig ab. Schärfe die Prüfung (oder "
                "nimm den Namen heraus, wenn der Fehlversuch sie zu Recht besteht).",
                attempt.row,
            )
    if outcome.ok:
        return (
            "Der Fehlversuch besteht alle Prüfungen: Diese falsche Lösung ginge als richtig "
            "durch. Schärfe die Prüfung (oder streiche den Fehlversuch, wenn er doch richtig "
            "ist).",
            attempt.row,
        )
    return None


# --- HTML ------------------------------------------------------------------------------

_MARKDOWN_EXTENSIONS = ["tables", "pymdownx.superfences", "pymdownx.inlinehilite", "pymdownx.keys"]

TITLES = {
    "vorhersage": "Vorhersage",
    "aufgabe": "Code-Aufgabe",
    "konsolen-aufgabe": "Konsolen-Aufgabe",
    "quiz": "Test",
    "herausforderung": "Herausforderung",
}


def md(text: str) -> str:
    """A text section as HTML (a small Markdown of its own: inline code, lists, tables). Its
    links are converted as MkDocs converts the page's own, relative to the page the exercise
    stands on (``lessonkit.build.links``: ``index.md#nachrichten`` -> ``../#nachrichten``)."""
    if not text.strip():
        return ""
    converter = markdown.Markdown(extensions=_MARKDOWN_EXTENSIONS)
    links.register(converter)
    return str(converter.convert(text))


def _details(css: str, summary: str, body: str) -> str:
    return f'<details class="{css}"><summary>{escape(summary)}</summary>{body}</details>'


def render_exercise(exercise: Exercise, console_html: str = "") -> str:
    """The exercise as HTML: complete and readable without JavaScript."""
    title = f"{exercise.label} · {TITLES[exercise.type]}"
    return (
        f'<div class="lk-exercise" data-lk-exercise data-type="{exercise.type}" id="{escape(exercise.id)}">'
        f"{data_element('exercise', exercise.data())}"
        f'<div class="lk-exercise__head">{escape(title)}</div>'
        f"{''.join(exercise.body(console_html))}"
        '<output class="lk-exercise__feedback" aria-live="polite"></output>'
        "</div>"
    )


def _hint_html(hints: list[str]) -> list[str]:
    return [
        _details("lk-exercise__hint", f"Hinweis {i} von {len(hints)}", md(text))
        for i, text in enumerate(hints, start=1)
    ]
