"""The peer's starter site, built and made to run from one origin (issue 53).

pyodide-mkdocs-theme (PyPI) is installed into a throwaway virtual environment of its own
under ``.cache/peer/`` (pins: ``benchmarks/peer/requirements.txt``), never into the
project's ``.venv``. Its "new project" template (``python -m pyodide_mkdocs_theme --new``,
German) is built as it comes, with the three fields the template leaves to its author
filled in (site name, address, project id) and the footer's licence pictures (from a
foreign origin) left out. Its CDN files come from the npm registry as tarballs of the
versions the theme pins (checked against their sha512), unpacked under ``cdn/`` of the
built site, and every CDN address in the built pages and scripts is rewritten to them.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "peer"
REQUIREMENTS = ROOT / "benchmarks" / "peer" / "requirements.txt"

#: (path of the address in the peer's pages, npm package@version, its sha512, file for a bare
#: address). Only the path is kept here: whichever host the theme's pages name for it, the
#: address is rewritten to this site's copy (``FOREIGN``), so nothing here points at a CDN.
#: The theme asks for jquery.terminal 2.43.1, which the npm registry does not have: 2.43.0
#: is the nearest published release. ``mathjax@3`` is a range on the CDN: 3.2.2 is its newest.
CDN = (
    (
        "pyodide/v0.25.0/full/",
        "pyodide@0.25.0",
        "RagtX3TfV2M0QAfThG2SMvwE31ikqAFDUXc5/4xhppEoVf4VbL7L0kbKOIdSNg7MbVsHELVxftk66WvT926GpA==",
        "",
    ),
    (
        "npm/ace-builds@1.44.0/",
        "ace-builds@1.44.0",
        "PFNMSYqFdEUkul2Ntud0HvA09AgY+F1ag0UYdpMH60wNI/qOA8cB8tlTgoALMEwIdUPJK2CjrIQ7OnbiSS/ugQ==",
        "",
    ),
    (
        "npm/jquery.terminal@2.43.1/",
        "jquery.terminal@2.43.0",
        "7XQITeOk1qEL1IZNZezab9luJXFDsPirsDiV+ZeEGPsSnUP00Dm8Wyu1iIuPR61u4eMGIEsOSorrM5JOKAMOGQ==",
        "",
    ),
    (
        "npm/jquery@3.7.1",
        "jquery@3.7.1",
        "m4avr8yL8kmFN8psrbFFFmB/If14iN5o9nw/NgnnM+kybDJpRsAynV2BsfpTYrTRysYUdADVD7CkUUizgkpLfg==",
        "dist/jquery.min.js",
    ),
    (
        "npm/lodash@4.17.20/",
        "lodash@4.17.20",
        "PlhdFcillOINfeV7Ni6oF1TAEayyZBoZ8bcshTHqOYJYlrqzRK5hagpagky5o4HfCzzd1TRkXPMFq6cKk9rGmA==",
        "",
    ),
    (
        "npm/mathjax@3/",
        "mathjax@3.2.2",
        "Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
        "",
    ),
)

#: An absolute address on another host (what the theme's pages use for its CDN files).
FOREIGN = r"https?://[A-Za-z0-9.-]+/"

#: An address of a CDN file's kind the table does not know: the build stops on it.
UNKNOWN_CDN = re.compile(FOREIGN + r"(?:npm|pyodide|gh)/")

#: The theme's scripts load the CDN files with Subresource Integrity: ``src: "…", integrity: "…"``.
INTEGRITY = re.compile(r'(src: "([^"]+)",\s*integrity: ")(sha256-[^"]+)"')

#: The footer's licence pictures in the template's copyright (mirrors.creativecommons.org).
FOREIGN_PICTURE = re.compile(r"<img[^>]*src=\"https://mirrors\.creativecommons\.org[^>]*>")


def run(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    """Run quietly (the theme warns about MkDocs 2 on every build); its output on failure."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def peer_python() -> Path:
    """The throwaway environment's Python, with the pinned theme installed (once)."""
    venv = CACHE / "venv"
    python = venv / "bin" / "python"
    pins = REQUIREMENTS.read_bytes()
    marker = venv / "installed-requirements.txt"
    if not (marker.exists() and marker.read_bytes() == pins):
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", str(venv)])
        run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-r", str(REQUIREMENTS)])
        marker.write_bytes(pins)
    return python


def tarball(spec: str, integrity: str) -> Path:
    """The npm registry's tarball of ``spec`` (once), checked against its sha512."""
    folder = CACHE / "npm"
    folder.mkdir(parents=True, exist_ok=True)
    name, version = spec.rsplit("@", 1)
    path = folder / f"{name}-{version}.tgz"
    if not path.exists():
        run(["npm", "pack", spec, "--silent", "--pack-destination", str(folder)])
    digest = base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()
    if digest != integrity:
        path.unlink()
        raise SystemExit(f"{spec}: the tarball's sha512 is not the pinned one")
    return path


def unpack(path: Path, target: Path) -> None:
    """The tarball's ``package/`` folder into ``target``."""
    with tarfile.open(path) as archive:
        for member in archive.getmembers():
            if not member.isfile() or not member.name.startswith("package/"):
                continue
            destination = target / member.name.removeprefix("package/")
            destination.parent.mkdir(parents=True, exist_ok=True)
            source = archive.extractfile(member)
            assert source is not None
            destination.write_bytes(source.read())


def build_peer(site: Path, url: str, prefix: str) -> None:
    """The peer's starter site built into ``site`` (to be served at ``url``), its CDN
    files under ``site/cdn/``, addressed as ``prefix + "cdn/…"`` (a path on the server)."""
    python = peer_python()
    project = CACHE / "starter"
    shutil.rmtree(project, ignore_errors=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    run([str(python), "-m", "pyodide_mkdocs_theme", "--new", "starter", "--lang", "de"], CACHE)
    config = project / "mkdocs.yml"
    text = config.read_text()
    text = re.sub(r"(?m)^site_url: null.*$", f"site_url: {url}", text)
    text = re.sub(r"(?m)^site_name: null.*$", "site_name: Peer", text)
    text = re.sub(r"(?m)^(\s+)id: null.*$", r"\1id: peer-bench", text)
    config.write_text(text)
    run(
        [str(python), "-m", "mkdocs", "build", "-q", "--site-dir", str(site)],
        project,
        # The theme records every project id it built in $HOME/.local/share: keep it here.
        {**os.environ, "NO_MKDOCS_2_WARNING": "1", "HOME": str(CACHE / "home")},
    )
    for _address, spec, integrity, _bare in CDN:
        unpack(tarball(spec, integrity), site / "cdn" / spec)
    for path in [*site.rglob("*.html"), *site.rglob("*.js")]:
        if "cdn" in path.relative_to(site).parts[:1]:
            continue
        text = path.read_text()
        new = FOREIGN_PICTURE.sub("", text)
        for address, spec, _integrity, bare in CDN:
            if bare:  # an address without a file: the CDN serves the package's main file
                pattern = f'"{FOREIGN}{re.escape(address)}"'
                here = f'"{prefix}cdn/{spec}/{bare}"'
            else:
                pattern, here = FOREIGN + re.escape(address), f"{prefix}cdn/{spec}/"
            new = re.sub(pattern, lambda _match, here=here: here, new)
        if left := UNKNOWN_CDN.search(new):
            raise SystemExit(
                f"{path}: a CDN address left that the benchmark does not know: {left[0]}"
            )
        new = INTEGRITY.sub(functools.partial(checked, site=site, prefix=prefix, script=path), new)
        if new != text:
            path.write_text(new)


def checked(match: re.Match[str], site: Path, prefix: str, script: Path) -> str:
    """An integrity pin of the peer's scripts, for the file now served in its place: the
    same for every file but jquery.terminal, whose 2.43.0 stands in for 2.43.1."""
    start, address, pinned = match.groups()
    served = site / address.removeprefix(prefix)
    actual = "sha256-" + base64.b64encode(hashlib.sha256(served.read_bytes()).digest()).decode()
    if actual != pinned and "jquery.terminal@" not in address:
        raise SystemExit(f"{script}: {address} is not the file the theme pins")
    return f'{start}{actual}"'
