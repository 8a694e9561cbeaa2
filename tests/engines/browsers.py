"""Debian's Firefox ESR and WebKitGTK, started fresh and driven by WebDriver (webdriver.py).

Firefox runs headless and answers on its Marionette port; WebKitGTK's MiniBrowser is
started by WebKitWebDriver in an Xvfb display of its own (it needs one). Both send
every request for another host to a RecordingProxy, so nothing leaves the machine
and the tests see every attempt, the browser's own background services included.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.engines.recorder import RecordingProxy
from tests.engines.webdriver import HttpTransport, MarionetteTransport, Session

ENGINES = ("firefox", "webkit")
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
XVFB = "/usr/bin/Xvfb"
WINDOW = {"width": 1280, "height": 900}

# Firefox's background services off (each would contact Mozilla); whatever is left goes to
# the recording proxy. Mozilla's own test harness uses the same values
# (remote/shared/RecommendedPreferences.sys.mjs).
FIREFOX_PREFS: dict[str, object] = {
    "marionette.port": 0,  # any free port, written to <profile>/MarionetteActivePort
    "app.update.disabledForTesting": True,
    "app.update.auto": False,
    "app.normandy.enabled": False,
    "app.shield.optoutstudies.enabled": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.policy.firstRunURL": "",
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.archive.enabled": False,
    "toolkit.telemetry.server": "",
    "browser.ping-centre.telemetry": False,
    "network.captive-portal-service.enabled": False,
    "captivedetect.canonicalURL": "",
    "network.connectivity-service.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "browser.safebrowsing.provider.google4.updateURL": "",
    "services.settings.server": "data:,#remote-settings-dummy/v1",
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False,
    "extensions.systemAddon.update.enabled": False,
    "media.gmp-manager.updateEnabled": False,
    "media.gmp-manager.url": "",
    "browser.search.update": False,
    "browser.region.update.enabled": False,
    "browser.region.network.url": "",
    "geo.provider.network.url": "",
    "browser.translations.enable": False,
    "identity.fxaccounts.enabled": False,
    "dom.push.enabled": False,
    "network.trr.mode": 5,  # no DNS over HTTPS
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0,
    "browser.urlbar.speculativeConnect.enabled": False,
    "browser.startup.page": 0,
    "browser.startup.homepage": "about:blank",
    "browser.newtabpage.enabled": False,
    "browser.newtabpage.activity-stream.feeds.topsites": False,
    "browser.newtabpage.activity-stream.telemetry": False,
    "browser.topsites.contile.enabled": False,
    "browser.aboutwelcome.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.discovery.enabled": False,
    "network.proxy.type": 1,  # manual; 127.0.0.1 and localhost always go direct
}


@dataclass
class Engine:
    """A running browser: its WebDriver session, its proxy and its processes."""

    name: str
    session: Session
    proxy: RecordingProxy
    root_pid: int
    #: How many tests' readers have used it so far (conftest.py's `reader`).
    visits: int = 0

    def pids(self) -> list[int]:
        """The browser's processes: the root and all its descendants (Linux /proc)."""
        children: dict[int, list[int]] = {}
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(stat.split("/")[2]))
        found, todo = [], [self.root_pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(check: object, what: str, timeout: float = 60) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()  # type: ignore[operator]
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"{what} did not come up within {timeout} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a process we started and everything it started (its own process group)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def missing() -> list[str]:
    """The programs of this module that are not installed."""
    programs = [FIREFOX, WEBKIT_DRIVER, XVFB, minibrowser()]
    return [path for path in programs if not os.path.exists(path)]


def minibrowser() -> str:
    """WebKitGTK's MiniBrowser (webkit2gtk-driver); its folder names the architecture."""
    found = glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser")
    return found[0] if found else "/usr/lib/<arch>/webkit2gtk-4.1/MiniBrowser"


@contextmanager
def firefox(proxy: RecordingProxy, log: Path) -> Iterator[Engine]:
    profile = Path(tempfile.mkdtemp(prefix="lk-firefox-"))
    prefs = {
        **FIREFOX_PREFS,
        **{f"network.proxy.{kind}": "127.0.0.1" for kind in ("http", "ssl")},
        **{f"network.proxy.{kind}_port": proxy.port for kind in ("http", "ssl")},
    }
    (profile / "user.js").write_text(
        "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items())
    )
    command = [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", str(profile)]
    # Remote Settings ignores services.settings.server unless this is set.
    env = {**os.environ, "MOZ_REMOTE_SETTINGS_DEVTOOLS": "1"}
    with log.open("ab") as output:
        process = subprocess.Popen(
            [*command, "about:blank"], env=env, stdout=output, stderr=output, start_new_session=True
        )
    session = None
    try:
        port_file = profile / "MarionetteActivePort"
        wait_until(port_file.exists, "Firefox's Marionette port")
        port = int(wait_until(lambda: port_file.read_text().strip(), "the port number"))  # type: ignore[arg-type]
        session = Session(
            MarionetteTransport(port),
            {"unhandledPromptBehavior": "accept", "pageLoadStrategy": "normal"},
        )
        session.call("SetWindowRect", WINDOW)
        yield Engine("firefox", session, proxy, process.pid)
    finally:
        if session is not None:
            session.close()
        stop(process)
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def xvfb(log: Path) -> Iterator[str]:
    """A virtual display of our own; Xvfb picks a free number and writes it to a pipe."""
    read, write = os.pipe()
    with log.open("ab") as output:
        process = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=output,
            stderr=output,
            start_new_session=True,
        )
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError(f"Xvfb did not start (see {log})")
        yield f":{number}"
    finally:
        stop(process)


def webkit_capabilities(proxy: RecordingProxy) -> dict[str, object]:
    # The proxy goes to MiniBrowser's own options, not to WebDriver's "proxy" capability:
    # WebKitGTK 2.50 crashes now and then (a segfault in webkit_network_proxy_settings_new,
    # copying the capability's "noProxy" list) while it starts the automation session;
    # WebKitWebDriver then waits for a browser that is gone.
    address = f"http://127.0.0.1:{proxy.port}"
    args = [
        "--automation",
        f"--proxy={address}",
        "--ignore-host=127.0.0.1",
        "--ignore-host=localhost",
    ]
    return {
        "webkitgtk:browserOptions": {"binary": minibrowser(), "args": args},
        "unhandledPromptBehavior": "accept",
    }


def start_webkit_driver(display: str, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    with log.open("ab") as output:
        driver = subprocess.Popen(
            [WEBKIT_DRIVER, f"--port={port}", "--host=127.0.0.1"],
            env={**os.environ, "DISPLAY": display},
            stdout=output,
            stderr=output,
            start_new_session=True,
        )

    def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    wait_until(listening, "WebKitWebDriver")
    return driver, port


@contextmanager
def webkit(proxy: RecordingProxy, log: Path) -> Iterator[Engine]:
    with xvfb(log) as display:
        driver, port = start_webkit_driver(display, log)
        try:
            session = Session(
                HttpTransport(f"http://127.0.0.1:{port}", new_session_timeout=60),
                webkit_capabilities(proxy),
            )
        except BaseException:
            stop(driver)
            raise
        try:
            session.call("SetWindowRect", WINDOW)
            yield Engine("webkit", session, proxy, driver.pid)
        finally:
            session.close()
            stop(driver)


@contextmanager
def launch(name: str, log: Path) -> Iterator[Engine]:
    """A fresh browser of engine `name` ("firefox" or "webkit") with a fresh profile."""
    proxy = RecordingProxy()
    try:
        with (firefox if name == "firefox" else webkit)(proxy, log) as engine:
            yield engine
    finally:
        proxy.close()
