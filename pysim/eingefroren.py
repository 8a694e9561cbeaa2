"""Unveränderliche Werte für gespeicherte Einträge und Ereignisse.

Was einmal im Log oder im Event-Store steht, ändert sich nie. ``einfrieren`` macht aus Dicts und
Listen Kopien, die genauso aussehen (gleiche Ausgabe, ``json.dumps`` geht), aber jede Änderung mit
einem ``UnveraenderlichFehler`` ablehnen. ``copy.deepcopy`` oder ``auftauen`` liefert eine normale,
veränderbare Kopie, aus der man ein neues Ereignis bauen kann.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from .fehler import UnveraenderlichFehler

MELDUNG = (
    "Gespeicherte Einträge sind unveränderlich: Was geschehen ist, bleibt geschehen. "
    "Eine Korrektur ist ein neues Ereignis."
)


def _verboten(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise UnveraenderlichFehler(MELDUNG)


K = TypeVar("K", bound=type)


def felder_fest(meldung: str) -> Callable[[K], K]:
    """Klassen-Dekorator (über ``@dataclass(frozen=True)``): Setzen und Löschen eines Feldes
    meldet ``meldung`` als ``UnveraenderlichFehler`` statt Pythons englischem
    ``FrozenInstanceError``."""

    def verboten(*_args: Any) -> NoReturn:
        raise UnveraenderlichFehler(meldung)

    def festmachen(cls: K) -> K:
        # Replacing the class's methods is the point; mypy forbids assigning to a method.
        cls.__setattr__ = verboten  # type: ignore[method-assign]
        cls.__delattr__ = verboten  # type: ignore[method-assign]
        return cls

    return festmachen


class FesterDict(dict[Any, Any]):
    """Ein Dict, das sich nicht ändern lässt."""

    __slots__ = ()
    __setitem__ = __delitem__ = _verboten
    clear = pop = popitem = setdefault = update = __ior__ = _verboten

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        kopie: dict[Any, Any] = auftauen(self)
        return kopie

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (auftauen(self),))


class FesteListe(list[Any]):
    """Eine Liste, die sich nicht ändern lässt."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _verboten
    append = extend = insert = remove = pop = clear = sort = reverse = _verboten

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        kopie: list[Any] = auftauen(self)
        return kopie

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (auftauen(self),))


def einfrieren(wert: Any) -> Any:
    """Eine unveränderliche Kopie von ``wert`` (Dicts, Listen und Tupel werden durchlaufen)."""
    if isinstance(wert, dict):
        return FesterDict({k: einfrieren(v) for k, v in wert.items()})
    if isinstance(wert, list):
        return FesteListe(einfrieren(v) for v in wert)
    if isinstance(wert, tuple) and type(wert) is tuple:
        return tuple(einfrieren(v) for v in wert)
    if isinstance(wert, set | frozenset):
        return frozenset(einfrieren(v) for v in wert)
    return wert


def auftauen(wert: Any) -> Any:
    """Eine normale, veränderbare Kopie eines eingefrorenen Wertes."""
    if isinstance(wert, dict):
        return {k: auftauen(v) for k, v in wert.items()}
    if isinstance(wert, list):
        return [auftauen(v) for v in wert]
    if isinstance(wert, tuple) and type(wert) is tuple:
        return tuple(auftauen(v) for v in wert)
    return wert
