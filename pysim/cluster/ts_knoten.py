"""Ein Knoten in TypeScript: derselbe Cluster, dieselben Störungen, derselbe Prüfer.

Die Leserin schreibt ``class MeinKnoten extends Node { onEcho(msg) { … } }``; die Laufzeit in
JavaScript (``frontend/src/tsnode/``) übersetzt den Code mit TypeScripts eigenem Compiler und
führt ihn Schritt für Schritt aus. Hier wird daraus ein ``Knoten``, den der Cluster von einem
Python-Knoten nicht unterscheiden kann: ``bei_<typ>`` ruft ``on<Typ>`` in JavaScript, und was
der Code dort tat (senden, antworten, Timer, Notizen, der Speicher), tut dieser Knoten danach
in derselben Reihenfolge. Wartet ein Handler in JavaScript (``await this.ask(…)``), wartet der
Handler hier auf genau dasselbe ``Wartbar`` (``self.frage(…)``) und setzt den in JavaScript
mit dem Wert oder dem Fehler fort: So läuft ein TypeScript-Knoten auf derselben
``Prozess``-Maschinerie in derselben Reihenfolge wie ein Python-Knoten, der dasselbe tut.

Über die Grenze geht nur JSON (Inhalte, Speicher, Zustand). Wie eine Anfrage die Laufzeit
erreicht, sagt die ``Gegenstelle``: ein Node.js-Prozess über STDIN/STDOUT (Build, Tests) oder
die JavaScript-Brücke von Pyodide (Browser).
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Callable, Mapping
from types import CoroutineType
from typing import Any, ClassVar, Protocol, cast

from ..fehler import UngueltigeEingabe
from ..prozess import Erstes, Wartbar
from . import grenze
from .knoten import FehlerAntwort, KeineAntwort, Knoten, Timer, ZuWenigAntworten
from .nachricht import Nachricht


class Gegenstelle(Protocol):
    """Der Weg zur JavaScript-Laufzeit: eine Anfrage (JSON-Objekt), eine Antwort."""

    def rufe(self, anfrage: dict[str, Any]) -> dict[str, Any]:
        """Schickt ``anfrage`` und gibt die Antwort; wartet, bis sie da ist."""
        ...


class GegenstelleFehler(RuntimeError):
    """Die JavaScript-Laufzeit selbst scheiterte (kein Fehler im Code der Leserin)."""


class PyodideGegenstelle:
    """Im Browser: die Laufzeit im selben Worker, synchron über Pyodides JavaScript-Brücke.
    ``funktion`` nimmt eine Anfrage als JSON-Text und gibt die Antwort als JSON-Text."""

    def __init__(self, funktion: Callable[[str], str]) -> None:
        self._funktion = funktion

    def rufe(self, anfrage: dict[str, Any]) -> dict[str, Any]:
        antwort: dict[str, Any] = json.loads(str(self._funktion(json.dumps(anfrage))))
        return antwort


class NodeGegenstelle:
    """Im Build und in den Tests: die Laufzeit in einem Node.js-Prozess, eine JSON-Zeile je
    Anfrage auf STDIN, eine je Antwort auf STDOUT. Einmal gestartet, für alle Läufe genutzt."""

    def __init__(self, befehl: list[str], cwd: str | None = None) -> None:
        import subprocess  # the browser's Python has no processes; only this transport needs them

        self._prozess = subprocess.Popen(
            befehl,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def rufe(self, anfrage: dict[str, Any]) -> dict[str, Any]:
        ein, aus = self._prozess.stdin, self._prozess.stdout
        assert ein is not None and aus is not None
        try:
            ein.write(json.dumps(anfrage) + "\n")
            ein.flush()
        except BrokenPipeError:
            raise GegenstelleFehler("Die TypeScript-Laufzeit (Node.js) läuft nicht mehr.") from None
        zeile = aus.readline()
        if not zeile:
            raise GegenstelleFehler("Die TypeScript-Laufzeit (Node.js) hat nicht geantwortet.")
        antwort: dict[str, Any] = json.loads(zeile)
        return antwort

    def schliesse(self) -> None:
        if self._prozess.stdin is not None:
            self._prozess.stdin.close()
        self._prozess.wait(timeout=10)


class TsFehler(Exception):
    """Was der TypeScript-Code eines Knotens warf (``TypeError``, ``NoReply``, …); der Name
    der Klasse ist der des Fehlers in JavaScript, ``zeile_der_leserin`` seine Zeile."""

    zeile_der_leserin: int | None = None
    code_der_leserin: str = ""


_FEHLERKLASSEN: dict[str, type[TsFehler]] = {}


def _ts_fehler(name: str, text: str, zeile: int | None, code: str) -> TsFehler:
    """A ``TsFehler`` whose class is named as the JavaScript error (``meldung`` shows it)."""
    name = name if re.fullmatch(r"[A-Za-z_]\w{0,59}", name) else "Error"
    klasse = _FEHLERKLASSEN.get(name)
    if klasse is None:
        klasse = _FEHLERKLASSEN[name] = type(name, (TsFehler,), {})
    fehler = klasse(text)
    fehler.zeile_der_leserin, fehler.code_der_leserin = zeile, code
    return fehler


class TsEndetNicht(grenze.EndetNicht):
    """Ein Aufruf des TypeScript-Codes verbrauchte sein Budget (wie ``grenze.EndetNicht``)."""

    def __init__(self, zeile: int, code: str) -> None:
        super().__init__(zeile, "")
        self._code = code

    @property
    def code(self) -> str:
        return self._code


def handler_name(typ: str) -> str:
    """``commit_offsets`` -> ``onCommitOffsets``: the TypeScript handler of a message type."""
    return "on" + "".join(teil[:1].upper() + teil[1:] for teil in typ.split("_"))


def als_json(wert: object) -> Any:
    """What an await gave on the Python side, as the JSON the TypeScript handler gets."""
    if isinstance(wert, Nachricht):
        return wert.als_dict()
    if isinstance(wert, Erstes):
        return [wert.stelle, als_json(wert.wert)]
    if isinstance(wert, list):
        return [als_json(w) for w in wert]
    return wert


def fehler_json(fehler: BaseException) -> dict[str, Any]:
    """An await's error as the TypeScript handler gets it (``NoReply``, ``ErrorReply``, …)."""
    if isinstance(fehler, ZuWenigAntworten):
        return {
            "kind": "TooFewReplies",
            "message": str(fehler),
            "replies": [als_json(a) for a in fehler.antworten],
            "errors": [{"error": fehler_json(f)} for f in fehler.fehler],
        }
    if isinstance(fehler, KeineAntwort):
        return {"kind": "NoReply", "message": str(fehler)}
    if isinstance(fehler, FehlerAntwort):
        return {"kind": "ErrorReply", "message": str(fehler), "body": fehler.body}
    return {"kind": "Error", "message": str(fehler)}


class UebersetzungsFehler(UngueltigeEingabe):
    """Der TypeScript-Code lässt sich nicht übersetzen oder definiert keinen Knoten."""

    def __init__(self, text: str, zeile: int | None) -> None:
        super().__init__(text)
        self.zeile = zeile


def ts_knoten_klasse(code: str, gegenstelle: Gegenstelle) -> type[Knoten]:
    """Der TypeScript-Knoten in ``code`` als ``Knoten``-Klasse (übersetzt einmal je Code und
    Gegenstelle). ``UebersetzungsFehler`` mit deutscher Meldung, wenn er sich nicht übersetzen
    lässt."""
    antwort = gegenstelle.rufe({"op": "compile", "code": code})
    if "compileError" in antwort:
        fehler = antwort["compileError"]
        raise UebersetzungsFehler(str(fehler["message"]), fehler["line"])
    _pruefe(antwort)
    klasse = type(
        str(antwort["className"]),
        (TsKnoten,),
        {
            "_gegenstelle": gegenstelle,
            "_programm": int(antwort["prog"]),
            "_methoden": frozenset(antwort["methods"]),
            "__module__": __name__,
        },
    )
    weakref.finalize(klasse, _vergessen.append, (gegenstelle, "progs", int(antwort["prog"])))
    return klasse


def _pruefe(antwort: Mapping[str, Any]) -> None:
    if "fault" in antwort:
        raise GegenstelleFehler(f"Die TypeScript-Laufzeit scheiterte: {antwort['fault']}")


class TsKnoten(Knoten):
    """Basis der Klassen, die ``ts_knoten_klasse`` macht: ein Stellvertreter des Objekts in
    JavaScript. Ein neues Objekt (nach einem Absturz) ist ein neues Objekt dort; ``speicher``
    kommt von hier, wie bei jedem Knoten."""

    _gegenstelle: ClassVar[Gegenstelle]
    _programm: ClassVar[int]
    _methoden: ClassVar[frozenset[str]]

    def __init__(self) -> None:
        self._objekt: int | None = None
        self._zustand: dict[str, object] = {}
        self._timer: dict[int, Timer] = {}

    def __getattr__(self, name: str) -> Any:
        # ``bei_<typ>`` for each message type the TypeScript class has an ``on<Typ>`` for
        if name.startswith("bei_"):
            methode = handler_name(name[4:])
            if methode in self._methoden:
                return self._handler(methode)
        # anything else: the lookup's own error again (``_netz`` before the start says why)
        return object.__getattribute__(self, name)

    def _handler(self, methode: str) -> Callable[[Nachricht], Any]:
        def handler(nachricht: Nachricht) -> Any:
            return self._schritt(
                {"op": "deliver", "inst": self._objekt, "msg": nachricht.als_dict()}, methode
            )

        handler.__name__ = methode
        return handler

    def beim_start(self) -> Any:
        return self._schritt(
            {
                "op": "start",
                "prog": self._programm,
                "id": self.id,
                "nodeIds": list(self.knoten),
                # pairs: a JSON object would lose the order of integer-like keys
                "store": [[str(k), v] for k, v in self.speicher.items()],
            },
            "onStart",
        )

    def zustand(self) -> Mapping[str, object]:
        if "state" in self._methoden:
            return self._zustand
        return super().zustand()

    # --- one step in JavaScript, then what it did here ----------------------------------------

    def _schritt(self, anfrage: dict[str, Any], name: str) -> CoroutineType[Any, Any, None] | None:
        """Runs one step; a handler that now waits goes on as a coroutine (a ``Prozess``)."""
        warten = self._fuehre_aus(anfrage)
        if warten is None:
            return None
        coro = cast("CoroutineType[Any, Any, None]", self._weiter(warten))
        coro.__name__ = name  # the budget's message names the handler
        return coro

    async def _weiter(self, warten: dict[str, Any]) -> None:
        while True:
            try:
                wert = await self._wartbar(warten["wait"])
                mit: dict[str, Any] = {"value": als_json(wert)}
            except Exception as e:  # what the await threw, thrown at the await in TypeScript
                mit = {"error": fehler_json(e)}
            naechstes = self._fuehre_aus(
                {"op": "resume", "inst": self._objekt, "task": warten["task"], "with": mit}
            )
            if naechstes is None:
                return
            warten = naechstes

    def _wartbar(self, spec: Mapping[str, Any]) -> Wartbar:
        """The very ``Wartbar`` a Python node awaits for the same thing."""
        art = spec["kind"]
        if art == "ask":
            return self.frage(spec["dest"], spec["body"], spec["timeout"])
        if art == "sleep":
            return self.warte(spec["ticks"])
        teile = [self._wartbar(teil) for teil in spec["parts"]]
        if art == "first":
            return self.erste(spec["k"], teile)
        if art == "majority":
            return self.mehrheit(teile)
        return self.eines(*teile)

    def _fuehre_aus(self, anfrage: dict[str, Any]) -> dict[str, Any] | None:
        """Sends one step, does its effects; the wait it ends on, or None when it ended."""
        if anfrage["op"] == "start":
            vergiss_alte(self._gegenstelle)
        anfrage["clock"] = self.uhr()
        anfrage["budget"] = grenze.MAX_SCHRITTE
        antwort = self._gegenstelle.rufe(anfrage)
        _pruefe(antwort)
        if "inst" in antwort:
            self._objekt = antwort["inst"]
            weakref.finalize(self, _vergessen.append, (self._gegenstelle, "insts", antwort["inst"]))
        for wirkung in antwort["effects"]:
            self._wirke(wirkung)
        if "store" in antwort:
            self.speicher.clear()
            self.speicher.update(antwort["store"])
        self.rolle = antwort["role"]
        if "state" in antwort:
            self._zustand = dict(antwort["state"])
        ausgang: dict[str, Any] = antwort["outcome"]
        if "wait" in ausgang:
            return ausgang
        if "error" in ausgang:
            f = ausgang["error"]
            raise _ts_fehler(str(f["name"]), str(f["message"]), f["line"], str(f["code"]))
        if "budget" in ausgang:
            b = ausgang["budget"]
            raise TsEndetNicht(int(b["line"] or 0), str(b["code"]))
        return None

    def _wirke(self, wirkung: list[Any]) -> None:
        art = wirkung[0]
        if art == "send":
            _, ziel, body, wie = wirkung
            self._netz.sende(ziel, body, f"{self.id}.{'send' if wie == 'sende' else 'reply'}")
        elif art == "note":
            self.notiz(wirkung[1])
        elif art == "print":
            print(wirkung[1])
        elif art == "later":
            nummer = int(wirkung[1])
            self._timer[nummer] = self.spaeter(int(wirkung[2]), self._timer_aktion(nummer, True))
        elif art == "every":
            self.alle(int(wirkung[2]), self._timer_aktion(int(wirkung[1]), False))
        elif art == "cancel":
            timer = self._timer.pop(int(wirkung[1]), None)
            if timer is not None:
                timer.absagen()

    def _timer_aktion(self, nummer: int, einmal: bool) -> Callable[[], Any]:
        def aktion() -> Any:
            if einmal:
                self._timer.pop(nummer, None)
            return self._schritt({"op": "timer", "inst": self._objekt, "timer": nummer}, "Timer")

        aktion.__name__ = "later" if einmal else "every"
        return aktion


#: Objects and programs in JavaScript whose stand-ins are gone (a ``TsKnoten``, a class of
#: ``ts_knoten_klasse``): dropped with the next start of a node.
_vergessen: list[tuple[Gegenstelle, str, int]] = []


def vergiss_alte(gegenstelle: Gegenstelle) -> None:
    """Tells ``gegenstelle`` which of its objects and programs no stand-in needs any more."""
    alte = [(art, nummer) for g, art, nummer in _vergessen if g is gegenstelle]
    if alte:
        _vergessen[:] = [eintrag for eintrag in _vergessen if eintrag[0] is not gegenstelle]
        gegenstelle.rufe(
            {
                "op": "drop",
                "insts": [n for art, n in alte if art == "insts"],
                "progs": [n for art, n in alte if art == "progs"],
            }
        )
