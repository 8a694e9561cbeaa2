"""A proxy on 127.0.0.1 that forwards nothing: it records what a browser tried to reach.

The browsers under test are told to send every request for another host through it
(the site on 127.0.0.1 is reached directly). Each attempt, the page's or the browser's
own (telemetry, updates, safe browsing, ...), is recorded and answered with 403, so no
byte leaves the machine and a test can assert that the list stays empty.
"""

from __future__ import annotations

import socketserver
import threading


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        line = self.rfile.readline(65536).decode("latin-1").strip()
        if not line:
            return
        while self.rfile.readline(65536).strip():  # the headers
            pass
        method, target, *_ = [*line.split(" "), "", ""]
        with self.server.lock:
            self.server.attempts.append(f"{method} {target}")
        self.wfile.write(
            b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.attempts: list[str] = []
        self.lock = threading.Lock()


class RecordingProxy:
    """``attempts``: "METHOD target" per request that reached the proxy, oldest first."""

    def __init__(self) -> None:
        self._server = _Server()
        self.port: int = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def attempts(self) -> list[str]:
        with self._server.lock:
            return list(self._server.attempts)

    def clear(self) -> None:
        with self._server.lock:
            self._server.attempts.clear()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
