"""A small W3C WebDriver (classic) client: the same commands for Firefox and WebKit.

WebKitGTK's driver (`WebKitWebDriver`) speaks WebDriver over HTTP. Firefox has no
driver in Debian (geckodriver is a separate download), but Firefox itself answers the
same commands over Marionette, the TCP protocol geckodriver translates to: a message
is ``<length>:<json>``, a command ``[0, id, "WebDriver:<Name>", params]``, its answer
``[1, id, error, result]`` (https://firefox-source-docs.mozilla.org/testing/marionette/Protocol.html).
Both transports take the W3C command names and parameters; `Session` is all the tests see.
"""

from __future__ import annotations

import base64
import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Protocol

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # how WebDriver marks an element reference

# WebDriver's key codes (W3C WebDriver, "Keyboard actions").
KEYS = {
    "Enter": "\ue007",
    "Shift": "\ue008",
    "Control": "\ue009",
    "Escape": "\ue00c",
    "Tab": "\ue004",
    "Backspace": "\ue003",
    "End": "\ue010",
    "Home": "\ue011",
    "ArrowUp": "\ue013",
    "ArrowDown": "\ue015",
}

# Command name -> (HTTP method, path below /session/{id}/); Marionette's names are "WebDriver:<name>".
ROUTES = {
    "Navigate": ("POST", "url"),
    "GetCurrentURL": ("GET", "url"),
    "Refresh": ("POST", "refresh"),
    "ExecuteScript": ("POST", "execute/sync"),
    "ExecuteAsyncScript": ("POST", "execute/async"),
    "ElementClick": ("POST", "element/{id}/click"),
    "PerformActions": ("POST", "actions"),
    "ReleaseActions": ("DELETE", "actions"),
    "TakeScreenshot": ("GET", "screenshot"),
    "SetTimeouts": ("POST", "timeouts"),
    "SetWindowRect": ("POST", "window/rect"),
    "DeleteSession": ("DELETE", ""),
}


class WebDriverError(Exception):
    """An error the browser answered with (WebDriver's error code and message)."""


# How often an element that went stale between finding and using it is looked up again.
STALE_LOOKUPS = 5


def is_stale(error: WebDriverError) -> bool:
    """The element was found in a document the page has replaced since."""
    return str(error).startswith("stale element reference")


class Transport(Protocol):
    def new_session(self, capabilities: dict[str, Any]) -> dict[str, Any]: ...
    def call(self, name: str, params: dict[str, Any]) -> Any: ...
    def close(self) -> None: ...


class HttpTransport:
    """WebDriver over HTTP (WebKitWebDriver)."""

    def __init__(self, base: str, new_session_timeout: float = 180) -> None:
        self.base = base.rstrip("/")
        self.session = ""
        self.new_session_timeout = new_session_timeout

    def _request(
        self, method: str, path: str, body: dict[str, Any] | None, timeout: float = 180
    ) -> Any:
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as failure:
            value = json.loads(failure.read())["value"]
            raise WebDriverError(f"{value['error']}: {value['message']}") from None

    def new_session(self, capabilities: dict[str, Any]) -> dict[str, Any]:
        body = {"capabilities": {"alwaysMatch": capabilities}}
        value = self._request("POST", "/session", body, self.new_session_timeout)
        self.session = value["sessionId"]
        return value["capabilities"]

    def call(self, name: str, params: dict[str, Any]) -> Any:
        method, path = ROUTES[name]
        if "{id}" in path:
            params = dict(params)
            path = path.format(id=params.pop("id"))
        return self._request(method, f"/session/{self.session}/{path}".rstrip("/"), params)

    def close(self) -> None:
        pass


class MarionetteTransport:
    """WebDriver commands over Firefox's own Marionette socket."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.stream = self.socket.makefile("rb")
        self.last_id = 0
        hello = self._read()
        assert hello.get("marionetteProtocol") == 3, hello

    def _read(self) -> Any:
        length = b""
        while (byte := self.stream.read(1)) != b":":
            if not byte:
                raise WebDriverError("Firefox closed the Marionette connection")
            length += byte
        return json.loads(self.stream.read(int(length)))

    def _send(self, name: str, params: dict[str, Any]) -> Any:
        self.last_id += 1
        body = json.dumps([0, self.last_id, name, params]).encode()
        self.socket.sendall(str(len(body)).encode() + b":" + body)
        while True:
            kind, message_id, error, result = self._read()
            if kind == 1 and message_id == self.last_id:
                break
        if error:
            raise WebDriverError(f"{error['error']}: {error['message']}")
        return result

    def new_session(self, capabilities: dict[str, Any]) -> dict[str, Any]:
        return self._send("WebDriver:NewSession", capabilities)["capabilities"]

    def call(self, name: str, params: dict[str, Any]) -> Any:
        result = self._send(f"WebDriver:{name}", params)
        # Marionette wraps most answers in {"value": ...}, as the HTTP protocol does.
        return result.get("value") if isinstance(result, dict) else result

    def close(self) -> None:
        self.stream.close()
        self.socket.close()


# Runs an async function body and hands its value or error to WebDriver (no `eval`:
# WebKit applies the page's Content-Security-Policy to what it evaluates).
ASYNC_SCRIPT = """
const done = arguments[arguments.length - 1];
const args = Array.from(arguments).slice(0, -1);
(async () => {%s})().then(
  (value) => done({ value }),
  (error) => done({ error: String(error && error.stack || error) }));
"""


class Session:
    """One browser window driven by WebDriver; the tests' whole vocabulary."""

    def __init__(self, transport: Transport, capabilities: dict[str, Any]) -> None:
        self.transport = transport
        self.capabilities = transport.new_session(capabilities)
        self.call("SetTimeouts", {"script": 120_000, "pageLoad": 120_000, "implicit": 0})

    def call(self, name: str, params: dict[str, Any] | None = None) -> Any:
        return self.transport.call(name, params or {})

    def close(self) -> None:
        try:
            self.call("DeleteSession")
        except (WebDriverError, OSError):
            pass
        self.transport.close()

    # Pages
    def goto(self, url: str) -> None:
        self.call("Navigate", {"url": url})

    def reload(self) -> None:
        self.call("Refresh")

    @property
    def url(self) -> str:
        return self.call("GetCurrentURL")

    def screenshot(self, path: Path) -> None:
        # The viewport ("full" is Marionette's: it would take the whole page; HTTP ignores it).
        path.write_bytes(base64.b64decode(self.call("TakeScreenshot", {"full": False})))

    # Scripts
    def js(self, script: str, *args: Any) -> Any:
        """Run `script` (a function body: `return ...`) in the page; `args` is `arguments`."""
        return self.call("ExecuteScript", {"script": script, "args": list(args)})

    def js_async(self, body: str, *args: Any) -> Any:
        """Await an async function body in the page (its arguments are `args[0]`, ...)."""
        answer = self.call(
            "ExecuteAsyncScript", {"script": ASYNC_SCRIPT % body, "args": list(args)}
        )
        if "error" in answer:
            raise WebDriverError(answer["error"])
        return answer.get("value")

    def wait_for(self, condition: str, *args: Any, timeout: float = 60, message: str = "") -> Any:
        """Poll `condition` (a function body returning a value) until the value is truthy."""
        deadline = time.monotonic() + timeout
        value: Any = None
        while time.monotonic() < deadline:
            try:
                value = self.js(condition, *args)
            except WebDriverError as error:  # e.g. a page being replaced mid-call
                value = error
            if value and not isinstance(value, WebDriverError):
                return value
            time.sleep(0.1)
        raise TimeoutError(f"waited {timeout} s for: {message or condition} (last: {value!r})")

    # Elements and input
    def find(self, script: str, *args: Any) -> dict[str, str]:
        """The element `script` returns (waited for), scrolled to the middle of the window.

        An element found while the page replaces its document (a navigation that is still
        committing, a reload) goes stale at once: then it is looked up again.
        """
        for _ in range(STALE_LOOKUPS):
            found = self.wait_for(script, *args, message=f"an element from {script} {args}")
            try:
                self.js("arguments[0].scrollIntoView({ block: 'center' })", found)
                return found
            except WebDriverError as error:
                if not is_stale(error):
                    raise
        raise WebDriverError(f"stale element reference {STALE_LOOKUPS} times: {script} {args}")

    def element(self, selector: str) -> dict[str, str]:
        """The first element matching a CSS selector (waited for), scrolled into view."""
        return self.find("return document.querySelector(arguments[0])", selector)

    def click(self, target: str | dict[str, str]) -> None:
        """A real click (WebDriver's) on an element or the first match of a CSS selector."""
        if not isinstance(target, str):
            self.call("ElementClick", {"id": target[ELEMENT]})
            return
        for _ in range(STALE_LOOKUPS):
            try:
                self.call("ElementClick", {"id": self.element(target)[ELEMENT]})
                return
            except WebDriverError as error:
                if not is_stale(error):
                    raise
        raise WebDriverError(f"stale element reference {STALE_LOOKUPS} times: {target}")

    def press(self, *keys: str) -> None:
        """A chord, e.g. press("Shift", "Enter"): keys go down in order, up in reverse."""
        codes = [KEYS.get(key, key) for key in keys]
        actions = [{"type": "keyDown", "value": code} for code in codes]
        actions += [{"type": "keyUp", "value": code} for code in reversed(codes)]
        self.call("PerformActions", {"actions": [{"type": "key", "id": "kb", "actions": actions}]})
        self.call("ReleaseActions")

    def type(self, text: str) -> None:
        """Type `text` key by key into whatever has the focus."""
        actions = []
        for char in text:
            code = KEYS["Enter"] if char == "\n" else char
            actions += [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]
        self.call("PerformActions", {"actions": [{"type": "key", "id": "kb", "actions": actions}]})
        self.call("ReleaseActions")
