"""Ein Zahlungsdienst hinter einem unzuverlässigen Netz, mit und ohne Idempotenzschlüssel.

Ein Client schickt eine Zahlung als HTTP-artige Anfrage (wie ``POST /zahlungen``). Der Server
belastet das Konto (eine Buchung in einer echten ``sqlite3``-Datenbank) und antwortet. Das Netz braucht ``latenz`` Ticks
je Richtung und kann eine Antwort verlieren. Bekommt der Client nach ``timeout`` Ticks keine
Antwort, schickt er dieselbe Zahlung noch einmal, nach einer Pause, die sich jedes Mal
verdoppelt (Backoff). Eine Zahlung kann auch von zwei Clients zugleich kommen (``kopien=2``: ein
Doppelklick, zwei Tabs). Ihr Schlüssel gehört zur Zahlung (der Bestellung), also schicken beide
denselben; ``schluessel_je_kopie=True`` gibt jeder Kopie einen eigenen, wie ein Client, der ihn
erst im Klick-Handler erzeugt.

``modus`` sagt, wie der Server mit Wiederholungen umgeht:

- ``"ohne"``: Jede Anfrage, die ankommt, belastet das Konto.
- ``"atomar"``: Der Client schickt einen Idempotenzschlüssel, einmal erzeugt für diese Zahlung,
  nicht für jeden Versuch und nicht für jeden Klick. Der Server speichert Schlüssel → Antwort. Eine Wiederholung bekommt die
  gespeicherte Antwort, ohne zu buchen; derselbe Schlüssel mit anderem Inhalt wird abgelehnt
  (422); kommt er, während die erste Anfrage noch läuft, ist die Antwort ein Konflikt (409), und
  der Client versucht es später wieder. Buchung und gespeicherte Antwort stehen in **einer**
  Transaktion.
- ``"getrennt"``: wie ``"atomar"``, aber Buchung und Antwort in zwei Transaktionen. Stürzt der
  Server dazwischen ab (``absturz=``), ist die Buchung da und der Schlüssel nicht: Die
  Wiederholung belastet das Konto noch einmal.

Vereinfachungen (sag sie dazu): Der Server ist ein Prozess, der eine Anfrage ``dauer`` Ticks lang
bearbeitet und erst am Ende schreibt; die Sperre „in Arbeit“ liegt in seinem Speicher und ist mit
einem Absturz weg (wie eine Zeilensperre mit ihrer Verbindung); nach einem Absturz läuft er
sofort wieder. Die Pause des Clients hat keinen Zufall (kein Jitter). Es gibt nur eine Art von
Anfrage (eine Zahlung), und verloren gehen nur Antworten.
"""

from __future__ import annotations

import json
import random
import sqlite3
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..fehler import (
    SimFehler,
    UngueltigeEingabe,
    nachschlagen,
    pruefe_ganzzahl,
    pruefe_name,
    pruefe_wahrscheinlichkeit,
)
from ..svg import Bild
from ..zeit import AufDerZeit, Termin, Zeit
from . import bild as _bild
from .regeln import (
    ABLAUF,
    ABSTURZ,
    ANFRAGE,
    ATOMAR,
    FERTIG,
    FREI,
    GESPEICHERT,
    GETRENNT,
    IN_ARBEIT,
    MODI,
    OHNE,
    STATUS,
    UEBERGAENGE,
)

__all__ = ["HttpEreignis", "UnbekannteZahlung", "ZahlungsSim"]

#: So viele Ereignisse verarbeitet ein Lauf höchstens (ein Schutz gegen Endlosschleifen).
MAX_EREIGNISSE = 10_000

SCHEMA = """
CREATE TABLE buchungen (
    id INTEGER PRIMARY KEY,
    konto TEXT NOT NULL,
    betrag INTEGER NOT NULL,
    zweck TEXT NOT NULL,
    zeit INTEGER NOT NULL
);
CREATE TABLE schluessel (
    schluessel TEXT PRIMARY KEY,
    fingerabdruck TEXT NOT NULL,
    status INTEGER NOT NULL,
    antwort TEXT NOT NULL,
    zeit INTEGER NOT NULL
);
"""


class UnbekannteZahlung(SimFehler, LookupError):
    """Eine Zahlung mit diesem Namen gibt es in der Simulation nicht."""


@dataclass(frozen=True)
class HttpEreignis:
    """Ein Eintrag im Verlauf: was ``wer`` (ein Client oder ``"Server"``) zur Zeit ``zeit`` tat.

    ``art``: ``gesendet``, ``angekommen``, ``gebucht``, ``wiederholt`` (gespeicherte Antwort noch
    einmal), ``konflikt`` (409), ``abgelehnt`` (422), ``verloren`` (die Antwort), ``antwort``
    (beim Client angekommen), ``timeout``, ``aufgegeben``, ``absturz``.
    """

    zeit: int
    art: str
    zahlung: str
    client: str
    versuch: int
    text: str

    def __str__(self) -> str:
        return f"t={self.zeit:>2}  {self.text}"


@dataclass
class _Zahlung:
    name: str
    betrag: int
    konto: str
    schluessel: str | None
    verliere: frozenset[int]
    absturz: frozenset[int]
    start: int
    gesendet: int = 0  # attempts sent so far, over every copy


@dataclass
class _Client:
    name: str
    zahlung: _Zahlung
    schluessel: str | None
    versuche: int = 0
    fertig: bool = False
    ergebnis: int | None = None
    aktuell: _Versuch | None = None
    frist: Termin | None = None


@dataclass
class _Versuch:
    client: _Client
    nummer: int  # per payment, in the order of sending
    gesendet: int
    angekommen: int | None = None
    beantwortet: int | None = None  # when the server sent its answer
    zugestellt: int | None = None  # when the answer reached the client
    status: int | None = None
    verloren: bool = False
    abgebrochen: bool = False
    gebucht: int | None = None  # the charge's id, while it stands
    gebucht_zeit: int | None = None
    wiederholt: bool = False  # answered from the stored response
    inhalt: dict[str, Any] = field(default_factory=dict)


class ZahlungsSim(AufDerZeit):
    """Clients, ein Netz und ein Zahlungsdienst mit ``sqlite3``-Datenbank auf einer ``Zeit``.

    Beispiel::

        sim = ZahlungsSim(modus="ohne")
        sim.zahlung("z1", betrag=30, verliere={1})
        sim.run()
        sim.anzahl_buchungen("z1")   # 2: die Antwort ging verloren, der Retry belastete noch einmal

    ``verliere``: die Nummern der Versuche dieser Zahlung, deren Antwort verloren geht (gezählt
    über alle Kopien, in der Reihenfolge des Sendens); ``absturz``: die Nummern der Versuche, bei
    denen der Server zwischen Buchung und gespeicherter Antwort abstürzt. ``verlust`` verliert
    außerdem jede Antwort mit dieser Wahrscheinlichkeit (aus ``seed``).
    """

    def __init__(
        self,
        modus: str = ATOMAR,
        *,
        dauer: int = 2,
        latenz: int = 1,
        timeout: int = 6,
        versuche: int = 4,
        pause: int = 1,
        aufbewahrung: int | None = None,
        verlust: float = 0.0,
        seed: int = 1,
        zeit: Zeit | None = None,
    ) -> None:
        if modus not in MODI:
            raise UngueltigeEingabe(
                f"Den Modus {modus!r} gibt es nicht. Möglich: „ohne“, „getrennt“, „atomar“."
            )
        self.modus = modus
        self.dauer = pruefe_ganzzahl(dauer, "dauer", 0)
        self.latenz = pruefe_ganzzahl(latenz, "latenz", 0)
        self.timeout = pruefe_ganzzahl(timeout, "timeout", 1)
        self.max_versuche = pruefe_ganzzahl(versuche, "versuche", 1)
        self.pause = pruefe_ganzzahl(pause, "pause", 0)
        if aufbewahrung is not None:
            pruefe_ganzzahl(aufbewahrung, "aufbewahrung", 1)
        self.aufbewahrung = aufbewahrung
        self.verlust = pruefe_wahrscheinlichkeit(verlust, "verlust")
        self._zufall = random.Random(pruefe_ganzzahl(seed, "seed"))
        self.zeit = zeit if zeit is not None else Zeit()
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        self.db.executescript(SCHEMA)
        self._zahlungen: dict[str, _Zahlung] = {}
        self._clients: list[_Client] = []
        self._versuche: list[_Versuch] = []
        self._in_arbeit: dict[str, _Versuch] = {}
        self._laufend: list[_Versuch] = []
        self.abstuerze: list[int] = []
        self._verlauf: list[HttpEreignis] = []
        self._ereignisse = 0

    # --- setting up -------------------------------------------------------------------------

    def zahlung(
        self,
        name: str,
        betrag: int = 30,
        *,
        konto: str = "anna",
        start: int = 0,
        kopien: int = 1,
        verliere: Iterable[int] = (),
        absturz: Iterable[int] = (),
        schluessel: str | None = None,
        schluessel_je_kopie: bool = False,
    ) -> str | None:
        """Plant eine Zahlung (eine Absicht der Nutzerin) und gibt ihren Schlüssel zurück.

        Der Schlüssel entsteht hier, einmal für die Zahlung, wie ``crypto.randomUUID()``, wenn
        die Bestellung angelegt wird (aus dem Seed, damit jeder Lauf gleich ausgeht);
        ``schluessel=`` gibt ihn vor. Alle ``kopien`` schicken ihn. ``schluessel_je_kopie=True``
        gibt jeder Kopie einen eigenen (der Fehler, den Schlüssel erst beim Klick zu erzeugen);
        das Ergebnis ist dann der Schlüssel der ersten. Ohne Schlüssel (``modus="ohne"``) ist das
        Ergebnis ``None``.
        """
        pruefe_name(name, "Der Name einer Zahlung")
        if name in self._zahlungen:
            raise UngueltigeEingabe(
                f"Eine Zahlung „{name}“ gibt es schon. Gib jeder Zahlung einen eigenen Namen."
            )
        pruefe_ganzzahl(betrag, "betrag", 1)
        pruefe_name(konto, "Das Konto")
        pruefe_ganzzahl(start, "start", self.now)
        pruefe_ganzzahl(kopien, "kopien", 1)
        if not isinstance(schluessel_je_kopie, bool):
            raise UngueltigeEingabe(
                f"schluessel_je_kopie ist True oder False, nicht {schluessel_je_kopie!r}."
            )
        plan_verlust = frozenset(self._nummern(verliere, "verliere"))
        plan_absturz = frozenset(self._nummern(absturz, "absturz"))
        if self.modus == OHNE:
            if schluessel is not None or schluessel_je_kopie:
                raise UngueltigeEingabe(
                    "Im Modus „ohne“ schickt der Client keinen Schlüssel; lass schluessel= und "
                    "schluessel_je_kopie= weg."
                )
            keys: list[str | None] = [None] * kopien
        elif schluessel is not None:
            if schluessel_je_kopie:
                raise UngueltigeEingabe(
                    "schluessel= gibt allen Kopien einen Schlüssel vor; schluessel_je_kopie=True "
                    "gibt jeder einen eigenen. Nimm eines von beiden."
                )
            keys = [pruefe_name(schluessel, "Der Schlüssel")] * kopien
        elif schluessel_je_kopie:
            keys = [self._neuer_schluessel() for _ in range(kopien)]
        else:
            keys = [self._neuer_schluessel()] * kopien
        z = _Zahlung(name, betrag, konto, keys[0], plan_verlust, plan_absturz, start)
        self._zahlungen[name] = z
        for k, key in enumerate(keys):
            client = _Client(name if kopien == 1 else f"{name}·{k + 1}", z, key)
            self._clients.append(client)
            self.zeit._eintragen(start, self._sende, (client,))
        return keys[0]

    def _neuer_schluessel(self) -> str:
        return str(uuid.UUID(int=self._zufall.getrandbits(128), version=4))

    @staticmethod
    def _nummern(werte: Iterable[int], name: str) -> list[int]:
        try:
            liste = list(werte)
        except TypeError:
            raise UngueltigeEingabe(
                f"{name} ist eine Menge von Versuchsnummern, z. B. {{1}}, nicht {werte!r}."
            ) from None
        return [pruefe_ganzzahl(n, f"Eine Versuchsnummer in {name}", 1) for n in liste]

    def run(self, until: int | None = None) -> None:
        """Lässt die Simulation laufen: bis nichts mehr geplant ist, oder bis Tick ``until``."""
        self.zeit.run(until)

    # --- the client ---------------------------------------------------------------------------

    def _zaehle(self) -> None:
        self._ereignisse += 1
        if self._ereignisse > MAX_EREIGNISSE:
            raise SimFehler(
                f"Die Simulation hat mehr als {MAX_EREIGNISSE} Ereignisse; sie endet hier."
            )

    def _notiere(self, art: str, v: _Versuch, wer: str, text: str) -> None:
        self._verlauf.append(
            HttpEreignis(self.now, art, v.client.zahlung.name, wer, v.nummer, text)
        )

    def _sende(self, client: _Client) -> None:
        if client.fertig:  # a late answer came while the retry waited
            return
        self._zaehle()
        z = client.zahlung
        z.gesendet += 1
        client.versuche += 1
        inhalt = {"betrag": z.betrag, "konto": z.konto, "zweck": z.name}
        v = _Versuch(client, z.gesendet, self.now, inhalt=inhalt)
        self._versuche.append(v)
        client.aktuell = v
        kopf = (
            f" mit Schlüssel {client.schluessel[:8]}…" if client.schluessel else " ohne Schlüssel"
        )
        wieder = " (Wiederholung)" if client.versuche > 1 else ""
        self._notiere(
            "gesendet",
            v,
            client.name,
            f"{client.name} sendet POST /zahlungen{kopf}, Versuch {v.nummer}{wieder}",
        )
        self.zeit._eintragen(self.now + self.latenz, self._ankunft, (v,))
        client.frist = self.zeit._eintragen(self.now + self.timeout, self._frist, (v,))

    def _frist(self, v: _Versuch) -> None:
        client = v.client
        if client.fertig or client.aktuell is not v:
            return
        self._zaehle()
        self._notiere(
            "timeout", v, client.name, f"{client.name}: keine Antwort nach {self.timeout} Ticks"
        )
        self._nochmal(client, v)

    def _nochmal(self, client: _Client, v: _Versuch) -> None:
        if client.versuche >= self.max_versuche:
            client.fertig = True
            self._notiere(
                "aufgegeben",
                v,
                client.name,
                f"{client.name} gibt nach {client.versuche} Versuchen auf",
            )
            return
        warten = self.pause * 2 ** (client.versuche - 1)
        self.zeit._eintragen(self.now + warten, self._sende, (client,))

    def _beim_client(self, v: _Versuch, status: int) -> None:
        self._zaehle()
        client = v.client
        v.zugestellt = self.now
        self._notiere(
            "antwort", v, client.name, f"{client.name} bekommt {status} ({STATUS[status]})"
        )
        if client.fertig:
            return
        if client.frist is not None:
            client.frist.absagen()
        if status == 409:
            if client.aktuell is v:
                self._nochmal(client, v)
            return
        client.fertig = True
        client.ergebnis = status

    # --- the network --------------------------------------------------------------------------

    def _antworte(self, v: _Versuch, status: int) -> None:
        v.beantwortet = self.now
        v.status = status
        z = v.client.zahlung
        verloren = v.nummer in z.verliere or (
            self.verlust > 0 and self._zufall.random() < self.verlust
        )
        if verloren:
            v.verloren = True
            self._notiere(
                "verloren", v, "Netz", f"Die Antwort {status} auf Versuch {v.nummer} geht verloren"
            )
            return
        self.zeit._eintragen(self.now + self.latenz, self._beim_client, (v, status))

    # --- the server ---------------------------------------------------------------------------

    def _fingerabdruck(self, inhalt: dict[str, Any]) -> str:
        return json.dumps(inhalt, sort_keys=True)

    def _aufraeumen(self) -> None:
        """Deletes stored keys older than ``aufbewahrung`` (each one an ``ablauf``)."""
        if self.aufbewahrung is None:
            return
        grenze = self.now - self.aufbewahrung
        alt = self.db.execute(
            "SELECT schluessel FROM schluessel WHERE zeit <= ?", (grenze,)
        ).fetchall()
        for (key,) in alt:
            UEBERGAENGE.wechsel(GESPEICHERT, ABLAUF)
            self.db.execute("DELETE FROM schluessel WHERE schluessel = ?", (key,))

    def zustand(self, name: str) -> str:
        """Der Zustand des Schlüssels der Zahlung ``name`` beim Server (``frei``, ``in Arbeit``,
        ``gespeichert``); ohne Schlüssel ``frei``. Mit ``schluessel_je_kopie=True``: der
        Schlüssel der ersten Kopie."""
        key = self._zahlung(name).schluessel
        return self._zustand(key)

    def _zustand(self, key: str | None) -> str:
        if key is None:
            return FREI
        if key in self._in_arbeit:
            return IN_ARBEIT
        zeile = self.db.execute("SELECT 1 FROM schluessel WHERE schluessel = ?", (key,)).fetchone()
        return GESPEICHERT if zeile else FREI

    def _ankunft(self, v: _Versuch) -> None:
        self._zaehle()
        v.angekommen = self.now
        self._aufraeumen()
        key = v.client.schluessel
        self._notiere("angekommen", v, "Server", f"Server: Versuch {v.nummer} kommt an")
        if key is None:
            self._beginne(v)
            return
        zustand = self._zustand(key)
        UEBERGAENGE.uebergang(zustand, ANFRAGE)
        abdruck = self._fingerabdruck(v.inhalt)
        if zustand == GESPEICHERT:
            gespeichert, status = self.db.execute(
                "SELECT fingerabdruck, status FROM schluessel WHERE schluessel = ?", (key,)
            ).fetchone()
            if gespeichert != abdruck:
                self._ablehnen(v)
                return
            self._notiere(
                "wiederholt",
                v,
                "Server",
                f"Server: Schlüssel bekannt, schickt die gespeicherte Antwort {status}",
            )
            v.wiederholt = True
            self._antworte(v, status)
        elif zustand == IN_ARBEIT:
            if self._fingerabdruck(self._in_arbeit[key].inhalt) != abdruck:
                self._ablehnen(v)
                return
            self._notiere("konflikt", v, "Server", "Server: Schlüssel noch in Arbeit, 409")
            self._antworte(v, 409)
        else:
            self._in_arbeit[key] = v
            self._beginne(v)

    def _ablehnen(self, v: _Versuch) -> None:
        self._notiere(
            "abgelehnt", v, "Server", "Server: derselbe Schlüssel mit anderem Inhalt, 422"
        )
        self._antworte(v, 422)

    def _beginne(self, v: _Versuch) -> None:
        self._laufend.append(v)
        self.zeit._eintragen(self.now + self.dauer, self._fertig, (v,))

    def _fertig(self, v: _Versuch) -> None:
        if v.abgebrochen:
            return
        self._zaehle()
        self._laufend.remove(v)
        z = v.client.zahlung
        key = v.client.schluessel
        db = self.db
        db.execute("BEGIN")
        cur = db.execute(
            "INSERT INTO buchungen (konto, betrag, zweck, zeit) VALUES (?, ?, ?, ?)",
            (z.konto, z.betrag, z.name, self.now),
        )
        v.gebucht = cur.lastrowid
        v.gebucht_zeit = self.now
        if self.modus != ATOMAR:
            db.execute("COMMIT")  # the charge stands on its own
        if v.nummer in z.absturz:
            if db.in_transaction:
                db.execute("ROLLBACK")
                v.gebucht = None
            self._absturz(v)
            return
        if self.modus == GETRENNT:
            db.execute("BEGIN")
        if key is not None:
            db.execute(
                "INSERT INTO schluessel (schluessel, fingerabdruck, status, antwort, zeit) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    key,
                    self._fingerabdruck(v.inhalt),
                    201,
                    json.dumps({"buchung": v.gebucht}),
                    self.now,
                ),
            )
        if db.in_transaction:
            db.execute("COMMIT")
        if key is not None:
            UEBERGAENGE.wechsel(IN_ARBEIT, FERTIG)
            del self._in_arbeit[key]
        self._notiere(
            "gebucht",
            v,
            "Server",
            f"Server belastet {z.konto} mit {z.betrag} € (Buchung {v.gebucht}), 201",
        )
        self._antworte(v, 201)

    def _absturz(self, v: _Versuch) -> None:
        self.abstuerze.append(self.now)
        geblieben = v.gebucht is not None
        folge = (
            "die Buchung bleibt, die Antwort ist nicht gespeichert"
            if geblieben
            else "die Transaktion ist zurückgerollt, nichts ist belastet"
        )
        self._notiere("absturz", v, "Server", f"Server stürzt bei Versuch {v.nummer} ab: {folge}")
        for laufend in [v, *self._laufend]:
            laufend.abgebrochen = True
            key = laufend.client.schluessel
            if key is not None and self._in_arbeit.get(key) is laufend:
                UEBERGAENGE.uebergang(IN_ARBEIT, ABSTURZ)
                del self._in_arbeit[key]
        self._laufend.clear()

    # --- looking at it ------------------------------------------------------------------------

    def _zahlung(self, name: str) -> _Zahlung:
        return nachschlagen(self._zahlungen, name, UnbekannteZahlung, "Die Zahlung", "Zahlungen")

    @property
    def zahlungen(self) -> list[str]:
        """Die Namen der Zahlungen, in der Reihenfolge, in der sie geplant wurden."""
        return list(self._zahlungen)

    @property
    def clients(self) -> list[str]:
        """Die Namen der Clients (eine Zahlung mit ``kopien=2``: ``z1·1``, ``z1·2``)."""
        return [c.name for c in self._clients]

    def schluessel(self, name: str) -> str | None:
        """Der Idempotenzschlüssel der Zahlung ``name`` (``None`` im Modus ``ohne``; mit
        ``schluessel_je_kopie=True`` der der ersten Kopie)."""
        return self._zahlung(name).schluessel

    def anzahl_buchungen(self, name: str | None = None) -> int:
        """Wie oft das Konto belastet wurde (für die Zahlung ``name`` oder insgesamt), aus der Datenbank."""
        if name is None:
            (n,) = self.db.execute("SELECT COUNT(*) FROM buchungen").fetchone()
        else:
            self._zahlung(name)
            (n,) = self.db.execute(
                "SELECT COUNT(*) FROM buchungen WHERE zweck = ?", (name,)
            ).fetchone()
        return int(n)

    def buchungen(self) -> list[tuple[int, str, int, str, int]]:
        """Die Tabelle ``buchungen``: ``(id, konto, betrag, zweck, zeit)``."""
        return list(self.db.execute("SELECT * FROM buchungen ORDER BY id"))

    def versuche(self, name: str) -> int:
        """Wie viele Anfragen für die Zahlung ``name`` gesendet wurden (alle Kopien)."""
        return self._zahlung(name).gesendet

    def ergebnis(self, name: str) -> list[int | None]:
        """Der Status, mit dem jeder Client der Zahlung endete (``None``: keiner, aufgegeben
        oder noch unterwegs)."""
        z = self._zahlung(name)
        return [c.ergebnis for c in self._clients if c.zahlung is z]

    def verlauf(self, name: str | None = None) -> list[HttpEreignis]:
        """Alle Ereignisse (oder die der Zahlung ``name``), in der Reihenfolge der Zeit."""
        if name is None:
            return list(self._verlauf)
        self._zahlung(name)
        return [e for e in self._verlauf if e.zahlung == name]

    def zeige(self, name: str | None = None) -> None:
        """Druckt den Verlauf, eine Zeile je Ereignis."""
        for e in self.verlauf(name):
            print(e)

    def bild(self) -> Bild:
        """Die Zeitleiste: eine Bahn je Client, eine für den Server."""
        return _bild.zeitleiste(self)

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        return (
            f"ZahlungsSim({MODI[self.modus]}, t={self.now}, "
            f"{len(self._zahlungen)} Zahlungen, {self.anzahl_buchungen()} Buchungen)"
        )
