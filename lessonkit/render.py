"""HTML of a cell as the build writes it into the page.

The browser (``frontend/src/components/cell``, ``…/console``) mounts onto
exactly this markup and renders live results into the same structure
(``frontend/src/components/output/render.ts``, ``…/console/transcript.ts``),
so the page looks the same before and after Python runs in the browser.
"""

from __future__ import annotations

from html import escape

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, TypeScriptLexer

from lessonkit.blocks import Block, Cell, ConsoleBlock, TsBlock
from lessonkit.execute import BlockResult, ConsoleRun, ExerciseRun, Rendered
from lessonkit.exercises import ConsoleTask, Exercise, render_exercise
from lessonkit.kernel import CellResult
from lessonkit.pagedata import data_element
from lessonkit.typescript import TsResult
from pysim.console import ConsoleResult

_FORMATTER = HtmlFormatter(cssclass="highlight", wrapcode=True)
_LEXER = PythonLexer()


def render_output(result: CellResult | None) -> str:
    """The inner HTML of a cell's ``<output>``."""
    if result is None:
        return ""
    parts: list[str] = []
    if result.output:
        spans = "".join(
            f'<span class="lk-{stream}">{escape(text)}</span>' for stream, text in result.output
        )
        parts.append(f'<pre class="lk-output__text">{spans}</pre>')
    if result.value is not None:
        parts.append(f'<pre class="lk-output__value">{escape(result.value)}</pre>')
    if result.svg is not None:
        # Build-time pictures come from the author's own code and pysim: inlined, so
        # they follow the page's light/dark palette through CSS custom properties.
        parts.append(f'<div class="lk-output__svg">{result.svg}</div>')
    if result.error is not None:
        parts.append(f'<pre class="lk-output__error">{escape(result.error)}</pre>')
    return "".join(parts)


def render_cell(cell: Cell, result: CellResult | None) -> str:
    """A whole cell: its data, its highlighted code and its output."""
    data = {
        "code": cell.code,
        "session": cell.session,
        "label": cell.label,
        "hidden": cell.hidden,
        "raises": cell.raises,
        "check": cell.check,
    }
    attrs = f'class="lk-cell" data-lk-cell data-session="{escape(cell.session)}"'
    if cell.hidden:
        attrs += " hidden"
    code_html = highlight(cell.code, _LEXER, _FORMATTER)
    return (
        f"<div {attrs}>"
        f"{data_element('cell', data)}"
        f'<div class="lk-cell__head"><span class="lk-cell__label">{escape(cell.label)}</span></div>'
        f'<div class="lk-cell__code">{code_html}</div>'
        # Not a live region (an <output> is a status by default): the cell's status says
        # when it ran; the output itself was announced twice, and earlier cells' too.
        f'<output class="lk-output" role="group" aria-live="off" '
        f'aria-label="Ergebnis von {escape(cell.label)}">'
        f"{render_output(result)}</output>"
        "</div>"
    )


#: What the console's head line calls each kind.
CONSOLE_TITLES = {"log": "Log-Konsole", "queue": "Queue-Konsole"}
PROMPT = "$ "


def render_console_lines(text: str) -> str:
    """A console answer, a block per line: a line too long for a phone wraps with a
    hanging indent (docs/assets/lessonkit.css), not back at the left edge."""
    lines = "".join(
        f'<span class="lk-console__line">{escape(line)}\n</span>' for line in text.split("\n")
    )
    return f'<span class="lk-console__out">{lines}</span>'


def render_console_entry(command: str, result: ConsoleResult) -> str:
    """One command and its answer in a console's transcript."""
    state = "ok" if result.ok else "error"
    return (
        f'<span class="lk-console__entry lk-console__entry--{state}">'
        f'<span class="lk-console__cmd">{escape(PROMPT + command)}</span>\n'
        + (render_console_lines(result.text) if result.text else "")
        + "</span>"
    )


def render_console(block: ConsoleBlock, run: ConsoleRun, key: str | None = None) -> str:
    """A console: its data, the picture of its state and the transcript of its setup."""
    data = {
        "key": key or block.key,
        "kind": block.kind,
        "options": block.options,
        "setup": run.setup,
        "offset": run.offset,
        "label": block.label,
    }
    entries = (
        ""
        if block.hidden
        else "".join(render_console_entry(command, result) for command, result in run.transcript)
    )
    title = f"{block.label} · {CONSOLE_TITLES[block.kind]}"
    if block.session:
        title += f" · Sitzung „{block.session}“"
    picture = run.svg or ""
    return (
        f'<div class="lk-console" data-lk-console data-kind="{block.kind}">'
        f"{data_element('console', data)}"
        f'<div class="lk-console__head">{escape(title)}</div>'
        f'<div class="lk-console__picture">{picture}</div>'
        # Focusable: a long transcript scrolls, also by keyboard.
        f'<pre class="lk-console__log" role="log" aria-live="polite" tabindex="0" '
        f'aria-label="Verlauf von {escape(block.label)}">{entries}</pre>'
        "</div>"
    )


def render_typescript(block: TsBlock, result: TsResult) -> str:
    """TypeScript code and the output Node.js gave for it (not editable in the page)."""
    code_html = highlight(block.code, TypeScriptLexer(), _FORMATTER)
    output = (
        '<div class="lk-ts__head">Ausgabe mit Node.js</div>'
        f'<pre class="lk-output__text"><span class="lk-stdout">{escape(result.output)}</span></pre>'
        if result.output
        else ""
    )
    return f'<div class="lk-ts" data-lk-ts>{code_html}<output class="lk-output">{output}</output></div>'


def _highlight_python(code: str) -> str:
    return highlight(code, _LEXER, _FORMATTER)


def render_block(block: Block, result: BlockResult) -> str:
    """The finished HTML of any block."""
    if isinstance(result, Rendered):
        return result.html
    if isinstance(block, Exercise) and isinstance(result, ExerciseRun):
        console = ""
        if isinstance(block, ConsoleTask) and result.console is not None:
            console_block = ConsoleBlock(
                slot=block.slot,
                line=block.line,
                label=block.label,
                kind=block.kind,
                options=block.options,
            )
            console_block.setup = block.setup
            console = render_console(console_block, result.console, key=f"exercise:{block.id}")
        return render_exercise(block, _highlight_python, console)
    if isinstance(block, TsBlock) and isinstance(result, TsResult):
        return render_typescript(block, result)
    if isinstance(block, Cell) and isinstance(result, CellResult):
        return render_cell(block, result)
    if isinstance(block, ConsoleBlock) and isinstance(result, ConsoleRun):
        return render_console(block, result)
    raise TypeError(f"no renderer for {type(block).__name__}")  # a bug in lessonkit
