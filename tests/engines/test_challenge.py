"""A challenge in Firefox and in WebKit: the starting node (stage 1's, it keeps nothing) fails
with the lost value named and a picture of the shrunk run, the retrying node passes (the steps
of tests/browser/test_challenges.py, over WebDriver, without pasting the node of stage 2)."""

from __future__ import annotations

import json
import re

from tests.engines.reader import Reader

BROADCAST = "herausforderungen/broadcast/"
TASK = "broadcast-teilung"


def paste(reader: Reader, editor: dict[str, str], code: str) -> None:
    """Replace the editor's code as a reader pasting it does (typing would auto-indent).
    Firefox keeps a synthetic paste event's data from the page; there the text goes in as
    the browser's own text input (``insertText``), which the editor takes alike."""
    reader.click(editor)
    reader.session.press("Control", "a")
    reader.session.js(
        "const data = new DataTransfer(); data.setData('text/plain', arguments[1]);"
        "arguments[0].dispatchEvent(new ClipboardEvent('paste',"
        " { clipboardData: data, bubbles: true, cancelable: true }));"
        "const bare = (text) => text.replace(/\\s/g, '');"
        "if (bare(arguments[0].textContent) !== bare(arguments[1])) {"
        " arguments[0].focus(); document.execCommand('selectAll');"
        " document.execCommand('insertText', false, arguments[1]); }",
        editor,
        code,
    )


def test_a_challenge_fails_with_the_lost_value_then_passes(reader: Reader) -> None:
    reader.open(BROADCAST)
    root = reader.session.element(f"#{TASK}")
    editor = reader.editor(root)
    data = json.loads(
        reader.session.js(
            f"return document.querySelector('#{TASK} .lk-exercise__data').dataset.lkJson"
        )
    )
    seeds = data["vorgabe"]["seeds"]
    verdict = reader.check(TASK, timeout=300)
    assert re.fullmatch(r"✗ Seed \d+ scheitert\. .*Unten steht, was der Prüfer fand.*", verdict)
    failed = reader.text(
        f"return document.querySelector('#{TASK} .lk-challenge__seed--failed .lk-challenge__verdict').textContent"
    )
    assert re.search(r"Knoten n\d (kennt \d+ nicht|fehlen \d+ bestätigte Werte)", failed), failed
    title = reader.text(
        f"return document.querySelector('#{TASK} .lk-challenge__picture svg title').textContent"
    )
    assert title.startswith("Raum-Zeit-Bild des Laufs broadcast/k5/")
    paste(reader, editor, data["loesung"])
    reader.session.wait_for(
        "return document.querySelector(arguments[0]).textContent.includes('async def verteile')",
        f"#{TASK} .cm-content",
        message="the pasted solution in the editor",
    )
    assert (
        reader.check(TASK, timeout=300)
        == f"✓ Gelöst: alle {seeds} Läufe bestanden (Seeds 1–{seeds})."
    )
