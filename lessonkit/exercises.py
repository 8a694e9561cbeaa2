"""Exercises: predictions, code tasks, console tasks and quizzes.

Each exercise is a fence whose body is split into sections by lines
``--- name`` (see docs/autoren.md). This module turns a fence into an
exercise block (``make_*``), proves at build time that it is sound
(``verify``: the stated answer is what the code returns, the solution passes,
the starting point fails, a quiz has a right answer) and writes its HTML
(``render``), which the browser (frontend/src/components/exercise) mounts on.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from html import escape
from typing import Any

import markdown

from lessonkit.blocks import Block
from lessonkit.checks import TaskOutcome, check_code, check_console, compare_prediction, evaluate
from lessonkit.consoles import ConsoleSessions
from lessonkit.kernel import Kernel
from lessonkit.pagedata import data_element

_SECTION = re.compile(r"^--- ?([a-zäöü]+)\s*$")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,60}$")


class FenceError(ValueError):
    """An exercise fence is malformed; the build adds file and line."""


@dataclass
class Exercise(Block):
    """What every exercise has: an id on its page and a hash of its content."""

    id: str = ""
    digest: str = ""  # changes when the author changes the exercise (stale drafts)
    type: str = ""
    label_prefix: str = "Übung"


@dataclass
class Prediction(Exercise):
    frage: str = ""
    code: str = ""
    antwort: str = ""
    erklaerung: str = ""
    session: str | None = None


@dataclass
class CodeTask(Exercise):
    aufgabe: str = ""
    vorbereitung: str = ""
    start: str = ""
    pruefung: str = ""
    loesung: str = ""
    hinweise: list[str] = field(default_factory=list)
    erklaerung: str = ""


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


@dataclass
class QuizOption:
    text: str
    richtig: bool
    erklaerung: str = ""


@dataclass
class Quiz(Exercise):
    frage: str = ""
    optionen: list[QuizOption] = field(default_factory=list)


# --- parsing -----------------------------------------------------------------------------


def sections(src: str) -> list[tuple[str, str]]:
    """Split a fence body at ``--- name`` lines into (name, text) pairs."""
    parts: list[tuple[str, list[str]]] = []
    for line in src.splitlines():
        match = _SECTION.match(line)
        if match:
            parts.append((match[1], []))
        elif parts:
            parts[-1][1].append(line)
        elif line.strip():
            raise FenceError(
                f"Vor dem ersten Abschnitt steht Text: „{line.strip()}“. "
                "Jeder Abschnitt beginnt mit einer Zeile wie `--- frage`."
            )
    return [(name, "\n".join(lines).strip("\n")) for name, lines in parts]


def _single(found: list[tuple[str, str]], allowed: dict[str, bool], fence: str) -> dict[str, str]:
    """Sections by name; ``allowed`` says which exist and whether each is required."""
    result: dict[str, str] = {}
    for name, text in found:
        if name not in allowed and name != "hinweis":
            names = ", ".join(f"`{n}`" for n in [*allowed, "hinweis"])
            raise FenceError(f"Unbekannter Abschnitt `--- {name}` in `{fence}`. Erlaubt: {names}.")
        if name != "hinweis":
            if name in result:
                raise FenceError(f"Der Abschnitt `--- {name}` steht zweimal in `{fence}`.")
            result[name] = text
    for name, required in allowed.items():
        if required and not result.get(name, "").strip():
            raise FenceError(f"In `{fence}` fehlt der Abschnitt `--- {name}` (oder er ist leer).")
    return result


def _hints(found: list[tuple[str, str]]) -> list[str]:
    return [text for name, text in found if name == "hinweis"]


def _common(src: str, slot: int, line: int, options: dict[str, Any], type_: str) -> dict[str, Any]:
    exercise_id = options.get("id")
    if not exercise_id:
        raise FenceError(f'Eine Übung braucht eine id, z. B. ```{type_} id="uebung-1"```.')
    digest = hashlib.sha256(f"{type_}\n{sorted(options.items())}\n{src}".encode()).hexdigest()[:12]
    return {"slot": slot, "line": line, "id": exercise_id, "digest": digest, "type": type_}


def read_id(value: str) -> str:
    """Option reader for ``id``."""
    if not _ID.match(value):
        raise ValueError(
            f'id=„{value}“ ist keine gültige id: Kleinbuchstaben, Ziffern und „-“, z. B. id="uebung-1".'
        )
    return value


def make_prediction(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
    found = sections(src)
    parts = _single(
        found, {"frage": True, "code": True, "antwort": True, "erklaerung": False}, "vorhersage"
    )
    return Prediction(
        **_common(src, slot, line, options, "vorhersage"),
        frage=parts["frage"],
        code=parts["code"],
        antwort=parts["antwort"].strip(),
        erklaerung=parts.get("erklaerung", ""),
        session=options.get("session"),
    )


def make_code_task(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
    found = sections(src)
    allowed = {
        "aufgabe": False,
        "vorbereitung": False,
        "start": True,
        "pruefung": True,
        "loesung": True,
        "erklaerung": False,
    }
    parts = _single(found, allowed, "aufgabe")
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


def _lines(text: str) -> list[str]:
    return [row for row in text.splitlines() if row.strip()]


def make_console_task(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
    found = sections(src)
    allowed = {
        "aufgabe": False,
        "setup": False,
        "pruefung": True,
        "loesung": True,
        "erklaerung": False,
    }
    parts = _single(found, allowed, "konsolen-aufgabe")
    extra = {k: v for k, v in options.items() if k in ("visibility_timeout", "max_versuche")}
    return ConsoleTask(
        **_common(src, slot, line, options, "konsolen-aufgabe"),
        aufgabe=parts.get("aufgabe", ""),
        kind=options.get("kind", "log"),
        options=extra,
        setup=_lines(parts.get("setup", "")),
        pruefung=parts["pruefung"],
        loesung=_lines(parts["loesung"]),
        hinweise=_hints(found),
        erklaerung=parts.get("erklaerung", ""),
    )


def make_quiz(slot: int, line: int, src: str, options: dict[str, Any]) -> Block:
    frage = ""
    optionen: list[QuizOption] = []
    for name, text in sections(src):
        if name == "frage":
            if frage:
                raise FenceError("Der Abschnitt `--- frage` steht zweimal in `quiz`.")
            frage = text
        elif name in ("richtig", "falsch"):
            optionen.append(QuizOption(text, name == "richtig"))
        elif name == "erklaerung":
            if not optionen or optionen[-1].erklaerung:
                raise FenceError(
                    "`--- erklaerung` gehört direkt hinter eine Antwort (`--- richtig`/`--- falsch`)."
                )
            optionen[-1].erklaerung = text
        else:
            raise FenceError(
                f"Unbekannter Abschnitt `--- {name}` in `quiz`. Erlaubt: `frage`, `richtig`, `falsch`, `erklaerung`."
            )
    if not frage.strip():
        raise FenceError("In `quiz` fehlt der Abschnitt `--- frage`.")
    if len(optionen) < 2:
        raise FenceError(
            "Ein Quiz braucht mindestens zwei Antworten (`--- richtig`, `--- falsch`)."
        )
    if not any(option.richtig for option in optionen):
        raise FenceError("Dieses Quiz hat keine richtige Antwort: markiere sie mit `--- richtig`.")
    return Quiz(**_common(src, slot, line, options, "quiz"), frage=frage, optionen=optionen)


# --- verification at build time --------------------------------------------------------


def _failed_checks(outcome: TaskOutcome) -> str:
    if outcome.error:
        return f"Der Code wirft:\n{outcome.error}"
    return "\n".join(f"  ✗ {c.name}: {c.message}" for c in outcome.checks if not c.ok)


async def verify(exercise: Exercise, kernel: Kernel) -> str | None:
    """Prove the exercise sound. Returns a German error message, or None if all is well."""
    if isinstance(exercise, Prediction):
        session = exercise.session or f"vorhersage:{exercise.id}"
        result = await evaluate(exercise.code, kernel, session, exercise.label)
        if result.error is not None:
            return f"Der Code der Vorhersage wirft:\n{result.error}"
        outcome = compare_prediction(result.raw_value, exercise.antwort)
        if not outcome.valid:
            return f"Die angegebene Antwort ist kein Python-Wert: {outcome.message}"
        if not outcome.correct:
            return (
                f"Die angegebene Antwort {exercise.antwort} stimmt nicht mit dem Code überein: "
                f"{outcome.message}"
            )
        return None
    if isinstance(exercise, CodeTask):
        solved = await check_code(exercise.vorbereitung, exercise.loesung, exercise.pruefung)
        if not solved.ok:
            return f"Die Lösung besteht nicht alle Prüfungen:\n{_failed_checks(solved)}"
        start = await check_code(exercise.vorbereitung, exercise.start, exercise.pruefung)
        if start.ok:
            return "Der Startcode besteht schon alle Prüfungen: eine Prüfung, die nicht scheitern kann."
        return None
    if isinstance(exercise, ConsoleTask):
        return _verify_console(exercise)
    return None  # a quiz was checked while parsing


def _verify_console(task: ConsoleTask) -> str | None:
    sessions = ConsoleSessions()
    console, results = sessions.get("loesung", task.kind, task.options, task.setup)
    for command, result in zip(task.setup, results, strict=True):
        if not result.ok:
            return f"Der Befehl „{command}“ im Abschnitt `setup` scheitert:\n{result.text}"
    for command in task.loesung:
        result = console.run(command)
        if not result.ok:
            return f"Der Befehl „{command}“ der Lösung scheitert:\n{result.text}"
    solved = check_console(console, task.kind, task.pruefung)
    if not solved.ok:
        return f"Die Lösung besteht nicht alle Prüfungen:\n{_failed_checks(solved)}"
    start, _ = sessions.get("start", task.kind, task.options, task.setup)
    if check_console(start, task.kind, task.pruefung).ok:
        return (
            "Schon der Ausgangszustand besteht die Prüfung: eine Prüfung, die nicht scheitern kann."
        )
    return None


# --- HTML ------------------------------------------------------------------------------

_MARKDOWN_EXTENSIONS = ["tables", "pymdownx.superfences", "pymdownx.inlinehilite", "pymdownx.keys"]

TITLES = {
    "vorhersage": "Vorhersage",
    "aufgabe": "Code-Aufgabe",
    "konsolen-aufgabe": "Konsolen-Aufgabe",
    "quiz": "Test",
}


def md(text: str) -> str:
    """A text section as HTML (a small Markdown of its own: inline code, lists, tables)."""
    return markdown.markdown(text, extensions=_MARKDOWN_EXTENSIONS) if text.strip() else ""


def exercise_data(exercise: Exercise) -> dict[str, Any]:
    """What the browser needs to run and check the exercise."""
    base = {
        "id": exercise.id,
        "type": exercise.type,
        "digest": exercise.digest,
        "label": exercise.label,
    }
    if isinstance(exercise, Prediction):
        return {**base, "code": exercise.code, "session": exercise.session}
    if isinstance(exercise, CodeTask):
        return {
            **base,
            "vorbereitung": exercise.vorbereitung,
            "start": exercise.start,
            "pruefung": exercise.pruefung,
            "loesung": exercise.loesung,
        }
    if isinstance(exercise, ConsoleTask):
        return {
            **base,
            "kind": exercise.kind,
            "options": exercise.options,
            "setup": exercise.setup,
            "pruefung": exercise.pruefung,
            "loesung": exercise.loesung,
        }
    if isinstance(exercise, Quiz):
        return {**base, "richtig": [i for i, o in enumerate(exercise.optionen) if o.richtig]}
    raise TypeError(type(exercise).__name__)


def _details(css: str, summary: str, body: str) -> str:
    return f'<details class="{css}"><summary>{escape(summary)}</summary>{body}</details>'


def render_exercise(exercise: Exercise, highlight_python: Any, console_html: str = "") -> str:
    """The exercise as HTML: complete and readable without JavaScript."""
    parts: list[str] = []
    title = f"{exercise.label} · {TITLES[exercise.type]}"
    if isinstance(exercise, Prediction):
        parts.append(f'<div class="lk-exercise__text">{md(exercise.frage)}</div>')
        parts.append(f'<div class="lk-exercise__code">{highlight_python(exercise.code)}</div>')
        body = (
            f'<p class="lk-exercise__answer">Antwort: <code>{escape(exercise.antwort)}</code></p>'
        )
        parts.append(_details("lk-exercise__solution", "Lösung", body + md(exercise.erklaerung)))
    elif isinstance(exercise, CodeTask):
        parts.append(f'<div class="lk-exercise__text">{md(exercise.aufgabe)}</div>')
        parts.append(f'<div class="lk-exercise__code">{highlight_python(exercise.start)}</div>')
        parts.extend(_hint_html(exercise.hinweise))
        solution = highlight_python(exercise.loesung) + md(exercise.erklaerung)
        parts.append(_details("lk-exercise__solution", "Lösung", solution))
    elif isinstance(exercise, ConsoleTask):
        parts.append(f'<div class="lk-exercise__text">{md(exercise.aufgabe)}</div>')
        parts.append(console_html)
        parts.extend(_hint_html(exercise.hinweise))
        commands = "".join(f"{escape(c)}\n" for c in exercise.loesung)
        solution = f'<pre class="lk-exercise__commands"><code>{commands}</code></pre>'
        parts.append(
            _details("lk-exercise__solution", "Lösung", solution + md(exercise.erklaerung))
        )
    elif isinstance(exercise, Quiz):
        parts.append(f'<div class="lk-exercise__text">{md(exercise.frage)}</div>')
        kind = "checkbox" if sum(o.richtig for o in exercise.optionen) > 1 else "radio"
        items = []
        for index, option in enumerate(exercise.optionen):
            explanation = (
                f'<div class="lk-quiz__why" hidden>{md(option.erklaerung)}</div>'
                if option.erklaerung
                else ""
            )
            items.append(
                f'<li class="lk-quiz__option"><label><input type="{kind}" name="lk-quiz-{escape(exercise.id)}" '
                f'value="{index}"> <span>{md(option.text)}</span></label>{explanation}</li>'
            )
        # A group named by what to do and described by the question (a legend may not
        # hold the question's paragraphs and code).
        legend = "Wähle eine Antwort." if kind == "radio" else "Wähle alle richtigen Antworten."
        parts[-1] = parts[-1].replace(
            '<div class="lk-exercise__text">',
            f'<div class="lk-exercise__text" id="{escape(exercise.id)}-frage">',
            1,
        )
        parts.append(
            f'<fieldset class="lk-quiz" aria-describedby="{escape(exercise.id)}-frage">'
            f'<legend class="lk-quiz__legend">{legend}</legend>'
            f'<ul class="lk-quiz__options">{"".join(items)}</ul></fieldset>'
        )
        right = "".join(f"<li>{md(o.text)}</li>" for o in exercise.optionen if o.richtig)
        parts.append(_details("lk-exercise__solution", "Lösung", f"<ul>{right}</ul>"))
    return (
        f'<div class="lk-exercise" data-lk-exercise data-type="{exercise.type}" id="{escape(exercise.id)}">'
        f"{data_element('exercise', exercise_data(exercise))}"
        f'<div class="lk-exercise__head">{escape(title)}</div>'
        f"{''.join(parts)}"
        '<output class="lk-exercise__feedback" aria-live="polite"></output>'
        "</div>"
    )


def _hint_html(hints: list[str]) -> list[str]:
    return [
        _details("lk-exercise__hint", f"Hinweis {i} von {len(hints)}", md(text))
        for i, text in enumerate(hints, start=1)
    ]
