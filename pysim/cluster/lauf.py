"""Ein Lauf: der Knoten der Leserin unter einer Last und einem Störplan, mit seinem Verlauf.

``lauf(MeinKnoten, Broadcast(), knoten=5, seed=3, stoerungen="zufall")`` baut den Cluster,
plant die Operationen der Clients und die Störungen, lässt die Zeit laufen, heilt am Ende alles,
wartet ``RUHE`` Ticks, lässt die Schlussoperationen laufen (z. B. ein letztes ``read`` auf jedem
Knoten) und gibt den ``Lauf`` zurück: Verlauf, Nachrichten, Störungen, Fehler der Handler. So
ordnet auch Maelstrom einen Test (``maelstrom.core``: Last und Nemesis bis zum Zeitlimit, dann
heilen, warten, Schlussoperationen).

Mit ``invarianten`` (Name → Prädikat) hält der Lauf bei der ersten an, die nicht gilt
(``Lauf.verletzung``); ``Lauf.zustaende`` ist, was jeder Knoten am Ende zeigt.

Gezielte Störungen (``stoerungen.GEZIELT``) löst ``GezielterNemesis`` während des Laufs aus; der
``Lauf`` nennt sie danach wie jede andere Störung, so dass die Kennung den ganzen Lauf bestimmt.

Die ``kennung`` nennt alles, was den Lauf bestimmt (``broadcast/k5/s3/d100/12:teile:n1|n2.n3``);
``lauf_aus_kennung`` wiederholt ihn genau. ``verkleinere`` macht aus einem scheiternden Lauf den
kleinsten, der noch scheitert (Delta Debugging über Operationen und Störungen mit
``pysim.schrumpfen``, wie Hypothesis' Shrinking): Die Leserin sieht den kleinsten Lauf, nicht
den ersten.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..fehler import UngueltigeEingabe, pruefe_ganzzahl
from ..schrumpfen import Durchgang, Linse, delta_debugging, schrumpfe
from .cluster import Cluster, InvarianteVerletzt, LaufAbgebrochen, Verletzung, Zustaende
from .dienste import DIENSTE, LeaseDienst
from .knoten import Knoten
from .lasten import Clients, Geplant, Last
from .protokoll import Zeile
from .stoerungen import (
    NACHLAUF,
    Ausloeser,
    GezielterNemesis,
    Stoerung,
    als_text,
    plan_aus_text,
    zufaelliger_nemesis,
)

#: After the operations: ticks without faults before the final operations.
RUHE = 40
#: With the lock service ``lease`` the final operations run one after another, this many ticks
#: apart: one node's lease has run out before the next one asks (``LeaseDienst.TTL``), so each
#: final read can get it instead of error 11.
SCHLUSS_ABSTAND_LEASE = 2 * LeaseDienst.TTL


@dataclass(frozen=True)
class Einstellungen:
    """Was außer Seed, Störplan und Operationen einen Lauf bestimmt (für Wiederholungen)."""

    klasse: type[Knoten]
    last: Last
    knoten: int = 3
    dauer: int = 100
    clients: int | None = None
    latenz: tuple[int, int] = (1, 5)
    verlust: float = 0.0
    timeout: int = 30
    absturz_bei_fehler: bool = False
    #: The cluster's budget of events (``Cluster.max_ereignisse``).
    max_ereignisse: int = 200_000
    #: Checked after every event (``Cluster.invariante``): (name, predicate) pairs.
    invarianten: tuple[tuple[str, Callable[[Zustaende], object]], ...] = ()


@dataclass
class Lauf:
    """Was ein Lauf ergab. ``geschichte`` wie bei Jepsen (``pysim.cluster.lasten``)."""

    einstellungen: Einstellungen
    seed: int
    stoerungen: list[Stoerung]
    #: Indices into the seed's planned operations that ran (None: all of them).
    auswahl: list[int] | None
    geplant: list[Geplant]
    cluster: Cluster
    geschichte: list[dict[str, Any]] = field(default_factory=list)
    #: The first invariant that did not hold: the run stopped there (else None).
    verletzung: Verletzung | None = None

    @property
    def zustaende(self) -> dict[str, Mapping[str, object]]:
        """Was jeder Knoten am Ende des Laufs zeigt (``Knoten.zustand``), Knoten → Feld → Wert."""
        return self.cluster.zustaende()

    @property
    def last(self) -> Last:
        return self.einstellungen.last

    @property
    def kennung(self) -> str:
        """Alles, was den Lauf bestimmt, in einer Zeile: Last, Knoten, Seed, Dauer, Störplan und,
        nach dem Verkleinern, die Nummern der Operationen, die blieben (``o0-3.7``)."""
        e = self.einstellungen
        teile = [
            e.last.name,
            f"k{e.knoten}",
            f"s{self.seed}",
            f"d{e.dauer}",
            als_text(self.stoerungen),
        ]
        if self.auswahl is not None:
            teile.append("o" + _bereiche(self.auswahl))
        return "/".join(teile)

    @property
    def geheilt(self) -> int:
        """When everything is whole again: at ``dauer``, or at the last planned fault when one
        comes later (``nachlauf``); the final operations begin ``RUHE`` ticks after it."""
        return max([self.einstellungen.dauer, *(s.zeit for s in self.stoerungen)])

    @property
    def fehler(self) -> list[Any]:
        return self.cluster.fehler

    @property
    def protokoll(self) -> list[Zeile]:
        """Was die Knoten notierten (``self.notiz``) und druckten (``print``), mit Tick und
        Knoten, in ihrer Reihenfolge (begrenzt: ``pysim.cluster.protokoll``)."""
        return self.cluster.protokoll.zeilen()

    def nachrichten_je_operation(self) -> float:
        """Nachrichten zwischen Knoten je Operation eines Clients (ohne die Schlussoperationen)."""
        operationen = sum(
            1 for e in self.geschichte if e["type"] == "invoke" and e["process"] < 10_000
        )
        return self.cluster.zaehle()["gesendet"] / operationen if operationen else 0.0

    def wiederhole(
        self, *, stoerungen: Sequence[Stoerung] | None = None, auswahl: list[int] | None = None
    ) -> Lauf:
        """Derselbe Lauf mit anderen Störungen oder nur den Operationen ``auswahl``."""
        return _ausfuehren(
            self.einstellungen,
            self.seed,
            list(self.stoerungen if stoerungen is None else stoerungen),
            self.auswahl if auswahl is None else auswahl,
        )


def _bereiche(zahlen: list[int]) -> str:
    """``[0, 1, 2, 3, 7]`` -> ``0-3.7``."""
    laeufe: list[list[int]] = []
    for z in zahlen:
        if laeufe and laeufe[-1][-1] == z - 1:
            laeufe[-1].append(z)
        else:
            laeufe.append([z])
    return ".".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in laeufe)


def _zufall(seed: int, wofuer: int) -> random.Random:
    """An independent stream per purpose, so that fewer operations do not change the faults."""
    return random.Random(seed * 104_729 + wofuer)


def lauf(
    klasse: type[Knoten],
    last: Last,
    *,
    knoten: int = 3,
    seed: int = 1,
    dauer: int = 100,
    stoerungen: str | Sequence[Stoerung] | None = None,
    arten: Sequence[str] = ("teilung",),
    anzahl_stoerungen: int = 3,
    clients: int | None = None,
    latenz: tuple[int, int] = (1, 5),
    verlust: float = 0.0,
    timeout: int = 30,
    absturz_bei_fehler: bool = False,
    max_ereignisse: int = 200_000,
    invarianten: Mapping[str, Callable[[Zustaende], object]] | None = None,
) -> Lauf:
    """Ein Lauf von ``klasse`` unter ``last``. ``stoerungen``: ``None`` (keine), ``"zufall"``
    (aus dem Seed gewürfelt, ``arten`` aus ``FENSTER``), ein Text wie in ``Lauf.kennung``
    oder eine Liste von ``Stoerung``. Erreicht der Lauf ``max_ereignisse``, wirft er
    ``LaufAbgebrochen``; dessen ``lauf`` ist der Lauf bis dahin. ``invarianten``: Name →
    Prädikat, nach jedem Ereignis geprüft (``Cluster.invariante``); gilt eine nicht, hält
    der Lauf dort an, und ``Lauf.verletzung`` sagt, wann, wonach und warum."""
    einstellungen = Einstellungen(
        klasse,
        last,
        knoten=pruefe_ganzzahl(knoten, "Die Zahl der Knoten", 1),
        dauer=pruefe_ganzzahl(dauer, "Die Dauer", 1),
        clients=None if clients is None else pruefe_ganzzahl(clients, "Die Zahl der Clients", 1),
        latenz=latenz,
        verlust=verlust,
        timeout=pruefe_ganzzahl(timeout, "Der Timeout", 1),
        absturz_bei_fehler=absturz_bei_fehler,
        max_ereignisse=pruefe_ganzzahl(max_ereignisse, "max_ereignisse", 1),
        invarianten=tuple((invarianten or {}).items()),
    )
    ids = [f"n{i}" for i in range(1, knoten + 1)]
    ausloeser: list[Ausloeser] = []
    if stoerungen == "zufall":
        plan, ausloeser = zufaelliger_nemesis(
            _zufall(seed, 1), ids, dauer, arten, anzahl_stoerungen
        )
    elif isinstance(stoerungen, str):
        plan = plan_aus_text(stoerungen, ids)
    elif stoerungen is None:
        plan = []
    else:
        plan = list(stoerungen)
        for stoerung in plan:
            if not isinstance(stoerung, Stoerung):
                raise UngueltigeEingabe(
                    f"Ein Störplan ist eine Liste von Stoerung, nicht {stoerung!r}."
                )
    return _ausfuehren(einstellungen, seed, plan, None, ausloeser)


#: The largest seed an identity from outside may name (``Grenzen``): a page runs seeds 1 to
#: ``seeds`` and ``Weitere Läufe`` 20 more per press.
MAX_SEED = 1_000_000
#: Digits a number in an identity may have at all (no int of thousands of digits is parsed).
_ZIFFERN = 18


@dataclass(frozen=True)
class Grenzen:
    """Was eine Kennung von außen (eine Leserin fügt sie in eine Seite ein) höchstens verlangen
    darf: so viele Knoten und Ticks, wie die Seite laufen lässt, Seeds bis ``seed``, Störungen
    zwischen dem Start und ``NACHLAUF`` Ticks nach dem Ende der Last, eine Uhr um höchstens
    ``dauer + RUHE`` Ticks verstellt und mit einer Drift von -1 bis 1."""

    knoten: int
    dauer: int
    seed: int = MAX_SEED


def _kurz(text: str, laenge: int = 40) -> str:
    """A piece of the reader's identity, short enough to quote in a message."""
    return text if len(text) <= laenge else text[: laenge - 1] + "…"


def _zahl_aus(teil: str, buchstabe: str, was: str, beispiel: str) -> int:
    """The number of the part ``k3``, ``s1`` or ``d100`` of an identity."""
    ziffern = teil[1:]
    if not (teil[:1] == buchstabe and ziffern.isascii() and ziffern.isdigit()):
        raise UngueltigeEingabe(
            f"„{_kurz(teil)}“ in der Kennung sollte {was} sein: „{buchstabe}“ und eine ganze "
            f"Zahl, etwa „{beispiel}“."
        )
    if len(ziffern) > _ZIFFERN:
        raise UngueltigeEingabe(
            f"„{_kurz(teil)}“ in der Kennung ist zu groß: {was} hat höchstens {_ZIFFERN} Ziffern."
        )
    return int(ziffern)


def _bereiche_aus(text: str) -> list[tuple[int, int]]:
    """``0-3.7`` -> ``[(0, 3), (7, 7)]``, without listing the numbers (``o0-999999999`` is one
    pair); ascending, as ``_bereiche`` writes them, or ``UngueltigeEingabe``."""
    paare: list[tuple[int, int]] = []
    for teil in text.split(".") if text else []:
        von, strich, bis = teil.partition("-")
        bis = bis if strich else von
        if not all(z.isascii() and z.isdigit() and len(z) <= _ZIFFERN for z in (von, bis)):
            raise UngueltigeEingabe(
                f"„o{_kurz(text)}“ am Ende der Kennung sollte die Auswahl der Operationen sein, "
                "Nummern und Bereiche mit Punkten getrennt wie „o0-3.7“."
            )
        paar = (int(von), int(bis))
        if paar[0] > paar[1] or (paare and paar[0] <= paare[-1][1]):
            raise UngueltigeEingabe(
                f"Die Auswahl der Operationen „o{_kurz(text)}“ steigt nicht auf (bei „{teil}“): "
                "Eine Kennung nennt jede Operation einmal, der Reihe nach, wie „o0-3.7“."
            )
        paare.append(paar)
    return paare


def _pruefe_plan(plan: list[Stoerung], dauer: int, grenzen: Grenzen | None) -> None:
    """A clock's drift must be a number; with ``grenzen``, each fault within the run and each
    clock set by at most ``dauer + RUHE`` ticks, with a drift from -1 to 1."""
    for stoerung in plan:
        text = f"Die Störung „{_kurz(stoerung.als_text())}“"
        if stoerung.art == "uhr" and not math.isfinite(stoerung.drift):
            raise UngueltigeEingabe(f"{text} lässt die Uhr mit Drift {stoerung.drift} gehen.")
        if grenzen is None:
            continue
        ende = dauer + NACHLAUF
        if not 0 <= stoerung.zeit <= ende:
            raise UngueltigeEingabe(
                f"{text} liegt bei t={stoerung.zeit}; in diesem Lauf liegen Störungen zwischen "
                f"t=0 und t={ende} (die Last endet bei t={dauer})."
            )
        if stoerung.art == "uhr" and abs(stoerung.versatz) > dauer + RUHE:
            raise UngueltigeEingabe(
                f"{text} stellt die Uhr um {stoerung.versatz:+d} Ticks; erlaubt sind höchstens "
                f"{dauer + RUHE} Ticks vor oder zurück."
            )
        if stoerung.art == "langsam" and stoerung.latenz[1] > dauer + RUHE:
            raise UngueltigeEingabe(
                f"{text} lässt Nachrichten {stoerung.latenz[1]} Ticks laufen; erlaubt sind "
                f"höchstens {dauer + RUHE}."
            )
        if stoerung.art == "uhr" and abs(stoerung.drift) > 1:
            raise UngueltigeEingabe(
                f"{text} lässt die Uhr mit Drift {stoerung.drift:g} gehen; erlaubt ist eine Drift "
                "von -1 bis 1."
            )


@dataclass(frozen=True)
class Kennung:
    """Eine gelesene Kennung: was außer der Klasse und den Optionen den Lauf bestimmt."""

    knoten: int
    seed: int
    dauer: int
    stoerungen: list[Stoerung]
    #: Indices into the seed's planned operations (None: all of them).
    auswahl: list[int] | None


def _punkte(zahl: int) -> str:
    """``1000000`` -> ``1.000.000``."""
    return f"{zahl:,}".replace(",", ".")


def lies_kennung(
    last: Last, kennung: str, *, grenzen: Grenzen | None = None, clients: int | None = None
) -> Kennung:
    """Liest eine ``kennung`` für ``last``, ohne etwas laufen zu lassen. Eine Kennung, die nicht
    lesbar ist, eine Operation nennt, die der Lauf nicht plant (mit ``clients`` Clients, sonst
    einem je Knoten), oder (mit ``grenzen``) mehr verlangt, als die Seite laufen lässt, ist ein
    ``UngueltigeEingabe`` mit einem deutschen Satz, der sagt, was nicht stimmt."""
    beispiel = f"{last.name}/k3/s1/d100/12:teile:n1|n2.n3"
    teile = kennung.split("/")
    if len(teile) not in (5, 6) or (len(teile) == 6 and not teile[5].startswith("o")):
        raise UngueltigeEingabe(
            f"„{_kurz(kennung)}“ ist keine Kennung eines Laufs: erwartet wie „{beispiel}“ (nach "
            "dem Verkleinern mit der Auswahl der Operationen am Ende, „/o0-3.7“)."
        )
    name, k, s, d, plan_text = teile[:5]
    if name != last.name:
        raise UngueltigeEingabe(
            f"Die Kennung ist ein Lauf der Last „{_kurz(name)}“; hier läuft die Last "
            f"„{last.name}“. Erwartet wie „{beispiel}“."
        )
    knoten = _zahl_aus(k, "k", "die Zahl der Knoten", "k3")
    seed = _zahl_aus(s, "s", "der Seed", "s1")
    dauer = _zahl_aus(d, "d", "die Dauer in Ticks", "d100")
    if knoten < 1 or dauer < 1:
        raise UngueltigeEingabe(
            f"Die Kennung verlangt {knoten} Knoten und {dauer} Ticks; ein Lauf braucht von "
            "beidem mindestens 1."
        )
    if grenzen is not None:
        if knoten > grenzen.knoten:
            raise UngueltigeEingabe(
                f"Die Kennung verlangt {_punkte(knoten)} Knoten; hier laufen höchstens "
                f"{grenzen.knoten}."
            )
        if dauer > grenzen.dauer:
            raise UngueltigeEingabe(
                f"Die Kennung verlangt {_punkte(dauer)} Ticks Last; hier sind es höchstens "
                f"{_punkte(grenzen.dauer)}."
            )
        if not 1 <= seed <= grenzen.seed:
            raise UngueltigeEingabe(
                f"Der Seed {_punkte(seed)} der Kennung liegt nicht zwischen 1 und "
                f"{_punkte(grenzen.seed)}."
            )
    auswahl: list[int] | None = None
    if len(teile) == 6:
        paare = _bereiche_aus(teile[5][1:])
        geplant = len(last.plane(_zufall(seed, 2), dauer, knoten if clients is None else clients))
        if paare and paare[-1][1] >= geplant:
            plant = f"nur {geplant} (0 bis {geplant - 1})" if geplant else "keine"
            raise UngueltigeEingabe(
                f"Die Kennung nennt Operation {_punkte(paare[-1][1])}; der Lauf mit Seed {seed} "
                f"und {dauer} Ticks plant aber {plant}."
            )
        auswahl = [i for von, bis in paare for i in range(von, bis + 1)]
    plan = plan_aus_text(plan_text, [f"n{i}" for i in range(1, knoten + 1)])
    _pruefe_plan(plan, dauer, grenzen)
    return Kennung(knoten, seed, dauer, plan, auswahl)


def lauf_aus_kennung(
    klasse: type[Knoten],
    last: Last,
    kennung: str,
    *,
    grenzen: Grenzen | None = None,
    **optionen: Any,
) -> Lauf:
    """Wiederholt den Lauf mit dieser ``kennung`` (``optionen`` wie bei ``lauf``, außer denen,
    die die Kennung nennt). Was ``lies_kennung`` an der Kennung findet, ist ein
    ``UngueltigeEingabe``; dann läuft nichts."""
    gelesen = lies_kennung(last, kennung, grenzen=grenzen, clients=optionen.get("clients"))
    if "invarianten" in optionen:
        optionen["invarianten"] = tuple((optionen["invarianten"] or {}).items())
    einstellungen = Einstellungen(
        klasse, last, knoten=gelesen.knoten, dauer=gelesen.dauer, **optionen
    )
    return _ausfuehren(einstellungen, gelesen.seed, gelesen.stoerungen, gelesen.auswahl)


def _ausfuehren(
    e: Einstellungen,
    seed: int,
    plan: list[Stoerung],
    auswahl: list[int] | None,
    ausloeser: list[Ausloeser] | None = None,
) -> Lauf:
    """One run. ``plan``: the faults, each first in its tick, those of one tick in the plan's
    order; ``ausloeser``: targeted faults, which ``GezielterNemesis`` turns into faults of the
    plan as they happen (a replay gets them in ``plan``, and needs no nemesis)."""
    cluster = Cluster(
        e.klasse,
        e.knoten,
        seed=seed,
        latenz=e.latenz,
        verlust=e.verlust,
        absturz_bei_fehler=e.absturz_bei_fehler,
        max_ereignisse=e.max_ereignisse,
    )
    for name, praedikat in e.invarianten:
        cluster.invariante(name, praedikat)
    dienste = {name: DIENSTE[name](cluster) for name in e.last.dienste}
    plan = sorted(plan, key=lambda s: s.zeit)  # stable: a tick's faults keep their order
    for stoerung in plan:
        cluster.zeit.schedule_zuerst(max(0, stoerung.zeit), stoerung.anwenden, cluster)
    nemesis = None
    if ausloeser:
        lease = dienste.get("lease")
        nemesis = GezielterNemesis(
            cluster,
            sorted(ausloeser, key=lambda a: a.von),
            e.dauer,
            lease if isinstance(lease, LeaseDienst) else None,
        )
        cluster.beobachter = nemesis
    zahl = e.knoten if e.clients is None else e.clients
    arbeit = Clients(cluster, e.last, zahl, timeout=e.timeout, schluss=e.dauer)
    alle = e.last.plane(_zufall(seed, 2), e.dauer, zahl)
    geplant = alle if auswahl is None else [alle[i] for i in auswahl if 0 <= i < len(alle)]
    ergebnis = Lauf(e, seed, plan, auswahl, geplant, cluster, arbeit.geschichte)

    def vorbereiten_senden(ziel: str, body: dict[str, Any]) -> None:
        cluster.sende("c0", ziel, {**body, "msg_id": 0})

    cluster.anmelden(
        "c0", lambda nachricht: None, client=True
    )  # sends setup (topology), ignores replies
    e.last.vorbereiten(cluster, vorbereiten_senden)
    arbeit.plane(geplant)
    # A fault planned after the load (a partition that outlasts it) happens before the end;
    # a targeted one ends with the load at the latest.
    geheilt = ergebnis.geheilt
    try:
        cluster.laufe(geheilt)
        if nemesis is not None:  # the run's faults as they happened: its identity replays it
            cluster.beobachter = None
            ergebnis.stoerungen = sorted([*plan, *nemesis.ausgeloest], key=lambda s: s.zeit)
        _alles_heil(cluster)
        start = geheilt + RUHE
        cluster.laufe(start)
        abstand = SCHLUSS_ABSTAND_LEASE if "lease" in e.last.dienste else 0
        schluss = e.last.abschluss(list(cluster.ids))
        for i, (k, f, key, value) in enumerate(schluss):
            if i and abstand:
                cluster.laufe(start + i * abstand)
            arbeit.zusatz(k, f, key, value)
        cluster.laufe(start + max(0, len(schluss) - 1) * abstand + e.timeout + 1)
    except LaufAbgebrochen as abbruch:
        if nemesis is not None:
            ergebnis.stoerungen = sorted([*plan, *nemesis.ausgeloest], key=lambda s: s.zeit)
        abbruch.lauf = ergebnis  # what ran until then: for the picture and the verdict
        raise
    except InvarianteVerletzt as verletzt:  # the run stops at the first violation
        if nemesis is not None:
            ergebnis.stoerungen = sorted([*plan, *nemesis.ausgeloest], key=lambda s: s.zeit)
        ergebnis.verletzung = verletzt.verletzung
    return ergebnis


def _alles_heil(cluster: Cluster) -> None:
    """The end of the faults: the network whole, every node running (clocks stay as they are)."""
    cluster.heile()
    for k in cluster.ids:
        cluster.fortsetzen(k)
        cluster.neustart(k)


#: What shrinking a run changes: the planned operations that run (their indices) and the
#: fault windows (``_fenster``).
_Wahl = tuple[tuple[int, ...], tuple[tuple[Stoerung, ...], ...]]

#: The shrinker's passes (``pysim.schrumpfen``): fewer operations first, then fewer faults.
_DURCHGAENGE: list[Durchgang[_Wahl]] = [
    delta_debugging(Linse(lambda w: w[0], lambda w, neu: (neu, w[1])), "Operationen weglassen"),
    delta_debugging(Linse(lambda w: w[1], lambda w, neu: (w[0], neu)), "Störungen weglassen"),
]


def verkleinere(start: Lauf, scheitert: Callable[[Lauf], bool], max_laeufe: int = 300) -> Lauf:
    """Der kleinste Lauf, den Delta Debugging findet, der noch ``scheitert``: erst weniger
    Operationen, dann weniger Störungen (eine Teilung und ihr Heilen zählen als eins), Runde um
    Runde, bis sich nichts mehr ändert, höchstens ``max_laeufe`` Läufe (``pysim.schrumpfen``).
    Deterministisch: derselbe Lauf gibt dasselbe Ergebnis."""
    indizes = tuple(range(len(start.geplant)) if start.auswahl is None else start.auswahl)
    # Faults in windows: a partition with its heal, a crash with its restart, a pause with its end.
    anfang: _Wahl = (indizes, tuple(tuple(f) for f in _fenster(start.stoerungen)))
    gescheitert: dict[_Wahl, Lauf] = {anfang: start}

    def scheitert_wahl(wahl: _Wahl) -> bool:
        versuch = start.wiederhole(
            auswahl=list(wahl[0]), stoerungen=[s for f in wahl[1] for s in f]
        )
        if scheitert(versuch):
            gescheitert[wahl] = versuch
            return True
        return False

    wahl = schrumpfe(
        anfang,
        scheitert_wahl,
        _DURCHGAENGE,
        ordnung=lambda w: (len(w[0]), len(w[1])),
        budget=max_laeufe,
    )
    bester = gescheitert[wahl]
    if bester.auswahl is None:
        bester = replace(bester, auswahl=list(range(len(bester.geplant))))
    return bester


def _fenster(plan: list[Stoerung]) -> list[list[Stoerung]]:
    """Each fault with the one that ends it (heile after a partition, neustart after absturz,
    weiter after pause), so that shrinking never leaves a partition without its heal."""
    ende = {"absturz": "neustart", "pause": "weiter"}
    fenster: list[list[Stoerung]] = []
    offen: dict[str, list[Stoerung]] = {}
    for s in plan:
        if s.art in ("teile", "isoliere", "bruecke", "mehrheit"):
            offen["netz"] = [s]
            fenster.append(offen["netz"])
        elif s.art == "heile" and "netz" in offen:
            offen.pop("netz").append(s)
        elif s.art in ende:
            offen[s.knoten] = [s]
            fenster.append(offen[s.knoten])
        elif s.art in ("neustart", "weiter") and s.knoten in offen:
            offen.pop(s.knoten).append(s)
        else:
            fenster.append([s])
    return fenster
