"""Check the pages an author names, in seconds, with what the full build and the content
tests check for them, in German with file:line:

    ./scripts/check-page docs/lektionen/meine-lektion.md

1. the page's rules (``lessonkit.authoring.page_rules``: start page, progress overview, closing
   sections, glossary links, length, code lines that fit a phone);
2. the page converted as the site converts it, every block run (``lessonkit.build.extension``
   with mkdocs.yml's Markdown configuration): every mistake the build would name;
3. the same page converted twice more, in fresh processes with other hash seeds: a block
   whose output differs between the runs (a clock, an unseeded ``random``, a printed set of
   strings) shows the reader something else than the page.

Exit code 0 when all is well, 1 with one line per finding otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from lessonkit.authoring import page_rules
from lessonkit.build.errors import LessonError

ROOT = page_rules.ROOT
#: Hash seeds of the two extra runs (the build's own is whatever Python picked).
SEEDS = ("1", "2")


def markdown_converter(page: Path) -> Any:
    """A Markdown converter with mkdocs.yml's extensions and their options, for ``page``
    (its file found in the course's docs/, or beside it for a page elsewhere)."""
    import markdown
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    extensions = config["markdown_extensions"]
    options = dict(config["mdx_configs"])
    docs = ROOT / "docs"
    inside = page.resolve().is_relative_to(docs)
    options["lessonkit.build.extension"] = {
        "docs_dir": str(docs if inside else page.resolve().parent)
    }
    return markdown.Markdown(extensions=extensions, extension_configs=options)


def run_blocks(page: Path) -> list[tuple[int, str, str]]:
    """Convert ``page``; each block's ``(line, label, HTML)`` in page order."""
    from lessonkit.build import extension

    rendered: list[tuple[int, str, str]] = []
    # The extension's own name for it: each finished block passes through here.
    names = vars(extension)
    render = names["render_block"]

    def recording(block: Any, result: Any) -> str:
        html: str = render(block, result)
        rendered.append((block.line, block.label, html))
        return html

    names["render_block"] = recording
    try:
        markdown_converter(page).convert(page.read_text(encoding="utf-8"))
    finally:
        names["render_block"] = render
    return rendered


def _run_elsewhere(page: Path, seed: str) -> list[list[Any]] | str:
    """``run_blocks`` in a fresh Python with hash seed ``seed``: its blocks, or its error."""
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-m", "lessonkit.authoring.check_page", "--blocks", str(page)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return done.stderr.strip() or done.stdout.strip()
    blocks: list[list[Any]] = json.loads(done.stdout)
    return blocks


def differing_blocks(page: Path) -> list[page_rules.Finding]:
    """Blocks whose output differs between two runs with other hash seeds."""
    runs = [_run_elsewhere(page, seed) for seed in SEEDS]
    where = page_rules._rel(page)
    for run in runs:
        if isinstance(run, str):
            return [page_rules.Finding(where, None, run)]
    first, second = runs
    findings = []
    for (line, label, one), (_, _, other) in zip(first, second, strict=True):
        if one != other:
            findings.append(
                page_rules.Finding(
                    where,
                    line,
                    f"{label} zeigt bei jedem Lauf etwas anderes (geprüft mit zwei Läufen): "
                    "Der Leser sieht dann nicht, was auf der Seite steht. Meist eine Uhr "
                    "(time.time(), datetime.now()), ein random ohne festen Seed "
                    "(random.Random(1)) oder eine ausgegebene Menge (set) von Texten, deren "
                    "Reihenfolge wechselt (sorted(...) ausgeben).",
                )
            )
    return findings


def check(page: Path, twice: bool = True) -> list[page_rules.Finding]:
    """Everything the one-page check finds on ``page``."""
    findings = page_rules.check(page)
    try:
        run_blocks(page)
    except LessonError as error:
        findings.append(page_rules.Finding(error.path, error.line, error.message))
        return findings  # the page does not build: another run would say the same
    if twice:
        findings.extend(differing_blocks(page))
    return findings


def main(argv: list[str]) -> int:
    if argv[:1] == ["--blocks"]:  # one run, for differing_blocks
        try:
            print(json.dumps(run_blocks(Path(argv[1]))))
        except LessonError as error:
            print(str(error), file=sys.stderr)
            return 1
        return 0
    if not argv:
        print("Welche Seite? z. B. ./scripts/check-page docs/lektionen/sagas.md", file=sys.stderr)
        return 2
    findings: list[page_rules.Finding] = []
    for name in argv:
        page = Path(name)
        if not page.is_file():
            findings.append(page_rules.Finding(name, None, "Diese Datei gibt es nicht."))
            continue
        findings.extend(check(page))
    for finding in findings:
        print(finding)
    if not findings:
        print(f"In Ordnung: {', '.join(argv)}.")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
