"""A seed's outcome (verdict, figures, picture: what the page gets) stays small whatever
text the reader's node produces: a 5 MB exception, a 2 MB reply, an exception whose text
cannot be read. Each is cut in Python with a German note of what is missing
(``pysim.fehler``); the figures of how long this took are in benchmarks/README.md."""

from __future__ import annotations

import json

import pytest

from lessonkit.build.execute import run_sync
from lessonkit.runtime.challenges import Vorgabe, load_node, seed_outcome

RAISES = """
class K(Knoten):
    def bei_echo(self, nachricht):
        raise ValueError("x" * 5_000_000)
"""

ECHOES_2_MB = """
class K(Knoten):
    def bei_echo(self, nachricht):
        self.antworte(nachricht, {"type": "echo_ok", "echo": "y" * 2_000_000})
"""

UNREADABLE = """
class Boese(Exception):
    def __str__(self):
        raise RuntimeError("nein")

class K(Knoten):
    def bei_echo(self, nachricht):
        raise Boese()
"""

HUGE_NUMBER = """
class K(Knoten):
    def bei_echo(self, nachricht):
        self.antworte(nachricht, {"type": "echo_ok", "echo": 10 ** 5000})
"""


@pytest.mark.parametrize(
    ("code", "says"),
    [
        (RAISES, "ValueError: xxxxxxxxxx"),
        (RAISES, "… (4.999.500 Zeichen mehr, gekürzt) (Zeile 4: raise ValueError"),
        (ECHOES_2_MB, "und bekam 'yyyyyyyyyy"),
        (ECHOES_2_MB, "'… (1.999.900 Zeichen mehr, gekürzt) zurück"),
        (UNREADABLE, "warf bei „echo“ von c1 Boese: (Meldung nicht lesbar)"),
        (HUGE_NUMBER, "eine ganze Zahl mit etwa 5001 Stellen"),
    ],
)
def test_a_seeds_verdict_quotes_what_the_node_produced_short(code: str, says: str) -> None:
    klasse, error = run_sync(lambda: load_node(code))
    assert klasse is not None, error
    outcome = seed_outcome(klasse, Vorgabe("echo"), 1, "")
    assert outcome["ok"] is False
    verdict = " ".join(outcome["urteil"])
    assert says in verdict
    assert len(verdict) < 2_000
    assert len(json.dumps(outcome, ensure_ascii=False)) < 20_000  # what crosses to the page
