"""Der Nemesis: Störungen mit Namen auf einem Zeitplan (wie Jepsens Nemesis bei Maelstrom).

Eine ``Stoerung`` geschieht zu einem Tick: das Netz teilen (``teile``: zwei Seiten; ``isoliere``:
ein Knoten allein; ``bruecke``: zwei Hälften, die sich einen Knoten teilen; ``mehrheit``: eine
Mehrheit und eine Minderheit), ``heile``; ``absturz`` und ``neustart`` (der Speicher ist weg,
``speicher`` bleibt); ``pause`` und ``weiter`` (der Knoten bearbeitet nichts, seine Timer feuern
spät: die GC-Pause hinter den meisten Lease-Fehlern); ``uhr`` (Versatz und Drift einer Uhr);
``verliere`` (was ein Dienst dem Knoten schickt und in diesem Tick ankäme, geht verloren);
``langsam`` (die Leitungen zwischen zwei Seiten brauchen ``latenz`` Ticks: ein Replikat, das
hinterherhinkt) bis ``schnell`` oder ``heile``; ``failover`` (der Leader ``knoten`` wird
abgelöst: Die Front des Clusters befördert einen Follower, ``nach`` oder den, den sie wählt;
``40:failover:[Leader]`` trifft, wer gerade Leader ist, ``40:failover:n1>n3`` befördert n3).
Eine Störung läuft vor allem anderen ihres Ticks (``Zeit.schedule_zuerst``).

Eine Störung kann statt eines Knotens eine Rolle treffen (``[leader]``, was ein Knoten in
``self.rolle`` sagt): ``40:absturz:[leader]``, ``12:isoliere:[leader]|rest`` (``rest``: alle
übrigen Knoten). Welche Knoten das sind, entscheidet ihr Tick; ist keiner in der Rolle,
bleibt die Störung aus, und das Protokoll des Laufs sagt es. ``neustart`` und ``weiter`` mit
einer Rolle treffen die Knoten, die die letzte Störung mit dieser Rolle traf.

Ein Störplan ist eine Liste davon. ``zufaelliger_plan`` würfelt einen aus dem Seed, mit Fenstern
bis zum Ende der Last (wie Jepsens Nemesis, der bis zum Zeitlimit stört; danach heilt der Lauf
alles). ``als_text`` und ``plan_aus_text`` machen daraus eine kurze Zeile und zurück (für die
Kennung eines Laufs).

Gezielte Störungen (``GEZIELT``) warten in ihrem Fenster auf ihren Augenblick (``Ausloeser``),
wie Jepsens Nemesis, der bei einer Datenbank den Primary isoliert: ``GezielterNemesis`` sieht
jede Nachricht des Laufs und schlägt zu, wenn ein Schreiben eines Clients unterwegs ist (den
Leader oder einen Follower isolieren), wenn der Inhaber einer Lease ihre Antwort bekommt (ihn
anhalten) oder wenn ein Schreiben gespeichert ist (den Knoten abstürzen lassen oder die Antwort
des Dienstes verlieren). Was er tut,
wird eine gewöhnliche ``Stoerung`` mit ihrem ``anlass``, ab dem nächsten Tick: Die Kennung nennt
sie wie jede andere, und eine Wiederholung aus der Kennung braucht keinen Nemesis mehr.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..fehler import UngueltigeEingabe, aufzaehlung

if TYPE_CHECKING:
    from ..zeit import Termin
    from .cluster import Cluster, Sendung
    from .dienste import LeaseDienst

#: Every kind of fault, with what it needs: sides (``seiten``), nodes (``knoten``) or nothing.
ARTEN = (
    "teile",
    "isoliere",
    "bruecke",
    "mehrheit",
    "heile",
    "absturz",
    "neustart",
    "pause",
    "weiter",
    "uhr",
    "verliere",
    "langsam",
    "schnell",
    "failover",
)
#: Kinds between sides (``seiten``).
_SEITEN = ("teile", "isoliere", "bruecke", "mehrheit", "langsam", "schnell")
#: In a side of a fault aimed at a role: every node not on another side.
REST = "rest"
#: Targeted kinds: each waits in its window for its moment (``Ausloeser``, ``GezielterNemesis``).
GEZIELT = ("leader", "follower", "inhaber", "bestaetigung", "antwort")
#: What ``zufaelliger_plan`` can draw; each is a window with a start and an end. ``nachlauf`` is
#: not drawn: it makes the last window a partition that outlasts the load (``NACHLAUF``).
FENSTER = (
    "teilung",
    "isolation",
    "bruecke",
    "mehrheit",
    "absturz",
    "pause",
    "uhr",
    *GEZIELT,
    "nachlauf",
)
#: A ``nachlauf`` partition heals this many ticks after ``dauer``, when the clients have stopped:
#: longer than a message between nodes takes (``latenz`` 1 to 5 ticks), so whatever a node sent
#: about the last requests has arrived on its own side or been lost at the cut.
NACHLAUF = 10
#: Why a targeted fault happened (``Stoerung.anlass``): a short word for the picture and the
#: sentence for the list of faults.
ANLASS = {
    "leader": ("Leader", "der Leader, während ein Schreiben unterwegs ist"),
    "follower": ("Follower", "ein Follower, während der Leader ein Schreiben verteilt"),
    "inhaber": ("Inhaber", "zwischen der Antwort eines Dienstes und dem Schreiben"),
    "bestaetigung": ("nach Speichern", "nachdem ein Schreiben gespeichert ist"),
    "antwort": ("Antwort verloren", "die Antwort auf ein gespeichertes Schreiben"),
    "neustart": ("Uhr nach Neustart", "eine Uhr, die nach dem Neustart nachgeht"),
}
#: What a targeted kind does, for the page that names a challenge's faults.
GEZIELT_TEXT = {
    "leader": "isoliert den Leader, während ein Schreiben unterwegs ist",
    "follower": "isoliert einen Follower, während der Leader ein Schreiben verteilt",
    "inhaber": "hält einen Knoten zwischen der Antwort eines Dienstes und seinem Schreiben an",
    "bestaetigung": "lässt einen Knoten abstürzen, nachdem ein Schreiben gespeichert ist",
    "antwort": "lässt die Antwort eines Dienstes auf ein gespeichertes Schreiben verloren gehen",
}
#: ``inhaber`` where the nodes ask the lock service ``lease``.
INHABER_LEASE_TEXT = "hält den Inhaber der Lease zwischen Prüfen und Schreiben an"
#: Client requests that change something: a targeted fault waits for one of them in flight.
SCHREIBEND = frozenset({"write", "cas", "add", "send", "commit_offsets", "broadcast", "generate"})
#: Services that store a write: their ``write_ok``/``cas_ok`` means the store happened.
_GESPEICHERT = frozenset({"write_ok", "cas_ok"})
#: A clock set back at a restart (with ``uhr`` among the kinds): by the time the node was down
#: and 20 to 40 ticks more, so it reads times it had read before its crash, also after its
#: clients gave up on their requests to the crashed node (``timeout``, 30 ticks).
_NACHGEHEN = (20, 40)


@dataclass(frozen=True)
class Stoerung:
    """Eine Störung zum Tick ``zeit``. ``seiten`` für Teilungen, ``knoten`` für einen Knoten;
    ``anlass`` (``ANLASS``) bei einer gezielten Störung: warum der Nemesis sie wählte."""

    zeit: int
    art: str
    knoten: str = ""
    seiten: tuple[tuple[str, ...], ...] = ()
    versatz: int = 0
    drift: float = 0.0
    anlass: str = ""
    #: ``langsam``: the smallest and largest latency of its links in ticks.
    latenz: tuple[int, int] = (0, 0)
    #: ``failover``: the follower to promote ("": the one the cluster's front chooses). Not in
    #: the repr: a plan printed before this field existed prints as it did.
    nach: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        if self.art not in ARTEN:
            raise UngueltigeEingabe(
                f"Eine Störung „{self.art}“ gibt es nicht. Es gibt: {aufzaehlung(ARTEN)}."
            )
        if self.anlass and self.anlass not in ANLASS:
            raise UngueltigeEingabe(
                f"Einen Anlass „{self.anlass}“ gibt es nicht. Es gibt: {aufzaehlung(ANLASS)}."
            )

    @property
    def rolle(self) -> str:
        """The role this fault aims at (``[leader]`` in ``knoten`` or a side), else ""."""
        for k in (self.knoten, *(k for seite in self.seiten for k in seite)):
            if ist_rolle(k):
                return k[1:-1]
        return ""

    def anwenden(self, cluster: Cluster) -> None:
        if self.rolle:
            self._auf_rolle(cluster)
            return
        vorher = len(cluster.ereignisse)
        if self.art in ("langsam", "schnell"):
            links, rechts = self.seiten
            cluster.latenz_zwischen(links, rechts, self.latenz if self.art == "langsam" else None)
        elif self.art in ("teile", "isoliere", "bruecke", "mehrheit"):
            cluster.trenne(*self.seiten)
        elif self.art == "heile":
            cluster.heile()
        elif self.art == "absturz":
            cluster.absturz(self.knoten)
        elif self.art == "neustart":
            cluster.neustart(self.knoten)
        elif self.art == "pause":
            cluster.pausiere(self.knoten)
        elif self.art == "weiter":
            cluster.fortsetzen(self.knoten)
        elif self.art == "verliere":
            cluster.verliere_dienstantworten(self.knoten)
        elif self.art == "failover":
            cluster.failover(self.knoten, self.nach)
        else:
            cluster.verstelle_uhr(self.knoten, self.versatz, self.drift)
        if self.anlass:
            for ereignis in cluster.ereignisse[vorher:]:
                ereignis.anlass = self.anlass
                ereignis.text += f" (gezielt: {ANLASS[self.anlass][0]})"

    def _auf_rolle(self, cluster: Cluster) -> None:
        """The fault on the nodes in its role at its tick (or, with none, nothing and a line in
        the run's log)."""
        rolle = self.rolle
        if self.seiten:
            if any(ist_rolle(k) and not cluster.rollen(k[1:-1]) for s in self.seiten for k in s):
                cluster.notiere_stoerung(_bleibt_aus(self, rolle))
                return
            seiten = [[k for x in seite for k in _aufgeloest(x, cluster)] for seite in self.seiten]
            genannt = {k for seite in seiten for k in seite}
            rest = [k for k in cluster.ids if k not in genannt]
            ziele = [
                tuple(dict.fromkeys([*seite, *(rest if REST in roh else [])]))
                for seite, roh in zip(seiten, self.seiten, strict=True)
            ]
            if not all(ziele):  # ``rest`` with no node left
                cluster.notiere_stoerung(_bleibt_aus(self, rolle))
                return
            konkret = [replace(self, seiten=tuple(ziele))]
        else:
            if self.art in ("neustart", "weiter"):
                knoten = cluster.getroffen.get(rolle, [])
            elif self.art == "failover":
                # away from the node in the role, or, crashed, from the one the last fault of
                # the role hit (``absturz:[Leader]``, then ``failover:[Leader]``)
                knoten = cluster.rollen(rolle) or cluster.getroffen.get(rolle, [])
            else:
                knoten = cluster.rollen(rolle)
                cluster.getroffen[rolle] = knoten
            if not knoten:
                cluster.notiere_stoerung(_bleibt_aus(self, rolle))
                return
            konkret = [replace(self, knoten=k) for k in knoten]
        vorher = len(cluster.ereignisse)
        for stoerung in konkret:
            stoerung.anwenden(cluster)
        for ereignis in cluster.ereignisse[vorher:]:
            ereignis.text += f" (Rolle {rolle})"

    def als_text(self) -> str:
        """Kurz, für die Kennung: ``12:teile:n1.n2|n3``, ``40:absturz:n2``, ``5:uhr:n1:+10:0.1``;
        eine gezielte mit ihrem Anlass: ``33:isoliere:n1|n2.n3@leader``; ein Failover, der n3
        befördert: ``40:failover:n1>n3``."""
        teile = [str(self.zeit), self.art]
        if self.seiten:
            teile.append("|".join(".".join(seite) for seite in self.seiten))
        elif self.knoten:
            teile.append(self.knoten + (f">{self.nach}" if self.nach else ""))
        if self.art == "uhr":
            teile += [f"{self.versatz:+d}", f"{self.drift:g}"]
        if self.art == "langsam":
            teile.append(f"{self.latenz[0]}-{self.latenz[1]}")
        return ":".join(teile) + (f"@{self.anlass}" if self.anlass else "")

    def __str__(self) -> str:
        seiten = " | ".join(" ".join(map(_name, seite)) for seite in self.seiten)
        allein = " ".join(map(_name, self.seiten[0])) if self.seiten else ""
        knoten = _name(self.knoten)
        zwischen = " und ".join(" ".join(map(_name, seite)) for seite in self.seiten)
        texte = {
            "teile": f"Netz geteilt: {seiten}",
            "isoliere": f"{allein} isoliert: {seiten}",
            "bruecke": f"Brücke: {seiten}",
            "mehrheit": f"Mehrheit und Minderheit: {seiten}",
            "heile": "Netz wieder ganz",
            "absturz": f"{knoten} stürzt ab",
            "neustart": f"{knoten} startet neu",
            "pause": f"{knoten} hält an",
            "weiter": f"{knoten} läuft weiter",
            "verliere": f"Antworten eines Dienstes an {knoten} gehen in diesem Tick verloren",
            "uhr": f"Uhr von {knoten}: {self.versatz:+d} Ticks, Drift {self.drift:+.0%}",
            "langsam": f"Leitung zwischen {zwischen} langsam: {self.latenz[0]} bis "
            f"{self.latenz[1]} Ticks",
            "schnell": f"Leitung zwischen {zwischen} wieder normal",
            "failover": f"Failover: {knoten} verliert die Leitung, "
            + (f"{self.nach} übernimmt" if self.nach else "ein Follower übernimmt"),
        }
        gezielt = f" (gezielt: {ANLASS[self.anlass][1]})" if self.anlass else ""
        return f"t={self.zeit}: {texte[self.art]}{gezielt}"


def ist_rolle(name: str) -> bool:
    """``[leader]``: a role, not a node."""
    return len(name) > 2 and name[0] == "[" and name[-1] == "]"


def _name(k: str) -> str:
    """A node or a role, as a sentence names it."""
    if ist_rolle(k):
        return f"wer {k[1:-1]} ist"
    return "alle übrigen" if k == REST else k


def _aufgeloest(k: str, cluster: Cluster) -> list[str]:
    """The nodes ``k`` names now: a node, the nodes in a role, or none (``rest`` comes later)."""
    if ist_rolle(k):
        return cluster.rollen(k[1:-1])
    return [] if k == REST else [k]


def _bleibt_aus(stoerung: Stoerung, rolle: str) -> str:
    return f"Die Störung „{stoerung.als_text()}“ bleibt aus: Kein Knoten ist gerade {rolle}" + (
        " (die letzte Störung dieser Rolle traf keinen)."
        if stoerung.art in ("neustart", "weiter")
        else "."
    )


def als_text(plan: Iterable[Stoerung]) -> str:
    return ";".join(stoerung.als_text() for stoerung in plan)


def plan_aus_text(text: str, knoten: Sequence[str]) -> list[Stoerung]:
    """Der Störplan aus ``als_text``; ein falscher Text ist ein ``UngueltigeEingabe`` mit der Stelle.
    Störungen im selben Tick bleiben in ihrer Reihenfolge (so liefen sie)."""
    plan = []
    for nummer, teil in enumerate(filter(None, text.split(";")), start=1):
        ohne_anlass, _, anlass = teil.partition("@")
        felder = ohne_anlass.split(":")
        try:
            if anlass and anlass not in ANLASS:
                raise ValueError(f"einen Anlass {anlass!r} gibt es nicht")
            zeit, art = int(felder[0]), felder[1]
            if art in _SEITEN:
                seiten = tuple(tuple(seite.split(".")) for seite in felder[2].split("|"))
                for k in (k for seite in seiten for k in seite):
                    _pruefe(k, knoten, seite=True)
                latenz = (0, 0)
                if art in ("langsam", "schnell") and len(seiten) != 2:
                    raise ValueError(f"„{art}“ verbindet zwei Seiten, wie „n1|n3“")
                if art == "langsam":
                    kleinste, _, groesste = felder[3].partition("-")
                    latenz = (int(kleinste), int(groesste or kleinste))
                    if not 0 <= latenz[0] <= latenz[1]:
                        raise ValueError(f"die Laufzeit {felder[3]!r} ist keine Spanne wie 8-12")
                plan.append(Stoerung(zeit, art, seiten=seiten, anlass=anlass, latenz=latenz))
            elif art == "heile":
                plan.append(Stoerung(zeit, art, anlass=anlass))
            elif art == "uhr":
                plan.append(
                    Stoerung(
                        zeit,
                        art,
                        _pruefe(felder[2], knoten),
                        versatz=int(felder[3]),
                        drift=float(felder[4]),
                        anlass=anlass,
                    )
                )
            elif art == "failover":
                alt, _, nach = felder[2].partition(">")
                nach = _pruefe(nach, knoten) if nach else ""
                plan.append(Stoerung(zeit, art, _pruefe(alt, knoten), anlass=anlass, nach=nach))
            else:
                plan.append(Stoerung(zeit, art, _pruefe(felder[2], knoten), anlass=anlass))
        except (IndexError, ValueError) as e:
            raise UngueltigeEingabe(
                f"Der Störplan ist an Stelle {nummer} („{teil}“) nicht lesbar: erwartet wie "
                f"„12:teile:n1.n2|n3“, „40:absturz:n2“, „40:absturz:[leader]“, "
                f"„5:langsam:n1|n3:8-12“ oder „40:failover:[Leader]“ ({e})."
            ) from None
    return sorted(plan, key=lambda s: s.zeit)


#: What a role's name may hold (it stands in a fault plan's text and an identity).
_ROLLENZEICHEN = frozenset("abcdefghijklmnopqrstuvwxyzäöüß0123456789_-")


def _pruefe(k: str, knoten: Sequence[str], seite: bool = False) -> str:
    if ist_rolle(k):
        if len(k) > 22 or not set(k[1:-1].lower()) <= _ROLLENZEICHEN:
            raise ValueError(
                f"eine Rolle {k!r} geht nicht: höchstens 20 Buchstaben, Ziffern, _ oder -"
            )
        return k
    if seite and k == REST:
        return k
    if k not in knoten:
        raise ValueError(f"einen Knoten {k!r} gibt es nicht")
    return k


@dataclass(frozen=True)
class Ausloeser:
    """Eine gezielte Störung (``art`` aus ``GEZIELT``), die ab Tick ``von`` bis vor ``bis`` auf
    ihren Augenblick wartet und dann ``laenge`` Ticks dauert (höchstens bis zum Ende der Last).
    ``wahl`` (0 bis 1) entscheidet, wo es mehrere gibt (welcher Follower, welcher Augenblick);
    ``uhr``: um so viele Ticks mehr als er ausfiel geht die Uhr eines abgestürzten Knotens nach
    dem Neustart nach."""

    art: str
    von: int
    bis: int
    laenge: int
    wahl: float
    uhr: int = 0


def zufaelliger_plan(
    zufall: random.Random,
    knoten: Sequence[str],
    dauer: int,
    arten: Sequence[str] = ("teilung",),
    anzahl: int = 3,
) -> list[Stoerung]:
    """Die festen Störungen von ``zufaelliger_nemesis`` (ohne die gezielten)."""
    return zufaelliger_nemesis(zufall, knoten, dauer, arten, anzahl)[0]


def zufaelliger_nemesis(
    zufall: random.Random,
    knoten: Sequence[str],
    dauer: int,
    arten: Sequence[str] = ("teilung",),
    anzahl: int = 3,
) -> tuple[list[Stoerung], list[Ausloeser]]:
    """``anzahl`` Fenster nacheinander, von 10 % von ``dauer`` bis zum Ende der Last; das letzte
    endet erst mit ihr (wie Jepsens Nemesis bis zum Zeitlimit stört: Ein Knoten, der nur dann
    nachbessert, wenn wieder eine Anfrage kommt, bessert danach nie mehr nach). Die Art je
    Fenster aus ``arten`` (``FENSTER``). Nach jedem Fenster ist alles wieder heil (geheilt, neu
    gestartet, weiter; die Uhr bleibt verstellt). Ist ``uhr`` unter den Arten, geht die Uhr eines
    Knotens nach einem Absturz nach dem Neustart nach, weiter zurück, als er ausfiel (ein
    Rechner, dessen Uhr beim Start noch falsch steht, bis NTP sie stellt).

    Eine gezielte Art (``GEZIELT``) wird ein ``Ausloeser``: Er wartet in seinem Fenster auf
    seinen Augenblick. Mit ``nachlauf`` in ``arten`` ist das letzte Fenster eine Netzpartition,
    die erst ``NACHLAUF`` Ticks nach ``dauer`` heilt: Sie überdauert die letzte Anfrage der
    Clients."""
    for art in arten:
        if art not in FENSTER:
            raise UngueltigeEingabe(
                f"Eine Störung „{art}“ gibt es nicht. Es gibt: {aufzaehlung(FENSTER)}."
            )
    if anzahl == 0 or not arten:
        return [], []
    nachlauf = "nachlauf" in arten
    uhren = "uhr" in arten
    arten = [art for art in arten if art != "nachlauf"] or ["teilung"]
    plan: list[Stoerung] = []
    ausloeser: list[Ausloeser] = []
    beginn = dauer // 10
    platz = max(2, (dauer - beginn) // anzahl)
    ids = list(knoten)
    for i in range(anzahl):
        letztes = i == anzahl - 1
        ende = dauer if letztes else beginn + (i + 1) * platz - 1
        start = min(beginn + i * platz + zufall.randrange(max(1, platz // 4)), dauer - 1)
        schluss = min(start + max(1, platz // 2 + zufall.randrange(max(1, platz // 4))), ende)
        if letztes:
            schluss = dauer  # the faults go on until the load ends
        art = arten[zufall.randrange(len(arten))]
        k = ids[zufall.randrange(len(ids))]
        if nachlauf and letztes:
            art, schluss = "teilung", dauer + NACHLAUF
        if art in GEZIELT:
            nachgehen = zufall.randint(*_NACHGEHEN) if uhren and art == "bestaetigung" else 0
            ausloeser.append(
                Ausloeser(art, start, ende, max(1, schluss - start), zufall.random(), nachgehen)
            )
            continue
        if art in ("teilung", "mehrheit", "isolation", "bruecke") and len(ids) < 2:
            continue
        if art in ("teilung", "mehrheit"):
            gemischt = ids[:]
            zufall.shuffle(gemischt)
            if art == "teilung":
                schnitt = 1 + zufall.randrange(len(ids) - 1)
            else:
                schnitt = len(ids) // 2 + 1
            plan.append(
                Stoerung(
                    start,
                    "teile" if art == "teilung" else "mehrheit",
                    seiten=(tuple(sorted(gemischt[:schnitt])), tuple(sorted(gemischt[schnitt:]))),
                )
            )
        elif art == "isolation":
            rest = tuple(x for x in ids if x != k)
            plan.append(Stoerung(start, "isoliere", seiten=((k,), rest)))
        elif art == "bruecke":
            if len(ids) < 3:
                continue
            gemischt = [x for x in ids if x != k]
            zufall.shuffle(gemischt)
            haelfte = len(gemischt) // 2
            plan.append(
                Stoerung(
                    start,
                    "bruecke",
                    seiten=(
                        tuple(sorted([*gemischt[:haelfte], k])),
                        tuple(sorted([*gemischt[haelfte:], k])),
                    ),
                )
            )
        elif art == "absturz":
            plan += _absturz(start, schluss, k, zufall.randint(*_NACHGEHEN) if uhren else 0, "")
            continue
        elif art == "pause":
            plan += [Stoerung(start, "pause", k), Stoerung(schluss, "weiter", k)]
            continue
        else:
            versatz = zufall.choice((-1, 1)) * (5 + zufall.randrange(16))
            plan.append(
                Stoerung(start, "uhr", k, versatz=versatz, drift=zufall.choice((-0.1, 0.1)))
            )
            continue
        plan.append(Stoerung(schluss, "heile"))
    return sorted(plan, key=lambda s: s.zeit), ausloeser


def _absturz(start: int, schluss: int, k: str, nachgehen: int, anlass: str) -> list[Stoerung]:
    """A crash and its restart; ``nachgehen``: the clock is set back before the restart (so
    ``beim_start`` already reads it) by the time it was down and ``nachgehen`` ticks more: the
    restarted node reads times it read before its crash."""
    plan = [Stoerung(start, "absturz", k, anlass=anlass)]
    if nachgehen:
        zurueck = schluss - start + nachgehen
        plan.append(Stoerung(schluss, "uhr", k, versatz=-zurueck, anlass="neustart"))
    return [*plan, Stoerung(schluss, "neustart", k, anlass=anlass)]


@dataclass
class _Schreiben:
    """A client's write in flight: where it arrived, its type, and who leads it (once known)."""

    knoten: str
    typ: str
    leader: str | None = None
    #: A cas's ``from``: the value its client expects.
    von: Any = None


@dataclass
class _Pause:
    """A lease holder paused by ``inhaber``: its ``weiter`` and the timer that runs it."""

    knoten: str
    seit: int
    weiter: Stoerung
    termin: Termin
    #: The paused holder's write: the one it goes on with.
    schreiben: _Schreiben | None = None


@dataclass
class GezielterNemesis:
    """Der gezielte Nemesis (ein ``Beobachter`` des Clusters): sieht jede Nachricht und löst
    seine ``ausloeser`` aus, wenn ihr Augenblick da ist. Was er auslöst, steht in ``ausgeloest``
    (in dieser Reihenfolge), als gewöhnliche Störungen mit ``anlass``; jede beginnt frühestens
    im nächsten Tick, vor allem anderen dort, so wie in einer Wiederholung aus der Kennung.

    - ``leader``: Ein Schreiben eines Clients ist unterwegs, und sein Leader schickt dazu etwas
      an andere Knoten (eine Antwort, eine Kopie): Der Leader wird isoliert, was er schickte,
      kommt nicht an. Leader heißt hier: der Knoten, an den der Knoten des Clients das Schreiben
      als Anfrage weiterreicht, oder, reicht er es nicht weiter, er selbst.
    - ``follower``: im selben Augenblick wird ein anderer Knoten isoliert, ein Follower, der das
      Schreiben nicht selbst weitergereicht hat, am liebsten einer, dessen Client gerade auf
      kein Schreiben wartet: Was der Leader ihm jetzt oder gleich schickt, kommt nicht an,
      und seine Lesen sehen die Lücke.
    - ``inhaber``: Ein Dienst antwortet einem Knoten, der ein Schreiben bearbeitet: mit der
      Lease (``acquire_ok``) oder, wenn der Knoten die Lease hält, mit einem Lesen; ohne
      Lock-Service mit einem Lesen. Der Knoten hält an, bevor die Antwort ankommt, länger als
      eine Lease gilt: zwischen seiner Prüfung und seinem Schreiben. Mit Lock-Service wartet
      er auf ein ``cas`` (sofern die Last welche schickt) und läuft weiter, sobald ein anderer
      Knoten die Lease für ein ``cas`` bekommt, das denselben Wert erwartet: im selben Tick,
      kurz bevor die Lease dort ankommt. Beide handeln dann zugleich, jeder mit einer Lease,
      und ein Token aus der eigenen Uhr ist bei beiden derselbe.
    - ``bestaetigung``: Ein Dienst hat das Schreiben eines Knotens gespeichert, oder ein Knoten
      hat einem Client ein Schreiben bestätigt: Der Knoten (bei einer Bestätigung der Leader des
      Schreibens) stürzt im nächsten Tick ab, bevor die Antwort des Dienstes ihn erreicht. Die
      Hälfte der Auslöser wartet auf ein bestätigtes ``cas`` (sofern die Last welche schickt):
      ein Ergebnis, das der Knoten selbst ausgerechnet hat.
    - ``antwort``: Ein Dienst hat das Schreiben eines Knotens gespeichert; seine Antwort geht
      auf dem Weg verloren (``verliere``: im Tick, in dem sie ankäme). Der Knoten wartet
      vergeblich und weiß nicht, ob geschrieben wurde.
    """

    cluster: Cluster
    ausloeser: list[Ausloeser]
    #: The end of the load: no targeted fault lasts longer.
    dauer: int
    lease: LeaseDienst | None = None
    ausgeloest: list[Stoerung] = field(default_factory=list)
    _schreiben: dict[int, _Schreiben] = field(default_factory=dict)
    _anfragen: dict[tuple[str, Any], int] = field(default_factory=dict)
    _gesendet: list[Sendung] = field(default_factory=list)
    #: The types of the clients' writes seen so far (does the load send ``cas`` at all?).
    _typen: set[str] = field(default_factory=set)
    #: The lease holder ``inhaber`` paused, until another node gets the lease.
    _angehalten: _Pause | None = None

    # --- what the cluster tells (``Beobachter``) -------------------------------------------

    def zustellung(self, sendung: Sendung) -> int | None:
        self._gesendet = []
        if sendung.ursache is not None:
            return sendung.ursache
        n = sendung.nachricht
        msg_id = n.body.get("msg_id")
        if n.typ in SCHREIBEND and self.cluster.ist_client(n.src) and isinstance(msg_id, int):
            nummer = len(self._anfragen) + 1
            self._schreiben[nummer] = _Schreiben(n.dest, n.typ, von=n.body.get("from"))
            self._typen.add(n.typ)
            self._anfragen[(n.src, msg_id)] = nummer
            return nummer
        return None

    def gesendet(self, sendung: Sendung) -> None:
        n, cluster = sendung.nachricht, self.cluster
        if not cluster.ist_knoten(n.dest):
            if cluster.ist_client(n.dest) and cluster.ist_knoten(n.src):
                self._beantwortet(sendung)
            return
        if cluster.ist_knoten(n.src):
            if sendung.ursache is not None:
                self._gesendet.append(sendung)
        elif not cluster.ist_client(n.src) and sendung.ankunft is not None:
            self._dienst_antwortet(sendung)

    def fertig(self, knoten: str, ursache: int | None) -> None:
        gesendet, self._gesendet = self._gesendet, []
        schreiben = self._schreiben.get(ursache) if ursache is not None else None
        if schreiben is None:
            return
        if schreiben.leader is None:  # the first handling, where the write arrived
            anfragen = [s for s in gesendet if "msg_id" in s.nachricht.body]
            weitergereicht = len(gesendet) == 1 and len(anfragen) == 1
            schreiben.leader = gesendet[0].nachricht.dest if weitergereicht else knoten
        vom_leader = [s for s in gesendet if s.nachricht.src == schreiben.leader]
        if not vom_leader:
            return
        self._isoliere("leader", schreiben.leader)
        # A follower: not the one that handed the write on (its client waits for this very
        # write and reads nothing meanwhile; its lost answer is ``leader``'s part), rather one
        # whose own client waits for no write either: its reads see what the cut keeps away.
        folger = set(self.cluster.ids) - {schreiben.leader, schreiben.knoten}
        frei = folger - {w.knoten for w in self._schreiben.values()}
        if folger:
            self._isoliere("follower", *sorted(frei or folger))

    # --- the moments --------------------------------------------------------------------------

    def _beantwortet(self, sendung: Sendung) -> None:
        """A node answers a client: a write's end; its confirmation if it was no error."""
        n = sendung.nachricht
        nummer = self._anfragen.get((n.dest, n.body.get("in_reply_to")))
        schreiben = self._schreiben.pop(nummer, None) if nummer is not None else None
        if schreiben is None or n.typ == "error":
            return
        ausloeser = self._bereit("bestaetigung")
        if ausloeser is not None and ausloeser.wahl < 0.5 and schreiben.typ != "cas":
            if "cas" in self._typen:
                return  # this one waits for a confirmed cas: a result the node computed itself
        self._stuerze("bestaetigung", schreiben.leader or schreiben.knoten)

    def _dienst_antwortet(self, sendung: Sendung) -> None:
        n, knoten = sendung.nachricht, sendung.nachricht.dest
        if sendung.ursache is None:  # not for a client's write
            return
        if n.typ == "acquire_ok":
            self._wecke(sendung)
        if n.typ in _GESPEICHERT:
            self._verliere(sendung)
            self._stuerze("bestaetigung", knoten)
        elif n.typ == "acquire_ok":
            self._halte_an(sendung, erst_beim_lesen=False)
        elif n.typ == "read_ok" and (
            self.lease is None
            or (self.lease.halter == knoten and self.cluster.zeit.now < self.lease.bis)
        ):
            self._halte_an(sendung, erst_beim_lesen=True)

    def _isoliere(self, art: str, *kandidaten: str) -> None:
        cluster = self.cluster
        if cluster.getrennt or len(cluster.ids) < 2:  # another partition is on
            return
        ausloeser = self._bereit(art)
        if ausloeser is None:
            return
        k = kandidaten[int(ausloeser.wahl * len(kandidaten)) % len(kandidaten)]
        beginn = cluster.zeit.now + 1
        rest = tuple(x for x in cluster.ids if x != k)
        self._ausloesen(
            ausloeser,
            [
                Stoerung(beginn, "isoliere", seiten=((k,), rest), anlass=art),
                Stoerung(self._ende(beginn, ausloeser), "heile", anlass=art),
            ],
        )

    def _halte_an(self, sendung: Sendung, erst_beim_lesen: bool) -> None:
        knoten, ankunft = sendung.nachricht.dest, sendung.ankunft
        ausloeser = self._bereit("inhaber")
        if ausloeser is None or ankunft is None or ankunft >= self.dauer:
            return
        if not self.cluster.laeuft(knoten):
            return
        if self.lease is not None and (ausloeser.wahl >= 0.5) != erst_beim_lesen:
            return  # this one waits for the other moment: the lease, or a read under it
        schreiben = self._schreiben.get(sendung.ursache or 0)
        if self.lease is not None and "cas" in self._typen:
            if schreiben is None or schreiben.typ != "cas":
                return  # it waits for a cas: a read and a write, where another write can slip in
        weiter = Stoerung(self._ende(ankunft, ausloeser), "weiter", knoten, anlass="inhaber")
        termine = self._ausloesen(
            ausloeser, [Stoerung(ankunft, "pause", knoten, anlass="inhaber"), weiter]
        )
        if self.lease is not None:
            self._angehalten = _Pause(knoten, ankunft, weiter, termine[-1], schreiben)

    def _wecke(self, sendung: Sendung) -> None:
        """Another node gets the lease: the paused holder goes on in the tick the lease reaches
        it, just before (the worst moment: both act in the same tick, each with the lease)."""
        pause, ankunft = self._angehalten, sendung.ankunft
        if pause is None or ankunft is None or sendung.nachricht.dest == pause.knoten:
            return
        anderes = self._schreiben.get(sendung.ursache or 0)
        if pause.schreiben is not None and pause.schreiben.typ == "cas":
            if anderes is None or anderes.typ != "cas" or anderes.von != pause.schreiben.von:
                return  # it waits for a cas that expects the same value: the two conflict
        self._angehalten = None
        if not pause.seit < ankunft < pause.weiter.zeit:
            return
        pause.termin.absagen()
        weiter = Stoerung(ankunft, "weiter", pause.knoten, anlass="inhaber")
        self.ausgeloest[self.ausgeloest.index(pause.weiter)] = weiter
        zeit = self.cluster.zeit
        zeit.schedule_zuerst(ankunft - zeit.now, weiter.anwenden, self.cluster)

    def _verliere(self, sendung: Sendung) -> None:
        """``antwort``: the service stored the write, its reply is lost on the way."""
        ausloeser, ankunft = self._bereit("antwort"), sendung.ankunft
        if ausloeser is None or ankunft is None or ankunft >= self.dauer:
            return
        knoten = sendung.nachricht.dest
        self._ausloesen(ausloeser, [Stoerung(ankunft, "verliere", knoten, anlass="antwort")])

    def _stuerze(self, art: str, knoten: str) -> None:
        ausloeser = self._bereit(art)
        if ausloeser is None or not self.cluster.laeuft(knoten):
            return
        beginn = self.cluster.zeit.now + 1
        ende = self._ende(beginn, ausloeser)
        self._ausloesen(ausloeser, _absturz(beginn, ende, knoten, ausloeser.uhr, art))

    # --- bookkeeping --------------------------------------------------------------------------

    def _bereit(self, art: str) -> Ausloeser | None:
        """The first trigger of ``art`` whose window is open now (and leaves a tick to act)."""
        jetzt = self.cluster.zeit.now
        for ausloeser in self.ausloeser:
            if ausloeser.art == art and ausloeser.von <= jetzt < ausloeser.bis:
                return ausloeser if jetzt + 1 < self.dauer else None
        return None

    def _ende(self, beginn: int, ausloeser: Ausloeser) -> int:
        return min(beginn + ausloeser.laenge, self.dauer)

    def _ausloesen(self, ausloeser: Ausloeser, stoerungen: list[Stoerung]) -> list[Termin]:
        self.ausloeser.remove(ausloeser)
        zeit = self.cluster.zeit
        termine = []
        for stoerung in stoerungen:
            termine.append(
                zeit.schedule_zuerst(stoerung.zeit - zeit.now, stoerung.anwenden, self.cluster)
            )
            self.ausgeloest.append(stoerung)
        return termine
