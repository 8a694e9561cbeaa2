"""A challenge (``herausforderung``) in headless Chromium, like a reader: the node of the
stage before (it sends each value once) loses acknowledged values under a partition, the
verdict says which, the shrunk run's picture shows it; the reader writes the retrying node
and every seed passes; the draft stays over a reload; a run's identity replays it."""

from __future__ import annotations

import re
from typing import Literal

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser import axe
from tests.browser.pages import Exercise, python_ready, stored_progress
from tests.conftest import ROOT
from tests.pysim.knoten_beispiele import LEASE_OHNE_TOKEN

BROADCAST = "herausforderungen/broadcast/"
#: Judging a failing seed runs, checks, shrinks and draws it in the reader's Python.
SLOW = 180_000


def test_a_node_without_retries_fails_with_the_lost_value_named_then_the_solution_passes(
    page: Page, site_url: str
) -> None:
    task = Exercise.mounted(page, "broadcast-teilung", on=site_url + BROADCAST)
    seeds = task.seeds
    # The node a reader brings from stage 2 (its solution): it sends each value once and
    # never again, so a partition loses it. Stage 3 starts from stage 1's starting code.
    task.replace_code(Exercise.by_id(page, "broadcast-viele").data["loesung"])

    task.press_check()
    # Prüfen stops at the first failing seed: one verdict, the seeds before it in one line.
    expect(task.feedback).to_contain_text(re.compile(r"Seed \d+ scheitert"), timeout=SLOW)
    expect(task.root.locator(".lk-challenge__seed")).to_have_count(1)
    failed = task.root.locator(".lk-challenge__seed--failed").first
    # The verdict names the node and the acknowledged value it never read.
    expect(failed.locator(".lk-challenge__verdict").first).to_have_text(
        re.compile(r"Knoten n\d (kennt \d+ nicht|fehlen \d+ bestätigte Werte)")
    )
    expect(failed.locator(".lk-challenge__shrunk")).to_contain_text(
        "Der kleinste Lauf, der noch scheitert"
    )
    picture = failed.locator(".lk-challenge__picture svg")
    # The picture's own title (each arrow has one too: its message).
    expect(picture.locator(":scope > title")).to_contain_text("Raum-Zeit-Bild des Laufs")
    expect(picture.locator("desc")).to_contain_text(re.compile(r"\d+ Netzpartition(en)?\b"))
    kennung = failed.locator(".lk-challenge__id code").inner_text()
    assert kennung.startswith("broadcast/k5/")
    task.expect_unsolved()

    # The identity replays that run, judged again.
    task.root.get_by_label(re.compile("^Kennung eines Laufs")).fill(kennung)
    task.root.get_by_role("button", name=re.compile("^Lauf wiederholen")).click()
    expect(task.root.locator(".lk-challenge__seed")).to_have_count(1, timeout=SLOW)
    expect(task.root.locator(".lk-challenge__id code")).to_have_text(kennung)

    task.passes_with(task.data["loesung"])
    expect(task.root.locator(".lk-challenge__passed")).to_have_text(
        f"✓ Seeds 1–{seeds}: alle {seeds} Läufe bestanden"
    )
    task.expect_solved()

    # Weitere Läufe: the next 20 seeds, outside the verdict; the exercise stays solved.
    task.root.get_by_role("button", name=re.compile("^Weitere Läufe")).click()
    expect(task.root.locator(".lk-challenge__more-verdict")).to_contain_text(
        f"Auch die weiteren 20 Läufe (Seeds {seeds + 1}–{seeds + 20}) bestanden. "
        "Sie zählen nicht zum Urteil",
        timeout=SLOW,
    )
    task.expect_solved()

    # The reader's node is a draft like every other: a reload keeps it.
    page.reload()
    task = Exercise.mounted(page, "broadcast-teilung")
    expect(task.editor).to_contain_text("async def")
    task.expect_solved()


def test_code_that_defines_no_node_gets_a_german_message(page: Page, site_url: str) -> None:
    task = Exercise.mounted(page, "broadcast-teilung", on=site_url + BROADCAST)
    task.replace_code("x = 1")
    expect(task.check()).to_have_text(
        "✗ Dein Code läuft nicht; die Meldung steht unten.", timeout=SLOW
    )
    expect(task.root.locator(".lk-challenge__seed pre")).to_contain_text(
        "Dein Code definiert keinen Knoten"
    )


def _fehlversuch(seite: str, merkmal: str) -> str:
    """A wrong node of challenge 8 (a ``fehlversuch`` of the page: proved at build, never
    shipped, so read from the page's source), found by a phrase of its first comment."""
    text = (ROOT / "docs" / "herausforderungen" / seite).read_text(encoding="utf-8")
    # the line may name the rule the attempt must fail with: --- fehlversuch „…“
    versuche = re.findall(r"^--- fehlversuch[^\n]*\n(.*?)(?=^--- |^```$)", text, re.M | re.S)
    return next(v for v in versuche if merkmal in v)


#: The first three challenges, the lease challenge, Raft's election, log and crashes and the
#: transactions' stage 2, each with a wrong node a reader might write first and what the verdict
#: of its failing seed names (the lost or doubled value, the cas that lost an update, the second
#: vote in a term, the committed entry a new leader lacks, the cycle of overwrites).
ERSTE = [
    pytest.param(
        "herausforderungen/echo/",
        "echo",
        "class Zurufer(Knoten):\n"
        "    def bei_echo(self, nachricht):\n"
        '        self.antworte(nachricht, {"type": "echo_ok"})\n',
        # the reply's shape is checked first (pysim.cluster.formen): it lacks its echo
        r"Client c\d+, echo bei t=\d+: Die Antwort hat type „echo_ok“, aber kein Feld „echo“",
        id="echo",
    ),
    pytest.param(
        "herausforderungen/eindeutige-ids/",
        "eindeutige-ids",
        None,  # the starting node: the clock as the id
        r"Die ID \S+ wurde \d+-mal vergeben",
        id="eindeutige-ids",
    ),
    pytest.param(
        "herausforderungen/broadcast/",
        "broadcast-einzeln",
        None,  # the starting node: it keeps nothing
        r"Knoten n1 (kennt \d+ nicht|fehlen \d+ bestätigte Werte)",
        id="broadcast-einzeln",
    ),
    pytest.param(
        "herausforderungen/lease/",
        "leader-lease",
        None,  # the starting node: read and write without a lease, so a cas loses an update
        r"Nicht linearisierbar: Schlüssel \[0\]\. CAS \[0\] \d→\d \(Client c\d\) lässt sich "
        r"nicht einordnen",
        id="leader-lease",
    ),
    pytest.param(
        "herausforderungen/raft/",
        "raft-wahl",
        _fehlversuch("raft.md", "two votes in one term"),
        r"Die Invariante „Eine Stimme je Term“ gilt nicht: n\d gab in Term \d+ zwei Stimmen",
        id="raft-wahl",
    ),
    pytest.param(
        "herausforderungen/raft-log/",
        "raft-log",
        _fehlversuch("raft-log.md", "without the up-to-date check"),
        r"Die Invariante „Leader Completeness“ gilt nicht: Term \d+: Dem Leader n\d fehlt der "
        r"committete Eintrag an Index \d+",
        id="raft-log",
    ),
    pytest.param(
        "herausforderungen/raft-absturz/",
        "raft-absturz",
        _fehlversuch("raft-absturz.md", "the vote only in memory"),
        r"Die Invariante „Eine Stimme je Term“ gilt nicht: n\d vergaß in Term \d+ seine Stimme",
        id="raft-absturz",
    ),
    pytest.param(
        "herausforderungen/raft-absturz/",
        "raft-figur8",
        _fehlversuch("raft-absturz.md", "counting replicas of older terms"),
        r"Die Invariante „Leader Completeness“ gilt nicht: Term \d+: Dem Leader n\d fehlt der "
        r"committete Eintrag an Index 1",
        id="raft-figur8",
    ),
    pytest.param(
        "herausforderungen/transaktionen/",
        "transaktionen-2",
        _fehlversuch("transaktionen.md", "applies each write before the commit"),
        r"Read Uncommitted verletzt: G0: Client c\d \(#\d+\) →ww Client c\d \(#\d+\) →ww",
        id="transaktionen",
    ),
]


@pytest.mark.parametrize(("adresse", "aufgabe", "falsch", "urteil"), ERSTE)
def test_the_first_challenges_fail_with_the_value_named_then_the_typed_solution_passes(
    page: Page, site_url: str, adresse: str, aufgabe: str, falsch: str | None, urteil: str
) -> None:
    task = Exercise.mounted(page, aufgabe, on=site_url + adresse)
    if falsch is not None:
        task.replace_code(falsch)

    # A failing seed is shrunk before the verdict shows: that may take longer than a check.
    task.press_check()
    expect(task.feedback).to_contain_text(re.compile(r"Seed \d+ scheitert"), timeout=SLOW)
    failed = task.root.locator(".lk-challenge__seed--failed").first
    expect(failed.locator(".lk-challenge__verdict").first).to_have_text(re.compile(urteil))
    expect(failed.locator(".lk-challenge__picture svg > title")).to_contain_text(
        "Raum-Zeit-Bild des Laufs"
    )
    task.expect_unsolved()

    task.passes_with(task.data["loesung"])
    task.expect_solved()


def test_a_draft_of_a_later_challenge_stays_over_a_reload(page: Page, site_url: str) -> None:
    task = Exercise.mounted(page, "zaehler", on=site_url + "herausforderungen/zaehler/")
    entwurf = (
        "class Entwurf(Knoten):\n"
        "    def bei_add(self, nachricht):\n"
        '        self.antworte(nachricht, {"type": "add_ok"})\n'
    )
    task.replace_code(entwurf)
    expect(task.editor).to_contain_text("class Entwurf")

    page.reload()
    task = Exercise.mounted(page, "zaehler")
    expect(task.editor).to_contain_text("class Entwurf(Knoten)")
    expect(task.editor).not_to_contain_text("class Summe")
    task.expect_unsolved()


ENDLOS = """\
class Endlos(Knoten):
    def bei_broadcast(self, nachricht):
        while True:
            pass
"""


def test_an_endless_handler_gets_a_german_verdict_and_the_page_stays_usable(
    page: Page, site_url: str
) -> None:
    task = Exercise.mounted(page, "broadcast-teilung", on=site_url + BROADCAST)

    task.replace_code(ENDLOS)
    task.press_check()
    # The first seed ends with the limit's message, without Stopp and without a restart of
    # Python, and the check stops there.
    expect(task.feedback).to_contain_text("Seed 1 scheitert.", timeout=SLOW)
    verdicts = task.root.locator(".lk-challenge__seed--failed .lk-challenge__verdict")
    expect(verdicts).to_have_count(1)
    expect(verdicts.first).to_have_text(
        re.compile(r"^Der Handler bei_broadcast von n\d endet nicht: .*Zeile \d+")
    )
    expect(task.root.get_by_role("button", name=re.compile(r"Übung \d+ prüfen"))).to_be_enabled()
    task.expect_unsolved()

    # The same page, the same Python: the solution passes right after.
    task.passes_with(task.data["loesung"])
    task.expect_solved()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_wide_picture_keeps_its_width_on_a_phone_and_scrolls_by_keyboard(
    browser: Browser, site_url: str, scheme: Literal["light", "dark"]
) -> None:
    with axe.audited_page(
        browser, viewport={"width": 390, "height": 844}, color_scheme=scheme
    ) as page:
        task = Exercise.mounted(page, "broadcast-teilung", on=site_url + BROADCAST)
        # Ausführen: seed 1 whole (5 nodes, 5 clients), its picture wider than the phone.
        task.root.get_by_role("button", name=re.compile(r"Übung \d+ ausführen$")).click()
        box = task.root.locator(".lk-challenge__picture")
        expect(box).to_have_count(1, timeout=SLOW)
        expect(box).to_have_attribute("tabindex", "0")
        expect(box).to_have_accessible_name(re.compile(r"^Raum-Zeit-Bild: .*Seed \d+"))
        sizes = box.evaluate(
            "b => [b.scrollWidth, b.clientWidth, b.firstElementChild.getBoundingClientRect().width]"
        )
        natural = float(
            box.locator("svg").get_attribute("viewBox").split()[2]  # type: ignore[union-attr]
        )
        # The picture at its own width, wider than the phone: the box scrolls, not the page.
        assert sizes[2] >= natural - 1 and sizes[0] > sizes[1] < 390, sizes
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        expect(box).not_to_have_js_property("scrollLeft", 0)
        found = axe.violations(page, ".lk-challenge__results")
        assert not found, axe.describe(found)


LEASE = "herausforderungen/lease/"

#: The lease stage's node with a lease but no token (a design the page lists as wrong),
#: printing the token of each lease it gets, as a reader debugging challenge 7 would.
DRUCKT_TOKEN = LEASE_OHNE_TOKEN.replace(
    "        marke = {}", '        print("Token", lease["token"])\n        marke = {}'
)
assert DRUCKT_TOKEN != LEASE_OHNE_TOKEN
#: A line the node printed, as the page shows it under the picture: tick, node, text.
TOKEN_ZEILE = re.compile(r"^t=\d+ n[123] Token \d+$")


def test_what_a_node_prints_shows_under_the_picture_and_an_arrow_s_message_by_keyboard(
    browser: Browser, site_url: str
) -> None:
    with axe.audited_page(browser, viewport={"width": 1280, "height": 900}) as page:
        _prints_and_arrows(page, site_url)


def _prints_and_arrows(page: Page, site_url: str) -> None:
    page.set_default_timeout(60_000)
    task = Exercise.mounted(page, "leader-lease", on=site_url + LEASE)
    task.replace_code(DRUCKT_TOKEN)

    task.press_check()
    expect(task.feedback).to_contain_text(re.compile(r"Seed \d+ scheitert"), timeout=SLOW)
    failed = task.root.locator(".lk-challenge__seed--failed")
    expect(failed).to_have_count(1)
    # Under the picture: each printed token with its tick and node, in order.
    log = failed.locator(".lk-challenge__log")
    expect(log.locator(".lk-challenge__log-head")).to_have_text("Notizen und Ausgaben der Knoten")
    lines = log.locator(".lk-challenge__log-line")
    expect(lines.first).to_have_text(TOKEN_ZEILE)
    shown = [" ".join(text.split()) for text in lines.all_inner_texts()]
    assert shown and all(TOKEN_ZEILE.match(line) for line in shown), shown
    assert (
        failed.locator(
            ".lk-challenge__picture + .lk-challenge__message + .lk-challenge__log"
        ).count()
        == 1
    )

    # Replayed from its identity: the same lines under the replayed run's picture.
    kennung = failed.locator(".lk-challenge__id code").inner_text()
    task.root.get_by_label(re.compile("^Kennung eines Laufs")).fill(kennung)
    task.root.get_by_role("button", name=re.compile("^Lauf wiederholen")).click()
    expect(task.root.locator(".lk-challenge__id code")).to_have_text(kennung, timeout=SLOW)
    replayed = task.root.locator(".lk-challenge__seed")
    expect(replayed).to_have_count(1)
    expect(replayed.locator(".lk-challenge__log-line")).to_have_count(len(shown))
    again = [
        " ".join(t.split()) for t in replayed.locator(".lk-challenge__log-line").all_inner_texts()
    ]
    assert again == shown

    # The arrows by keyboard: Tab from the picture's box reaches the first message; the arrow
    # keys walk the messages, each shown in words under the picture, until the lease's reply
    # with its token.
    box = replayed.locator(".lk-challenge__picture")
    caption = replayed.locator(".lk-challenge__message")
    box.focus()
    page.keyboard.press("Tab")
    focused = "document.activeElement.closest('g.nachricht') !== null"
    assert page.evaluate(focused)
    expect(caption).to_have_text(re.compile(r"^c\d → n\d, t=\d+ → t=\d+ angekommen: \{\"type\": "))
    first = caption.inner_text()
    page.keyboard.press("ArrowDown")
    expect(caption).not_to_have_text(first)
    for _ in range(40):
        if re.match(r'^lease → n\d, .*"token": \d+', caption.inner_text()):
            break
        page.keyboard.press("ArrowDown")
    expect(caption).to_have_text(
        re.compile(
            r'^lease → n\d, t=\d+ → t=\d+ angekommen: \{"type": "acquire_ok", .*"token": \d+'
        )
    )
    # One arrow at a time is in the tab order: Tab leaves the picture.
    page.keyboard.press("Tab")
    assert not page.evaluate(focused)
    expect(caption).to_have_text(re.compile("^Eine Nachricht ansehen"))

    # The run's messages as a list, narrowed to one node.
    messages = replayed.locator(".lk-challenge__messages")
    messages.locator("summary").click()
    items = messages.locator(".lk-challenge__message-item")
    total = items.count()
    messages.get_by_label(re.compile("^Nachrichten nur von und an")).select_option("n2")
    visible = messages.locator(".lk-challenge__message-item:visible")
    expect(messages.locator(".lk-challenge__messages-count")).to_have_text(
        re.compile(rf"^\d+ von {total} Nachrichten$")
    )
    heads = [
        t.split(" · ")[0] for t in visible.locator(".lk-challenge__message-head").all_inner_texts()
    ]
    assert heads and all("n2" in head.split(" → ") for head in heads), heads
    found = axe.violations(page, ".lk-challenge__results")
    assert not found, axe.describe(found)


# --- a page that never shows a stale state (issue 48) --------------------------------------

ECHO = "herausforderungen/echo/"
CHECK = re.compile(r"Übung \d+ prüfen")

#: A node whose handler computes in C for hours: no loop of its own that the budget of
#: pysim/cluster/grenze.py could count, so only Stopp ends it.
RECHNER = """\
class Rechner(Knoten):
    def bei_echo(self, nachricht):
        sum(range(10**15))
"""


def challenge_status(task: Exercise) -> Locator:
    """The challenge's status line (its live region), below the verdict."""
    return task.root.locator("output.lk-exercise__feedback ~ .lk-cell__status")


def test_stopp_during_a_check_leaves_no_line_that_says_it_runs_and_enter_waits_meanwhile(
    page: Page, site_url: str
) -> None:
    task = Exercise.mounted(page, "echo", on=site_url + ECHO)
    seeds = task.seeds
    task.replace_code(RECHNER)
    python_ready(page)  # Stopp while Python loads only cancels the waiting check
    check = task.root.get_by_role("button", name=CHECK)
    check.click()
    status = challenge_status(task)
    expect(status).to_have_text(f"0 von {seeds} Läufen bestanden …")
    expect(task.root).to_have_attribute("data-state", "checking")

    # Enter in the replay box submits its form although its button waits: nothing starts.
    box = task.root.get_by_label(re.compile("^Kennung eines Laufs"))
    box.fill("echo/k3/s1/d100/")
    box.press("Enter")
    expect(task.root).to_have_attribute("data-state", "checking")
    expect(status).to_have_text(f"0 von {seeds} Läufen bestanden …")
    expect(check).to_have_attribute("aria-disabled", "true")

    task.root.get_by_role("button", name=re.compile(r"^Stopp: Übung \d+$")).click()
    expect(task.feedback).to_have_text(
        "Gestoppt. Python wurde neu gestartet; prüf noch einmal, wenn du so weit bist."
    )
    expect(status).to_have_text("Gestoppt")  # not "0 von 5 Läufen bestanden …"
    expect(task.root).to_have_attribute("data-state", "idle")
    expect(task.root.locator(".lk-challenge__seed")).to_have_count(0)

    # The page goes on: the solution passes in the new Python.
    task.passes_with(task.data["loesung"])
    expect(status).to_have_text(f"{seeds} von {seeds} Läufen bestanden.")


def test_each_action_replaces_what_the_last_one_showed_and_a_wrong_identity_changes_nothing(
    page: Page, site_url: str
) -> None:
    task = Exercise.mounted(page, "echo", on=site_url + ECHO)
    status = challenge_status(task)
    results = task.root.locator(".lk-challenge__results")
    heads = results.locator(".lk-challenge__head")

    # The starting code fails seed 1.
    expect(task.check()).to_have_text(re.compile(r"^✗ Seed 1 scheitert\."), timeout=SLOW)
    kennung = results.locator(".lk-challenge__id code").inner_text()

    # Ausführen: seed 1 without a verdict; the check's verdict goes with its results.
    task.root.get_by_role("button", name=re.compile(r"Übung \d+ ausführen$")).click()
    expect(status).to_have_text("Fertig", timeout=SLOW)
    expect(heads).to_have_text(["Seed 1: gelaufen (ohne Urteil)"])
    expect(task.feedback).to_have_count(0)
    # Neither green nor red: nothing was judged.
    expect(results.locator(".lk-challenge__seed")).to_have_class(re.compile(r"--run\b"))

    # Lauf wiederholen after a check: the replayed run replaces the verdict too.
    expect(task.check()).to_have_text(re.compile(r"^✗ Seed 1 scheitert\."), timeout=SLOW)
    box = task.root.get_by_label(re.compile("^Kennung eines Laufs"))
    box.fill(kennung)
    task.root.get_by_role("button", name=re.compile("^Lauf wiederholen")).click()
    expect(status).to_have_text("Fertig", timeout=SLOW)
    expect(heads).to_have_text(["✗ Seed 1: nicht bestanden"])
    expect(task.feedback).to_have_count(0)

    # An identity with absurd options is named beside the box; nothing else changes.
    shown = results.inner_text()
    note = task.root.locator(".lk-challenge__replay-note")
    for absurd, says in [
        (kennung.split("/o")[0] + "/o0-999999999", r"Die Kennung nennt Operation 999\.999\.999; "),
        ("echo/k1000/s1/d100/", r"Die Kennung verlangt 1\.000 Knoten; hier laufen höchstens "),
        ("echo/k3/s1/d100/5:uhr:n1:+10:inf", r"Die Störung „5:uhr:n1:\+10:inf“ lässt die Uhr"),
    ]:
        box.fill(absurd)
        box.press("Enter")
        expect(note).to_have_text(
            re.compile("^Diese Kennung lässt sich hier nicht wiederholen: " + says)
        )
        expect(box).to_have_attribute("aria-invalid", "true")
        expect(box).to_have_accessible_description(re.compile("^Diese Kennung lässt sich"))
        expect(task.root).to_have_attribute("data-state", "idle")
        assert results.inner_text() == shown
        expect(status).to_have_text("Fertig")  # never "Python wurde neu gestartet"
        expect(task.feedback).to_have_count(0)
    box.fill(kennung)
    expect(note).to_be_hidden()
    expect(box).not_to_have_attribute("aria-invalid", "true")
    # The note answers the last action only: Ausführen replaces it too.
    box.fill("echo/k0/s1/d100/")
    box.press("Enter")
    expect(note).to_contain_text("Die Kennung verlangt 0 Knoten")
    task.root.get_by_role("button", name=re.compile(r"Übung \d+ ausführen$")).click()
    expect(note).to_be_hidden()
    expect(status).to_have_text("Fertig", timeout=SLOW)

    # Solved once stays in the progress; the border follows the latest verdict.
    task.passes_with(task.data["loesung"])
    task.expect_solved()
    head = task.root.locator(".lk-exercise__head")
    solved_border = task.root.evaluate("node => getComputedStyle(node).borderLeftColor")
    assert "gelöst ✓" in head.evaluate("node => getComputedStyle(node, '::after').content")
    task.replace_code(task.data["start"])
    expect(task.check()).to_have_text(re.compile(r"^✗ Seed 1 scheitert\."), timeout=SLOW)
    task.expect_solved()  # solved once, for good
    expect(task.root).to_have_attribute("data-latest", "wrong")
    assert task.root.evaluate("node => getComputedStyle(node).borderLeftColor") != solved_border
    assert "einmal gelöst" in head.evaluate("node => getComputedStyle(node, '::after').content")
    progress = stored_progress(page, "echo")
    assert progress is not None and progress["solved"] is True


#: A node that passes, and code that replaces the page's call for a seed in its own Python
#: (the reader's code runs there): from seed 2 on the page gets a verdict of 5,000,000
#: characters and a hundred sentences more, and Ausführen an error of 2,000,000.
RIESIG = """\
import lessonkit.runtime.bridge as _bruecke


class Zurufer(Knoten):
    def bei_echo(self, nachricht):
        body = {"type": "echo_ok", "echo": nachricht["echo"]}
        self.antworte(nachricht, body)


async def _riesig(code, vorgabe, seed, pruefung, urteilen, sprache="python"):
    zahlen = {
        "nachrichten": 0, "verloren": 0, "je_operation": 0.0,
        "ok_anteil": 1.0, "latenz_p50": None, "latenz_p99": None,
        "latenz_max": None,
    }
    return {
        "error": None if urteilen else "E" * 2_000_000,
        "seed": seed, "ok": False,
        "urteil": ["x" * 5_000_000] + ["Noch ein Satz."] * 100,
        "kennung": "echo/k3/s1/d100/" + "1:heile;" * 100_000,
        "operationen": 1, "operationen_vorher": None,
        "kennzahlen": zahlen, "svg": "",
    }


_bruecke.CALLS["challenge.seed"] = _riesig
# The judging record (lessonkit/runtime/integrity.py) would refuse the stand-in: this test is about
# the page's own cuts, so it takes the record anew, as only code that knows it can.
_bruecke.judging._parts = None
_bruecke.judging.take()
"""


def test_a_huge_verdict_or_error_is_cut_by_the_page_itself(page: Page, site_url: str) -> None:
    task = Exercise.mounted(page, "echo", on=site_url + ECHO)
    task.replace_code(RIESIG)
    expect(task.check()).to_have_text(re.compile(r"^✗ Seed 2 scheitert\."), timeout=SLOW)
    verdicts = task.root.locator(".lk-challenge__verdict")
    expect(verdicts).to_have_count(31)
    expect(verdicts.first).to_have_text(
        re.compile(r"^x{2000}… \(4\.998\.000 Zeichen mehr, gekürzt\)$")
    )
    expect(verdicts.last).to_have_text("… und 71 weitere Sätze des Urteils, gekürzt.")
    kennung = task.root.locator(".lk-challenge__id code").inner_text()
    assert len(kennung) < 2_100 and kennung.endswith("Zeichen mehr, gekürzt)")

    task.root.get_by_role("button", name=re.compile(r"Übung \d+ ausführen$")).click()
    error = task.root.locator(".lk-challenge__seed pre.lk-output__error")
    expect(error).to_have_text(re.compile(r"^E{11000}… \(1\.989\.000 Zeichen mehr, gekürzt\)$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
