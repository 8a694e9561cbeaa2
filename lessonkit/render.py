"""HTML of a cell as the build writes it into the page.

The browser (``frontend/src/components/cell``) mounts onto exactly this markup
and renders live results into the same ``<output>`` structure
(``frontend/src/components/output/render.ts``), so the page looks the same
before and after Python runs in the browser.
"""

from __future__ import annotations

import json
from html import escape

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from lessonkit.fences import Cell
from lessonkit.kernel import CellResult

_FORMATTER = HtmlFormatter(cssclass="highlight", wrapcode=True)
_LEXER = PythonLexer()


def _json_for_script(data: object) -> str:
    # Inside <script>, "</" would end the element: escape "<" in the JSON text.
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


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
    }
    attrs = f'class="lk-cell" data-lk-cell data-session="{escape(cell.session)}"'
    if cell.hidden:
        attrs += " hidden"
    code_html = highlight(cell.code, _LEXER, _FORMATTER)
    return (
        f"<div {attrs}>"
        f'<script type="application/json" class="lk-cell__data">{_json_for_script(data)}</script>'
        f'<div class="lk-cell__head"><span class="lk-cell__label">{escape(cell.label)}</span></div>'
        f'<div class="lk-cell__code">{code_html}</div>'
        f'<output class="lk-output" aria-live="polite" aria-label="Ergebnis von {escape(cell.label)}">'
        f"{render_output(result)}</output>"
        "</div>"
    )
