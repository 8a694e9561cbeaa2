"""Ein Client der Lektion als Knoten des Clusters: Lease holen, arbeiten, prüfen, schreiben.

``LeaseKnoten`` ist ein ``pysim.cluster.Knoten`` wie der, den die Leserin schreibt. Er fragt den
Sperrdienst (``lease``, ``pysim.cluster.LeaseDienst``) mit ``acquire`` nach der Lease; ist sie
belegt (Fehler 11), fragt er nach ``wiederholen`` Ticks wieder. Mit der Lease (``acquire_ok``
mit ``token`` und ``ttl``) arbeitet er ``arbeit`` Ticks, prüft mit seiner eigenen Uhr, ob sie
noch gilt (``prueft``), schickt einen Tick später ``write`` mit seinem Token an den Speicher
(``fence-kv``, ``pysim.cluster.FencingKV``, oder der Speicher einer ``LeaseSim``) und gibt die
Lease frei, sobald der Speicher antwortet (``write_ok`` oder Fehler 22). Sagt seine Uhr, die
Lease sei abgelaufen, gibt er auf und schreibt nicht.

Wie er arbeitet, sagt seine ``Einstellung`` (``start``, ``arbeit``, ``drift``, ``pausen``,
``prueft``, ``wiederholen``, ``wert``): die in ``self.speicher["einstellung"]``, wenn eine Front
sie ihm dort mitgab (``Cluster.neuer_knoten(speicher=…)``, wie ``LeaseSim``), sonst
``EINSTELLUNG``. Seine Uhr geht ``drift`` Ticks je 1000 Ticks falsch, abgerundet wie in ``pysim.uhren`` (die
Drift einer Störung ``uhr`` des Clusters rundet zur Null hin und gäbe andere Zahlen). Seine
Pausen (``pausen``: Paare ``(beginn, dauer)``) hält er selbst ein: Was er in einer Pause tun
wollte, tut er an ihrem Ende, in der Reihenfolge, in der er es plante; die Antworten, die in
der Pause ankommen, nimmt er an (die Pause-Störung des Clusters hielte auch sie an, und ihr
Ende liefe vor allem anderen seines Ticks).

Welcher Zustand auf welches Ereignis folgen darf, steht in ``UEBERGAENGE`` (``pysim.leases``,
die einzige Stelle dieser Regeln). ``rolle`` ist ``"Inhaber"``, solange er mit einer Lease
handelt (sie hält oder mit ihr schreibt): Eine Störung ``absturz:[Inhaber]`` trifft ihn.
``zustand()`` zeigt seinen Stand und Token; ``ein_inhaber`` ist die Invariante „höchstens ein
Knoten handelt mit einer Lease“ für ``Cluster.invariante``.

Was er notiert, geht an seine Aufsicht (``self.speicher["aufsicht"]``, sonst ``AUFSICHT``: bei
``LeaseSim`` ihr Protokoll), ohne sie ins Protokoll des Laufs (``self.notiz``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..cluster import Knoten, Nachricht
from ..cluster.cluster import Zustaende
from ..fehler import pruefe_ganzzahl
from ..uebergaenge import Regeltabelle

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

#: (Zustand, Ereignis) -> neuer Zustand, geschrieben je Zustand. ``None``: erlaubt, aber nichts
#: ändert sich (eine belegte Sperre, eine Freigabe, die zu spät kommt). Was fehlt, kann nicht
#: passieren.
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        # Client
        BEREIT: {"erhalten": HAELT, "belegt": None},
        HAELT: {
            "pruefung_ok": SCHREIBT,
            "pruefung_abgelaufen": AUFGEGEBEN,
            "ohne_pruefung": SCHREIBT,
        },
        SCHREIBT: {"angenommen": FERTIG, "abgelehnt": FERTIG},
        # Lease
        GUELTIG: {"ablaufen": ABGELAUFEN, "freigeben": FREIGEGEBEN},
        ABGELAUFEN: {"freigeben": None},  # too late: the service already let it go
    }
)

#: Die Rolle eines Knotens, der mit einer Lease handelt (``absturz:[Inhaber]``).
INHABER = "Inhaber"


class Aufsicht(Protocol):
    """Wer mitschreibt, was ein ``LeaseKnoten`` tut (``LeaseSim``): eine Zeile je Schritt."""

    def notiere(self, zeit: int, knoten: str, text: str) -> None:
        """``knoten`` tat eben (``zeit``: seine Uhr ohne Drift), was ``text`` sagt."""
        ...


def nach_pause(pausen: tuple[tuple[int, int], ...], t: int) -> int:
    """Der erste Tick ab ``t``, der in keiner der ``pausen`` liegt."""
    weiter = True
    while weiter:
        weiter = False
        for b, d in pausen:
            if b <= t < b + d:
                t = b + d
                weiter = True
    return t


class _Schritt:
    """A client's next step after a wait: what its gate's ``warte`` resumes
    (``pysim.prozess.Fortsetzung``). An error in a step is pysim's own and ends the run."""

    __slots__ = ("schritt",)

    def __init__(self, schritt: Callable[[], None]) -> None:
        self.schritt = schritt

    def weiter(self, wert: Any = None, fehler: BaseException | None = None) -> None:
        self.schritt()


@dataclass(frozen=True)
class Einstellung:
    """Wie ein ``LeaseKnoten`` arbeitet (siehe das Modul; ``wert=None``: „<id> schreibt“)."""

    start: int = 0
    arbeit: int = 3
    drift: int = 0
    pausen: tuple[tuple[int, int], ...] = ()
    prueft: bool = True
    wiederholen: int = 2
    wert: Any = None


class LeaseKnoten(Knoten):
    """Ein Client, der einmal mit der Lease schreiben will (siehe das Modul). Wie er arbeitet,
    sagt ``einstellung()`` (Standard: ``EINSTELLUNG``; ``LeaseSim`` gibt jedem Knoten seine)."""

    EINSTELLUNG = Einstellung()
    SPERRDIENST = "lease"
    SPEICHER = "fence-kv"
    SCHLUESSEL = "daten"
    AUFSICHT: Aufsicht | None = None

    def einstellung(self) -> Einstellung:
        """Wie dieser Knoten arbeitet: ``self.speicher["einstellung"]``, sonst ``EINSTELLUNG``
        (zum Überschreiben, etwa je ``self.id``)."""
        einstellung: Einstellung = self.speicher.get("einstellung", self.EINSTELLUNG)
        return einstellung

    def beim_start(self) -> None:
        self.e = self.einstellung()
        self._aufsicht: Aufsicht | None = self.speicher.get("aufsicht", self.AUFSICHT)
        self.stand = BEREIT
        self.token: int | None = None
        self.ttl: int | None = None
        #: Echte Zeit, zu der er aufhörte, mit seiner Lease zu handeln.
        self.glaubt_bis: int | None = None
        self._erhalten_uhr = 0  # what its own clock showed when it asked for the lease
        # This incarnation's gate, read once: every step asks the clock, plans and sends (a
        # zufallssim run makes about 40 such calls; benchmarks/README.md, issue 50).
        netz = self._netz
        self._uhr, self._sende, self._warte = netz.uhr, netz.sende, netz.warte
        self._wer = f"{self.id}.sende"
        # its timers skip ``spaeter``'s check of each delay: checked here once
        pruefe_ganzzahl(self.e.arbeit, "arbeit", 0)
        pruefe_ganzzahl(self.e.wiederholen, "wiederholen", 1)
        jetzt = self._uhr()
        self._plane(max(self.e.start, jetzt) - jetzt, self._anfordern)

    # --- its clock, its pauses, its rules ---

    def lokale_uhr(self) -> int:
        """Was seine Uhr zeigt: die Zeit plus ``drift`` Ticks je 1000, abgerundet."""
        t = self._uhr()
        return t + (t * self.e.drift) // 1000

    def _plane(self, in_ticks: int, schritt: Callable[[], None]) -> None:
        # the gate's wait without ``warte``'s check (the delay is never negative) and without
        # a cancellable timer (``spaeter``): a client never cancels a step
        pausen = self.e.pausen
        if pausen:
            jetzt = self._uhr()
            in_ticks = nach_pause(pausen, jetzt + in_ticks) - jetzt
        self._warte(in_ticks, _Schritt(schritt))

    def _wechsel(self, ereignis: str) -> None:
        neu = UEBERGAENGE.uebergang(self.stand, ereignis)
        if neu is not None:
            self.stand = neu

    def _notiere(self, text: str) -> None:
        if self._aufsicht is not None:
            self._aufsicht.notiere(self._uhr(), self.id, text)
        else:
            self.notiz(text)

    def wert(self) -> Any:
        """Was er schreibt."""
        return f"{self.id} schreibt" if self.e.wert is None else self.e.wert

    # --- its steps ---

    def _anfordern(self) -> None:
        self._erhalten_uhr = self.lokale_uhr()
        self._sende(self.SPERRDIENST, {"type": "acquire"}, self._wer, True)

    def bei_acquire_ok(self, nachricht: Nachricht) -> None:
        if self.stand != BEREIT:  # a late or doubled grant
            return
        self._wechsel("erhalten")
        self.token, self.ttl = nachricht["token"], nachricht["ttl"]
        self.rolle = INHABER
        self._plane(self.e.arbeit, self._pruefen)

    def bei_error(self, nachricht: Nachricht) -> None:
        code = nachricht.body.get("code")
        if code == 11 and self.stand == BEREIT:
            self._wechsel("belegt")
            self._plane(self.e.wiederholen, self._anfordern)
        elif code == 22 and self.stand == SCHREIBT:
            self._fertig("abgelehnt")
        else:
            self._notiere(f"Fehler {code}: {nachricht.body.get('text', '')}")

    def _pruefen(self) -> None:
        if not self.e.prueft:
            self._wechsel("ohne_pruefung")
            self._notiere("schreibt, ohne die Lease zu prüfen")
            self._plane(1, self._senden)
            return
        vergangen = self.lokale_uhr() - self._erhalten_uhr
        if vergangen >= (self.ttl or 0):
            self._wechsel("pruefung_abgelaufen")
            self.glaubt_bis, self.rolle = self.uhr(), None
            self._notiere(
                f"prüft: Uhr sagt {vergangen} Ticks seit der Lease (ttl {self.ttl}), "
                "abgelaufen; gibt auf"
            )
            return
        self._wechsel("pruefung_ok")
        self._notiere(
            f"prüft: Uhr sagt {vergangen} Ticks seit der Lease (ttl {self.ttl}), noch gültig"
        )
        self._plane(1, self._senden)

    def _senden(self) -> None:
        self.glaubt_bis = self.uhr()
        wert = self.wert()
        self._notiere(f"schickt {wert!r} mit Token #{self.token}")
        # the value as it is (a reader's object too), not a JSON copy: ``frisch``
        body = {"type": "write", "key": self.SCHLUESSEL, "value": wert, "token": self.token}
        self._sende(self.SPEICHER, body, self._wer, True)

    def bei_write_ok(self, nachricht: Nachricht) -> None:
        if self.stand == SCHREIBT:
            self._fertig("angenommen")

    def _fertig(self, ereignis: str) -> None:
        self._wechsel(ereignis)
        self.rolle = None
        body = {"type": "release", "token": self.token}
        self._sende(self.SPERRDIENST, body, self._wer, True)

    def zustand(self) -> Mapping[str, object]:
        """Stand und Token (für das Bild und ``ein_inhaber``)."""
        return {"stand": self.stand, "token": self.token}


def ein_inhaber(zustaende: Zustaende) -> bool | str:
    """Invariante für ``Cluster.invariante``: Höchstens ein Knoten handelt mit einer Lease (er
    hält sie oder schreibt mit ihr); sonst der Grund, mit Knoten und Token. Ein abgestürzter
    Knoten zählt mit dem, was er zuletzt zeigte (wie bei jeder Invariante des Clusters)."""
    halter = [
        f"{k} (#{z.get('token')})"
        for k, z in zustaende.items()
        if z.get("stand") in (HAELT, SCHREIBT)
    ]
    if len(halter) <= 1:
        return True
    return f"{' und '.join(halter)} handeln zugleich mit einer Lease"
