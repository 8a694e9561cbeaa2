"""A static file server on 127.0.0.1 for built sites (tests and benchmarks).

The port is chosen before the site is built: Material's instant navigation only
treats links as internal when the sitemap's addresses (made from ``site_url``)
carry the same port as the page, so the build is told the server's address.

With ``gzip=True`` it compresses what a static host compresses (text, JavaScript, JSON,
SVG, WebAssembly: gzip -6 when the browser accepts it, as GitHub Pages does), and
``sent`` records the body bytes of every response as they went over the wire (the
benchmark's byte count: it sees the requests of every worker, nested ones too).

With ``link=(bits per second, seconds of latency)`` every response waits the latency
before its first byte and all responses share one link of that rate (a token bucket):
a slow connection for every request of the page and of its workers alike, which
Chromium's own network emulation does not give (it left a nested worker's download
unthrottled, benchmarks/README.md).
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import hashlib
import http.server
import os
import shutil
import threading
import time
from pathlib import Path
from typing import ClassVar

#: Content types a static host sends compressed (the rest: zip, gzip, images as they are).
COMPRESSIBLE = ("text/", "javascript", "json", "xml", "svg", "wasm")


class _Link:
    """One link of ``rate`` bytes per second shared by every response (a token bucket)."""

    CHUNK = 16_384

    def __init__(self, bits_per_second: float, latency: float) -> None:
        self.rate = bits_per_second / 8
        self.latency = latency
        self._free_at = 0.0
        self._lock = threading.Lock()

    def send(self, out: object, data: bytes) -> None:
        for start in range(0, len(data), self.CHUNK):
            chunk = data[start : start + self.CHUNK]
            with self._lock:
                now = time.monotonic()
                self._free_at = max(self._free_at, now) + len(chunk) / self.rate
                wait = self._free_at - now
            time.sleep(wait)
            out.write(chunk)  # type: ignore[attr-defined]


class _Handler(http.server.SimpleHTTPRequestHandler):
    cache_seconds: int | None = None
    extra_headers: ClassVar[dict[str, str]] = {}
    compress = False
    link: _Link | None = None
    sent: list[tuple[str, int, float, float]]
    _arrived = 0.0
    _compressed: dict[tuple[str, float], bytes]
    _lock: threading.Lock

    def end_headers(self) -> None:
        if self.cache_seconds is not None:
            self.send_header("Cache-Control", f"max-age={self.cache_seconds}")
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def _write(self, data: bytes) -> None:
        if self.link is None:
            self.wfile.write(data)
        else:
            self.link.send(self.wfile, data)
        with self._lock:
            self.sent.append((self.path, len(data), self._arrived, time.monotonic()))

    def do_GET(self) -> None:
        self._arrived = time.monotonic()
        if self.link is not None:
            time.sleep(self.link.latency)
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
        modified = os.path.getmtime(path)
        if self._unchanged_since(modified):
            return
        key = (path, modified)
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
        self.send_header("Last-Modified", self.date_time_string(int(modified)))
        self.end_headers()
        self._write(body)

    def _unchanged_since(self, modified: float) -> bool:
        """Answer 304 to a revalidation of an unchanged file, as the base class does."""
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            unchanged = email.utils.parsedate_to_datetime(since).timestamp() >= int(modified)
        except (TypeError, ValueError):
            return False
        if unchanged:
            self.send_response(304)
            self.end_headers()
        return unchanged

    def _send_as_is(self, source: object) -> None:
        if source is None:
            return
        try:
            self._write(source.read())  # type: ignore[attr-defined]
        finally:
            source.close()  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: object) -> None:
        pass


class StaticServer:
    """Serves ``directory`` (which may still be empty) until ``close()``, with
    ``Cache-Control: max-age=<cache_seconds>`` if given and ``extra_headers``; with
    ``gzip``, compressed as a static host does, and with ``link`` over a slow connection
    (see the module's docstring)."""

    def __init__(
        self,
        directory: Path,
        cache_seconds: int | None = None,
        extra_headers: dict[str, str] | None = None,
        gzip: bool = False,
        link: tuple[float, float] | None = None,
    ) -> None:
        self.directory = directory
        self.sent: list[tuple[str, int, float, float]] = []
        attributes = {
            "cache_seconds": cache_seconds,
            "extra_headers": extra_headers or {},
            "compress": gzip,
            "link": _Link(*link) if link else None,
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


def copy_site(built_site: Path, site_url: str, target: Path, server_url: str) -> None:
    """Copy the built site to ``target``, to be served at ``server_url``.

    The sitemap is rewritten to the copy's address: instant navigation only treats
    links as internal when the sitemap's addresses carry the page's port; the service
    worker's record (lessonkit/build/csp.py) gets its new SHA-256.
    """
    shutil.copytree(built_site, target)
    sitemap = target / "sitemap.xml"
    if sitemap.exists():
        before = hashlib.sha256(sitemap.read_bytes()).hexdigest()
        sitemap.write_text(sitemap.read_text().replace(site_url, server_url))
        # The service worker serves only the bytes its record holds (lessonkit/build/csp.py).
        worker = target / "sw.js"
        if worker.exists():
            after = hashlib.sha256(sitemap.read_bytes()).hexdigest()
            worker.write_text(worker.read_text().replace(before, after))


class Elsewhere:
    """A server on another port of 127.0.0.1, so another origin, that records every request
    reaching it (tests of what code pasted into a cell can send: nothing)."""

    def __init__(self) -> None:
        self.reached: list[str] = []
        reached = self.reached

        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self) -> None:
                reached.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Type", "text/javascript")
                self.end_headers()
                self.wfile.write(b"export const x = 1;")

            do_GET = do_POST = do_OPTIONS = answer

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


#: Python for a cell: every way out of the worker that pasted code has (`{u}`: the other
#: origin's address, `Elsewhere.url`). Each is tried; what it says back does not matter,
#: only what reaches the other server. Its value: where the worker runs (`blob:…`).
REACH_OUT = """
import asyncio, js, pyodide.code, pyodide_js
U = "{u}"
def xhr():
    x = js.XMLHttpRequest.new(); x.open("GET", U + "xhr", False); x.send()
versuche = {{
    "fetch": lambda: js.fetch(U + "fetch"),
    "xhr": xhr,
    "eventsource": lambda: js.EventSource.new(U + "eventsource"),
    "websocket": lambda: js.WebSocket.new(U.replace("http", "ws") + "websocket"),
    "eval": lambda: js.eval("fetch('" + U + "eval')"),
    "import": lambda: js.eval("import('" + U + "import.js')"),
    "Function": lambda: js.Function.new("return fetch('" + U + "function')")(),
    "run_js": lambda: pyodide.code.run_js("fetch('" + U + "run_js')"),
    "loadPackage": lambda: pyodide_js.loadPackage(U + "paket-0.1-py3-none-any.whl"),
    "importScripts": lambda: js.importScripts(U + "importScripts.js"),
}}
for name, versuch in versuche.items():
    try:
        versuch()
    except Exception:
        pass
await asyncio.sleep(1)  # what was sent has arrived
str(js.self.location.href).split(":")[0]
"""
