"""Die Queue-Konsole von Lektion 1: senden, abholen, bestätigen, Zeit laufen lassen.

    >>> q = QueueKonsole()
    >>> print(q.run("send zahlung-1").text)
    Nachricht 1 „zahlung-1“ gesendet, jetzt sichtbar.

Das Bild ist die Zeitleiste der Queue (``pysim.queue.bild``). Die Regeln (Timeout, Ack,
Dead Letter Queue) stehen im Modell ``pysim.queue.modell``.
"""

from __future__ import annotations

from typing import Any

from ..console.art import KonsolenArt, KonsolenOption
from ..console.basis import BasisKonsole, setze_befehle, tick_anzahl, tick_befehl, tick_kopf
from ..console.befehle import befehl
from ..console.ergebnis import ConsoleResult
from ..console.parser import TEXT, Art, Aufruf, EingabeFehler, Option, Wert, kuerze_wort
from ..console.werte import anzahl, pruefe_neuer_name, tabelle
from .modell import Queue
from .regeln import BESTAETIGT, IN_DLQ, SICHTBAR, UNTERWEGS, WIEDER_SICHTBAR

#: So viele Nachrichten zeigt ``status`` als Text.
MAX_ZEILEN = 30


class QueueKonsole(BasisKonsole[Queue]):
    """Die Queue-Konsole: ``QueueKonsole().run("send zahlung-1")``.

    ``queue``: eine vorhandene ``Queue``; sonst eine neue mit ``visibility_timeout`` und
    ``max_receive_count`` (ohne: keine Dead Letter Queue; alter Name ``max_versuche``).
    """

    TITEL = "Queue-Konsole"
    HILFE_BEISPIEL = "receive"

    def __init__(
        self,
        queue: Queue | None = None,
        visibility_timeout: int = 3,
        max_receive_count: int | None = None,
        *,
        max_versuche: int | None = None,
    ) -> None:
        super().__init__(
            queue
            if queue is not None
            else Queue(
                visibility_timeout=visibility_timeout,
                max_receive_count=max_receive_count,
                max_versuche=max_versuche,
            )
        )

    @property
    def queue(self) -> Queue:
        """Die Queue hinter der Konsole (dasselbe wie ``modell``)."""
        return self.modell

    # --- Arten von Werten ---

    def _lies_consumer(self, text: str, _werte: dict[str, Any]) -> str:
        return pruefe_neuer_name(text, "Der Name eines Consumers")

    def _consumer(self, _werte: dict[str, Any]) -> list[str]:
        return sorted({e.consumer for e in self.queue.verlauf() if e.consumer})

    def _offene_ids(self, _werte: dict[str, Any]) -> list[str]:
        q = self.queue
        return [str(i) for i in q.ids() if q.zustand(i) in (SICHTBAR, UNTERWEGS)]

    def _bild(self) -> str:
        return self.queue.bild().svg

    # --- Befehle ---

    def _send(self, aufruf: Aufruf) -> ConsoleResult:
        body = aufruf.rest or ""
        nid = self.queue.send(body)
        text = f"Nachricht {nid} „{kuerze_wort(body)}“ gesendet, jetzt sichtbar."
        return self._ok(aufruf, text, self._bild())

    def _receive(self, aufruf: Aufruf) -> ConsoleResult:
        q = self.queue
        consumer = aufruf.werte.get("consumer")
        m = q.receive(consumer=consumer)
        wer = consumer or "Der Consumer"
        if m is None:
            zeilen = ["Keine Nachricht sichtbar: receive liefert nichts."]
            unterwegs = q.unterwegs()
            if unterwegs:
                teile = ", ".join(f"{d['id']} bis t={d['sichtbar_ab']}" for d in unterwegs[:5])
                zeilen.append(f"Unterwegs (unsichtbar): {teile}")
        else:
            zeilen = [
                f"{wer} bekommt Nachricht {m['id']} „{kuerze_wort(str(m['body']))}“ "
                f"(Versuch {m['versuche']})."
            ]
            if m["versuche"] > 1:
                zeilen.append("Sie wurde schon einmal ausgeliefert: ein Duplikat?")
            bis = q.now + q.visibility_timeout
            zeilen.append(f"Unsichtbar bis t={bis}. Ohne ack bis dahin wird sie wieder sichtbar.")
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _ack(self, aufruf: Aufruf) -> ConsoleResult:
        q = self.queue
        nid = aufruf.werte["id"]
        consumer = aufruf.werte.get("consumer")
        vorher = q.zustand(nid)
        versuch = None
        if consumer is not None:
            versuch = q.auslieferung(nid, consumer)
            if versuch is None:
                raise EingabeFehler(
                    f"{consumer} hat Nachricht {nid} nie bekommen:\nEs gibt nichts zu bestätigen."
                )
        aktuell = q.verlauf(nid)[-1]
        if q.ack(nid, versuch=versuch):
            text = f"Nachricht {nid} bestätigt und gelöscht."
            if vorher == SICHTBAR:
                text += "\n(Ihr Timeout war schon abgelaufen; sie war wieder sichtbar.)"
        elif vorher == IN_DLQ:
            text = f"Nachricht {nid} liegt in der Dead Letter Queue.\nDieses ack ändert nichts."
        elif vorher == BESTAETIGT:
            text = f"Nachricht {nid} ist schon bestätigt und gelöscht.\nDieses ack ändert nichts."
        else:
            neu = max(e.versuch for e in q.verlauf(nid))
            bei = f" bei {aktuell.consumer}" if vorher == UNTERWEGS and aktuell.consumer else ""
            text = (
                f"{consumer} bestätigt Versuch {versuch}, aber Nachricht {nid} "
                f"ist inzwischen Versuch {neu}{bei}. Das ack ist veraltet "
                "und ändert nichts."
            )
        return self._ok(aufruf, text, self._bild())

    def _tick(self, aufruf: Aufruf) -> ConsoleResult:
        q = self.queue
        n = tick_anzahl(aufruf)
        bekannt = len(q.verlauf())
        q.tick(n)
        neu = q.verlauf()[bekannt:]
        zeilen = [tick_kopf(q.now, n)]
        for e in neu:
            if e.art == WIEDER_SICHTBAR:
                zeilen.append(f"t={e.zeit}: Nachricht {e.id} wieder sichtbar (kein ack).")
            elif e.art == IN_DLQ:
                zeilen.append(
                    f"t={e.zeit}: Nachricht {e.id} → Dead Letter Queue "
                    f"({anzahl(e.versuch, 'Versuch', 'Versuche')} ohne ack)."
                )
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _status(self, aufruf: Aufruf) -> ConsoleResult:
        q = self.queue
        kopf = f"t={q.now}, Visibility Timeout {q.visibility_timeout}"
        if q.max_receive_count is not None:
            kopf += f", höchstens {q.max_receive_count} Versuche"
        zeilen = [kopf]
        ids = q.ids()
        if not ids:
            zeilen.append("Noch keine Nachricht. Sende eine: send zahlung-1")
            return self._ok(aufruf, "\n".join(zeilen), self._bild())
        unterwegs = {d["id"]: d for d in q.unterwegs()}
        reihen = []
        for i in ids[:MAX_ZEILEN]:
            zustand = q.zustand(i)
            versuche = max(e.versuch for e in q.verlauf(i))
            if zustand == UNTERWEGS:
                d = unterwegs[i]
                bei = f" bei {d['consumer']}" if d["consumer"] else ""
                zustand = f"unterwegs{bei} bis t={d['sichtbar_ab']}"
            reihen.append([str(i), kuerze_wort(str(q.body(i)), 16), zustand, str(versuche)])
        zeilen += tabelle(["ID", "NACHRICHT", "ZUSTAND", "VERSUCHE"], reihen)
        if len(ids) > MAX_ZEILEN:
            zeilen.append(f"… und {len(ids) - MAX_ZEILEN} weitere")
        offen = q.offen()
        bestaetigt = sum(1 for i in ids if q.zustand(i) == BESTAETIGT)
        zeilen.append(f"Offen: {offen}, bestätigt: {bestaetigt}.")
        if q.dlq is not None:
            dlq = q.dlq.ids()
            if dlq:
                inhalt = ", ".join(f"„{kuerze_wort(str(q.dlq.body(i)), 16)}“" for i in dlq[:5])
                mehr = " …" if len(dlq) > 5 else ""
                zeilen.append(f"Dead Letter Queue: {len(dlq)} ({inhalt}{mehr})")
            else:
                zeilen.append("Dead Letter Queue: leer.")
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    # --- Zustand ---

    def state_dump(self) -> str:
        """Der ganze Zustand der Queue (mit Verlauf und DLQ) als fester Text."""
        return _dump(self.queue)


#: Der Name eines Consumers (frei wählbar; Vorschläge: wer schon etwas bekam).
CONSUMER = Wert(
    "consumer",
    "<consumer>",
    Art("consumer", lies=QueueKonsole._lies_consumer, kandidaten=QueueKonsole._consumer),
)
#: Die ID einer Nachricht (Vorschläge: die noch offenen).
ID = Art("id", kandidaten=QueueKonsole._offene_ids, zahl=True)

BEFEHLE = setze_befehle(
    QueueKonsole,
    [
        befehl(
            "send <nachricht>",
            "eine Nachricht in die Queue legen",
            QueueKonsole._send,
            "send zahlung-1",
            erklaerung=("Die Nachricht bekommt die nächste ID (1, 2, 3, …) und ist sichtbar.",),
            rest=TEXT,
            rest_name="der Inhalt der Nachricht",
        ),
        befehl(
            "receive [as <consumer>]",
            "die erste sichtbare Nachricht abholen",
            QueueKonsole._receive,
            "receive",
            "receive as A",
            erklaerung=(
                "Die Nachricht ist danach für die Dauer des Visibility Timeouts unsichtbar. "
                "Kommt bis dahin kein ack, wird sie wieder sichtbar und erneut ausgeliefert.",
            ),
            optionen=(Option("as", CONSUMER),),
        ),
        befehl(
            "ack <id> [as <consumer>]",
            "eine Nachricht bestätigen (löscht sie)",
            QueueKonsole._ack,
            "ack 1",
            "ack 1 as A",
            erklaerung=(
                "Ein ack für eine schon gelöschte Nachricht ändert nichts.",
                "Mit „as A“ gilt das ack nur für die letzte Auslieferung an A, wie ein "
                "Receipt Handle bei Amazon SQS: Hat inzwischen ein anderer Consumer die "
                "Nachricht neu bekommen, ändert es nichts.",
            ),
            positionen=(Wert("id", "<id>", ID, 1),),
            optionen=(Option("as", CONSUMER),),
        ),
        tick_befehl(QueueKonsole._tick, "tick 2"),
        befehl(
            "status",
            "jede Nachricht mit Zustand und Versuchen",
            QueueKonsole._status,
        ),
    ],
)


def _dump(q: Queue, einzug: str = "") -> str:
    zeilen = [
        f"{einzug}queue {q.name} t={q.now} visibility_timeout={q.visibility_timeout} "
        f"max_receive_count={q.max_receive_count} offen={q.offen()}"
    ]
    unterwegs = {d["id"]: d for d in q.unterwegs()}
    for i in q.ids():
        zeile = f"{einzug}  {i} {q.body(i)!r} {q.zustand(i)}"
        if i in unterwegs:
            d = unterwegs[i]
            zeile += f" consumer={d['consumer']!r} sichtbar_ab={d['sichtbar_ab']}"
        zeilen.append(zeile)
    for e in q.verlauf():
        zeilen.append(f"{einzug}  {e}")
    if q.dlq is not None:
        zeilen.append(_dump(q.dlq, einzug + "  "))
    return "\n".join(zeilen)


#: Diese Konsole für ``lessonkit``: der Block ``queue-konsole``, ``kind="queue"``.
KONSOLE = KonsolenArt(
    name="queue",
    klasse=QueueKonsole,
    modell="queue",
    beschreibung="Ack, Visibility Timeout, Dead Letter Queue (Lektion 1)",
    optionen=(
        KonsolenOption("visibility_timeout", "3", "Sichtbarkeits-Zeitfenster in Ticks"),
        KonsolenOption(
            "max_receive_count",
            "keine DLQ",
            "so oft zugestellt, dann kommt die Nachricht in die Dead Letter Queue "
            "(alter Name: `max_versuche`)",
        ),
    ),
)
