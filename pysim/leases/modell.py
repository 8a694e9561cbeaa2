"""Leases und Fencing Tokens: ein Sperrdienst, Clients mit Pausen und eigenen Uhren, ein Speicher.

Eine Sperre zwischen Rechnern muss ablaufen, sonst hält ein abgestürzter Client sie für immer.
Sie ist darum eine Lease: gültig bis zu einer Zeit. So arbeitet die Simulation (``LeaseSim``),
alles auf einer simulierten Uhr (``pysim.zeit.Zeit``, lies einen Tick als eine Sekunde):

- Der Sperrdienst vergibt eine Lease für ``ttl`` Ticks, wenn keine gültige vergeben ist. Jede
  Vergabe bekommt einen Fencing Token: eine Zahl, die mit jeder Vergabe wächst (1, 2, 3, …).
  Er misst die Zeit mit der echten Uhr der Simulation.
- Ein Client fordert die Lease an (belegt: er fragt nach ``wiederholen`` Ticks wieder), arbeitet
  ``arbeit`` Ticks, prüft mit seiner eigenen Uhr, ob die Lease noch gilt (``prueft``), schickt
  einen Tick später seinen Schreibauftrag mit seinem Token an den Speicher (er kommt nach
  ``latenz`` Ticks an) und gibt die Lease danach frei. Sagt seine Uhr, die Lease sei abgelaufen,
  gibt er auf und schreibt nicht.
- Die Uhr eines Clients kann falsch gehen: ``drift`` Ticks je 1000 echte Ticks zu schnell
  (negativ: zu langsam), wie in ``pysim.uhren``.
- Pausen (``pausen``: Paare ``(beginn, dauer)`` in echter Zeit) halten einen Client an, wie eine
  Garbage Collection oder eine angehaltene VM: Was er in der Pause tun wollte, tut er danach.
  Die Pause kann zwischen Prüfung und Schreiben liegen.
- Der Speicher nimmt jeden Schreibauftrag an (``fencing=False``) oder prüft den Token
  (``fencing=True``): Ein Auftrag mit einem kleineren Token als dem größten, den er schon
  angenommen hat, wird abgelehnt. Ein eigener Speicher geht auch (``speicher=``): ein Objekt
  mit ``schreibe(von, wert, token)``, das ``True`` (angenommen) oder ``False`` gibt.

Alle Regeln, wie sich der Zustand eines Clients oder einer Lease ändern darf, stehen in
``UEBERGAENGE``.

Vereinfachungen: Der Sperrdienst ist ein einziger Rechner, der nie ausfällt, und seine Uhr geht
richtig. Anfragen an ihn kommen ohne Laufzeit an. Jeder Client will genau einmal schreiben.

Beispiel::

    sim = LeaseSim(ttl=10, fencing=False)
    sim.client("a", arbeit=4, pausen=[(5, 12)])
    sim.client("b", start=2)
    sim.lauf()
    sim.bild()
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ..fehler import SimFehler, UngueltigeEingabe, aufzaehlung, pruefe_ganzzahl, pruefe_name
from ..svg import Bild
from ..uebergaenge import schlage_nach, wechsle
from ..zeit import AufDerZeit, Termin, Zeit
from .bild import zeitleiste

#: What ``from pysim.leases import *`` and the package give (the module's public API).
__all__ = [
    "ABGELAUFEN",
    "AUFGEGEBEN",
    "BEREIT",
    "FERTIG",
    "FREIGEGEBEN",
    "GUELTIG",
    "HAELT",
    "MAX_LAUF",
    "SCHREIBT",
    "UEBERGAENGE",
    "Client",
    "Lease",
    "LeaseEreignis",
    "LeaseSim",
    "Schreibauftrag",
    "Speicher",
    "zufallssim",
]

# --- Zustände und die erlaubten Übergänge (die einzige Stelle mit Regeln) ---

#: Zustände eines Clients.
BEREIT = "bereit"  # will die Lease
HAELT = "hält"  # hat eine Lease bekommen und arbeitet
SCHREIBT = "schreibt"  # hat geprüft (oder nicht) und schickt den Schreibauftrag
FERTIG = "fertig"  # die Antwort des Speichers ist da
AUFGEGEBEN = "aufgegeben"  # seine Uhr sagte: Lease abgelaufen

#: Zustände einer Lease (beim Sperrdienst).
GUELTIG = "gültig"
ABGELAUFEN = "abgelaufen"
FREIGEGEBEN = "freigegeben"

#: (Zustand, Ereignis) -> neuer Zustand. ``None``: erlaubt, aber nichts ändert sich (eine
#: belegte Sperre, eine Freigabe, die zu spät kommt). Was fehlt, kann nicht passieren.
UEBERGAENGE: dict[tuple[str, str], str | None] = {
    # Client
    (BEREIT, "erhalten"): HAELT,
    (BEREIT, "belegt"): None,
    (HAELT, "pruefung_ok"): SCHREIBT,
    (HAELT, "pruefung_abgelaufen"): AUFGEGEBEN,
    (HAELT, "ohne_pruefung"): SCHREIBT,
    (SCHREIBT, "angenommen"): FERTIG,
    (SCHREIBT, "abgelehnt"): FERTIG,
    # Lease
    (GUELTIG, "ablaufen"): ABGELAUFEN,
    (GUELTIG, "freigeben"): FREIGEGEBEN,
    (ABGELAUFEN, "freigeben"): None,  # too late: the service already let it go
}

#: So viele Ticks läuft eine Simulation höchstens (ein Schutz vor endlosen Läufen).
MAX_LAUF = 10_000


@dataclass(eq=False)
class Lease:
    """Eine Vergabe des Sperrdienstes."""

    token: int
    client: str
    vergeben: int  # echte Zeit
    ablauf: int  # echte Zeit, zu der der Dienst sie ablaufen lässt
    zustand: str = GUELTIG
    ende: int | None = None  # wann sie abgelaufen ist oder freigegeben wurde

    def __repr__(self) -> str:
        ende = f", {self.zustand} t={self.ende}" if self.ende is not None else ", gültig"
        return f"Lease(#{self.token} an {self.client}, t={self.vergeben} bis t={self.ablauf}{ende})"


@dataclass(frozen=True)
class Schreibauftrag:
    """Ein Schreibauftrag, wie er beim Speicher ankam, und was der Speicher sagte."""

    gesendet: int
    angekommen: int
    client: str
    wert: Any
    token: int
    angenommen: bool
    lease_gueltig: bool  # galt die Lease des Clients beim Sperrdienst noch, als er ankam?

    def __repr__(self) -> str:
        urteil = "angenommen" if self.angenommen else "abgelehnt"
        return (
            f"Schreibauftrag({self.client} #{self.token} {self.wert!r}, "
            f"gesendet t={self.gesendet}, an t={self.angekommen}: {urteil})"
        )


@dataclass(frozen=True)
class LeaseEreignis:
    """Eine Zeile des Protokolls."""

    zeit: int
    wer: str
    text: str

    def __str__(self) -> str:
        return f"t={self.zeit:<3} {self.wer:<8} {self.text}"


class SpeicherArt(Protocol):
    def schreibe(self, von: str, wert: Any, token: int) -> bool: ...


class Speicher:
    """Der Speicher: nimmt Schreibaufträge an, mit ``fencing=True`` nur mit aktuellem Token."""

    def __init__(self, fencing: bool = False) -> None:
        if not isinstance(fencing, bool):
            raise UngueltigeEingabe(f"fencing ist True oder False, nicht {fencing!r}.")
        self.fencing = fencing
        self.groesster_token = 0
        self.daten: list[Any] = []

    def schreibe(self, von: str, wert: Any, token: int) -> bool:
        """Nimmt ``wert`` an (``True``) oder lehnt ab (``False``, nur mit Fencing)."""
        if self.fencing and token < self.groesster_token:
            return False
        self.groesster_token = max(self.groesster_token, token)
        self.daten.append(wert)
        return True

    def __repr__(self) -> str:
        art = "mit Fencing" if self.fencing else "ohne Fencing"
        return f"Speicher({art}, größter Token {self.groesster_token}, {len(self.daten)} Werte)"


def _pruefe_pausen(pausen: object) -> tuple[tuple[int, int], ...]:
    fehler = UngueltigeEingabe(
        "pausen ist eine Liste von Paaren (beginn, dauer) ganzer Zahlen mit beginn >= 0 und "
        f"dauer >= 1, z. B. [(5, 12)], nicht {pausen!r}."
    )
    if not isinstance(pausen, list | tuple):
        raise fehler
    ergebnis = []
    for p in pausen:
        if (
            not isinstance(p, list | tuple)
            or len(p) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in p)
            or p[0] < 0
            or p[1] < 1
        ):
            raise fehler
        ergebnis.append((p[0], p[1]))
    return tuple(sorted(ergebnis))


class Client:
    """Ein Client, der einmal mit der Lease schreiben will. Entsteht über ``LeaseSim.client``."""

    def __init__(
        self,
        sim: LeaseSim,
        name: str,
        *,
        start: int,
        arbeit: int,
        drift: int,
        pausen: tuple[tuple[int, int], ...],
        prueft: bool,
        latenz: int,
        wiederholen: int,
        wert: Any,
    ) -> None:
        self.sim = sim
        self.name = name
        self.start = start
        self.arbeit = arbeit
        self.drift = drift
        self.pausen = pausen
        self.prueft = prueft
        self.latenz = latenz
        self.wiederholen = wiederholen
        self.wert = wert
        self.zustand = BEREIT
        self.lease: Lease | None = None
        self._erhalten_uhr = 0  # what its own clock showed when it got the lease
        self.ergebnis: Schreibauftrag | None = None
        self.glaubt_bis: int | None = None  # real time it stopped acting on its lease
        self._wartet = False  # refused at least once since its last request was granted

    def uhr(self) -> int:
        """Was die Uhr des Clients jetzt anzeigt (echte Zeit plus Drift)."""
        t = self.sim.now
        return t + (t * self.drift) // 1000

    def pausiert(self, t: int | None = None) -> bool:
        """Ist der Client zur echten Zeit ``t`` (ohne: jetzt) angehalten?"""
        t = self.sim.now if t is None else t
        return any(b <= t < b + d for b, d in self.pausen)

    def _nach_pause(self, t: int) -> int:
        """The first tick from ``t`` on at which the client is not paused."""
        weiter = True
        while weiter:
            weiter = False
            for b, d in self.pausen:
                if b <= t < b + d:
                    t = b + d
                    weiter = True
        return t

    def _plane(self, in_ticks: int, schritt: Any) -> None:
        ziel = self._nach_pause(self.sim.now + in_ticks)
        self.sim.zeit._eintragen(ziel, schritt, ())

    def _wechsel(self, ereignis: str) -> None:
        neu = schlage_nach(UEBERGAENGE, self.zustand, ereignis)
        if neu is not None:
            self.zustand = neu

    # --- the client's steps, each scheduled on the shared clock ---

    def _anfordern(self) -> None:
        lease = self.sim._vergib(self, melden=not self._wartet)
        if lease is None:
            self._wartet = True
            self._wechsel("belegt")
            self._plane(self.wiederholen, self._anfordern)
            return
        self._wechsel("erhalten")
        self.lease = lease
        self._erhalten_uhr = self.uhr()
        self._plane(self.arbeit, self._pruefen)

    def _pruefen(self) -> None:
        assert self.lease is not None
        if not self.prueft:
            self._wechsel("ohne_pruefung")
            self.sim._merke(self.name, "schreibt, ohne die Lease zu prüfen")
            self._plane(1, self._senden)
            return
        vergangen = self.uhr() - self._erhalten_uhr
        if vergangen >= self.sim.ttl:
            self._wechsel("pruefung_abgelaufen")
            self.glaubt_bis = self.sim.now
            self.sim._merke(
                self.name,
                f"prüft: Uhr sagt {vergangen} Ticks seit der Lease (ttl {self.sim.ttl}), "
                "abgelaufen; gibt auf",
            )
            return
        self._wechsel("pruefung_ok")
        self.sim._merke(
            self.name,
            f"prüft: Uhr sagt {vergangen} Ticks seit der Lease (ttl {self.sim.ttl}), noch gültig",
        )
        self._plane(1, self._senden)

    def _senden(self) -> None:
        assert self.lease is not None
        self.glaubt_bis = self.sim.now
        gesendet = self.sim.now
        self.sim._merke(self.name, f"schickt {self.wert!r} mit Token #{self.lease.token}")
        self.sim.zeit._eintragen(gesendet + self.latenz, self._ankunft, (gesendet,))

    def _ankunft(self, gesendet: int) -> None:
        assert self.lease is not None
        auftrag = self.sim._schreibe(self, gesendet)
        self.ergebnis = auftrag
        self._wechsel("angenommen" if auftrag.angenommen else "abgelehnt")
        self.sim._freigeben(self.lease)

    def __repr__(self) -> str:
        return f"Client({self.name}: {self.zustand}, Uhr {self.uhr()}, echt t={self.sim.now})"


class LeaseSim(AufDerZeit):
    """Ein Sperrdienst mit Leases, Clients und ein Speicher auf einer Uhr (``Zeit``)."""

    def __init__(
        self,
        ttl: int = 10,
        fencing: bool = False,
        *,
        speicher: SpeicherArt | None = None,
        zeit: Zeit | None = None,
    ) -> None:
        self.ttl = pruefe_ganzzahl(ttl, "Die Dauer einer Lease (ttl)", 1)
        if speicher is None:
            speicher = Speicher(fencing)
        elif not callable(getattr(speicher, "schreibe", None)):
            raise UngueltigeEingabe(
                "speicher braucht eine Methode schreibe(von, wert, token), die True oder False "
                f"gibt; {speicher!r} hat keine."
            )
        self.speicher = speicher
        self.zeit = zeit if zeit is not None else Zeit()
        self.clients: dict[str, Client] = {}
        self.leases: list[Lease] = []
        self.auftraege: list[Schreibauftrag] = []
        self.protokoll: list[LeaseEreignis] = []
        self._aktuell: Lease | None = None
        self._ablauf: Termin | None = None

    @property
    def fencing(self) -> bool:
        """Prüft der Speicher Tokens? (Ein eigener Speicher sagt es mit ``fencing``.)"""
        return bool(getattr(self.speicher, "fencing", False))

    def client(
        self,
        name: str,
        *,
        start: int = 0,
        arbeit: int = 3,
        drift: int = 0,
        pausen: Iterable[tuple[int, int]] = (),
        prueft: bool = True,
        latenz: int = 1,
        wiederholen: int = 2,
        wert: Any = None,
    ) -> Client:
        """Ein neuer Client, der ab ``start`` (echte Zeit) die Lease anfordert."""
        pruefe_name(name, "Der Name eines Clients")
        if name in self.clients:
            raise UngueltigeEingabe(
                f"Einen Client „{name}“ gibt es schon. Vorhandene Clients: "
                f"{aufzaehlung(self.clients)}."
            )
        pruefe_ganzzahl(start, "start", self.now)
        pruefe_ganzzahl(arbeit, "arbeit", 0)
        pruefe_ganzzahl(latenz, "latenz", 1)
        pruefe_ganzzahl(wiederholen, "wiederholen", 1)
        pruefe_ganzzahl(drift, "drift")
        if not -900 <= drift <= 900:
            raise UngueltigeEingabe(
                f"drift liegt zwischen -900 und 900 (Ticks je 1000 echte Ticks), nicht {drift}."
            )
        if not isinstance(prueft, bool):
            raise UngueltigeEingabe(f"prueft ist True oder False, nicht {prueft!r}.")
        c = Client(
            self,
            name,
            start=start,
            arbeit=arbeit,
            drift=drift,
            pausen=_pruefe_pausen(list(pausen) if not isinstance(pausen, list) else pausen),
            prueft=prueft,
            latenz=latenz,
            wiederholen=wiederholen,
            wert=f"{name} schreibt" if wert is None else wert,
        )
        self.clients[name] = c
        self.zeit._eintragen(c._nach_pause(start), c._anfordern, ())
        return c

    def __getitem__(self, name: str) -> Client:
        try:
            return self.clients[name]
        except KeyError:
            raise SimFehler(
                f"Einen Client „{name}“ gibt es nicht. Vorhandene Clients: "
                f"{aufzaehlung(self.clients)}."
            ) from None

    def lauf(self, bis: int | None = None) -> None:
        """Lässt die Zeit laufen, bis nichts mehr geschieht (oder bis Tick ``bis``)."""
        if bis is not None:
            pruefe_ganzzahl(bis, "bis", self.now)
            self.zeit.run(until=bis)
            return
        while self.zeit.peek() is not None:
            if (self.zeit.peek() or 0) > MAX_LAUF:
                raise SimFehler(f"Die Simulation läuft länger als {MAX_LAUF} Ticks; sie hält an.")
            self.zeit.step()

    # --- the lock service ---

    def _vergib(self, client: Client, melden: bool = True) -> Lease | None:
        jetzt = self.now
        if self._aktuell is not None and self._aktuell.zustand == GUELTIG:
            a = self._aktuell
            if melden:  # the repeated requests of one wait are not logged
                self._merke(
                    client.name,
                    f"fordert an: belegt ({a.client} hält #{a.token} bis t={a.ablauf}); "
                    f"fragt alle {client.wiederholen} Ticks wieder",
                )
            return None
        lease = Lease(len(self.leases) + 1, client.name, jetzt, jetzt + self.ttl)
        self.leases.append(lease)
        self._aktuell = lease
        self._ablauf = self.zeit._eintragen(lease.ablauf, self._laeuft_ab, (lease,))
        self._merke(client.name, f"erhält Lease #{lease.token} (gültig bis t={lease.ablauf})")
        return lease

    def _laeuft_ab(self, lease: Lease) -> None:
        lease.zustand = wechsle(UEBERGAENGE, lease.zustand, "ablaufen")
        lease.ende = self.now
        self._merke("Dienst", f"Lease #{lease.token} von {lease.client} läuft ab")

    def _freigeben(self, lease: Lease) -> None:
        neu = schlage_nach(UEBERGAENGE, lease.zustand, "freigeben")
        if neu is None:
            self._merke(lease.client, f"gibt #{lease.token} frei (war schon abgelaufen)")
            return
        lease.zustand = neu
        lease.ende = self.now
        if self._ablauf is not None:
            self._ablauf.absagen()
        self._merke(lease.client, f"gibt #{lease.token} frei")

    # --- the storage ---

    def _schreibe(self, client: Client, gesendet: int) -> Schreibauftrag:
        lease = client.lease
        assert lease is not None
        antwort = self.speicher.schreibe(client.name, client.wert, lease.token)
        if not isinstance(antwort, bool):
            raise UngueltigeEingabe(
                "schreibe(von, wert, token) muss True (angenommen) oder False (abgelehnt) "
                f"zurückgeben, nicht {antwort!r}."
            )
        auftrag = Schreibauftrag(
            gesendet=gesendet,
            angekommen=self.now,
            client=client.name,
            wert=client.wert,
            token=lease.token,
            angenommen=antwort,
            lease_gueltig=lease.zustand == GUELTIG,
        )
        self.auftraege.append(auftrag)
        urteil = "nimmt an" if antwort else "lehnt ab"
        self._merke("Speicher", f"{urteil}: {client.wert!r} mit Token #{lease.token}")
        return auftrag

    def _merke(self, wer: str, text: str) -> None:
        self.protokoll.append(LeaseEreignis(self.now, wer, text))

    # --- what a reader looks at ---

    def angenommen(self) -> list[Schreibauftrag]:
        """Die Schreibaufträge, die der Speicher angenommen hat, in ihrer Reihenfolge."""
        return [a for a in self.auftraege if a.angenommen]

    def veraltet_angenommen(self) -> list[Schreibauftrag]:
        """Angenommene Aufträge, deren Lease beim Ankommen nicht mehr galt."""
        return [a for a in self.auftraege if a.angenommen and not a.lease_gueltig]

    def zeige_protokoll(self) -> None:
        """Druckt das Protokoll, eine Zeile je Ereignis."""
        for e in self.protokoll:
            print(e)

    def bild(self) -> Bild:
        """Die Zeitleiste: je Client Lease, Pausen und Schreibaufträge."""
        return zeitleiste(self)

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        art = "mit Fencing" if self.fencing else "ohne Fencing"
        return (
            f"LeaseSim(t={self.now}, ttl {self.ttl}, {art}, {len(self.clients)} Clients, "
            f"{len(self.leases)} Leases, {len(self.angenommen())} von {len(self.auftraege)} "
            "Schreibaufträgen angenommen)"
        )


def zufallssim(
    seed: int,
    fencing: bool = False,
    *,
    clients: int = 3,
    ttl: int = 10,
    speicher: SpeicherArt | None = None,
) -> LeaseSim:
    """Eine Simulation mit zufälligen Starts, Pausen und Drifts (aus ``seed``), schon gelaufen."""
    pruefe_ganzzahl(seed, "seed", 0)
    pruefe_ganzzahl(clients, "clients", 1)
    rng = random.Random(seed)
    sim = LeaseSim(ttl=ttl, fencing=fencing, speicher=speicher)
    for i in range(clients):
        pausen = [
            (rng.randrange(0, 4 * ttl), rng.randrange(1, 2 * ttl))
            for _ in range(rng.randrange(0, 3))
        ]
        sim.client(
            chr(ord("a") + i),
            start=rng.randrange(0, 2 * ttl),
            arbeit=rng.randrange(0, ttl),
            drift=rng.choice([0, 0, -100, -300, 200]),
            pausen=pausen,
            latenz=rng.randrange(1, 4),
        )
    sim.lauf()
    return sim
