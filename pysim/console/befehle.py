"""Befehle kurz schreiben: eine Zeile der Tabelle je Befehl, und die Arten von Werten und die
Antworten, die mehrere Konsolen teilen.

    befehl("status", "jeder Knoten mit Rolle und Log", RaftKonsole._status)
    befehl("absturz <knoten>", "einen Knoten abstürzen lassen", RaftKonsole._absturz,
           "absturz n2", erklaerung="…", positionen=(KNOTEN_WERT,))

Der Name eines Befehls ist das erste Wort seiner Syntax; ein Befehl ohne Werte ist sein eigenes
Beispiel. So nennt jede Konsole nur, was ihr eigen ist (Syntax, Hilfetexte, Handler, Werte).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .parser import Art, Befehl, Handler, Kandidaten, Wert
from .werte import pruefe_neuer_name, tabelle, waehle_namen


def befehl(
    syntax: str,
    kurz: str,
    handler: Handler,
    *beispiele: str,
    erklaerung: str | tuple[str, ...] = (),
    **weiter: Any,
) -> Befehl:
    """Ein ``Befehl`` aus einer Tabellenzeile.

    ``syntax``: die Form, wie die Hilfe sie zeigt; ihr erstes Wort ist der Name. ``beispiele``:
    ohne sie ist ``syntax`` selbst das Beispiel (nur für Befehle ohne Werte). ``erklaerung``: ein
    Absatz oder mehrere. ``weiter``: die übrigen Felder von ``Befehl`` (``positionen``,
    ``optionen``, ``aliase`` …).
    """
    return Befehl(
        name=syntax.split()[0],
        syntax=syntax,
        kurz=kurz,
        beispiele=beispiele or (syntax,),
        handler=handler,
        erklaerung=(erklaerung,) if isinstance(erklaerung, str) else erklaerung,
        **weiter,
    )


def _keine(_konsole: Any, _werte: dict[str, Any]) -> list[str]:
    return []


def name_art(name: str, was: str, kandidaten: Kandidaten = _keine) -> Art:
    """Die ``Art`` eines frei wählbaren Namens (``pruefe_neuer_name``; ``was`` beginnt die
    Meldung, z. B. „Der Name eines Clients“), mit den ``kandidaten`` der Konsole."""

    def lies(_konsole: Any, text: str, _werte: dict[str, Any]) -> str:
        return pruefe_neuer_name(text, was)

    return Art(name, lies=lies, kandidaten=kandidaten)


def namen_art(
    name: str, wer: str, namen: Callable[[Any], Sequence[str]], liste: str = "Es gibt"
) -> Art:
    """Die ``Art`` eines vorhandenen Namens (``waehle_namen``): ``namen(konsole)`` nennt sie,
    als Vorschläge und für die Meldung (``wer`` und ``liste`` wie bei ``waehle_namen``)."""

    def lies(konsole: Any, text: str, _werte: dict[str, Any]) -> str:
        return waehle_namen(text, namen(konsole), wer, liste)

    def kandidaten(konsole: Any, _werte: dict[str, Any]) -> list[str]:
        return list(namen(konsole))

    return Art(name, lies=lies, kandidaten=kandidaten)


def key_wert(kandidaten: Kandidaten = _keine) -> Wert:
    """``<key>``: der Schlüssel eines Registers (``write x 1``), ein frei wählbarer Name."""
    return Wert("key", "<key>", name_art("key", "Ein Schlüssel", kandidaten))


def client_wert(name: str, kandidaten: Kandidaten = _keine) -> Wert:
    """``<client>`` unter ``name`` (``… as c9``): ein Client, ein Prozess im Verlauf."""
    return Wert(name, "<client>", name_art("client", "Der Name eines Clients", kandidaten))


def zahl_oder_wort(text: str) -> int | str:
    """Ein Wert, der geschrieben wird: eine Zahl (nur Ziffern) oder ein Wort (ein Name)."""
    if text.isdigit():
        return int(text)
    return pruefe_neuer_name(text, "Ein Wert")


def _lies_zahl_oder_wort(_konsole: Any, text: str, _werte: dict[str, Any]) -> int | str:
    return zahl_oder_wort(text)


#: ``<wert>`` als Art: eine Zahl oder ein Wort (``zahl_oder_wort``).
WERT = Art("wert", lies=_lies_zahl_oder_wort)


#: So sagt eine Konsole mit einem Verlauf, dass er noch leer ist.
KEIN_VERLAUF = "Noch keine Operation. Schreibe etwas: write x 1"


def verlauf_zeilen(
    verlauf: Sequence[dict[str, Any]],
    prozess: str,
    wert: Callable[[dict[str, Any]], str],
    urteil: Callable[[], str],
    max_zeilen: int,
) -> list[str]:
    """Ein Jepsen-Verlauf als Tabelle (die letzten ``max_zeilen`` Ereignisse), dann das
    ``urteil()``; ein leerer Verlauf ist die eine Zeile ``KEIN_VERLAUF``.

    ``prozess``: die Überschrift der Spalte der Clients; ``wert``: wie ein Ereignis seinen Wert
    zeigt.
    """
    if not verlauf:
        return [KEIN_VERLAUF]
    zeilen = [f"Verlauf ({len(verlauf)} Ereignisse):"]
    reihen = [
        [
            str(e["time"]),
            str(e["process"]),
            e["type"],
            e["f"],
            str(e["key"]),
            wert(e),
            str(e["node"]),
        ]
        for e in verlauf[-max_zeilen:]
    ]
    zeilen += tabelle(["T", prozess, "TYP", "F", "KEY", "WERT", "KNOTEN"], reihen, "  ")
    if len(verlauf) > max_zeilen:
        zeilen.append(f"(die letzten {max_zeilen} von {len(verlauf)})")
    zeilen.append(urteil())
    return zeilen
