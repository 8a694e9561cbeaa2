"""Das Modell „register“: ein Register je Schlüssel mit read, write und cas, anfangs ``None``.

Wie ``lin-kv`` in Maelstrom: ``cas`` mit ``value = [erwartet, neu]`` gelingt nur, wenn das
Register gerade ``erwartet`` hält. Das Modell übersetzt Operationen in Handlungen für die Suche
(``pysim.pruefer.suche``) und beschreibt sie auf Deutsch.
"""

from __future__ import annotations

from collections.abc import Hashable

from ..fehler import wert_text
from .modell import Modell
from .suche import Handlung
from .urteil import name as schluessel_name
from .urteil import wert
from .verlauf import Operation, UngueltigerVerlauf, einfrieren

NAME = "register"
ANFANG: Hashable = None
ERLAUBT = ("read", "write", "cas")

# The effects, as small tuples: the search hashes them with the state on every step.
LESEN, SCHREIBEN, CAS, CAS_VIELLEICHT = "lesen", "schreiben", "cas", "cas?"


def schritt(zustand: Hashable, wirkung: Hashable) -> tuple[bool, Hashable]:
    assert isinstance(wirkung, tuple)
    art = wirkung[0]
    if art == LESEN:
        return zustand == wirkung[1], zustand
    if art == SCHREIBEN:
        return True, wirkung[1]
    if art == CAS:
        return (True, wirkung[2]) if zustand == wirkung[1] else (False, zustand)
    # An indeterminate cas either took effect (if it could) or failed: both are allowed.
    return True, wirkung[2] if zustand == wirkung[1] else zustand


def handlung(op: Operation) -> Handlung | None:
    """Die Handlung für ``op``; ``None``, wenn sie nichts einschränkt (``fail``, unbestimmtes Lesen)."""
    if op.f not in ERLAUBT:
        raise UngueltigerVerlauf(
            op.index,
            f"Das Modell „register“ kennt f={wert_text(op.f, 30)} nicht; erlaubt sind „read“, "
            "„write“ und „cas“.",
        )
    if op.f == "cas" and (not isinstance(op.eingabe, list | tuple) or len(op.eingabe) != 2):
        raise UngueltigerVerlauf(
            op.index,
            f"cas braucht value = [erwartet, neu], nicht {wert_text(op.eingabe, 30)}.",
        )
    if op.typ == "fail" or (op.f == "read" and op.typ != "ok"):
        return None
    if op.f == "read":
        wirkung: tuple[Hashable, ...] = (LESEN, einfrieren(op.ausgabe, op.index))
    elif op.f == "write":
        wirkung = (SCHREIBEN, einfrieren(op.eingabe, op.index))
    else:
        assert isinstance(op.eingabe, list | tuple)
        art = CAS if op.typ == "ok" else CAS_VIELLEICHT
        wirkung = (art, einfrieren(op.eingabe[0], op.index), einfrieren(op.eingabe[1], op.index))
    # Positions in the history, not ticks: the history's order is real time, within a tick too.
    return Handlung(op.index, op.index_ende if op.typ == "ok" else None, op.index, wirkung)


def gelockert(a: Handlung) -> Handlung | None:
    """Dieselbe Operation, als hätte sie irgendwann nach ihrem Beginn oder gar nicht gewirkt.

    Lockern macht einen Verlauf nie „weniger linearisierbar“: Jede Reihenfolge, die vorher
    passte, passt weiter. Darum bleibt ein Fehler, der das Lockern übersteht, ein Fehler.
    """
    assert isinstance(a.wirkung, tuple)
    if a.wirkung[0] == LESEN:
        return None
    if a.wirkung[0] == CAS:
        return Handlung(a.beginn, None, a.rang, (CAS_VIELLEICHT, *a.wirkung[1:]))
    return Handlung(a.beginn, None, a.rang, a.wirkung)


def beschneiden(handlungen: list[Handlung]) -> list[Handlung]:
    """Lässt unbestimmte Schreibende (und cas) weg, deren Wert keine Handlung vorfinden muss.

    Warum das nichts ändert: Wirkt ein solches Schreiben mitten in einer Reihenfolge, liest bis
    zum nächsten Schreiben niemand seinen Wert; dort wirken höchstens unbestimmte cas, die
    etwas anderes erwarten und deshalb nichts tun. Schiebt man es samt diesen cas ans Ende,
    bleibt jede Antwort gleich. Am Ende wirken heißt: nie. Also ist der Verlauf mit ihm genau
    dann linearisierbar, wenn er es ohne es ist. Die Suche spart damit die Reihenfolgen, in
    denen ein nie gelesenes unbestimmtes Schreiben an jeder Stelle stehen könnte.
    """
    while True:
        gebraucht = {_vorher(a) for a in handlungen if _art(a) in (LESEN, CAS, CAS_VIELLEICHT)}
        bleiben = [a for a in handlungen if a.ende is not None or _neu(a) in gebraucht]
        if len(bleiben) == len(handlungen):
            return handlungen
        handlungen = bleiben


def _art(a: Handlung) -> str:
    assert isinstance(a.wirkung, tuple)
    return str(a.wirkung[0])


def _vorher(a: Handlung) -> Hashable:
    """Der Wert, den ``a`` vorfinden muss (Lesen, cas) oder schreibt (Schreiben)."""
    assert isinstance(a.wirkung, tuple)
    v: Hashable = a.wirkung[1]
    return v


def _neu(a: Handlung) -> Hashable:
    """Der Wert, den ``a`` hinterlässt (bei einem Lesen: der gelesene)."""
    assert isinstance(a.wirkung, tuple)
    v: Hashable = a.wirkung[2] if _art(a) in (CAS, CAS_VIELLEICHT) else a.wirkung[1]
    return v


def liest(op: Operation) -> tuple[bool, Hashable]:
    """(liest ``op`` einen Wert?, welchen): ein bestätigtes Lesen seinen, ein cas den erwarteten."""
    if op.f == "read" and op.typ == "ok":
        return True, einfrieren(op.ausgabe, op.index)
    if op.f == "cas" and op.typ == "ok":
        assert isinstance(op.eingabe, list | tuple)
        return True, einfrieren(op.eingabe[0], op.index)
    return False, None


def schreibt(op: Operation) -> tuple[bool, Hashable]:
    """(kann ``op`` einen Wert schreiben?, welchen)."""
    if op.f == "write":
        return True, einfrieren(op.eingabe, op.index)
    if op.f == "cas":
        assert isinstance(op.eingabe, list | tuple)
        return True, einfrieren(op.eingabe[1], op.index)
    return False, None


def nachher(op: Operation) -> tuple[bool, Hashable]:
    """(steht fest?, welcher Wert gleich nach ``op`` im Register stand): bei einem bestätigten
    Lesen der gelesene, bei einem bestätigten Schreiben oder cas der neue."""
    if op.typ != "ok":
        return False, None
    return liest(op) if op.f == "read" else schreibt(op)


def beschreibe(op: Operation) -> str:
    """``Lesen x → 1``, ``Schreiben x=1``, ``CAS x 1→2`` (ohne Schlüssel: ``Lesen → 1``)."""
    name = "" if op.schluessel is None else f" {schluessel_name(op.schluessel)}"
    if op.f == "read":
        return f"Lesen{name} → {wert(op.ausgabe)}" if op.typ == "ok" else f"Lesen{name}"
    if op.f == "write":
        return f"Schreiben{name}={wert(op.eingabe)}" if name else f"Schreiben {wert(op.eingabe)}"
    assert isinstance(op.eingabe, list | tuple)
    return f"CAS{name} {wert(op.eingabe[0])}→{wert(op.eingabe[1])}"


REGISTER = Modell(
    name=NAME,
    anfang=ANFANG,
    schritt=schritt,
    handlung=handlung,
    gelockert=gelockert,
    beschneiden=beschneiden,
    liest=liest,
    schreibt=schreibt,
    nachher=nachher,
    beschreibe=beschreibe,
)
