"""The runtime's large files named in each page that starts Python, for its preloads.

``overrides/main.html`` starts Python's worker from ``<head>`` and preloads the files the
worker will ask for first and longest (``/*lk-preload*/[]``: an empty list until this
step, so a site this step never saw preloads nothing). Their names hash their bytes and
are known only once ``lessonkit/build/assets.py`` wrote ``runtime.json``; this fills them
in after every page is written (``csp.py``'s ``finish_site``, before the inline scripts'
hashes are taken).

Which files: the memory snapshot and Pyodide's WebAssembly as its Zstandard copy (7.25 MB
together, issue 38's figures), whose requests came 0.5–0.7 s after navigation on a slow
line (page → worker script → inflate worker or Pyodide's loader, one round trip each,
issue 53), and Pyodide's loader script, the last link of that chain.
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
    files = [runtime["snapshot"]] if runtime.get("snapshot") else []
    if runtime.get("compressedWasm"):
        files.append(runtime["pyodide"] + runtime["compressedWasm"])
    files.append(runtime["pyodide"] + "pyodide.asm.mjs")
    return files


def fill_preloads(html: str, files: list[str]) -> str:
    """The page with its preload list filled (a page without the list as it was)."""
    return html.replace(PLACEHOLDER, json.dumps(files, separators=(",", ":")))
