"""Under ``mkdocs serve``: a rebuild that fails shows its error in the browser.

MkDocs' live-reload server answers a request only once the newest build has finished, and a
failed build never finishes: every request hangs ("The server will appear stuck until build
errors are resolved"). ``show_build_errors`` makes a failed rebuild count as finished and
answers every page with a German error page instead. The page carries MkDocs' live-reload
script, so the browser shows the lesson again as soon as the author's fix builds.

It relies on three attributes of ``mkdocs.livereload.LiveReloadServer`` (MkDocs 1.6, pinned):
``builder`` (called for every rebuild), ``_serve_request`` (answers one request) and
``_inject_js_into_html`` (adds the reload script). ``tests/test_serve.py`` breaks and fixes a
page under a running server, so an MkDocs update that changes them fails there.
"""

from __future__ import annotations

import html
import logging
import traceback
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger("mkdocs.lessonkit")

PAGE = """<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Build fehlgeschlagen</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;margin:2rem;max-width:60rem}}
pre{{white-space:pre-wrap;background:#f4f4f4;padding:1rem;border-left:4px solid #b00020}}</style>
</head><body>
<h1>Der Build ist fehlgeschlagen</h1>
<p>Die Seite lädt neu, sobald du den Fehler behoben und die Datei gespeichert hast.
Dieselbe Meldung steht im Terminal von <code>./scripts/serve</code>.</p>
<pre>{message}</pre>
</body></html>
"""


class _Collect(logging.Handler):
    """Keeps the errors MkDocs logs while it builds: a failed build raises only
    ``Abort("Aborted with a BuildError!")``; the author's message (file:line) is logged."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def error_text(error: BaseException, logged: list[str]) -> str:
    """What the terminal showed: the logged errors, then the exception's own text."""
    own = str(error).strip() or "".join(traceback.format_exception_only(error)).strip()
    return "\n".join([*logged, own])


def is_page(path: str) -> bool:
    return path.endswith("/") or path.endswith(".html")


def show_build_errors(server: Any) -> Any:
    """Wrap ``server`` (a ``LiveReloadServer``) so a failed rebuild shows an error page."""
    build: Callable[..., Any] = server.builder
    answer: Callable[[dict[str, Any], Any], Iterable[bytes] | None] = server._serve_request
    failure: list[str] = []  # the last rebuild's error text, or empty

    def builder(*args: Any, **kwargs: Any) -> None:
        collect = _Collect()
        mkdocs_log = logging.getLogger("mkdocs")
        mkdocs_log.addHandler(collect)
        try:
            build(*args, **kwargs)
        except Exception as error:
            failure[:] = [error_text(error, collect.messages)]
            log.error("Der Build ist fehlgeschlagen; der Browser zeigt die Meldung.")
        else:
            failure.clear()
        finally:
            mkdocs_log.removeHandler(collect)

    def serve_request(environ: dict[str, Any], start_response: Any) -> Iterable[bytes] | None:
        if failure and is_page(environ.get("PATH_INFO", "")):
            page = PAGE.format(message=html.escape(failure[0]))
            body = server._inject_js_into_html(page.encode(), server._visible_epoch)
            start_response(
                "500 Internal Server Error",
                [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))],
            )
            return [body]
        return answer(environ, start_response)

    server.builder = builder
    server._serve_request = serve_request
    return server
