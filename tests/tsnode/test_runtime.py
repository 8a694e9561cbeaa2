"""The TypeScript node runtime through the Node.js transport: awaits map onto the cluster's
waits, timers, a crash that keeps the store and loses the fields, the loop budget, errors
with the reader's line, what is not JSON, awaiting a real Promise, compile and type errors."""

from __future__ import annotations

from typing import Any

import pytest

from lessonkit.build import tsnode
from lessonkit.fences.exercises import ts_type_errors
from pysim.cluster import Cluster, Knoten, Nachricht
from tests.tsnode import szenarien


@pytest.fixture(scope="module")
def ergebnisse() -> dict[str, Any]:
    return szenarien.alle(tsnode.gegenstelle())


def test_an_ask_gets_its_reply_a_timeout_or_an_error_reply(ergebnisse: dict[str, Any]) -> None:
    assert ergebnisse["warten"] == {
        "antwort": ["antwort echo_ok t=6"],
        "teile": ["keine: n1 bekam von n2 binnen 8 Ticks keine Antwort auf „echo“."],
        "ohne_handler": ["fehler 10"],
        "eigener_timeout": ["keine: n1 bekam von n2 binnen 5 Ticks keine Antwort auf „echo“."],
    }


class PyFrager(Knoten):
    """The Python node ``szenarien.FRAGER`` renders: its log must be the same."""

    async def bei_los(self, n: Nachricht) -> None:
        log = self.speicher.setdefault("log", [])
        antwort = await self.frage(n["ziel"], {"type": "echo", "echo": "x"}, timeout=8)
        log.append(f"antwort {antwort.typ} t={self.uhr()}")

    def bei_echo(self, n: Nachricht) -> None:
        self.antworte(n, {"type": "echo_ok", "echo": n["echo"]})


def test_the_python_node_that_does_the_same_gets_the_same(ergebnisse: dict[str, Any]) -> None:
    cluster = Cluster(PyFrager, 2, seed=2)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "los", "ziel": "n2"})
    cluster.laufe(30)
    assert cluster._plaetze["n1"].speicher["log"] == ergebnisse["warten"]["antwort"]


def test_first_majority_and_any_resolve_as_erste_mehrheit_and_eines(
    ergebnisse: dict[str, Any],
) -> None:
    assert ergebnisse["gruppen"] == [["n2"], 1, [0, "antwort", 6], "zu wenige: 0"]


def test_timers_fire_in_tick_order_a_cancelled_one_never_and_an_async_one_waits(
    ergebnisse: dict[str, Any],
) -> None:
    assert ergebnisse["timer"] == [104, 5, 108, 1009, 112]


def test_a_crash_loses_the_fields_and_keeps_the_store(ergebnisse: dict[str, Any]) -> None:
    assert ergebnisse["absturz"] == [
        {"type": "merke_ok", "fluechtig": None, "gespeichert": None},
        {"type": "zeige_ok", "fluechtig": 7, "gespeichert": 7},
        {"type": "zeige_ok", "fluechtig": None, "gespeichert": 7},
    ]


def test_the_store_keeps_the_order_its_keys_were_set_in_as_a_python_dict(
    ergebnisse: dict[str, Any],
) -> None:
    # keys 2, 0, 1 set, 0 deleted; after a restart 0 set again: a plain JavaScript object
    # would say "0,1,2" (integer-like keys first, ascending)
    assert ergebnisse["reihenfolge"] == [["2,1", "2,1,0"], ["2", "1", "0"], ["2", "1", "0"]]


def test_each_load_runs_the_code_anew(ergebnisse: dict[str, Any]) -> None:
    # a seed in the browser loads the node anew: no count carried from the seed before
    assert ergebnisse["neu_geladen"] == [["1", "2"], ["1", "2"]]


def test_an_endless_handler_ends_the_run_with_the_budget_message(
    ergebnisse: dict[str, Any],
) -> None:
    assert ergebnisse["budget"] == (
        "Der Handler onLos von n1 endet nicht: Sein Aufruf für „los“ von c1 (t=0) lief mehr "
        "als 100.000 Schleifendurchläufe, zuletzt in Zeile 5 („while (true) {“). Das ist wohl "
        "eine Schleife, die nie endet; der Lauf bricht hier ab."
    )


@pytest.mark.parametrize(
    ("fall", "meldung", "zeile"),
    [
        ("json", "n1.send: „werte“ ist ein Set, kein einfaches Objekt.", 4),
        ("promise", "nicht auf ein Promise: setTimeout, fetch und Promises gibt es", 5),
        ("settimeout", "setTimeout, setInterval und fetch gibt es im Cluster nicht", 5),
        ("rekursion", "RecursionError: Zu tiefe Rekursion", 4),
        ("wurf", "TypeError: kaputt", 5),
        ("ohne_await", "Eine async-Methode lief ohne await", None),
        ("konstruktor", "gibt es erst ab onStart() und in den Handlern", 5),
    ],
)
def test_a_broken_node_gets_a_german_error_at_its_line(
    ergebnisse: dict[str, Any], fall: str, meldung: str, zeile: int | None
) -> None:
    text, gefunden, code = ergebnisse["fehler"][fall]
    assert meldung in text
    assert gefunden == zeile
    if zeile is not None:
        quelle = szenarien.FEHLER[fall].split("\n")[zeile - 1].strip()
        assert code == quelle


def test_code_that_does_not_compile_or_defines_no_node_is_said_in_german(
    ergebnisse: dict[str, Any],
) -> None:
    fehler = ergebnisse["uebersetzung"]
    assert fehler["ohne_klasse"][0].startswith("Dein Code definiert keinen Knoten")
    assert fehler["syntax"] == ['Zeile 4: ")" wurde erwartet.', 4]
    assert "export class B" in fehler["zwei"][0]


def test_the_check_answers_each_error_with_line_column_and_code(
    ergebnisse: dict[str, Any],
) -> None:
    fehler = ergebnisse["typpruefung"]
    assert [(f["line"], f["column"], f["code"]) for f in fehler] == [(3, 11, 2322), (4, 21, 2345)]
    assert fehler[0]["message"] == (
        'Der Typ "unknown" kann dem Typ "number" nicht zugewiesen werden.'
    )


def test_type_errors_are_german_with_their_line() -> None:
    code = szenarien.TYPFEHLER
    fehler = ts_type_errors(code)
    assert [zeile for zeile, _ in fehler] == [3, 4]
    assert 'kann dem Typ "number" nicht zugewiesen werden' in fehler[0][1]
    assert fehler[1][1].startswith("TS2345")
    assert 'Die Eigenschaft "type" fehlt' in fehler[1][1]
    assert ts_type_errors(code.replace(": number", "").replace("typ:", "type:")) == []
