"""Shared fixtures: the built site, a local server for it, headless Chromium, and Pyodide
under Node.js."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from filelock import FileLock

from tests.pyodide import PyodideRunner
from tests.siteserver import StaticServer, copy_site

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def mkdocs_command(
    site_dir: Path, config: Path | None = None, site_url: str | None = None
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of ``mkdocs build --strict`` (as the README's)."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]
    if config is not None:
        command += ["--config-file", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if site_url is not None:
        env["SITE_URL"] = site_url
    return command, env


def mkdocs_build(
    site_dir: Path, config: Path | None = None, site_url: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` (as the README's commands do)."""
    command, env = mkdocs_command(site_dir, config, site_url)
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)


def small_site(tmp_path: Path, pages: dict[str, str]) -> Path:
    """A site of its own with the course's configuration and only ``pages`` (name -> Markdown),
    without a nav (MkDocs then lists every page). Returns its ``mkdocs.yml``."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs" / "assets", docs / "assets")
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    text = (ROOT / "mkdocs.yml").read_text()
    text = text[: text.index("nav:")] + text[text.index("hooks:") :]
    text = text.replace("docs_dir: docs", f"docs_dir: {docs}")
    text = text.replace("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}")
    text = text.replace(
        "  - lessonkit/build/mkdocs_hooks.py",
        f"  - {ROOT / 'lessonkit' / 'build' / 'mkdocs_hooks.py'}",
    )
    text = text.replace("watch:\n  - pysim\n  - lessonkit\n  - frontend/src\n", "")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"docs_dir: {docs}\n" + text)
    return config


@contextmanager
def served_small_site(root: Path, pages: dict[str, str]) -> Iterator[str]:
    """Build ``small_site(root, pages)`` (with a start page) for a server of its own and serve
    it while the block runs; yields the site's address."""
    server = StaticServer(root / "site")
    try:
        config = small_site(root, {"index.md": "# Start\n", **pages})
        result = mkdocs_build(root / "site", config, site_url=server.url)
        assert result.returncode == 0, result.stdout + result.stderr
        yield server.url
    finally:
        server.close()


def zensical_command(site: Path, site_url: str) -> tuple[list[str], dict[str, str]]:
    """``scripts/build-zensical`` into ``site``, for the address ``site_url``."""
    env = {**os.environ, "SITE_URL": site_url, "LESSONKIT_SKIP_SETUP": "1"}
    return [str(ROOT / "scripts" / "build-zensical"), str(site)], env


#: The whole course's builds a test session may need: the fixture that serves each, the
#: fixtures that need it, and its command for (folder, the address it will be served at).
BuildCommand = Callable[[Path, str], tuple[list[str], dict[str, str]]]
WHOLE_BUILDS: dict[str, tuple[set[str], BuildCommand]] = {
    "site": (
        {"site_server", "built_site", "site_url"},
        lambda site, url: mkdocs_command(site, site_url=url),
    ),
    "zensical-site": ({"zensical_server", "zensical_site"}, zensical_command),
}


class WholeBuild:
    """One build of the whole course, running in the background, and its server.

    The server's port is chosen first: Material's instant navigation only treats links as
    internal when the sitemap's addresses carry the page's port, so the build is told it.
    When the build ends, its exit code goes into ``outcome`` next to the site, for the
    other test processes (``SharedBuild``).
    """

    def __init__(self, folder: Path, command: BuildCommand) -> None:
        self.server = StaticServer(folder / "site")
        self.log = folder / "build.log"
        argv, env = command(self.server.directory, self.server.url)
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        outcome = folder / "outcome"
        self._watch = threading.Thread(
            target=lambda: outcome.write_text(str(self.process.wait())), daemon=True
        )
        self._watch.start()

    def served(self) -> StaticServer:
        """The server, once the build has succeeded (a failed build fails the test)."""
        code = self.process.wait()
        assert code == 0, self.log.read_text(errors="replace")
        return self.server

    def close(self, others_may_need_it: bool) -> None:
        if self.process.poll() is None and not others_may_need_it:
            self.process.kill()
        self.process.wait()
        self._watch.join()
        self.server.close()


class SharedBuild:
    """A build another test process (an xdist worker) runs: once it has succeeded, a
    copy of its site on a server of this process, the sitemap rewritten to that server
    (as ``copy_site`` does)."""

    def __init__(self, folder: Path, url: str, copy_to: Path) -> None:
        self.folder = folder
        self.url = url
        self.copy_to = copy_to
        self.server: StaticServer | None = None

    def served(self) -> StaticServer:
        if self.server is None:
            outcome = self.folder / "outcome"
            while not outcome.exists():  # the builder writes it when its build ends
                time.sleep(0.2)
            log = (self.folder / "build.log").read_text(errors="replace")
            assert outcome.read_text() == "0", log
            self.server = StaticServer(self.copy_to)
            copy_site(self.folder / "site", self.url, self.copy_to, self.server.url)
        return self.server

    def close(self, others_may_need_it: bool) -> None:
        if self.server is not None:
            self.server.close()


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every test process of this run shares: the run's temporary folder
    (each xdist worker has a folder of its own inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def generated_assets(tmp_path_factory: pytest.TempPathFactory) -> None:
    """docs/assets/generated/, made once before any test builds a site: with several test
    processes, one makes it while the others wait (two writing it at once would mix
    files); the others find it up to date."""
    with FileLock(shared_folder(tmp_path_factory) / "assets.lock"):
        assets = subprocess.run(
            [sys.executable, "-m", "lessonkit.build.assets"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    assert assets.returncode == 0, assets.stdout + assets.stderr


@pytest.fixture(scope="session")
def whole_builds(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, WholeBuild | SharedBuild]]:
    """Every whole-course build this run's tests need, started together the first time one
    is needed: the MkDocs and the Zensical build then share the two cores instead of
    running one after the other (about 55 and 45 s alone). With several test processes
    (xdist), the first to need them builds; the others serve copies of its sites."""
    needed = set().union(*(item.fixturenames for item in request.session.items))
    names = [name for name, (fixtures, _) in WHOLE_BUILDS.items() if fixtures & needed]
    shared = shared_folder(tmp_path_factory)
    started = shared / "whole-builds.json"
    builds: dict[str, WholeBuild | SharedBuild] = {}
    with FileLock(shared / "whole-builds.lock"):
        if started.exists():
            record = json.loads(started.read_text())
            for name in names:
                folder, url = record[name]
                copy_to = tmp_path_factory.mktemp(name) / "site"
                builds[name] = SharedBuild(Path(folder), url, copy_to)
        else:
            for name in names:
                folder = shared / f"whole-{name}"
                folder.mkdir()
                builds[name] = WholeBuild(folder, WHOLE_BUILDS[name][1])
            record = {
                name: (str(build.server.directory.parent), build.server.url)
                for name, build in builds.items()
                if isinstance(build, WholeBuild)
            }
            started.write_text(json.dumps(record))
    try:
        yield builds
    finally:
        for build in builds.values():
            build.close(others_may_need_it=bool(os.environ.get("PYTEST_XDIST_WORKER")))


@pytest.fixture(scope="session")
def site_server(whole_builds: dict[str, WholeBuild | SharedBuild]) -> StaticServer:
    """The server for the course built with MkDocs, once per test session."""
    return whole_builds["site"].served()


@pytest.fixture(scope="session")
def built_site(site_server: StaticServer) -> Path:
    """The whole course, built strictly once per test session, for ``site_server``'s address."""
    return site_server.directory


@pytest.fixture(scope="session")
def site_url(built_site: Path, site_server: StaticServer) -> str:
    """The address of the built site."""
    return site_server.url


@pytest.fixture(scope="session")
def zensical_server(whole_builds: dict[str, WholeBuild | SharedBuild]) -> StaticServer:
    """The server for the course built with Zensical, once per test session."""
    return whole_builds["zensical-site"].served()


@pytest.fixture(scope="session")
def zensical_site(zensical_server: StaticServer) -> Path:
    """The whole course, built strictly with Zensical, once per test session."""
    return zensical_server.directory


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} fehlt: `apt-get install chromium` (scripts/test does it as root)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def pyodide(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PyodideRunner]:
    """Real Pyodide under Node.js, started once for every Pyodide test of the session."""
    runner = PyodideRunner(tmp_path_factory.mktemp("pyodide") / "node-stderr.txt")
    try:
        yield runner
    finally:
        runner.close()


#: With LK_TIMELINE set to a file, each test's process, start and end go into it (one
#: line per test; benchmarks/bench_suite.py reads it to show where a process stood idle).
TIMELINE = os.environ.get("LK_TIMELINE")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    start = time.time()
    yield
    if TIMELINE:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
        with open(TIMELINE, "a") as out:
            out.write(f"{worker}\t{start:.3f}\t{time.time():.3f}\t{item.nodeid}\n")


#: Tests that need no build of the whole course, run first: while one test process waits
#: for the whole-course builds (about a minute, in which they leave most of a core idle),
#: the other runs these.
FIRST = "tests/pysim/"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))  # stable: order kept


def scope_of(nodeid: str) -> str:
    """What one test process runs from start to end, in order, when xdist spreads the
    tests over several: a test file (its module fixtures and its order hold), all of
    ``FIRST`` (one process runs it while the other waits for the builds), the
    Firefox/WebKit tests together (one browser per engine, in the order
    tests/engines/conftest.py sets)."""
    path = nodeid.split("::")[0]
    if path.startswith("tests/engines/"):
        return "tests/engines"
    if path.startswith(FIRST):
        return FIRST
    return path


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """xdist's scope scheduling, by ``scope_of``, in the order of collection (the browser
    tests, which take longest, first; the unit tests fill in at the end)."""
    from xdist.scheduler import LoadScopeScheduling

    class CourseScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    config.option.loadscopereorder = False
    return CourseScheduling(config, log)
