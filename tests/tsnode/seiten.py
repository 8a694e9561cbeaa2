"""The challenges of the pages that have a TypeScript rendering (``--- loesung-ts``)."""

from __future__ import annotations

import re
from pathlib import Path

from lessonkit.fences.exercises import Challenge, make_challenge

SEITEN = Path(__file__).resolve().parents[2] / "docs" / "herausforderungen"
_FENCE = re.compile(r"```herausforderung([^\n]*)\n(.*?)\n```\n", re.S)


def ts_challenges() -> list[Challenge]:
    """Every challenge fence of the challenge pages with TypeScript sections, in page order."""
    found = []
    for page in sorted(SEITEN.glob("*.md")):
        for match in _FENCE.finditer(page.read_text(encoding="utf-8")):
            if "--- loesung-ts" not in match[2]:
                continue
            options = dict(re.findall(r'(\w+)="([^"]*)"', match[1]))
            found.append(make_challenge(0, 1, match[2], options))
    return found
