"""The markup that build and browser share: highlighted code, a cell's output, a
console's answer.

The browser (``frontend/src/components/output/render.ts``,
``…/console/transcript.ts``) renders live results into the same structure, so
the page looks the same before and after Python runs in the browser;
``tests/browser/test_markup.py`` runs those renderers on its results (a hostile
console answer among them) and compares with these functions.
"""

from __future__ import annotations

import re
from html import escape

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, TypeScriptLexer

from lessonkit.runtime.kernel import CellResult
from pysim.console import ConsoleResult

_FORMATTER = HtmlFormatter(cssclass="highlight", wrapcode=True)
_PYTHON = PythonLexer()
_TYPESCRIPT = TypeScriptLexer()

PROMPT = "$ "

#: Code in a console's answer, written in backticks by pysim ("Meintest du `produce`?"): the
#: opening backtick starts the line or follows a space or "(", the code has no backtick and
#: neither starts nor ends with a space, and the closing backtick ends the line or comes
#: before a space or punctuation. So a backtick inside data (``{"a":"`x`"}``, „`x“) stays
#: a backtick. An indented line (records, examples, syntax) is shown as it is.
#: ``frontend/src/components/console/transcript.ts`` has the same rule.
CODE = re.compile(r"(^|[ (])`([^` ](?:[^`]*[^` ])?)`(?=[ .,:;!?)]|$)")


def highlight_python(code: str) -> str:
    """Python code as Pygments' HTML (``<div class="highlight">``)."""
    return str(highlight(code, _PYTHON, _FORMATTER))


def highlight_typescript(code: str) -> str:
    return str(highlight(code, _TYPESCRIPT, _FORMATTER))


def render_output(result: CellResult | None) -> str:
    """The inner HTML of a cell's ``<output>``."""
    if result is None:
        return ""
    parts: list[str] = []
    if result.output:
        spans = "".join(
            f'<span class="lk-{stream}">{escape(visible_bidi(text))}</span>'
            for stream, text in result.output
        )
        parts.append(f'<pre class="lk-output__text">{spans}</pre>')
    if result.value is not None:
        parts.append(f'<pre class="lk-output__value">{escape(visible_bidi(result.value))}</pre>')
    if result.svg is not None:
        # Build-time pictures come from the author's own code and pysim: inlined, so
        # they follow the page's light/dark palette through CSS custom properties.
        parts.append(f'<div class="lk-output__svg">{result.svg}</div>')
    if result.error is not None:
        parts.append(f'<pre class="lk-output__error">{escape(visible_bidi(result.error))}</pre>')
    return "".join(parts)


#: Invisible characters that switch the writing direction (embeddings, overrides, isolates):
#: in a transcript or a cell's output they would mirror the rest of the line (a record value,
#: a typed command, a printed string). Shown as their code point instead, as
#: frontend/src/components/bidi.ts does.
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def visible_bidi(text: str) -> str:
    """``text`` with each direction-switching character written as ``<U+202E>``."""
    return BIDI.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def render_console_line(line: str) -> str:
    """One line of a console's answer as escaped HTML, its `code` as ``<code>``."""
    line = visible_bidi(line)
    if line.startswith(" "):
        return escape(line)
    parts: list[str] = []
    done = 0
    for match in CODE.finditer(line):
        tick = match.start(2) - 1
        parts.append(escape(line[done:tick]))
        parts.append(f'<code class="lk-console__code">{escape(match.group(2))}</code>')
        done = match.end()
    parts.append(escape(line[done:]))
    return "".join(parts)


def _line_class(line: str) -> str:
    """An indented line is a row of a table (``status``): it keeps its columns and never
    wraps (the log scrolls sideways on a phone); any other line wraps."""
    return "lk-console__line lk-console__line--row" if line.startswith("  ") else "lk-console__line"


def render_console_lines(text: str) -> str:
    """A console answer, a block per line: the browser wraps a long line with a hanging
    indent (docs/assets/lessonkit.css), so a wrapped line never looks like a new one."""
    lines = "".join(
        f'<span class="{_line_class(line)}">{render_console_line(line)}\n</span>'
        for line in text.split("\n")
    )
    return f'<span class="lk-console__out">{lines}</span>'


def render_console_entry(command: str, result: ConsoleResult) -> str:
    """One command and its answer in a console's transcript."""
    state = "ok" if result.ok else "error"
    return (
        f'<span class="lk-console__entry lk-console__entry--{state}">'
        f'<span class="lk-console__cmd">{escape(PROMPT + visible_bidi(command))}</span>\n'
        + (render_console_lines(result.text) if result.text else "")
        + "</span>"
    )
