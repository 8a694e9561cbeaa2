"""Replikate und der Koordinator als Knoten des Clusters (``pysim.cluster``).

``ReplikKnoten`` ist ein Replikat. Rolle (``Leader``, ``Follower``, ``gleichrangig``), Epoche,
Log, Daten (im Quorum-Modus) und was die Follower bestätigt haben, liegen in ``self.speicher``:
Sie überstehen einen Absturz, wie Daten auf der Platte; ein ausgefallenes Replikat behält seine
Rolle und antwortet nur nicht. ``self.rolle`` ist die Rolle aus dem Speicher: Eine Störung des
Clusters kann auf sie zielen (``absturz:[Leader]``). ``zustand()`` zeigt Rolle, Epoche, LSN, Log
und was der Leader Clients bestätigt hat (``quittiert``); darauf prüft
``kein_bestaetigtes_verloren`` als Invariante des Clusters, dass der Leader jedes bestätigte
Schreiben hat.

Nachrichten (Maelstrom-Form, ``type`` und Felder; ``ARTEN`` nennt sie so, wie die Lektion sie
zeigt):

- ``repliziere`` (Leader → Follower) mit ``eintrag`` und ``epoche``: Ein Follower derselben
  Epoche hängt den Eintrag an, wenn er der nächste ist, und antwortet mit ``bestaetige``.
- ``bestaetige`` (Follower → Leader) mit ``lsn`` und ``epoche``: So weit hat er das Log.
- ``uebernahme`` (Leader → Replikat) mit ``epoche`` und ``log``: das ganze Log des Leaders (nach
  einem Failover, nach einem Neustart, nach einer Partition). Wer mehr hat, verwirft es; ein
  alter Leader erfährt so vom neuen und wird Follower.
- ``befoerdere`` mit ``epoche``: Failover, der Empfänger wird Leader dieser Epoche und schickt
  jedem anderen Replikat sein Log (``befoerdere()`` tut dasselbe als Aufruf einer Front).
- ``write`` mit ``key`` und ``value`` (von einem Client): Der Leader hängt es an und antwortet
  ``write_ok`` mit ``lsn``, sobald ``SYNC`` Follower es bestätigt haben (0: sofort); ein
  Follower antwortet mit Fehler 11 (temporarily-unavailable).
- ``schreibe`` und ``lies`` (Koordinator → Replikat, Quorum-Modus) mit ``key`` (und ``value``,
  ``version``): Antworten ``schreibe_ok`` und ``lies_ok`` mit ``value`` und ``version``.

``KoordinatorKnoten`` ist der Koordinator des Quorum-Modus, ein Knoten im Netz wie jedes
Replikat: Er schickt ein Schreiben oder Lesen an alle Replikate und wartet mit ``await
self.erste(w, …)`` auf die ersten w (oder r) Antworten; was er erfährt, steht in
``ergebnisse``.

Was ein Knoten tut, meldet er seiner ``AUFSICHT`` (einer Front wie ``ReplikSpeicher``, die es
als Ereignis zeigt), ohne sie als Notiz ins Protokoll des Laufs. Kein Knoten hält einen Verweis
auf den Cluster oder die Front.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from ..cluster import Knoten
from ..cluster.knoten import KeineAntwort
from ..cluster.nachricht import Nachricht
from .regeln import (
    BEFOERDERN,
    BESTAETIGE,
    FOLLOWER,
    GLEICHRANGIG,
    LEADER,
    LIES,
    LIES_OK,
    NEUER_LEADER,
    REPLIZIERE,
    SCHREIBE,
    SCHREIBE_OK,
    UEBERNAHME,
    uebergang,
    wechsel,
)

__all__ = [
    "ARTEN",
    "KOORDINATOR_ID",
    "Aufsicht",
    "Eintrag",
    "KoordinatorKnoten",
    "ReplikKnoten",
    "bestaetigt_von",
    "kein_bestaetigtes_verloren",
]

#: The coordinator's name in the cluster (as the lesson shows it).
KOORDINATOR_ID = "koordinator"

#: Message type -> the kind of message as the lesson names it (``regeln``).
ARTEN: dict[str, str] = {
    "repliziere": REPLIZIERE,
    "bestaetige": BESTAETIGE,
    "uebernahme": UEBERNAHME,
    "schreibe": SCHREIBE,
    "schreibe_ok": SCHREIBE_OK,
    "lies": LIES,
    "lies_ok": LIES_OK,
}


class Aufsicht(Protocol):
    """Wem ein Replikat meldet, was es tut (ein deutscher Satz je Ereignis)."""

    def ereignis(self, text: str) -> None: ...


@dataclass(frozen=True)
class Eintrag:
    """Ein Eintrag im Log des Leaders: LSN, Epoche des Leaders, Schlüssel, Wert."""

    lsn: int
    epoche: int
    key: str
    value: Any

    def __str__(self) -> str:
        return f"{self.key}={self.value!r} (LSN {self.lsn})"


def stand(speicher: Mapping[str, Any]) -> int:
    """Die LSN des letzten Eintrags im Log (0: noch keiner)."""
    return len(speicher["log"])


def wert(speicher: Mapping[str, Any], key: str) -> tuple[Any, int]:
    """Was ein Replikat für ``key`` hält: (Wert, LSN oder Version); ``(None, 0)``: nichts."""
    if speicher["rolle"] == GLEICHRANGIG:
        paar: tuple[Any, int] = speicher["daten"].get(key, (None, 0))
        return paar
    for e in reversed(speicher["log"]):
        if e.key == key:
            return e.value, e.lsn
    return None, 0


def inhalt(speicher: Mapping[str, Any]) -> dict[str, Any]:
    """Jeder Schlüssel mit seinem Wert, nach Schlüsseln sortiert."""
    if speicher["rolle"] == GLEICHRANGIG:
        daten = speicher["daten"]
        return {k: daten[k][0] for k in sorted(daten)}
    werte: dict[str, Any] = {}
    for e in speicher["log"]:
        werte[e.key] = e.value
    return dict(sorted(werte.items()))


def bestaetigt_von(speicher: Mapping[str, Any], eintrag: Eintrag) -> int:
    """Wie viele Follower ``eintrag`` dem Leader mit diesem Speicher bestätigt haben (-1: Er
    leitet die Epoche des Eintrags nicht mehr)."""
    if speicher["rolle"] != LEADER or speicher["epoche"] != eintrag.epoche:
        return -1
    return sum(1 for lsn in speicher["bestaetigt"].values() if lsn >= eintrag.lsn)


class ReplikKnoten(Knoten):
    """Ein Replikat (siehe das Modul). Einstellungen als Klassenattribute: ``SYNC`` (auf so
    viele Follower wartet ein ``write`` eines Clients), ``AUFSICHT`` (wem es Ereignisse meldet;
    ``None``: als Notiz ins Protokoll des Laufs). ``n1`` ist anfangs der Leader."""

    SYNC: ClassVar[int] = 0
    AUFSICHT: ClassVar[Aufsicht | None] = None

    def beim_start(self) -> None:
        sp = self.speicher
        if "rolle" not in sp:  # a restart finds all of it on disk
            sp["rolle"] = LEADER if self.id == "n1" else FOLLOWER
            sp["epoche"] = 1
            sp["log"] = []
            sp["daten"] = {}
            sp["bestaetigt"] = {}
            sp["quittiert"] = []
        #: Clients' writes waiting for SYNC acknowledgements: (entry, request).
        self.wartend: list[tuple[Eintrag, Nachricht]] = []

    @property
    def rolle(self) -> str:
        """Die Rolle aus dem Speicher (``Leader``, ``Follower``, ``gleichrangig``)."""
        rolle: str = self.speicher["rolle"]
        return rolle

    @rolle.setter
    def rolle(self, rolle: str) -> None:
        self.speicher["rolle"] = rolle

    @property
    def repliken(self) -> list[str]:
        """Alle Replikate des Clusters (ohne den Koordinator)."""
        return [k for k in self.knoten if k != KOORDINATOR_ID]

    def zustand(self) -> Mapping[str, object]:
        """Rolle, Epoche, LSN, das Log (je ``(Epoche, LSN)``) und was es als Leader Clients
        bestätigt hat (``quittiert``, je ``(Epoche, LSN)``)."""
        sp = self.speicher
        return {
            "rolle": sp["rolle"],
            "epoche": sp["epoche"],
            "lsn": stand(sp),
            "log": [(e.epoche, e.lsn) for e in sp["log"]],
            "quittiert": list(sp["quittiert"]),
        }

    def _melde(self, text: str) -> None:
        aufsicht = type(self).AUFSICHT
        if aufsicht is None:
            self.notiz(text)
        else:
            aufsicht.ereignis(text)

    def _sende(self, ziel: str, body: dict[str, Any]) -> None:
        # pysim's own node builds each body for this message alone: no copy on the wire
        self._netz.sende(ziel, body, f"{self.id}.sende", True)

    # --- what the leader does ---

    def schreibe(self, key: str, value: Any) -> Eintrag:
        """Hängt ``key=value`` als nächsten Eintrag an das Log (nur als Leader) und schickt ihn
        jedem Follower."""
        sp = self.speicher
        eintrag = Eintrag(stand(sp) + 1, sp["epoche"], key, value)
        sp["log"].append(eintrag)
        for ziel in self.repliken:
            if ziel != self.id:
                self._sende(
                    ziel, {"type": "repliziere", "eintrag": eintrag, "epoche": sp["epoche"]}
                )
        return eintrag

    def bestaetigt_von(self, eintrag: Eintrag) -> int:
        """Wie viele Follower ``eintrag`` bestätigt haben (-1: Dieses Replikat leitet seine
        Epoche nicht mehr)."""
        return bestaetigt_von(self.speicher, eintrag)

    def quittiere(self, eintrag: Eintrag) -> None:
        """Merkt, dass ein Client ``eintrag`` als geschrieben bestätigt bekam."""
        self.speicher["quittiert"].append((eintrag.epoche, eintrag.lsn))

    def sende_log(self, ziele: list[str]) -> None:
        """Schickt jedem der ``ziele`` das ganze Log und die Epoche (Übernahme, Nachholen)."""
        sp = self.speicher
        for ziel in ziele:
            self._sende(
                ziel, {"type": "uebernahme", "epoche": sp["epoche"], "log": tuple(sp["log"])}
            )

    def befoerdere(self, epoche: int) -> None:
        """Failover: Dieses Replikat (ein Follower) wird Leader der Epoche ``epoche`` und
        schickt jedem anderen Replikat sein Log."""
        sp = self.speicher
        sp["rolle"] = wechsel(sp["rolle"], BEFOERDERN)
        sp["epoche"] = epoche
        sp["bestaetigt"] = {}
        self.sende_log([k for k in self.repliken if k != self.id])

    def bei_befoerdere(self, nachricht: Nachricht) -> None:
        self.befoerdere(int(nachricht["epoche"]))

    def bei_write(self, nachricht: Nachricht) -> None:
        if self.speicher["rolle"] != LEADER:
            text = f"{self.id} ist {self.speicher['rolle']} und nimmt kein Schreiben an."
            self.antworte(nachricht, {"type": "error", "code": 11, "text": text})
            return
        eintrag = self.schreibe(str(nachricht["key"]), nachricht["value"])
        self.wartend.append((eintrag, nachricht))
        self._antworte_bestaetigten()

    def _antworte_bestaetigten(self) -> None:
        offen = []
        for eintrag, anfrage in self.wartend:
            if self.bestaetigt_von(eintrag) >= self.SYNC:
                self.quittiere(eintrag)
                self.antworte(anfrage, {"type": "write_ok", "lsn": eintrag.lsn})
            else:
                offen.append((eintrag, anfrage))
        self.wartend = offen

    def bei_bestaetige(self, nachricht: Nachricht) -> None:
        sp = self.speicher
        if sp["rolle"] == LEADER and sp["epoche"] == nachricht["epoche"]:
            von = nachricht.src
            sp["bestaetigt"][von] = max(sp["bestaetigt"].get(von, 0), nachricht["lsn"])
            if self.wartend:
                self._antworte_bestaetigten()

    # --- what a follower does ---

    def bei_repliziere(self, nachricht: Nachricht) -> None:
        sp = self.speicher
        e: Eintrag = nachricht["eintrag"]
        if e.epoche < sp["epoche"]:
            self._melde(
                f"{self.id} weist {e} von {nachricht.src} ab: Epoche {e.epoche} ist veraltet "
                f"(sie kennt Epoche {sp['epoche']})."
            )
            return
        if e.epoche == sp["epoche"] and sp["rolle"] == FOLLOWER and e.lsn == stand(sp) + 1:
            sp["log"].append(e)
            self._melde(f"{self.id} übernimmt {e}.")
        if sp["rolle"] == FOLLOWER:
            self._bestaetige(nachricht.src)

    def _bestaetige(self, leader: str) -> None:
        sp = self.speicher
        self._sende(leader, {"type": "bestaetige", "lsn": stand(sp), "epoche": sp["epoche"]})

    def bei_uebernahme(self, nachricht: Nachricht) -> None:
        sp = self.speicher
        epoche: int = nachricht["epoche"]
        if epoche < sp["epoche"]:
            return
        if sp["rolle"] == LEADER and epoche > sp["epoche"]:
            sp["rolle"] = wechsel(sp["rolle"], NEUER_LEADER)
            sp["bestaetigt"] = {}
            self._melde(
                f"{self.id} erfährt von {nachricht.src} (Epoche {epoche}) und wird Follower."
            )
        else:
            uebergang(sp["rolle"], NEUER_LEADER)
        sp["epoche"] = epoche
        log: tuple[Eintrag, ...] = nachricht["log"]
        gemeinsam = 0
        for mein, sein in zip(sp["log"], log, strict=False):
            if mein != sein:
                break
            gemeinsam += 1
        weg = sp["log"][gemeinsam:]
        neu = log[gemeinsam:]
        sp["log"] = list(log)
        if weg:
            self._melde(
                f"{self.id} verwirft {', '.join(str(e) for e in weg)}: Der Leader "
                f"{nachricht.src} hat es nicht."
            )
        if neu:
            self._melde(f"{self.id} holt nach bis LSN {stand(sp)}.")
        self._bestaetige(nachricht.src)

    # --- a replica of the quorum mode ---

    def bei_schreibe(self, nachricht: Nachricht) -> None:
        daten = self.speicher["daten"]
        key, value, version = nachricht["key"], nachricht["value"], nachricht["version"]
        if version > daten.get(key, (None, 0))[1]:
            daten[key] = (value, version)
            self._melde(f"{self.id} speichert {key}={value!r} (Version {version}).")
        self.antworte(nachricht, {"type": "schreibe_ok", "key": key, "version": version})

    def bei_lies(self, nachricht: Nachricht) -> None:
        key = nachricht["key"]
        gelesen, version = wert(self.speicher, key)
        self.antworte(
            nachricht, {"type": "lies_ok", "key": key, "value": gelesen, "version": version}
        )

    def __repr__(self) -> str:
        sp = self.speicher
        return f"ReplikKnoten({self.id}: {sp['rolle']}, Epoche {sp['epoche']}, LSN {stand(sp)})"


class KoordinatorKnoten(Knoten):
    """Der Koordinator des Quorum-Modus (siehe das Modul): ``schreibe`` und ``lies`` laufen
    als Handler, die auf die ersten ``k`` Antworten warten; das Ergebnis der Operation
    ``nummer`` steht danach in ``ergebnisse[nummer]``: ``("ok", Antworten)`` oder
    ``("fail", [])``, wenn nicht mehr ``k`` Antworten kommen können."""

    def beim_start(self) -> None:
        self.ergebnisse: dict[int, tuple[str, list[Nachricht]]] = {}

    @property
    def repliken(self) -> list[str]:
        return [k for k in self.knoten if k != self.id]

    async def _frage_alle(self, nummer: int, k: int, body: dict[str, Any], timeout: int) -> None:
        fragen = [self.frage(ziel, body, timeout) for ziel in self.repliken]
        try:
            antworten = await self.erste(k, fragen)
        except KeineAntwort:
            self.ergebnisse[nummer] = ("fail", [])
            return
        self.ergebnisse[nummer] = ("ok", antworten)

    async def schreibe(
        self, nummer: int, key: str, value: Any, version: int, w: int, timeout: int
    ) -> None:
        """Schickt ``key=value`` mit ``version`` an alle Replikate; fertig nach ``w``
        Bestätigungen."""
        body = {"type": "schreibe", "key": key, "value": value, "version": version}
        await self._frage_alle(nummer, w, body, timeout)

    async def lies(self, nummer: int, key: str, r: int, timeout: int) -> None:
        """Fragt alle Replikate nach ``key``; fertig nach ``r`` Antworten."""
        await self._frage_alle(nummer, r, {"type": "lies", "key": key}, timeout)


def _paare(wert: object) -> list[tuple[int, int]]:
    """``[(Epoche, LSN), …]`` from a state's field (a list of pairs; anything else: none)."""
    if not isinstance(wert, list | tuple):
        return []
    return [(int(p[0]), int(p[1])) for p in wert]


def kein_bestaetigtes_verloren(zustaende: Mapping[str, Mapping[str, object]]) -> bool | str:
    """Invariante für ``Cluster.invariante``: Der Leader mit der höchsten Epoche hat jeden
    Eintrag, den ein Leader einem Client bestätigt hat (``zustand()["quittiert"]``), auch
    einen, den ein abgestürzter alter Leader bestätigte."""
    leader: list[tuple[int, str]] = []
    for k, z in zustaende.items():
        epoche = z.get("epoche")
        if z.get("rolle") == LEADER and isinstance(epoche, int):
            leader.append((epoche, k))
    if not leader:
        return True
    name = max(leader)[1]
    log = set(_paare(zustaende[name].get("log")))
    for k, z in zustaende.items():
        for epoche, lsn in _paare(z.get("quittiert")):
            if (epoche, lsn) not in log:
                return (
                    f"Der Leader {name} hat den Eintrag LSN {lsn} (Epoche {epoche}) nicht, den "
                    f"{k} einem Client als geschrieben bestätigt hat."
                )
    return True
