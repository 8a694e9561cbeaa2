"""axe-core in a built page: the course's accessibility audit (tests/browser/test_accessibility.py).

axe comes from npm (`axe-core`, pinned in package.json). The pages have a strict
Content-Security-Policy, so axe is not added as a `<script>`: Playwright's init script
(`add_init_script`) runs before the page's own scripts through the browser's debugging
protocol, which the page's policy does not govern.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

#: Impacts that fail the audit.
FAILING = ("serious", "critical")

RUN = """async ([scope, without, only]) => {
    const result = await window.axe.run(scope ?? document, {
        runOnly: only.length
            ? { type: "rule", values: only }
            : { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
        rules: Object.fromEntries(without.map((id) => [id, { enabled: false }])),
        resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
    }));
}"""


def install(context: Any) -> None:
    """Make axe available in every page of `context` (before the page's scripts run)."""
    context.add_init_script(path=str(AXE))


def violations(
    page: Any,
    scope: str | None = None,
    without: tuple[str, ...] = (),
    only: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """The page's serious and critical violations (in the elements ``scope`` selects, if
    given; the rules named in ``without`` left out; only the rules named in ``only``, if
    given, instead of the course's WCAG 2.1 AA and best-practice tags)."""
    found = page.evaluate(RUN, [scope, list(without), list(only)])
    return [v for v in found if v["impact"] in FAILING]


def describe(found: list[dict[str, Any]], limit: int = 4) -> str:
    """A readable list of violations for an assertion message."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:limit]:
            summary = " ".join(str(node["summary"]).split())[:240]
            lines.append(f"    {node['target']}: {summary}")
        if len(violation["nodes"]) > limit:
            lines.append(f"    … {len(violation['nodes']) - limit} more")
    return "\n".join(lines)


def wait_mounted(page: Any, timeout: float = 60.0) -> None:
    """Wait until the course's blocks are mounted and Material's script has run
    (polling from Python: the page's policy forbids evaluating strings)."""
    import time

    deadline = time.monotonic() + timeout
    # Mounted, Material's script there, and no colour still in a CSS transition (axe
    # would measure a link halfway from the browser's default blue).
    while not page.evaluate(
        """() => Boolean(document.documentElement.dataset.lkPage)
            && window.document$ !== undefined
            && document.readyState === "complete"
            && !document.getAnimations().some((a) => a instanceof CSSTransition)"""
    ):
        if time.monotonic() > deadline:
            raise TimeoutError("page not mounted")
        page.wait_for_timeout(100)
