"""A TypeScript node and the Python node that does the same get the same verdict, the same
shrunk run (its identity) and the same picture on every seed of its page: the TypeScript
solution against the Python solution, the TypeScript start against the Python start.
Runs through the Node.js transport (pysim/cluster/ts_knoten.py, `NodeGegenstelle`)."""

from __future__ import annotations

import pytest

from lessonkit.build import tsnode
from lessonkit.build.execute import run_sync
from lessonkit.fences.exercises import Challenge
from lessonkit.runtime import challenges
from pysim.cluster.ts_knoten import ts_knoten_klasse
from tests.tsnode.seiten import ts_challenges

CHALLENGES = ts_challenges()
#: The stages the issue asks for; each must have its TypeScript rendering.
GEFORDERT = {
    "echo",
    "eindeutige-ids",
    "eindeutige-ids-neustart",
    "broadcast-einzeln",
    "broadcast-viele",
    "broadcast-teilung",
    "broadcast-sparsam",
    "zaehler",
    "zaehler-absturz",
    "kafka-log",
    "register-leader",
    "register-leader-absturz",
    "leader-lease",
    "raft-wahl",
    "raft-log",
    "raft-absturz",
    "raft-figur8",
}


def test_every_asked_challenge_has_a_typescript_rendering() -> None:
    assert GEFORDERT <= {c.id for c in CHALLENGES}, GEFORDERT - {c.id for c in CHALLENGES}


def _gleich(challenge: Challenge, python: str, typescript: str) -> None:
    # run_sync: a browser test before this one in the same process keeps an event loop running
    py, fehler = run_sync(lambda: challenges.load_node(python))
    assert py is not None, fehler
    ts = ts_knoten_klasse(typescript, tsnode.gegenstelle())
    for seed in range(1, challenge.vorgabe.seeds + 1):
        # zeigen: the picture, the messages and the log of a passing run too
        a = challenges.seed_outcome(py, challenge.vorgabe, seed, challenge.pruefung, zeigen=True)
        b = challenges.seed_outcome(ts, challenge.vorgabe, seed, challenge.pruefung, zeigen=True)
        wo = f"{challenge.id}, Seed {seed}"
        assert (a["ok"], a["urteil"]) == (b["ok"], b["urteil"]), wo
        assert a["kennung"] == b["kennung"], wo
        assert a["svg"] and a["svg"] == b["svg"], wo
        assert a["kennzahlen"] == b["kennzahlen"], wo
        assert a["nachrichten"] == b["nachrichten"], wo
        assert a["protokoll"] == b["protokoll"], wo


@pytest.mark.parametrize("challenge", CHALLENGES, ids=lambda c: c.id)
def test_the_typescript_solution_runs_as_the_python_one(challenge: Challenge) -> None:
    _gleich(challenge, challenge.loesung, challenge.loesung_ts)


@pytest.mark.parametrize("challenge", CHALLENGES, ids=lambda c: c.id)
def test_the_typescript_start_fails_as_the_python_one(challenge: Challenge) -> None:
    _gleich(challenge, challenge.start, challenge.start_ts)


def test_a_rendering_that_differs_in_a_detail_is_told_apart() -> None:
    """The comparison can fail: sorting numbers as text (JavaScript's default `sort()`) puts
    10 before 9 in a gossip message, and the run's messages, which the picture shows, differ
    though both nodes pass."""
    sparsam = next(c for c in CHALLENGES if c.id == "broadcast-sparsam")
    falsch = sparsam.loesung_ts.replace("fehlt.sort((a, b) => a - b);", "fehlt.sort();")
    assert falsch != sparsam.loesung_ts
    with pytest.raises(AssertionError):
        _gleich(sparsam, sparsam.loesung, falsch)
