"""The build's last step: stamp every page with its deployment and make its
Content-Security-Policy strict.

``overrides/main.html`` writes a complete policy into each page's ``<head>``, with
``'unsafe-inline'`` for scripts, so that a site this step never saw (``mkdocs serve``
with its injected live-reload script) still works. Here, after every page is written,
``'unsafe-inline'`` is replaced by the SHA-256 of every inline script of the whole site
(Material re-creates a new page's inline scripts on instant navigation, under the first
page's policy, so each page lists them all).

The stamp: ``<meta name="lessonkit-version">`` and the page's content element
(``data-lk-version``, which instant navigation swaps in) get the version of the service
worker built with the page (``assets/generated/offline.json``, ``frontend/build.mjs``),
and the page script's address gets ``?v=<version>``; the page starts its Python worker
with it too. A page of another deployment reached by instant navigation is loaded in
full (``frontend/src/index.ts``): its cells never run on an older runtime. The service worker serves a page of another deployment its runtime from the
network, never its own older one (``frontend/src/sw/service-worker.ts``).

The stylesheet ``assets/lessonkit.css`` is stamped too: its address on every page gets
``?v=<version>`` and the file itself the custom property ``--lk-version``, which the page
script compares with the page's (``frontend/src/runtime/deployment.ts``).

The record: the SHA-256 of every file of the site the service worker may serve from its
page cache (pages, Material's theme files, the search index, the stylesheet, images), made
here because only now are the pages' bytes final. It goes into ``sw.js`` itself
(``self.LESSONKIT_RECORD = …`` before the worker's code), which the browser fetches from
the network past every cache, so nothing written into the Cache API can change it. The
files under ``assets/generated/`` are recorded by ``frontend/build.mjs`` (the shell).

MkDocs runs this from ``lessonkit/build/mkdocs_hooks.py`` (``on_post_build``), Zensical from
``scripts/build-zensical``: ``python -m lessonkit.build.csp SITE_DIR``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
from pathlib import Path

from lessonkit.build.preload import fill_preloads, runtime_preloads

VERSION_META = '<meta name="lessonkit-version" content="">'
CSP_META = re.compile(r'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")')
INLINE_SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script\s*>", re.S | re.I)
PAGE_SCRIPT = re.compile(r'(<script\b[^>]*\bsrc="[^"?]*assets/generated/js/lessonkit\.js)(")')
STYLESHEET = re.compile(r'(<link\b[^>]*\bhref="[^"?]*assets/lessonkit\.css)(")')
STYLESHEET_FILE = Path("assets") / "lessonkit.css"
CSS_STAMP = re.compile(r"\n:root \{ --lk-version: \"[0-9a-f]*\" \}\n$")
#: Where the record goes: one statement before the service worker's own code.
RECORD_LINE = re.compile(r"^self\.LESSONKIT_RECORD=.*\n")
#: Not in the record: the service worker itself, the shell (build.mjs records what it
#: keeps), source maps (never stored) and the build's note for this step.
UNRECORDED_PREFIXES = ("assets/generated/",)
UNRECORDED = {"sw.js"}
#: The page's content, which instant navigation swaps in (the head it keeps).
CONTENT = re.compile(r'(<div\b[^>]*\bdata-md-component="content")')
JS_TYPES = {"", "text/javascript", "module", "application/javascript"}


def script_hashes(html: str) -> set[str]:
    """CSP sources for the inline scripts of one page (JSON data blocks are not scripts)."""
    hashes = set()
    for match in INLINE_SCRIPT.finditer(html):
        attrs = match["attrs"]
        if re.search(r"\ssrc\s*=", attrs):
            continue
        kind = re.search(r'\stype\s*=\s*"([^"]*)"', attrs)
        if (kind[1].strip().lower() if kind else "") not in JS_TYPES:
            continue
        digest = hashlib.sha256(match["body"].encode()).digest()
        hashes.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return hashes


def strict(policy: str, hashes: list[str]) -> str:
    """``policy`` with ``'unsafe-inline'`` in script-src replaced by ``hashes``."""
    directives = [part.strip() for part in policy.split(";") if part.strip()]
    for index, directive in enumerate(directives):
        name, *sources = directive.split()
        if name == "script-src":
            sources = [source for source in sources if source != "'unsafe-inline'"]
            directives[index] = " ".join([name, *sources, *hashes])
    return "; ".join(directives)


def stamp(html: str, version: str) -> str:
    html = html.replace(VERSION_META, f'<meta name="lessonkit-version" content="{version}">')
    # Also on the content: instant navigation keeps the first page's head, so a page of
    # another deployment is told by this (frontend/src/index.ts loads it in full).
    html = CONTENT.sub(rf'\1 data-lk-version="{version}"', html, count=1)
    html = STYLESHEET.sub(rf"\1?v={version}\2", html)
    return PAGE_SCRIPT.sub(rf"\1?v={version}\2", html)


def stamp_stylesheet(site: Path, version: str) -> None:
    """``--lk-version`` at the end of the course's stylesheet (once, also when run again)."""
    path = site / STYLESHEET_FILE
    if not path.exists():
        return
    css = CSS_STAMP.sub("", path.read_text(encoding="utf-8"))
    path.write_text(css + f'\n:root {{ --lk-version: "{version}" }}\n', encoding="utf-8")


def site_record(site: Path) -> dict[str, object]:
    """Path (relative to the site) -> SHA-256 of every file the page cache may serve, and
    the record's own id (the name of that cache: a new record, a new cache)."""
    files = {}
    for path in sorted(site.rglob("*")):
        relative = path.relative_to(site).as_posix()
        if not path.is_file() or relative in UNRECORDED or relative.endswith(".map"):
            continue
        if relative.startswith(UNRECORDED_PREFIXES):
            continue
        files[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    text = json.dumps(files, sort_keys=True, separators=(",", ":"))
    return {"id": hashlib.sha256(text.encode()).hexdigest()[:16], "files": files}


def record_in_service_worker(site: Path) -> None:
    """Put the site's record in front of ``sw.js`` (replacing one from an earlier run)."""
    worker = site / "sw.js"
    if not worker.exists():
        return
    code = RECORD_LINE.sub("", worker.read_text(encoding="utf-8"), count=1)
    record = json.dumps(site_record(site), separators=(",", ":"))
    worker.write_text(f"self.LESSONKIT_RECORD={record};\n{code}", encoding="utf-8")


def finish_site(site: Path) -> None:
    """Stamp and harden every page of the built site in ``site``."""
    offline = site / "assets" / "generated" / "offline.json"
    version = json.loads(offline.read_text())["version"] if offline.exists() else None
    pages = {path: path.read_text(encoding="utf-8") for path in sorted(site.rglob("*.html"))}
    preloads = runtime_preloads(site)
    pages = {path: fill_preloads(html, preloads) for path, html in pages.items()}
    if version:
        pages = {path: stamp(html, version) for path, html in pages.items()}
    hashes = sorted(set().union(*(script_hashes(html) for html in pages.values())))
    for path, html in pages.items():
        html = CSP_META.sub(
            lambda match: match[1] + strict(match[2], hashes) + match[3], html, count=1
        )
        path.write_text(html, encoding="utf-8")
    if version:
        stamp_stylesheet(site, version)
    # Last: the record holds the bytes of everything written above.
    record_in_service_worker(site)


if __name__ == "__main__":
    finish_site(Path(sys.argv[1]))
