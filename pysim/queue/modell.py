"""Eine Message Queue mit Ack, Visibility Timeout und Dead Letter Queue.

So arbeitet sie (Lektion 1):

- ``send(body)`` legt eine Nachricht ab und gibt ihre ID zurück (1, 2, 3, …).
- ``receive()`` liefert die erste sichtbare Nachricht als Dict mit ``id``, ``body`` und
  ``versuche`` (wie oft sie schon ausgeliefert wurde) und versteckt sie für ``visibility_timeout``
  Ticks. Ist nichts sichtbar, kommt ``None``.
- ``ack(id)`` bestätigt und löscht die Nachricht. Ist sie schon weg, ändert sich nichts, und der
  Rückgabewert ``False`` sagt das.
- ``ack(id, versuch=n)`` bestätigt nur die n-te Auslieferung, wie ein Receipt Handle bei Amazon SQS:
  Wurde die Nachricht inzwischen erneut ausgeliefert, ist das Ack veraltet, ändert nichts und gibt
  ``False`` zurück. (SQS sagt für diesen Fall nur: Die Nachricht wird „vielleicht nicht“ gelöscht;
  pysim wählt die sichere, feste Variante.)
- Kommt bis zum Ablauf des Timeouts kein Ack, wird die Nachricht wieder sichtbar. Mit
  ``max_receive_count`` wandert sie stattdessen in die Dead Letter Queue ``dlq``, sobald sie so oft
  ausgeliefert wurde und ihr letztes Timeout abläuft.
- ``tick(n)`` lässt die Zeit laufen, ``offen()`` zählt, was noch nicht bestätigt ist.

Alle Regeln, wie sich der Zustand einer Nachricht ändern darf, stehen in ``UEBERGAENGE``.
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..fehler import UnbekannteNachricht, UngueltigeEingabe, pruefe_ganzzahl, pruefe_name
from ..svg import Bild
from ..zeit import AufDerZeit, Termin, Zeit
from .bild import zeitleiste
from .regeln import (
    ACK,
    ACK_VERALTET,
    AUSGELIEFERT,
    AUSLIEFERN,
    BESTAETIGT,
    GESENDET,
    IN_DLQ,
    SICHTBAR,
    TIMEOUT,
    TIMEOUT_NACH_LETZTEM_VERSUCH,
    UNTERWEGS,
    WIEDER_SICHTBAR,
    uebergang,
    wechsel,
)

#: What ``from pysim.queue import *`` and the package give (the module's public API).
__all__ = [
    "Queue",
    "QueueEreignis",
]


@dataclass(frozen=True)
class QueueEreignis:
    """Ein Eintrag im Verlauf einer Nachricht.

    ``art`` ist ``GESENDET``, ``AUSGELIEFERT``, ``WIEDER_SICHTBAR``, ``BESTAETIGT`` („bestätigt“,
    wie der Zustand) oder ``IN_DLQ`` („in der DLQ“, wie der Zustand). Bei ``ausgeliefert`` stehen ``consumer`` und ``bis`` (ab diesem Tick wieder
    sichtbar) und ``versuch`` (die wievielte Auslieferung) dabei.
    """

    zeit: int
    id: int
    art: str
    versuch: int
    consumer: str | None = None
    bis: int | None = None

    def __str__(self) -> str:
        text = {
            GESENDET: "gesendet",
            AUSGELIEFERT: "ausgeliefert",
            WIEDER_SICHTBAR: "wieder sichtbar",
            BESTAETIGT: "bestätigt",
            IN_DLQ: "in die DLQ verschoben",
        }[self.art]
        if self.art == AUSGELIEFERT:
            an = f" an {self.consumer}" if self.consumer else ""
            text += f"{an} (Versuch {self.versuch}, unsichtbar bis t={self.bis})"
        return f"t={self.zeit}: Nachricht {self.id} {text}"

    def __repr__(self) -> str:
        return f"QueueEreignis({self})"


class _Nachricht:
    """Der innere Zustand einer Nachricht (nur in dieser Datei verändert)."""

    __slots__ = (
        "body",
        "consumer",
        "id",
        "sichtbar_ab",
        "versuche",
        "zustand",
    )

    def __init__(self, id: int, body: Any) -> None:
        self.id = id
        self.body = body
        self.zustand = SICHTBAR
        self.versuche = 0
        self.consumer: str | None = None
        self.sichtbar_ab: int | None = None


class _Weckruf:
    """The clock event for one tick at which deliveries time out, and how many of them are
    still in flight (the ack of the last one cancels the event)."""

    __slots__ = ("offen", "termin")

    def __init__(self, termin: Termin) -> None:
        self.termin = termin
        self.offen = 0


class Queue(AufDerZeit):
    """Eine Queue mit Ack und Visibility Timeout (``Queue(visibility_timeout=3)``).

    ``max_receive_count`` (wie ``maxReceiveCount`` bei Amazon SQS; alter Name ``max_versuche``):
    nach so vielen Auslieferungen ohne Ack landet die Nachricht in ``q.dlq`` (selbst eine Queue).
    ``zeit``: eine gemeinsame Uhr, wenn mehrere Modelle dieselbe Zeit teilen. Die Timeouts
    sind Termine dieser Uhr: einer je Tick, an dem Auslieferungen ablaufen (sie laufen dann in
    der Reihenfolge ihrer Auslieferung ab); das ack der letzten sagt ihn ab. Wer die Uhr
    vorstellt, ob ``q.tick`` oder ein anderes Modell, lässt die Timeouts zu ihrer Zeit ablaufen,
    in einer Reihenfolge mit allen anderen Terminen der Uhr.
    """

    def __init__(
        self,
        visibility_timeout: int = 3,
        max_receive_count: int | None = None,
        zeit: Zeit | None = None,
        name: str = "queue",
        *,
        max_versuche: int | None = None,
    ) -> None:
        self.visibility_timeout = pruefe_ganzzahl(visibility_timeout, "visibility_timeout", 1)
        if max_versuche is not None:
            if max_receive_count is not None:
                raise UngueltigeEingabe(
                    "max_versuche ist der alte Name von max_receive_count: Gib nur einen an."
                )
            max_receive_count = pruefe_ganzzahl(max_versuche, "max_versuche", 1)
        if max_receive_count is not None:
            pruefe_ganzzahl(max_receive_count, "max_receive_count", 1)
        self.max_receive_count = max_receive_count
        self.name = pruefe_name(name, "Der Name der Queue")
        self.zeit = zeit if zeit is not None else Zeit()
        self._nachrichten: dict[int, _Nachricht] = {}
        self._sichtbar: list[int] = []  # Heap der IDs; die kleinste ID ist die erste sichtbare
        # Deliveries in flight as (sichtbar_ab, id, versuch), by deadline: every delivery gets the
        # same timeout and time only moves forward, so appending keeps the order. Entries of
        # acked deliveries are skipped when they reach the front. One clock event per deadline,
        # not per delivery: deliveries due at the same tick share it, so the clock holds as many
        # events as there are distinct deadlines, not one object per message in flight.
        self._fristen: deque[tuple[int, int, int]] = deque()
        self._weckrufe: dict[int, _Weckruf] = {}  # sichtbar_ab -> its clock event
        self._naechste_id = 1
        self._offen = 0
        # Verlauf aller Nachrichten: (zeit, id, art, versuch, consumer, bis), in der Reihenfolge,
        # in der es geschah (also nach der Zeit). Flat tuples: one is written per operation, and
        # QueueEreignis objects are built only when someone reads the history.
        self._verlauf: list[tuple[int, int, str, int, str | None, int | None]] = []
        self._bei_frist = self._frist  # one bound method, not one per delivery
        self.dlq: Queue | None = None
        if max_receive_count is not None:
            self.dlq = Queue(self.visibility_timeout, zeit=self.zeit, name=f"{self.name}-dlq")

    @property
    def max_versuche(self) -> int | None:
        """Alter Name von ``max_receive_count``."""
        return self.max_receive_count

    # --- Zeit ---

    # --- Producer ---

    def send(self, body: Any) -> int:
        """Legt eine Nachricht ab und gibt ihre ID zurück."""
        return self._aufnehmen(self._naechste_id, body, self.zeit.now)

    def _aufnehmen(self, nid: int, body: Any, zeit: int) -> int:
        if nid in self._nachrichten:  # nur in einer DLQ möglich, in die auch direkt gesendet wurde
            nid = self._naechste_id
        self._naechste_id = max(self._naechste_id, nid + 1)
        self._nachrichten[nid] = _Nachricht(nid, body)
        self._verlauf.append((zeit, nid, GESENDET, 0, None, None))
        heapq.heappush(self._sichtbar, nid)
        self._offen += 1
        return nid

    # --- Consumer ---

    def receive(self, consumer: str | None = None) -> dict[str, Any] | None:
        """Holt die erste sichtbare Nachricht und versteckt sie für ``visibility_timeout`` Ticks.

        Gibt ``{"id": …, "body": …, "versuche": …}`` zurück oder ``None``, wenn nichts sichtbar
        ist. ``consumer`` ist ein optionaler Name, der im Verlauf und im Bild erscheint.
        """
        if consumer is not None:
            pruefe_name(consumer, "Der Name des Consumers")
        heap = self._sichtbar
        while heap:
            m = self._nachrichten[heap[0]]
            if m.zustand == SICHTBAR:
                break
            heapq.heappop(heap)  # veralteter Eintrag (z. B. sichtbar bestätigt)
        else:
            return None
        heapq.heappop(heap)
        jetzt = self.zeit.now
        m.zustand = wechsel(m.zustand, AUSLIEFERN)
        m.versuche += 1
        m.consumer = consumer
        frist = m.sichtbar_ab = jetzt + self.visibility_timeout
        self._fristen.append((frist, m.id, m.versuche))
        weckruf = self._weckrufe.get(frist)
        if weckruf is None:
            termin = self.zeit._eintragen(frist, self._bei_frist, (frist,))
            weckruf = self._weckrufe[frist] = _Weckruf(termin)
        weckruf.offen += 1
        self._verlauf.append((jetzt, m.id, AUSGELIEFERT, m.versuche, consumer, m.sichtbar_ab))
        return {"id": m.id, "body": m.body, "versuche": m.versuche}

    def ack(self, id: int, versuch: int | None = None) -> bool:
        """Bestätigt eine Nachricht und löscht sie.

        ``True``: gelöscht. ``False``: Sie war schon weg (bestätigt oder in der DLQ), es ändert
        sich nichts. Eine ID, die diese Queue nie vergeben hat, ist ein Fehler.

        ``versuch``: die Auslieferung, die bestätigt wird (``m["versuche"]`` aus ``receive``), wie
        ein Receipt Handle bei SQS. Ist die Nachricht seitdem erneut ausgeliefert worden, ist das Ack
        veraltet: ``False``, und nichts ändert sich. Ohne ``versuch`` gilt das Ack der Nachricht,
        egal, wer sie gerade hat.
        """
        m = self._finde(id)
        if versuch is not None:
            pruefe_ganzzahl(versuch, "versuch", 1)
        ereignis = ACK
        if versuch is not None:
            if versuch > m.versuche:
                raise UngueltigeEingabe(
                    f"Nachricht {id} wurde bisher {m.versuche}-mal ausgeliefert; "
                    f"einen Versuch {versuch} gibt es noch nicht."
                )
            if versuch < m.versuche:
                ereignis = ACK_VERALTET
        neu = uebergang(m.zustand, ereignis)
        if neu is None:
            return False
        m.zustand = neu
        if m.sichtbar_ab is not None:
            self._bestaetigt_unterwegs(m.sichtbar_ab)
        self._verlauf.append((self.zeit.now, m.id, BESTAETIGT, m.versuche, m.consumer, None))
        m.consumer = None
        m.sichtbar_ab = None
        self._offen -= 1
        return True

    def auslieferung(self, id: int, consumer: str) -> int | None:
        """Der Versuch, mit dem ``consumer`` die Nachricht zuletzt bekam (``None``: nie)."""
        self._finde(id)
        versuche = [
            e.versuch for e in self.verlauf(id) if e.art == AUSGELIEFERT and e.consumer == consumer
        ]
        return versuche[-1] if versuche else None

    def _bestaetigt_unterwegs(self, frist: int) -> None:
        """An ack ended a delivery due at ``frist``: cancel that tick's event if it was the last,
        and drop acked entries from the front of ``_fristen`` (keeps it as long as the window)."""
        weckruf = self._weckrufe[frist]
        weckruf.offen -= 1
        if weckruf.offen == 0:
            weckruf.termin.absagen()
            del self._weckrufe[frist]
        fristen, nachrichten = self._fristen, self._nachrichten
        while fristen:
            _, nid, versuch = fristen[0]
            m = nachrichten[nid]
            if m.zustand == UNTERWEGS and m.versuche == versuch:
                break
            fristen.popleft()

    def _frist(self, frist: int) -> None:
        """The clock reached ``frist``: every delivery due then and still in flight times out."""
        del self._weckrufe[frist]
        fristen, nachrichten = self._fristen, self._nachrichten
        while fristen and fristen[0][0] <= frist:
            _, nid, versuch = fristen.popleft()
            m = nachrichten[nid]
            if m.zustand == UNTERWEGS and m.versuche == versuch:
                self._timeout(m)

    def _timeout(self, m: _Nachricht) -> None:
        """Das Timeout von ``m`` ist jetzt abgelaufen."""
        jetzt = self.zeit.now
        m.consumer = None
        m.sichtbar_ab = None
        if self.max_receive_count is not None and m.versuche >= self.max_receive_count:
            m.zustand = wechsel(m.zustand, TIMEOUT_NACH_LETZTEM_VERSUCH)
            self._verlauf.append((jetzt, m.id, IN_DLQ, m.versuche, None, None))
            self._offen -= 1
            assert self.dlq is not None
            self.dlq._aufnehmen(m.id, m.body, jetzt)
        else:
            m.zustand = wechsel(m.zustand, TIMEOUT)
            self._verlauf.append((jetzt, m.id, WIEDER_SICHTBAR, m.versuche, None, None))
            heapq.heappush(self._sichtbar, m.id)

    # --- Einblick ---

    def offen(self) -> int:
        """Wie viele Nachrichten noch nicht bestätigt sind (sichtbar oder unterwegs)."""
        return self._offen

    def sichtbar(self) -> list[dict[str, Any]]:
        """Die sichtbaren Nachrichten in der Reihenfolge, in der ``receive`` sie liefern würde."""
        ids = sorted(i for i, m in self._nachrichten.items() if m.zustand == SICHTBAR)
        return [self._als_dict(self._nachrichten[i]) for i in ids]

    def unterwegs(self) -> list[dict[str, Any]]:
        """Die ausgelieferten, noch nicht bestätigten Nachrichten, mit Consumer und Zeitfenster."""
        ids = sorted(i for i, m in self._nachrichten.items() if m.zustand == UNTERWEGS)
        return [self._als_dict(self._nachrichten[i], mit_consumer=True) for i in ids]

    def zustand(self, id: int) -> str:
        """Der Zustand einer Nachricht: sichtbar, unterwegs, bestätigt oder in der DLQ."""
        return self._finde(id).zustand

    def verlauf(self, id: int | None = None) -> list[QueueEreignis]:
        """Was mit einer Nachricht (oder allen) geschah, zeitlich geordnet."""
        if id is not None:
            self._finde(id)
        eintraege = (e for e in self._verlauf if id is None or e[1] == id)
        return [
            QueueEreignis(zeit=z, id=nid, art=a, versuch=v, consumer=c, bis=b)
            for (z, nid, a, v, c, b) in eintraege
        ]

    def verlaeufe(self, ids: list[int]) -> dict[int, list[QueueEreignis]]:
        """Der Verlauf mehrerer Nachrichten auf einmal (ein Durchgang), z. B. für das Bild."""
        for i in ids:
            self._finde(i)
        ergebnis: dict[int, list[QueueEreignis]] = {i: [] for i in ids}
        for z, nid, a, v, c, b in self._verlauf:
            if nid in ergebnis:
                ergebnis[nid].append(
                    QueueEreignis(zeit=z, id=nid, art=a, versuch=v, consumer=c, bis=b)
                )
        return ergebnis

    def ids(self) -> list[int]:
        """Alle IDs, die diese Queue je vergeben hat (auch bestätigte), aufsteigend."""
        return sorted(self._nachrichten)

    def body(self, id: int) -> Any:
        """Der Inhalt einer Nachricht, egal in welchem Zustand."""
        return self._finde(id).body

    def bild(self, max_zeilen: int = 12) -> Bild:
        """Die Zeitleiste als Bild (siehe ``_repr_svg_``)."""

        return zeitleiste(self, max_zeilen=max_zeilen)

    def _repr_svg_(self) -> str:
        """Zeitleiste: je Nachricht eine Zeile mit sichtbar, unterwegs und bestätigt."""
        return self.bild().svg

    def _finde(self, id: int) -> _Nachricht:
        if isinstance(id, bool) or not isinstance(id, int):
            raise UngueltigeEingabe(
                f"Eine Nachrichten-ID ist eine ganze Zahl (z. B. m['id']), nicht {id!r}."
            )
        try:
            return self._nachrichten[id]
        except KeyError:
            bereich = (
                f"Vergeben sind die IDs 1 bis {self._naechste_id - 1}."
                if self._nachrichten
                else "Es wurde noch keine Nachricht gesendet."
            )
            raise UnbekannteNachricht(
                f"Die Queue „{self.name}“ hat nie eine Nachricht mit der ID {id} vergeben. {bereich}"
            ) from None

    @staticmethod
    def _als_dict(m: _Nachricht, mit_consumer: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {"id": m.id, "body": m.body, "versuche": m.versuche}
        if mit_consumer:
            d["consumer"] = m.consumer
            d["sichtbar_ab"] = m.sichtbar_ab
        return d

    def __repr__(self) -> str:
        kopf = (
            f"Queue „{self.name}“ t={self.zeit.now}, visibility_timeout={self.visibility_timeout}"
        )
        if self.max_receive_count is not None:
            kopf += f", max_receive_count={self.max_receive_count}"
        zeilen = [kopf + f": {self._offen} offen"]
        grenze = 10
        sichtbar = self.sichtbar()
        unterwegs = self.unterwegs()
        for d in sichtbar[:grenze]:
            zeilen.append(f"  sichtbar:  {d['id']} {d['body']!r} (Versuche: {d['versuche']})")
        if len(sichtbar) > grenze:
            zeilen.append(f"  … und {len(sichtbar) - grenze} weitere sichtbare")
        for d in unterwegs[:grenze]:
            bei = f" bei {d['consumer']}" if d["consumer"] else ""
            zeilen.append(
                f"  unterwegs: {d['id']} {d['body']!r}{bei} bis t={d['sichtbar_ab']} "
                f"(Versuche: {d['versuche']})"
            )
        if len(unterwegs) > grenze:
            zeilen.append(f"  … und {len(unterwegs) - grenze} weitere unterwegs")
        if self.dlq is not None and self.dlq.offen():
            zeilen.append(f"  in der DLQ: {self.dlq.offen()}")
        return "\n".join(zeilen)
