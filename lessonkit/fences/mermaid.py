"""The ``mermaid`` fence with an accessible name and description.

Material draws ``<pre class="mermaid">`` in the browser; a picture without words
is lost to a screen reader. Every diagram therefore names itself and says in a
sentence or two what it shows, written by the author as fence options::

    ```mermaid titel="Ablauf einer Bestellung" beschreibung="Der Shop legt …"
    sequenceDiagram
        …
    ```

The markup keeps Material's ``pre.mermaid`` (so the theme still draws it) inside a
``<figure>`` named by ``titel`` and described by ``beschreibung`` (visually hidden:
the picture is what sighted readers see). Both are required; the build stops with
``file:line`` when one is missing or empty.
"""

from __future__ import annotations

import hashlib
from html import escape
from typing import Any

from markdown import Markdown
from pymdownx.superfences import fence_code_format

from lessonkit.build.blocks import PageState
from lessonkit.build.errors import LessonError
from lessonkit.fences.options import FenceHeader, superfences_validator

#: The fence's name (mkdocs.yml, superfences' custom_fences).
LANGUAGE = "mermaid"
OPTIONS = {
    "titel": "der Name des Diagramms (kurz, z. B. „Ablauf einer Bestellung“)",
    "beschreibung": "ein, zwei Sätze, was das Diagramm zeigt",
}


def _where(md: Markdown) -> str:
    page: PageState | None = getattr(md, "lessonkit_page", None)
    return page.location.path if page is not None else "<Seite>"


@superfences_validator
def validate(fence: FenceHeader) -> None:
    """superfences validator: ``titel`` and ``beschreibung``, both required and not empty."""
    options, line, path = fence.options, fence.line, _where(fence.md)
    for key, value in fence.inputs.items():
        if key not in OPTIONS:
            raise LessonError(
                path,
                line,
                f"Unbekannte Option „{key}“ im Block `mermaid`. Erlaubt: titel, beschreibung.",
            )
        options[key] = value.strip()
    for key, meaning in OPTIONS.items():
        if not options.get(key):
            raise LessonError(
                path,
                line,
                f'Dem Diagramm fehlt `{key}="…"`: {meaning}. Ohne Text bleibt es für '
                "Screenreader stumm.",
            )


def format_mermaid(
    src: str, language: str, class_name: str, options: dict[str, Any], md: Markdown, **kwargs: Any
) -> str:
    """The diagram as Material expects it, inside a named and described figure."""
    pre = fence_code_format(src, language, class_name, options, md, **kwargs)
    ident = "lk-diagram-" + hashlib.sha256(src.encode()).hexdigest()[:10]
    title = escape(options["titel"], quote=True)
    return (
        f'<figure class="lk-diagram" aria-label="{title}" aria-describedby="{ident}">'
        f"{pre}"
        f'<figcaption class="lk-diagram__text" id="{ident}">{escape(options["beschreibung"])}'
        "</figcaption></figure>"
    )
