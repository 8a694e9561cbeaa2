"""The runtime's files that each page starting Python preloads, named in the page.

``overrides/main.html`` starts Python's worker from ``<head>`` and preloads the file its
start waits for longest (``/*lk-preload*/[]``: an empty list until this step, so a site
this step never saw preloads nothing). Names hash the files' bytes and
are known only once ``lessonkit/build/assets.py`` wrote ``runtime.json``; this fills them
in after every page is written (``csp.py``'s ``finish_site``, before the inline scripts'
hashes are taken).

Which files: the memory snapshot (4.85 MB), whose request came at the end of the longest
chain (page → worker script → then an inflate worker → snapshot: 0.40 s after navigation at
20 Mbit/s + 40 ms, issue 53). Preloading also the WebAssembly's copy (asked for at the
worker's start already, 0.32 s) and Pyodide's ``pyodide.asm.mjs`` gained nothing more
on a slow line, and on a fast one measured 0.02 and 0.10 s slower than no preload in two
runs (within the machine's drift, but no gain to pay for it): benchmarks/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path

PLACEHOLDER = "/*lk-preload*/[]"
RUNTIME = Path("assets") / "generated" / "runtime.json"


def runtime_preloads(site: Path) -> list[str]:
    """Paths relative to ``assets/generated/`` of the files to preload (none: no runtime)."""
    path = site / RUNTIME
    if not path.exists():
        return []
    runtime = json.loads(path.read_text())
    start = runtime.get("start", "snapshot")
    if start == "bytecode" and runtime.get("bytecode"):
        return [runtime["bytecode"]["stdlib"], runtime["bytecode"]["packages"]]
    if start == "snapshot" and runtime.get("snapshot"):
        return [runtime["snapshot"]]
    return []  # "auto": the worker chooses once the WebAssembly came


def fill_preloads(html: str, files: list[str]) -> str:
    """The page with its preload list filled (a page without the list as it was)."""
    return html.replace(PLACEHOLDER, json.dumps(files, separators=(",", ":")))
