"""Links inside a block's own Markdown (an exercise's task, hints, solution, explanation).

MkDocs converts the links of a page while it converts the page's Markdown
(``mkdocs.structure.pages._RelativePathTreeprocessor``): ``../glossar.md#idempotent`` becomes
the address of the glossary's page relative to this page's address (``../../glossar/#idempotent``
with directory URLs). A block's sections are Markdown converted on their own
(``lessonkit.fences.exercises.md``), after that, so their links were left as the author wrote them
and reached the reader as ``…/echo/index.md#nachrichten``, a page that does not exist.

Here they are converted the same way, with MkDocs' own ``File.url`` and
``get_relative_url``: a path relative to the page's Markdown file, query and anchor kept;
external links (``https:``, ``mailto:``) and links within the page (``#anker``) stay as they
are. Zensical (0.0.73) needs no conversion and must get none: it rewrites every relative
link of a page's finished HTML itself, our blocks' too, as relative to the page's Markdown
file (a converted ``../#nachrichten`` became ``../../#nachrichten``); under Zensical (its
``rendering_context`` preprocessor is registered) links are checked but left as written. An author's link to a file that is not in ``docs_dir`` stops the build at once, with
page, line, block and link (``LessonError``). Anchors are checked once the pages are
converted, against the ``id``s (and ``<a name>``s) of the finished HTML, as MkDocs' own
``validation.anchors`` does for a page's Markdown links: an anchor on the block's own page
right after the page's blocks are rendered (``check_own_anchors``, in
``lessonkit.build.extension``), an anchor on another page once every page is converted
(``check_anchors``, from the MkDocs hook's ``on_env``; generators without MkDocs hooks
leave that to the site's link check, ``tests/test_links.py``).

The extension says which block is being rendered (``converting``) and ``md`` asks
(``register``): a ``ContextVar``, because the fence kinds' ``render`` knows the block but not
the page.
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit
from xml.etree import ElementTree

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from lessonkit.build.errors import LessonError


@dataclass(frozen=True)
class AnchorLink:
    """A link with an anchor, to be checked once its target page is converted."""

    #: The page's file as errors name it (``docs/herausforderungen/echo.md``) and the line.
    path: str
    line: int
    #: The block, as errors name it (``Übung 2 (id „echo“)``).
    owner: str
    #: The link as the author wrote it.
    link: str
    #: The target's file relative to ``docs_dir`` (``herausforderungen/index.md``).
    target: str
    anchor: str

    def missing(self, anchors: set[str]) -> LessonError:
        """The author's error when the target has no element with this anchor."""
        close = difflib.get_close_matches(self.anchor, sorted(anchors), n=1, cutoff=0.6)
        hint = f" Meintest du „#{close[0]}“?" if close else ""
        return broken_link(
            self.path,
            self.line,
            self.owner,
            self.link,
            f"zeigt auf eine Stelle, die es auf der Seite „{self.target}“ nicht gibt: kein "
            f"Element mit der id „{self.anchor}“.{hint} Eine Überschrift trägt ihren Anker im "
            "Inhaltsverzeichnis der Seite, eine Übung ihre id.",
        )


def broken_link(path: str, line: int, owner: str, link: str, why: str) -> LessonError:
    """An author's link in a block that leads nowhere: ``path:line: owner: Der Link „…“ why``."""
    return LessonError(path, line, f"{owner}: Der Link „{link}“ {why}")


#: Links with an anchor, per page (its file relative to ``docs_dir``), from the page's
#: latest conversion (``forget`` clears a page's before it is converted again).
_ANCHOR_LINKS: dict[str, list[AnchorLink]] = {}


def forget(page: str) -> None:
    """The page ``page`` (relative to ``docs_dir``) is converted anew: drop its links."""
    _ANCHOR_LINKS.pop(page, None)


@dataclass
class BlockLinks:
    """Converts the links in one block's Markdown on one page, as MkDocs converts the page's."""

    #: The page's file relative to ``docs_dir`` (``herausforderungen/echo.md``).
    page: str
    docs_dir: str
    #: The page's file as errors name it (``docs/herausforderungen/echo.md``).
    path: str
    #: The block as errors name it, its first line and its body (to find a link's line).
    owner: str
    line: int
    src: str = ""
    use_directory_urls: bool = True
    #: False: check only, leave the link as written (Zensical converts it).
    rewrite: bool = True
    _files: dict[str, File] = field(default_factory=dict)

    def convert(self, url: str) -> str:
        """``url`` as MkDocs writes a link of this page; ``LessonError`` if it leads nowhere."""
        scheme, netloc, path, query, anchor = urlsplit(url)
        if scheme or netloc:  # external: https:, mailto:
            return url
        if url.startswith(("/", "\\")):
            raise self._error(
                url,
                "beginnt mit „/“: Auf einem Server, der den Kurs unter einem Pfad zeigt "
                "(GitHub Pages: /kurs/), führt er ins Leere. Schreib den Pfad der Markdown-"
                "Datei relativ zu dieser Seite, z. B. „../glossar.md#idempotent“.",
            )
        if not path:  # this page: "#anker"
            if anchor:
                self._remember(url, self.page, anchor)
            return url
        target = posixpath.normpath(
            posixpath.join(posixpath.dirname(self.page), unquote(path))
        ).lstrip("/")
        outside = target == ".." or target.startswith("../")
        if outside or not (Path(self.docs_dir) / target).is_file():
            raise self._error(url, self._no_file(target, outside))
        if anchor:
            self._remember(url, target, anchor)
        if not self.rewrite:
            return url
        address = get_relative_url(self._file(target).url, self._file(self.page).url)
        return urlunsplit(("", "", address, query, anchor))

    def _file(self, src: str) -> File:
        if src not in self._files:
            self._files[src] = File(
                src, self.docs_dir, "site", use_directory_urls=self.use_directory_urls
            )
        return self._files[src]

    def _no_file(self, target: str, outside: bool) -> str:
        pages = sorted(
            p.relative_to(self.docs_dir).as_posix() for p in Path(self.docs_dir).rglob("*.md")
        )
        close = difflib.get_close_matches(target, pages, n=1, cutoff=0.6)
        hint = f" Meintest du „{close[0]}“?" if close else ""
        if outside:
            what = "führt aus dem Ordner der Seiten hinaus."
        elif (Path(self.docs_dir) / target).is_dir():
            folder = "den obersten Ordner" if target == "." else f"den Ordner „{target}/“"
            what = f"zeigt auf {folder} der Seiten, nicht auf eine Seite."
        else:
            what = f"zeigt auf „{target}“, und diese Datei gibt es nicht im Ordner der Seiten."
        return (
            f"{what}{hint} Ein Link nennt die Markdown-Datei relativ zu dieser Seite, z. B. "
            "„../glossar.md#idempotent“ oder „index.md#nachrichten“."
        )

    def _line_of(self, url: str) -> int:
        """The line of the page where the link stands (the block's first line if not found)."""
        for row, text in enumerate(self.src.splitlines()):
            if url in text:
                return self.line + 1 + row
        return self.line

    def _error(self, url: str, why: str) -> LessonError:
        return broken_link(self.path, self._line_of(url), self.owner, url, why)

    def _remember(self, url: str, target: str, anchor: str) -> None:
        link = AnchorLink(self.path, self._line_of(url), self.owner, url, target, unquote(anchor))
        _ANCHOR_LINKS.setdefault(self.page, []).append(link)


_current: ContextVar[BlockLinks | None] = ContextVar("lessonkit_block_links", default=None)


@contextmanager
def converting(links: BlockLinks | None) -> Iterator[None]:
    """While a block renders: the Markdown it converts (``register``) converts its links."""
    token = _current.set(links)
    try:
        yield
    finally:
        _current.reset(token)


class _Rewriter(Treeprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """Like MkDocs' ``_RelativePathTreeprocessor``: every ``<a href>`` and ``<img src>``."""

    def __init__(self, md: Markdown, links: BlockLinks) -> None:
        super().__init__(md)
        self.links = links

    def run(self, root: ElementTree.Element) -> None:
        for element in root.iter():
            key = {"a": "href", "img": "src"}.get(element.tag)
            value = element.get(key) if key else None
            if key and value is not None:
                element.set(key, self.links.convert(value))


def register(md: Markdown) -> None:
    """``md`` converts its links for the block being rendered (if one is: ``converting``)."""
    links = _current.get()
    if links is not None:
        md.treeprocessors.register(_Rewriter(md, links), "lessonkit_links", 0)


class _Anchors(HTMLParser):
    """Every anchor of a page's HTML: ``id``s, and ``name``s of ``<a>`` (MkDocs' rule)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is not None and (name == "id" or (name == "name" and tag == "a")):
                self.found.add(value)


def anchors_in(html: str) -> set[str]:
    """The anchors a link can point to in ``html``."""
    parser = _Anchors()
    parser.feed(html)
    parser.close()
    return parser.found


def check_own_anchors(page: str, html: str) -> None:
    """Every anchor a block of ``page`` links to on ``page`` itself is in its ``html``."""
    own = [link for link in _ANCHOR_LINKS.get(page, []) if link.target == page]
    if not own:
        return
    anchors = anchors_in(html)
    for link in own:
        if link.anchor not in anchors:
            raise link.missing(anchors)


def check_anchors(pages: Mapping[str, str]) -> None:
    """Every anchor a block links to on another page is there: ``pages`` are the converted
    pages (file relative to ``docs_dir`` -> finished HTML); links from or to a page not
    among them are left alone (``mkdocs serve --dirty`` converts only what changed)."""
    found: dict[str, set[str]] = {}
    for page in sorted(_ANCHOR_LINKS):
        if page not in pages:
            continue
        for link in _ANCHOR_LINKS[page]:
            if link.target == page or link.target not in pages:
                continue
            if link.target not in found:
                found[link.target] = anchors_in(pages[link.target])
            if link.anchor not in found[link.target]:
                raise link.missing(found[link.target])
