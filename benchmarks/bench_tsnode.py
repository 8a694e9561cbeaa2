"""What the first TypeScript check costs (issue 55): the TypeScript node runtime's chunk
(TypeScript's compiler inside) loaded in a fresh Chromium worker, as served gzip, then the
first compile of a node and its first steps; and one seed of Echo as Python and as
TypeScript in Pyodide under Node.js (the runtime through Pyodide's JavaScript bridge).

    .venv/bin/python benchmarks/bench_tsnode.py [--runs 5] [--link 20,40] [--no-pyodide]

Needs `node frontend/build.mjs` (the chunk in docs/assets/generated/js/chunks/). The node is
compiled and imported as a module from a `blob:` address first (`prepare`), as the Python
worker does; `--csp` puts the site's Content-Security-Policy on the page (ARCHITECTURE.md,
"TypeScript nodes").
`--link MBIT,MS`: the server sends over a link that slow (tests/siteserver.py).
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.siteserver import StaticServer  # noqa: E402

JS = ROOT / "docs" / "assets" / "generated" / "js"
ECHO_TS = (
    "class Zurufer extends Node {\n"
    "  onEcho(msg: Message) {\n"
    '    this.reply(msg, { type: "echo_ok", echo: msg.body.echo });\n'
    "  }\n"
    "}\n"
)
ECHO_PY = (
    "class Zurufer(Knoten):\n"
    "    def bei_echo(self, nachricht):\n"
    '        self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})\n'
)

WORKER = """
self.onerror = (e) => { postMessage({ error: String(e.message ?? e) }); };
self.addEventListener("unhandledrejection", (e) => postMessage({ error: String(e.reason) }));
const t0 = performance.now();
const m = await import("./js/chunks/%(chunk)s");
const t1 = performance.now();
const ask = (request) => JSON.parse(m.handle(JSON.stringify(request)));
await m.prepare(%(code)s);
const compiled = ask({ op: "compile", code: %(code)s });
if (!("prog" in compiled)) {
  postMessage({ error: JSON.stringify(compiled) });
} else {
const t2 = performance.now();
const started = ask({ op: "start", prog: compiled.prog, id: "n1", nodeIds: ["n1"], store: {},
                      clock: 0, budget: 100000 });
for (let i = 0; i < 1000; i++) {
  ask({ op: "deliver", inst: started.inst, clock: i, budget: 100000,
        msg: { src: "c1", dest: "n1", body: { type: "echo", msg_id: i, echo: "x" } } });
}
const t3 = performance.now();
const t4 = performance.now();
const data = await import("./js/chunks/%(check)s");
m.useCheck(data.checkData);
const t5 = performance.now();
const first = ask({ op: "check", code: %(bad)s });
const t6 = performance.now();
const again = ask({ op: "check", code: %(code)s });
const t7 = performance.now();
postMessage({ importMs: t1 - t0, compileMs: t2 - t1, thousandStepsMs: t3 - t2,
              checkImportMs: t5 - t4, firstCheckMs: t6 - t5, secondCheckMs: t7 - t6,
              diagnostics: first.diagnostics, clean: again.diagnostics.length });
}
"""

PAGE = """<!doctype html><meta charset="utf-8"><title>bench</title>%(csp)s<script type="module">
const start = performance.now();
// As the site makes Python's worker: a blob whose one line imports the script, so the worker
// has the page's policy (runtime/sandboxed-worker.ts).
const line = `import ${JSON.stringify(new URL("bench-worker.js", location.href).href)};`;
const blob = URL.createObjectURL(new Blob([line], { type: "text/javascript" }));
const worker = new Worker(blob, { type: "module" });
worker.onmessage = (e) => { window.result ??= { ...e.data, totalMs: performance.now() - start }; };
worker.onerror = (e) => { window.result = { error: String(e.message) }; };
</script>"""


def chunk(name: str = "tsnode-worker") -> Path:
    found = sorted((JS / "chunks").glob(f"{name}-*.js"))
    if len(found) != 1:
        raise SystemExit(f"Erst `node frontend/build.mjs`: kein (oder mehr als ein) {name}-Chunk.")
    return found[0]


def sizes(path: Path) -> dict[str, int]:
    data = path.read_bytes()
    return {
        "roh": len(data),
        "gzip -6": len(gzip.compress(data, 6, mtime=0)),
        "gzip -9": len(gzip.compress(data, 9, mtime=0)),
    }


def site_policy() -> str:
    """The site's Content-Security-Policy meta element (overrides/main.html)."""
    for line in (ROOT / "overrides" / "main.html").read_text().splitlines():
        if 'http-equiv="Content-Security-Policy"' in line:
            return line.strip()
    raise SystemExit("overrides/main.html hat keine Content-Security-Policy mehr.")


def chromium(runs: int, link: tuple[float, float] | None, csp: bool = False) -> None:
    from playwright.sync_api import sync_playwright

    datei = chunk()
    folder = Path(tempfile.mkdtemp())
    shutil.copytree(JS, folder / "js")
    (folder / "bench.html").write_text(PAGE % {"csp": site_policy() if csp else ""})
    (folder / "bench-worker.js").write_text(
        WORKER
        % {
            "chunk": datei.name,
            "check": chunk("tsnode-check").name,
            "code": json.dumps(ECHO_TS),
            "bad": json.dumps(ECHO_TS.replace("msg.body.echo", "msg.body.echo * 2")),
        }
    )
    server = StaticServer(folder, gzip=True, link=link)
    ergebnisse: list[dict[str, float]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(runs):
                context = browser.new_context()  # a fresh HTTP cache: the first visit
                page = context.new_page()
                server.sent.clear()
                page.goto(server.url + "bench.html", wait_until="commit")
                page.wait_for_function("() => window.result !== undefined", timeout=120_000)
                result = page.evaluate("window.result")
                if "error" in result:
                    print(f"Im Worker: {result['error']}")
                    return
                result["gesendet"] = sum(
                    n
                    for pfad, n, _, _ in server.sent
                    if "/js/" in pfad and "tsnode-check" not in pfad
                )
                result["gesendet_pruefung"] = sum(
                    n for pfad, n, _, _ in server.sent if "tsnode-check" in pfad
                )
                ergebnisse.append(result)
                context.close()
            browser.close()
    finally:
        server.close()
    for teil in (datei, chunk("tsnode-check")):
        print(f"Chunk {teil.name}: " + ", ".join(f"{k} {v:,} B" for k, v in sizes(teil).items()))
    wie = f"über {link[0] / 1e6:g} Mbit/s + {link[1] * 1000:g} ms" if link else "über 127.0.0.1"
    print(f"Chromium, erster Besuch {wie}, Median von {runs}:")
    for name in (
        "totalMs",
        "importMs",
        "compileMs",
        "thousandStepsMs",
        "checkImportMs",
        "firstCheckMs",
        "secondCheckMs",
    ):
        print(f"  {name}: {statistics.median(r[name] for r in ergebnisse):.0f} ms")
    print(f"  gesendet (gzip wie ein statischer Host): {ergebnisse[0]['gesendet']:,} B")
    print(f"  dazu für die Typprüfung: {ergebnisse[0]['gesendet_pruefung']:,} B")
    meldung = ergebnisse[0]["diagnostics"][0]
    print(f"  erste Meldung: Zeile {meldung['line']}, TS{meldung['code']}: {meldung['message']}")
    print(f"  Meldungen für den richtigen Knoten: {ergebnisse[0]['clean']}")


PYODIDE = """
import json, time
from lessonkit_tsnode import handle
from pysim.cluster.ts_knoten import PyodideGegenstelle, ts_knoten_klasse
from lessonkit.runtime import challenges
vorgabe = challenges.Vorgabe(last="echo")
g = PyodideGegenstelle(handle)
zeiten = {}
t = time.perf_counter()
ts = ts_knoten_klasse(%(ts)r, g)
zeiten["ts_uebersetzen"] = time.perf_counter() - t
namensraum = {"__name__": "bench"}  # no asyncio.run in Pyodide under Node: exec, not load_node
exec(challenges.VORSPANN + %(py)r, namensraum)
py = challenges.node_class(namensraum)
for name, klasse in (("python", py), ("typescript", ts)):
    for seed in (1, 2, 3):
        t = time.perf_counter()
        challenges.seed_outcome(klasse, vorgabe, seed, "")
        zeiten.setdefault(name, []).append(time.perf_counter() - t)
json.dumps(zeiten)
"""


def pyodide() -> None:
    from lessonkit.build import tsnode
    from lessonkit.build.assets import OUT, build_packages

    tsnode.gegenstelle()  # the bundles, when their sources changed
    paket = OUT / build_packages(OUT)
    with tempfile.TemporaryDirectory() as ordner:
        skript = Path(ordner) / "bench.py"
        skript.write_text(PYODIDE % {"ts": ECHO_TS, "py": ECHO_PY})
        t = time.perf_counter()
        lauf = subprocess.run(
            ["node", "tests/node/run_tsnode.mjs", str(paket), str(skript)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        gesamt = time.perf_counter() - t
    if lauf.returncode != 0:
        kurz = [z[:300] for z in lauf.stderr.splitlines()]
        raise SystemExit("Pyodide unter Node.js scheiterte:\n" + "\n".join(kurz[-12:]))
    zeiten = json.loads(lauf.stdout.strip().splitlines()[-1])
    print(f"Pyodide unter Node.js (Prozess {gesamt:.1f} s):")
    print(f"  TypeScript übersetzen (erstes Mal): {zeiten['ts_uebersetzen'] * 1000:.0f} ms")
    for name in ("python", "typescript"):
        werte = ", ".join(f"{z * 1000:.0f}" for z in zeiten[name])
        print(f"  Echo Seed 1–3 als {name}: {werte} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--link", help="MBIT,MS: a slow link (tests/siteserver.py)")
    parser.add_argument("--no-pyodide", action="store_true")
    parser.add_argument(
        "--csp", action="store_true", help="under the site's Content-Security-Policy"
    )
    args = parser.parse_args()
    link = None
    if args.link:
        mbit, ms = (float(x) for x in args.link.split(","))
        link = (mbit * 1e6, ms / 1000)  # StaticServer: bits per second, seconds
    chromium(args.runs, link, args.csp)
    if not args.no_pyodide:
        pyodide()


if __name__ == "__main__":
    main()
