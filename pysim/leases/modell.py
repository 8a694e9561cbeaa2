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

Die Simulation ist eine Front auf einem ``pysim.cluster.Cluster`` (``cluster``), wie
``pysim.raft.RaftSim``: Jeder Client ist ein Knoten (``pysim.leases.knoten.LeaseKnoten``, n1,
n2, … in der Reihenfolge von ``client``), der Sperrdienst der Dienst ``lease`` des Clusters
(``pysim.cluster.LeaseDienst`` mit ``ttl``, dessen Ablauf ein Termin ist), der Speicher ein
Dienst ``speicher``, der ``write`` mit Token an ``speicher.schreibe`` weitergibt. Zum Dienst
``lease`` und zurück brauchen Nachrichten 0 Ticks und kommen gleich nach dem Ereignis an, das
sie schickte (``Cluster(sofort=True)``); zum Speicher ``latenz`` Ticks, zurück 0. Die Front
schreibt mit, was Dienste und Knoten tun (``protokoll``, ``leases``, ``auftraege``).

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
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Protocol

from ..cluster import Cluster, LeaseDienst, Nachricht
from ..fehler import SimFehler, UngueltigeEingabe, aufzaehlung, pruefe_ganzzahl, pruefe_name
from ..svg import Bild
from ..uebergaenge import schlage_nach, wechsle
from ..zeit import AufDerZeit, Zeit
from .bild import zeitleiste
from .knoten import (
    ABGELAUFEN,
    AUFGEGEBEN,
    BEREIT,
    FERTIG,
    FREIGEGEBEN,
    GUELTIG,
    HAELT,
    SCHREIBT,
    UEBERGAENGE,
    Einstellung,
    LeaseKnoten,
)

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

#: So viele Ticks läuft eine Simulation höchstens (ein Schutz vor endlosen Läufen).
MAX_LAUF = 10_000

#: Every link's latency is fixed (0, or a client's ``latenz`` to the store): nothing is drawn.
_UNBENUTZT = random.Random(0)

#: The store's name on the cluster (a service speaking fence-kv's ``write`` with a token).
SPEICHER_NAME = "speicher"

#: One copy, arriving at once (``Cluster(sofort=True)``): every link but a write's.
_SOFORT = (0,)


class _SimKnoten(LeaseKnoten):
    """LeaseSim's node: ``LeaseKnoten`` writing to the store service ``speicher``; its
    settings and the front's watcher come in its ``speicher`` (``neuer_knoten(speicher=…)``).
    One class for every simulation (a class per simulation cost more than a run's events)."""

    SPEICHER = SPEICHER_NAME


_SimKnoten.__qualname__ = _SimKnoten.__name__ = "LeaseKnoten"


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


@dataclass(eq=False, repr=False)
class Client:
    """Ein Client, der einmal mit der Lease schreiben will. Entsteht über ``LeaseSim.client``.

    Die Einstellungen stehen hier; was er gerade ist (``zustand``, ``lease``, ``glaubt_bis``),
    liest die Ansicht aus seinem Knoten auf dem Cluster (``knoten``: seine ID, n1, n2, …)."""

    sim: LeaseSim
    name: str
    _: KW_ONLY
    start: int
    arbeit: int
    drift: int
    pausen: tuple[tuple[int, int], ...]
    prueft: bool
    latenz: int
    wiederholen: int
    wert: Any
    #: Was der Speicher zu seinem Schreibauftrag sagte (``None``: noch nichts).
    ergebnis: Schreibauftrag | None = field(default=None, init=False)
    knoten: str = field(default="", init=False)  # its node's ID, set once the node runs
    _gemeldet: bool = field(default=False, init=False)  # the log names its wait's first refusal

    def _objekt(self) -> LeaseKnoten:
        objekt = self.sim.cluster.objekt(self.knoten)
        assert isinstance(objekt, LeaseKnoten)
        return objekt

    @property
    def zustand(self) -> str:
        """``bereit``, ``hält``, ``schreibt``, ``fertig`` oder ``aufgegeben``."""
        return self._objekt().stand

    @property
    def lease(self) -> Lease | None:
        """Die Lease, die er bekam (``None``: noch keine)."""
        token = self._objekt().token
        return None if token is None else self.sim.leases[token - 1]

    @property
    def glaubt_bis(self) -> int | None:
        """Echte Zeit, zu der er aufhörte, mit seiner Lease zu handeln (``None``: noch nicht)."""
        return self._objekt().glaubt_bis

    def uhr(self) -> int:
        """Was die Uhr des Clients jetzt anzeigt (echte Zeit plus Drift)."""
        return self._objekt().lokale_uhr()

    def pausiert(self, t: int | None = None) -> bool:
        """Ist der Client zur echten Zeit ``t`` (ohne: jetzt) angehalten?"""
        t = self.sim.now if t is None else t
        return any(b <= t < b + d for b, d in self.pausen)

    def __repr__(self) -> str:
        return f"Client({self.name}: {self.zustand}, Uhr {self.uhr()}, echt t={self.sim.now})"


class _Sperrdienst(LeaseDienst):
    """The cluster's lock service with LeaseSim's ttl and expiry appointment, recording its
    grants (``Lease``, state rules from ``UEBERGAENGE``) and log lines for the front. A
    release gets no answer: the clients wait for none."""

    BESTAETIGT_FREIGABE = False

    def __init__(self, sim: LeaseSim) -> None:
        super().__init__(sim.cluster, sim.ttl, ablauf_als_termin=True)
        self.sim = sim

    def vergeben(self, wer: str, token: int, bis: int) -> None:
        sim = self.sim
        lease = Lease(token, sim._name[wer], sim.now, bis)
        sim.leases.append(lease)
        sim._merke(lease.client, f"erhält Lease #{token} (gültig bis t={bis})")

    def abgewiesen(self, wer: str, halter: str) -> None:
        sim = self.sim
        client = sim.clients[sim._name[wer]]
        if client._gemeldet:  # the repeated requests of one wait are not logged
            return
        client._gemeldet = True
        a = sim.leases[-1]
        sim._merke(
            client.name,
            f"fordert an: belegt ({a.client} hält #{a.token} bis t={a.ablauf}); "
            f"fragt alle {client.wiederholen} Ticks wieder",
        )

    def abgelaufen(self, wer: str, token: int) -> None:
        sim = self.sim
        lease = sim.leases[token - 1]
        lease.zustand = wechsle(UEBERGAENGE, lease.zustand, "ablaufen")
        lease.ende = sim.now
        sim._merke("Dienst", f"Lease #{lease.token} von {lease.client} läuft ab")

    def freigegeben(self, wer: str, token: object, galt: bool) -> None:
        sim = self.sim
        assert isinstance(token, int)
        lease = sim.leases[token - 1]
        neu = schlage_nach(UEBERGAENGE, lease.zustand, "freigeben")
        if neu is None:
            sim._merke(lease.client, f"gibt #{lease.token} frei (war schon abgelaufen)")
            return
        lease.zustand = neu
        lease.ende = sim.now
        sim._merke(lease.client, f"gibt #{lease.token} frei")


class _Speicherdienst:
    """The store as a service of the cluster: a ``write`` with a token goes to
    ``speicher.schreibe(von, wert, token)`` (the reader's object too); the reply is ``write_ok``
    or error 22. An error of ``schreibe`` leaves the run as it is (services are not sandboxed)."""

    def __init__(self, sim: LeaseSim) -> None:
        self.sim = sim
        sim.cluster.anmelden(SPEICHER_NAME, self.empfang)

    def empfang(self, nachricht: Nachricht) -> None:
        sim = self.sim
        client = sim.clients[sim._name[nachricht.src]]
        body = nachricht.body
        wert, token = body["value"], body["token"]
        antwort = sim.speicher.schreibe(client.name, wert, token)
        if not isinstance(antwort, bool):
            raise UngueltigeEingabe(
                "schreibe(von, wert, token) muss True (angenommen) oder False (abgelehnt) "
                f"zurückgeben, nicht {antwort!r}."
            )
        auftrag = Schreibauftrag(
            gesendet=sim.now - client.latenz,  # its link's one latency
            angekommen=sim.now,
            client=client.name,
            wert=wert,
            token=token,
            angenommen=antwort,
            lease_gueltig=sim.leases[token - 1].zustand == GUELTIG,
        )
        sim.auftraege.append(auftrag)
        client.ergebnis = auftrag
        urteil = "nimmt an" if antwort else "lehnt ab"
        sim._merke("Speicher", f"{urteil}: {wert!r} mit Token #{token}")
        sim.cluster.sende(
            SPEICHER_NAME,
            nachricht.src,
            {"type": "write_ok"}
            if antwort
            else {"type": "error", "code": 22, "text": f"Token {token} ist zu alt"},
            frisch=True,
        )


class _Aufsicht:
    """What the front hears from its nodes (``knoten.Aufsicht``): their log lines, written
    into the front's log under the client's name. It holds values only (the log, the names),
    nothing that leads back to the cluster."""

    def __init__(self, protokoll: list[LeaseEreignis], namen: dict[str, str]) -> None:
        self.protokoll, self.namen = protokoll, namen

    def notiere(self, zeit: int, knoten: str, text: str) -> None:
        self.protokoll.append(LeaseEreignis(zeit, self.namen[knoten], text))


class LeaseSim(AufDerZeit):
    """Ein Sperrdienst mit Leases, Clients und ein Speicher auf einer Uhr (``Zeit``).

    ``cluster``: der ``pysim.cluster.Cluster`` darunter, mit einem ``LeaseKnoten`` je Client
    (n1, n2, … in der Reihenfolge von ``client``) und den Diensten ``lease`` und ``speicher``.
    """

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
        self._name: dict[str, str] = {}  # node ID -> client name
        self._aufsicht = _Aufsicht(self.protokoll, self._name)
        self._zum_speicher: dict[str, tuple[int]] = {}  # node ID -> its write's latency
        #: Der Cluster, auf dem die Clients als Knoten laufen (``pysim.cluster.Cluster``).
        self.cluster = Cluster(
            _SimKnoten,
            0,
            latenz=(0, 0),
            zeit=self.zeit,
            netz_zufall=_UNBENUTZT,
            netz_leitung=self._leitung,
            max_ereignisse=2**62,
            code_der_leserin=False,
            sofort=True,
        )
        self._sperrdienst = _Sperrdienst(self)
        self._speicherdienst = _Speicherdienst(self)

    def _leitung(self, von: str, zu: str) -> tuple[int, ...]:
        """The cluster's ``netz_leitung``: a client's write takes its ``latenz`` ticks to the
        store; everything else (to and from the lock service, the store's answer) arrives at
        once. One copy, never lost."""
        return self._zum_speicher[von] if zu == SPEICHER_NAME else _SOFORT

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
        c.knoten = f"n{len(self.cluster.ids) + 1}"
        self._name[c.knoten] = name
        # its writes take ``latenz`` ticks to the store; the store's answer comes at once
        self._zum_speicher[c.knoten] = (latenz,)
        einstellung = Einstellung(
            c.start, c.arbeit, c.drift, c.pausen, c.prueft, c.wiederholen, c.wert
        )
        self.cluster.neuer_knoten(speicher={"einstellung": einstellung, "aufsicht": self._aufsicht})
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
            self.cluster.laufe(bis)
            return
        # the clock stops at the last event (the picture's "bei t=…")
        if not self.cluster.laufe_bis_ruhe(MAX_LAUF):
            raise SimFehler(f"Die Simulation läuft länger als {MAX_LAUF} Ticks; sie hält an.")

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
