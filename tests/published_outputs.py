"""What every published cell and console shows, to compare two builds of the site.

A change of ``pysim`` that re-hosts a lesson's simulation must leave every published cell's
output as it was (readers' drafts are keyed by a cell's code, and the lessons' text talks
about the output). Build the site before and after the change, then::

    .venv/bin/python -m tests.published_outputs dump SITE_BEFORE > before.json
    .venv/bin/python -m tests.published_outputs dump SITE_AFTER > after.json
    .venv/bin/python -m tests.published_outputs compare before.json after.json

``compare`` prints each cell whose text (output, value, error and the titles and text of its
pictures, as ``tests.test_pyodide_parity`` reads them) differs, with a unified diff, and
exits 1 if any does; ``--svg`` compares the pictures' whole markup as well.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup


def dump(site: Path, *, svg: bool) -> dict[str, str]:
    """``page › label`` -> what the built block shows (its text; with ``svg`` its pictures)."""
    shown: dict[str, str] = {}
    for path in sorted(site.rglob("*.html")):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for block in soup.select("[data-lk-cell], [data-lk-console]"):
            data: dict[str, Any] = json.loads(block.select_one("[data-lk-json]")["data-lk-json"])
            shows = block.select_one(".lk-console__log, output")
            if shows is None:
                continue
            text = shows.get_text()
            if svg:
                text += "".join(str(picture) for picture in block.select("svg"))
            shown[f"{path.relative_to(site).as_posix()} › {data['label']}"] = text
    return shown


def compare(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """One report per cell that is gone, new or shows something else."""
    reports = []
    for name in sorted(before.keys() | after.keys()):
        if name not in after:
            reports.append(f"{name}: nicht mehr da")
        elif name not in before:
            reports.append(f"{name}: neu")
        elif before[name] != after[name]:
            diff = difflib.unified_diff(
                before[name].splitlines(),
                after[name].splitlines(),
                "vorher",
                "nachher",
                lineterm="",
            )
            reports.append(f"{name}:\n" + "\n".join(diff))
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("site", type=Path)
    dumping.add_argument("--svg", action="store_true")
    comparing = commands.add_parser("compare")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "dump":
        json.dump(dump(args.site, svg=args.svg), sys.stdout, ensure_ascii=False, indent=1)
        return 0
    reports = compare(json.loads(args.before.read_text()), json.loads(args.after.read_text()))
    for report in reports:
        print(report, end="\n\n")
    print(f"{len(reports)} Blöcke unterscheiden sich.")
    return 1 if reports else 0


if __name__ == "__main__":
    sys.exit(main())
