"""axe-core in a built page: the course's accessibility audit (tests/browser/test_accessibility.py).

axe comes from npm (`axe-core`, pinned in package.json). The pages have a strict
Content-Security-Policy, so axe is not added as a `<script>`: Playwright's init script
(`add_init_script`) runs before the page's own scripts through the browser's debugging
protocol, which the page's policy does not govern.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: The stylesheet that colours the course's blocks.
COURSE_CSS = ROOT / "docs" / "assets" / "lessonkit.css"

#: The widths a page is audited at: a desktop, and a phone.
WIDTHS = (1280, 390)
#: The rules whose verdict depends on colours (text against what lies behind it, a link
#: against the text around it): all of axe's that a colour scheme can change.
COLOUR_RULES = ("color-contrast", "link-in-text-block")
#: The rule that is nearly all of an audit's time.
CONTRAST = ("color-contrast",)
#: A view of a page: its width, and the rules it leaves out (``without``) or runs alone
#: (``only``).
View = tuple[int, dict[str, tuple[str, ...]]]

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


@contextmanager
def audited_page(browser: Any, **options: Any) -> Iterator[Any]:
    """A page of a new browser context (``options``: its viewport, scheme, touch) with axe
    installed and 60 s for each wait; the context closes after the block."""
    context = browser.new_context(**options)
    install(context)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        yield page
    finally:
        context.close()


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


def colours_by_width() -> list[str]:
    """The course stylesheet's media queries that depend on the viewport's width."""
    return re.findall(r"@media[^{]*width[^{]*", COURSE_CSS.read_text())


def scheme_rules_beyond_colours(css: str | None = None) -> list[str]:
    """What the course stylesheet sets per colour scheme besides custom properties (its
    colours are custom properties, ``--lk-…`` and Material's ``--md-…``): a scheme that
    changed a size, a display or a visibility would change more than colours."""
    css = re.sub(r"/\*.*?\*/", "", css or COURSE_CSS.read_text(), flags=re.S)
    beyond = re.findall(r"@media[^{]*prefers-color-scheme[^{]*", css)
    for selector, body in re.findall(r"([^{}]*)\{([^{}]*)\}", css):
        if "color-scheme" in selector:
            declarations = [d.strip() for d in body.split(";") if d.strip()]
            beyond += [
                f"{selector.strip()} {{ {d} }}" for d in declarations if not d.startswith("--")
            ]
    return beyond


def views(scheme: str, whole: bool = False) -> list[View]:
    """The views a page is audited in, in one colour scheme (``whole``: every rule at
    both widths, as the start page is audited).

    In the light scheme: every rule at the desktop width; at the phone's, all but colour
    contrast, which the desktop view has measured already (no colour of the course
    changes with the width, ``colours_by_width``; Material's palette is one per scheme).
    In the dark scheme: the colour rules at the desktop width. The scheme changes colours
    and nothing else: the course's stylesheet sets only colours per scheme
    (``scheme_rules_beyond_colours``), and Material's one other change, the palette
    toggle's label, sits in the header of every page, audited whole on the start page."""
    if whole:
        return [(width, {}) for width in WIDTHS]
    if scheme == "light":
        return [(WIDTHS[0], {}), (WIDTHS[1], {"without": CONTRAST})]
    return [(WIDTHS[0], {"only": COLOUR_RULES})]


def settled(page: Any) -> bool:
    """No colour or layout still in a CSS transition (axe would measure a link halfway
    from one colour to the next)."""
    return bool(
        page.evaluate("() => !document.getAnimations().some((a) => a instanceof CSSTransition)")
    )


def audit(page: Any, scheme: str, whole: bool = False, name: str = "") -> list[str]:
    """Audit the page in each of its ``views`` (the viewport resized: Material's layout is
    media queries and its script follows the viewport, so the page is loaded once); a
    report per view that found serious violations, headed with ``name``."""
    report = []
    height = page.viewport_size["height"] if page.viewport_size else 900
    for width, rules in views(scheme, whole):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("() => window.innerWidth") == width
        # The layout is the width's: Material's menu button shows below 1220 px (waited
        # for: a loaded machine may lay the page out for its new width a moment later).
        menu = page.locator('label.md-header__button[for="__drawer"]')
        if width < 1220:
            expect(menu).to_be_visible()
        else:
            expect(menu).to_be_hidden()
        while not settled(page):
            page.wait_for_timeout(100)
        found = violations(page, **rules)
        if found:  # a page still settling (theme script, a transition): look once more
            page.wait_for_timeout(1000)
            found = violations(page, **rules)
        if found:
            report.append(f"== {name} ({scheme}, {width} px)\n{describe(found)}")
    return report


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
