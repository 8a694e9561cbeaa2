"""A static file server on 127.0.0.1 for built sites (tests and benchmarks).

The port is chosen before the site is built: Material's instant navigation only
treats links as internal when the sitemap's addresses (made from ``site_url``)
carry the same port as the page, so the build is told the server's address.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import ClassVar


class _Handler(http.server.SimpleHTTPRequestHandler):
    cache_seconds: int | None = None
    extra_headers: ClassVar[dict[str, str]] = {}

    def end_headers(self) -> None:
        if self.cache_seconds is not None:
            self.send_header("Cache-Control", f"max-age={self.cache_seconds}")
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class StaticServer:
    """Serves ``directory`` (which may still be empty) until ``close()``, with
    ``Cache-Control: max-age=<cache_seconds>`` if given and ``extra_headers``."""

    def __init__(
        self,
        directory: Path,
        cache_seconds: int | None = None,
        extra_headers: dict[str, str] | None = None,
    ) -> None:
        self.directory = directory
        attributes = {"cache_seconds": cache_seconds, "extra_headers": extra_headers or {}}
        handler = type("Handler", (_Handler,), attributes)
        self._server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
        )
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
