"""The link check of a built site: every address a reader can follow, and where it leads.

Read from each page (``**/*.html`` below the site): every ``href`` of ``<a>`` and
``<area>`` (an SVG picture's ``<a>`` too, ``href`` or ``xlink:href``) in the HTML as the
build wrote it, including what is hidden until the reader asks (an exercise's hints and
solution in ``<details>``, a quiz's explanations), and in the data the front end renders
later: every string inside a block's JSON (``data-lk-json``) that holds HTML is read the
same way. A link within the site must lead to a file of the site (``…/`` to its
``index.html``), and its anchor (``#…``) to an element with that ``id`` (or an ``<a>`` with
that ``name``) in the target page's HTML. Links to other sites are listed, never fetched:
no request leaves the machine. ``tests/test_links.py`` runs it on the course's build.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from bs4 import BeautifulSoup, Tag

from lessonkit.build.links import anchors_in

#: Where a link stood: in the page's HTML, or inside a block's data for the front end.
IN_HTML = "HTML"
IN_DATA = "Daten für die Seite (data-lk-json)"


@dataclass(frozen=True)
class Link:
    """A link as a page carries it."""

    #: The page, below the site (``herausforderungen/echo/index.html``).
    page: str
    href: str
    where: str = IN_HTML

    def __str__(self) -> str:
        where = "" if self.where == IN_HTML else f" ({self.where})"
        return f"{self.page}: „{self.href}“{where}"


@dataclass
class Report:
    """What the check found: broken links (each with why), and the external addresses."""

    broken: list[str] = field(default_factory=list)
    external: set[str] = field(default_factory=set)
    checked: int = 0


def hrefs(html: str) -> Iterator[tuple[str, str]]:
    """``(href, where)`` for every followable link of a page's HTML and of its blocks' data."""
    soup = BeautifulSoup(html, "html.parser")
    yield from ((href, IN_HTML) for href in _anchors(soup))
    for node in soup.select("[data-lk-json]"):
        for text in _strings(json.loads(str(node["data-lk-json"]))):
            if "<" in text:
                yield from (
                    (href, IN_DATA) for href in _anchors(BeautifulSoup(text, "html.parser"))
                )


def _anchors(soup: BeautifulSoup) -> Iterator[str]:
    for node in soup.find_all(["a", "area"]):
        assert isinstance(node, Tag)
        for name in ("href", "xlink:href"):
            value = node.get(name)
            if isinstance(value, str):
                yield value


def _strings(data: object) -> Iterator[str]:
    """Every string in a JSON value, keys too."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _strings(value)


def check_site(site: Path) -> Report:
    """Every link of every page of ``site``: what is broken, and where links leave the site."""
    report = Report()

    @cache
    def anchors(page: Path) -> set[str]:
        return anchors_in(page.read_text(encoding="utf-8"))

    for path in sorted(site.rglob("*.html")):
        page = path.relative_to(site).as_posix()
        for href, where in hrefs(path.read_text(encoding="utf-8")):
            report.checked += 1
            problem = _problem(site, Link(page, href, where), report.external, anchors)
            if problem is not None:
                report.broken.append(problem)
    return report


def _problem(
    site: Path, link: Link, external: set[str], anchors: Callable[[Path], set[str]]
) -> str | None:
    """Why ``link`` leads nowhere, or None (an external link is added to ``external``)."""
    address = urljoin(f"/{link.page}", link.href)
    parts = urlsplit(address)
    if parts.scheme or parts.netloc:
        external.add(link.href)
        return None
    path = unquote(parts.path)
    if posixpath.normpath(path).startswith("/.."):
        return f"{link} führt über die Wurzel der Seite hinaus"
    target = site / path.lstrip("/")
    if path.endswith("/") or target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return f"{link} → die Seite „{path}“ gibt es nicht"
    anchor = unquote(parts.fragment)
    if not anchor:
        return None
    if target.suffix != ".html":
        return f"{link} → „{path}“ ist keine Seite und hat keine Anker"
    if anchor not in anchors(target):
        return f"{link} → auf „{path}“ gibt es keinen Anker „{anchor}“"
    return None
