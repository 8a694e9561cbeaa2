"""The contract between Python and TypeScript cannot drift (lessonkit/build/contract.py).

The committed TypeScript is what the generator writes; every shape that crosses
to the browser has exactly the contract's fields; the bridge's calls take the
contract's arguments and return its results.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from lessonkit.build import contract
from lessonkit.runtime import bridge, checks, kernel
from pysim.console import ConsoleResult
from tests.lessonkit.seiten import QUIZ, convert

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "frontend" / "src" / "generated" / "contract.ts"


def test_the_committed_typescript_is_what_the_generator_writes() -> None:
    assert GENERATED.read_text(encoding="utf-8") == contract.typescript(), (
        "frontend/src/generated/contract.ts is stale: run "
        "`python -m lessonkit.build.contract > frontend/src/generated/contract.ts`"
    )


def hints(thing: Any) -> dict[str, Any]:
    """Type hints with the contract's names resolvable (modules import them for typing only)."""
    namespace = {**vars(contract), **vars(typing)}
    found = typing.get_type_hints(thing, globalns={**vars(bridge), **namespace}, localns=namespace)
    return {
        name: typing.get_args(hint)[0] if typing.get_origin(hint) is typing.NotRequired else hint
        for name, hint in found.items()
    }


def test_the_bridge_has_exactly_the_contracts_calls() -> None:
    assert list(bridge.CALLS) == list(contract.CALLS)


@pytest.mark.parametrize("name", sorted(contract.CALLS))
def test_each_call_takes_the_contracts_arguments_and_returns_its_result(name: str) -> None:
    args, result = contract.CALLS[name]
    declared = hints(bridge.CALLS[name])
    returned = declared.pop("return")
    assert declared == hints(args), name
    assert returned == (type(None) if result is None else result), name


@pytest.mark.parametrize(
    ("cls", "shape"),
    [
        (kernel.CellResult, contract.CellResultData),
        (ConsoleResult, contract.ConsoleResultData),
        (checks.CheckOutcome, contract.CheckOutcomeData),
        (checks.TaskOutcome, contract.TaskOutcomeData),
        (checks.PredictionOutcome, contract.PredictionOutcomeData),
    ],
)
def test_each_result_class_has_the_contracts_fields(cls: type, shape: type) -> None:
    fields = {field.name for field in dataclasses.fields(cls)}
    fields -= {"raw_value"}  # never serialised (the value itself, for predictions)
    declared = set(hints(shape)) - {"result"}  # a prediction's run: the CellResult itself
    assert fields == declared


def test_the_dicts_that_cross_have_exactly_the_contracts_keys() -> None:
    run = kernel.CellResult(output=[("stdout", "x")]).to_dict()
    assert set(run) == set(hints(contract.CellResultData))
    assert json.loads(json.dumps(run))["output"] == [["stdout", "x"]]
    outcome = checks.TaskOutcome(False, [checks.CheckOutcome("a", False, "m", 3)]).to_dict()
    assert set(outcome) == set(hints(contract.TaskOutcomeData))
    assert set(outcome["checks"][0]) == set(hints(contract.CheckOutcomeData))
    assert set(checks.PredictionOutcome(True).to_dict()) == set(
        hints(contract.PredictionOutcomeData)
    ) - {"result"}


PAGE = (
    """
```pycell
x = 1
```

```log-konsole
create topic t partitions 1
```

```vorhersage id="v"
--- frage
Was?
--- code
1 + 1
--- antwort
2
```

```aufgabe id="a"
--- start
def f():
    return 0
--- pruefung
@pruefe("f gibt 1")
def _():
    assert f() == 1
--- loesung
def f():
    return 1
```

```konsolen-aufgabe id="k" kind="log"
--- setup
create topic t partitions 1
--- pruefung
@pruefe("es gibt u")
def _():
    assert "u" in log.topics()
--- loesung
create topic u partitions 1
```

"""
    + QUIZ
    + """
```fortschritt
seite.md
```
"""
)


def test_each_blocks_page_data_has_exactly_the_contracts_keys(tmp_path: Path) -> None:
    soup = convert(tmp_path, PAGE)
    shapes = {
        "lk-cell__data": [contract.CellData],
        "lk-console__data": [contract.ConsoleData],
        "lk-progress__data": [contract.ProgressEntry],
        "lk-exercise__data": list(typing.get_args(contract.ExerciseData)),
    }
    for css, expected in shapes.items():
        found = soup.select(f".{css}")
        assert found, css
        for element in found:
            data = json.loads(element["data-lk-json"])
            for item in data if isinstance(data, list) else [data]:
                keys = set(item)
                assert keys in [set(hints(shape)) for shape in expected], (css, keys)
