"""Every link a reader can follow on the built site (MkDocs' build and Zensical's) leads to
a page and anchor that exist (tests/linkcheck.py): in the HTML, in an exercise's hints and
solutions, and in the data the front end renders later. Links to other sites are listed
(``pytest -rP``), never fetched.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

import pytest

from tests.conftest import mkdocs_build, small_site
from tests.linkcheck import IN_DATA, Report, check_site, hrefs


@pytest.fixture(scope="module")
def report(built_site: Path) -> Report:
    return check_site(built_site)


def test_every_link_of_the_built_site_leads_to_a_page_and_anchor(report: Report) -> None:
    assert report.checked > 2000, report.checked  # the pages were read
    assert not report.broken, "Links ins Leere:\n" + "\n".join(report.broken)


def test_every_link_of_the_zensical_build_leads_to_a_page_and_anchor(zensical_site: Path) -> None:
    # Zensical rewrites the links of a page's HTML itself (lessonkit/build/links.py says how).
    report = check_site(zensical_site)
    assert report.checked > 2000, report.checked
    assert not report.broken, "Links ins Leere:\n" + "\n".join(report.broken)


def test_links_to_other_sites_are_listed_not_fetched(report: Report) -> None:
    # No request leaves the machine: what the course links to elsewhere is only listed.
    print(f"{len(report.external)} Links auf andere Seiten (nicht abgerufen):")
    for address in sorted(report.external):
        print(f"  {address}")
    assert any(address.startswith("https://") for address in report.external)


def test_the_challenge_hints_link_into_the_overview(built_site: Path) -> None:
    page = (built_site / "herausforderungen" / "echo" / "index.html").read_text(encoding="utf-8")
    found = {href for href, _ in hrefs(page)}
    assert "../#nachrichten" in found and "index.md#nachrichten" not in found


# --- the check proved on planted links ---------------------------------------------------


def page(body: str) -> str:
    return f"<!doctype html><html><body>{body}</body></html>"


def test_the_check_reports_missing_pages_and_anchors_with_page_and_link(tmp_path: Path) -> None:
    data = {"type": "x", "texte": ['<p>Siehe <a href="../ziel/#auch-weg">dort</a>.</p>']}
    (tmp_path / "ziel").mkdir()
    (tmp_path / "ziel" / "index.html").write_text(
        page('<h2 id="da">Da</h2><a name="alt"></a><svg><a href="#da"><text>x</text></a></svg>')
    )
    (tmp_path / "seite").mkdir()
    (tmp_path / "seite" / "index.html").write_text(
        page(
            '<a href="../ziel/">gut</a> <a href="../ziel/#da">gut</a> <a href="../ziel/#alt">gut</a>'
            ' <a href="../">gut</a> <a href="#oben">weg</a>'
            ' <a href="https://example.org/x.md">draußen</a>'
            ' <a href="../fehlt/">weg</a> <a href="../ziel/#weg">weg</a>'
            '<details class="lk-exercise__hint"><summary>Hinweis</summary>'
            '<p><a href="index.md#nachrichten">Überblick</a></p></details>'
            f'<div hidden data-lk-json="{escape(json.dumps(data), quote=True)}"></div>'
        )
    )
    (tmp_path / "index.html").write_text(page('<h1 id="oben">Start</h1>'))
    report = check_site(tmp_path)
    assert report.broken == [
        "seite/index.html: „#oben“ → auf „/seite/index.html“ gibt es keinen Anker „oben“",
        "seite/index.html: „../fehlt/“ → die Seite „/fehlt/“ gibt es nicht",
        "seite/index.html: „../ziel/#weg“ → auf „/ziel/“ gibt es keinen Anker „weg“",
        "seite/index.html: „index.md#nachrichten“ → die Seite „/seite/index.md“ gibt es nicht",
        f"seite/index.html: „../ziel/#auch-weg“ ({IN_DATA}) → auf „/ziel/“ gibt es "
        "keinen Anker „auch-weg“",
    ]
    assert report.external == {"https://example.org/x.md"}
    assert report.checked == 11


EXERCISE_PAGE = """# Eine Seite

```quiz id="frage"
--- frage
Was steht am [Anfang]({link})?
--- richtig
Ein Anfang.
--- falsch
Nichts.
```
"""


def test_a_built_exercise_link_leads_where_the_author_meant(tmp_path: Path) -> None:
    config = small_site(
        tmp_path,
        {
            "index.md": "# Start\n\n## Der Anfang {#anfang}\n",
            "seite.md": EXERCISE_PAGE.format(link="index.md#anfang"),
        },
    )
    result = mkdocs_build(tmp_path / "site", config)
    assert result.returncode == 0, result.stdout + result.stderr
    built = (tmp_path / "site" / "seite" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../#anfang">Anfang</a>' in built
    assert check_site(tmp_path / "site").broken == []


def test_a_build_stops_at_an_exercise_link_to_an_anchor_another_page_lacks(
    tmp_path: Path,
) -> None:
    config = small_site(
        tmp_path,
        {
            "index.md": "# Start\n\n## Der Anfang {#anfang}\n",
            "seite.md": EXERCISE_PAGE.format(link="index.md#anfng"),
        },
    )
    result = mkdocs_build(tmp_path / "site", config)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert (
        "seite.md:5: Übung 1 (id „frage“): Der Link „index.md#anfng“ zeigt auf eine Stelle, "
        "die es auf der Seite „index.md“ nicht gibt: kein Element mit der id „anfng“. "
        "Meintest du „#anfang“?"
    ) in output
