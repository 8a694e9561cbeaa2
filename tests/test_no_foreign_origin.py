"""Nothing in the built site, made by MkDocs or by Zensical, makes the browser fetch
from another origin.

HTML and CSS may not reference another origin at all (links to read are fine).
JavaScript from pinned packages contains URLs in comments, docs and dead code
paths; every host found there must be listed below with the reason it is
never fetched. A new host fails the test until someone checks it. The browser
tests prove the same at run time by recording every request.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup

ABSOLUTE = re.compile(r"""https?://[^\s"'`)<>\\]+""")

#: Hosts of URLs in vendor JavaScript that the browser never fetches, and why.
NEVER_FETCHED = {
    "www.w3.org": "XML namespace names (SVG, XHTML, XLink, MathML), not addresses",
    "unpkg.com": "Material loads mermaid from there only if window.mermaid is missing; "
    "our page script defines it (components/mermaid) and loads mermaid from this site. The ResizeObserver polyfill is only for browsers without it.",
    "api.github.com": "Material's repository facts, only with repo_url, which mkdocs.yml does not set",
    "${e}": "Material's GitLab facts, only with a GitLab repo_url (not set)",
    "${t}": "Pyodide's socket emulation, only when Python code opens a socket",
    "cdn.jsdelivr.net": "Pyodide's package CDN; the worker sets packageBaseUrl to this site",
}
#: Hosts that appear only in licence comments and documentation strings of vendor files.
DOCUMENTATION_LINKS = {
    "aka.ms",  # TypeScript's messages link its documentation there (the TypeScript check's chunk)
    "bit.ly",
    "chasen.org",
    "chevrotain.io",
    "clipboardjs.com",
    "code.google.com",
    "developer.mozilla.org",
    "docs.python.org",
    "en.wikipedia.org",
    "engelschall.com",
    "fontawesome.com",
    "github.com",
    "jquery.org",
    "langium.org",
    "lodash.com",
    "lunrjs.com",
    "msdn.microsoft.com",
    "narwhaljs.org",
    "openjsf.org",
    "opensource.org",
    "people.mozilla.org",
    "snowball.tartarus.org",
    "squidfunk.github.io",
    "tartarus.org",
    "tldrlegal.com",
    "underscorejs.org",
    "wiki.commonjs.org",
    "wiki.ecmascript.org",
    "www.eclipse.org",
    "www.mozilla.org",
}

#: HTML attributes that make the browser fetch something.
FETCHING = {
    "script": "src",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "audio": "src",
    "video": "src",
    "track": "src",
    "embed": "src",
    "object": "data",
    "input": "src",
}
FETCHING_LINK_RELS = {
    "stylesheet",
    "preload",
    "modulepreload",
    "prefetch",
    "preconnect",
    "dns-prefetch",
    "icon",
    "manifest",
    "apple-touch-icon",
    "prerender",
}


@pytest.fixture(params=["built_site", "zensical_site"], ids=["mkdocs", "zensical"])
def site(request: pytest.FixtureRequest) -> Path:
    """The course as each generator builds it (tests/conftest.py, once per session)."""
    path: Path = request.getfixturevalue(request.param)
    return path


def is_foreign(url: str) -> bool:
    return url.startswith(("http://", "https://", "//"))


def files(site: Path, *suffixes: str) -> list[Path]:
    return [path for path in site.rglob("*") if path.suffix in suffixes and path.is_file()]


def test_html_fetches_nothing_from_other_origins(site: Path) -> None:
    problems = []
    for path in files(site, ".html"):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for tag, attribute in FETCHING.items():
            for element in soup.find_all(tag):
                if is_foreign(element.get(attribute, "")):
                    problems.append(f"{path.name}: <{tag} {attribute}={element[attribute]}>")
        for link in soup.find_all("link"):
            rels = set(link.get("rel", []))
            if rels & FETCHING_LINK_RELS and is_foreign(link.get("href", "")):
                problems.append(f"{path.name}: <link rel={rels} href={link['href']}>")
        for element in soup.find_all(style=True):
            if "url(" in element["style"] and ABSOLUTE.search(element["style"]):
                problems.append(f"{path.name}: style={element['style']}")
        for script in soup.find_all("script", src=False):
            for url in ABSOLUTE.findall(script.get_text()):
                if urlsplit(url).hostname not in NEVER_FETCHED:
                    problems.append(f"{path.name}: inline script mentions {url}")
    assert problems == []


def test_css_fetches_nothing_from_other_origins(site: Path) -> None:
    css_url = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])((?:https?:)?//[^'")\s]+)""")
    problems = [
        f"{path.relative_to(site)}: {url}"
        for path in files(site, ".css")
        for url in css_url.findall(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert problems == []


def test_javascript_mentions_only_known_harmless_hosts(site: Path) -> None:
    unknown: dict[str, str] = {}
    for path in files(site, ".js", ".mjs"):
        for url in ABSOLUTE.findall(path.read_text(encoding="utf-8", errors="replace")):
            host = urlsplit(url).hostname or url.split("/")[2]
            if url.startswith("http:///") or host in NEVER_FETCHED or host in DOCUMENTATION_LINKS:
                continue  # "http:///" : an EMF namespace name inside mermaid
            unknown.setdefault(host, f"{path.relative_to(site)}: {url[:100]}")
    assert unknown == {}, "Check these hosts: fetched or not? Then list them above."


def test_our_own_code_names_no_other_origin(site: Path) -> None:
    own = [
        *files(site / "assets" / "generated" / "js", ".js"),
        site / "assets" / "lessonkit.css",
    ]
    for path in own:
        text = path.read_text(encoding="utf-8")
        hosts = {urlsplit(url).hostname for url in ABSOLUTE.findall(text)} - {"www.w3.org"}
        # CodeMirror and DOMPurify ship only namespace URIs and licence links.
        assert hosts <= DOCUMENTATION_LINKS, f"{path.name}: {hosts}"
