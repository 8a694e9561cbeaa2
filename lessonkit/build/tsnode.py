"""The TypeScript node runtime for the build and CPython's tests: one Node.js process
(``frontend/src/tsnode/server.ts``, bundled by ``frontend/build.mjs --tsnode`` when its
sources changed), started once and reused by every challenge of the build."""

from __future__ import annotations

import atexit
import subprocess
from pathlib import Path

from pysim.cluster.ts_knoten import NodeGegenstelle

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "frontend" / "src" / "tsnode"
BUNDLE = ROOT / ".cache" / "tsnode" / "server.mjs"

_gegenstelle: NodeGegenstelle | None = None


def _bundle() -> Path:
    """The server's bundle, made anew when a source of it is newer."""
    neueste = max(p.stat().st_mtime for p in SOURCES.rglob("*") if p.is_file())
    if not BUNDLE.exists() or BUNDLE.stat().st_mtime < neueste:
        subprocess.run(["node", "frontend/build.mjs", "--tsnode"], cwd=ROOT, check=True)
    return BUNDLE


def gegenstelle() -> NodeGegenstelle:
    """The build's one Node.js process of the runtime (started at the first call)."""
    global _gegenstelle
    if _gegenstelle is None:
        _gegenstelle = NodeGegenstelle(["node", str(_bundle())], cwd=str(ROOT))
        atexit.register(_gegenstelle.schliesse)
    return _gegenstelle
