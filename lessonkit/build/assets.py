"""Put everything the browser needs into ``docs/assets/generated/``.

* the front-end bundle (``frontend/``, built by esbuild through ``node frontend/build.mjs``);
* Pyodide's runtime files from the pinned npm package (served by the site, no CDN);
* mermaid's browser build from the pinned npm package;
* ``packages-<hash>.zip``: ``pysim`` and the browser's part of ``lessonkit`` (kernel,
  consoles, bridge, checks, challenges, workbench), which the worker's Python imports from directly (zipimport,
  ``lessonkit/node/packages.mjs``); its name carries a content hash so browsers never
  run a stale copy;
* ``snapshot-<hash>-<sha256>.lks.zst``: a Pyodide memory snapshot with those packages
  already imported (made under Node.js; the worker falls back to a plain start without
  it), stored as its difference to the module's start (``lessonkit/node/snapshot_format.mjs``)
  and compressed with Zstandard at level 19: 4.2 MB where gzip made 5.9 (and zstddec
  inflates it faster than the browser's gzip; benchmarks/README.md). The name ends with
  the SHA-256 of its inflated bytes;
* ``bytecode-<key>-stdlib.zip.zst`` and ``bytecode-<key>-packages.zip.zst``: the
  standard library's modules the course imports and the packages, compiled to .pyc by
  Pyodide's own Python (``lessonkit/node/make_bytecode.mjs``), for the start a slow line
  takes (1.9 MB where the snapshot and the packages zip are 5.4: ARCHITECTURE.md,
  "Which start");
* ``pyodide/pyodide.asm.wasm.zst``: Pyodide's WebAssembly compressed with Zstandard
  (2.9 MB instead of gzip's 3.5), which the worker decodes as the browser compiles it
  (``frontend/src/worker/wasm.ts``); the plain file stays for a worker that cannot use it;
* ``runtime.json``: tells the worker the current names, and which start it takes
  (``LESSONKIT_START``: ``auto``, the default, or ``snapshot``/``bytecode`` for benchmarks).

Files are only written when their content changes, so ``mkdocs serve`` does not
rebuild in a loop. Run directly: ``python -m lessonkit.build.assets``.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import zstandard

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "assets" / "generated"
NODE_MODULES = ROOT / "node_modules"
NODE_SCRIPTS = ROOT / "lessonkit" / "node"
# The scripts that decide what a snapshot holds; a change to one makes a new snapshot.
SNAPSHOT_MAKERS = ("make_snapshot.mjs", "course_imports.mjs", "packages.mjs", "snapshot_format.mjs")
# Likewise for the start from bytecode.
BYTECODE_MAKERS = ("make_bytecode.mjs", "course_imports.mjs", "packages.mjs")

#: Which start the reader's worker takes: "auto" chooses per reader
#: (frontend/src/worker/python-worker.ts); benchmarks build with one fixed.
START = os.environ.get("LESSONKIT_START", "auto")

#: What Pyodide needs to start: its loader, the WebAssembly module, the standard library.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: Python code shipped to the browser: (folder in the repository, files to take).
PACKAGED = (
    ("pysim", "**/*.py"),
    ("lessonkit", "__init__.py"),
    ("lessonkit/runtime", "*.py"),
)

#: Pyodide's WebAssembly compressed with Zstandard at level 19: 2.9 MB where gzip sends
#: 3.5; the worker decodes it while the browser compiles (frontend/src/worker/wasm.ts).
COMPRESSED_WASM = "pyodide.asm.wasm.zst"

#: An empty zip, which the worker gives Pyodide in place of the standard library when it
#: starts from the snapshot: the library comes on demand (lessonkit/runtime/stdlib.py).
EMPTY_STDLIB = "python_stdlib_empty.zip"


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless ``path`` already holds exactly it."""
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def copy_if_changed(source: Path, target: Path) -> None:
    if not source.exists():
        raise SystemExit(f"{source} fehlt: bitte zuerst `npm ci` ausführen.")
    if target.exists() and target.stat().st_size == source.stat().st_size:
        if target.stat().st_mtime >= source.stat().st_mtime:
            return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)


def package_zip() -> bytes:
    """A deterministic zip of the Python code for the browser (sorted, fixed timestamps)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        names: list[tuple[str, Path]] = []
        for folder, pattern in PACKAGED:
            for path in (ROOT / folder).glob(pattern):
                if "__pycache__" not in path.parts:
                    names.append((path.relative_to(ROOT).as_posix(), path))
        for name, path in sorted(names):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def build_packages(out: Path = OUT) -> str:
    """Write the content-hashed package zip; return its name."""
    data = package_zip()
    name = f"packages-{hashlib.sha256(data).hexdigest()[:12]}.zip"
    for old in out.glob("packages-*.zip"):
        if old.name != name:
            old.unlink()
    write_if_changed(out / name, data)
    return name


def build_snapshot(packages: str, out: Path = OUT) -> str | None:
    """The memory snapshot for ``packages``: made once per zip, Pyodide version and way
    of making it (the scripts that make it are part of the key). Its name ends with the
    SHA-256 of its inflated bytes, which the browser checks before it uses a kept copy
    (``frontend/src/worker/snapshot.ts``)."""
    key = _maker_key(packages, SNAPSHOT_MAKERS)
    made = sorted(out.glob(f"snapshot-{key}-*.lks.zst"))
    if made:
        return made[0].name
    for old in out.glob("snapshot-*"):
        old.unlink()
    made_at = out / f"snapshot-{key}.lks"
    done = subprocess.run(
        ["node", str(NODE_SCRIPTS / "make_snapshot.mjs"), str(out / packages), str(made_at)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:  # the site still works, only slower to start
        print(f"Kein Speicherabbild für Pyodide: {done.stderr[-2000:]}", file=sys.stderr)
        return None
    packed = made_at.read_bytes()
    made_at.unlink()
    name = f"snapshot-{key}-{hashlib.sha256(packed).hexdigest()}.lks.zst"
    (out / name).write_bytes(compress_zstd(packed))
    return name


def build_bytecode(packages: str, out: Path = OUT) -> dict[str, str] | None:
    """The start from bytecode's two files for ``packages`` (``lessonkit/node/make_bytecode.mjs``):
    the standard library's modules the course imports as .pyc, and the packages
    as .pyc, each a stored zip compressed whole with Zstandard (1.9 MB together, where
    the snapshot and the packages zip are 5.4). Made once per zip, Pyodide version
    and way of making them; their names carry that key and their own hash."""
    key = _maker_key(packages, BYTECODE_MAKERS)
    names = {part: f"bytecode-{key}-{part}.zip.zst" for part in ("stdlib", "packages")}
    if all((out / name).exists() for name in names.values()):
        return names
    for old in out.glob("bytecode-*"):
        old.unlink()
    made = {part: out / f"bytecode-{key}-{part}.zip" for part in names}
    done = subprocess.run(
        [
            "node",
            str(NODE_SCRIPTS / "make_bytecode.mjs"),
            str(out / packages),
            str(made["stdlib"]),
            str(made["packages"]),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:  # the site still works: the snapshot's or a plain start
        print(f"Kein Bytecode für Pyodide: {done.stderr[-2000:]}", file=sys.stderr)
        return None
    for part, path in made.items():
        (out / names[part]).write_bytes(compress_zstd(path.read_bytes()))
        path.unlink()
    return names


def _maker_key(packages: str, makers: tuple[str, ...]) -> str:
    """What a made file depends on: the packages zip, Pyodide's version, the scripts."""
    pyodide_version = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text())["version"]
    text = "".join((NODE_SCRIPTS / name).read_text() for name in makers)
    return hashlib.sha256(f"{packages}:{pyodide_version}:{text}".encode()).hexdigest()[:12]


def empty_zip() -> bytes:
    buffer = io.BytesIO()
    zipfile.ZipFile(buffer, "w").close()
    return buffer.getvalue()


def compress_zstd(packed: bytes) -> bytes:
    """Zstandard level 19 with the size in the frame (the reader allocates once); the
    same bytes for the same input, so an unchanged snapshot keeps its name."""
    return zstandard.ZstdCompressor(level=19, write_content_size=True).compress(packed)


def compress_wasm(folder: Path) -> None:
    """``pyodide.asm.wasm.zst`` beside the WebAssembly, made again only when the
    WebAssembly is newer (level 19 takes ~12 s for its 9.6 MB; the same bytes each time)."""
    source, target = folder / "pyodide.asm.wasm", folder / COMPRESSED_WASM
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return
    compressor = zstandard.ZstdCompressor(level=19, write_content_size=True)
    made = target.with_suffix(".part")
    made.write_bytes(compressor.compress(source.read_bytes()))
    made.replace(target)


def write_runtime(
    packages: str, snapshot: str | None, out: Path = OUT, bytecode: dict[str, str] | None = None
) -> None:
    runtime: dict[str, object] = {
        "packages": packages,
        "pyodide": "pyodide/",
        "snapshot": snapshot,
        "emptyStdlib": EMPTY_STDLIB,
        "compressedWasm": COMPRESSED_WASM,
        "wasmSha256": hashlib.sha256(
            (out / "pyodide" / "pyodide.asm.wasm").read_bytes()
        ).hexdigest(),
    }
    if snapshot:
        # The download is checked by its own bytes (4.9 MB), not the 16 MB they inflate
        # to, which the name's digest is of (kept copies are checked by that one).
        runtime["snapshotSha256"] = hashlib.sha256((out / snapshot).read_bytes()).hexdigest()
    if bytecode:
        runtime["bytecode"] = bytecode
    runtime["start"] = START
    write_if_changed(out / "runtime.json", (json.dumps(runtime, indent=2) + "\n").encode())


def build_frontend() -> None:
    """Bundle the TypeScript with esbuild (fast; esbuild itself skips unchanged output)."""
    subprocess.run(["node", str(ROOT / "frontend" / "build.mjs")], check=True, cwd=ROOT)


def build_all(out: Path = OUT) -> None:
    """Everything the site needs in ``docs/assets/generated``."""
    for name in PYODIDE_FILES:
        copy_if_changed(NODE_MODULES / "pyodide" / name, out / "pyodide" / name)
    write_if_changed(out / "pyodide" / EMPTY_STDLIB, empty_zip())
    compress_wasm(out / "pyodide")
    copy_if_changed(NODE_MODULES / "mermaid" / "dist" / "mermaid.min.js", out / "mermaid.min.js")
    packages = build_packages(out)
    write_runtime(packages, build_snapshot(packages, out), out, build_bytecode(packages, out))
    build_frontend()


if __name__ == "__main__":
    build_all()
    print(f"Assets in {OUT.relative_to(ROOT)}", file=sys.stderr)
