"""Ein replizierter Speicher auf der simulierten Zeit: Leader und Follower oder ein Quorum.

Leader-Modus: Ein Leader nimmt jedes Schreiben an, hängt es als Eintrag mit der nächsten LSN
(Log Sequence Number) an sein Log und schickt es jedem Follower. Eine Nachricht braucht so
viele Ticks, wie ``lag`` für ihre Enden sagt (das größere der beiden). Mit ``sync=0`` bestätigt
der Leader sofort (asynchron); mit ``sync=k`` erst, wenn k Follower den Eintrag bestätigt haben
(synchron, wie PostgreSQLs ``ANY k``). Ein Follower liest nur, was schon bei ihm angekommen ist.

Failover: ``failover()`` befördert einen Follower. Er beginnt eine neue Epoche und schickt jedem
anderen Replikat sein Log; wer mehr hat, verwirft es. Was der neue Leader nicht hatte, ist weg,
auch wenn der alte Leader es schon bestätigt hatte. Ein abgetrennter alter Leader hält sich
weiter für den Leader, bis ihn die Nachricht erreicht (Split Brain). Ein Failover ist eine
Störung des Clusters wie ein Absturz (``failover`` in ``pysim.cluster.stoerungen``): ``plane``
plant ihn mit Abstürzen und Neustarts auf die Uhr, auch für die Rolle ``[Leader]``
(``"30:absturz:[Leader];32:failover:[Leader]"``); der Cluster fragt den Speicher, wen er befördert
(``Cluster.bei_failover``).

Quorum-Modus (``quorum(n, w, r)``): kein Leader. Der Koordinator des Clients schickt ein
Schreiben mit einer neuen Version an alle n Replikate und bestätigt nach w Antworten; ein Lesen
fragt alle und nimmt nach r Antworten den Wert mit der höchsten Version.

Jede Operation eines Clients kommt in einen Verlauf im Format von ``pysim.pruefer``; ``urteil()``
prüft ihn auf Linearisierbarkeit. Eine Operation ohne Warten (asynchrones Schreiben, Lesen eines
Replikats) dauert null Ticks; danach vergeht ein Tick, damit die nächste Operation später beginnt
und nicht gleichzeitig zählt. Wer warten muss, wartet höchstens ``timeout`` Ticks: Ein
Schreiben ist danach unbestimmt (``info``), ein Lesen gescheitert (``fail``).

Der Speicher ist eine Front auf einem ``pysim.cluster.Cluster`` (wie ``RaftSim`` und
``CrdtSim``): Die Replikate sind ``ReplikKnoten`` (``pysim.replikation.knoten``; Rolle, Epoche
und Log in ihrem ``speicher``), der Koordinator des Quorum-Modus ist ein ``KoordinatorKnoten``,
der auf die ersten w (oder r) Antworten wartet (``await self.erste(k, …)``). Netz, Partitionen
und Abstürze sind die des Clusters; jede Leitung bekommt ihre Laufzeit aus ``lag``, in der
Reihenfolge des Sendens (``netz_leitung``), und was der Empfänger verwirft, meldet der Cluster
der Front (``bei_verworfen``), die es mit seinem Grund als Ereignis zeigt. Ein Wechsel in den
Quorum-Modus mit anderem n baut einen neuen Cluster auf derselben ``Zeit``.

Vereinfachungen: Clients erreichen im Leader-Modus jedes Replikat, das läuft, auch ein abgetrenntes
(``trenne`` trennt ein Replikat von den anderen Replikaten); im Quorum-Modus steht der Koordinator
im Netz und erreicht ein abgetrenntes Replikat nicht. Eine Nachricht geht nie verloren, außer ihr
Empfänger ist ausgefallen oder abgetrennt, wenn sie ankommt. Ein Replikat, das wieder läuft oder
wieder verbunden ist, bekommt vom Leader sofort sein ganzes Log.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cluster import Cluster
from ..cluster.cluster import Sendung
from ..cluster.stoerungen import Stoerung, plan_aus_text
from ..fehler import (
    SimFehler,
    UnbekannterKnoten,
    UngueltigeEingabe,
    aufzaehlung,
    nachschlagen,
    pruefe_ganzzahl,
    pruefe_name,
)
from ..pruefer import linearisierbar
from ..zeit import AufDerZeit, Zeit
from . import knoten as _k
from .knoten import (
    ARTEN,
    KOORDINATOR_ID,
    Eintrag,
    KoordinatorKnoten,
    ReplikKnoten,
    bestaetigt_von,
)
from .regeln import (
    BESTAETIGE,
    FOLLOWER,
    GLEICHRANGIG,
    KOORDINATOR,
    LEADER,
    LEADER_MODUS,
    LIES,
    LIES_OK,
    QUORUM,
    QUORUM_MODUS,
    REPLIZIERE,
    SCHREIBE,
    UEBERNAHME,
    uebergang,
)

if TYPE_CHECKING:
    from ..pruefer import Urteil
    from ..svg import Bild

__all__ = [
    "MAX_LAG",
    "MAX_REPLIKEN",
    "SCHRITT",
    "TIMEOUT",
    "Antwort",
    "Eintrag",
    "Ereignis",
    "Failover",
    "FalscherModus",
    "Nachricht",
    "Replik",
    "ReplikSpeicher",
    "pruefe_wert",
]

#: The faults ``ReplikSpeicher.plane`` schedules.
_GEPLANT = ("failover", "absturz", "neustart")
#: So viele Repliken hat ein Speicher höchstens.
MAX_REPLIKEN = 7
#: So viele Ticks braucht eine Nachricht höchstens.
MAX_LAG = 50
#: So lange wartet ein Client höchstens auf eine Antwort (Ticks).
TIMEOUT = 10
#: Nach jeder Operation eines Clients vergeht so viel Zeit.
SCHRITT = 1

assert KOORDINATOR == KOORDINATOR_ID  # the coordinator's node is named as the lesson shows it


class FalscherModus(SimFehler):
    """Ein Befehl, den der Speicher in seinem Modus nicht kennt (Failover im Quorum-Modus, …)."""


@dataclass(frozen=True)
class Nachricht:
    """Eine Nachricht im Netz: von, nach, Art, Inhalt, abgeschickt und Ankunft (Ticks)."""

    nummer: int
    art: str
    von: str
    nach: str
    abgeschickt: int
    ankunft: int
    eintrag: Eintrag | None = None
    epoche: int = 0
    log: tuple[Eintrag, ...] = ()
    lsn: int = 0
    key: str = ""
    value: Any = None
    version: int = 0
    operation: int = 0

    def kurz(self) -> str:
        """Was sie trägt, in wenigen Zeichen (für Bild und Text)."""
        if self.art == REPLIZIERE and self.eintrag is not None:
            return f"{self.eintrag.key}={self.eintrag.value!r}"
        if self.art == BESTAETIGE:
            return f"LSN {self.lsn}"
        if self.art == UEBERNAHME:
            return f"Log bis {len(self.log)}"
        if self.art == SCHREIBE:
            return f"{self.key}={self.value!r} v{self.version}"
        if self.art == LIES:
            return self.key
        if self.art == LIES_OK:
            return f"{self.value!r} v{self.version}"
        return "ok"


#: The fields of the front's ``Nachricht`` a message's body may carry.
_FELDER = ("eintrag", "epoche", "log", "lsn", "key", "value", "version")


@dataclass(frozen=True)
class Antwort:
    """Wie eine Operation eines Clients ausging.

    ``typ``: ``ok``, ``fail`` oder ``info`` wie im Verlauf. ``wert``: beim Lesen der gelesene
    Wert. ``lsn``: beim Schreiben die LSN (Quorum: die Version) des Eintrags, beim Lesen der
    Stand des gelesenen Replikats (Quorum: die Version des Werts). ``grund``: warum nicht ``ok``.
    """

    f: str
    typ: str
    key: str
    wert: Any
    replik: str
    lsn: int
    beginn: int
    ende: int
    grund: str = ""

    @property
    def ok(self) -> bool:
        return self.typ == "ok"


@dataclass(frozen=True)
class Failover:
    """Was ein Failover tat: alter und neuer Leader, neue Epoche, verlorene Einträge.

    ``verloren``: jeder Eintrag, den ein Replikat hatte, der neue Leader aber nicht, nach LSN;
    ``bestaetigt_verloren``: die davon, die ein Client schon als geschrieben bestätigt bekam.
    """

    alt: str
    neu: str
    epoche: int
    verloren: tuple[Eintrag, ...]
    bestaetigt_verloren: tuple[Eintrag, ...]


@dataclass(frozen=True)
class Ereignis:
    """Etwas, das im Speicher geschah, mit seiner Zeit und einem deutschen Satz."""

    zeit: int
    text: str

    def __str__(self) -> str:
        return f"t={self.zeit}: {self.text}"


def _feld(name: str) -> Any:
    """A read-only attribute of ``Replik``: the field ``name`` of its node's ``speicher``."""
    return property(lambda replik: replik._speicher[name])


class Replik:
    """Ein Replikat mit seiner Rolle, seiner Epoche und was es hält: gelesen aus dem Speicher
    seines Knotens (``ReplikKnoten``), der einen Absturz übersteht."""

    def __init__(self, name: str, speicher: dict[str, Any], laeuft: Callable[[], bool]) -> None:
        self.name = name
        self._speicher = speicher
        self._laeuft = laeuft

    #: Die Rolle (``Leader``, ``Follower``, ``gleichrangig``) und die Epoche.
    rolle: str = _feld("rolle")
    epoche: int = _feld("epoche")
    #: Das Log: jeder Eintrag in der Reihenfolge seiner LSN.
    log: list[Eintrag] = _feld("log")
    #: Im Quorum-Modus: Schlüssel -> (Wert, Version).
    daten: dict[str, tuple[Any, int]] = _feld("daten")
    #: Was jeder Follower bestätigt hat (LSN), solange diese Replik in dieser Epoche leitet.
    bestaetigt: dict[str, int] = _feld("bestaetigt")

    @property
    def ausgefallen(self) -> bool:
        return not self._laeuft()

    @property
    def stand(self) -> int:
        """Die LSN des letzten Eintrags, den sie hat (0: noch keiner)."""
        return _k.stand(self._speicher)

    def wert(self, key: str) -> tuple[Any, int]:
        """Was sie für ``key`` hält: (Wert, LSN oder Version); ``(None, 0)``: nichts."""
        return _k.wert(self._speicher, key)

    def inhalt(self) -> dict[str, Any]:
        """Jeder Schlüssel mit seinem Wert, nach Schlüsseln sortiert."""
        return _k.inhalt(self._speicher)


def pruefe_wert(wert: object) -> int | str:
    """Ein Wert zum Schreiben: eine ganze Zahl oder ein nicht leerer Text."""
    if isinstance(wert, bool) or not isinstance(wert, int | str) or wert == "":
        raise UngueltigeEingabe(
            f"Ein Wert ist eine ganze Zahl oder ein nicht leerer Text, nicht {wert!r}."
        )
    return wert


class _Aufsicht:
    """What the replicas of one cluster report (``ReplikKnoten.AUFSICHT``): the front's events.
    Switched off when the front builds a new cluster (``quorum`` with another n)."""

    def __init__(self, zeit: Zeit, ereignisse: list[Ereignis]) -> None:
        self.zeit, self.ereignisse, self.aktiv = zeit, ereignisse, True

    def ereignis(self, text: str) -> None:
        if self.aktiv:
            self.ereignisse.append(Ereignis(self.zeit.now, text))


class ReplikSpeicher(AufDerZeit):
    """Ein replizierter Schlüssel-Wert-Speicher: ``ReplikSpeicher(repliken=3, verzoegerung=2)``.

    Die Replikate heißen ``n1`` bis ``nN``; ``n1`` ist anfangs der Leader. ``sync``: auf so viele
    Follower wartet ein Schreiben (0: asynchron). ``zeit``: eine geteilte ``Zeit``.
    ``cluster``: der ``pysim.cluster.Cluster``, auf dem die Replikate als Knoten laufen.
    """

    cluster: Cluster
    _aufsicht: _Aufsicht
    #: What the last failover did (``failover`` returns it).
    _letzter_failover: Failover

    def __init__(
        self,
        repliken: int = 3,
        verzoegerung: int = 2,
        *,
        sync: int = 0,
        timeout: int = TIMEOUT,
        zeit: Zeit | None = None,
    ) -> None:
        pruefe_ganzzahl(repliken, "repliken", 1)
        if repliken > MAX_REPLIKEN:
            raise UngueltigeEingabe(f"repliken ist höchstens {MAX_REPLIKEN}, nicht {repliken}.")
        pruefe_ganzzahl(verzoegerung, "verzoegerung", 0)
        if verzoegerung > MAX_LAG:
            raise UngueltigeEingabe(f"verzoegerung ist höchstens {MAX_LAG}, nicht {verzoegerung}.")
        self.zeit = zeit if zeit is not None else Zeit()
        self.timeout = pruefe_ganzzahl(timeout, "timeout", 1)
        self.modus = LEADER_MODUS
        self.verzoegerung = verzoegerung
        self._verlauf: list[dict[str, Any]] = []
        self._ereignisse: list[Ereignis] = []
        self._bestaetigte: set[tuple[int, int]] = set()
        self._version = 0
        self._operation = 0
        self.verworfen = 0
        self._nummer_basis = 0  # messages sent on the clusters before this one
        self._getrennt: set[str] = set()
        self._baue(repliken)
        self.leader: str | None = "n1"
        self.sync = 0
        self.setze_sync(sync)
        self.w = 1
        self.r = 1

    def _baue(self, anzahl: int) -> None:
        """A cluster of ``anzahl`` replicas and the coordinator on this store's clock."""
        if hasattr(self, "cluster"):  # a new n on the same clock: the old cluster falls silent
            self.cluster.bei_verworfen = None
            self.cluster.bei_failover = None
            self._aufsicht.aktiv = False
            self._nummer_basis += len(self.cluster.sendungen)
        aufsicht = self._aufsicht = _Aufsicht(self.zeit, self._ereignisse)

        class SimKnoten(ReplikKnoten):
            AUFSICHT = aufsicht

        SimKnoten.__qualname__ = SimKnoten.__name__ = "ReplikKnoten"
        self._letzte_ankunft: dict[tuple[str, str], int] = {}
        #: Der Cluster, auf dem die Replikate und der Koordinator laufen.
        self.cluster = Cluster(
            SimKnoten,
            anzahl,
            zeit=self.zeit,
            netz_leitung=self._leitung,
            weitere={KOORDINATOR: KoordinatorKnoten},
            max_ereignisse=2**62,
            code_der_leserin=False,
        )
        self.cluster.bei_verworfen = self._verworfen
        self.cluster.bei_failover = self._befoerdere
        self._erste_offene = 0
        namen = self.cluster.ids[:anzahl]
        self._speicher: dict[str, dict[str, Any]] = {}
        for name in namen:
            objekt = self.cluster.objekt(name)
            assert objekt is not None
            self._speicher[name] = objekt.speicher
        self._repliken = {
            name: Replik(name, self._speicher[name], self._laeuft(name)) for name in namen
        }
        self.lag: dict[str, int] = dict.fromkeys(namen, self.verzoegerung)

    def _laeuft(self, name: str) -> Callable[[], bool]:
        cluster = self.cluster
        return lambda: cluster.laeuft(name)

    def _knoten(self, name: str) -> ReplikKnoten:
        """The running node of replica ``name`` (callers checked it runs)."""
        objekt = self.cluster.objekt(name)
        assert isinstance(objekt, ReplikKnoten)
        return objekt

    def _koordinator(self) -> KoordinatorKnoten:
        objekt = self.cluster.objekt(KOORDINATOR)
        assert isinstance(objekt, KoordinatorKnoten)
        return objekt

    # --- lesen, was ist ---

    @property
    def namen(self) -> list[str]:
        """Die Namen der Replikate: ``["n1", "n2", "n3"]``."""
        return list(self._repliken)

    @property
    def n(self) -> int:
        """Die Anzahl der Replikate."""
        return len(self._repliken)

    def replik(self, name: str) -> Replik:
        """Das Replikat ``name``; ``UnbekannterKnoten`` mit den vorhandenen Namen."""
        return nachschlagen(self._repliken, name, UnbekannterKnoten, "Das Replikat", "Replikate")

    def rolle(self, name: str) -> str:
        return self.replik(name).rolle

    def stand(self, name: str) -> int:
        """Die LSN des letzten Eintrags des Replikats ``name`` (Leader-Modus)."""
        return self.replik(name).stand

    def inhalt(self, name: str) -> dict[str, Any]:
        """Was das Replikat ``name`` hält: Schlüssel -> Wert."""
        return self.replik(name).inhalt()

    def ausgefallen(self, name: str) -> bool:
        return self.replik(name).ausgefallen

    def getrennt(self, name: str) -> bool:
        self.replik(name)
        return name in self._getrennt

    def unterwegs(self) -> list[Nachricht]:
        """Die Nachrichten, die noch nicht angekommen sind, nach Ankunft."""
        sendungen = self.cluster.sendungen
        i = self._erste_offene
        while i < len(sendungen) and sendungen[i].schicksal:
            i += 1
        self._erste_offene = i  # every message before it has arrived (or was dropped)
        offen = [self._nachricht(s) for s in sendungen[i:] if not s.schicksal]
        return sorted(offen, key=lambda m: (m.ankunft, m.nummer))

    def _nachricht(self, sendung: Sendung) -> Nachricht:
        """A message of the cluster as the picture and the console show it."""
        n = sendung.nachricht
        body = n.body
        felder = {k: body[k] for k in _FELDER if k in body}
        operation = body.get("msg_id", body.get("in_reply_to", 0))
        assert sendung.ankunft is not None
        return Nachricht(
            self._nummer_basis + sendung.nummer + 1,
            ARTEN[n.typ],
            n.src,
            n.dest,
            sendung.gesendet,
            sendung.ankunft,
            operation=operation,
            **felder,
        )

    def verlauf(self) -> list[dict[str, Any]]:
        """Der Verlauf der Operationen der Clients (Format von ``pysim.pruefer``), eine Kopie."""
        return [dict(e) for e in self._verlauf]

    def ereignisse(self) -> list[Ereignis]:
        """Was im Speicher geschah (Ankünfte, Übernahmen, Verluste), in der Reihenfolge."""
        return list(self._ereignisse)

    def urteil(self) -> Urteil:
        """Ist der Verlauf linearisierbar? (``pysim.pruefer.linearisierbar``)"""
        return linearisierbar(self._verlauf)

    def bild(self) -> Bild:
        """Die Replikate, was jedes hält, die Nachrichten unterwegs und das Urteil."""
        from .bild import zeichne

        return zeichne(self)

    def epoche(self) -> int:
        """Die Epoche des Leaders, an den Clients schreiben."""
        return self._repliken[self.leader].epoche if self.leader else 0

    # --- Einstellungen ---

    def setze_sync(self, anzahl: int) -> None:
        """Auf so viele Follower wartet ein Schreiben (0: asynchron)."""
        self._nur(LEADER_MODUS, "sync")
        pruefe_ganzzahl(anzahl, "sync", 0)
        if anzahl > self.n - 1:
            raise UngueltigeEingabe(
                f"sync ist höchstens {self.n - 1}: So viele Follower gibt es, nicht {anzahl}."
            )
        self.sync = anzahl

    def setze_lag(self, name: str, ticks: int) -> None:
        """Nachrichten von und zu ``name`` brauchen ``ticks`` Ticks (ab der nächsten)."""
        self.replik(name)
        pruefe_ganzzahl(ticks, "Der Lag", 0)
        if ticks > MAX_LAG:
            raise UngueltigeEingabe(f"Der Lag ist höchstens {MAX_LAG} Ticks, nicht {ticks}.")
        self.lag[name] = ticks

    def quorum(self, n: int, w: int, r: int) -> None:
        """Wechselt in den Quorum-Modus mit ``n`` Replikaten (oder ändert ``w`` und ``r``)."""
        pruefe_ganzzahl(n, "n", 1)
        pruefe_ganzzahl(w, "w", 1)
        pruefe_ganzzahl(r, "r", 1)
        if n > MAX_REPLIKEN:
            raise UngueltigeEingabe(f"n ist höchstens {MAX_REPLIKEN}, nicht {n}.")
        for name, wert in (("w", w), ("r", r)):
            if wert > n:
                raise UngueltigeEingabe(
                    f"{name} ist höchstens n={n}: Mehr Replikate kann niemand fragen, nicht {wert}."
                )
        geschrieben = any(e["f"] == "write" for e in self._verlauf)
        if geschrieben and (self.modus != QUORUM_MODUS or n != self.n):
            raise FalscherModus(
                "Den Modus und n stellst du vor dem ersten Schreiben ein; danach ändern sich "
                f"nur w und r (hier n={self.n})."
            )
        if n != self.n:
            self._getrennt = set()
            self._baue(n)
        for speicher in self._speicher.values():
            speicher["rolle"] = uebergang(speicher["rolle"], QUORUM) or speicher["rolle"]
        self.modus = QUORUM_MODUS
        self.leader = None
        self.sync = 0
        self.w, self.r = w, r

    def _nur(self, modus: str, was: str) -> None:
        if self.modus != modus:
            if modus == LEADER_MODUS:
                raise FalscherModus(
                    f"Im Quorum-Modus gibt es keinen Leader; „{was}“ gilt nur mit Leader."
                )
            raise FalscherModus(f"„{was}“ gilt nur im Quorum-Modus (`quorum <n> <w> <r>`).")

    # --- Störungen ---

    def trenne(self, name: str) -> None:
        """Trennt ``name`` vom Netz der Replikate (eine Netzpartition); Nachrichten gehen verloren."""
        if self.getrennt(name):
            raise UngueltigeEingabe(f"{name} ist schon abgetrennt.")
        self._getrennt.add(name)
        self._teile()
        self._ereignis(f"{name} ist von den anderen Replikaten abgetrennt.")

    def _teile(self) -> None:
        """The cluster's partition: each cut-off replica alone, everyone else together."""
        if self._getrennt:
            self.cluster.trenne([k for k in self.cluster.ids if k not in self._getrennt])
        else:
            self.cluster.heile()

    def heile(self, name: str) -> None:
        """Verbindet ``name`` wieder; der Leader schickt ihr (oder sie allen) sein Log."""
        if not self.getrennt(name):
            raise UngueltigeEingabe(f"{name} ist nicht abgetrennt.")
        self._getrennt.discard(name)
        self._teile()
        self._ereignis(f"{name} ist wieder verbunden.")
        self._nachholen(name)

    def absturz(self, name: str) -> None:
        """``name`` fällt aus: Sie antwortet nicht mehr; ihre Daten behält sie."""
        replik = self.replik(name)
        if replik.ausgefallen:
            raise UngueltigeEingabe(f"{name} ist schon ausgefallen.")
        self.cluster.absturz(name)
        self._ereignis(f"{name} fällt aus.")

    def neustart(self, name: str) -> None:
        """``name`` läuft wieder, mit den Daten von vorher; der Leader schickt ihr sein Log."""
        replik = self.replik(name)
        if not replik.ausgefallen:
            raise UngueltigeEingabe(f"{name} läuft schon.")
        self.cluster.neustart(name)
        self._ereignis(f"{name} läuft wieder.")
        self._nachholen(name)

    def _nachholen(self, name: str) -> None:
        if self.modus != LEADER_MODUS or self.leader is None:
            return
        leader = self._repliken[self.leader]
        if leader.ausgefallen:
            return
        ziele = [n for n in self.namen if n != leader.name] if name == leader.name else [name]
        self._knoten(leader.name).sende_log(ziele)

    def failover(self, neu: str | None = None) -> Failover:
        """Befördert ``neu`` (ohne: den Follower, der läuft und am weitesten ist) zum Leader.

        Der Failover ist die Störung ``failover`` des Clusters (``pysim.cluster.stoerungen``),
        jetzt angewandt; ``plane`` plant sie für später, auch für die Rolle ``[Leader]``."""
        self._nur(LEADER_MODUS, "failover")
        alt = self.leader
        assert alt is not None
        gewaehlt = self._nachfolger(alt, neu)
        Stoerung(self.now, "failover", alt, nach=gewaehlt).anwenden(self.cluster)
        return self._letzter_failover

    def _nachfolger(self, alt: str, neu: str | None) -> str:
        """Who a failover away from ``alt`` promotes: ``neu``, checked, or the running follower
        that is furthest ahead (the first of them by name)."""
        kandidaten = [
            r for r in self._repliken.values() if r.rolle == FOLLOWER and not r.ausgefallen
        ]
        if neu is None:
            if not kandidaten:
                raise UngueltigeEingabe(
                    "Kein Follower läuft: Niemand kann Leader werden. Starte einen neu "
                    "(`neustart <replikat>`)."
                )
            return max(kandidaten, key=lambda r: (r.stand, -self.namen.index(r.name))).name
        gewaehlt = self.replik(neu)
        if gewaehlt.name == alt:
            raise UngueltigeEingabe(f"{alt} ist schon der Leader.")
        if gewaehlt.ausgefallen:
            raise UngueltigeEingabe(
                f"{gewaehlt.name} ist ausgefallen und kann nicht Leader werden. "
                f"Es laufen: {aufzaehlung(r.name for r in kandidaten)}."
            )
        if gewaehlt.rolle != FOLLOWER:
            raise UngueltigeEingabe(
                f"{gewaehlt.name} ist kein Follower (sondern {gewaehlt.rolle})."
            )
        return gewaehlt.name

    def _befoerdere(self, alt: str, nach: str) -> str:
        """``Cluster.bei_failover``: the failover fault on this store. ``alt`` must be the
        leader clients write to; ``nach`` ("": chosen as ``failover()`` chooses) becomes leader
        of a new epoch and sends its log to every other replica."""
        self._nur(LEADER_MODUS, "failover")
        if alt != self.leader:
            raise UngueltigeEingabe(
                f"Ein Failover löst den Leader ab: Das ist {self.leader}, nicht {alt}."
            )
        gewaehlt = self._repliken[self._nachfolger(alt, nach or None)]
        epoche = max(r.epoche for r in self._repliken.values()) + 1
        behalten = {(e.epoche, e.lsn) for e in gewaehlt.log}
        verloren: dict[tuple[int, int], Eintrag] = {}
        for r in self._repliken.values():
            for e in r.log:
                if (e.epoche, e.lsn) not in behalten:
                    verloren.setdefault((e.epoche, e.lsn), e)
        liste = tuple(verloren[k] for k in sorted(verloren, key=lambda k: (k[1], k[0])))
        bestaetigt = tuple(e for e in liste if (e.epoche, e.lsn) in self._bestaetigte)
        self.leader = gewaehlt.name
        text = f"Failover: {gewaehlt.name} ist Leader (Epoche {epoche}) mit Log bis LSN {gewaehlt.stand}."
        self._ereignis(text)
        # the failover as the cluster sees it: the chosen node promotes itself and sends its log
        self._knoten(gewaehlt.name).befoerdere(epoche)
        self._letzter_failover = Failover(alt, gewaehlt.name, epoche, liste, bestaetigt)
        return gewaehlt.name

    def plane(self, plan: str | Iterable[Stoerung]) -> None:
        """Plant Störungen auf der Uhr des Speichers: ``"40:failover:[Leader]"`` (ein Failover
        weg von dem, der dann Leader ist), ``"30:absturz:[Leader];32:failover:[Leader];60:neustart:[Leader]"``
        (der Leader fällt aus, ein Follower übernimmt, der alte kommt zurück) oder eine Liste
        von ``Stoerung``. Jede geschieht zu ihrem Tick vor allem anderen dort, wie im Störplan
        eines Clusters. Geplant werden ``failover``, ``absturz`` und ``neustart``; ein Absturz
        oder Neustart, der nichts ändern kann (schon ausgefallen, läuft schon), bleibt aus."""
        self._nur(LEADER_MODUS, "plane")
        stoerungen = plan_aus_text(plan, self.namen) if isinstance(plan, str) else list(plan)
        for stoerung in stoerungen:
            if not isinstance(stoerung, Stoerung) or stoerung.art not in _GEPLANT:
                was = stoerung.als_text() if isinstance(stoerung, Stoerung) else repr(stoerung)
                raise UngueltigeEingabe(
                    f"Geplant werden hier {aufzaehlung(_GEPLANT)}, nicht „{was}“: Netz und Lag "
                    "ändern trenne, heile und setze_lag."
                )
            if stoerung.zeit < self.now:
                raise UngueltigeEingabe(
                    f"Die Störung „{stoerung.als_text()}“ läge vor jetzt (t={self.now})."
                )
        for stoerung in stoerungen:
            self.zeit.schedule_zuerst(stoerung.zeit - self.now, self._stoere, stoerung)

    def _stoere(self, stoerung: Stoerung) -> None:
        """A planned fault at its tick: a failover through the cluster (and back through
        ``_befoerdere``), a crash or restart through this store's own methods (its events, the
        log a restarted replica gets)."""
        if self.modus != LEADER_MODUS or self.cluster.bei_failover is None:
            return  # planned before the store changed to quorum mode
        if stoerung.art == "failover":
            stoerung.anwenden(self.cluster)
            return
        rolle = stoerung.rolle
        if not rolle:
            knoten = [stoerung.knoten]
        elif stoerung.art == "absturz":
            knoten = self.cluster.getroffen[rolle] = self.cluster.rollen(rolle)
        else:
            knoten = self.cluster.getroffen.get(rolle, [])
        for name in knoten:
            if self.replik(name).ausgefallen == (stoerung.art == "absturz"):
                self._ereignis(f"Die Störung „{stoerung.als_text()}“ bleibt aus ({name}).")
            elif stoerung.art == "absturz":
                self.absturz(name)
            else:
                self.neustart(name)
        if not knoten:
            self._ereignis(f"Die Störung „{stoerung.als_text()}“ bleibt aus: Keiner ist {rolle}.")

    # --- Operationen der Clients ---

    def write(
        self, key: str, value: Any, *, prozess: Hashable = "client", an: str | None = None
    ) -> Antwort:
        """Schreibt ``key=value``: an den Leader (oder ``an``), im Quorum-Modus an alle."""
        pruefe_name(key, "Ein Schlüssel")
        pruefe_wert(value)
        if an is not None:
            self._nur(LEADER_MODUS, "write … to")
            self.replik(an)
        beginn = self.now
        ziel = KOORDINATOR if self.modus == QUORUM_MODUS else (an or self.leader)
        assert ziel is not None
        self._protokoll(prozess, "invoke", "write", key, value, beginn, ziel)
        if self.modus == QUORUM_MODUS:
            antwort = self._schreibe_quorum(key, value, beginn)
        else:
            antwort = self._schreibe_leader(key, value, ziel, beginn)
        self._protokoll(prozess, antwort.typ, "write", key, value, self.now, ziel)
        self.tick(SCHRITT)
        return antwort

    def read(self, key: str, *, von: str | None = None, prozess: Hashable = "client") -> Antwort:
        """Liest ``key`` vom Replikat ``von`` (ohne: vom Leader; im Quorum-Modus: von r)."""
        pruefe_name(key, "Ein Schlüssel")
        if von is not None:
            self.replik(von)
        beginn = self.now
        ziel = von or self.leader or KOORDINATOR
        self._protokoll(prozess, "invoke", "read", key, None, beginn, ziel)
        if ziel == KOORDINATOR:
            antwort = self._lies_quorum(key, beginn)
        else:
            antwort = self._lies_direkt(key, ziel, beginn)
        wert = antwort.wert if antwort.ok else None
        self._protokoll(prozess, antwort.typ, "read", key, wert, self.now, ziel)
        self.tick(SCHRITT)
        return antwort

    def _lies_direkt(self, key: str, name: str, beginn: int) -> Antwort:
        replik = self._repliken[name]
        if replik.ausgefallen:
            return Antwort(
                "read", "fail", key, None, name, 0, beginn, beginn, f"{name} ist ausgefallen."
            )
        wert, version = replik.wert(key)
        stand = version if replik.rolle == GLEICHRANGIG else replik.stand
        return Antwort("read", "ok", key, wert, name, stand, beginn, beginn)

    def _schreibe_leader(self, key: str, value: Any, name: str, beginn: int) -> Antwort:
        replik = self._repliken[name]
        if replik.ausgefallen:
            return self._nicht("write", key, value, name, beginn, f"{name} ist ausgefallen.")
        if replik.rolle != LEADER:
            return self._nicht(
                "write",
                key,
                value,
                name,
                beginn,
                f"{name} ist Follower und nimmt nur Lesen an (wie ein Hot Standby).",
            )
        knoten = self._knoten(name)
        eintrag = knoten.schreibe(key, value)
        if self.sync:
            speicher = self._speicher[name]
            fertig = self._warte(lambda: bestaetigt_von(speicher, eintrag) >= self.sync)
            if not fertig:
                return Antwort(
                    "write",
                    "info",
                    key,
                    value,
                    name,
                    eintrag.lsn,
                    beginn,
                    self.now,
                    f"Nach {self.timeout} Ticks hat kein {self.sync}. Follower bestätigt; "
                    "der Eintrag steht aber im Log des Leaders.",
                )
        self._bestaetigte.add((eintrag.epoche, eintrag.lsn))
        self._speicher[name]["quittiert"].append((eintrag.epoche, eintrag.lsn))
        return Antwort("write", "ok", key, value, name, eintrag.lsn, beginn, self.now)

    def _frage_quorum(self, methode: str, *argumente: Any) -> list[Any] | None:
        """Gives the coordinator operation ``methode`` and waits for its answers, at most
        ``timeout`` ticks (``None``: too few came). The coordinator waits a tick longer: the
        client gives up first, as it did before the coordinator was a node."""
        self._operation += 1
        nummer = self._operation
        koordinator = self._koordinator()
        ergebnisse = koordinator.ergebnisse
        self.cluster.rufe(
            KOORDINATOR, getattr(koordinator, methode), nummer, *argumente, self.timeout + 1
        )
        if not self._warte(lambda: nummer in ergebnisse):
            return None
        typ, antworten = ergebnisse.pop(nummer)
        return antworten if typ == "ok" else None

    def _schreibe_quorum(self, key: str, value: Any, beginn: int) -> Antwort:
        self._version += 1
        version = self._version
        antworten = self._frage_quorum("schreibe", key, value, version, self.w)
        if antworten is None:
            return Antwort(
                "write",
                "info",
                key,
                value,
                KOORDINATOR,
                version,
                beginn,
                self.now,
                f"Nach {self.timeout} Ticks fehlen Bestätigungen (w={self.w}); "
                "manche Replikate haben den Wert vielleicht schon.",
            )
        return Antwort("write", "ok", key, value, KOORDINATOR, version, beginn, self.now)

    def _lies_quorum(self, key: str, beginn: int) -> Antwort:
        antworten = self._frage_quorum("lies", key, self.r)
        if antworten is None:
            return Antwort(
                "read",
                "fail",
                key,
                None,
                KOORDINATOR,
                0,
                beginn,
                self.now,
                f"Nach {self.timeout} Ticks fehlen Antworten (r={self.r}).",
            )
        # the highest version; among equal ones the first to arrive
        beste = max(antworten, key=lambda m: m["version"])
        return Antwort(
            "read", "ok", key, beste["value"], KOORDINATOR, beste["version"], beginn, self.now
        )

    def _nicht(self, f: str, key: str, value: Any, name: str, beginn: int, grund: str) -> Antwort:
        return Antwort(f, "fail", key, value, name, 0, beginn, beginn, grund)

    def _warte(self, fertig: Callable[[], bool]) -> bool:
        ende = self.now + self.timeout
        while not fertig():
            if self.now >= ende:
                return False
            self.tick(1)
        return True

    def _protokoll(
        self,
        prozess: Hashable,
        typ: str,
        f: str,
        key: str,
        value: Any,
        zeit: int,
        node: str,
    ) -> None:
        ereignis: dict[str, Any] = {"process": prozess, "type": typ, "f": f, "key": key}
        if f == "write" or typ != "invoke":
            ereignis["value"] = value
        ereignis["node"] = node
        ereignis["time"] = zeit
        self._verlauf.append(ereignis)

    # --- the network, as the cluster asks for it ---

    def _leitung(self, von: str, nach: str) -> tuple[int, ...]:
        """A message's latency on its link: the larger lag of its ends, never before the
        message sent on the link before it (links are FIFO)."""
        jetzt = self.zeit.now
        lag = self.lag
        ankunft = jetzt + max(lag.get(von, 0), lag.get(nach, 0))
        vorige = self._letzte_ankunft.get((von, nach), 0)
        if vorige > ankunft:
            ankunft = vorige
        self._letzte_ankunft[(von, nach)] = ankunft
        return (ankunft - jetzt,)

    def _verworfen(self, sendung: Sendung) -> None:
        """The cluster dropped ``sendung`` at its receiver: an event with the reason."""
        m = self._nachricht(sendung)
        if m.nach != KOORDINATOR and self._repliken[m.nach].ausgefallen:
            grund = f"{m.nach} ist ausgefallen"
        else:
            seite = m.von if m.von in self._getrennt else m.nach
            grund = f"{seite} ist abgetrennt"
        self.verworfen += 1
        self._ereignis(f"{m.art} {m.kurz()} von {m.von} an {m.nach} verloren: {grund}.")

    def tick(self, n: int = 1) -> None:
        """Lässt ``n`` Ticks vergehen; Nachrichten kommen an."""
        fehler = len(self.cluster.fehler)
        self.zeit.tick(n)
        if len(self.cluster.fehler) > fehler:  # a replica's code failed: pysim's own bug
            raise SimFehler(str(self.cluster.fehler[fehler]))

    def _ereignis(self, text: str) -> None:
        self._ereignisse.append(Ereignis(self.now, text))

    def __repr__(self) -> str:
        if self.modus == QUORUM_MODUS:
            return f"ReplikSpeicher(t={self.now}, quorum n={self.n} w={self.w} r={self.r})"
        return f"ReplikSpeicher(t={self.now}, Leader {self.leader}, sync={self.sync})"
