"""Sagas: ein Geschäftsablauf über mehrere Dienste, ohne gemeinsame Transaktion.

Eine Bestellung braucht Zahlung, Lager, Versand und eine Mail, jeder Teil in einem eigenen
Dienst mit eigener Datenbank. Eine Transaktion über alle gibt es nicht. Eine Saga ist
stattdessen eine Folge lokaler Transaktionen (``Schritt``); jeder Schritt vor dem Pivot hat eine
Kompensation, eine neue Aktion, die seine Wirkung ausgleicht (erstatten statt abbuchen).

So arbeitet die Simulation (``SagaSim``), alles auf einer simulierten Uhr (``Zeit``):

- Der Orchestrator schickt Befehle an die Dienste, einen Schritt nach dem anderen, und wartet
  auf die Antwort. Sein Zustand (ein Dict je Saga, ``db``) und jeder Befehl, den er schicken
  will (``outbox``), landen zusammen in seiner Datenbank; ein Weiterleiter (Relay) schickt die
  Befehle danach ab. Stürzt er ab, liest er beim Neustart seinen Zustand und macht weiter.
- Jeder Befehl trägt einen Idempotenzschlüssel (``saga/dienst/aktion``). Ein Dienst mit
  ``dedupe=True`` merkt sich die Antwort je Schlüssel und führt einen Befehl nie zweimal aus.
- Kommt keine Antwort innerhalb von ``timeout`` Ticks, schickt der Orchestrator denselben Befehl
  mit demselben Schlüssel noch einmal.
- Lehnt ein Dienst einen Schritt ab (``Abgelehnt``), kompensiert der Orchestrator die erledigten
  Schritte in umgekehrter Reihenfolge, einen nach dem anderen.
- Nach dem Pivot (dem ersten Schritt ohne Kompensation) gibt es kein Zurück: Die Schritte danach
  dürfen nicht endgültig scheitern, sie werden wiederholt, bis sie gelingen.

Alle Regeln, wie sich der Zustand eines Schritts ändern darf, stehen in ``UEBERGAENGE``; der
Zustand der Saga folgt aus den Zuständen ihrer Schritte (``saga_zustand``), und was der
Orchestrator als Nächstes schickt, entscheidet ``naechster_befehl``.

Störungen (``stoere``), jede wirkt einmal: ``ablehnen`` (der Dienst lehnt ab), ``absturz`` (der
Dienst führt den Schritt aus und stürzt ab, bevor er antwortet), ``doppelt`` (der Befehl kommt
zweimal an), ``verspaetet`` (die Antwort kommt erst nach dem Timeout) und ``orchestrator`` (der
Orchestrator stürzt ab, gleich nachdem er den Schritt als erledigt gespeichert hat).

Vereinfachungen: Ein Tick Laufzeit je Nachricht, keine verlorenen Nachrichten (die Kanäle
verhalten sich wie dauerhafte Queues: was an einen abgestürzten Dienst geht, wartet), Dienste
antworten sofort.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..fehler import SimFehler, UngueltigeEingabe, aufzaehlung, pruefe_ganzzahl, pruefe_name
from ..svg import Bild
from ..uebergaenge import schlage_nach
from ..zeit import AufDerZeit, Termin, Zeit
from .bild import zeitleiste

#: What ``from pysim.saga import *`` and the package give (the module's public API).
__all__ = [
    "ABGELEHNT",
    "ABGESCHLOSSEN",
    "ABLEHNUNG",
    "ARTEN",
    "ENDZUSTAENDE",
    "ERFOLG",
    "ERLEDIGT",
    "GESENDET",
    "KOMPENSATION_ERFOLG",
    "KOMPENSIEREN",
    "KOMPENSIERT",
    "LAEUFT",
    "LATENZ",
    "MAX_LAUF",
    "OFFEN",
    "PREIS",
    "SENDEN",
    "UEBERGAENGE",
    "WARTET",
    "WIRD_KOMPENSIERT",
    "Abgelehnt",
    "Aktion",
    "Dienst",
    "OrchestratorAusgefallen",
    "Saga",
    "SagaEreignis",
    "SagaSim",
    "Schritt",
    "Stoerung",
    "UnbekannteSaga",
    "bestellsaga",
    "naechster_befehl",
    "saga_zustand",
    "shop_dienste",
    "uebergang",
]


# --- Zustände eines Schritts und die erlaubten Übergänge (die einzige Stelle mit Regeln) ---

OFFEN = "offen"
GESENDET = "gesendet"  # Befehl unterwegs, Antwort steht aus
ERLEDIGT = "erledigt"
ABGELEHNT = "abgelehnt"
WIRD_KOMPENSIERT = "wird kompensiert"
KOMPENSIERT = "kompensiert"

#: Was der Orchestrator tut oder hört.
SENDEN = "senden"
ERFOLG = "erfolg"
ABLEHNUNG = "ablehnung"
KOMPENSIEREN = "kompensieren"
KOMPENSATION_ERFOLG = "kompensation_erfolg"

#: (Zustand eines Schritts, Ereignis) -> neuer Zustand. ``None``: erlaubt, aber nichts ändert
#: sich (eine doppelte oder verspätete Antwort; die erste endgültige Antwort gilt). Was fehlt,
#: kann nicht passieren: ``uebergang`` meldet es als internen Fehler.
UEBERGAENGE: dict[tuple[str, str], str | None] = {
    (OFFEN, SENDEN): GESENDET,
    (GESENDET, ERFOLG): ERLEDIGT,
    (GESENDET, ABLEHNUNG): ABGELEHNT,
    (ERLEDIGT, ERFOLG): None,
    (ERLEDIGT, ABLEHNUNG): None,
    (ABGELEHNT, ABLEHNUNG): None,
    (ABGELEHNT, ERFOLG): None,
    (ERLEDIGT, KOMPENSIEREN): WIRD_KOMPENSIERT,
    (WIRD_KOMPENSIERT, KOMPENSATION_ERFOLG): KOMPENSIERT,
    (WIRD_KOMPENSIERT, ERFOLG): None,  # a late answer to the action itself
    (KOMPENSIERT, KOMPENSATION_ERFOLG): None,
    (KOMPENSIERT, ERFOLG): None,
}

#: Zustände, in denen der Orchestrator auf eine Antwort wartet (und nach dem Timeout erneut
#: sendet): welcher Befehl das war.
WARTET: dict[str, str] = {GESENDET: "aktion", WIRD_KOMPENSIERT: "kompensation"}

# --- Zustände einer Saga: folgen aus den Schritten ---

LAEUFT = "läuft"
ABGESCHLOSSEN = "abgeschlossen"
# WIRD_KOMPENSIERT und KOMPENSIERT wie bei einem Schritt
ENDZUSTAENDE = (ABGESCHLOSSEN, KOMPENSIERT)


def uebergang(zustand: str, ereignis: str) -> str | None:
    """Der neue Zustand eines Schritts nach ``ereignis`` laut ``UEBERGAENGE``."""
    return schlage_nach(UEBERGAENGE, zustand, ereignis)


def saga_zustand(zustaende: list[str]) -> str:
    """Der Zustand der Saga aus den Zuständen ihrer Schritte."""
    if all(z == ERLEDIGT for z in zustaende):
        return ABGESCHLOSSEN
    if ABGELEHNT in zustaende:
        if ERLEDIGT in zustaende or WIRD_KOMPENSIERT in zustaende:
            return WIRD_KOMPENSIERT
        return KOMPENSIERT
    return LAEUFT


def naechster_befehl(zustaende: list[str]) -> tuple[int, str] | None:
    """(Schritt, ``SENDEN`` oder ``KOMPENSIEREN``), oder ``None``: warten oder fertig.

    Vorwärts der erste offene Schritt; nach einer Ablehnung rückwärts der letzte erledigte.
    Immer nur ein Befehl auf einmal.
    """
    if any(z in WARTET for z in zustaende):
        return None
    if ABGELEHNT in zustaende:
        erledigt = [i for i, z in enumerate(zustaende) if z == ERLEDIGT]
        return (erledigt[-1], KOMPENSIEREN) if erledigt else None
    if OFFEN in zustaende:
        return zustaende.index(OFFEN), SENDEN
    return None


# --- Fehler ---


class Abgelehnt(Exception):
    """Ein Dienst lehnt einen Schritt ab (eine fachliche Antwort, kein Absturz).

    Eine Aktion eines Dienstes wirft sie, etwa ``raise Abgelehnt("ausverkauft")``. Ihre lokale
    Transaktion ist dann nicht passiert; die Saga kompensiert, was schon erledigt ist.
    """


class UnbekannteSaga(SimFehler, LookupError):
    """Eine Saga mit diesem Namen wurde nie gestartet."""


class OrchestratorAusgefallen(SimFehler):
    """Der Orchestrator ist abgestürzt und nimmt nichts an, bis er neu startet."""


# --- Die Definition ---

#: Eine Aktion eines Dienstes: ändert ``stand`` (seine Datenbank) für die Saga ``saga``.
Aktion = Callable[[dict[str, Any], str], None]


@dataclass(frozen=True)
class Schritt:
    """Ein Schritt der Saga: welcher Dienst was tut und wie man es ausgleicht.

    ``kompensation=None``: nicht kompensierbar. Der erste solche Schritt ist der Pivot; alle
    Schritte danach müssen wiederholbar sein (sie dürfen nicht endgültig scheitern).
    """

    dienst: str
    aktion: str
    kompensation: str | None = None


class Saga:
    """Die Schritte einer Saga, der Reihe nach. Kompensierbare Schritte stehen vorn."""

    def __init__(self, schritte: Iterable[Schritt]) -> None:
        liste = list(schritte)
        if not liste or not all(isinstance(s, Schritt) for s in liste):
            raise UngueltigeEingabe("Eine Saga braucht mindestens einen Schritt (Schritt(...)).")
        namen = [s.dienst for s in liste]
        for name in namen:
            pruefe_name(name, "Der Name eines Dienstes")
        doppelt = sorted({n for n in namen if namen.count(n) > 1})
        if doppelt:
            raise UngueltigeEingabe(
                f"Jeder Dienst darf nur einen Schritt haben; doppelt: {aufzaehlung(doppelt)}."
            )
        pivot = next((i for i, s in enumerate(liste) if s.kompensation is None), None)
        if pivot is not None:
            spaeter = [s.dienst for s in liste[pivot + 1 :] if s.kompensation is not None]
            if spaeter:
                raise UngueltigeEingabe(
                    f"Nach dem Pivot „{liste[pivot].dienst}“ kann nichts mehr kompensiert "
                    f"werden; {aufzaehlung(spaeter)} steht dahinter. Stell kompensierbare "
                    "Schritte nach vorn."
                )
        self.schritte: tuple[Schritt, ...] = tuple(liste)
        #: Der Index des Pivots (erster Schritt ohne Kompensation) oder ``None``.
        self.pivot = pivot

    @property
    def namen(self) -> list[str]:
        return [s.dienst for s in self.schritte]

    def index(self, dienst: str) -> int:
        """Der Index des Schritts von ``dienst``; ``UngueltigeEingabe``, wenn es ihn nicht gibt."""
        if dienst not in self.namen:
            raise UngueltigeEingabe(
                f"Einen Schritt „{dienst}“ hat diese Saga nicht. Schritte: "
                f"{aufzaehlung(self.namen)}."
            )
        return self.namen.index(dienst)

    def __repr__(self) -> str:
        teile = [
            s.dienst + ("" if s.kompensation else " (Pivot)" if i == self.pivot else " (wdh.)")
            for i, s in enumerate(self.schritte)
        ]
        return "Saga(" + " → ".join(teile) + ")"


class Dienst:
    """Ein Dienst mit eigener Datenbank (``stand``) und Aktionen nach Namen.

    ``dedupe=True``: Der Dienst speichert die Antwort je Idempotenzschlüssel zusammen mit der
    Wirkung und beantwortet einen doppelten Befehl aus diesem Speicher, ohne die Aktion noch
    einmal auszuführen. ``ausfuehrungen`` zählt, wie oft eine Aktion je Schlüssel wirklich lief.
    """

    def __init__(
        self,
        name: str,
        aktionen: Mapping[str, Aktion],
        stand: dict[str, Any] | None = None,
        dedupe: bool = True,
    ) -> None:
        self.name = pruefe_name(name, "Der Name eines Dienstes")
        for aktion, funktion in aktionen.items():
            if not callable(funktion):
                raise UngueltigeEingabe(f"Die Aktion „{aktion}“ von {name} ist keine Funktion.")
        self.aktionen = dict(aktionen)
        self.stand: dict[str, Any] = stand if stand is not None else {}
        self.dedupe = dedupe
        self.antworten: dict[str, str] = {}
        self.ausfuehrungen: dict[str, int] = {}
        #: Bis zu diesem Tick ist der Dienst abgestürzt (``None``: er läuft).
        self.zurueck_ab: int | None = None

    def __repr__(self) -> str:
        return f"Dienst({self.name}, stand={self.stand!r})"


# --- Die Dienste des Shops ---

PREIS = 30


def _abbuchen(stand: dict[str, Any], saga: str) -> None:
    if stand["kunde"] < PREIS:
        raise Abgelehnt("Konto nicht gedeckt")
    stand["kunde"] -= PREIS


def _erstatten(stand: dict[str, Any], saga: str) -> None:
    stand["kunde"] += PREIS


def _reservieren(stand: dict[str, Any], saga: str) -> None:
    if stand["jacken"] < 1:
        raise Abgelehnt("ausverkauft")
    stand["jacken"] -= 1


def _freigeben(stand: dict[str, Any], saga: str) -> None:
    stand["jacken"] += 1


def _beauftragen(stand: dict[str, Any], saga: str) -> None:
    stand["auftraege"] += 1


def _senden(stand: dict[str, Any], saga: str) -> None:
    stand["mails"] += 1


def bestellsaga() -> Saga:
    """Die Bestellung des Shops: abbuchen, reservieren, Versand (Pivot), Mail (wiederholbar)."""
    return Saga(
        [
            Schritt("zahlung", "abbuchen", "erstatten"),
            Schritt("lager", "reservieren", "freigeben"),
            Schritt("versand", "beauftragen"),
            Schritt("mail", "senden"),
        ]
    )


def shop_dienste(kunde: int = 100, jacken: int = 3, dedupe: bool = True) -> list[Dienst]:
    """Die vier Dienste der Bestellung mit ihren Anfangsständen."""
    return [
        Dienst(
            "zahlung", {"abbuchen": _abbuchen, "erstatten": _erstatten}, {"kunde": kunde}, dedupe
        ),
        Dienst(
            "lager",
            {"reservieren": _reservieren, "freigeben": _freigeben},
            {"jacken": jacken},
            dedupe,
        ),
        Dienst("versand", {"beauftragen": _beauftragen}, {"auftraege": 0}, dedupe),
        Dienst("mail", {"senden": _senden}, {"mails": 0}, dedupe),
    ]


# --- Störungen ---

ARTEN = ("ablehnen", "absturz", "doppelt", "verspaetet", "orchestrator")


@dataclass
class Stoerung:
    """Eine Störung, die einmal wirkt: beim nächsten passenden Befehl."""

    art: str
    schritt: int
    kompensation: bool = False
    saga: str | None = None
    verbraucht: bool = False

    def passt(self, saga: str, schritt: int, kompensation: bool) -> bool:
        return (
            not self.verbraucht
            and self.schritt == schritt
            and self.kompensation == kompensation
            and self.saga in (None, saga)
        )


@dataclass(frozen=True)
class SagaEreignis:
    """Eine Zeile im Verlauf: was wann geschah (für Konsole und Bild)."""

    zeit: int
    saga: str | None
    schritt: int | None
    art: str
    text: str

    def __str__(self) -> str:
        return f"t={self.zeit}: {self.text}"


@dataclass(frozen=True)
class _Befehl:
    saga: str
    schritt: int
    kompensation: bool
    schluessel: str


@dataclass(frozen=True)
class _Antwort:
    saga: str
    schritt: int
    ereignis: str


#: Laufzeit einer Nachricht in Ticks (hin oder zurück).
LATENZ = 1
#: Ohne Ende läuft ``run`` höchstens so viele Ticks (Schutz vor Endlosschleifen).
MAX_LAUF = 1000


class SagaSim(AufDerZeit):
    """Orchestrierte Sagas über Dienste, mit Störungen, auf einer simulierten Uhr.

    ``SagaSim()`` ist der Shop: ``bestellsaga()`` über ``shop_dienste()``. ``timeout``: so viele
    Ticks wartet der Orchestrator auf eine Antwort, bevor er erneut sendet; ``ausfall``: so lange
    bleibt ein abgestürzter Dienst (und mit ``neustart=True`` der Orchestrator) weg.
    """

    def __init__(
        self,
        saga: Saga | None = None,
        dienste: Iterable[Dienst] | None = None,
        timeout: int = 3,
        ausfall: int = 3,
        neustart: bool = True,
    ) -> None:
        self.saga = saga if saga is not None else bestellsaga()
        liste = list(dienste) if dienste is not None else shop_dienste()
        self.dienste: dict[str, Dienst] = {d.name: d for d in liste}
        for schritt in self.saga.schritte:
            dienst = self.dienste.get(schritt.dienst)
            if dienst is None:
                raise UngueltigeEingabe(f"Der Dienst „{schritt.dienst}“ fehlt in dienste.")
            for aktion in (schritt.aktion, schritt.kompensation):
                if aktion is not None and aktion not in dienst.aktionen:
                    raise UngueltigeEingabe(
                        f"Der Dienst „{dienst.name}“ hat keine Aktion „{aktion}“."
                    )
        self.timeout = pruefe_ganzzahl(timeout, "timeout", LATENZ * 2 + 1)
        self.ausfall = pruefe_ganzzahl(ausfall, "ausfall", 1)
        self.neustart_automatisch = bool(neustart)
        self.zeit = Zeit()
        #: Die Datenbank des Orchestrators: je Saga Zustände, Versuche und Outbox.
        self.db: dict[str, dict[str, Any]] = {}
        self.orchestrator_laeuft = True
        self._stoerungen: list[Stoerung] = []
        self._timer: dict[tuple[str, int], Termin] = {}
        self._posteingang: list[
            _Antwort
        ] = []  # answers that arrived while the orchestrator was down
        self._nummer = 0
        self._verlauf: list[SagaEreignis] = []
        #: Je Saga: (Zeit, Schritt, neuer Zustand), für das Bild.
        self.zustandsverlauf: dict[str, list[tuple[int, int, str]]] = {}
        #: Wann der Orchestrator weg war: (von, bis oder None).
        self.ausfaelle: list[tuple[int, int | None]] = []

    # --- ansehen ---

    def sagas(self) -> list[str]:
        """Die Namen der gestarteten Sagas, in Startreihenfolge."""
        return list(self.db)

    def _eintrag(self, saga: str) -> dict[str, Any]:
        if saga not in self.db:
            bekannt = aufzaehlung(self.db) if self.db else "noch keine"
            raise UnbekannteSaga(f"Eine Saga „{saga}“ gibt es nicht. Gestartet: {bekannt}.")
        return self.db[saga]

    def zustand(self, saga: str) -> str:
        """``läuft``, ``wird kompensiert``, ``abgeschlossen`` oder ``kompensiert``."""
        return saga_zustand(self._eintrag(saga)["zustaende"])

    def schritte(self, saga: str) -> dict[str, str]:
        """Der Zustand jedes Schritts, nach Dienst."""
        return dict(zip(self.saga.namen, self._eintrag(saga)["zustaende"], strict=True))

    def versuche(self, saga: str) -> dict[str, int]:
        """Wie oft der Orchestrator je Schritt einen Befehl geschickt hat (mit Kompensation)."""
        return dict(zip(self.saga.namen, self._eintrag(saga)["versuche"], strict=True))

    def kompensationen(self, saga: str) -> list[str]:
        """Die Dienste, deren Schritt kompensiert wurde, in der Reihenfolge der Kompensation."""
        self._eintrag(saga)
        return [self.saga.namen[s] for _, s, z in self.zustandsverlauf[saga] if z == KOMPENSIERT]

    def dienst(self, name: str) -> Dienst:
        if name not in self.dienste:
            raise UngueltigeEingabe(
                f"Einen Dienst „{name}“ gibt es nicht. Dienste: {aufzaehlung(self.dienste)}."
            )
        return self.dienste[name]

    def staende(self) -> dict[str, dict[str, Any]]:
        """Die Datenbank jedes Dienstes (eine Kopie)."""
        return {n: dict(d.stand) for n, d in self.dienste.items()}

    def verlauf(self, saga: str | None = None) -> list[SagaEreignis]:
        """Was geschah, der Reihe nach (mit ``saga``: nur was diese Saga betrifft)."""
        if saga is None:
            return list(self._verlauf)
        self._eintrag(saga)
        return [e for e in self._verlauf if e.saga in (None, saga)]

    def stoerungen(self) -> list[Stoerung]:
        """Die Störungen, die noch nicht gewirkt haben."""
        return [s for s in self._stoerungen if not s.verbraucht]

    def fertig(self) -> bool:
        """Ist jede Saga in einem Endzustand?"""
        return all(self.zustand(s) in ENDZUSTAENDE for s in self.db)

    # --- steuern ---

    def starte(self, saga: str) -> None:
        """Startet eine neue Saga mit dem Namen ``saga`` (z. B. ``bestellung-7``)."""
        pruefe_name(saga, "Der Name einer Saga")
        if not self.orchestrator_laeuft:
            raise OrchestratorAusgefallen(
                "Der Orchestrator ist abgestürzt und nimmt keine neue Saga an. "
                "Starte ihn neu (neustart)."
            )
        if saga in self.db:
            raise UngueltigeEingabe(
                f"Die Saga „{saga}“ läuft schon (Zustand: {self.zustand(saga)})."
            )
        n = len(self.saga.schritte)
        self.db[saga] = {"zustaende": [OFFEN] * n, "versuche": [0] * n, "outbox": []}
        self.zustandsverlauf[saga] = []
        self._notiere(saga, None, "start", f"Saga {saga} gestartet.")
        self._weiter(saga)
        self._relay()

    def stoere(
        self, art: str, schritt: str, kompensation: bool = False, saga: str | None = None
    ) -> Stoerung:
        """Plant eine Störung, die beim nächsten passenden Befehl einmal wirkt."""
        if art not in ARTEN:
            raise UngueltigeEingabe(
                f"Eine Störung „{art}“ gibt es nicht. Arten: {aufzaehlung(ARTEN)}."
            )
        i = self.saga.index(schritt)
        s = self.saga.schritte[i]
        if kompensation and s.kompensation is None:
            raise UngueltigeEingabe(f"Der Schritt „{schritt}“ hat keine Kompensation.")
        if art == "ablehnen" and kompensation:
            raise UngueltigeEingabe(
                "Eine Kompensation darf nicht endgültig scheitern: Sie wird wiederholt, "
                "bis sie gelingt. Wähle absturz, doppelt oder verspaetet."
            )
        if art == "ablehnen" and self.saga.pivot is not None and i > self.saga.pivot:
            raise UngueltigeEingabe(
                f"„{schritt}“ kommt nach dem Pivot „{self.saga.namen[self.saga.pivot]}“ und muss "
                "gelingen (wiederholbar). Ablehnen geht bis zum Pivot."
            )
        if saga is not None:
            pruefe_name(saga, "Der Name einer Saga")
        stoerung = Stoerung(art, i, kompensation, saga)
        self._stoerungen.append(stoerung)
        return stoerung

    def neustart(self) -> None:
        """Startet den abgestürzten Orchestrator: Er liest seine Datenbank und macht weiter."""
        if self.orchestrator_laeuft:
            raise UngueltigeEingabe("Der Orchestrator läuft schon; es gibt nichts neu zu starten.")
        self.orchestrator_laeuft = True
        von, _ = self.ausfaelle[-1]
        self.ausfaelle[-1] = (von, self.now)
        self._notiere(None, None, "neustart", "Orchestrator startet neu, liest seine DB.")
        wartend, self._posteingang = self._posteingang, []
        for antwort in wartend:
            self._antwort(antwort)
        if not self.orchestrator_laeuft:
            return  # crashed again while catching up
        for saga, eintrag in self.db.items():
            for i, z in enumerate(eintrag["zustaende"]):
                if z in WARTET and not self._unversendet(saga, i):
                    self._stelle_timer(saga, i)
        self._relay()

    def run(self, max_ticks: int = MAX_LAUF) -> int:
        """Lässt die Zeit laufen, bis nichts mehr geplant ist; gibt die Zeit danach zurück."""
        ende = self.now + pruefe_ganzzahl(max_ticks, "max_ticks", 0)
        while (naechster := self.zeit.peek()) is not None and naechster <= ende:
            self.zeit.step()
        return self.now

    # --- der Orchestrator ---

    def _weiter(self, saga: str) -> None:
        """Nächsten Befehl bestimmen und mit dem neuen Zustand in die Outbox schreiben."""
        eintrag = self.db[saga]
        zustaende: list[str] = eintrag["zustaende"]
        naechster = naechster_befehl(zustaende)
        if naechster is None:
            zustand = saga_zustand(zustaende)
            if zustand in ENDZUSTAENDE:
                self._notiere(saga, None, "ende", f"Saga {saga}: {zustand}.")
            return
        i, ereignis = naechster
        self._setze(saga, i, ereignis)
        self._in_outbox(saga, i, ereignis == KOMPENSIEREN)

    def _in_outbox(self, saga: str, i: int, kompensation: bool) -> None:
        s = self.saga.schritte[i]
        aktion = s.kompensation if kompensation else s.aktion
        self._nummer += 1
        self.db[saga]["versuche"][i] += 1
        self.db[saga]["outbox"].append(
            {
                "nr": self._nummer,
                "schritt": i,
                "kompensation": kompensation,
                "schluessel": f"{saga}/{s.dienst}/{aktion}",
                "gesendet": False,
            }
        )

    def _unversendet(self, saga: str, i: int) -> bool:
        return any(not e["gesendet"] and e["schritt"] == i for e in self.db[saga]["outbox"])

    def _setze(self, saga: str, i: int, ereignis: str) -> bool:
        zustaende: list[str] = self.db[saga]["zustaende"]
        neu = uebergang(zustaende[i], ereignis)
        if neu is None:
            return False
        zustaende[i] = neu
        self.zustandsverlauf[saga].append((self.now, i, neu))
        return True

    def _relay(self) -> None:
        """Schickt, was in der Outbox steht und noch nicht gesendet ist."""
        if not self.orchestrator_laeuft:
            return
        eintraege = [
            (e["nr"], saga, e)
            for saga, x in self.db.items()
            for e in x["outbox"]
            if not e["gesendet"]
        ]
        for _, saga, e in sorted(eintraege, key=lambda t: t[0]):
            e["gesendet"] = True
            befehl = _Befehl(saga, e["schritt"], e["kompensation"], e["schluessel"])
            dienst = self.saga.schritte[befehl.schritt].dienst
            versuch = sum(
                1 for x in self.db[saga]["outbox"] if x["schluessel"] == befehl.schluessel
            )
            wdh = f" (Versuch {versuch})" if versuch > 1 else ""
            self._notiere(
                saga, befehl.schritt, "gesendet", f"→ {dienst}: {_aktion(befehl, self.saga)}{wdh}"
            )
            self.zeit.schedule(LATENZ, self._zustellen, befehl)
            if self._stoerung("doppelt", befehl):
                self._notiere(
                    saga, befehl.schritt, "doppelt", f"Kanal stellt {dienst} den Befehl doppelt zu."
                )
                self.zeit.schedule(LATENZ + 1, self._zustellen, befehl)
            self._stelle_timer(saga, befehl.schritt)

    def _stelle_timer(self, saga: str, i: int) -> None:
        alt = self._timer.get((saga, i))
        if alt is not None:
            alt.absagen()
        self._timer[(saga, i)] = self.zeit.schedule(self.timeout, self._timeout, saga, i)

    def _timeout(self, saga: str, i: int) -> None:
        self._timer.pop((saga, i), None)
        zustand = self.db[saga]["zustaende"][i]
        if zustand not in WARTET:
            return
        dienst = self.saga.namen[i]
        self._notiere(saga, i, "timeout", f"Timeout: keine Antwort von {dienst}, sende erneut.")
        self._in_outbox(saga, i, WARTET[zustand] == "kompensation")
        self._relay()

    def _antwort(self, antwort: _Antwort) -> None:
        if not self.orchestrator_laeuft:
            self._posteingang.append(antwort)
            return
        saga, i = antwort.saga, antwort.schritt
        dienst = self.saga.namen[i]
        vorher = self.db[saga]["zustaende"][i]
        if not self._setze(saga, i, antwort.ereignis):
            self._notiere(saga, i, "ignoriert", f"Antwort von {dienst} kam doppelt: ignoriert.")
            return
        timer = self._timer.pop((saga, i), None)
        if timer is not None:
            timer.absagen()
        neu = self.db[saga]["zustaende"][i]
        self._notiere(saga, i, neu, f"{dienst}: {vorher} → {neu}")
        self._weiter(saga)
        if neu in (ERLEDIGT, KOMPENSIERT) and self._stoerung(
            "orchestrator", _Befehl(saga, i, neu == KOMPENSIERT, "")
        ):
            self._absturz_orchestrator()
            return
        self._relay()

    def _absturz_orchestrator(self) -> None:
        self.orchestrator_laeuft = False
        for timer in self._timer.values():
            timer.absagen()
        self._timer.clear()
        self.ausfaelle.append((self.now, None))
        self._notiere(
            None, None, "absturz_orchestrator", "Orchestrator stürzt ab (DB ist gespeichert)."
        )
        if self.neustart_automatisch:
            self.zeit.schedule(self.ausfall, self.neustart)

    # --- die Dienste ---

    def _zustellen(self, befehl: _Befehl) -> None:
        schritt = self.saga.schritte[befehl.schritt]
        dienst = self.dienste[schritt.dienst]
        if dienst.zurueck_ab is not None:
            # A durable queue keeps the command until the service is back.
            self.zeit.schedule(dienst.zurueck_ab - self.now, self._zustellen, befehl)
            return
        ergebnis = self._ausfuehren(dienst, befehl)
        if self._stoerung("absturz", befehl):
            dienst.zurueck_ab = self.now + self.ausfall
            self._notiere(
                befehl.saga,
                befehl.schritt,
                "absturz",
                f"{dienst.name} stürzt nach der Aktion ab, antwortet nicht.",
            )
            self.zeit.schedule(self.ausfall, self._dienst_zurueck, dienst)
            return
        verzoegerung = LATENZ
        if self._stoerung("verspaetet", befehl):
            verzoegerung = self.timeout + 2
            self._notiere(
                befehl.saga,
                befehl.schritt,
                "verspaetet",
                f"Antwort von {dienst.name} hängt im Netz.",
            )
        self.zeit.schedule(
            verzoegerung, self._antwort, _Antwort(befehl.saga, befehl.schritt, ergebnis)
        )

    def _ausfuehren(self, dienst: Dienst, befehl: _Befehl) -> str:
        """Die lokale Transaktion des Dienstes: Aktion und (mit dedupe) die Antwort speichern."""
        if dienst.dedupe and befehl.schluessel in dienst.antworten:
            self._notiere(
                befehl.saga, befehl.schritt, "duplikat", f"{dienst.name}: Schlüssel schon bekannt."
            )
            return dienst.antworten[befehl.schluessel]
        schritt = self.saga.schritte[befehl.schritt]
        name = schritt.kompensation if befehl.kompensation else schritt.aktion
        assert name is not None
        if self._stoerung("ablehnen", befehl):
            ergebnis, grund = ABLEHNUNG, "Störung"
        else:
            try:
                dienst.aktionen[name](dienst.stand, befehl.saga)
                ergebnis, grund = (KOMPENSATION_ERFOLG if befehl.kompensation else ERFOLG), ""
                dienst.ausfuehrungen[befehl.schluessel] = (
                    dienst.ausfuehrungen.get(befehl.schluessel, 0) + 1
                )
            except Abgelehnt as e:
                ergebnis, grund = ABLEHNUNG, str(e)
        if dienst.dedupe:
            dienst.antworten[befehl.schluessel] = ergebnis
        text = (
            f"{dienst.name} lehnt ab ({grund})"
            if ergebnis == ABLEHNUNG
            else f"{dienst.name}: {name}"
        )
        self._notiere(befehl.saga, befehl.schritt, "ausgefuehrt", text)
        return ergebnis

    def _dienst_zurueck(self, dienst: Dienst) -> None:
        dienst.zurueck_ab = None
        self._notiere(None, None, "dienst_zurueck", f"{dienst.name} läuft wieder.")

    def _stoerung(self, art: str, befehl: _Befehl) -> bool:
        for s in self._stoerungen:
            if s.art == art and s.passt(befehl.saga, befehl.schritt, befehl.kompensation):
                s.verbraucht = True
                return True
        return False

    def _notiere(self, saga: str | None, schritt: int | None, art: str, text: str) -> None:
        self._verlauf.append(SagaEreignis(self.now, saga, schritt, art, text))

    # --- Bild ---

    def bild(self, saga: str | None = None) -> Bild:
        """Die Schritte einer Saga über die Zeit (ohne ``saga``: die zuletzt gestartete)."""

        if saga is not None:
            self._eintrag(saga)
        return zeitleiste(
            self, saga if saga is not None else (self.sagas()[-1] if self.db else None)
        )

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        teile = ", ".join(f"{s}: {self.zustand(s)}" for s in self.db) or "keine Saga"
        return f"SagaSim(t={self.now}, {teile})"


def _aktion(befehl: _Befehl, saga: Saga) -> str:
    s = saga.schritte[befehl.schritt]
    return (s.kompensation or "") if befehl.kompensation else s.aktion
