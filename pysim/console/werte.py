"""Werte lesen und zeigen: JSON mit deutschen Fehlermeldungen, Namen, Tabellen."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from typing import Any

from ..fehler import aufzaehlung
from ..log import ERLAUBTE_ZEICHEN
from .parser import EingabeFehler, kuerze_wort

#: So tief dürfen JSON-Werte verschachtelt sein (gleich in CPython und Pyodide).
MAX_TIEFE = 20
#: So viele Ziffern darf eine Zahl in einem JSON-Wert haben.
MAX_JSON_ZIFFERN = 30
#: So lang darf ein neuer Name (Topic, Gruppe, Mitglied, Consumer) sein.
MAX_NAME = 40

_JSON_MELDUNGEN = (
    ("Expecting value", "Hier fehlt ein Wert"),
    ("Expecting ',' delimiter", "Hier fehlt ein Komma"),
    ("Expecting ':' delimiter", "Hier fehlt ein Doppelpunkt"),
    (
        "Expecting property name enclosed in double quotes",
        'Hier fehlt ein Name in doppelten Anführungszeichen (")',
    ),
    ("Unterminated string", 'Dieser Text endet nicht: Es fehlt das schließende "'),
    ("Invalid control character", "Steuerzeichen sind in einem JSON-Text nicht erlaubt"),
    ("Invalid \\uXXXX escape", "Ungültiges \\u-Escape"),
    ("Invalid \\escape", "Ungültiges Escape mit \\"),
    ("Extra data", "Nach dem Wert steht noch etwas"),
)


def _zeiger(text: str, pos: int) -> list[str]:
    """Zwei Zeilen: ein Ausschnitt von ``text`` und ein ^ unter der Stelle ``pos``."""
    start = max(0, pos - 30)
    ausschnitt = text[start : start + 50]
    vorne = "…" if start > 0 else ""
    hinten = "…" if start + 50 < len(text) else ""
    return ["  " + vorne + ausschnitt + hinten, "  " + " " * (len(vorne) + pos - start) + "^"]


def _ausserhalb_von_texten(text: str) -> Iterator[tuple[int, str]]:
    """Die Zeichen von JSON-``text`` mit ihrer Stelle, ohne den Inhalt von Texten: von einem
    Text kommt nur das öffnende ``"``."""
    in_text = escape = False
    for i, zeichen in enumerate(text):
        if not in_text:
            in_text = zeichen == '"'
            yield i, zeichen
        elif escape:
            escape = False
        elif zeichen == "\\":
            escape = True
        elif zeichen == '"':
            in_text = False


def _erstes_ueberzaehliges_komma(text: str) -> int | None:
    """Die Stelle des ersten Kommas direkt vor ``}`` oder ``]`` (außerhalb von Texten)."""
    komma: int | None = None
    for i, zeichen in _ausserhalb_von_texten(text):
        if zeichen == ",":
            komma = i
        elif zeichen in "}]" and komma is not None:
            return komma
        elif not zeichen.isspace():
            komma = None
    return None


def _tiefe(text: str) -> int:
    """Wie tief ``[`` und ``{`` (außerhalb von Texten) höchstens verschachtelt sind."""
    tiefe = hoechste = 0
    for _, zeichen in _ausserhalb_von_texten(text):
        if zeichen in "[{":
            tiefe += 1
            hoechste = max(hoechste, tiefe)
        elif zeichen in "]}":
            tiefe -= 1
    return hoechste


def _keine_konstante(name: str) -> Any:
    raise EingabeFehler(f"{name} gibt es in JSON nicht. Nimm eine Zahl oder null.")


def _ganzzahl(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_ZIFFERN:
        raise EingabeFehler(
            f"Die Zahl {kuerze_wort(text, 20)} ist zu lang (höchstens {MAX_JSON_ZIFFERN} Ziffern)."
        )
    return int(text)


def _kommazahl(text: str) -> float:
    if len(text) > MAX_JSON_ZIFFERN + 10:
        raise EingabeFehler(f"Die Zahl {kuerze_wort(text, 20)} ist zu lang.")
    wert = float(text)
    if not math.isfinite(wert):
        raise EingabeFehler(f"Die Zahl {kuerze_wort(text, 20)} ist zu groß.")
    return wert


def lies_json(text: str) -> Any:
    """Liest einen JSON-Wert; ein Fehler sagt auf Deutsch, was wo falsch ist."""
    if _tiefe(text) > MAX_TIEFE:
        raise EingabeFehler(f"Der Wert ist zu tief verschachtelt (höchstens {MAX_TIEFE} Ebenen).")
    try:
        return json.loads(
            text,
            parse_constant=_keine_konstante,
            parse_int=_ganzzahl,
            parse_float=_kommazahl,
        )
    except json.JSONDecodeError as e:
        raise EingabeFehler(_json_meldung(text, e)) from None
    except (ValueError, RecursionError):
        raise EingabeFehler("Der Wert ist kein gültiges JSON.") from None


def _json_meldung(text: str, e: json.JSONDecodeError) -> str:
    komma = _erstes_ueberzaehliges_komma(text)
    if komma is not None and komma <= e.pos:
        pos, was = komma, "Dieses Komma ist zu viel: Nach dem letzten Element kommt keines"
    else:
        pos = e.pos
        was = next(
            (de for en, de in _JSON_MELDUNGEN if e.msg.startswith(en)), "Hier stimmt etwas nicht"
        )
    zeilen = [
        f"Der Wert ist kein gültiges JSON (Zeichen {pos + 1}):",
        f"{was}.",
        *_zeiger(text, pos),
    ]
    rest = text[pos:].lstrip()
    if e.msg.startswith("Extra data") and rest.lower().startswith("key="):
        zeilen.append("Der Schlüssel kommt vor den Wert: produce <topic> key=… {…}")
    elif "'" in text and '"' not in text:
        zeilen.append("JSON braucht doppelte Anführungszeichen \" statt '.")
    elif pos == 0 and text[:1].isalpha():
        wort = kuerze_wort(text.split()[0], 20)
        zeilen.append(f'Ein Text steht in doppelten Anführungszeichen: "{wort}"')
    return "\n".join(zeilen)


def zeige_json(wert: Any) -> str:
    """Ein Wert in kompaktem JSON: ``{"order":61,"total":12.4}``."""
    try:
        return json.dumps(wert, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(wert)


def pruefe_neuer_name(text: str, was: str) -> str:
    """Ein neuer Name: Buchstaben, Ziffern, Punkt, Unterstrich, Bindestrich; nicht zu lang."""
    if not set(text) <= ERLAUBTE_ZEICHEN:
        raise EingabeFehler(
            f"{was} besteht aus Buchstaben (a-z, A-Z), Ziffern, Punkt, Unterstrich und "
            f"Bindestrich, z. B. „billing-2“, nicht „{kuerze_wort(text)}“."
        )
    if len(text) > MAX_NAME:
        raise EingabeFehler(f"{was} ist zu lang (höchstens {MAX_NAME} Zeichen).")
    return text


def waehle_namen(text: str, namen: Sequence[str], wer: str, liste: str = "Es gibt") -> str:
    """Einer der vorhandenen ``namen`` (Groß-/Kleinschreibung egal), klein geschrieben.

    Sonst ein ``EingabeFehler``; ``wer`` trägt die Grammatik der Konsole, ``liste`` leitet die
    Aufzählung ein: ``waehle_namen("n9", ["n1", "n2"], "Den Knoten")`` meldet
    „Den Knoten „n9“ gibt es nicht. Es gibt: n1, n2.“
    """
    name = text.lower()
    if name not in namen:
        raise EingabeFehler(
            f"{wer} „{kuerze_wort(text)}“ gibt es nicht. {liste}: {', '.join(namen)}."
        )
    return name


def anzahl(n: int, eins: str, viele: str) -> str:
    """``anzahl(1, "Eintrag", "Einträge")`` -> ``1 Eintrag``."""
    return f"{n} {eins if n == 1 else viele}"


#: ``["a", "b"]`` -> ``„a“, „b“``; leer -> ``keine`` (wie die Meldungen des Modells).
namen = aufzaehlung


def tabelle(kopf: Sequence[str], zeilen: Sequence[Sequence[str]], einzug: str = "") -> list[str]:
    """Eine Tabelle mit linksbündigen Spalten (zwei Leerzeichen Abstand)."""
    alle = [list(kopf), *[list(z) for z in zeilen]]
    breiten = [max(len(z[i]) for z in alle) for i in range(len(kopf))]
    return [
        (einzug + "  ".join(f"{w:<{b}}" for w, b in zip(z, breiten, strict=True))).rstrip()
        for z in alle
    ]
