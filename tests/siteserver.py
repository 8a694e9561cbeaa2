"""A static file server on 127.0.0.1 for built sites (tests and benchmarks).

The port is chosen before the site is built: Material's instant navigation only
treats links as internal when the sitemap's addresses (made from ``site_url``)
carry the same port as the page, so the build is told the server's address.

With ``gzip=True`` it compresses what a static host compresses (text, JavaScript, JSON,
SVG, WebAssembly: gzip -6 when the browser accepts it, as GitHub Pages does), and
``sent`` records the body bytes of every response as they went over the wire (the
benchmark's byte count: it sees the requests of every worker, nested ones too).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import threading
from pathlib import Path
from typing import ClassVar

#: Content types a static host sends compressed (the rest: zip, gzip, images as they are).
COMPRESSIBLE = ("text/", "javascript", "json", "xml", "svg", "wasm")


class _Handler(http.server.SimpleHTTPRequestHandler):
    cache_seconds: int | None = None
    extra_headers: ClassVar[dict[str, str]] = {}
    compress = False
    sent: list[tuple[str, int]]
    _compressed: dict[tuple[str, float], bytes]
    _lock: threading.Lock

    def end_headers(self) -> None:
        if self.cache_seconds is not None:
            self.send_header("Cache-Control", f"max-age={self.cache_seconds}")
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def do_GET(self) -> None:
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")
        kind = self.guess_type(path)
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.compress and accepts and os.path.isfile(path)) or not any(
            part in kind for part in COMPRESSIBLE
        ):
            self._send_as_is(super().send_head())
            return
        key = (path, os.path.getmtime(path))
        with self._lock:
            body = self._compressed.get(key)
            if body is None:
                body = gzip.compress(Path(path).read_bytes(), 6, mtime=0)
                self._compressed[key] = body
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        with self._lock:
            self.sent.append((self.path, len(body)))

    def _send_as_is(self, source: object) -> None:
        if source is None:
            return
        try:
            data = source.read()  # type: ignore[attr-defined]
            self.wfile.write(data)
            with self._lock:
                self.sent.append((self.path, len(data)))
        finally:
            source.close()  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: object) -> None:
        pass


class StaticServer:
    """Serves ``directory`` (which may still be empty) until ``close()``, with
    ``Cache-Control: max-age=<cache_seconds>`` if given and ``extra_headers``; with
    ``gzip``, compressed as a static host does (see the module's docstring)."""

    def __init__(
        self,
        directory: Path,
        cache_seconds: int | None = None,
        extra_headers: dict[str, str] | None = None,
        gzip: bool = False,
    ) -> None:
        self.directory = directory
        self.sent: list[tuple[str, int]] = []
        attributes = {
            "cache_seconds": cache_seconds,
            "extra_headers": extra_headers or {},
            "compress": gzip,
            "sent": self.sent,
            "_compressed": {},
            "_lock": threading.Lock(),
        }
        handler = type("Handler", (_Handler,), attributes)
        self._server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
        )
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
