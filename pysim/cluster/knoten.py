"""Der Knoten, den die Leserin schreibt: Handler für Nachrichtentypen, wie bei Maelstrom.

Ein Knoten ist eine Klasse, die von ``Knoten`` erbt. Für jeden Nachrichtentyp, den er
versteht, hat sie eine Methode ``bei_<typ>``; ``bei_echo`` bekommt jede Nachricht vom Typ
``echo``. Eine Methode darf ``async`` sein und auf eine Antwort warten (``await self.frage(…)``)
oder auf die Zeit (``await self.warte(…)``), wie ``await fetch(…)`` in JavaScript. Ein Leader
wartet auf die ersten ``k`` von mehreren Antworten (``await self.erste(k, […])``, ``await
self.mehrheit([…])``) oder auf das erste von mehreren Ereignissen (``await self.eines(…)``);
was dahinter steht, ist ``pysim.prozess`` (ein ``Prozess`` auf der simulierten Zeit)::

    class Echo(Knoten):
        def bei_echo(self, nachricht):
            self.antworte(nachricht, {"type": "echo_ok", "echo": nachricht["echo"]})

Was ein Knoten in seinen Attributen hält, verliert er bei einem Absturz: Der Cluster legt
beim Neustart ein neues Objekt der Klasse an. Was in ``self.speicher`` steht (ein dict),
übersteht den Absturz, wie Daten auf einer Platte.

Was ein Knoten gerade ist, sagt er in ``self.rolle`` (``"leader"``): Eine Störung kann auf
eine Rolle zielen. Was er im Bild neben sich zeigt und was eine Invariante des Clusters prüft,
gibt ``zustand()`` (Standard: ``speicher``, kurz und als JSON).

Den Cluster sieht ein Knoten nur durch ``Netzzugang``: senden, fragen mit Timeout, Timer, die
eigene Uhr, Notizen, der eigene Speicher. Andere Knoten, den Verlauf oder das Netz selbst
erreicht er nicht; wer es versucht (``self._cluster``), bekommt eine deutsche Meldung, die
sagt, was ein Knoten benutzen kann.

Vereinfacht gegenüber Maelstrom: Der Knoten ist Python im selben Prozess, keine eigene Binärdatei,
die JSON über STDIN und STDOUT spricht; ``init`` bekommt er nicht als Nachricht, sondern der
Cluster setzt ``id`` und ``knoten`` und ruft ``beim_start``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, Protocol

from ..fehler import SimFehler, UngueltigeEingabe, pruefe_ganzzahl
from ..prozess import Eines, Erste, Fortsetzung, Wartbar
from .nachricht import Nachricht

#: What a node's code may use, for the German message when it reaches for more.
WAS_EIN_KNOTEN_KANN = (
    "self.id, self.knoten, self.sende(…), self.antworte(…), await self.frage(…), "
    "await self.warte(…), await self.erste(…), await self.mehrheit(…), await self.eines(…), "
    "self.spaeter(…), self.alle(…), self.uhr(), self.notiz(…), self.rolle, self.zustand() "
    "und self.speicher"
)


def nur_eigene_api(name: str) -> NoReturn:
    """The German error for a node that reaches past its own API (``self._cluster``)."""
    raise AttributeError(
        f"Ein Knoten sieht den Cluster nur durch seine eigenen Aufrufe; „{name}“ gehört nicht "
        f"dazu. Ein Knoten kann: {WAS_EIN_KNOTEN_KANN}. Andere Knoten erreicht er nur mit "
        "Nachrichten."
    )


#: How much ``Knoten.zustand`` shows by default: entries per list or dict, characters per text.
MAX_EINTRAEGE, MAX_TEXT, _TIEFE = 8, 40, 3


def kurz_json(wert: object, tiefe: int = _TIEFE) -> object:
    """``wert`` as a short JSON value for the panel: texts cut, lists and dicts to their first
    ``MAX_EINTRAEGE`` entries (a last entry says how many more), sets sorted by their text (no
    iteration order of a set), other objects by their type's name."""
    if wert is None or isinstance(wert, (bool, int, float)):
        return wert
    if isinstance(wert, str):
        return wert if len(wert) <= MAX_TEXT else wert[: MAX_TEXT - 1] + "…"
    if tiefe <= 0:
        return "…"
    if isinstance(wert, dict):
        paare = list(wert.items())
        kurz_ = {str(k): kurz_json(v, tiefe - 1) for k, v in paare[:MAX_EINTRAEGE]}
        if len(paare) > MAX_EINTRAEGE:
            kurz_["…"] = f"{len(paare) - MAX_EINTRAEGE} weitere"
        return kurz_
    if isinstance(wert, (set, frozenset)):
        wert = sorted(wert, key=repr)
    if isinstance(wert, (list, tuple)):
        liste = [kurz_json(v, tiefe - 1) for v in wert[:MAX_EINTRAEGE]]
        if len(wert) > MAX_EINTRAEGE:
            liste.append(f"… {len(wert) - MAX_EINTRAEGE} weitere")
        return liste
    return f"<{type(wert).__name__}>"


class Timer(Protocol):
    """Was ``self.spaeter(…)`` zurückgibt: ``timer.absagen()`` streicht den Timer, bevor er
    fällig wird (wie ``clearTimeout``)."""

    def absagen(self) -> None:
        """Streicht den Timer; ein zweites Mal, oder nachdem er lief, ändert es nichts."""
        ...

    def verschiebe(self, ticks: int, aktion: Callable[[], Any]) -> Timer:
        """Wie ``absagen()`` und danach ``spaeter(ticks, aktion)`` (derselbe Lauf, billiger):
        gibt den Timer zurück, der jetzt gilt."""
        ...


class Netzzugang(Protocol):
    """Genau das, was ein Knoten vom Cluster bekommt (der Cluster gibt jedem Knoten bei jedem
    Start ein eigenes solches Objekt): senden, fragen mit Timeout, warten, Timer, die eigene
    Uhr, Notizen und der eigene Speicher, der einen Absturz übersteht."""

    @property
    def speicher(self) -> dict[str, Any]:
        """Der Speicher des Knotens, der einen Absturz übersteht."""
        ...

    def sende(self, ziel: str, body: object, wer: str, frisch: bool = False) -> None:
        """Schickt ``body`` an ``ziel`` (``wer`` nennt den Aufruf in einer Fehlermeldung).
        ``frisch``: Der Absender hat ``body`` eigens für diese Nachricht gebaut und ändert ihn
        nie wieder (Knoten, die pysim mitbringt); dann geht er ohne Kopie hinaus."""
        ...

    def frage(
        self, ziel: str, body: dict[str, Any], timeout: int, fortsetzung: Fortsetzung
    ) -> None:
        """Schickt eine Anfrage; ``fortsetzung`` läuft mit der Antwort oder ``KeineAntwort``
        weiter."""
        ...

    def warte(self, ticks: int, fortsetzung: Fortsetzung) -> None:
        """Setzt ``fortsetzung`` nach ``ticks`` Ticks fort."""
        ...

    def spaeter(self, ticks: int, aktion: Callable[[], Any]) -> Timer:
        """Ruft ``aktion()`` (Code des Knotens) in ``ticks`` Ticks auf; der ``Timer`` sagt ab."""
        ...

    def alle(self, ticks: int, aktion: Callable[[], Any]) -> None:
        """Ruft ``aktion()`` alle ``ticks`` Ticks auf, bis der Knoten abstürzt."""
        ...

    def uhr(self) -> int:
        """Die Uhr des Knotens."""
        ...

    def notiz(self, text: str) -> None:
        """Schreibt ``text`` ins Protokoll des Laufs."""
        ...


class _Zugang:
    """``Knoten._netz``: the node's gate, set by the cluster at every start; a node's code that
    assigns its own value to the name gets a German error (the gate is pysim's)."""

    def __get__(self, instanz: object, besitzer: type | None = None) -> Netzzugang:
        if instanz is None:
            return self  # type: ignore[return-value]
        try:
            zugang: Netzzugang = vars(instanz)["_netz"]
        except KeyError:
            raise AttributeError(
                "Dieser Knoten ist noch nicht gestartet: Senden, Fragen, Timer und die Uhr gibt "
                "es ab beim_start (nicht schon in __init__), in einem Cluster (lauf(…))."
            ) from None
        return zugang

    def __set__(self, instanz: object, wert: object) -> None:
        raise AttributeError(
            "„_netz“ ist der Zugang des Knotens zum Cluster und gehört pysim: Nimm für eigene "
            "Werte einen anderen Namen."
        )


class _NurEigeneApi:
    """A class attribute a node's code might reach for (``self._cluster``): reading it is the
    German error; a node may still set an attribute of that name for its own use."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instanz: object, besitzer: type | None = None) -> Any:
        if instanz is None:
            return self
        nur_eigene_api(self.name)


class KeineAntwort(SimFehler, TimeoutError):
    """``await self.frage(…)``: Bis zum Timeout kam keine Antwort (verloren, getrennt, zu langsam)."""


class FehlerAntwort(SimFehler):
    """``await self.frage(…)``: Die Antwort war ein Fehler (``type: error``); ``body`` ist sie."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body
        self.code = body.get("code")
        super().__init__(f"Fehler {self.code}: {body.get('text', '')}".rstrip(": "))


class ZuWenigAntworten(KeineAntwort):
    """``await self.erste(k, …)`` oder ``await self.mehrheit(…)``: Es können nicht mehr ``k``
    Antworten kommen (zu viele blieben aus oder waren Fehler). ``antworten``: was kam,
    ``fehler``: was ausblieb oder scheiterte (je in der Reihenfolge des Eintreffens)."""

    def __init__(self, text: str, antworten: list[Any], fehler: list[BaseException]) -> None:
        super().__init__(text)
        self.antworten = antworten
        self.fehler = fehler


class _Antwort(Wartbar):
    """``self.frage(…)``: the answer to one request (or ``KeineAntwort`` after the timeout)."""

    def __init__(self, knoten: Knoten, ziel: str, body: dict[str, Any], timeout: int) -> None:
        self.knoten, self.ziel, self.body, self.timeout = knoten, ziel, body, timeout

    def anmelden(self, fortsetzung: Fortsetzung) -> None:
        self.knoten._netz.frage(self.ziel, self.body, self.timeout, fortsetzung)


class _Schlaf(Wartbar):
    """``self.warte(…)``: ``ticks`` ticks of the node (late if it is paused)."""

    def __init__(self, knoten: Knoten, ticks: int) -> None:
        self.knoten, self.ticks = knoten, ticks

    def anmelden(self, fortsetzung: Fortsetzung) -> None:
        self.knoten._netz.warte(self.ticks, fortsetzung)


#: What a handler may await (exactly these; ``Erste`` and ``Eines`` of them too).
WARTBAR = (_Antwort, _Schlaf)


def falsch_gewartet(name: str) -> str:
    """The German message for a handler that awaits something else."""
    return (
        "Ein Handler kann nur auf self.frage(…), self.warte(…), self.erste(…), "
        f"self.mehrheit(…) und self.eines(…) warten (await), nicht auf {name}: asyncio gibt es "
        "im Cluster nicht."
    )


class Knoten:
    """Basisklasse der Knoten. ``id`` (z. B. „n1“) und ``knoten`` (alle Knoten-IDs) setzt der
    Cluster vor ``beim_start``; ``speicher`` übersteht einen Absturz, alles andere nicht."""

    #: Timeout von ``frage`` in Ticks, wenn keiner angegeben ist.
    TIMEOUT = 20

    id: str
    knoten: list[str]
    speicher: dict[str, Any]
    #: The node's one way to the cluster (``Netzzugang``), a new one at every start.
    _netz = _Zugang()

    # What a node's code might reach for: reading it is a German error naming the node's API.
    _cluster = _NurEigeneApi("_cluster")
    cluster = _NurEigeneApi("cluster")
    _plaetze = _NurEigeneApi("_plaetze")

    def beim_start(self) -> Any:
        """Nach dem Start und jedem Neustart (zum Überschreiben; darf ``async`` sein)."""

    #: Was der Knoten gerade ist (``self.rolle = "leader"``), oder ``None``. Eine Störung, die
    #: auf eine Rolle zielt (``absturz:[leader]``), trifft die Knoten, die in ihrem Tick diese
    #: Rolle nennen. Ein Absturz nimmt sie mit (das neue Objekt hat wieder ``None``).
    rolle: str | None = None

    def zustand(self) -> Mapping[str, object]:
        """Was der Knoten im Bild neben sich zeigt und was eine Invariante prüft
        (``Cluster.invariante``): ein kleines dict, Feld → Wert. Standard: ``self.speicher``,
        gekürzt und als JSON-Werte (Texte bis 40 Zeichen, Listen und dicts bis 8 Einträge).
        Zum Überschreiben, z. B. ``return {"term": self.term, "rolle": self.rolle}``."""
        return {str(k): kurz_json(v) for k, v in list(self.speicher.items())[:MAX_EINTRAEGE]}

    # --- what a node can do ----------------------------------------------------------------

    def sende(self, ziel: str, body: dict[str, Any]) -> None:
        """Schickt ``body`` an ``ziel`` und wartet auf nichts (das Netz kann sie verlieren)."""
        self._netz.sende(ziel, body, f"{self.id}.sende")

    def antworte(self, anfrage: Nachricht, body: dict[str, Any]) -> None:
        """Antwortet auf ``anfrage``: ``body`` mit ``in_reply_to`` = ihre ``msg_id``."""
        if not isinstance(anfrage, Nachricht):
            raise UngueltigeEingabe(
                f"antworte(anfrage, body): anfrage ist die Nachricht, auf die {self.id} antwortet, "
                f"nicht {type(anfrage).__name__}."
            )
        body = dict(body) if isinstance(body, dict) else body
        if isinstance(body, dict) and "msg_id" in anfrage.body:
            body["in_reply_to"] = anfrage.body["msg_id"]
        self._netz.sende(anfrage.src, body, f"{self.id}.antworte")

    def frage(self, ziel: str, body: dict[str, Any], timeout: int | None = None) -> Wartbar:
        """``antwort = await self.frage("n2", {...})``: schickt eine Anfrage und wartet auf ihre
        Antwort, höchstens ``timeout`` Ticks (sonst ``KeineAntwort``). Eine Fehlerantwort
        (``type: error``) wirft ``FehlerAntwort``."""
        ticks = self.TIMEOUT if timeout is None else pruefe_ganzzahl(timeout, "Der Timeout", 1)
        return _Antwort(self, ziel, body, ticks)

    def warte(self, ticks: int) -> Wartbar:
        """``await self.warte(5)``: setzt den Handler nach ``ticks`` Ticks fort."""
        return _Schlaf(self, pruefe_ganzzahl(ticks, "Die Wartezeit", 0))

    def erste(self, k: int, fragen: Sequence[Wartbar]) -> Wartbar:
        """``antworten = await self.erste(2, [self.frage(n, body) for n in andere])``: wartet,
        bis ``k`` der ``fragen`` gelungen sind, und gibt ihre Antworten in der Reihenfolge, in
        der sie kamen (die übrigen laufen weiter, ihre Antworten werden ignoriert). Können
        nicht mehr ``k`` gelingen (Timeouts, Fehlerantworten), wirft es ``ZuWenigAntworten``
        (eine ``KeineAntwort``) mit dem, was kam. Die Anfragen gehen in der Reihenfolge der
        Liste hinaus, erst beim ``await``."""
        return Erste(k, fragen, zu_wenige=self._zu_wenige, wer=f"{self.id}.erste(k, […])")

    def mehrheit(self, fragen: Sequence[Wartbar]) -> Wartbar:
        """``antworten = await self.mehrheit([self.frage(n, body) for n in andere])``: wie
        ``erste``, mit so vielen Antworten, dass sie mit dem Knoten selbst eine Mehrheit aller
        Knoten sind (bei 5 Knoten 2 Antworten: der Knoten und zwei andere sind 3 von 5)."""
        return self.erste(len(self.knoten) // 2, fragen)

    def eines(self, *ereignisse: Wartbar) -> Wartbar:
        """``welches, wert = await self.eines(self.frage("n2", body), self.warte(10))``: wartet
        auf das erste der ``ereignisse``, das eintrifft; ``welches`` ist seine Stelle (ab 0),
        ``wert`` sein Wert. Scheitert das erste (``KeineAntwort``, ``FehlerAntwort``), wirft es
        dessen Fehler. Was danach eintrifft, wird ignoriert."""
        return Eines(ereignisse, wer=f"{self.id}.eines(…)")

    def _zu_wenige(
        self, k: int, n: int, antworten: list[Any], fehler: list[BaseException]
    ) -> ZuWenigAntworten:
        return ZuWenigAntworten(
            f"{self.id} brauchte {k} von {n} Antworten, bekam aber nur {len(antworten)} "
            f"({len(fehler)} ohne Antwort oder mit Fehler): Mehr können nicht mehr kommen.",
            antworten,
            fehler,
        )

    def spaeter(self, ticks: int, aktion: Callable[[], Any]) -> Timer:
        """Ruft ``aktion()`` in ``ticks`` Ticks auf (darf ``async`` sein), wie ``setTimeout``.
        Gibt den ``Timer`` zurück: ``timer.absagen()`` streicht ihn (wie ``clearTimeout``)."""
        return self._netz.spaeter(pruefe_ganzzahl(ticks, "Die Wartezeit", 0), aktion)

    def alle(self, ticks: int, aktion: Callable[[], Any]) -> None:
        """Ruft ``aktion()`` alle ``ticks`` Ticks auf, bis der Knoten abstürzt (``setInterval``)."""
        self._netz.alle(pruefe_ganzzahl(ticks, "Der Abstand", 1), aktion)

    def uhr(self) -> int:
        """Die Uhr dieses Knotens (ganze Ticks): mit Versatz und Drift, die eine Störung setzt."""
        return self._netz.uhr()

    def notiz(self, text: object) -> None:
        """Schreibt ``text`` ins Protokoll des Laufs (wie Maelstroms STDERR-Log), mit Tick und
        Knoten. Was der Knoten mit ``print`` ausgibt, landet ebenfalls dort."""
        self._netz.notiz(str(text))
