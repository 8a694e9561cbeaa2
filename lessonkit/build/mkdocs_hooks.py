"""MkDocs hooks: build the browser assets before MkDocs reads its configuration,
finish the written pages (lessonkit/build/csp.py), check the anchors that exercises link to on
other pages once every page is converted (lessonkit/build/links.py), and give the templates the
``split`` filter that Zensical's template engine (minijinja) has built in, so
``overrides/main.html`` renders in both.

The assets hook is only a convenience for ``mkdocs build`` and ``mkdocs serve`` (so a
change to ``pysim`` or ``frontend/src`` reaches the served site). Everything the pages
themselves need lives in the Markdown extension; other generators run
``python -m lessonkit.build.assets`` first instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment
from mkdocs.plugins import event_priority

from lessonkit.authoring.serve_errors import show_build_errors
from lessonkit.build import links
from lessonkit.build.assets import build_all
from lessonkit.build.csp import finish_site

_serving = False


def on_startup(command: str, **kwargs: Any) -> None:
    global _serving
    _serving = command == "serve"


@event_priority(100)  # before any plugin looks at docs/
def on_config(config: Any, **kwargs: Any) -> Any:
    build_all()
    # Links in an exercise's sections are converted as MkDocs converts the page's own.
    extension = config["mdx_configs"].setdefault("lessonkit.build.extension", {})
    extension["use_directory_urls"] = bool(config["use_directory_urls"])
    return config


def on_serve(server: Any, **kwargs: Any) -> Any:
    """A rebuild that fails shows its error in the browser instead of hanging every request
    (lessonkit/authoring/serve_errors.py)."""
    return show_build_errors(server)


def on_post_build(config: Any, **kwargs: Any) -> None:
    """Version stamp and strict script policy (lessonkit/build/csp.py); not under ``mkdocs
    serve``, whose live-reload script is injected into every page as it is served."""
    if not _serving:
        finish_site(Path(config["site_dir"]))


def split(value: str, separator: str | None = None, maxsplits: int | None = None) -> list[str]:
    """minijinja's ``split`` filter: ``value.split(separator, maxsplits)``."""
    return value.split(separator, -1 if maxsplits is None else maxsplits)


def on_env(env: Environment, files: Any, **kwargs: Any) -> Environment:
    """Every page is converted now (MkDocs has not yet written one): an anchor an exercise
    links to on another page must be in that page's HTML (lessonkit/build/links.py)."""
    env.filters.setdefault("split", split)
    links.check_anchors(
        {
            file.src_uri: file.page.content
            for file in files.documentation_pages()
            if file.page is not None and file.page.content is not None
        }
    )
    return env
