"""Benchmark: how fast a reader gets Python's answers, and what the site costs in bytes.

Prints figures; asserts nothing. Usage (after ./scripts/setup):

    .venv/bin/python benchmarks/bench_site.py [--runs 5]

Builds the site into a temporary folder for a server on 127.0.0.1 that sends
``Cache-Control: max-age=600`` (what GitHub Pages sends), then drives Debian's
Chromium headless. Per run, a new browser profile in a browser that has finished
starting up (a freshly launched Chromium spends ~0.6 s of processor time on itself in
its first second, which a reader's running browser does not); the page clicks the
first cell's ``Ausführen`` itself the moment the button exists (Playwright's click
would poll the page for the button, costing the page's main thread time a reader's
click does not):

* snapshot start, cold: navigate to the first page, ``Ausführen`` clicked at once;
  time from navigation start until the cell's first output is on screen;
* warm, HTTP cache only: a new tab in the same profile before the service worker
  took over (files from the browser's HTTP cache, the snapshot from the Cache API);
* second run: clicking ``Ausführen`` again once Python is loaded;
* console: a command's round trip (typed, Enter, answer and picture on screen);
* second page: follow a navigation link (instant navigation), click ``Ausführen`` at
  once; time from the click until the output is on screen;
* snapshot start, warm: a new tab in the same profile, once the service worker has
  stored the site for offline use (files from its cache, the inflated snapshot from the
  Cache API): what a returning reader gets;
* plain start, cold and warm: the same with the snapshot unavailable (the worker falls
  back to booting Python);
* worker alone, cold and warm: a bare page that only starts the Python worker and runs
  one cell through it: what the same start costs without the Material page around it;
* bytes of the first visit and of the second page: raw, and as a static host serves
  them (gzip -6 for compressible types; zip, gzip and images as they are).

``--engine firefox`` or ``--engine webkit`` measures Debian's Firefox ESR or WebKitGTK
instead, driven by WebDriver (tests/engines/): per run a fresh browser and profile,
given two seconds to settle; the first page carries a same-origin copy of the clicking
script (WebDriver has no init scripts). It prints Python ready and first output, cold
(new profile) and warm (the same page again once the service worker has stored the
site), and the second run; the plain start, the second page and the bytes are
Chromium's figures only.

``--network`` measures a cold first visit on slower connections (issue 38): per profile
(20 Mbit/s with 40 ms, 8 Mbit/s with 80 ms, the processor unthrottled), a fresh profile
per run, the server compressing like a static host (gzip -6 for text, JavaScript, JSON
and WebAssembly) and sending every response over one shared link of that rate after
the latency (tests/siteserver.py; Chromium's own network emulation left a nested
worker's download unthrottled). It prints
navigation → Python ready and → first output, and the bytes the server sent (every
request, those of nested workers too): until Python was ready, and for the whole visit
once the offline copy is complete.

``--throttle`` measures instead what a reader on a slow phone sees of the start
(issue 17): a cold profile, the processor 4× slower and the connection at 5 Mbit/s
down, 1 Mbit/s up, 40 ms latency (Chromium's DevTools protocol:
``Emulation.setCPUThrottlingRate``, ``Network.emulateNetworkConditions``); it prints
when the first cell's status first said "Python wird geladen …", when bytes first
showed, when "Python startet …" came and the first output, and the status line over time.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.siteserver import StaticServer  # noqa: E402

FIRST_PAGE = "erste-schritte/"
SECOND_PAGE_LINK = "Queues und Idempotenz"
CELL = "[data-lk-cell]:not([hidden])"
BARE_PAGE = "bench-worker-alone.html"
BARE_HTML = """<!doctype html><html lang="de"><head><meta charset="utf-8"><script>
const worker = new Worker("assets/generated/js/worker.js", { type: "module", name: "python" });
worker.onmessage = (event) => {
  if (event.data.type === "ready")
    worker.postMessage({ type: "run", id: 1, session: "s", code: "x = 1\\nx + 1", label: "Zelle 1" });
  if (event.data.type === "result") window.firstOutput = performance.now() / 1000;
};
</script></head><body></body></html>
"""
COMPRESSIBLE = ("text/", "javascript", "json", "xml", "svg", "wasm")


class Transfer:
    """Bytes of the responses a page received, raw and as a static host would send them."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[int, int]] = {}

    def record(self, response: object) -> None:
        try:
            body: bytes = response.body()  # type: ignore[attr-defined]
        except Exception:  # redirects and aborted requests have no body
            return
        kind = response.headers.get("content-type", "")  # type: ignore[attr-defined]
        served = len(gzip.compress(body, 6)) if any(k in kind for k in COMPRESSIBLE) else len(body)
        self.files[response.url] = (len(body), served)  # type: ignore[attr-defined]

    def totals(self) -> tuple[float, float]:
        return (
            sum(raw for raw, _ in self.files.values()) / 1e6,
            sum(served for _, served in self.files.values()) / 1e6,
        )

    def largest(self, count: int = 6) -> str:
        files = sorted(self.files.items(), key=lambda item: -item[1][1])[:count]
        return ", ".join(
            f"{url.rsplit('/', 1)[-1] or url} {served / 1e6:.2f}" for url, (_, served) in files
        )


# Added to every page of a benchmark profile: clicks the first visible cell's Ausführen
# the moment it exists and resolves `window.lkBench` with performance.now() (ms since
# navigation start) when the cell's first output is in the page: the click empties the
# output at once, and the first printed line, value or error fills it (a cell's output
# streams, so a cell that prints and then waits shows its first line first). Observers,
# no polling.
CLICK_AT_ONCE = """
window.lkBench = new Promise((resolve) => {
  const watch = (cell) => {
    const output = cell.querySelector("output");
    // The page keeps the build's output until the new one arrives: forget it first.
    output.replaceChildren();
    new MutationObserver(() => {
      if (output.textContent !== "") resolve(performance.now());
    }).observe(output, { childList: true, subtree: true, characterData: true });
    cell.querySelector(".lk-button--run").click();
  };
  const find = new MutationObserver(() => {
    const cell = document.querySelector("[data-lk-cell]:not([hidden])");
    if (cell && cell.querySelector(".lk-button--run")) {
      find.disconnect();
      watch(cell);
    }
  });
  find.observe(document, { childList: true, subtree: true });
});
"""


#: The first cell's status line and progress over time, for ``--throttle``.
WATCH_STATUS = """
window.lkStatus = [];
new MutationObserver(() => {
  const cell = document.querySelector("[data-lk-cell]:not([hidden])");
  const status = cell && cell.querySelector(".lk-cell__status");
  if (!status) return;
  const progress = cell.querySelector(".lk-cell__progress");
  const text = `${status.textContent} ${progress ? progress.textContent : ""}`.trim();
  const last = window.lkStatus[window.lkStatus.length - 1];
  if (text && (!last || last[1] !== text)) window.lkStatus.push([performance.now(), text]);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""

#: 5 Mbit/s down, 1 Mbit/s up, 40 ms (bytes per second for the DevTools protocol).
SLOW_NETWORK = {
    "offline": False,
    "latency": 40,
    "downloadThroughput": 5_000_000 / 8,
    "uploadThroughput": 1_000_000 / 8,
}


def throttled(server: StaticServer, runs: int, first_page: str) -> None:
    """A cold start on a slow phone: what the reader sees while Python loads (--throttle)."""
    from playwright.sync_api import sync_playwright

    url = server.url + first_page
    found: dict[str, list[float]] = {}
    with sync_playwright() as playwright:
        for run in range(runs):
            with tempfile.TemporaryDirectory() as folder:
                context = open_profile(playwright, folder)
                context.add_init_script(WATCH_STATUS)
                page = context.new_page()
                page.set_default_timeout(600_000)
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                output = first_output(page, url)
                timeline: list[list[object]] = page.evaluate("window.lkStatus")
                context.close()
            marks = {
                "status says „Python wird geladen …“": next(
                    (t for t, text in timeline if "geladen" in str(text)), None
                ),
                "first bytes shown": next((t for t, text in timeline if "MB" in str(text)), None),
                "status says „Python startet …“": next(
                    (t for t, text in timeline if "startet" in str(text)), None
                ),
            }
            for name, value in marks.items():
                if value is not None:
                    found.setdefault(name, []).append(float(value) / 1000)  # type: ignore[arg-type]
            found.setdefault("first output", []).append(output)
            if run == 0:
                print("  status of the first cell over time (run 1):")
                shown = -10.0
                for t, text in timeline:
                    if float(t) / 1000 - shown >= 2 or "MB" not in str(text):  # type: ignore[arg-type]
                        shown = float(t) / 1000  # type: ignore[arg-type]
                        print(f"    {shown:6.1f} s  {text}")
    print(f"Throttled cold start of /{first_page} (CPU 4×, 5 Mbit/s), {runs} runs")
    for name, values in found.items():
        shown = ", ".join(f"{v:.1f}" for v in values)
        print(
            f"{name + ': navigation ->':<52} median {statistics.median(values):6.1f} s   ({shown})"
        )


#: (name, bits per second down, latency in ms) of ``--network``.
NETWORKS = (("20 Mbit/s, 40 ms", 20_000_000, 40), ("8 Mbit/s, 80 ms", 8_000_000, 80))


def sent_since(server: StaticServer, start: int) -> tuple[float, dict[str, int]]:
    """MB the server sent since its ``start``-th response, and bytes per file."""
    files: dict[str, int] = {}
    for path, size, _arrived, _done in server.sent[start:]:
        name = path.split("?", 1)[0].rsplit("/", 1)[-1] or path
        files[name] = files.get(name, 0) + size
    return sum(files.values()) / 1e6, files


def timeline(server: StaticServer, start: int, began: float, ready: float) -> None:
    """When each response over 20 kB was asked for and finished, seconds since navigation."""
    print("    timeline of run 1 (s since navigation: asked -> last byte, MB, file):")
    for path, size, arrived, done in server.sent[start:]:
        if size > 20_000 and arrived - began <= ready:
            name = path.split("?", 1)[0].rsplit("/", 1)[-1] or path
            print(f"      {arrived - began:6.2f} -> {done - began:6.2f}  {size / 1e6:5.2f}  {name}")


def worker_stages(stages: dict[str, int], ready: float) -> None:
    """The worker's boot stages in seconds since navigation (its last stage is "ready")."""
    shift = ready - max(stages.values()) / 1000
    shown = ", ".join(f"{name} {shift + ms / 1000:.2f}" for name, ms in stages.items())
    print(f"    worker stages (s since navigation): {shown}")


def largest(files: dict[str, int], count: int = 6) -> str:
    top = sorted(files.items(), key=lambda item: -item[1])[:count]
    return ", ".join(f"{name} {size / 1e6:.2f}" for name, size in top)


def networked(site: Path, runs: int, first_page: str) -> None:
    """A cold first visit on slower connections, gzip as a static host serves (--network)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        for name, bits, latency in NETWORKS:
            server = StaticServer(site, cache_seconds=600, gzip=True, link=(bits, latency / 1000))
            url = server.url + first_page
            figures = Figures()
            files_ready: dict[str, int] = {}
            files_visit: dict[str, int] = {}
            for run in range(runs):
                with tempfile.TemporaryDirectory() as folder:
                    context = open_profile(playwright, folder)
                    page = context.new_page()
                    page.set_default_timeout(600_000)
                    start = len(server.sent)
                    began = time.monotonic()
                    output = first_output(page, url)
                    ready = page.evaluate("window.lessonkit.runtime.readyAt") / 1000
                    ready_mb, files_ready = sent_since(server, start)
                    if run == 0:
                        timeline(server, start, began, ready)
                        worker_stages(page.evaluate("window.lessonkit.runtime.readyStages"), ready)
                    page.locator("html[data-lk-offline]").wait_for(state="attached")
                    visit_mb, files_visit = sent_since(server, start)
                    figures.add("navigation -> Python ready", ready)
                    figures.add("navigation -> first output", output)
                    figures.add("MB sent until Python ready", ready_mb)
                    figures.add("MB sent in the whole visit (offline copy done)", visit_mb)
                    context.close()
            server.close()
            print(f"Cold first visit of /{first_page}, {name}, gzip as served, {runs} runs")
            for line in figures.values:
                figures.line(line, 1, "" if line.startswith("MB") else "s")
            print(f"    largest until ready (MB): {largest(files_ready)}")
            print(f"    largest in the visit (MB): {largest(files_visit)}")


def browser_cpu_seconds(profile: str) -> float:
    """Processor seconds used so far by the Chromium processes of one profile (Linux)."""
    total = 0.0
    for proc in Path("/proc").iterdir():
        try:
            if profile not in (proc / "cmdline").read_text():
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def open_profile(playwright: object, folder: str, script: str | None = CLICK_AT_ONCE) -> object:
    """A fresh profile in a Chromium that has finished starting up (see the docstring),
    ``script`` added to every page (by default: Ausführen clicked at once)."""
    context = playwright.chromium.launch_persistent_context(  # type: ignore[attr-defined]
        folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )
    if script is not None:
        context.add_init_script(script)
    deadline = time.monotonic() + 5
    used = browser_cpu_seconds(folder)
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = browser_cpu_seconds(folder)
        if now - used < 0.02:  # a quarter of a second with (almost) nothing to do
            break
        used = now
    return context


def first_output(page: object, url: str) -> float:
    """Navigate (Ausführen is clicked by CLICK_AT_ONCE); seconds until the output is there."""
    page.goto(url, wait_until="commit")  # type: ignore[attr-defined]
    return page.evaluate("window.lkBench") / 1000  # type: ignore[attr-defined]


CLICK_AND_WAIT = """async () => {
    const cell = document.querySelector('[data-lk-cell]:not([hidden])');
    const start = performance.now();
    cell.querySelector('.lk-button--run').click();
    while (cell.dataset.state !== 'done') await new Promise(r => setTimeout(r, 1));
    return (performance.now() - start) / 1000;
}"""


def second_run(page: object) -> float:
    return page.evaluate(CLICK_AND_WAIT)  # type: ignore[attr-defined]


def second_page(page: object) -> float:
    """Follow a navigation link (instant navigation), then run the first cell at once."""
    page.get_by_role("navigation").get_by_role("link", name=SECOND_PAGE_LINK).first.click()  # type: ignore[attr-defined]
    page.locator("html[data-lk-page='2']").wait_for(state="attached")  # type: ignore[attr-defined]
    return page.evaluate(CLICK_AND_WAIT)  # type: ignore[attr-defined]


def console_round_trip(page: object) -> float:
    """Seconds from submitting a console command until its answer is in the page."""
    return page.evaluate(  # type: ignore[attr-defined]
        """async () => {
            const root = document.querySelector('[data-lk-console][data-kind=log]');
            const input = root.querySelector('input');
            const before = root.querySelectorAll('.lk-console__entry').length;
            const start = performance.now();
            input.value = 'offsets orders';
            input.form.requestSubmit();
            while (root.querySelectorAll('.lk-console__entry').length === before)
                await new Promise(r => setTimeout(r, 0));
            return (performance.now() - start) / 1000;
        }"""
    )


def console_build_seconds(site: Path) -> tuple[int, float]:
    """How long the build spends on the site's consoles: (count, seconds)."""
    from bs4 import BeautifulSoup

    from lessonkit.runtime.consoles import ConsoleSessions

    setups = []
    for path in site.rglob("*.html"):
        for element in BeautifulSoup(path.read_text(), "html.parser").select(".lk-console__data"):
            data = json.loads(element["data-lk-json"])
            setups.append((data["kind"], data["options"], data["setup"]))
    start = time.perf_counter()
    for kind, options, setup in setups:
        ConsoleSessions().get("k", kind, options, setup)
    return len(setups), time.perf_counter() - start


class Figures:
    def __init__(self) -> None:
        self.values: dict[str, list[float]] = {}
        self.stages: dict[str, list[dict[str, int]]] = {}

    def add(self, name: str, value: float) -> None:
        self.values.setdefault(name, []).append(value)

    def line(self, name: str, unit: float = 1.0, suffix: str = "s") -> None:
        values = self.values[name]
        shown = ", ".join(f"{v * unit:.3f}" for v in values)
        print(f"{name:<46} median {statistics.median(values) * unit:7.3f} {suffix}   ({shown})")


def measure(server: StaticServer, runs: int, first_page: str) -> tuple[Figures, Transfer, Transfer]:
    from playwright.sync_api import sync_playwright

    figures = Figures()
    first_visit, second_visit = Transfer(), Transfer()
    url = server.url + first_page
    with sync_playwright() as playwright:

        def profile(plain: bool, body: Callable[[object], None]) -> None:
            with tempfile.TemporaryDirectory() as folder:
                context = open_profile(playwright, folder)
                if plain:
                    context.route("**/snapshot-*", lambda route: route.fulfill(status=404))
                body(context)
                context.close()

        for run in range(runs):

            def snapshot_start(context: object, run: int = run) -> None:
                page = context.new_page()  # type: ignore[attr-defined]
                if run == 0:
                    page.on("response", first_visit.record)
                figures.add(
                    "snapshot start, cold: navigation -> first output", first_output(page, url)
                )
                stages = page.evaluate("window.lessonkit.runtime.readyStages")
                figures.stages.setdefault("snapshot", []).append(stages)
                figures.add("second run: click -> output", second_run(page))
                if page.locator("[data-lk-console][data-kind=log]").count():
                    figures.add(
                        "console command: Enter -> answer on screen",
                        statistics.median(console_round_trip(page) for _ in range(5)),
                    )
                if run == 0:
                    page.wait_for_load_state("networkidle")
                    page.remove_listener("response", first_visit.record)
                    page.on("response", second_visit.record)
                figures.add("second page: click -> first output", second_page(page))
                if run == 0:
                    page.wait_for_load_state("networkidle")
                page.close()
                page = context.new_page()  # type: ignore[attr-defined]
                figures.add(
                    "snapshot start, warm, HTTP cache only: navigation -> first output",
                    first_output(page, url),
                )
                # A returning reader finds the offline cache complete: wait for it.
                page.locator("html[data-lk-offline]").wait_for(state="attached", timeout=60_000)
                page.close()
                page = context.new_page()  # type: ignore[attr-defined]
                figures.add(
                    "snapshot start, warm: navigation -> first output", first_output(page, url)
                )

            def plain_start(context: object) -> None:
                page = context.new_page()  # type: ignore[attr-defined]
                figures.add(
                    "plain start, cold: navigation -> first output", first_output(page, url)
                )
                page.close()
                page = context.new_page()  # type: ignore[attr-defined]
                figures.add(
                    "plain start, warm: navigation -> first output", first_output(page, url)
                )

            def worker_alone(context: object) -> None:
                for name in ("worker alone, cold", "worker alone, warm"):
                    page = context.new_page()  # type: ignore[attr-defined]
                    page.goto(server.url + BARE_PAGE)
                    page.wait_for_function("() => typeof window.firstOutput === 'number'")
                    figures.add(
                        f"{name}: navigation -> first output", page.evaluate("window.firstOutput")
                    )
                    page.close()

            profile(False, snapshot_start)
            profile(True, plain_start)
            profile(False, worker_alone)
    return figures, first_visit, second_visit


def measure_engine(engine: str, server: StaticServer, runs: int, first_page: str) -> Figures:
    """Firefox or WebKit through WebDriver (see the docstring)."""
    from tests.engines.browsers import launch

    script = "lk-bench-click.js"
    (server.directory / script).write_text(CLICK_AT_ONCE)
    html = server.directory / first_page / "index.html"
    html.write_text(
        html.read_text().replace("<head>", f'<head><script src="/{script}"></script>', 1)
    )
    figures = Figures()
    url = server.url + first_page
    for _ in range(runs):
        with (
            tempfile.TemporaryDirectory() as folder,
            launch(engine, Path(folder) / "log") as browser,
        ):
            time.sleep(2)
            session = browser.session
            for name in ("cold", "warm"):
                session.goto(url)
                first = session.js_async("return await window.lkBench") / 1000
                ready = session.js("return window.lessonkit.runtime.readyAt") / 1000
                figures.add(f"snapshot start, {name}: navigation -> Python ready", ready)
                figures.add(f"snapshot start, {name}: navigation -> first output", first)
                stages = session.js("return window.lessonkit.runtime.readyStages")
                figures.stages.setdefault("snapshot", []).append(stages)
                if name == "cold":
                    figures.add(
                        "second run: click -> output",
                        session.js_async(f"return await ({CLICK_AND_WAIT})()"),
                    )
                    session.wait_for(
                        "return document.documentElement.hasAttribute('data-lk-offline')",
                        message="the offline copy",
                    )
            assert browser.proxy.attempts == [], browser.proxy.attempts
    return figures


def build(site: Path, url: str) -> None:
    env = {**os.environ, "SITE_URL": url, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "--site-dir", str(site)]
    subprocess.run(command, cwd=ROOT, check=True, env=env)


def print_stages(figures: Figures) -> None:
    stages = figures.stages["snapshot"]
    names = [name for name in stages[0] if all(name in s for s in stages)]
    print("  worker stages, ms since the worker started (median):")
    print("    " + ", ".join(f"{n} {statistics.median(s[n] for s in stages):.0f}" for n in names))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page", default=FIRST_PAGE, help="the first page (a page with cells)")
    parser.add_argument("--engine", choices=("chromium", "firefox", "webkit"), default="chromium")
    parser.add_argument(
        "--throttle", action="store_true", help="a cold start with CPU 4× slower and 5 Mbit/s"
    )
    parser.add_argument(
        "--network", action="store_true", help="a cold first visit at 20 and 8 Mbit/s (gzip)"
    )
    args = parser.parse_args()
    if (args.throttle or args.network) and args.engine != "chromium":
        parser.error("--throttle needs Chromium (its DevTools protocol)")
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        server = StaticServer(site, cache_seconds=600)
        build(site, server.url)
        if args.network:
            server.close()
            networked(site, args.runs, args.page)
            return
        if args.throttle:
            throttled(server, args.runs, args.page)
            server.close()
            return
        if args.engine != "chromium":
            figures = measure_engine(args.engine, server, args.runs, args.page)
            server.close()
            print(f"{args.engine}, first page /{args.page}, {args.runs} runs")
            for name in figures.values:
                unit, suffix = (1000, "ms") if "run:" in name else (1, "s")
                figures.line(name, unit, suffix)
            print_stages(figures)
            return
        (site / BARE_PAGE).write_text(BARE_HTML)
        figures, first_visit, second_visit = measure(server, args.runs, args.page)
        server.close()
        count, seconds = console_build_seconds(site)

    print(f"First page /{args.page}, second page „{SECOND_PAGE_LINK}“, {args.runs} runs")
    for name in figures.values:
        unit, suffix = (1000, "ms") if "run:" in name or "console" in name else (1, "s")
        figures.line(name, unit, suffix)
    print_stages(figures)
    print(f"{'build time of the site consoles':<46} {seconds * 1000:7.1f} ms for {count} consoles")
    for name, transfer in (("first visit", first_visit), ("second page", second_visit)):
        raw, served = transfer.totals()
        print(f"{'bytes, ' + name + ' (raw / as served)':<46} {raw:7.2f} MB / {served:.2f} MB")
        print(f"    largest as served (MB): {transfer.largest()}")


if __name__ == "__main__":
    main()
