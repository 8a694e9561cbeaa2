"""Die Saga-Konsole der Lektion „Sagas“: Saga starten, Störung planen, Zeit laufen lassen.

    >>> k = SagaKonsole()
    >>> print(k.run("start b7").text)
    Saga b7 gestartet: zahlung → lager → versand → mail.
    t=0: → zahlung: abbuchen

Das Bild ist die Zeitleiste der Saga (``pysim.saga.bild``). Die Regeln (Übergänge,
Kompensation, Idempotenz) stehen im Modell ``pysim.saga``. Der Orchestrator startet hier nicht
von selbst neu: Nach einem Absturz braucht er ``neustart orchestrator``.
"""

from __future__ import annotations

from typing import Any

from ..console.art import KonsolenArt
from ..console.basis import BasisKonsole, setze_befehle, tick_anzahl, tick_befehl, tick_kopf
from ..console.befehle import befehl, namen_art
from ..console.ergebnis import ConsoleResult
from ..console.parser import Art, Aufruf, EingabeFehler, Option, Wert, kuerze_wort
from ..console.werte import pruefe_neuer_name, tabelle
from .modell import ARTEN, SagaSim

#: So viele Sagas nimmt die Konsole an (das Bild und der Text bleiben lesbar).
MAX_SAGAS = 20
#: So viele Zeilen des Verlaufs zeigt ``tick`` höchstens.
MAX_ZEILEN = 40


class SagaKonsole(BasisKonsole[SagaSim]):
    """Die Saga-Konsole: ``SagaKonsole().run("start b7")``.

    ``sim``: eine vorhandene ``SagaSim``; sonst der Shop, dessen Orchestrator nach einem Absturz
    auf ``neustart orchestrator`` wartet.
    """

    TITEL = "Saga-Konsole"
    HILFE_BEISPIEL = "stoerung"

    def __init__(self, sim: SagaSim | None = None) -> None:
        super().__init__(sim if sim is not None else SagaSim(neustart=False))
        self._zuletzt: str | None = None

    @property
    def sim(self) -> SagaSim:
        """Die Saga-Simulation hinter der Konsole (dasselbe wie ``modell``)."""
        return self.modell

    # --- Arten von Werten ---

    def _lies_neue_saga(self, text: str, _werte: dict[str, Any]) -> str:
        name = pruefe_neuer_name(text, "Der Name einer Saga")
        if name in self.sim.db:
            raise EingabeFehler(f"Die Saga „{name}“ gibt es schon. Nimm einen neuen Namen.")
        return name

    def _lies_saga(self, text: str, _werte: dict[str, Any]) -> str:
        if text not in self.sim.db:
            bekannt = ", ".join(self.sim.sagas()) or "noch keine (start b7)"
            raise EingabeFehler(
                f"Eine Saga „{kuerze_wort(text)}“ gibt es nicht. Gestartet: {bekannt}."
            )
        return text

    def _sagas(self, _werte: dict[str, Any]) -> list[str]:
        return self.sim.sagas()

    def _bild(self, saga: str | None = None) -> str:
        return self.sim.bild(saga or self._zuletzt).svg

    def _neues(self, bekannt: int) -> list[str]:
        neu = [str(e) for e in self.sim.verlauf()[bekannt:]]
        if len(neu) > MAX_ZEILEN:
            neu = [*neu[:MAX_ZEILEN], f"… und {len(neu) - MAX_ZEILEN} weitere Zeilen"]
        return neu

    # --- Befehle ---

    def _start(self, aufruf: Aufruf) -> ConsoleResult:
        sim = self.sim
        saga = aufruf.werte["saga"]
        if len(sim.db) >= MAX_SAGAS:
            raise EingabeFehler(f"Mehr als {MAX_SAGAS} Sagas nimmt die Konsole nicht an.")
        bekannt = len(sim.verlauf())
        sim.starte(saga)
        self._zuletzt = saga
        zeilen = [f"Saga {saga} gestartet: {' → '.join(sim.saga.namen)}."]
        zeilen += [z for z in self._neues(bekannt) if "gestartet" not in z]
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _stoerung(self, aufruf: Aufruf) -> ConsoleResult:
        art, schritt = aufruf.werte["art"], aufruf.werte["schritt"]
        kompensation = bool(aufruf.werte.get("kompensation"))
        self.sim.stoere(art, schritt, kompensation)
        ziel = f"die Kompensation von {schritt}" if kompensation else f"den Schritt {schritt}"
        text = f"Störung „{art}“ geplant: Sie trifft {ziel} beim nächsten Mal, einmal."
        return self._ok(aufruf, text)

    def _tick(self, aufruf: Aufruf) -> ConsoleResult:
        sim = self.sim
        n = tick_anzahl(aufruf)
        bekannt = len(sim.verlauf())
        sim.tick(n)
        zeilen = [tick_kopf(sim.now, n)]
        zeilen += self._neues(bekannt)
        if not sim.orchestrator_laeuft:
            zeilen.append("Der Orchestrator ist abgestürzt: neustart orchestrator")
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _neustart(self, aufruf: Aufruf) -> ConsoleResult:
        sim = self.sim
        if sim.orchestrator_laeuft:
            raise EingabeFehler("Der Orchestrator läuft; es gibt nichts neu zu starten.")
        bekannt = len(sim.verlauf())
        sim.neustart()
        return self._ok(aufruf, "\n".join(self._neues(bekannt)), self._bild())

    def _status(self, aufruf: Aufruf) -> ConsoleResult:
        sim = self.sim
        saga = aufruf.werte.get("saga") or self._zuletzt
        orchestrator = "läuft" if sim.orchestrator_laeuft else "abgestürzt"
        zeilen = [f"t={sim.now}, Orchestrator {orchestrator}"]
        if saga is None:
            zeilen.append("Noch keine Saga. Starte eine: start b7")
        else:
            zeilen.append(f"Saga {saga}: {sim.zustand(saga)}")
            versuche = sim.versuche(saga)
            reihen = [[n, z, str(versuche[n])] for n, z in sim.schritte(saga).items()]
            zeilen += tabelle(["SCHRITT", "ZUSTAND", "BEFEHLE"], reihen)
        staende = ", ".join(
            f"{k}={v}" for stand in sim.staende().values() for k, v in sorted(stand.items())
        )
        zeilen.append(f"Dienste: {staende}")
        offen = sim.stoerungen()
        if offen:
            teile = [
                f"{s.art} {sim.saga.namen[s.schritt]}" + (" kompensation" if s.kompensation else "")
                for s in offen
            ]
            zeilen.append("Geplante Störungen: " + ", ".join(teile))
        return self._ok(aufruf, "\n".join(zeilen), self._bild(saga))

    # --- Zustand ---

    def state_dump(self) -> str:
        """Der ganze Zustand (Verlauf, Datenbanken, Störungen) als fester Text."""
        sim = self.sim
        zeilen = [f"saga t={sim.now} orchestrator={sim.orchestrator_laeuft}"]
        zeilen += [f"  {e}" for e in sim.verlauf()]
        zeilen += [f"  db {name} {sim.db[name]!r}" for name in sim.db]
        zeilen += [f"  stand {n} {s!r}" for n, s in sim.staende().items()]
        zeilen += [f"  stoerung {s!r}" for s in sim.stoerungen()]
        return "\n".join(zeilen)


#: Der Name einer neuen Saga (frei wählbar, noch nicht vergeben).
NEUE_SAGA = Art("neue_saga", lies=SagaKonsole._lies_neue_saga)
#: Eine gestartete Saga (Vorschläge: alle gestarteten).
SAGA = Art("saga", lies=SagaKonsole._lies_saga, kandidaten=SagaKonsole._sagas)
#: Eine Art von Störung (``pysim.saga.ARTEN``).
ART = namen_art("art", "Eine Störung", lambda _k: ARTEN, liste="Arten")
#: Ein Schritt der Saga (zahlung, lager, …).
SCHRITT = namen_art("schritt", "Einen Schritt", lambda k: k.sim.saga.namen, liste="Schritte")

BEFEHLE = setze_befehle(
    SagaKonsole,
    [
        befehl(
            "start <saga>",
            "eine neue Saga (Bestellung) starten",
            SagaKonsole._start,
            "start b7",
            erklaerung=(
                "Der Orchestrator schreibt den ersten Befehl (zahlung: abbuchen) in seine "
                "Outbox und schickt ihn ab. Jeder Tick bringt eine Nachricht ans Ziel.",
            ),
            positionen=(Wert("saga", "<saga>", NEUE_SAGA),),
        ),
        befehl(
            "stoerung <art> <schritt> [kompensation]",
            "eine Störung planen (wirkt einmal)",
            SagaKonsole._stoerung,
            "stoerung ablehnen versand",
            "stoerung doppelt zahlung kompensation",
            erklaerung=(
                "Arten: ablehnen (der Dienst lehnt den Schritt ab), absturz (der Dienst führt "
                "ihn aus und stürzt vor der Antwort ab), doppelt (der Befehl kommt zweimal an), "
                "verspaetet (die Antwort kommt nach dem Timeout), orchestrator (der "
                "Orchestrator stürzt ab, sobald er den Schritt als erledigt gespeichert hat).",
                "Mit „kompensation“ trifft die Störung die Kompensation des Schritts.",
            ),
            positionen=(
                Wert("art", "<art>", ART),
                Wert("schritt", "<schritt>", SCHRITT),
            ),
            optionen=(Option("kompensation"),),
            zeigt_bild=False,
        ),
        tick_befehl(SagaKonsole._tick, "tick 10"),
        befehl(
            "neustart orchestrator",
            "den abgestürzten Orchestrator neu starten",
            SagaKonsole._neustart,
            erklaerung=(
                "Er liest seine Datenbank (Zustand und Outbox), schickt, was noch in der "
                "Outbox steht, und wartet wieder auf Antworten.",
            ),
            woerter=("orchestrator",),
        ),
        befehl(
            "status [<saga>]",
            "Schritte einer Saga, Stände der Dienste",
            SagaKonsole._status,
            "status",
            "status b7",
            erklaerung=("Ohne <saga>: die zuletzt gestartete.",),
            positionen=(Wert("saga", "<saga>", SAGA),),
            letzte_optional=True,
        ),
    ],
)


#: Der frühere Name (``from pysim.console import SagaConsole``).
SagaConsole = SagaKonsole

#: Diese Konsole für ``lessonkit``: der Block ``saga-konsole``, ``kind="saga"``.
KONSOLE = KonsolenArt(
    name="saga",
    klasse=SagaKonsole,
    modell="saga",
    beschreibung="Sagas mit Kompensation, Outbox und Störungen (Lektion „Sagas“)",
)
