"""The Raft console (``raft-konsole``) in the browser: typed commands change text and
picture, a bad one is a German error, the picture fits a phone.

It runs on the first Raft console of the lesson "Konsens: Leader-Wahl und Raft" (its
console task's); while that page has none, the tests are skipped with that reason. The commands hold
whatever the page's console set up before."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Console, assert_fits_a_phone, phone_page
from tests.conftest import ROOT

SEITE = ROOT / "docs" / "lektionen" / "konsens-raft.md"
LESSON = "lektionen/konsens-raft/"

pytestmark = pytest.mark.skipif(
    not SEITE.exists()
    or not re.search(r'```raft-konsole|kind="raft"', SEITE.read_text(encoding="utf-8")),
    reason="no page has a raft-konsole yet (docs/lektionen/konsens-raft.md)",
)


def test_commands_change_text_and_picture(page: Page, site_url: str) -> None:
    raft = Console.first(page, kind="raft", on=site_url + LESSON)
    expect(raft.root.locator(".lk-console__head")).to_contain_text("Raft-Konsole")
    before = raft.picture.inner_html()
    expect(raft.command("tick 50")).to_contain_text(re.compile(r"Zeit: t=\d+ \(\+50\)\."))
    assert raft.picture.inner_html() != before
    expect(raft.picture.locator("svg title")).to_contain_text("Raft bei t=")
    entry = raft.expect_answer("status", "Mehrheit")
    expect(entry).to_contain_text("KNOTEN")
    raft.expect_answer("partition n1", "Netzpartition: n1 |")
    expect(raft.picture.locator("svg")).to_contain_text("Netzpartition: n1 |")
    raft.expect_answer("heal", "Netzpartition geheilt.")
    raft.expect_refusal("partition n9", "Den Knoten „n9“ gibt es nicht.")
    raft.expect_answer("urteil", "Sicherheit")


def test_the_picture_fits_a_phone(browser: object, site_url: str) -> None:
    with phone_page(browser, site_url + LESSON) as page:
        raft = Console.first(page, kind="raft")
        expect(raft.picture.locator("svg")).to_be_visible()
        assert_fits_a_phone(page, "[data-kind=raft] .lk-console__picture svg")
