"""The ``lessonkit`` Markdown extension: register it before pymdownx.superfences.

It does these things around superfences' custom fences (see ``lessonkit.fences``):

1. ``FenceLineTagger`` (a preprocessor) finds the page's file and writes the line
   number of each lessonkit fence (``pycell``, consoles) into its header, so every later
   message can name ``file:line``; it also parses the page's mermaid diagrams
   (``lessonkit.build.diagrams``);
2. ``LeftoverFences`` (a postprocessor) fails the page when a tagged fence was not
   recognised and stands as text in the page (an unindented line in a tab);
3. ``BlockRunner`` (a postprocessor) runs the registered blocks in page order and
   replaces each placeholder with the finished block and its real output; the links in a
   block's own Markdown (an exercise's hints) are converted as MkDocs converts the page's
   (``lessonkit.build.links``).

It works in any generator that runs Python-Markdown extensions (MkDocs, Zensical).
"""

from __future__ import annotations

import re
import traceback
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from lessonkit.authoring.author_checks import (
    broken_glossary_link,
    glossary_anchors,
    misspelt_fence,
    nested_fence,
)
from lessonkit.build import links
from lessonkit.build.blocks import PLACEHOLDER, Block, PageState
from lessonkit.build.diagrams import check_diagrams
from lessonkit.build.errors import LessonError
from lessonkit.build.execute import run_page
from lessonkit.build.source import UNKNOWN_PAGE, locate
from lessonkit.fences import exercise_fences, names, render_block
from lessonkit.fences import mermaid as mermaid_fence
from lessonkit.fences.exercises import Exercise
from lessonkit.fences.options import LINE_OPTION

_FENCE = re.compile(r"^(?P<indent>[ \t>]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<rest>.*)$")


class FenceLineTagger(Preprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """Adds ``lkline="N"`` to the header of each of our fences."""

    def __init__(self, md: Markdown, docs_dir: str) -> None:
        super().__init__(md)
        self.docs_dir = docs_dir

    def run(self, lines: list[str]) -> list[str]:
        location = locate("\n".join(lines), self.docs_dir)
        tagged = {*names(), mermaid_fence.LANGUAGE}
        exercises = set(exercise_fences())
        open_language = ""  # the language of the code block we are inside
        page = PageState(location, self.docs_dir)
        self.md.lessonkit_page = page
        links.forget(page.relative_path)
        out: list[str] = []
        open_fence: str | None = None  # the fence of the code block we are inside
        diagram: list[str] | None = None  # the lines of the mermaid diagram we are inside
        indent, start = "", 0
        anchors = glossary_anchors(self.docs_dir) if "glossar.md#" in "\n".join(lines) else set()
        for index, line in enumerate(lines):
            match = _FENCE.match(line)
            if match is None:
                broken = (
                    broken_glossary_link(line, anchors) if open_fence is None and anchors else None
                )
                if broken is not None:
                    raise LessonError(location.path, location.line(index), broken)
                if diagram is not None:
                    diagram.append(line[len(indent) :] if line.startswith(indent) else line)
                out.append(line)
                continue
            fence, rest = match["fence"], match["rest"].strip()
            if open_fence is not None:
                # Inside a code block only its closing fence counts (examples in
                # the authoring guide must stay untouched).
                same = fence[0] == open_fence[0] and len(fence) >= len(open_fence)
                if same and rest and open_language in exercises:
                    raise LessonError(
                        location.path, location.line(index), nested_fence(open_language, fence)
                    )
                if not rest and same:
                    open_fence = None
                    if diagram is not None:
                        page.diagrams.append((start, "\n".join(diagram)))
                        diagram = None
                elif diagram is not None:
                    diagram.append(line[len(indent) :])
                out.append(line)
                continue
            open_fence = fence
            language = rest.split(None, 1)[0] if rest else ""
            open_language = language
            misspelt = misspelt_fence(language, tagged)
            if misspelt is not None:
                raise LessonError(location.path, location.line(index), misspelt)
            if language in tagged:
                line = f'{line.rstrip()} {LINE_OPTION}="{location.line(index)}"'
            if language == mermaid_fence.LANGUAGE:  # also parsed at build (diagrams.py)
                diagram, indent, start = [], match["indent"], location.line(index)
            out.append(line)
        check_diagrams(location.path, page.diagrams)
        return out


#: The preprocessor Zensical registers in the Markdown of each page it renders.
ZENSICAL_CONTEXT = "rendering_context"

_LEFTOVER = re.compile(
    r"(?:`{3,}|~{3,})[ \t]*([\w-]*)[^\n]*?\b" + LINE_OPTION + r'=(?:"|&quot;)(\d+)'
)


class LeftoverFences(Postprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """A fence that superfences did not recognise stays text, with its ``lkline``."""

    def run(self, text: str) -> str:
        page: PageState | None = getattr(self.md, "lessonkit_page", None)
        match = _LEFTOVER.search(text)
        if page is not None and match is not None:
            raise LessonError(
                page.location.path,
                int(match[2]),
                f"Der Block ```{match[1]} wurde nicht erkannt und steht als Text auf der "
                "Seite: Meist ist in einem Tab (=== „…“) oder Kasten (!!!, ???) eine "
                "Zeile nicht eingerückt, und der Tab endet dort. Alle Zeilen im Tab mit "
                "4 Leerzeichen einrücken (auch die schließenden ```).",
            )
        return text


class BlockRunner(Postprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """Runs the page's blocks and puts each finished block in its place."""

    def __init__(self, md: Markdown, use_directory_urls: bool = True) -> None:
        super().__init__(md)
        self.use_directory_urls = use_directory_urls

    def run(self, text: str) -> str:
        page: PageState | None = getattr(self.md, "lessonkit_page", None)
        # Python-Markdown's toc runs every postprocessor on each heading's inner HTML,
        # too: only text with our placeholders is the page itself.
        if page is None or not page.blocks or not PLACEHOLDER.search(text):
            return text
        try:
            results = run_page(page)
        except LessonError:
            raise
        except Exception as exc:  # a bug in lessonkit or pysim: still say which page
            detail = "".join(traceback.format_exception(exc))
            raise LessonError(
                page.location.path, None, f"Interner Fehler beim Bauen:\n{detail}"
            ) from exc
        blocks = {block.slot: block for block in page.blocks}

        def finished(match: re.Match[str]) -> str:
            block = blocks[int(match[1])]
            with links.converting(self._links(page, block)):
                return render_block(block, results[int(match[1])])

        html = PLACEHOLDER.sub(finished, text)
        links.check_own_anchors(page.relative_path, html)
        return html

    def _links(self, page: PageState, block: Block) -> links.BlockLinks | None:
        """What converts the links of ``block``'s own Markdown (None: the page's file is
        unknown, so nothing can be resolved against it)."""
        if page.location.path == UNKNOWN_PAGE:
            return None
        owner = f"{block.label} (id „{block.id}“)" if isinstance(block, Exercise) else block.label
        return links.BlockLinks(
            page=page.relative_path,
            docs_dir=page.docs_dir,
            path=page.location.path,
            owner=owner,
            line=block.line,
            src=block.src if isinstance(block, Exercise) else "",
            use_directory_urls=self.use_directory_urls,
            # Zensical rewrites every relative link of the page itself (lessonkit/build/links.py).
            rewrite=ZENSICAL_CONTEXT not in self.md.preprocessors,
        )


class LessonkitExtension(Extension):  # type: ignore[misc]  # Python-Markdown is untyped
    """Configuration: ``docs_dir`` (where the pages live, for error messages and links) and
    ``use_directory_urls`` (MkDocs' setting, which the MkDocs hook passes on)."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "docs_dir": ["docs", "Folder of the Markdown pages"],
            "use_directory_urls": [True, "Pages at <name>/ (MkDocs' use_directory_urls)"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # Before superfences (25) and whitespace normalisation (30): raw lines.
        md.preprocessors.register(
            FenceLineTagger(md, self.getConfig("docs_dir")), "lessonkit_lines", 35
        )
        # After the stashed HTML (and with it our placeholders) is back in the text.
        runner = BlockRunner(md, bool(self.getConfig("use_directory_urls")))
        md.postprocessors.register(runner, "lessonkit_blocks", 5)
        md.postprocessors.register(LeftoverFences(md), "lessonkit_leftovers", 6)


def makeExtension(**kwargs: Any) -> LessonkitExtension:
    return LessonkitExtension(**kwargs)
