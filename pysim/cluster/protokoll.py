"""Das Protokoll eines Laufs: was die Knoten notierten und druckten, und Nachrichten als Text.

Eine Zeile kommt von ``self.notiz(text)`` oder von ``print`` (auch ``print(…, file=sys.stderr)``)
im Code eines Knotens, während er läuft: in einem Handler, einem Timer, ``beim_start``, nach
einem ``await``. Jede Zeile trägt den Tick und den Knoten. So hebt auch Maelstrom auf, was ein
Knoten auf STDERR schreibt, eine Datei je Knoten (``log/n1.log``); STDOUT gehört dort dem
Protokoll der Nachrichten, hier gehört beides der Leserin.

Ein Lauf hält höchstens ``MAX_ZEILEN`` Zeilen, die ersten und die letzten; eine Zeile dazwischen
sagt, wie viele ausgelassen sind. Eine Zeile hält höchstens ``MAX_ZEICHEN`` Zeichen und sagt, wie
lang sie war. Was weggelassen wird, baut das Protokoll gar nicht erst auf: Ein Knoten, der eine
Million Zeilen druckt, kostet Zeit, aber keinen Speicher.

``inhalt_text`` schreibt den Inhalt einer Nachricht als kurzes JSON, ``sendung_text`` eine ganze
Nachricht mit Absender, Empfänger, Ticks und Schicksal (für das Bild und die Liste der
Nachrichten unter ihm).
"""

from __future__ import annotations

import io
import json
import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

if TYPE_CHECKING:
    from .cluster import Sendung

#: Lines a run keeps: the first half and the last half of this many.
MAX_ZEILEN = 200
#: Characters a line keeps.
MAX_ZEICHEN = 300
#: Characters of a message's body in its text (the picture's title, the list of messages).
MAX_INHALT = 200

#: What a line is: a note (``self.notiz``), printed output, or what the cap left out.
Art = Literal["notiz", "ausgabe", "ausgelassen"]
NOTIZ: Final = "notiz"
AUSGABE: Final = "ausgabe"
AUSGELASSEN: Final = "ausgelassen"


def _zahl(n: int) -> str:
    """1234567 -> 1.234.567."""
    return f"{n:,}".replace(",", ".")


@dataclass(frozen=True)
class Zeile:
    """Eine Zeile des Protokolls: ``zeit`` (Tick), ``knoten``, ``art`` (``notiz``, ``ausgabe``
    oder ``ausgelassen``) und ``text``."""

    zeit: int
    knoten: str
    art: Art
    text: str

    def __str__(self) -> str:
        if self.art == AUSGELASSEN:
            return self.text
        return f"t={self.zeit} {self.knoten}: {self.text}"


class Protokoll:
    """Die Zeilen eines Laufs, begrenzt (``MAX_ZEILEN``, ``MAX_ZEICHEN``)."""

    def __init__(self) -> None:
        self._anfang: list[Zeile] = []
        self._ende: deque[Zeile] = deque(maxlen=MAX_ZEILEN - MAX_ZEILEN // 2)
        #: Lines written in all, kept or not.
        self.geschrieben = 0
        self._strom = _Ausgabe(self)

    def schreibe(
        self, zeit: int, knoten: str, art: Art, text: str, laenge: int | None = None
    ) -> None:
        """Eine Zeile; ``laenge``: wie lang ``text`` war, bevor der Aufrufer ihn kürzte."""
        self.geschrieben += 1
        if len(self._anfang) < MAX_ZEILEN // 2:
            self._anfang.append(Zeile(zeit, knoten, art, gekuerzt(text, laenge)))
        else:
            self._ende.append(Zeile(zeit, knoten, art, gekuerzt(text, laenge)))

    def ueberspringe(self, anzahl: int) -> None:
        """``anzahl`` Zeilen, die nur gezählt werden: Es folgen genug spätere, die sie aus dem
        Ende verdrängen (``_Ausgabe.write``)."""
        self.geschrieben += anzahl

    @property
    def voll(self) -> bool:
        """Kommt die nächste Zeile ins Ende (der Anfang ist voll)?"""
        return len(self._anfang) >= MAX_ZEILEN // 2

    @property
    def ausgelassen(self) -> int:
        """Wie viele Zeilen zwischen Anfang und Ende fehlen."""
        return self.geschrieben - len(self._anfang) - len(self._ende)

    def zeilen(self) -> list[Zeile]:
        """Die Zeilen in ihrer Reihenfolge; fehlen welche, steht an ihrer Stelle eine Zeile, die
        sagt, wie viele."""
        if not self.ausgelassen:
            return [*self._anfang, *self._ende]
        erste = self._ende[0]
        luecke = Zeile(
            erste.zeit,
            "",
            AUSGELASSEN,
            f"… {_zahl(self.ausgelassen)} Zeilen ausgelassen: Ein Lauf hebt höchstens "
            f"{MAX_ZEILEN} auf, die ersten und die letzten {MAX_ZEILEN // 2}.",
        )
        return [*self._anfang, luecke, *self._ende]

    def strom(self, zeit: int, knoten: str) -> _Ausgabe:
        """Der Strom für ``sys.stdout``, solange der Code von ``knoten`` im Tick ``zeit`` läuft
        (einer je Protokoll: ein Aufruf kostet so kaum etwas)."""
        strom = self._strom
        if strom._laenge:
            strom._zeile()
        strom._zeit, strom._knoten = zeit, knoten
        return strom


def gekuerzt(text: str, laenge: int | None = None) -> str:
    """``text`` mit höchstens ``MAX_ZEICHEN`` Zeichen; sonst mit dem Hinweis, wie lang er war."""
    laenge = len(text) if laenge is None else laenge
    if laenge <= MAX_ZEICHEN:
        return text
    return f"{text[:MAX_ZEICHEN]} … (gekürzt: {_zahl(laenge)} Zeichen, gezeigt {MAX_ZEICHEN})"


class _Ausgabe(io.TextIOBase):
    """``sys.stdout`` and ``sys.stderr`` while a call of a node's code runs: each line into
    the run's log, with the tick and the node of that call (``Protokoll.strom`` sets them).
    Only what the log keeps is ever copied: a line's first ``MAX_ZEICHEN`` characters; of a
    million lines in one write, the first ones while the log's beginning has room and the
    last ones."""

    def __init__(self, protokoll: Protokoll) -> None:
        super().__init__()
        self._protokoll = protokoll
        self._zeit = 0
        self._knoten = ""
        self._teile: list[str] = []
        self._gesammelt = 0  # characters in ``_teile``
        self._laenge = 0  # characters of the open line, kept or not

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        neue = text.count("\n")
        if not neue:
            self._sammle(text, 0, len(text))
            return len(text)
        erste, letzte = text.index("\n"), text.rindex("\n")
        self._sammle(text, 0, erste)
        self._zeile()
        if neue > 1:
            self._mitte(text, erste + 1, letzte, neue - 1)
        self._sammle(text, letzte + 1, len(text))
        return len(text)

    def _mitte(self, text: str, von: int, bis: int, anzahl: int) -> None:
        """The ``anzahl`` whole lines in ``text[von:bis]`` (each ends before a newline, the last
        one at ``bis``): only those the log can keep are cut out."""
        protokoll = self._protokoll
        while anzahl and not protokoll.voll:
            ende = text.index("\n", von)
            self._sammle(text, von, ende)
            self._zeile()
            von, anzahl = ende + 1, anzahl - 1
        behalten = protokoll._ende.maxlen or 0
        if anzahl > behalten:
            # Skip the lines the log's end would push out again: find where the last
            # ``behalten`` begin, searching from the back.
            start = bis
            for _ in range(behalten):
                start = text.rindex("\n", von, start)
            protokoll.ueberspringe(anzahl - behalten)
            von, anzahl = start + 1, behalten
        while anzahl:
            ende = text.index("\n", von)
            self._sammle(text, von, ende)
            self._zeile()
            von, anzahl = ende + 1, anzahl - 1

    def _sammle(self, text: str, von: int, bis: int) -> None:
        if bis <= von:
            return
        platz = MAX_ZEICHEN - self._gesammelt
        if platz > 0:
            stueck = text[von : min(bis, von + platz)]
            self._teile.append(stueck)
            self._gesammelt += len(stueck)
        self._laenge += bis - von

    def _zeile(self) -> None:
        text = "".join(self._teile)
        self._protokoll.schreibe(self._zeit, self._knoten, AUSGABE, text, self._laenge)
        self._teile, self._gesammelt, self._laenge = [], 0, 0

    def flush(self) -> None:
        pass  # a line is written when it ends (or when the call ends: ``schliesse``)

    @property
    def offen(self) -> bool:
        """Has the call begun a line it has not ended?"""
        return self._laenge > 0

    def schliesse(self) -> None:
        """The call ended: a line it began without ending it is a line of its own."""
        if self._laenge:
            self._zeile()


# --- messages as text ------------------------------------------------------------------------


class _Voll(Exception):
    """The text of a body has reached its length."""


def inhalt_text(body: object, zeichen: int = MAX_INHALT) -> str:
    """Der Inhalt einer Nachricht als kurzes JSON, höchstens ``zeichen`` Zeichen; was fehlt, sagt
    ein „…“ am Ende. Gebaut wird nur, was gezeigt wird (ein Wert von 2 MB kostet nichts), und
    Mengen stehen sortiert da (gleicher Lauf, gleicher Text)."""
    teile: list[str] = []
    rest = [zeichen + 1]

    def schreibe(text: str) -> None:
        teile.append(text)
        rest[0] -= len(text)
        if rest[0] <= 0:
            raise _Voll

    try:
        _wert(body, schreibe, rest, 0)
    except _Voll:
        text = "".join(teile)
        return text[: zeichen - 1] + "…"
    return "".join(teile)


#: How deep a body is written; deeper lists and dicts are written as ``[…]`` and ``{…}``.
_TIEFE = 6
#: Elements of a set sorted before they are written (more: written in the set's own order).
_SORTIERT = 1000


def _wert(wert: Any, schreibe: Any, rest: list[int], tiefe: int) -> None:
    if wert is None or isinstance(wert, bool):
        schreibe(json.dumps(wert))
    elif isinstance(wert, int):
        schreibe(_ganze_zahl(wert))
    elif isinstance(wert, float):
        schreibe(repr(wert) if math.isfinite(wert) else json.dumps(wert))
    elif isinstance(wert, str):
        schreibe(json.dumps(wert[: max(rest[0], 0) + 1], ensure_ascii=False))
    elif isinstance(wert, bytes | bytearray):
        schreibe(repr(bytes(wert[: max(rest[0], 0) + 1])))
    elif isinstance(wert, Mapping):
        if tiefe >= _TIEFE:
            schreibe("{…}")
            return
        schreibe("{")
        for i, (schluessel, inneres) in enumerate(wert.items()):
            if i:
                schreibe(", ")
            if isinstance(schluessel, str):
                _wert(schluessel, schreibe, rest, tiefe + 1)
            else:
                schreibe('"')
                _wert(schluessel, schreibe, rest, tiefe + 1)
                schreibe('"')
            schreibe(": ")
            _wert(inneres, schreibe, rest, tiefe + 1)
        schreibe("}")
    elif isinstance(wert, list | tuple | deque | set | frozenset):
        if tiefe >= _TIEFE:
            schreibe("[…]")
            return
        elemente: Any = wert
        if isinstance(wert, set | frozenset) and len(wert) <= _SORTIERT:
            elemente = sorted(wert, key=_ordnung)
        schreibe("[")
        for i, inneres in enumerate(elemente):
            if i:
                schreibe(", ")
            _wert(inneres, schreibe, rest, tiefe + 1)
        schreibe("]")
    else:  # the reader's own object: its type only (its repr is the reader's code)
        schreibe(f"<{type(wert).__name__}>")


def _ganze_zahl(wert: int) -> str:
    if wert.bit_length() > 256:  # str() of a huge int is slow (and refused past 4300 digits)
        return f"<ganze Zahl mit {_zahl(wert.bit_length())} Bit>"
    return str(wert)


def _ordnung(wert: Any) -> tuple[int, Any, str]:
    """A total order over anything a set holds: numbers among numbers, text among text,
    anything else by its type and its text."""
    if isinstance(wert, int | float) and not isinstance(wert, bool) and wert == wert:
        return (0, wert, "")
    if isinstance(wert, str):
        return (1, 0, wert)
    return (2, 0, f"{type(wert).__name__} {inhalt_text(wert, 60)}")


#: What became of a message, for its text (``cluster.ZUGESTELLT`` …).
SCHICKSAL_TEXT = {
    "zugestellt": "angekommen",
    "verloren": "verloren im Netz",
    "getrennt": "verworfen: Netzpartition",
    "empfänger aus": "verworfen: Empfänger abgestürzt",
}


def sendung_text(sendung: Sendung) -> str:
    """Eine Nachricht in einer Zeile: ``n1 → n2, t=3 → t=5 angekommen: {"type": …}``."""
    n = sendung.nachricht
    schicksal = SCHICKSAL_TEXT.get(sendung.schicksal, sendung.schicksal or "unterwegs")
    if sendung.ankunft is not None and sendung.schicksal != "verloren":
        wann = f"t={sendung.gesendet} → t={sendung.ankunft} {schicksal}"
    else:
        wann = f"t={sendung.gesendet}, {schicksal}"
    return f"{n.src} → {n.dest}, {wann}: {inhalt_text(n.body)}"
