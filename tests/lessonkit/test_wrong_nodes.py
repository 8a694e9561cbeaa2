"""The wrong nodes of issue 47 (``tests/lessonkit/wrong_nodes.py``) are sound test data: each
loads as a reader's code does, names stages that exist, and fails for its design, not for a
typo (a run of it raises in no handler). ``benchmarks/bench_challenges.py`` runs them all."""

from __future__ import annotations

import pytest

from lessonkit.build.execute import run_sync
from lessonkit.runtime import challenges
from tests.lessonkit.wrong_nodes import WRONG_NODES, WrongNode, page_challenges

STAGES = {found.exercise.id: found.exercise for found in page_challenges()}


def test_the_pages_have_the_stages_of_the_issue() -> None:
    assert {
        "echo",
        "eindeutige-ids",
        "eindeutige-ids-neustart",
        "broadcast-teilung",
        "zaehler",
        "kafka-log",
        "register-leader",
        "register-leader-absturz",
        "leader-lease",
        "crdt-zaehler",
    } <= set(STAGES)


def test_every_wrong_node_names_stages_that_exist_and_is_named_once() -> None:
    names = [node.name for node in WRONG_NODES]
    assert len(names) == len(set(names))
    for node in WRONG_NODES:
        assert node.challenges and set(node.challenges) <= set(STAGES), node.name


def test_each_listed_design_of_the_issue_is_there() -> None:
    listed = {node.name for node in WRONG_NODES if node.listed}
    assert {
        "register-synchron-lokal-lesen",
        "register-synchron-lokal-lesen-platte",
        "register-cas-nur-im-arbeitsspeicher",
        "lease-token-aus-der-uhr",
        "lease-token-eigener-zaehler",
        "zaehler-cas-ohne-frisches-lesen",
        "kafka-commit-blind",
        "kafka-commit-cas-ohne-max",
        "broadcast-ganze-menge-bei-neuem",
        "gcounter-nur-bei-add",
        "lease-timeout-endgueltig",
        "ids-snowflake",
    } <= listed


@pytest.mark.parametrize("node", WRONG_NODES, ids=lambda node: node.name)
def test_a_wrong_node_loads_and_runs_without_a_handler_error(node: WrongNode) -> None:
    klasse, error = run_sync(lambda: challenges.load_node(node.code))
    assert error is None and klasse is not None, error
    stage = STAGES[node.challenges[0]]
    run = stage.vorgabe.laufe(klasse, 1)
    assert not run.fehler, [str(f) for f in run.fehler]
    # Some reply came back: an ok, or an answer the client judged (an error or a wrong shape).
    answered = [e for e in run.geschichte if e["type"] == "ok" or "error" in e]
    assert answered, "no operation got a reply"
