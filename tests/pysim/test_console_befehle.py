"""The declarative command table (``pysim.console.befehle``): one row per command, the value
kinds the consoles share, and each console's title stated once (on its class)."""

from __future__ import annotations

import hashlib

import pytest

from pysim.console.art import arten
from pysim.console.basis import BasisKonsole
from pysim.console.befehle import (
    KEIN_VERLAUF,
    WERT,
    befehl,
    client_wert,
    key_wert,
    namen_art,
    verlauf_zeilen,
)
from pysim.console.parser import Befehl, EingabeFehler

#: The help of every console (``hilfe`` and ``hilfe <befehl>`` for each command), as it was
#: before the tables became declarative: the reader sees these texts, they must not move.
HILFE = {
    "log": "a293faf9a47e99f6",
    "partition": "ff3ea269c41a32ac",
    "queue": "4192c60217a4761e",
    "raft": "14bcb86ae5350608",
    "replik": "59a5250ec192e445",
    "saga": "3f1d3d20c4b1330c",
    "sql": "1aa6a8032df73bf1",
}


def _handler(_konsole: object, _aufruf: object) -> None:
    return None


def test_a_row_is_the_command_it_names() -> None:
    assert befehl("status", "alles zeigen", _handler) == Befehl(
        name="status", syntax="status", kurz="alles zeigen", beispiele=("status",), handler=_handler
    )
    assert befehl(
        "absturz <knoten>",
        "abstürzen",
        _handler,
        "absturz n2",
        erklaerung="Weg.",
        aliase=("crash",),
    ) == Befehl(
        name="absturz",
        syntax="absturz <knoten>",
        kurz="abstürzen",
        beispiele=("absturz n2",),
        handler=_handler,
        erklaerung=("Weg.",),
        aliase=("crash",),
    )


@pytest.mark.parametrize("art", sorted(arten()))
def test_every_consoles_help_is_unchanged(art: str) -> None:
    k = arten()[art].klasse()
    texte = [k.run("hilfe").text] + [k.run(f"hilfe {b.name}").text for b in k.BEFEHLE.befehle]
    digest = hashlib.sha256("\n\n".join(texte).encode()).hexdigest()[:16]
    assert digest == HILFE[art], "the help text changed; if on purpose, update HILFE"


@pytest.mark.parametrize("art", sorted(arten()))
def test_the_title_is_stated_once_on_the_class(art: str) -> None:
    a = arten()[art]
    assert a.titel == a.klasse.TITEL
    assert a.klasse().run("hilfe").text.splitlines()[0] == f"Befehle der {a.titel}:"
    assert BasisKonsole.hilfe_titel() == "Befehle:"


def test_the_shared_value_kinds() -> None:
    assert WERT.lies(None, "12", {}) == 12
    assert WERT.lies(None, "abc", {}) == "abc"
    with pytest.raises(EingabeFehler, match="Ein Wert besteht"):
        WERT.lies(None, "a!b", {})
    with pytest.raises(EingabeFehler, match="Ein Schlüssel besteht"):
        key_wert().art.lies(None, "a!b", {})
    client = client_wert("as", lambda _k, _w: ["c1"])
    assert (client.name, client.platzhalter, client.art.name) == ("as", "<client>", "client")
    assert list(client.art.kandidaten(None, {})) == ["c1"]
    with pytest.raises(EingabeFehler, match="Der Name eines Clients"):
        client.art.lies(None, "a b!", {})


def test_a_history_as_a_table() -> None:
    ereignis = {"time": 3, "process": "c1", "type": "ok", "f": "read", "key": "x", "node": "n1"}
    zeilen = verlauf_zeilen([ereignis] * 3, "CLIENT", lambda e: "1", lambda: "Linearisierbar.", 2)
    assert zeilen[0] == "Verlauf (3 Ereignisse):"
    assert zeilen[1].split() == ["T", "CLIENT", "TYP", "F", "KEY", "WERT", "KNOTEN"]
    assert zeilen[2].split() == ["3", "c1", "ok", "read", "x", "1", "n1"]
    assert zeilen[-2:] == ["(die letzten 2 von 3)", "Linearisierbar."]
    assert verlauf_zeilen([], "CLIENT", lambda e: "1", lambda: "nie gefragt", 2) == [KEIN_VERLAUF]


def test_one_of_the_names_a_console_has() -> None:
    art = namen_art("knoten", "Den Knoten", lambda k: k, liste="Da sind")
    assert art.lies(["n1", "n2"], "N2", {}) == "n2"
    assert list(art.kandidaten(["n1", "n2"], {})) == ["n1", "n2"]
    with pytest.raises(EingabeFehler, match=r"Den Knoten „n9“ gibt es nicht\. Da sind: n1, n2\."):
        art.lies(["n1", "n2"], "n9", {})
