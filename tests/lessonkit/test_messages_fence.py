"""``nachrichten``: a challenge page's table of messages is the declaration the clients check
every reply against (``pysim.cluster.formen``), so page and check cannot differ."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pysim.cluster.formen import FEHLER_FELDER, FORMEN, beispiel
from tests.lessonkit.seiten import build_error, convert

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@pytest.mark.parametrize("last", sorted(FORMEN))
def test_the_table_is_the_declaration(tmp_path: Path, last: str) -> None:
    soup = convert(tmp_path, f'```nachrichten last="{last}"\n```\n')
    block = soup.select_one(f'.lk-nachrichten[data-last="{last}"]')
    assert block is not None
    rows = block.select("tbody tr")
    assert [row["data-anfrage"] for row in rows] == [rpc.anfrage for rpc in FORMEN[last]]
    for row, rpc in zip(rows, FORMEN[last], strict=True):
        ask, answer = row.select("td")
        assert ask.select("code")[0].get_text() == beispiel(rpc.anfrage, rpc.felder)
        assert answer.select("code")[0].get_text() == beispiel(rpc.antwort, rpc.antwort_felder)
        for feld in rpc.felder:
            assert f"{feld.name}: {feld.bedeutung} ({feld.art.name}" in ask.get_text()
        for feld in rpc.antwort_felder:
            assert f"{feld.name}: {feld.bedeutung} ({feld.art.name}" in answer.get_text()
        for fehler in rpc.fehler:
            assert f"Fehler {fehler.code}: {fehler.bedeutung}." in answer.get_text()
    text = block.select_one("p").get_text()
    assert beispiel("error", FEHLER_FELDER) in text
    assert "Die Codes 1, 10, 11, 12, 14, 20, 21, 22, 30 heißen: sicher nicht geschehen" in text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('```nachrichten last="kaffee"\n```\n', "last=„kaffee“ gibt es nicht"),
        ("```nachrichten\n```\n", 'braucht last="…"'),
        ('```nachrichten last="echo"\n{"type": "echo"}\n```\n', "bleibt leer"),
    ],
)
def test_mistakes_are_named(tmp_path: Path, text: str, says: str) -> None:
    assert says in build_error(tmp_path, text).message


def test_every_challenge_page_shows_the_table_of_its_workload() -> None:
    for page in sorted(DOCS.glob("**/*.md")):
        if page.name == "autoren.md":  # its examples are Markdown shown, not run
            continue
        text = page.read_text(encoding="utf-8")
        lasten = set(re.findall(r'^```herausforderung [^\n]*\blast="([^"]+)"', text, re.M))
        if not lasten:
            continue
        tabellen = re.findall(r'^```nachrichten last="([^"]+)"', text, re.M)
        assert sorted(set(tabellen)) == sorted(lasten), page.name
        # No hand-written request examples beside it: the table is the one place.
        if page.parent.name == "herausforderungen":
            assert "```json" not in text, page.name
