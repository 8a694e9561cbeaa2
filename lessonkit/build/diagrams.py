"""Mermaid diagrams are parsed at build time, with the site's own mermaid.

A diagram with a typo (``sequenceDiagramm``) would otherwise reach the reader as
raw source. ``FenceLineTagger`` collects each ``mermaid`` fence of a page with its
line; ``check_diagrams`` parses them all in one Node.js process
(``lessonkit/node/check_mermaid.mjs``) and fails with the diagram's file line.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from lessonkit.build.errors import LessonError

CHECKER = Path(__file__).resolve().parents[1] / "node" / "check_mermaid.mjs"
ROOT = Path(__file__).resolve().parents[2]

#: Seconds the parse of one page's diagrams may take.
TIME_LIMIT = 60


def check_diagrams(path: str, diagrams: list[tuple[int, str]]) -> None:
    """Parse each (fence line, text) of a page; raise a LessonError for the first bad one."""
    if not diagrams:
        return
    try:
        done = subprocess.run(
            ["node", str(CHECKER)],
            input=json.dumps([text for _, text in diagrams]),
            capture_output=True,
            text=True,
            cwd=ROOT,  # mermaid comes from the project's node_modules
            timeout=TIME_LIMIT,
        )
    except subprocess.TimeoutExpired:
        raise LessonError(
            path, diagrams[0][0], f"Die Diagramme brauchen länger als {TIME_LIMIT} s zum Prüfen."
        ) from None
    if done.returncode != 0:
        raise LessonError(
            path, diagrams[0][0], f"Node.js konnte die Diagramme nicht prüfen:\n{done.stderr}"
        )
    for (line, _), result in zip(diagrams, json.loads(done.stdout), strict=True):
        if result["error"]:
            where = line + result["line"] if result["line"] else line
            raise LessonError(
                path,
                where,
                "Das mermaid-Diagramm ist ungültig; mermaid sagt:\n"
                f"{result['error'].strip()}\n"
                "Prüfe die erste Zeile (die Art des Diagramms, z. B. `sequenceDiagram`, "
                "`flowchart LR`) und die genannte Zeile.",
            )
