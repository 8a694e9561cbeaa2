"""Eine Grenze für jeden Aufruf des Codes der Leserin: eine Schleife, die nie endet, hängt nicht.

Der Cluster ruft jeden Handler (und jeden Timer, jedes Weiterlaufen nach ``await``) über
``rufe``. Gezählt werden die Schleifendurchläufe (Sprünge zurück) im Code der Leserin in diesem
einen Aufruf, nicht die von ``pysim`` und nicht die der Standardbibliothek. Braucht ein Aufruf
mehr als ``MAX_SCHRITTE``, wirft die Zählung ``EndetNicht`` in ihrem Code; der Cluster macht
daraus ``LaufAbgebrochen`` mit einer Meldung, die Handler und Knoten nennt.

Wie gezählt wird, hängt von Python ab (gemessen, siehe benchmarks/README.md):

- ab Python 3.12 (Pyodide im Browser) mit ``sys.monitoring``, Ereignis ``JUMP``: an, solange
  ein Cluster mit Knoten der Leserin läuft (``an``/``aus``; einer mit pysims eigenen Knoten,
  ``code_der_leserin=False``, schaltet sie nicht an), sonst aus, damit die Schleifen anderer
  Zellen nichts kosten; jeder Sprung, der nicht zurück im Code der Leserin führt, schaltet sich beim ersten
  Mal ab (``DISABLE``) und kostet danach nichts;
- in Python 3.11 (der Build) mit ``sys.settrace``, nur während ein Aufruf läuft: eine Zeile,
  die nicht hinter der vorigen liegt, ist ein Sprung zurück.

Was hier nicht hilft: Code der Leserin, der ``BaseException`` fängt und weiterläuft, oder eine
lange Rechnung in C (``sum(range(10**12))``). Dann bleibt ``Stopp``.
"""

from __future__ import annotations

import linecache
import os
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

#: Loop iterations (backward jumps) of the reader's code one call may take. A handler of the
#: course's challenges takes a few dozen; one that sends 1,000 values to 8 nodes 8,000.
MAX_SCHRITTE = 100_000

_PYSIM = str(Path(__file__).resolve().parent.parent)
#: Where the standard library lives: Pyodide imports it from a zip (/lib/python314.zip).
_STDLIB = tuple(
    {str(Path(sysconfig.get_paths()["stdlib"]).resolve()), str(Path(os.__file__).parent)}
)


class EndetNicht(BaseException):
    """Ein Aufruf des Codes der Leserin hat seine Zeilen verbraucht. ``BaseException``, damit
    ``except Exception`` in ihrem Code sie nicht schluckt."""

    def __init__(self, zeile: int, datei: str) -> None:
        super().__init__(zeile, datei)
        self.zeile, self.datei = zeile, datei

    @property
    def code(self) -> str:
        return linecache.getline(self.datei, self.zeile).strip()


_eigen: dict[CodeType, bool] = {}


def _von_der_leserin(code: CodeType) -> bool:
    """Not pysim, not the standard library: the reader's code (or a test's node)."""
    try:
        return _eigen[code]
    except KeyError:
        datei = code.co_filename
        if datei.startswith("<"):  # a cell or exec'd text; not Python's own frozen modules
            eigen = not datei.startswith("<frozen ")
        else:
            eigen = not str(Path(datei).resolve()).startswith((_PYSIM, *_STDLIB))
        _eigen[code] = eigen
        return eigen


class _Zaehler:
    """The budget of the call that runs now (``None``: no call of the reader's code)."""

    rest: int | None = None


_zaehler = _Zaehler()


def _gezaehlt(code: CodeType, zeile: int | None, offset: int = 0) -> None:
    rest = _zaehler.rest
    if rest is None:
        return
    rest -= 1
    _zaehler.rest = rest
    if rest < 0:
        if zeile is None:
            zeile = next((z for a, e, z in code.co_lines() if a <= offset < e and z), 0)
        raise EndetNicht(zeile, code.co_filename)


# --- Python 3.12 and later: sys.monitoring, on while a cluster runs -----------------------------


def _monitoring() -> bool:
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return False
    for werkzeug in range(6):
        if monitoring.get_tool(werkzeug) is None:
            break
    else:
        return False  # every tool id taken: count with settrace instead
    disable = monitoring.DISABLE

    def sprung(code: CodeType, von: int, nach: int) -> Any:
        if nach >= von or not _von_der_leserin(code):
            return disable  # forward, or not the reader's: this jump never calls again
        _gezaehlt(code, None, von)
        return None

    monitoring.use_tool_id(werkzeug, "pysim.cluster.grenze")
    monitoring.register_callback(werkzeug, monitoring.events.JUMP, sprung)
    global _WERKZEUG
    _WERKZEUG = werkzeug
    return True


_WERKZEUG: int | None = None
_MONITORING = _monitoring()
_an = False


def an() -> None:
    """Count from now on (``sys.monitoring``: the events on; ``rufe`` does it, too)."""
    global _an
    if _WERKZEUG is not None and not _an:
        monitoring: Any = getattr(sys, "monitoring")  # noqa: B009 (3.12+, mypy runs 3.11)
        monitoring.set_events(_WERKZEUG, monitoring.events.JUMP)
        _an = True


def aus() -> None:
    """No counting until the next ``an``: other code's loops cost nothing (the cluster calls
    this when it stops running)."""
    global _an
    if _WERKZEUG is not None and _an:
        monitoring: Any = getattr(sys, "monitoring")  # noqa: B009
        monitoring.set_events(_WERKZEUG, 0)
        _an = False


# --- Python 3.11: sys.settrace while a call runs ------------------------------------------------


def _aufruf(frame: FrameType, ereignis: str, _arg: Any) -> Any:
    if not _von_der_leserin(frame.f_code):
        return None
    letzte = -1

    def zeile(frame: FrameType, ereignis: str, _arg: Any) -> Any:
        nonlocal letzte
        if ereignis == "line":
            if frame.f_lineno <= letzte:
                _gezaehlt(frame.f_code, frame.f_lineno)
            letzte = frame.f_lineno
        return zeile

    return zeile


def rufe(max_schritte: int, aktion: Callable[..., Any], *argumente: Any) -> Any:
    """``aktion(*argumente)`` mit höchstens ``max_schritte`` Sprüngen zurück im Code der
    Leserin; wirft ``EndetNicht``, wenn es mehr werden."""
    vorher = _zaehler.rest
    _zaehler.rest = max_schritte
    try:
        if _MONITORING:
            if not _an:
                an()
            return aktion(*argumente)
        alt = sys.gettrace()
        sys.settrace(_aufruf)
        try:
            return aktion(*argumente)
        finally:
            sys.settrace(alt)
    finally:
        _zaehler.rest = vorher
