"""A message on the wire is a copy (``pysim.cluster.nachricht.kopie``): equal to what was sent,
of the same types, and sharing no list, dict or set with the sender, whatever it holds."""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pysim.cluster.nachricht import inhalt, kopie

FEST = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
WERTE = st.recursive(
    FEST | st.binary(max_size=3),
    lambda innen: (
        st.lists(innen, max_size=6)
        | st.dictionaries(st.text(max_size=3), innen, max_size=4)
        | st.tuples(innen, innen)
        | st.sets(FEST, max_size=4)
        | st.frozensets(FEST, max_size=4)
    ),
    max_leaves=20,
)


def veraenderlich(wert: Any) -> list[Any]:
    """Every list, dict and set inside ``wert``, ``wert`` too."""
    gefunden: list[Any] = []
    if isinstance(wert, list | dict | set):
        gefunden.append(wert)
    innen = wert.values() if isinstance(wert, dict) else wert
    if isinstance(wert, list | dict | tuple):
        for teil in innen:
            gefunden += veraenderlich(teil)
    return gefunden


def gleich_getypt(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(gleich_getypt(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(gleich_getypt(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@given(WERTE)
def test_a_copy_is_equal_of_the_same_types_and_shares_nothing_that_can_change(wert: Any) -> None:
    kopiert = kopie(wert)
    assert gleich_getypt(kopiert, wert)
    original = {id(x) for x in veraenderlich(wert)}
    assert not original & {id(x) for x in veraenderlich(kopiert)}


@given(st.dictionaries(st.text(max_size=3), WERTE, max_size=4))
def test_a_body_is_copied_the_same_way(felder: dict[str, Any]) -> None:
    body = {"type": "gossip", **felder}
    kopiert = inhalt(body, "n1")
    assert gleich_getypt(kopiert, body)
    assert not {id(x) for x in veraenderlich(body)} & {id(x) for x in veraenderlich(kopiert)}


def test_subclasses_and_other_objects_are_copied_too() -> None:
    sortiert = OrderedDict(a=[1])
    schlange = deque([[1, 2]])
    kopiert = kopie({"o": sortiert, "d": schlange})
    assert kopiert == {"o": {"a": [1]}, "d": deque([[1, 2]])}
    assert kopiert["o"]["a"] is not sortiert["a"] and kopiert["d"][0] is not schlange[0]
