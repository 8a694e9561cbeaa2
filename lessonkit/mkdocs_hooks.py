"""MkDocs hooks: build the browser assets before MkDocs reads its configuration.

Only a convenience for ``mkdocs build`` and ``mkdocs serve`` (so a change to
``pysim`` or ``frontend/src`` reaches the served site). Everything the pages
themselves need lives in the Markdown extension; other generators run
``python -m lessonkit.assets`` first instead.
"""

from __future__ import annotations

from typing import Any

from mkdocs.plugins import event_priority

from lessonkit.assets import build_all


@event_priority(100)  # before any plugin looks at docs/
def on_config(config: Any, **kwargs: Any) -> Any:
    build_all()
    return config
