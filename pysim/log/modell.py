"""Ein partitioniertes Log wie Kafka: Topics, Partitionen, Offsets und Consumer-Gruppen.

Die Methoden entsprechen den Befehlen der Konsole in Lektion 2::

    log = Log()
    log.create_topic("orders", partitions=3)
    log.produce("orders", {"order": 61, "total": 12.40}, key="customer-7")   # -> (1, 0)
    log.read("orders")                        # alle Einträge, ändert keine Position
    log.consume("orders", group="billing")    # liest als Gruppe und speichert die Position
    log.consume("orders", "billing", commit=False)   # liest weiter, speichert nicht
    log.seek("orders", "billing", "billing-1", 1, 0)   # Leseposition von p1 zurück auf 0
    log.commit("orders", "billing", "billing-1")       # speichert die Leseposition
    log.describe("billing")                   # Position, Ende, Lag je Partition
    log.offsets("orders")                     # Enden und Positionen aller Gruppen
    log.reset("billing", to=0)                # oder "earliest" / "latest"

Ausfall und Rebalancing::

    log = Log(max_poll_interval=3)            # 3 Ticks ohne consume übersteht ein Mitglied
    log.consume("orders", "billing", member="billing-2", commit=False)   # liest, speichert nicht
    log.tick(4)                               # billing-2 ist entfernt, billing-1 übernimmt
    log.commit("orders", "billing", member="billing-2")                  # -> CommitAbgelehnt

    log = Log(session_timeout=2)              # 2 Ticks ohne Heartbeat übersteht ein Mitglied
    log.absturz("billing", "billing-2")         # abgestürzt: hält p2, schickt keine Heartbeats
    log.tick(3)                               # jetzt erst entfernt, billing-1 übernimmt

Zwei Positionen je Partition, wie in Kafkas ``KafkaConsumer`` („Offsets and Consumer Position“):
die *Leseposition* des Mitglieds, das die Partition gerade liest (sie rückt mit jedem ``consume``
weiter, ob es speichert oder nicht), und die *gespeicherte Position* der Gruppe (``commit``). Nur
die gespeicherte überlebt einen Wechsel: Wer eine Partition neu bekommt, beginnt dort.

Die Regeln (Partition wählen, Lese- und Startposition, Aufteilung je Topic, reset, Zustände eines
Mitglieds, die zwei Fristen, Generationen) stehen in ``log_regeln.py``, mit den Vereinfachungen
gegenüber Kafka.
Der Simulator bildet keine Retention und keine Log Compaction nach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from ..eingefroren import einfrieren, felder_fest
from ..fehler import (
    CommitAbgelehnt,
    NichtZugeteilt,
    TopicExistiertSchon,
    UnbekannteGruppe,
    UnbekanntesTopic,
    UngueltigeEingabe,
    UnveraenderlichFehler,
    aufzaehlung,
    kurz,
    nachschlagen,
    pruefe_ganzzahl,
    pruefe_name,
)
from ..svg import Bild
from . import regeln
from .bild import gruppen_bild, topic_bild

#: What ``from pysim.log import *`` and the package give (the module's public API).
__all__ = [
    "ERLAUBTE_ZEICHEN",
    "MAX_POLL_NAME",
    "SESSION_NAME",
    "UNVERAENDERLICH",
    "Entfernt",
    "Gruppe",
    "GruppenZeile",
    "Log",
    "Offsets",
    "Record",
    "Topic",
]


ERLAUBTE_ZEICHEN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")

UNVERAENDERLICH = (
    "Einträge im Log werden nicht verändert und nicht einzeln gelöscht: Ein Ereignis ist etwas, "
    "das schon geschehen ist. Eine Korrektur ist ein neues Ereignis, z. B. "
    'produce(topic, {…, "why": "correction"}, key=…).'
)


@felder_fest(UNVERAENDERLICH)
@dataclass(frozen=True, slots=True)
class Record:
    """Ein Eintrag: ``p1:0`` ist Partition 1, Offset 0. Unveränderlich."""

    topic: str
    partition: int
    offset: int
    key: str | None
    value: Any

    @property
    def adresse(self) -> str:
        """``p1:0``"""
        return f"p{self.partition}:{self.offset}"

    def __repr__(self) -> str:
        key = "" if self.key is None else f" key={self.key}"
        return f"Record({self.adresse}{key} {self.value!r})"


@dataclass(frozen=True)
class GruppenZeile:
    """Eine Zeile von ``describe``: wo die Gruppe in einer Partition steht.

    ``position`` und ``lag`` sind ``None``, solange für diese Partition keine Position gespeichert
    ist (z. B. weil das Mitglied, das sie las, nur ``commit=False`` gelesen hat).
    """

    topic: str
    partition: int
    position: int | None
    end: int
    lag: int | None
    member: str | None

    def __repr__(self) -> str:
        wer = self.member if self.member is not None else "niemand"
        return (
            f"GruppenZeile({self.topic} p{self.partition}: "
            f"Position {regeln.position_text(self.position)}, Ende {self.end}, "
            f"Lag {regeln.position_text(self.lag)}, liest: {wer})"
        )


@dataclass(frozen=True)
class Offsets:
    """Ergebnis von ``offsets``: das Ende jeder Partition und die Positionen jeder Gruppe."""

    topic: str
    enden: tuple[int, ...]
    gruppen: dict[str, tuple[int | None, ...]]

    def __repr__(self) -> str:
        namen = list(self.gruppen)
        kopf = ["Partition", "Ende", *namen]
        zeilen = [
            [f"p{p}", str(ende), *(regeln.position_text(self.gruppen[g][p]) for g in namen)]
            for p, ende in enumerate(self.enden)
        ]
        breiten = [max(len(z[i]) for z in [kopf, *zeilen]) for i in range(len(kopf))]
        text = [f"Offsets von „{self.topic}“"]
        for z in [kopf, *zeilen]:
            text.append("  " + "  ".join(f"{w:<{b}}" for w, b in zip(z, breiten, strict=True)))
        if not namen:
            text.append("  (noch keine Gruppe hat eine Position gespeichert)")
        return "\n".join(t.rstrip() for t in text)


@dataclass(frozen=True)
class Entfernt:
    """Ein Mitglied, das ``tick`` aus seiner Gruppe entfernt hat: nach dem Max Poll Interval (es
    hat zu lange nicht gelesen) oder, nach einem Absturz, nach dem Session Timeout.

    ``frist``: die Frist in Ticks, die ablief (``grund`` sagt, welche). ``absturz``: der Tick des
    Absturzes (``None``: nicht abgestürzt, nur zu langsam). ``uebernahme``: je Partition, die es
    las, ``(topic, partition, neues Mitglied oder None)``. Ein Eintrag von pysim, darum deutsch;
    ``group`` und ``member`` sind die alten Namen (Aliase).
    """

    gruppe: str
    mitglied: str
    zeit: int
    ohne_lesen: int
    frist: int
    generation: int
    uebernahme: tuple[tuple[str, int, str | None], ...]
    absturz: int | None = None

    @property
    def grund(self) -> str:
        """``max_poll_interval`` (zu lange nicht gelesen) oder ``session_timeout`` (abgestürzt)."""
        return regeln.MAX_POLL if self.absturz is None else regeln.SESSION

    @property
    def ohne_herzschlag(self) -> int | None:
        """Ticks seit dem Absturz (``None``: nicht abgestürzt)."""
        return None if self.absturz is None else self.zeit - self.absturz

    @property
    def group(self) -> str:
        """Alter Name von ``gruppe``."""
        return self.gruppe

    @property
    def member(self) -> str:
        """Alter Name von ``mitglied``."""
        return self.mitglied

    def warum(self) -> str:
        """``4 Ticks ohne consume, Max Poll Interval 3`` oder, nach einem Absturz,
        ``abgestürzt bei t=3, 3 Ticks ohne Heartbeat, Session Timeout 2``."""
        if self.absturz is None:
            return f"{self.ohne_lesen} Ticks ohne consume, Max Poll Interval {self.frist}"
        return (
            f"abgestürzt bei t={self.absturz}, {self.ohne_herzschlag} Ticks ohne Heartbeat, "
            f"Session Timeout {self.frist}"
        )

    def __str__(self) -> str:
        text = f"{self.mitglied} aus „{self.gruppe}“ entfernt (t={self.zeit}): {self.warum()}"
        if self.uebernahme:
            text += "; " + ", ".join(f"{t} p{p} → {wer}" for t, p, wer in self.nachfolger())
        return text

    def nachfolger(self) -> list[tuple[str, int, str]]:
        """``uebernahme`` zum Vorlesen: wer jede Partition jetzt liest, „niemand“ statt None."""
        return [(t, p, wer if wer is not None else "niemand") for t, p, wer in self.uebernahme]

    def __repr__(self) -> str:
        return f"Entfernt({self})"


class Topic:
    """Ein Topic: feste Anzahl Partitionen, jede eine Folge von Einträgen, die nur wächst."""

    def __init__(self, name: str, partitionen: int) -> None:
        self.name = name
        self._partitionen: list[list[Record]] = [[] for _ in range(partitionen)]
        self._reihum = 0

    @property
    def partitionen(self) -> int:
        """Die Anzahl der Partitionen."""
        return len(self._partitionen)

    @property
    def reihum(self) -> int:
        """Wie viele Einträge ohne Schlüssel bisher reihum verteilt wurden (-> nächste Partition)."""
        return self._reihum

    def ende(self, partition: int) -> int:
        """Der nächste freie Offset einer Partition (= Anzahl ihrer Einträge)."""
        return len(self._partitionen[partition])

    def enden(self) -> tuple[int, ...]:
        """Die Enden aller Partitionen."""
        return tuple(len(p) for p in self._partitionen)

    def records(self, partition: int, start: int = 0, stop: int | None = None) -> list[Record]:
        """Die Einträge einer Partition ab ``start`` (bis vor ``stop``)."""
        return self._partitionen[partition][start:stop]

    def bild(self) -> Bild:
        """Die Partitionen als Bild (ohne Gruppen)."""

        return topic_bild(self, [])

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        zeilen = [f"Topic „{self.name}“ mit {regeln.partitionen_text(self.partitionen)}"]
        for p, eintraege in enumerate(self._partitionen):
            if eintraege:
                keys = " ".join(r.key if r.key is not None else "-" for r in eintraege[-5:])
                mehr = "… " if len(eintraege) > 5 else ""
                inhalt = f"Offsets 0 bis {len(eintraege) - 1} (Schlüssel: {mehr}{keys})"
            else:
                inhalt = "leer"
            zeilen.append(f"  p{p}: {inhalt}, nächster Offset {len(eintraege)}")
        return "\n".join(zeilen)


class Gruppe:
    """Eine Consumer-Gruppe: Mitglieder, ihre Topics, eine gespeicherte Position je Partition.

    Jede Änderung der Mitglieder oder ihrer Topics ist ein Rebalancing und erhöht die
    Generation. Die Leseposition eines Mitglieds merkt sich die Gruppe mit der Generation, in
    der es zuletzt gelesen hat: Nur in derselben Generation liest es dort weiter, verschiebt sie
    (``Log.seek``) und speichert sie (``Log.commit``).
    """

    def __init__(self, log: Log, name: str) -> None:
        self._log = log
        self.name = name
        self._generation = 0
        self._mitglieder: list[str] = []
        self._zustand: dict[str, str] = {}
        self._abos: dict[str, set[str]] = {}
        self._zuletzt: dict[str, int] = {}
        self._positionen: dict[str, dict[int, int]] = {}
        # (Mitglied, Topic) -> (Generation, {Partition: (Anfang, Leseposition)}): die Generation
        # seines letzten consume, je Partition, wo es sie übernommen hat und wo es als Nächstes liest.
        self._gelesen: dict[tuple[str, str], tuple[int, dict[int, tuple[int, int]]]] = {}
        self._entfernt: dict[str, Entfernt] = {}
        #: Mitglied -> Tick seines Absturzes (nur solange es abgestürzt ist).
        self._abgestuerzt: dict[str, int] = {}
        #: When the group last changed (``Log._aktion`` then): pictures with many groups draw
        #: the most recently active ones.
        self._aktiv = 0

    @property
    def mitglieder(self) -> list[str]:
        """Die Mitglieder, nach Namen sortiert (so teilt der Range-Assignor auf)."""
        return list(self._mitglieder)

    @property
    def generation(self) -> int:
        """Wie oft die Gruppe neu verteilt wurde (1 nach dem ersten Beitritt)."""
        return self._generation

    def topics(self) -> list[str]:
        """Die Topics, für die diese Gruppe mindestens eine Position gespeichert hat."""
        return sorted(t for t, positionen in self._positionen.items() if positionen)

    def topics_von(self, member: str) -> list[str]:
        """Die Topics, die ``member`` liest (leer für Nicht-Mitglieder)."""
        return sorted(self._abos.get(member, set()))

    def zustand(self, member: str) -> str | None:
        """``Mitglied``, ``abgestürzt``, ``entfernt``, ``ausgetreten`` oder ``None`` (nie
        beigetreten)."""
        return self._zustand.get(member)

    def abgestuerzt(self) -> dict[str, int]:
        """Die abgestürzten Mitglieder, die ihre Partitionen noch halten: ``{Mitglied: Tick}``."""
        return dict(sorted(self._abgestuerzt.items()))

    def zuletzt_gelesen(self, member: str) -> int | None:
        """Der Tick, an dem ``member`` zuletzt gelesen hat (``None``: nie)."""
        return self._zuletzt.get(member)

    @property
    def zuletzt_geaendert(self) -> int:
        """Die laufende Nummer der letzten Änderung der Gruppe im Log (0: noch keine); Bilder mit
        vielen Gruppen zeigen die zuletzt geänderten."""
        return self._aktiv

    def entfernt(self) -> list[Entfernt]:
        """Die Mitglieder, die eine der beiden Fristen entfernt hat und die nicht wieder lesen."""
        return [e for m, e in sorted(self._entfernt.items()) if self._zustand[m] == regeln.ENTFERNT]

    def position(self, topic: str, partition: int) -> int | None:
        """Die gespeicherte Position (der nächste zu lesende Offset) oder ``None``."""
        return self._positionen.get(topic, {}).get(partition)

    def lesestand(self, member: str, topic: str) -> dict[int, int] | None:
        """Die Lesepositionen von ``member`` in ``topic``: ``{Partition: nächster Offset}``.

        ``None``, wenn es dort nicht weiterlesen kann: Es hat ``topic`` nie gelesen, ist nicht mehr
        Mitglied oder abgestürzt, oder die Gruppe wurde seither neu verteilt (dann beginnt es an der
        gespeicherten Position).
        """
        lesung = self._gelesen.get((member, topic))
        if lesung is None or self._zustand.get(member) != regeln.MITGLIED:
            return None
        generation, bereiche = lesung
        if generation != self._generation:
            return None
        return {p: pos for p, (_, pos) in bereiche.items()}

    def leseposition(self, topic: str, partition: int) -> int | None:
        """Wo das nächste ``consume`` dieser Partition liest (``None``: am Ende bzw. Anfang).

        Die Leseposition des Mitglieds, das sie liest und weiterlesen kann (``lesestand``); sonst
        die gespeicherte Position, an der ein neuer Besitzer beginnt.
        """
        wer = self.zuteilung(topic).get(partition)
        stand = None if wer is None else self.lesestand(wer, topic)
        if stand is not None and partition in stand:
            return stand[partition]
        return self.position(topic, partition)

    def zuteilung(self, topic: str) -> dict[int, str]:
        """Partition -> Mitglied, das sie liest (Range-Assignor unter den Lesern dieses Topics)."""
        leser = regeln.leser(self._mitglieder, self._abos, topic)
        return regeln.zuteilen(leser, self._log._topic(topic).partitionen)

    def ungespeichert(self, topic: str, partition: int) -> tuple[int, int] | None:
        """``(von, bis)``: hinter der gespeicherten Position schon gelesen (oder ``None``).

        ``bis`` ist die größte Leseposition eines Mitglieds in dieser Partition (auch eines
        entfernten oder abgestürzten). Wer die Partition neu bekommt, liest diese Einträge noch einmal; ein Mitglied,
        das sie behält, liest ab seiner Leseposition weiter. Mit ``seek`` übersprungene Einträge
        zählen mit.
        """
        gespeichert = self.position(topic, partition)
        bereich: tuple[int, int] | None = None
        for (_, t), (_, bereiche) in sorted(self._gelesen.items()):
            if t != topic or partition not in bereiche:
                continue
            start, ende = bereiche[partition]
            von = start if gespeichert is None else max(start, gespeichert)
            if ende > von and (bereich is None or ende > bereich[1]):
                bereich = (von, ende)
        return bereich

    def bild(self) -> Bild:
        """Für jedes gelesene Topic die Partitionen mit der Zeile dieser Gruppe."""

        return gruppen_bild(self._log, self)

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        mitglieder = ", ".join(self._mitglieder) if self._mitglieder else "keine"
        zeilen = [f"Gruppe „{self.name}“, Generation {self._generation}, Mitglieder: {mitglieder}"]
        for zeile in self._log.describe(self.name):
            wer = zeile.member if zeile.member is not None else "niemand"
            lesen = self.leseposition(zeile.topic, zeile.partition)
            weiter = "" if lesen == zeile.position else f" (Leseposition {lesen})"
            zeilen.append(
                f"  {zeile.topic} p{zeile.partition}: Position "
                f"{regeln.position_text(zeile.position)} von {zeile.end}, Lag "
                f"{regeln.position_text(zeile.lag)}, liest: {wer}{weiter}"
            )
        if len(zeilen) == 1:
            zeilen.append("  (noch keine gespeicherte Position)")
        zeilen.extend(
            f"  {m} ist bei t={t} abgestürzt und hält seine Partitionen"
            for m, t in self.abgestuerzt().items()
        )
        zeilen.extend(f"  {e}" for e in self.entfernt())
        return "\n".join(zeilen)


class Log:
    """Das ganze Log: Topics und Consumer-Gruppen.

    ``max_poll_interval`` (Kafka: ``max.poll.interval.ms``): Ein Mitglied, das länger als so viele
    Ticks nicht gelesen hat (``consume``), verlässt bei ``tick`` seine Gruppe (``None``: nie).

    ``session_timeout`` (Kafka: ``session.timeout.ms``): Ein lebendes Mitglied schickt in jedem
    Tick Heartbeats; nach ``absturz`` bleiben sie aus, und nach mehr als so vielen Ticks entfernt
    die Gruppe es (``None``: nie). Die Zeit läuft nur mit ``tick``.
    """

    def __init__(
        self, max_poll_interval: int | None = None, session_timeout: int | None = None
    ) -> None:
        self._topics: dict[str, Topic] = {}
        self._gruppen: dict[str, Gruppe] = {}
        self._jetzt = 0
        self._max_poll_interval = _pruefe_frist(max_poll_interval, MAX_POLL_NAME)
        self._session_timeout = _pruefe_frist(session_timeout, SESSION_NAME)
        self._aktion = 0

    def _beruehrt(self, g: Gruppe) -> None:
        """Marks ``g`` as the most recently changed group (for pictures with many groups)."""
        self._aktion += 1
        g._aktiv = self._aktion

    @property
    def now(self) -> int:
        """Der aktuelle Tick (beginnt bei 0, wächst nur mit ``tick``), wie ``Queue.now``.

        Das Log hat seine eigene Uhr, keine ``Zeit``: Seine Fristen prüft ``tick`` Tick für
        Tick, und nichts anderes stellt sie vor. (An einem Modell ist ``.zeit`` in pysim eine
        ``Zeit``, an einem Ereignis sein Tick.)
        """
        return self._jetzt

    @property
    def max_poll_interval(self) -> int | None:
        """Ticks ohne ``consume``, die ein lebendes Mitglied übersteht; ``None``: keine Grenze."""
        return self._max_poll_interval

    @max_poll_interval.setter
    def max_poll_interval(self, ticks: int | None) -> None:
        self._max_poll_interval = _pruefe_frist(ticks, MAX_POLL_NAME)

    @property
    def session_timeout(self) -> int | None:
        """Ticks ohne Heartbeat (nach ``absturz``), die ein Mitglied übersteht; ``None``: keine
        Grenze, ein abgestürztes Mitglied bleibt für immer."""
        return self._session_timeout

    @session_timeout.setter
    def session_timeout(self, ticks: int | None) -> None:
        self._session_timeout = _pruefe_frist(ticks, SESSION_NAME)

    def absturz(self, group: str, member: str) -> None:
        """Lässt ein Mitglied abstürzen: Sein Prozess ist weg, es liest, speichert und verlässt
        nichts mehr und schickt keine Heartbeats.

        Es bleibt Mitglied und hält seine Partitionen, bis ``tick`` es nach dem
        ``session_timeout`` entfernt; bis dahin liest sie niemand. Ein neues ``consume`` mit
        seinem Namen ist ein Neustart: Es tritt neu bei und beginnt an der gespeicherten Position.
        """
        g = self._gruppe(group)
        zustand = g._zustand.get(member) if isinstance(member, str) else None
        if zustand is None:
            raise self._kein_mitglied(g, member)
        g._zustand[member] = regeln.uebergang(
            zustand, "absturz", member, group, self._warum_weg(g, member)
        )
        g._abgestuerzt[member] = self._jetzt
        self._beruehrt(g)

    def tick(self, n: int = 1) -> list[Entfernt]:
        """Lässt ``n`` Ticks vergehen. Gibt die Mitglieder zurück, die dabei entfernt wurden.

        Ein lebendes Mitglied, das länger als ``max_poll_interval`` Ticks nicht gelesen hat, und
        ein abgestürztes, das länger als ``session_timeout`` Ticks keine Heartbeats geschickt hat,
        verlassen ihre Gruppe; die übrigen verteilen die Partitionen neu (neue Generation). Wer
        danach noch speichern will, was er vorher gelesen hat, bekommt ``CommitAbgelehnt``.
        """
        pruefe_ganzzahl(n, "Die Anzahl der Ticks", 0)
        entfernt: list[Entfernt] = []
        for _ in range(n):
            self._jetzt += 1
            for name in self.groups():
                entfernt.extend(self._entferne_abgelaufene(self._gruppen[name]))
        return entfernt

    def _abgelaufen(self, g: Gruppe, m: str) -> tuple[str, int] | None:
        """``(Ereignis, Frist)``, wenn ``m`` jetzt entfernt wird, sonst ``None``."""
        if g._zustand[m] == regeln.ABGESTUERZT:
            frist, seit, grund = self._session_timeout, g._abgestuerzt[m], regeln.SESSION
        else:
            frist, seit, grund = self._max_poll_interval, g._zuletzt[m], regeln.MAX_POLL
        if frist is None or not regeln.abgelaufen(seit, self._jetzt, frist):
            return None
        return grund, frist

    def _entferne_abgelaufene(self, g: Gruppe) -> list[Entfernt]:
        fristen = {m: self._abgelaufen(g, m) for m in g._mitglieder}
        tote = {m: f for m, f in fristen.items() if f is not None}
        if not tote:
            return []
        vorher = {t: g.zuteilung(t) for t in sorted({t for m in tote for t in g._abos[m]})}
        for m, (grund, _) in tote.items():
            g._zustand[m] = regeln.uebergang(g._zustand[m], grund, m, g.name)
            g._mitglieder.remove(m)
            del g._abos[m]
        g._generation += 1
        self._beruehrt(g)
        ergebnis = []
        for m, (_, frist) in tote.items():
            uebernahme = tuple(
                (t, p, g.zuteilung(t).get(p))
                for t, zuteilung in vorher.items()
                for p in sorted(zuteilung)
                if zuteilung[p] == m
            )
            e = Entfernt(
                g.name,
                m,
                self._jetzt,
                self._jetzt - g._zuletzt[m],
                frist,
                g._generation,
                uebernahme,
                g._abgestuerzt.pop(m, None),
            )
            g._entfernt[m] = e
            ergebnis.append(e)
        return ergebnis

    # --- Topics ---

    def create_topic(self, name: str, partitions: int = 1) -> Topic:
        """Legt ein Topic mit ``partitions`` Partitionen an."""
        if not isinstance(name, str) or not name or not set(name) <= ERLAUBTE_ZEICHEN:
            raise UngueltigeEingabe(
                f"Ein Topic-Name besteht aus Buchstaben, Ziffern, Punkt, Unterstrich und "
                f"Bindestrich, z. B. „orders“, nicht {name!r}."
            )
        pruefe_ganzzahl(partitions, "Die Anzahl der Partitionen", 1)
        self.pruefe_neues_topic(name)
        topic = Topic(name, partitions)
        self._topics[name] = topic
        return topic

    def pruefe_neues_topic(self, name: str) -> str:
        """``name``, wenn es noch kein Topic so heißt; sonst ``TopicExistiertSchon``."""
        if name in self._topics:
            alt = self._topics[name].partitionen
            raise TopicExistiertSchon(
                f"Das Topic „{name}“ gibt es schon (mit {regeln.partitionen_text(alt)}). "
                f"Wähle einen anderen Namen."
            )
        return name

    def pruefe_partition(self, topic: str, partition: int) -> int:
        """``partition``, wenn ``topic`` sie hat; sonst ``UngueltigeEingabe``."""
        return self._partitionen_pruefen(self._topic(topic), partition)[0]

    def pruefe_mitglied(self, group: str, member: str) -> str:
        """``member``, wenn es jetzt Mitglied von ``group`` ist; sonst ``UngueltigeEingabe``."""
        g = self._gruppe(group)
        if member not in g._mitglieder:
            raise self._kein_mitglied(g, member)
        return member

    def _kein_mitglied(self, g: Gruppe, member: object) -> UngueltigeEingabe:
        return UngueltigeEingabe(
            f"„{kurz(str(member))}“ ist kein Mitglied der Gruppe „{g.name}“. "
            f"Mitglieder: {aufzaehlung(g._mitglieder)}."
        )

    def topics(self) -> list[str]:
        """Die Namen aller Topics, sortiert."""
        return sorted(self._topics)

    def topic(self, name: str) -> Topic:
        """Das Topic-Objekt (zeigt sich als Text und als Bild)."""
        return self._topic(name)

    def _topic(self, name: str) -> Topic:
        return nachschlagen(
            self._topics,
            name,
            UnbekanntesTopic,
            "Das Topic",
            "Topics",
            tipp=" Lege es mit create_topic an.",
        )

    # --- Gruppen ---

    def groups(self) -> list[str]:
        """Die Namen aller Gruppen, sortiert."""
        return sorted(self._gruppen)

    def group(self, name: str) -> Gruppe:
        """Das Gruppen-Objekt (zeigt sich als Text und als Bild)."""
        return self._gruppe(name)

    def members(self, group: str) -> list[str]:
        """Die Mitglieder einer Gruppe, sortiert."""
        return self._gruppe(group).mitglieder

    def _gruppe(self, name: str) -> Gruppe:
        return nachschlagen(
            self._gruppen,
            name,
            UnbekannteGruppe,
            "Die Gruppe",
            "Gruppen",
            tipp=" Eine Gruppe entsteht beim ersten consume.",
        )

    def leave(self, group: str, member: str) -> list[str]:
        """Ein Mitglied verlässt die Gruppe; die übrigen verteilen die Partitionen neu."""
        g = self._gruppe(group)
        zustand = g._zustand.get(member) if isinstance(member, str) else None
        if zustand is None:
            raise self._kein_mitglied(g, member)
        neu = regeln.uebergang(zustand, "leave", member, group, self._warum_weg(g, member))
        g._zustand[member] = neu
        g._mitglieder.remove(member)
        del g._abos[member]
        g._generation += 1
        self._beruehrt(g)
        return g.mitglieder

    def _warum_weg(self, g: Gruppe, member: str) -> str:
        """Warum ``member`` nicht mehr in ``g`` ist, und wer seine Partitionen jetzt liest."""
        zustand = g._zustand.get(member)
        if zustand == regeln.AUSGETRETEN:
            return "Es ist mit leave ausgetreten."
        if zustand == regeln.ABGESTUERZT:
            return f"Der Absturz war bei t={g._abgestuerzt[member]}."
        e = g._entfernt.get(member)
        if zustand != regeln.ENTFERNT or e is None:
            return ""
        if e.absturz is None:
            text = (
                f"Es hat {e.ohne_lesen} Ticks lang nicht gelesen (Max Poll Interval {e.frist}) "
                f"und wurde bei t={e.zeit} entfernt."
            )
        else:
            text = (
                f"Es ist bei t={e.absturz} abgestürzt, hat {e.ohne_herzschlag} Ticks lang keine "
                f"Heartbeats geschickt (Session Timeout {e.frist}) und wurde bei t={e.zeit} "
                f"entfernt."
            )
        if e.uebernahme:
            teile = [f"p{p} von „{t}“ liest jetzt {wer}" for t, p, wer in e.nachfolger()]
            text += " " + ", ".join(teile) + "."
        return text

    # --- Schreiben ---

    def produce(self, topic: str, value: Any, key: str | None = None) -> tuple[int, int]:
        """Schreibt einen Eintrag ans Ende einer Partition. Gibt ``(partition, offset)`` zurück.

        Mit Schlüssel: Partition = Summe der Zeichencodes modulo Partitionen. Ohne: reihum.
        """
        t = self._topic(topic)
        if key is not None and not isinstance(key, str):
            raise UngueltigeEingabe(
                f"Der Schlüssel muss ein Text sein (z. B. „customer-7“) oder fehlen, nicht {key!r}."
            )
        wert = einfrieren(value)
        if key is None:
            p = regeln.partition_reihum(t._reihum, t.partitionen)
            t._reihum += 1
        else:
            p = regeln.partition_fuer_schluessel(key, t.partitionen)
        eintraege = t._partitionen[p]
        offset = len(eintraege)
        eintraege.append(Record(t.name, p, offset, key, wert))
        return (p, offset)

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        """Gibt es nicht: Einträge ändern sich nie. Löst immer einen Fehler aus."""
        raise UnveraenderlichFehler(UNVERAENDERLICH)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        """Gibt es nicht: Einträge werden nicht gelöscht. Löst immer einen Fehler aus."""
        raise UnveraenderlichFehler(UNVERAENDERLICH)

    # --- Lesen ---

    def read(self, topic: str, partition: int | None = None, start: int = 0) -> list[Record]:
        """Zeigt Einträge (alle Partitionen nacheinander oder eine) ab Offset ``start``.

        ``read`` merkt sich nichts: Keine Position ändert sich.
        """
        t = self._topic(topic)
        partitionen = self._partitionen_pruefen(t, partition)
        pruefe_ganzzahl(start, "start", 0)
        ergebnis: list[Record] = []
        for p in partitionen:
            ergebnis.extend(t.records(p, start))
        return ergebnis

    def _partitionen_pruefen(self, t: Topic, partition: int | None) -> list[int]:
        if partition is None:
            return list(range(t.partitionen))
        if (
            isinstance(partition, bool)
            or not isinstance(partition, int)
            or not (0 <= partition < t.partitionen)
        ):
            raise UngueltigeEingabe(
                f"Das Topic „{t.name}“ hat die Partitionen 0 bis {t.partitionen - 1}, "
                f"nicht {partition!r}."
            )
        return [partition]

    def consume(
        self,
        topic: str,
        group: str,
        member: str | None = None,
        max: int | None = None,
        from_beginning: bool = False,
        commit: bool = True,
    ) -> list[Record]:
        """Liest als Mitglied einer Gruppe aus den Partitionen, die ihm zugeteilt sind (wie
        Kafkas ``poll``).

        - Ohne Namen ist das Mitglied ``<group>-1``. Ein neues Mitglied tritt der Gruppe bei.
        - Ein Mitglied, das seine Partitionen seit seinem letzten ``consume`` behalten hat, liest
          ab seiner eigenen Leseposition weiter, auch wenn es nichts gespeichert hat.
        - Wer eine Partition neu bekommt (neues Mitglied, Rebalancing, Neustart nach ``leave``,
          ``absturz`` oder Entfernen), beginnt an der gespeicherten Position der Gruppe
          (``from_beginning`` zählt dann nicht); ohne sie am Ende, mit ``from_beginning`` am
          Anfang (wie Kafkas ``auto.offset.reset`` = ``latest`` bzw. ``earliest``).
        - Partition für Partition (0, 1, 2, …), höchstens ``max`` Einträge insgesamt.
        - ``commit=False`` (no-commit) liest, ohne die Position zu speichern: Die Leseposition
          rückt trotzdem weiter, die gespeicherte Position bleibt.
        """
        t = self._topic(topic)
        pruefe_name(group, "Der Name der Gruppe")
        mitglied = f"{group}-1" if member is None else pruefe_name(member, "Der Name des Mitglieds")
        if max is not None:
            pruefe_ganzzahl(max, "max", 1)
        g = self._gruppen.get(group) or Gruppe(self, group)
        zustand = g._zustand.get(mitglied)
        neuer_zustand = (
            regeln.MITGLIED
            if zustand is None
            else regeln.uebergang(zustand, "consume", mitglied, group)
        )
        beitritt = mitglied not in g._mitglieder
        # A crashed member that reads again is a restarted process: it joins anew, with only the
        # topic it reads now and no reading position (it starts at the stored one).
        neustart = zustand == regeln.ABGESTUERZT
        mitglieder = sorted([*g._mitglieder, mitglied]) if beitritt else g._mitglieder
        alte_abos = set() if neustart else g._abos.get(mitglied, set())
        abos = {**g._abos, mitglied: alte_abos | {topic}}
        rebalance = beitritt or neustart or topic not in alte_abos
        zuteilung = regeln.zuteilen(regeln.leser(mitglieder, abos, topic), t.partitionen)
        meine = [p for p in range(t.partitionen) if zuteilung.get(p) == mitglied]
        gespeichert = g._positionen.get(topic, {})
        # A member that kept its partitions since its last consume continues from its own reading
        # position; after a rebalance every member starts at the stored position (eager).
        vorher = None if rebalance else g._gelesen.get((mitglied, topic))
        bisher = {} if vorher is None or g.lesestand(mitglied, topic) is None else vorher[1]
        anfang: dict[int, int] = {}
        start: dict[int, int] = {}
        for p in meine:
            eigene = bisher[p][1] if p in bisher else None
            start[p] = regeln.leseposition(
                eigene, gespeichert.get(p), t.ende(p), bool(from_beginning)
            )
            anfang[p] = bisher[p][0] if p in bisher else start[p]
        neu = dict(start)
        ergebnis: list[Record] = []
        rest = max
        for p in meine:
            stop = None if rest is None else start[p] + rest
            gelesen = t.records(p, start[p], stop)
            ergebnis.extend(gelesen)
            neu[p] = start[p] + len(gelesen)
            if rest is not None:
                rest -= len(gelesen)
                if rest == 0:
                    break
        # Ab hier wird der Zustand verändert (alles oben konnte noch scheitern).
        self._gruppen[group] = g
        if rebalance:
            g._generation += 1
        g._mitglieder = mitglieder
        g._zustand[mitglied] = neuer_zustand
        g._abgestuerzt.pop(mitglied, None)
        g._abos[mitglied] = abos[mitglied]
        g._zuletzt[mitglied] = self._jetzt
        g._gelesen[(mitglied, topic)] = (g._generation, {p: (anfang[p], neu[p]) for p in meine})
        if commit:
            g._positionen.setdefault(topic, {}).update(neu)
        self._beruehrt(g)
        return ergebnis

    def commit(self, topic: str, group: str, member: str | None = None) -> dict[int, int]:
        """Speichert die Lesepositionen von ``member`` als Position der Gruppe (Commit).

        Wie Kafkas ``commitSync()``: gespeichert wird, wo das Mitglied als Nächstes liest (bis
        dahin gelesen, oder wohin ``seek`` es gesetzt hat), nur für die Partitionen, die es beim
        Lesen hatte. Gedacht nach ``consume(..., commit=False)``: erst verarbeiten, dann speichern.
        Gibt ``{Partition: Position}`` zurück.

        Ist das Mitglied abgestürzt, wurde es inzwischen entfernt (eine der beiden Fristen), ist
        es ausgetreten, oder wurde die Gruppe seit dem Lesen neu verteilt, kommt
        ``CommitAbgelehnt``, und nichts ändert sich.
        """
        self._topic(topic)
        g = self._gruppe(group)
        mitglied = f"{group}-1" if member is None else pruefe_name(member, "Der Name des Mitglieds")
        zustand = g._zustand.get(mitglied)
        if zustand is None:
            raise UngueltigeEingabe(
                f"„{mitglied}“ ist kein Mitglied der Gruppe „{group}“ und hat nichts gelesen. "
                f"Mitglieder: {aufzaehlung(g._mitglieder)}."
            )
        regeln.uebergang(zustand, "commit", mitglied, group, self._warum_weg(g, mitglied))
        lesung = g._gelesen.get((mitglied, topic))
        if lesung is None:
            raise UngueltigeEingabe(
                f"{mitglied} hat „{topic}“ noch nicht gelesen: Es gibt keine Position zum "
                f"Speichern. Erst consume(…, commit=False), dann commit."
            )
        generation, bereiche = lesung
        if not regeln.commit_generation_passt(generation, g._generation):
            raise CommitAbgelehnt(
                f"{mitglied} kann keine Position speichern: Die Gruppe „{group}“ wurde neu "
                f"aufgeteilt, seit {mitglied} gelesen hat (Generation {generation}, jetzt "
                f"{g._generation}). Seine Partitionen kann jetzt ein anderes Mitglied lesen. "
                f"Nichts wurde gespeichert; lies neu (consume)."
            )
        neu = {p: ende for p, (_, ende) in bereiche.items()}
        g._positionen.setdefault(topic, {}).update(neu)
        self._beruehrt(g)
        return neu

    def seek(self, topic: str, group: str, member: str | None, partition: int, offset: int) -> None:
        """Setzt die Leseposition von ``member`` in einer Partition auf ``offset`` (wie Kafkas
        ``seek``).

        Das nächste ``consume`` des Mitglieds liest diese Partition ab ``offset``; gespeichert wird
        nichts (erst ``commit``). Zurück (``offset`` kleiner): Einträge kommen noch einmal, etwa für
        einen neuen Versuch. Vor: Einträge werden übersprungen. Erlaubt sind 0 bis zum Ende.

        Nur ein Mitglied, dem die Partition gerade zugeteilt ist und das seit dem letzten
        Rebalancing gelesen hat, kann das; sonst kommt ``NichtZugeteilt`` (in Kafka
        ``IllegalStateException``), und nichts ändert sich.
        """
        t = self._topic(topic)
        g = self._gruppe(group)
        mitglied = f"{group}-1" if member is None else pruefe_name(member, "Der Name des Mitglieds")
        zustand = g._zustand.get(mitglied)
        if zustand is None:
            raise self._kein_mitglied(g, mitglied)
        regeln.uebergang(zustand, "seek", mitglied, group, self._warum_weg(g, mitglied))
        p = self._partitionen_pruefen(t, partition)[0]
        ende = t.ende(p)
        pruefe_ganzzahl(offset, "offset", 0)
        if offset > ende:
            raise UngueltigeEingabe(
                f"p{p} von „{topic}“ endet bei {ende}: seek geht auf 0 bis {ende}, nicht auf "
                f"{offset}."
            )
        wer = g.zuteilung(topic).get(p)
        if wer != mitglied:
            leser = "niemand" if wer is None else wer
            raise NichtZugeteilt(
                f"p{p} von „{topic}“ liest {leser}, nicht {mitglied}: seek verschiebt nur die "
                f"Leseposition einer eigenen Partition. Nichts wurde verändert."
            )
        lesung = g._gelesen.get((mitglied, topic))
        if lesung is None or lesung[0] != g._generation or p not in lesung[1]:
            raise NichtZugeteilt(
                f"{mitglied} hat „{topic}“ seit dem letzten Rebalancing nicht gelesen "
                f"(Generation {g._generation}): Es beginnt beim nächsten consume an der "
                f"gespeicherten Position. Lies erst (consume), dann seek. Nichts wurde verändert."
            )
        generation, bereiche = lesung
        anfang, _ = bereiche[p]
        g._gelesen[(mitglied, topic)] = (
            generation,
            {**bereiche, p: (min(anfang, offset), offset)},
        )
        self._beruehrt(g)

    # --- Überblick ---

    def describe(self, group: str) -> list[GruppenZeile]:
        """Je Topic und Partition: Position, Ende, Lag (Ende − Position) und Mitglied.

        Eine Partition ohne gespeicherte Position hat Position und Lag ``None``.
        """
        g = self._gruppe(group)
        zeilen = []
        for name in g.topics():
            t = self._topics[name]
            zuteilung = g.zuteilung(name)
            for p in range(t.partitionen):
                position = g.position(name, p)
                ende = t.ende(p)
                lag = None if position is None else ende - position
                zeilen.append(GruppenZeile(name, p, position, ende, lag, zuteilung.get(p)))
        return zeilen

    def offsets(self, topic: str) -> Offsets:
        """Das Ende jeder Partition und die Position jeder Gruppe, die dieses Topic liest."""
        t = self._topic(topic)
        gruppen = {
            name: tuple(self._gruppen[name].position(topic, p) for p in range(t.partitionen))
            for name in self.groups()
            if topic in self._gruppen[name].topics()
        }
        return Offsets(topic, t.enden(), gruppen)

    def reset(self, group: str, to: int | str, topic: str | None = None) -> list[GruppenZeile]:
        """Verschiebt die Position einer Gruppe: auf eine Zahl, ``earliest`` oder ``latest``.

        Eine Zahl hinter dem Ende wird auf das Ende gesetzt. Ohne ``topic`` gilt es für jedes
        Topic, in dem die Gruppe eine Position hat. Die Mitglieder vergessen ihre Lesepositionen
        dort und beginnen beim nächsten ``consume`` an der neuen Position (in Kafka muss die Gruppe
        dafür stehen, ``kafka-consumer-groups --reset-offsets``). Gibt die neuen Zeilen von
        ``describe`` zurück.
        """
        g = self._gruppe(group)
        if topic is not None:
            namen = [self._topic(topic).name]
        else:
            namen = g.topics()
            if not namen:
                raise UngueltigeEingabe(
                    f"Die Gruppe „{group}“ hat noch keine gespeicherte Position. "
                    f"Gib das Topic an: reset({group!r}, to=…, topic=…)."
                )
        neu = {
            name: {p: regeln.reset_ziel(to, e) for p, e in enumerate(self._topics[name].enden())}
            for name in namen
        }
        g._positionen.update(neu)
        # What was read before the reset is no longer "read but not stored", and no member
        # continues from its old reading position.
        g._gelesen = {k: v for k, v in g._gelesen.items() if k[1] not in neu}
        self._beruehrt(g)
        return [z for z in self.describe(group) if z.topic in neu]

    def bild(self, topic: str, gruppen: list[str] | None = None) -> Bild:
        """Ein Topic mit seinen Gruppen darunter (ohne ``gruppen``: alle mit Position)."""

        t = self._topic(topic)
        namen = (
            [n for n in self.groups() if topic in self._gruppen[n].topics()]
            if gruppen is None
            else gruppen
        )
        return topic_bild(t, [self._gruppe(n) for n in namen])

    def __repr__(self) -> str:
        teile = [f"{n} ({self._topics[n].partitionen} Partitionen)" for n in self.topics()]
        fristen = [
            f", {name} {wert}"
            for name, wert in (
                ("Max Poll Interval", self._max_poll_interval),
                ("Session Timeout", self._session_timeout),
            )
            if wert is not None
        ]
        zeit = "" if self._jetzt == 0 and not fristen else f"; t={self._jetzt}"
        return (
            f"Log: Topics: {', '.join(teile) if teile else 'keine'}; "
            f"Gruppen: {', '.join(self.groups()) if self._gruppen else 'keine'}{zeit}"
            + "".join(fristen)
        )


MAX_POLL_NAME = "Das Max Poll Interval (Ticks ohne consume)"
SESSION_NAME = "Das Session Timeout (Ticks ohne Heartbeat)"


def _pruefe_frist(ticks: int | None, name: str) -> int | None:
    """``None`` oder eine ganze Zahl ab 1 (so viele Ticks übersteht ein Mitglied)."""
    if ticks is None:
        return None
    return pruefe_ganzzahl(ticks, name, 1)
