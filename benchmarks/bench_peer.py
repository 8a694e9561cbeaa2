"""Benchmark: this course against its peer, pyodide-mkdocs-theme, on one server (issue 53).

Prints figures; asserts nothing but that no request left the server. Usage (after
./scripts/setup; the first run also installs the peer, ~1 min):

    flock /work/briefs/browser.lock .venv/bin/python benchmarks/bench_peer.py [--runs 5]

Builds this course and the peer's starter site (benchmarks/peer_site.py: PyPI's
pyodide-mkdocs-theme in a throwaway environment, its CDN files from npm tarballs of the
versions it pins) into one folder, the course at ``/``, the peer at ``/peer/``, served by
the project's test server (tests/siteserver.py) compressing like a static host. Per
connection (fast: 127.0.0.1 as it is; 20 Mbit/s with 40 ms and 8 Mbit/s with 80 ms over
the server's one shared link, which counts every byte of every worker) it measures the
two in interleaved pairs (the order alternating), each in a fresh Chromium profile (cold),
on one clock: the page's ``performance.now()``, milliseconds since navigation start.

What is typed and clicked, the same in both: once the first code editor is in the page
(the course: the first visible cell's CodeMirror; the peer: the first IDE's ACE editor),
it is scrolled into view and focused, Ctrl+A selects its code and ``print(6 * 7)`` is
typed over it (Playwright's keyboard: real key events, no delay between keys); then the
run button is clicked at once, from the page (the course: ``Ausführen``; the peer: the
IDE's "Code ausführen", which waits for Pyodide by itself). Measured:

* first live output: navigation → ``42`` in the cell's output (the course: the cell's
  ``<output>``, emptied of the build's output before the click; the peer: its terminal);
* Python ready: navigation → the course's runtime reports ``ready``
  (``lessonkit.runtime.readyAt``); the peer's hourglass leaves the header (the theme
  sets ``pyodideIsReady`` in the same step);
* MB the server sent until Python was ready (responses finished by then).

Every request of the pages and their workers is recorded: one to another origin ends the
benchmark with an error (the peer would otherwise be fetching from its CDN). ``--screenshot
FILE`` saves the peer's page after its first output (run 1, fast connection).

``--only fast,20,8,phone`` picks the connections (default: the first three); ``phone`` is
issue 17's slow phone: 5 Mbit/s with 40 ms over the server's link and the processor 4×
slower (``Emulation.setCPUThrottlingRate``).

``--also NAME=DIR`` adds another built course (another commit's, e.g. main's: ``mkdocs
build --site-dir DIR``), served at ``/NAME/`` and measured in the same rounds: before and
after a change on one clock, each against the same peer runs. The order of the courses
rotates round by round.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_site import FIRST_PAGE, NETWORKS, build, open_profile  # noqa: E402
from peer_site import build_peer  # noqa: E402

from tests.siteserver import StaticServer  # noqa: E402

#: (name, container of the first code editor, its editor, its run button, its output).
COURSES = (
    (
        "this course",
        FIRST_PAGE,
        "[data-lk-cell]:not([hidden])",
        ".cm-content",
        ".lk-button--run",
        "output",
    ),
    (
        "pyodide-mkdocs-theme",
        "peer/",
        ".py_mk_ide",
        ".ace_text-input",
        "button[btn_kind=play]",
        ".terminal-output",
    ),
)
TYPED = "print(6 * 7)"
EXPECTED = "42"

#: Added to every page: resolves ``window.lkEditor`` when the first code editor is in the
#: page (scrolled into view: the course mounts an editor near the viewport only), and
#: records when the peer's hourglass leaves the header (``window.lkPeerReady``).
WATCH = """
window.lkEditor = new Promise((resolve) => {
  const find = new MutationObserver(() => {
    const box = document.querySelector(CONTAINER);
    if (!box) return;
    if (!box.dataset.lkSeen) { box.dataset.lkSeen = "1"; box.scrollIntoView(); }
    if (box.querySelector(EDITOR)) { find.disconnect(); resolve(performance.now()); }
  });
  find.observe(document, { childList: true, subtree: true });
});
new MutationObserver((_, observer) => {
  const glass = document.querySelector("#header-hourglass-svg");
  if (glass && glass.getAttribute("class") === "py_mk_vanish" && !window.lkPeerReady) {
    window.lkPeerReady = performance.now();
    observer.disconnect();
  }
}).observe(document, { attributes: true, childList: true, subtree: true });
"""

#: Focus the first editor (the keyboard types into it next).
FOCUS = "([box, editor]) => document.querySelector(box).querySelector(editor).focus()"

#: Click run at once; resolves with performance.now() when the expected line is shown.
RUN = """([box, run, output, expected]) => new Promise((resolve) => {
  const root = document.querySelector(box);
  const out = root.querySelector(output);
  out.replaceChildren();  // the course keeps the build's output until the new one comes
  const check = () => {
    if (out.innerText.split("\\n").some((line) => line.trim() === expected)) {
      seen.disconnect();
      resolve(performance.now());
    }
  };
  const seen = new MutationObserver(check);
  seen.observe(out, { childList: true, subtree: true, characterData: true });
  root.querySelector(run).click();
})"""

#: (name, bits per second down, latency in ms, processor slowed down by); ``None``: the
#: server as it is. "phone" (``--only phone``): issue 17's slow phone, the link in the server.
Connection = tuple[str, int | None, int, int]
CONNECTIONS: tuple[Connection, ...] = (
    ("fast", None, 0, 1),
    *((name, bits, latency, 1) for name, bits, latency in NETWORKS),
    ("phone: 5 Mbit/s, 40 ms, processor 4× slower", 5_000_000, 40, 4),
)


class Foreign:
    """Every request of a browser profile (pages and workers) not for ``origin``."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.urls: list[str] = []

    def record(self, request: object) -> None:
        url: str = request.url  # type: ignore[attr-defined]
        if not url.startswith((self.origin, "data:", "blob:")):
            self.urls.append(url)


def one_visit(
    playwright: object,
    server: StaticServer,
    course: tuple[str, ...],
    screenshot: Path | None,
    slower: int = 1,
) -> dict[str, float]:
    """One cold visit: seconds to the first live output and to Python ready, MB until ready."""
    _name, page_path, box, editor, run, output = course
    with tempfile.TemporaryDirectory() as folder:
        context = open_profile(playwright, folder, None)
        context.add_init_script(  # type: ignore[attr-defined]
            WATCH.replace("CONTAINER", repr(box)).replace("EDITOR", repr(editor))
        )
        foreign = Foreign(server.url.rstrip("/"))
        context.on("request", foreign.record)  # type: ignore[attr-defined]
        page = context.new_page()  # type: ignore[attr-defined]
        if slower > 1:
            cdp = context.new_cdp_session(page)  # type: ignore[attr-defined]
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": slower})
        page.set_default_timeout(600_000)
        start = len(server.sent)
        began = time.monotonic()
        page.goto(server.url + page_path, wait_until="commit")
        page.evaluate("window.lkEditor")
        page.evaluate(FOCUS, [box, editor])
        page.keyboard.press("Control+A")
        page.keyboard.type(TYPED)
        shown = page.evaluate(RUN, [box, run, output, EXPECTED]) / 1000
        ready = page.evaluate(
            "window.lessonkit ? window.lessonkit.runtime.readyAt : window.lkPeerReady"
        )
        if screenshot is not None:
            page.screenshot(path=str(screenshot), full_page=False)
        context.close()  # type: ignore[attr-defined]
    if foreign.urls:
        raise SystemExit(f"requests to another origin: {sorted(set(foreign.urls))}")
    until = began + ready / 1000
    sent = sum(size for _path, size, _asked, done in server.sent[start:] if done <= until)
    return {
        "navigation -> first live output (typed)": shown,
        "navigation -> Python ready": ready / 1000,
        "MB sent until Python ready": sent / 1e6,
    }


def measure(
    site: Path,
    runs: int,
    screenshot: Path | None,
    courses: list[tuple[str, ...]],
    connections: tuple[Connection, ...] = CONNECTIONS[:3],
) -> None:
    """Every course (the peer last) once per round, the order rotating round by round."""
    from playwright.sync_api import sync_playwright

    peer = len(courses) - 1
    table: list[tuple[str, str, list[list[float]]]] = []
    with sync_playwright() as playwright:
        for connection, bits, latency, slower in connections:
            link = (bits, latency / 1000) if bits else None
            server = StaticServer(site, cache_seconds=600, gzip=True, link=link)
            # A profile closed mid-download (the course's offline copy) breaks a pipe: expected.
            server._server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
            found: list[dict[str, list[float]]] = [{} for _ in courses]
            for run in range(runs):
                for step in range(len(courses)):
                    which = (run + step) % len(courses)
                    shot = screenshot if (which == peer and run == 0 and bits is None) else None
                    figures = one_visit(playwright, server, courses[which], shot, slower)
                    for name, value in figures.items():
                        found[which].setdefault(name, []).append(value)
            server.close()
            print(f"{connection}: cold profiles, {runs} interleaved rounds, gzip as served")
            for name in found[0]:
                table.append((connection, name, [measured[name] for measured in found]))
                unit = "MB" if name.startswith("MB") else "s"
                for course, measured in zip(courses, found, strict=True):
                    shown = ", ".join(f"{v:.2f}" for v in measured[name])
                    median = statistics.median(measured[name])
                    print(f"  {name:<42} {course[0]:<21} median {median:6.2f} {unit} ({shown})")
    print()
    names = [course[0] for course in courses]
    print(f"| | {' | '.join(names)} | ratio{'s' if peer > 1 else ''} to the peer |")
    print("|---" * (len(courses) + 2) + "|")
    for connection, name, values in table:
        medians = [statistics.median(v) for v in values]
        unit = " MB" if name.startswith("MB") else " s"
        shown = " | ".join(f"{m:.2f}{unit}" for m in medians)
        ratios = ", ".join(f"**{m / medians[peer]:.2f}**" for m in medians[:peer])
        print(f"| {connection}, {name} | {shown} | {ratios} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screenshot", type=Path, help="the peer's page after its output")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="another built course (e.g. main's), served at /NAME/ and measured in each round",
    )
    parser.add_argument(
        "--only",
        default="fast,20,8",
        help="the connections by the start of their names: fast,20,8 (default), phone",
    )
    args = parser.parse_args()
    wanted = args.only.split(",")
    connections = tuple(c for c in CONNECTIONS if c[0].startswith(tuple(wanted)))
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        server = StaticServer(site, cache_seconds=600)
        build(site, server.url)
        build_peer(site / "peer", server.url + "peer/", "/peer/")
        server.close()
        courses = [COURSES[0]]
        for also in args.also:
            name, directory = also.split("=", 1)
            # Pages and assets are addressed relatively: a built course runs under /NAME/.
            shutil.copytree(Path(directory), site / name)
            courses.append((name, f"{name}/{FIRST_PAGE}", *COURSES[0][2:]))
        measure(site, args.runs, args.screenshot, [*courses, COURSES[1]], connections)


if __name__ == "__main__":
    main()
