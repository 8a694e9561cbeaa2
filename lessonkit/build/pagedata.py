"""How a block hands its data to the page script."""

from __future__ import annotations

import json
from html import escape


def data_element(name: str, data: object) -> str:
    """A hidden element carrying a block's data as JSON in an attribute.

    Not a ``<script type="application/json">``: Material's instant navigation
    re-creates every inline script of the new page without its attributes and
    runs it as JavaScript. The page script reads it with ``getBlocks``
    (frontend/src/components/blocks.ts).
    """
    text = escape(json.dumps(data, ensure_ascii=False), quote=True)
    return f'<div hidden class="lk-{name}__data" data-lk-json="{text}"></div>'


def site_path(page: str) -> str:
    """A page's URL path relative to the site root, with directory URLs, as keys use it:
    ``lektionen/a.md`` -> ``lektionen/a/``, ``index.md`` -> ``""``."""
    stem = page.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return f"{stem}/"
