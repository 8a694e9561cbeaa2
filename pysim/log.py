"""Ein partitioniertes Log wie Kafka: Topics, Partitionen, Offsets und Consumer-Gruppen.

Die Methoden entsprechen den Befehlen der Konsole in Lektion 2::

    log = Log()
    log.create_topic("orders", partitions=3)
    log.produce("orders", {"order": 61, "total": 12.40}, key="customer-7")   # -> (1, 0)
    log.read("orders")                        # alle Einträge, ändert keine Position
    log.consume("orders", group="billing")    # liest als Gruppe und speichert die Position
    log.describe("billing")                   # Position, Ende, Rückstand je Partition
    log.offsets("orders")                     # Enden und Positionen aller Gruppen
    log.reset("billing", to=0)                # oder "earliest" / "latest"

Die Regeln (Partition wählen, Startposition, Aufteilung, reset) stehen in ``log_regeln.py``.
Der Simulator bildet keine Retention und keine Log Compaction nach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from . import log_regeln as regeln
from .eingefroren import einfrieren, felder_fest
from .fehler import (
    TopicExistiertSchon,
    UnbekannteGruppe,
    UnbekanntesTopic,
    UngueltigeEingabe,
    UnveraenderlichFehler,
    aufzaehlung,
    pruefe_ganzzahl,
    pruefe_name,
)
from .svg import Bild

ERLAUBTE_ZEICHEN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")

UNVERAENDERLICH = (
    "Einträge im Log werden nie verändert oder gelöscht: Ein Ereignis ist etwas, das schon "
    "geschehen ist. Eine Korrektur ist ein neues Ereignis, z. B. "
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
    """Eine Zeile von ``describe``: wo die Gruppe in einer Partition steht."""

    topic: str
    partition: int
    position: int
    end: int
    lag: int
    member: str | None

    def __repr__(self) -> str:
        wer = self.member if self.member is not None else "niemand"
        return (
            f"GruppenZeile({self.topic} p{self.partition}: Position {self.position}, "
            f"Ende {self.end}, Rückstand {self.lag}, liest: {wer})"
        )


@dataclass(frozen=True)
class Offsets:
    """Ergebnis von ``offsets``: das Ende jeder Partition und die Positionen jeder Gruppe."""

    topic: str
    enden: tuple[int, ...]
    gruppen: dict[str, tuple[int, ...]]

    def __repr__(self) -> str:
        namen = list(self.gruppen)
        kopf = ["Partition", "Ende", *namen]
        zeilen = [
            [f"p{p}", str(ende), *(str(self.gruppen[g][p]) for g in namen)]
            for p, ende in enumerate(self.enden)
        ]
        breiten = [max(len(z[i]) for z in [kopf, *zeilen]) for i in range(len(kopf))]
        text = [f"Offsets von „{self.topic}“"]
        for z in [kopf, *zeilen]:
            text.append("  " + "  ".join(f"{w:<{b}}" for w, b in zip(z, breiten, strict=True)))
        if not namen:
            text.append("  (noch keine Gruppe hat eine Position gespeichert)")
        return "\n".join(t.rstrip() for t in text)


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
        from .log_bild import topic_bild

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
    """Eine Consumer-Gruppe: Mitglieder und eine gespeicherte Position je Partition."""

    def __init__(self, log: Log, name: str) -> None:
        self._log = log
        self.name = name
        self._mitglieder: list[str] = []
        self._positionen: dict[str, list[int]] = {}

    @property
    def mitglieder(self) -> list[str]:
        """Die Mitglieder, nach Namen sortiert (so teilt der Range-Assignor auf)."""
        return list(self._mitglieder)

    def topics(self) -> list[str]:
        """Die Topics, für die diese Gruppe eine Position gespeichert hat."""
        return sorted(self._positionen)

    def position(self, topic: str, partition: int) -> int | None:
        """Die gespeicherte Position (der nächste zu lesende Offset) oder ``None``."""
        positionen = self._positionen.get(topic)
        return None if positionen is None else positionen[partition]

    def zuteilung(self, topic: str) -> dict[int, str]:
        """Partition -> Mitglied, das sie liest (Range-Assignor)."""
        return regeln.zuteilen(self._mitglieder, self._log._topic(topic).partitionen)

    def bild(self) -> Bild:
        """Für jedes gelesene Topic die Partitionen mit der Zeile dieser Gruppe."""
        from .log_bild import gruppen_bild

        return gruppen_bild(self._log, self)

    def _repr_svg_(self) -> str:
        return self.bild().svg

    def __repr__(self) -> str:
        mitglieder = ", ".join(self._mitglieder) if self._mitglieder else "keine"
        zeilen = [f"Gruppe „{self.name}“, Mitglieder: {mitglieder}"]
        for zeile in self._log.describe(self.name):
            wer = zeile.member if zeile.member is not None else "niemand"
            zeilen.append(
                f"  {zeile.topic} p{zeile.partition}: Position {zeile.position} von "
                f"{zeile.end}, Rückstand {zeile.lag}, liest: {wer}"
            )
        if len(zeilen) == 1:
            zeilen.append("  (noch keine gespeicherte Position)")
        return "\n".join(zeilen)


class Log:
    """Das ganze Log: Topics und Consumer-Gruppen."""

    def __init__(self) -> None:
        self._topics: dict[str, Topic] = {}
        self._gruppen: dict[str, Gruppe] = {}

    # --- Topics ---

    def create_topic(self, name: str, partitions: int = 1) -> Topic:
        """Legt ein Topic mit ``partitions`` Partitionen an."""
        if not isinstance(name, str) or not name or not set(name) <= ERLAUBTE_ZEICHEN:
            raise UngueltigeEingabe(
                f"Ein Topic-Name besteht aus Buchstaben, Ziffern, Punkt, Unterstrich und "
                f"Bindestrich, z. B. „orders“, nicht {name!r}."
            )
        pruefe_ganzzahl(partitions, "Die Anzahl der Partitionen", 1)
        if name in self._topics:
            alt = self._topics[name].partitionen
            raise TopicExistiertSchon(
                f"Das Topic „{name}“ gibt es schon (mit {regeln.partitionen_text(alt)}). "
                f"Wähle einen anderen Namen."
            )
        topic = Topic(name, partitions)
        self._topics[name] = topic
        return topic

    def topics(self) -> list[str]:
        """Die Namen aller Topics, sortiert."""
        return sorted(self._topics)

    def topic(self, name: str) -> Topic:
        """Das Topic-Objekt (zeigt sich als Text und als Bild)."""
        return self._topic(name)

    def _topic(self, name: str) -> Topic:
        try:
            return self._topics[name]
        except (KeyError, TypeError):
            raise UnbekanntesTopic(
                f"Das Topic „{name}“ gibt es nicht. Vorhandene Topics: "
                f"{aufzaehlung(self.topics())}. Lege es mit create_topic an."
            ) from None

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
        try:
            return self._gruppen[name]
        except (KeyError, TypeError):
            raise UnbekannteGruppe(
                f"Die Gruppe „{name}“ gibt es nicht. Vorhandene Gruppen: "
                f"{aufzaehlung(self.groups())}. Eine Gruppe entsteht beim ersten consume."
            ) from None

    def leave(self, group: str, member: str) -> list[str]:
        """Ein Mitglied verlässt die Gruppe; die übrigen teilen die Partitionen neu auf."""
        g = self._gruppe(group)
        if member not in g._mitglieder:
            raise UngueltigeEingabe(
                f"„{member}“ ist kein Mitglied der Gruppe „{group}“. "
                f"Mitglieder: {aufzaehlung(g._mitglieder)}."
            )
        g._mitglieder.remove(member)
        return g.mitglieder

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
        """Liest als Mitglied einer Gruppe aus den Partitionen, die ihm zugeteilt sind.

        - Ohne Namen ist das Mitglied ``<group>-1``. Ein neues Mitglied tritt der Gruppe bei.
        - Hat die Gruppe eine gespeicherte Position, liest sie dort weiter (``from_beginning``
          zählt dann nicht). Sonst beginnt sie am Ende, mit ``from_beginning`` am Anfang.
        - Partition für Partition (0, 1, 2, …), höchstens ``max`` Einträge insgesamt.
        - ``commit=False`` (no-commit) liest, ohne die Position zu speichern.
        """
        t = self._topic(topic)
        pruefe_name(group, "Der Name der Gruppe")
        mitglied = f"{group}-1" if member is None else pruefe_name(member, "Der Name des Mitglieds")
        if max is not None:
            pruefe_ganzzahl(max, "max", 1)
        g = self._gruppen.get(group) or Gruppe(self, group)
        mitglieder = g._mitglieder if mitglied in g._mitglieder else [*g._mitglieder, mitglied]
        zuteilung = regeln.zuteilen(mitglieder, t.partitionen)
        gespeichert = g._positionen.get(topic)
        start = (
            list(gespeichert)
            if gespeichert is not None
            else regeln.startpositionen(t.enden(), bool(from_beginning))
        )
        neu = list(start)
        ergebnis: list[Record] = []
        rest = max
        for p in range(t.partitionen):
            if zuteilung.get(p) != mitglied:
                continue
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
        if mitglied not in g._mitglieder:
            g._mitglieder = sorted([*g._mitglieder, mitglied])
        if commit:
            g._positionen[topic] = neu
        return ergebnis

    # --- Überblick ---

    def describe(self, group: str) -> list[GruppenZeile]:
        """Je Topic und Partition: Position, Ende, Rückstand (Ende − Position) und Mitglied."""
        g = self._gruppe(group)
        zeilen = []
        for name in g.topics():
            t = self._topics[name]
            zuteilung = regeln.zuteilen(g._mitglieder, t.partitionen)
            for p, position in enumerate(g._positionen[name]):
                ende = t.ende(p)
                zeilen.append(
                    GruppenZeile(name, p, position, ende, ende - position, zuteilung.get(p))
                )
        return zeilen

    def offsets(self, topic: str) -> Offsets:
        """Das Ende jeder Partition und die Position jeder Gruppe, die dieses Topic liest."""
        t = self._topic(topic)
        gruppen = {
            name: tuple(self._gruppen[name]._positionen[topic])
            for name in self.groups()
            if topic in self._gruppen[name]._positionen
        }
        return Offsets(topic, t.enden(), gruppen)

    def reset(self, group: str, to: int | str, topic: str | None = None) -> list[GruppenZeile]:
        """Verschiebt die Position einer Gruppe: auf eine Zahl, ``earliest`` oder ``latest``.

        Eine Zahl hinter dem Ende wird auf das Ende gesetzt. Ohne ``topic`` gilt es für jedes
        Topic, in dem die Gruppe eine Position hat. Gibt die neuen Zeilen von ``describe`` zurück.
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
            name: [regeln.reset_ziel(to, e) for e in self._topics[name].enden()] for name in namen
        }
        g._positionen.update(neu)
        return [z for z in self.describe(group) if z.topic in neu]

    def bild(self, topic: str, gruppen: list[str] | None = None) -> Bild:
        """Ein Topic mit seinen Gruppen darunter (ohne ``gruppen``: alle mit Position)."""
        from .log_bild import topic_bild

        t = self._topic(topic)
        namen = (
            [n for n in self.groups() if topic in self._gruppen[n]._positionen]
            if gruppen is None
            else gruppen
        )
        return topic_bild(t, [self._gruppe(n) for n in namen])

    def __repr__(self) -> str:
        teile = [f"{n} ({self._topics[n].partitionen} Partitionen)" for n in self.topics()]
        return (
            f"Log: Topics: {', '.join(teile) if teile else 'keine'}; "
            f"Gruppen: {', '.join(self.groups()) if self._gruppen else 'keine'}"
        )
