"""A challenge (``herausforderung``): the reader's node, run under a workload and faults, judged.

Runs at build time (CPython: the solution must pass every seed, the starting code fail at
least one) and in the browser (Pyodide, one call per seed, so the page shows progress and
stays responsive). Per seed the reader gets: passed, or the verdict of the workload's checker
(German, naming the failing operations), the smallest failing run found by shrinking, its
picture with the witnesses highlighted, the figures of the run and its identity to replay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lessonkit.runtime.checks import run_checks
from lessonkit.runtime.kernel import Kernel
from pysim.cluster import FENSTER, Knoten, LaufAbgebrochen
from pysim.cluster.bild import auswahl, nachrichten, raumzeit
from pysim.cluster.cluster import EMPFAENGER_AUS, GETRENNT, VERLOREN, ZUGESTELLT
from pysim.cluster.formen import antwortfehler
from pysim.cluster.lasten import LASTEN, Last
from pysim.cluster.lauf import Grenzen, Lauf, lauf, lauf_aus_kennung, lies_kennung, verkleinere
from pysim.cluster.protokoll import SCHICKSAL_TEXT, inhalt_text
from pysim.cluster.stoerungen import GEZIELT, GEZIELT_TEXT, INHABER_LEASE_TEXT
from pysim.cluster.ts_knoten import Gegenstelle, UebersetzungsFehler, ts_knoten_klasse
from pysim.fehler import SimFehler, UngueltigeEingabe
from pysim.pruefer import kennzahlen
from pysim.raft.herausforderung import HERAUSFORDERUNG_LASTEN
from pysim.transaktionen.herausforderung import HERAUSFORDERUNG_LASTEN as TXN_LASTEN

if TYPE_CHECKING:  # the browser's Python needs no types at run time
    from typing import TypedDict

    from lessonkit.build.contract import ChallengeSpec, RunLogLine, RunMessage, SeedOutcomeData

    class _WasGeschah(TypedDict):
        protokoll: list[RunLogLine]
        nachrichten: list[RunMessage]
        nachrichten_weggelassen: int


#: Runs a shrink may take per seed in the browser (each is a whole run).
MAX_VERKLEINERN = 150
#: Limits of a challenge: every seed is a whole run in the reader's browser (Prüfen stops at
#: the first that fails and shrinks only that one).
MAX_SEEDS = 100
MAX_KNOTEN = 9
#: Events a run of a challenge may take (``Cluster.max_ereignisse``): a node that floods the
#: network (a broadcast forwarded again on every receipt) ends with a verdict in seconds.
#: A 9-node broadcast with retries under partitions needs about 12,000.
MAX_EREIGNISSE = 50_000
#: The workloads a challenge may run: Maelstrom's (``LASTEN``), those of challenge 8 (Raft) and
#: of the challenge "Transaktionen".
ALLE_LASTEN: dict[str, type[Last]] = {**LASTEN, **HERAUSFORDERUNG_LASTEN, **TXN_LASTEN}
#: What a node's code gets without importing it.
VORSPANN = "from pysim.cluster import *\n"


@dataclass(frozen=True)
class Vorgabe:
    """What a challenge runs: the workload and its faults (the fence's options)."""

    last: str
    knoten: int = 3
    dauer: int = 100
    stoerungen: tuple[str, ...] = ()
    anzahl_stoerungen: int = 3
    seeds: int = 5
    verlust: float = 0.0
    timeout: int = 30
    #: A limit on messages between nodes per client operation (a performance target).
    max_nachrichten: float | None = None
    #: ``broadcast``: a limit on the ticks until every node read a value, (median, maximum)
    #: over a run's values (``ausbreitung``): the latency goal beside the message budget.
    max_ausbreitung: tuple[int, int] | None = None
    #: Options of the workload (``topologie=linie``).
    last_optionen: dict[str, str] = field(default_factory=dict)

    @classmethod
    def aus_dict(cls, daten: ChallengeSpec) -> Vorgabe:
        return cls(
            last=daten["last"],
            knoten=daten["knoten"],
            dauer=daten["dauer"],
            stoerungen=tuple(daten["stoerungen"]),
            anzahl_stoerungen=daten["anzahl_stoerungen"],
            seeds=daten["seeds"],
            verlust=daten["verlust"],
            timeout=daten["timeout"],
            max_nachrichten=daten["max_nachrichten"],
            max_ausbreitung=(
                (daten["max_ausbreitung"][0], daten["max_ausbreitung"][1])
                if daten["max_ausbreitung"] is not None
                else None
            ),
            last_optionen=dict(daten["last_optionen"]),
        )

    def als_dict(self) -> ChallengeSpec:
        return {
            "last": self.last,
            "knoten": self.knoten,
            "dauer": self.dauer,
            "stoerungen": list(self.stoerungen),
            "anzahl_stoerungen": self.anzahl_stoerungen,
            "seeds": self.seeds,
            "verlust": self.verlust,
            "timeout": self.timeout,
            "max_nachrichten": self.max_nachrichten,
            "max_ausbreitung": list(self.max_ausbreitung) if self.max_ausbreitung else None,
            "last_optionen": dict(self.last_optionen),
        }

    def beschreibung(self) -> str:
        """In German, for the page: what the node is run under."""
        gezogen = [art for art in self.stoerungen if art != "nachlauf"] or ["teilung"]
        # A kind listed twice is drawn twice as often (``zufaelliger_nemesis`` draws from the list).
        arten = list(dict.fromkeys(gezogen))
        genannt = [
            art if gezogen.count(art) == 1 else f"{art} ({gezogen.count(art)}-mal so oft)"
            for art in arten
        ]
        # a workload may bring its own faults (challenge 8's Figure 8): it says which
        eigene = str(getattr(ALLE_LASTEN.get(self.last), "eigene_stoerungen", ""))
        stoerungen = (
            f"je Lauf {self.anzahl_stoerungen} Störungen ({', '.join(genannt)})"
            if self.stoerungen
            else eigene or "ohne Störungen"
        )
        if "nachlauf" in self.stoerungen:
            stoerungen += (
                ", die letzte eine Netzpartition, die erst nach der letzten Anfrage der "
                "Clients heilt"
            )
        elif self.stoerungen:
            stoerungen += " bis zum Ende der Last"
        texte = {
            **GEZIELT_TEXT,
            **({"inhaber": INHABER_LEASE_TEXT} if "lease" in self.last else {}),
        }
        gezielt = [f"{art} {texte[art]}" for art in arten if art in GEZIELT]
        if gezielt:
            stoerungen += f" (gezielt: {'; '.join(gezielt)})"
        if "uhr" in arten and ("absturz" in arten or "bestaetigung" in arten):
            stoerungen += ", nach einem Absturz geht die Uhr des Knotens nach"
        verlust = f", {self.verlust:.0%} Verlust im Netz" if self.verlust else ""
        grenze = (
            f", höchstens {self.max_nachrichten:g} Nachrichten je Operation"
            if self.max_nachrichten is not None
            else ""
        )
        if self.max_ausbreitung is not None:
            median, hoechstens = self.max_ausbreitung
            grenze += (
                f", bis jeder Knoten einen Wert gelesen hat im Median höchstens {median} und "
                f"längstens {hoechstens} Ticks"
            )
        return (
            f"Last „{self.last}“ mit {self.knoten} Knoten, {self.dauer} Ticks, {stoerungen}{verlust}{grenze}. "
            f"{self.laeufe()}"
        )

    def laeufe(self) -> str:
        """In German, for the page: how many runs a verdict rests on."""
        if self.seeds == 1:
            return "Das Urteil beruht auf einem Lauf (Seed 1)."
        return (
            f"Das Urteil beruht auf {self.seeds} Läufen (Seeds 1–{self.seeds}); "
            "„Prüfen“ hält beim ersten an, der scheitert."
        )

    def neue_last(self) -> Last:
        try:
            art = ALLE_LASTEN[self.last]
        except KeyError:
            raise UngueltigeEingabe(
                f"Eine Last „{self.last}“ gibt es nicht. Es gibt: {', '.join(sorted(ALLE_LASTEN))}."
            ) from None
        optionen: dict[str, Any] = {
            name: LAST_OPTIONEN[name](wert) for name, wert in self.last_optionen.items()
        }
        return art(**optionen)

    def laufe(self, klasse: type[Knoten], seed: int) -> Lauf:
        return lauf(
            klasse,
            self.neue_last(),
            knoten=self.knoten,
            seed=seed,
            dauer=self.dauer,
            stoerungen="zufall" if self.stoerungen else None,
            arten=self.stoerungen,
            anzahl_stoerungen=self.anzahl_stoerungen,
            verlust=self.verlust,
            timeout=self.timeout,
            max_ereignisse=MAX_EREIGNISSE,
        )


#: Options of a workload's constructor that the fence takes (``topologie="linie"``).
LAST_OPTIONEN = {"topologie": str, "schluessel": int, "isolation": str}


def vorgabe_aus_optionen(options: dict[str, Any]) -> Vorgabe:
    """The fence's options (already read one by one) as a ``Vorgabe``; ValueError in German."""
    last = options.get("last")
    if not last:
        raise ValueError(
            f'Eine Herausforderung braucht last="…": {", ".join(sorted(ALLE_LASTEN))}.'
        )
    if last not in ALLE_LASTEN:
        raise ValueError(f"last=„{last}“ gibt es nicht: {', '.join(sorted(ALLE_LASTEN))}.")
    arten = tuple(a.strip() for a in str(options.get("stoerungen", "")).split(",") if a.strip())
    if arten == ("keine",):
        arten = ()
    for art in arten:
        if art not in FENSTER:
            raise ValueError(
                f"stoerungen: „{art}“ gibt es nicht: {', '.join(FENSTER)} oder „keine“."
            )
    last_optionen = {name: options[name] for name in LAST_OPTIONEN if name in options}
    vorgabe = Vorgabe(
        last=last,
        knoten=int(options.get("knoten", 3)),
        dauer=int(options.get("dauer", 100)),
        stoerungen=arten,
        anzahl_stoerungen=int(options.get("anzahl_stoerungen", 3)),
        seeds=int(options.get("seeds", 5)),
        verlust=float(options.get("verlust", 0.0)),
        timeout=int(options.get("timeout", 30)),
        max_nachrichten=float(options["max_nachrichten"]) if "max_nachrichten" in options else None,
        max_ausbreitung=_ausbreitung_grenze(options.get("max_ausbreitung"), last),
        last_optionen=last_optionen,
    )
    if vorgabe.seeds > MAX_SEEDS or vorgabe.knoten > MAX_KNOTEN:
        raise ValueError(
            f"Höchstens {MAX_SEEDS} Seeds und {MAX_KNOTEN} Knoten: Jeder Seed ist ein ganzer Lauf "
            "im Browser der Leserin."
        )
    try:
        vorgabe.neue_last()
    except (TypeError, SimFehler) as e:
        raise ValueError(f"Die Last „{last}“ nimmt diese Optionen nicht: {e}") from None
    return vorgabe


def _ausbreitung_grenze(wert: object, last: str) -> tuple[int, int] | None:
    """``max_ausbreitung="60/120"`` -> (60, 120); only ``broadcast`` measures it."""
    if wert is None:
        return None
    if last != "broadcast":
        raise ValueError(
            f"max_ausbreitung misst, wie lange ein Wert bis zu allen Knoten braucht: nur bei "
            f'last="broadcast", nicht bei last=„{last}“.'
        )
    median, _, hoechstens = str(wert).partition("/")
    grenze = (int(median), int(hoechstens))
    if grenze[0] > grenze[1]:
        raise ValueError(
            f"max_ausbreitung=„{wert}“: Der Median ({grenze[0]}) kann nicht über dem Höchstwert "
            f"({grenze[1]}) liegen."
        )
    return grenze


class KeinKnoten(UngueltigeEingabe):
    """The reader's code defines no node class, or more than one without saying which."""


def node_class(namespace: dict[str, Any]) -> type[Knoten]:
    """The reader's node: the one class in ``namespace`` that inherits from ``Knoten`` and
    is defined there (``KNOTEN = …`` picks one when there are several)."""
    gewaehlt = namespace.get("KNOTEN")
    if isinstance(gewaehlt, type) and issubclass(gewaehlt, Knoten):
        return gewaehlt
    eigene = [
        wert
        for wert in namespace.values()
        if isinstance(wert, type)
        and issubclass(wert, Knoten)
        and wert.__module__ == namespace.get("__name__")
        and wert is not Knoten
    ]
    if not eigene:
        raise KeinKnoten(
            "Dein Code definiert keinen Knoten: Schreib eine Klasse, die von Knoten erbt, "
            "z. B. „class MeinKnoten(Knoten):“."
        )
    if len(eigene) > 1:
        namen = ", ".join(sorted(k.__name__ for k in eigene))
        raise KeinKnoten(
            f"Dein Code definiert mehrere Knoten ({namen}). Sag, welcher laufen soll: "
            f"„KNOTEN = {eigene[-1].__name__}“."
        )
    return eigene[0]


@dataclass
class Urteilsteil:
    """One part of a seed's verdict: the checker's or one of the author's checks."""

    ok: bool
    erklaerung: str
    zeugen: list[int] = field(default_factory=list)


def judge(run: Lauf, vorgabe: Vorgabe, pruefung: str, grenze: bool = True) -> list[Urteilsteil]:
    """Everything a run must pass: the workload's checker, handler errors, replies in the
    form the workload declares (``pysim.cluster.formen``), the message budget (``grenze``)
    and the author's hidden checks (``pruefung``, with ``lauf`` in scope)."""
    teile: list[Urteilsteil] = []
    if run.fehler:
        erster = run.fehler[0]
        mehr = f" (und {len(run.fehler) - 1} weitere)" if len(run.fehler) > 1 else ""
        teile.append(Urteilsteil(False, f"Ein Handler warf: {erster}{mehr}."))
    # A reply in the wrong form ended its operation indeterminate: the checker below never
    # saw the value, and this part names it.
    form = antwortfehler(run.geschichte)
    if form is not None:
        teile.append(Urteilsteil(False, form.text, form.zeugen))
    urteil = run.last.pruefe(run)
    zeugen = sorted({i for op in urteil.zeugen for i in (op.index, op.index_ende) if i is not None})
    teile.append(Urteilsteil(urteil.ok, urteil.erklaerung, zeugen))
    budget = _budget(run, vorgabe) if grenze else None
    if budget is not None:
        teile.append(budget)
    schnell = _ausbreitung_teil(run, vorgabe) if grenze else None
    if schnell is not None:
        teile.append(schnell)
    if pruefung.strip():
        for check in run_checks(pruefung, {"__name__": "__main__", "lauf": run}):
            teile.append(Urteilsteil(check.ok, check.message or check.name))
    return teile


def _budget(run: Lauf, vorgabe: Vorgabe) -> Urteilsteil | None:
    """The limit on messages per operation, over the whole run (``max_nachrichten``)."""
    if vorgabe.max_nachrichten is None:
        return None
    je = run.nachrichten_je_operation()
    operationen = sum(1 for e in run.geschichte if e["type"] == "invoke" and e["process"] < 10_000)
    return Urteilsteil(
        je <= vorgabe.max_nachrichten,
        f"{je:.1f} Nachrichten zwischen Knoten je Operation "
        f"(erlaubt: höchstens {vorgabe.max_nachrichten:g}), gezählt über "
        f"{'die eine Operation' if operationen == 1 else f'alle {operationen} Operationen'} "
        "des Laufs.",
    )


def _ausbreitung_teil(run: Lauf, vorgabe: Vorgabe) -> Urteilsteil | None:
    """The latency goal (``max_ausbreitung``): median and maximum ticks until every node read
    a value, over the run's values that reached every node."""
    if vorgabe.max_ausbreitung is None:
        return None
    median, hoechstens = ausbreitung(run)
    grenze_median, grenze_max = vorgabe.max_ausbreitung
    erlaubt = f"(erlaubt: im Median höchstens {grenze_median}, längstens {grenze_max} Ticks)"
    if median is None or hoechstens is None:
        return Urteilsteil(
            False,
            f"Kein Wert kam bei allen Knoten an, so lässt sich nicht messen, wie schnell sie "
            f"sich ausbreiten {erlaubt}.",
        )
    return Urteilsteil(
        median <= grenze_median and hoechstens <= grenze_max,
        f"Bis jeder Knoten einen Wert gelesen hatte, vergingen im Median {median} und "
        f"längstens {hoechstens} Ticks {erlaubt}, gemessen an den Lesen der Clients.",
    )


def ausbreitung(run: Lauf) -> tuple[int | None, int | None]:
    """``broadcast``: median and maximum of the ticks from a value's broadcast until every node
    had read it (the checker's ``sichtbar_nach``, as Maelstrom's stable latency measures it from
    the clients' reads); ``(None, None)`` for other workloads or when no value reached all."""
    if run.last.name != "broadcast":
        return None, None
    try:
        sichtbar = run.last.pruefe(run).angaben.get("sichtbar_nach", {})
    except SimFehler:  # a history the checker rejects: its verdict says why
        return None, None
    dauer = sorted(sichtbar.values()) if isinstance(sichtbar, dict) else []
    if not dauer:
        return None, None
    return dauer[(len(dauer) - 1) // 2], dauer[-1]


def _bestanden(teile: list[Urteilsteil]) -> bool:
    return all(teil.ok for teil in teile)


async def load_node(
    code: str, sprache: str = "python", gegenstelle: Gegenstelle | None = None
) -> tuple[type[Knoten] | None, str | None]:
    """Run the reader's code like a cell (German errors with its own lines); its node class.
    TypeScript (``sprache="typescript"``) is compiled by the runtime ``gegenstelle`` reaches
    (``pysim.cluster.ts_knoten``) and its node stands in as a ``Knoten``."""
    if sprache == "typescript":
        if gegenstelle is None:
            return None, "TypeScript ist hier nicht geladen."
        try:
            return ts_knoten_klasse(code, gegenstelle), None
        except UebersetzungsFehler as e:
            return None, str(e)
    if sprache != "python":
        return None, f"Eine Sprache „{sprache}“ gibt es nicht: python oder typescript."
    kernel = Kernel()
    namespace = kernel.namespace("herausforderung")
    exec(VORSPANN, namespace)
    result = await kernel.run("herausforderung", code, "Dein Code")
    if result.error is not None:
        return None, result.error
    try:
        return node_class(namespace), None
    except KeinKnoten as e:
        return None, str(e)


def seed_outcome(
    klasse: type[Knoten],
    vorgabe: Vorgabe,
    seed: int,
    pruefung: str,
    urteilen: bool = True,
    verkleinern: bool = True,
    zeigen: bool | None = None,
) -> SeedOutcomeData:
    """One seed: the run, judged (``urteilen``), shrunk when it fails (``verkleinern``), with
    its picture (``zeigen``: also when it passes, as the workbench's Ausführen wants). A run that fails only the message budget is not shrunk (the budget holds for
    the whole run); nor is one that reaches ``MAX_EREIGNISSE``: it fails with the cluster's
    message, also when it is only run."""
    try:
        run = vorgabe.laufe(klasse, seed)
    except LaufAbgebrochen as abbruch:
        return _abgebrochen(abbruch, seed)
    if not urteilen:
        return _beschreibe(run, None, [])
    teile = judge(run, vorgabe, pruefung)
    if _bestanden(teile):
        return _beschreibe(run, True, teile, zeigen=zeigen)
    # The budget counts over the whole run: in a smaller one the fixed cost of a gossip round
    # falls on fewer operations. Only what fails without it is shrunk.
    if not verkleinern or _bestanden(judge(run, vorgabe, pruefung, grenze=False)):
        return _beschreibe(run, False, teile)
    try:
        klein = verkleinere(
            run,
            lambda r: not _bestanden(judge(r, vorgabe, pruefung, grenze=False)),
            MAX_VERKLEINERN,
        )
    except LaufAbgebrochen:  # a smaller run floods where the whole did not: show the whole
        return _beschreibe(run, False, teile)
    budget = _budget(run, vorgabe)
    ueber = [budget] if budget is not None and not budget.ok else []
    return _beschreibe(
        klein, False, [*judge(klein, vorgabe, pruefung, grenze=False), *ueber], gross=run
    )


#: Characters of an identity a reader may paste (the page's input takes as many).
MAX_KENNUNG = 2_000


def grenzen(vorgabe: Vorgabe) -> Grenzen:
    """What an identity pasted on the page may ask for: the nodes and ticks its runs have."""
    return Grenzen(knoten=vorgabe.knoten, dauer=vorgabe.dauer)


def kennung_fehler(vorgabe: Vorgabe, kennung: str) -> str | None:
    """What is wrong with an identity a reader pasted, in German, or None: read as ``replay``
    reads it (``lies_kennung`` within ``grenzen``), without running anything."""
    if len(kennung) > MAX_KENNUNG:
        return (
            f"Die Kennung hat {len(kennung):,} Zeichen; eine Kennung dieser Seite hat höchstens "
            f"{MAX_KENNUNG:,}.".replace(",", ".")
        )
    try:
        lies_kennung(vorgabe.neue_last(), kennung, grenzen=grenzen(vorgabe))
    except UngueltigeEingabe as e:
        return str(e)
    return None


def replay(klasse: type[Knoten], vorgabe: Vorgabe, kennung: str, pruefung: str) -> SeedOutcomeData:
    """The run a reader copied (its identity), judged again, with its picture, its log and its
    messages also when it passes (the reader asked to see it). An identity that
    ``kennung_fehler`` rejects raises ``UngueltigeEingabe`` with its sentence; nothing runs."""
    fehler = kennung_fehler(vorgabe, kennung)
    if fehler is not None:
        raise UngueltigeEingabe(fehler)
    try:
        run = lauf_aus_kennung(
            klasse,
            vorgabe.neue_last(),
            kennung,
            grenzen=grenzen(vorgabe),
            verlust=vorgabe.verlust,
            timeout=vorgabe.timeout,
            max_ereignisse=MAX_EREIGNISSE,
        )
    except LaufAbgebrochen as abbruch:
        return _abgebrochen(abbruch, 0)
    teile = judge(run, vorgabe, pruefung)
    return _beschreibe(run, _bestanden(teile), teile, zeigen=True)


def _abgebrochen(abbruch: LaufAbgebrochen, seed: int) -> SeedOutcomeData:
    """A run that hit a limit (events, or a handler that does not end): the cluster's German
    message as the verdict, with the run until then. A limit hit in ``beim_start``, before the
    run existed, has no picture."""
    teile = [Urteilsteil(False, str(abbruch))]
    if abbruch.lauf is None:
        return {**failed_to_load("", seed), "error": None, "urteil": [str(abbruch)]}
    return _beschreibe(abbruch.lauf, False, teile)


def _beschreibe(
    run: Lauf,
    ok: bool | None,
    teile: list[Urteilsteil],
    gross: Lauf | None = None,
    zeigen: bool | None = None,
) -> SeedOutcomeData:
    """The outcome of ``run``. ``zeigen``: with its picture, its log and its messages; by
    default unless it passed (a passed seed of Prüfen is one line on the page: less to draw
    and to send)."""
    zeugen = sorted({i for teil in teile for i in teil.zeugen})
    zaehlung = run.cluster.zaehle()
    zahlen = kennzahlen(run.geschichte, nachrichten=zaehlung["gesendet"])
    verloren = zaehlung[VERLOREN] + zaehlung[GETRENNT] + zaehlung[EMPFAENGER_AUS]
    median, maximum = ausbreitung(run)
    zeigen = not ok if zeigen is None else zeigen
    return {
        "error": None,
        "seed": run.seed,
        "ok": ok,
        "urteil": [teil.erklaerung for teil in teile if not teil.ok] if ok is False else [],
        "kennung": run.kennung,
        "operationen": len(run.geplant),
        "operationen_vorher": len(gross.geplant) if gross is not None else None,
        "kennzahlen": {
            "nachrichten": zaehlung["gesendet"],
            "verloren": verloren,
            "unterwegs": zaehlung["gesendet"] - zaehlung[ZUGESTELLT] - verloren,
            "je_operation": round(run.nachrichten_je_operation(), 2),
            "ok_anteil": round(zahlen.verfuegbarkeit or 0.0, 3),
            "latenz_p50": zahlen.latenz_p50,
            "latenz_p99": zahlen.latenz_p99,
            "latenz_max": zahlen.latenz_max,
            "ausbreitung_median": median,
            "ausbreitung_max": maximum,
        },
        "svg": _bild(run, zeugen) if zeigen else "",
        **_was_geschah(run, zeigen),
    }


def _bild(run: Lauf, zeugen: list[int]) -> str:
    """The run's space-time picture: with the moment each operation took effect where the
    workload's checker looks for one (a register: Porcupine's linearization points), and
    under the lanes what each node shows in ``zustand()`` at the end (when one shows any)."""
    return raumzeit(run, zeugen, punkte=run.last.punkte(run), zustand=run.zustaende).svg


def _was_geschah(run: Lauf, zeigen: bool) -> _WasGeschah:
    """The run's log (notes and prints) and the messages its picture draws, each as text."""
    if not zeigen:
        return {"protokoll": [], "nachrichten": [], "nachrichten_weggelassen": 0}
    alle = nachrichten(run)
    gezeigt = auswahl(alle)  # the messages the picture draws
    return {
        "protokoll": [
            {"zeit": z.zeit, "knoten": z.knoten, "art": z.art, "text": z.text}
            for z in run.protokoll
        ],
        "nachrichten": [
            {
                "gesendet": s.gesendet,
                "ankunft": s.ankunft,
                "von": s.nachricht.src,
                "an": s.nachricht.dest,
                "schicksal": SCHICKSAL_TEXT.get(s.schicksal, s.schicksal),
                "inhalt": inhalt_text(s.nachricht.body),
            }
            for s in gezeigt
        ],
        "nachrichten_weggelassen": len(alle) - len(gezeigt),
    }


def failed_to_load(error: str, seed: int = 0) -> SeedOutcomeData:
    """The reader's code did not run (or defines no node): only the error."""
    return {
        "error": error,
        "seed": seed,
        "ok": False,
        "urteil": [],
        "kennung": "",
        "operationen": 0,
        "operationen_vorher": None,
        "kennzahlen": {
            "nachrichten": 0,
            "verloren": 0,
            "unterwegs": 0,
            "je_operation": 0.0,
            "ok_anteil": 0.0,
            "latenz_p50": None,
            "latenz_p99": None,
            "latenz_max": None,
            "ausbreitung_median": None,
            "ausbreitung_max": None,
        },
        "svg": "",
        "protokoll": [],
        "nachrichten": [],
        "nachrichten_weggelassen": 0,
    }
