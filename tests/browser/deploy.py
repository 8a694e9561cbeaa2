"""A deployment simulated on a served copy of the built site: what a new build would change.

A real deployment replaces the whole site with another build's. Building the course twice
takes minutes, so a test changes its copy as that second build would: a new version in
every file that carries it (pages, the page script, the Python worker, the stylesheet,
sw.js), optionally a new package zip (its name baked into the worker), and the SHA-256s
that sw.js holds (the shell's manifest, frontend/build.mjs, and the site's record,
lessonkit/build/csp.py) computed again over the changed files.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

from tests.browser.pages import SW_VERSION

#: A path with the SHA-256 of its bytes, as sw.js holds them (manifest and record).
HASHED = re.compile(r'"([^"]+)":"([0-9a-f]{64})"')
RECORD_ID = re.compile(r'"id":"([0-9a-f]{16})"')
#: Files that carry the version (frontend/build.mjs, lessonkit/build/csp.py).
STAMPED = ("*.html", "assets/generated/js/**/*.js", "assets/lessonkit.css", "sw.js")


def version_of(site: Path) -> str:
    found = SW_VERSION.search((site / "sw.js").read_text())
    assert found, "sw.js without a version"
    return found[1]


def new_packages(site: Path, change: Callable[[dict[str, bytes]], None]) -> None:
    """A new package zip (its files changed by ``change``); the old one is gone, as on a
    host that serves only the new build. The worker's baked runtime names the new one and
    no snapshot (a snapshot holds the old packages)."""
    generated = site / "assets" / "generated"
    runtime = json.loads((generated / "runtime.json").read_text())
    old = generated / runtime["packages"]
    with zipfile.ZipFile(old) as source:
        files = {info.filename: source.read(info) for info in source.infolist()}
    change(files)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for name, data in files.items():
            target.writestr(name, data)
    name = f"packages-{hashlib.sha256(buffer.getvalue()).hexdigest()[:12]}.zip"
    (generated / name).write_bytes(buffer.getvalue())
    old.unlink()
    worker = generated / "js" / "worker.js"
    code = worker.read_text().replace(runtime["packages"], name)
    if runtime["snapshot"]:
        code = code.replace(f'"{runtime["snapshot"]}"', "null")
    # Both prepared starts hold the old packages: the worker starts plainly with the new zip.
    code = re.sub(r',"bytecode":\{[^}]*\}', "", code)
    worker.write_text(code)
    runtime.update(packages=name, snapshot=None)
    runtime.pop("bytecode", None)
    (generated / "runtime.json").write_text(json.dumps(runtime))


def stamp(site: Path, version: str, only: tuple[str, ...] = STAMPED) -> None:
    """Every file of ``only`` (globs) that carries the site's version gets ``version``."""
    old = version_of(site)
    for pattern in only:
        for path in site.glob(pattern) if "/" in pattern else site.rglob(pattern):
            text = path.read_text()
            if old in text:
                path.write_text(text.replace(old, version))


def rehash(site: Path, record_id: str | None = None) -> None:
    """sw.js's SHA-256s of the files as they are now; a new record id when given."""
    worker = site / "sw.js"

    def current(match: re.Match[str]) -> str:
        path = site / match[1]
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else match[2]
        return f'"{match[1]}":"{digest}"'

    code = HASHED.sub(current, worker.read_text())
    if record_id:
        code = RECORD_ID.sub(f'"id":"{record_id}"', code, count=1)
    worker.write_text(code)


def deploy(
    site: Path,
    version: str,
    packages: Callable[[dict[str, bytes]], None] | None = None,
    only: tuple[str, ...] = STAMPED,
    service_worker: bool = True,
) -> None:
    """A new deployment of ``site``: ``version`` in the files of ``only``, optionally new
    packages, sw.js's hashes made again (sw.js last: it carries the version too). Without
    ``service_worker`` sw.js stays the old one (the new one not yet installed)."""
    if packages:
        new_packages(site, packages)
    if not service_worker:
        only = tuple(pattern for pattern in only if pattern != "sw.js")
    stamp(site, version, only)
    if service_worker:
        rehash(site, record_id=version)
