"""Die Log-Konsole von Lektion 2: eine lesbare Version der Kafka-Werkzeuge.

    >>> c = LogKonsole()
    >>> print(c.run("create topic orders partitions 3").text)
    Topic „orders“ angelegt: 3 Partitionen (p0 bis p2).
    >>> print(c.run('produce orders key=customer-7 {"order":61,"total":12.40}').text)
    → Partition 1, Offset 0 (p1:0)
    Schlüssel „customer-7“: Hash 982, 982 % 3 = 1

Die Regeln (Partition wählen, Startposition, Aufteilung) stehen im Modell ``pysim.log``; diese
Datei liest nur Befehle und formt Text und Bild.
"""

from __future__ import annotations

import difflib
from typing import Any

from ..console.art import KonsolenArt
from ..console.basis import (
    MAX_TICKS,
    BasisKonsole,
    setze_befehle,
    tick_anzahl,
    tick_befehl,
    tick_kopf,
)
from ..console.befehle import befehl
from ..console.ergebnis import ConsoleResult
from ..console.parser import (
    TEXT,
    ZAHL,
    Art,
    Aufruf,
    Befehl,
    EingabeFehler,
    Option,
    Wert,
    kuerze_wort,
    zahl,
)
from ..console.werte import anzahl, lies_json, namen, pruefe_neuer_name, tabelle, zeige_json
from . import regeln
from .modell import Entfernt, Gruppe, Log, Record

#: So viele Partitionen darf ein Topic der Konsole haben (das Bild bleibt lesbar).
MAX_PARTITIONEN = 12
#: So viele Einträge zeigen read und consume als Text, danach „… und n weitere“.
MAX_ZEILEN = 30


#: What holds without the limit, and what it does once set (``{ticks}``): ``max-poll``, then
#: ``session-timeout``.
_TEXTE_MAX_POLL = (
    "Wer nicht liest, bleibt trotzdem Mitglied.",
    "Wer länger als {ticks} nicht liest (consume), verlässt bei tick die Gruppe, auch wenn er "
    "noch arbeitet.",
)
_TEXTE_SESSION = (
    "Ein abgestürztes Mitglied bleibt für immer.",
    "Lebende Mitglieder schicken in jedem Tick Heartbeats. Ein abgestürztes (absturz) schickt "
    "keine mehr; nach mehr als {ticks} ohne Heartbeat entfernt tick es aus der Gruppe.",
)


class LogKonsole(BasisKonsole[Log]):
    """Die Log-Konsole: ``LogKonsole().run("topics")`` gibt ein ``ConsoleResult``.

    ``log``: ein vorhandenes ``Log`` (z. B. von einer Übung vorbereitet); sonst ein leeres.
    """

    TITEL = "Log-Konsole"
    HILFE_BEISPIEL = "consume"

    def __init__(self, log: Log | None = None) -> None:
        super().__init__(log if log is not None else Log())
        self._bild_topic: str | None = None

    @property
    def log(self) -> Log:
        """Das Log hinter der Konsole (dasselbe wie ``modell``)."""
        return self.modell

    # --- Arten von Werten (siehe die Tabelle unten) ---

    def _lies_topic(self, text: str, _werte: dict[str, Any]) -> str:
        return self._bekanntes_topic(text)

    def _lies_neues_topic(self, text: str, _werte: dict[str, Any]) -> str:
        pruefe_neuer_name(text, "Ein Topic-Name")
        return self.log.pruefe_neues_topic(text)

    def _lies_gruppe(self, text: str, _werte: dict[str, Any]) -> str:
        return self._bekannte_gruppe(text)

    def _lies_gruppe_neu(self, text: str, _werte: dict[str, Any]) -> str:
        if text in self.log.groups():
            return text
        return pruefe_neuer_name(text, "Ein Gruppenname")

    def _lies_mitglied(self, text: str, werte: dict[str, Any]) -> str:
        gruppe = werte.get("gruppe")
        if gruppe in self.log.groups() and text in self.log.members(gruppe):
            return text
        return pruefe_neuer_name(text, "Ein Mitgliedsname")

    def _lies_mitglied_aktiv(self, text: str, werte: dict[str, Any]) -> str:
        return self.log.pruefe_mitglied(werte["gruppe"], text)

    def _lies_mitglied_je(self, text: str, werte: dict[str, Any]) -> str:
        g = self.log.group(werte["gruppe"])
        if g.zustand(text) is not None:
            return text
        raise EingabeFehler(
            f"„{kuerze_wort(text)}“ war nie Mitglied der Gruppe „{werte['gruppe']}“ und hat "
            f"nichts gelesen. Mitglieder: {namen(g.mitglieder)}."
        )

    def _lies_max_poll(self, text: str, _werte: dict[str, Any]) -> int | None:
        return _lies_frist(text, "max-poll")

    def _lies_session(self, text: str, _werte: dict[str, Any]) -> int | None:
        return _lies_frist(text, "session-timeout")

    def _lies_partition(self, partition: int, werte: dict[str, Any]) -> int:
        return self.log.pruefe_partition(werte["topic"], partition)

    def _lies_ziel(self, text: str, _werte: dict[str, Any]) -> int | str:
        if text.lower() in ("earliest", "latest"):
            return text.lower()
        if not text[:1].isdigit():
            raise EingabeFehler(
                f"Nach `to` kommt 0 (oder eine andere Zahl), earliest oder latest, "
                f"nicht „{kuerze_wort(text)}“."
            )
        return zahl(text, "Nach `to`")

    def _bekanntes_topic(self, name: str) -> str:
        vorhanden = self.log.topics()
        if name in vorhanden:
            return name
        if not vorhanden:
            raise EingabeFehler(
                f"Das Topic „{kuerze_wort(name)}“ gibt es nicht; es gibt noch kein Topic.\n"
                f"Lege eins an: create topic {kuerze_wort(name)} partitions 3"
            )
        zeilen = [f"Das Topic „{kuerze_wort(name)}“ gibt es nicht."]
        aehnlich = difflib.get_close_matches(name, vorhanden, n=1, cutoff=0.6)
        if aehnlich:
            zeilen[0] += f" Meintest du „{aehnlich[0]}“?"
        zeilen.append(f"Vorhandene Topics: {namen(vorhanden)}.")
        raise EingabeFehler("\n".join(zeilen))

    def _bekannte_gruppe(self, name: str) -> str:
        vorhanden = self.log.groups()
        if name in vorhanden:
            return name
        zeilen = [f"Die Gruppe „{kuerze_wort(name)}“ gibt es nicht."]
        aehnlich = difflib.get_close_matches(name, vorhanden, n=1, cutoff=0.6)
        if aehnlich:
            zeilen[0] += f" Meintest du „{aehnlich[0]}“?"
        zeilen.append(f"Vorhandene Gruppen: {namen(vorhanden)}.")
        zeilen.append("Eine Gruppe entsteht beim ersten consume.")
        raise EingabeFehler("\n".join(zeilen))

    # --- Vorschläge für die Vervollständigung ---

    def _topic_namen(self, _werte: dict[str, Any]) -> list[str]:
        return self.log.topics()

    def _gruppen(self, _werte: dict[str, Any]) -> list[str]:
        return self.log.groups()

    def _mitglieder_und_neu(self, werte: dict[str, Any]) -> list[str]:
        log = self.log
        gruppe = werte.get("gruppe")
        if gruppe is None:
            return [m for g in log.groups() for m in log.members(g)]
        if gruppe not in log.groups():
            return [f"{gruppe}-1"]
        mitglieder = log.members(gruppe)
        n = 1
        while f"{gruppe}-{n}" in mitglieder:
            n += 1
        return [*mitglieder, f"{gruppe}-{n}"]

    def _mitglieder(self, werte: dict[str, Any]) -> list[str]:
        if werte.get("gruppe") in self.log.groups():
            return self.log.members(werte["gruppe"])
        return []

    def _je_mitglieder(self, werte: dict[str, Any]) -> list[str]:
        if werte.get("gruppe") in self.log.groups():
            g = self.log.group(werte["gruppe"])
            return [*g.mitglieder, *(e.mitglied for e in g.entfernt())]
        return []

    def _frist_vorschlaege(self, _werte: dict[str, Any]) -> list[str]:
        return ["3", "off"]

    def _partitionen(self, werte: dict[str, Any]) -> list[str]:
        if werte.get("topic") in self.log.topics():
            return [str(p) for p in range(self.log.topic(werte["topic"]).partitionen)]
        return []

    def _ziele(self, _werte: dict[str, Any]) -> list[str]:
        return ["0", "earliest", "latest"]

    def _schluessel(self, werte: dict[str, Any]) -> list[str]:
        topic = werte.get("topic")
        if topic not in self.log.topics():
            return ["key="]
        keys = {r.key for r in self.log.read(topic) if r.key is not None}
        return ["key=", *(f"key={k}" for k in sorted(keys))]

    # --- Bild ---

    def _bild(self, topic: str | None = None) -> str | None:
        """Das Bild eines Topics mit seinen Gruppen; ohne Angabe das zuletzt benutzte."""
        if topic is not None:
            self._bild_topic = topic
        name = self._bild_topic
        if name is None or name not in self.log.topics():
            topics = self.log.topics()
            name = topics[0] if topics else None
        return None if name is None else self.log.bild(name).svg

    # --- Befehle ---

    def _create(self, aufruf: Aufruf) -> ConsoleResult:
        name = aufruf.werte["topic"]
        n = aufruf.werte.get("partitionen", 1)
        self.log.create_topic(name, partitions=n)
        teile = "p0" if n == 1 else f"p0 bis p{n - 1}"
        text = f"Topic „{name}“ angelegt: {anzahl(n, 'Partition', 'Partitionen')} ({teile})."
        return self._ok(aufruf, text, self._bild(name))

    def _topics(self, aufruf: Aufruf) -> ConsoleResult:
        namen_ = self.log.topics()
        if not namen_:
            text = "Noch keine Topics.\nLege eins an: create topic orders partitions 3"
            return self._ok(aufruf, text, None)
        zeilen = []
        for name in namen_:
            t = self.log.topic(name)
            eintraege = sum(t.enden())
            zeilen.append(
                [
                    name,
                    anzahl(t.partitionen, "Partition", "Partitionen"),
                    anzahl(eintraege, "Eintrag", "Einträge"),
                ]
            )
        text = "\n".join(
            tabelle(
                ["TOPIC", "PARTITIONEN", "EINTRÄGE"],
                [[z[0], z[1].split()[0], z[2].split()[0]] for z in zeilen],
            )
        )
        return self._ok(aufruf, text, self._bild())

    def _produce(self, aufruf: Aufruf) -> ConsoleResult:
        topic = aufruf.werte["topic"]
        key = aufruf.werte.get("key")
        wert = lies_json(aufruf.rest or "")
        partition, offset = self.log.produce(topic, wert, key=key)
        n = self.log.topic(topic).partitionen
        zeilen = [f"→ Partition {partition}, Offset {offset} (p{partition}:{offset})"]
        if key is not None:
            h = regeln.schluessel_hash(key)
            zeilen.append(f"Schlüssel „{kuerze_wort(key)}“: Hash {h}, {h} % {n} = {partition}")
        elif n > 1:
            zeilen.append("Ohne Schlüssel: reihum auf die Partitionen verteilt.")
        return self._ok(aufruf, "\n".join(zeilen), self._bild(topic))

    def _read(self, aufruf: Aufruf) -> ConsoleResult:
        topic = aufruf.werte["topic"]
        partition = aufruf.werte.get("partition")
        start = aufruf.werte.get("start", 0)
        records = self.log.read(topic, partition, start)
        wo = f"„{topic}“" if partition is None else f"„{topic}“, Partition {partition}"
        if not records:
            ab = f" ab Offset {start}" if start else ""
            zeilen = [f"Keine Einträge in {wo}{ab}."]
        else:
            zeilen = _eintraege(records)
            zeilen.append(
                f"{anzahl(len(records), 'Eintrag', 'Einträge')}. read ändert keine Position."
            )
        return self._ok(aufruf, "\n".join(zeilen), self._bild(topic))

    def _consume(self, aufruf: Aufruf) -> ConsoleResult:
        w = aufruf.werte
        log = self.log
        topic, gruppe = w["topic"], w["gruppe"]
        mitglied = w.get("mitglied") or f"{gruppe}-1"
        von_anfang = bool(w.get("from-beginning"))
        commit = not w.get("no-commit")
        neue_gruppe = gruppe not in log.groups()
        vorher = None if neue_gruppe else log.group(gruppe)
        war = None if vorher is None else vorher.zustand(mitglied)
        neues_mitglied = war != regeln.MITGLIED
        generation = 0 if vorher is None else vorher.generation
        positionen_vorher = (
            {} if vorher is None else {p: vorher.position(topic, p) for p in range(_n(log, topic))}
        )
        stand_vorher = None if vorher is None else vorher.lesestand(mitglied, topic)
        offen_vorher = (
            {}
            if vorher is None
            else {p: vorher.ungespeichert(topic, p) for p in range(_n(log, topic))}
        )
        records = log.consume(
            topic,
            gruppe,
            member=mitglied,
            max=w.get("max"),
            from_beginning=von_anfang,
            commit=commit,
        )
        g = log.group(gruppe)
        zuteilung = g.zuteilung(topic)
        meine = [p for p in sorted(zuteilung) if zuteilung[p] == mitglied]
        # Partitions this member kept since its last consume: it read on from its own position.
        weiter = set() if stand_vorher is None or g.generation != generation else set(stand_vorher)
        ohne = [p for p in meine if positionen_vorher.get(p) is None and p not in weiter]
        zeilen: list[str] = []
        if neue_gruppe:
            zeilen.append(f"Neue Gruppe „{gruppe}“, Mitglied {mitglied}.")
        elif neues_mitglied or g.generation != generation:
            if war == regeln.ABGESTUERZT:
                zeilen.append(
                    f"{mitglied} startet nach dem Absturz neu und tritt der Gruppe "
                    f"„{gruppe}“ neu bei."
                )
            elif war in (regeln.ENTFERNT, regeln.AUSGETRETEN):
                zeilen.append(f"{mitglied} ({war}) tritt der Gruppe „{gruppe}“ neu bei.")
            elif neues_mitglied:
                zeilen.append(f"{mitglied} tritt der Gruppe „{gruppe}“ bei.")
            else:
                zeilen.append(f"{mitglied} liest jetzt auch „{topic}“.")
            zeilen.append(f"Neue Aufteilung (Generation {g.generation}):")
            zeilen.extend(_aufteilung(_leser(g, topic), zuteilung))
        if meine and len(ohne) == len(meine):
            if von_anfang:
                zeilen.append("Noch keine Position: Start am Anfang (from-beginning).")
            else:
                zeilen.append("Noch keine Position: Start am Ende.")
                zeilen.append("Die Gruppe liest nur, was ab jetzt kommt.")
        elif ohne:
            teile = ", ".join(f"p{p}" for p in ohne)
            wo = "am Anfang (from-beginning)" if von_anfang else "am Ende"
            zeilen.append(f"Ohne gespeicherte Position: {teile}, Start {wo}.")
        elif von_anfang and meine and set(meine) <= weiter:
            zeilen.append(
                "from-beginning zählt nicht: Das Mitglied liest ab seiner Leseposition weiter."
            )
        elif von_anfang and meine:
            zeilen.append(
                "from-beginning zählt nicht: Die Gruppe hat schon eine Position, "
                "und die Position gewinnt."
            )
        zeilen.extend(_noch_einmal(meine, weiter, positionen_vorher, offen_vorher))
        if not meine:
            n = log.topic(topic).partitionen
            zeilen.append(
                f"{mitglied} bekommt keine Partition: "
                f"{anzahl(n, 'Partition', 'Partitionen')}, "
                f"{anzahl(len(_leser(g, topic)), 'Mitglied', 'Mitglieder')}. "
                f"{mitglied} ist untätig."
            )
        else:
            teile = ", ".join(f"p{p}" for p in meine)
            if records:
                zeilen.append(f"{mitglied} liest {teile}:")
                zeilen.extend(_eintraege(records, einzug="  "))
                zeilen.append(f"{anzahl(len(records), 'Eintrag', 'Einträge')} gelesen.")
            else:
                zeilen.append(f"{mitglied} liest {teile}: nichts Neues.")
            if commit:
                neu = ", ".join(f"p{p} → {g.position(topic, p)}" for p in meine)
                zeilen.append(f"Position gespeichert (Commit): {neu}")
            elif records:
                zeilen.append("no-commit: Position nicht gespeichert.")
                stand = g.lesestand(mitglied, topic) or {}
                offen = [
                    f"  p{p}: Leseposition {stand[p]}, gespeichert "
                    f"{regeln.position_text(g.position(topic, p))}"
                    for p in meine
                    if p in stand and stand[p] != g.position(topic, p)
                ]
                zeilen.extend(offen)
                if offen:
                    zeilen.append(
                        "Das nächste consume liest ab der Leseposition weiter. Wer die "
                        "Partition neu bekommt (Neustart, Rebalancing), beginnt an der "
                        "gespeicherten Position."
                    )
            else:
                zeilen.append("no-commit: Position nicht gespeichert.")
        return self._ok(aufruf, "\n".join(zeilen), self._bild(topic))

    def _commit(self, aufruf: Aufruf) -> ConsoleResult:
        w = aufruf.werte
        topic, gruppe = w["topic"], w["gruppe"]
        mitglied = w.get("mitglied") or f"{gruppe}-1"
        g = self.log.group(gruppe)
        vorher = {p: g.position(topic, p) for p in range(_n(self.log, topic))}
        neu = self.log.commit(topic, gruppe, member=mitglied)
        if not neu:
            text = f"{mitglied} hatte beim Lesen keine Partition: nichts zu speichern."
            return self._ok(aufruf, text, self._bild(topic))
        teile = ", ".join(
            f"p{p}: {regeln.position_text(vorher[p])} → {pos}" for p, pos in sorted(neu.items())
        )
        zeilen = [f"Position gespeichert (Commit) für {mitglied}:", f"  {teile}"]
        return self._ok(aufruf, "\n".join(zeilen), self._bild(topic))

    def _seek(self, aufruf: Aufruf) -> ConsoleResult:
        w = aufruf.werte
        topic, gruppe, p, ziel = w["topic"], w["gruppe"], w["partition"], w["offset"]
        mitglied = w.get("mitglied") or f"{gruppe}-1"
        g = self.log.group(gruppe)
        alt = (g.lesestand(mitglied, topic) or {}).get(p)
        self.log.seek(topic, gruppe, mitglied, p, ziel)
        gespeichert = regeln.position_text(g.position(topic, p))
        zeilen = [
            f"{mitglied}: Leseposition p{p} {alt} → {ziel}.",
            (
                f"Gespeichert bleibt {gespeichert}, bis commit speichert. Das nächste "
                f"consume von {mitglied} liest p{p} ab Offset {ziel}."
            ),
        ]
        return self._ok(aufruf, "\n".join(zeilen), self._bild(topic))

    def _tick(self, aufruf: Aufruf) -> ConsoleResult:
        log = self.log
        n = tick_anzahl(aufruf)
        ohne_fristen = log.max_poll_interval is None and not self._abgestuerzte()
        # One tick at a time: each removal is told with the assignment of its own moment, not
        # with the one at the end of the run (a later tick may remove the new owner, too).
        entfernt: list[Entfernt] = []
        berichte: list[str] = []
        for _ in range(n):
            jetzt = log.tick()
            entfernt += jetzt
            berichte += self._entfernt_text(jetzt)
        zeilen = [tick_kopf(log.now, n)]
        if ohne_fristen:
            zeilen.append(
                "Ohne Max Poll Interval wird niemand entfernt, der nicht liest "
                "(max-poll 3 schaltet es ein)."
            )
        zeilen += berichte
        if not entfernt:
            zeilen += self._wach_text()
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _abgestuerzte(self) -> list[tuple[str, str, int]]:
        """``(Gruppe, Mitglied, Tick des Absturzes)`` für jedes abgestürzte Mitglied."""
        log = self.log
        return [
            (name, m, t) for name in log.groups() for m, t in log.group(name).abgestuerzt().items()
        ]

    def _entfernt_text(self, entfernt: list[Entfernt]) -> list[str]:
        """What one tick's removals did, right after that tick: who left, then once per group
        the new assignment of each topic they read and who takes over which partition."""
        log = self.log
        zeilen: list[str] = []
        gruppen: dict[str, list[Entfernt]] = {}
        for e in entfernt:
            gruppen.setdefault(e.gruppe, []).append(e)
        for gruppe, weg in gruppen.items():
            for e in weg:
                if e.absturz is None:
                    grund = (
                        f"{e.mitglied} hat {e.ohne_lesen} Ticks nicht gelesen "
                        f"(Max Poll Interval {e.frist})"
                    )
                else:
                    grund = (
                        f"{e.mitglied} hat seit dem Absturz bei t={e.absturz} "
                        f"{e.ohne_herzschlag} Ticks keine Heartbeats geschickt "
                        f"(Session Timeout {e.frist})"
                    )
                zeilen.append(f"t={e.zeit}: {grund}: aus „{e.gruppe}“ entfernt.")
            g = log.group(gruppe)
            for topic in sorted({t for e in weg for t, _, _ in e.uebernahme}):
                zeilen.append(f"Neue Aufteilung in „{topic}“ (Generation {weg[0].generation}):")
                zeilen.extend(_aufteilung(_leser(g, topic), g.zuteilung(topic)))
                for e in weg:
                    for t, p, wer in e.uebernahme:
                        if t == topic and wer is not None:
                            zeilen.append(
                                f"  {wer} liest p{p} ab Position "
                                f"{regeln.position_text(g.position(topic, p))}."
                            )
        return zeilen

    def _wach_text(self) -> list[str]:
        """For a tick that removed no one: the live member closest to its Max Poll Interval, and
        each crashed member with the ticks left of its Session Timeout."""
        log = self.log
        zeilen = []
        frist = log.max_poll_interval
        naechste = []
        for name in log.groups():
            g = log.group(name)
            for m in g.mitglieder:
                zuletzt = g.zuletzt_gelesen(m)
                if zuletzt is not None and m not in g.abgestuerzt():
                    naechste.append((log.now - zuletzt, m))
        if frist is not None and naechste:
            ohne, wer = max(naechste, key=lambda x: (x[0], x[1]))
            zeilen.append(
                f"Niemand entfernt. Am längsten ohne consume: {wer} "
                f"({anzahl(ohne, 'Tick', 'Ticks')}; ab {frist + 1} Ticks wird es entfernt)."
            )
        session = log.session_timeout
        for gruppe, m, t in self._abgestuerzte():
            still = anzahl(log.now - t, "Tick", "Ticks")
            if session is None:
                zeilen.append(
                    f"{m} ist bei t={t} abgestürzt ({still} ohne Heartbeat) und hält seine "
                    f"Partitionen in „{gruppe}“. Ohne Session Timeout bleibt es Mitglied "
                    f"(session-timeout 3 schaltet es ein)."
                )
            else:
                zeilen.append(
                    f"{m} ist bei t={t} abgestürzt ({still} ohne Heartbeat) und hält seine "
                    f"Partitionen in „{gruppe}“; ab {session + 1} Ticks wird es entfernt."
                )
        return zeilen

    def _max_poll(self, aufruf: Aufruf) -> ConsoleResult:
        return self._frist(aufruf, "max_poll_interval", "Max Poll Interval", _TEXTE_MAX_POLL)

    def _session(self, aufruf: Aufruf) -> ConsoleResult:
        return self._frist(aufruf, "session_timeout", "Session Timeout", _TEXTE_SESSION)

    def _frist(self, aufruf: Aufruf, feld: str, was: str, texte: tuple[str, str]) -> ConsoleResult:
        """``max-poll`` and ``session-timeout``: show the limit ``feld`` of the log, or set it
        (``None``: off) and say what it does (``texte``: what holds without it, what it does)."""
        ohne, wirkung = texte
        log = self.log
        gesetzt = "frist" in aufruf.werte
        if gesetzt:
            setattr(log, feld, aufruf.werte["frist"])
        wert: int | None = getattr(log, feld)
        if wert is None:
            text = f"{was} aus: {ohne}" if gesetzt else f"Kein {was}: {ohne}"
        elif gesetzt:
            ticks = anzahl(wert, "Tick", "Ticks")
            text = f"{was}: {ticks}. {wirkung.format(ticks=ticks)}"
        else:
            text = f"{was}: {anzahl(wert, 'Tick', 'Ticks')} (jetzt t={log.now})."
        return self._ok(aufruf, text, self._bild())
        log.session_timeout = aufruf.werte["frist"]
        wert = log.session_timeout
        if wert is None:
            text = "Session Timeout aus: Ein abgestürztes Mitglied bleibt für immer."
        else:
            ticks = anzahl(wert, "Tick", "Ticks")
            text = (
                f"Session Timeout: {ticks}. Lebende Mitglieder schicken in jedem Tick "
                f"Heartbeats. Ein abgestürztes (absturz) schickt keine mehr; nach mehr als "
                f"{ticks} ohne Heartbeat entfernt tick es aus der Gruppe."
            )
        return self._ok(aufruf, text, self._bild())

    def _absturz(self, aufruf: Aufruf) -> ConsoleResult:
        gruppe, mitglied = aufruf.werte["gruppe"], aufruf.werte["mitglied"]
        log = self.log
        g = log.group(gruppe)
        log.absturz(gruppe, mitglied)
        topics = g.topics_von(mitglied)
        teile = []
        for t in topics:
            eigene = [f"p{p}" for p, wer in sorted(g.zuteilung(t).items()) if wer == mitglied]
            if eigene:
                teile.append(f"{', '.join(eigene)} von „{t}“")
        zeilen = [
            f"t={log.now}: {mitglied} ist abgestürzt: kein consume, kein commit, keine "
            f"Heartbeats mehr."
        ]
        if teile:
            zeilen.append(f"Es hält weiter {'; '.join(teile)}: Niemand liest dort.")
        session = log.session_timeout
        if session is None:
            zeilen.append(
                "Ohne Session Timeout bleibt es Mitglied (session-timeout 3 schaltet es ein)."
            )
        else:
            zeilen.append(
                f"Nach mehr als {anzahl(session, 'Tick', 'Ticks')} ohne Heartbeat "
                f"(Session Timeout) entfernt tick es, und die übrigen teilen neu auf."
            )
        zeilen.append(
            f"Ein neues consume als {mitglied} startet es neu, an der gespeicherten Position."
        )
        return self._ok(aufruf, "\n".join(zeilen), self._bild(topics[0] if topics else None))

    def _leave(self, aufruf: Aufruf) -> ConsoleResult:
        gruppe, mitglied = aufruf.werte["gruppe"], aufruf.werte["mitglied"]
        g = self.log.group(gruppe)
        topics = g.topics_von(mitglied)
        self.log.leave(gruppe, mitglied)
        zeilen = [f"{mitglied} verlässt die Gruppe „{gruppe}“."]
        for topic in topics:
            zeilen.append(f"Neue Aufteilung in „{topic}“ (Generation {g.generation}):")
            zeilen.extend(_aufteilung(_leser(g, topic), g.zuteilung(topic)))
        if not topics:
            zeilen.append("Es hatte noch nichts gelesen.")
        return self._ok(aufruf, "\n".join(zeilen), self._bild(topics[0] if topics else None))

    def _offsets(self, aufruf: Aufruf) -> ConsoleResult:
        topic = aufruf.werte["topic"]
        o = self.log.offsets(topic)
        gruppen = list(o.gruppen)
        zeilen = [
            [f"p{p}", str(ende), *(regeln.position_text(o.gruppen[g][p]) for g in gruppen)]
            for p, ende in enumerate(o.enden)
        ]
        text = [f"Offsets von „{topic}“ (Ende und Position je Gruppe):"]
        text += tabelle(["PARTITION", "ENDE", *gruppen], zeilen)
        if not gruppen:
            text.append("Noch keine Gruppe hat hier eine Position gespeichert.")
        else:
            text.append("Lag = Ende − Position.")
            if any(pos is None for g in gruppen for pos in o.gruppen[g]):
                text.append("–: noch keine Position gespeichert.")
        return self._ok(aufruf, "\n".join(text), self._bild(topic))

    def _describe(self, aufruf: Aufruf) -> ConsoleResult:
        gruppe = aufruf.werte["gruppe"]
        g = self.log.group(gruppe)
        zeilen = [
            f"Gruppe „{gruppe}“, Mitglieder: {', '.join(g.mitglieder) or 'keine'}",
            f"Generation {g.generation} (zählt jedes Rebalancing).",
        ]
        beschreibung = self.log.describe(gruppe)
        if not beschreibung:
            zeilen.append("Noch keine gespeicherte Position (nur mit no-commit gelesen).")
        else:
            zeilen += tabelle(
                ["TOPIC", "PARTITION", "POSITION", "ENDE", "LAG", "MITGLIED"],
                [
                    [
                        z.topic,
                        str(z.partition),
                        regeln.position_text(z.position),
                        str(z.end),
                        regeln.position_text(z.lag),
                        z.member or "-",
                    ]
                    for z in beschreibung
                ],
            )
            for topic in g.topics():
                untaetig = [m for m in _leser(g, topic) if m not in g.zuteilung(topic).values()]
                if untaetig:
                    zeilen.append(
                        f"Untätig in „{topic}“: {', '.join(untaetig)} (keine Partition frei)."
                    )
            if any(z.position is None for z in beschreibung):
                zeilen.append("–: noch keine Position gespeichert.")
        zeilen.extend(_lesepositionen(g))
        abgestuerzt = g.abgestuerzt()
        for m in g.mitglieder:
            if m in abgestuerzt:
                zeilen.append(
                    f"{m}: abgestürzt bei t={abgestuerzt[m]} (jetzt t={self.log.now}), hält "
                    f"seine Partitionen bis zum Session Timeout."
                )
            elif self.log.max_poll_interval is not None:
                zuletzt = g.zuletzt_gelesen(m)
                if zuletzt is not None:
                    zeilen.append(f"{m}: zuletzt consume bei t={zuletzt} (jetzt t={self.log.now}).")
        for e in g.entfernt():
            zeilen.append(f"{e.mitglied}: entfernt bei t={e.zeit} ({e.warum()}).")
        return self._ok(aufruf, "\n".join(zeilen), g.bild().svg)

    def _groups(self, aufruf: Aufruf) -> ConsoleResult:
        gruppen = self.log.groups()
        if not gruppen:
            text = (
                "Noch keine Gruppen. Eine Gruppe entsteht beim ersten consume:\n"
                "  consume orders group billing"
            )
            return self._ok(aufruf, text, self._bild())
        zeilen = []
        for name in gruppen:
            g = self.log.group(name)
            zeilen.append([name, ", ".join(g.mitglieder), ", ".join(g.topics()) or "-"])
        text = "\n".join(tabelle(["GRUPPE", "MITGLIEDER", "TOPICS"], zeilen))
        return self._ok(aufruf, text, self._bild())

    def _reset(self, aufruf: Aufruf) -> ConsoleResult:
        w = aufruf.werte
        gruppe, ziel, topic = w["gruppe"], w["ziel"], w.get("topic")
        g = self.log.group(gruppe)
        topics = [topic] if topic is not None else g.topics()
        if not topics:
            beispiel = self._bild_topic or (self.log.topics() or ["orders"])[0]
            raise EingabeFehler(
                f"Die Gruppe „{gruppe}“ hat noch keine gespeicherte Position.\n"
                f"Gib das Topic an: reset group {gruppe} to {ziel} topic {beispiel}"
            )
        vorher = {
            t: [g.position(t, p) for p in range(self.log.topic(t).partitionen)] for t in topics
        }
        self.log.reset(gruppe, to=ziel, topic=topic)
        zeilen = []
        begrenzt = False
        for t in topics:
            zeilen.append(f"Gruppe „{gruppe}“ in „{t}“:")
            teile = []
            for p, alt in enumerate(vorher[t]):
                neu = g.position(t, p)
                teile.append(f"p{p}: {regeln.position_text(alt)} → {neu}")
                begrenzt = begrenzt or (isinstance(ziel, int) and neu is not None and neu < ziel)
            zeilen.append("  " + ", ".join(teile))
        if begrenzt:
            zeilen.append("Hinter dem Ende geht es nicht: dort auf das Ende gesetzt.")
        zeilen.append("Andere Gruppen merken nichts.")
        zeilen.append("Das nächste consume liest ab hier.")
        svg = self._bild(topics[0]) if len(topics) == 1 else g.bild().svg
        return self._ok(aufruf, "\n".join(zeilen), svg)

    def _unveraenderlich(self, aufruf: Aufruf) -> ConsoleResult:
        topic = self._bild_topic or (self.log.topics() or ["orders"])[0]
        raise EingabeFehler(
            "Einträge im Log werden nicht verändert und nicht einzeln gelöscht: Ein Ereignis "
            "ist etwas, das schon geschehen ist.\n"
            "Eine Korrektur ist ein neues Ereignis, z. B.:\n"
            f'  produce {topic} key=order-61 {{"why":"correction"}}'
        )

    # --- Zustand ---

    def state_dump(self) -> str:
        """Der ganze Zustand des Logs als fester Text (für Tests und Prüfungen)."""
        zeilen = []
        for name in self.log.topics():
            topic = self.log.topic(name)
            zeilen.append(f"topic {name} partitions={topic.partitionen} reihum={topic.reihum}")
            for p in range(topic.partitionen):
                for r in topic.records(p):
                    zeilen.append(f"  {r.adresse} key={r.key!r} {zeige_json(r.value)}")
        log = self.log
        zeilen.append(
            f"time {log.now} max_poll_interval={log.max_poll_interval} "
            f"session_timeout={log.session_timeout}"
        )
        for name in log.groups():
            g = log.group(name)
            zeilen.append(
                f"group {name} generation={g.generation} members={','.join(g.mitglieder)}"
            )
            abgestuerzt = g.abgestuerzt()
            for m in sorted({*g.mitglieder, *(e.mitglied for e in g.entfernt())}):
                absturz = f" crash={abgestuerzt[m]}" if m in abgestuerzt else ""
                zeilen.append(
                    f"  member {m} state={g.zustand(m)} last={g.zuletzt_gelesen(m)} "
                    f"topics={g.topics_von(m)}{absturz}"
                )
            for t in g.topics():
                positionen = [g.position(t, p) for p in range(log.topic(t).partitionen)]
                zeilen.append(f"  {t} positions={positionen}")
            zeilen.extend(f"  reading {k}={v}" for k, v in sorted(g._gelesen.items()))
        return "\n".join(zeilen)


# --- Arten von Werten: lesen und prüfen (``lies``), Vorschläge (``kandidaten``) ---

TOPIC_ART = Art("topic", lies=LogKonsole._lies_topic, kandidaten=LogKonsole._topic_namen)
NEUES_TOPIC = Art("neues_topic", lies=LogKonsole._lies_neues_topic)
GRUPPE_ART = Art("gruppe", lies=LogKonsole._lies_gruppe, kandidaten=LogKonsole._gruppen)
GRUPPE_NEU = Art("gruppe_neu", lies=LogKonsole._lies_gruppe_neu, kandidaten=LogKonsole._gruppen)
MITGLIED = Art(
    "mitglied", lies=LogKonsole._lies_mitglied, kandidaten=LogKonsole._mitglieder_und_neu
)
MITGLIED_AKTIV = Art(
    "mitglied_aktiv", lies=LogKonsole._lies_mitglied_aktiv, kandidaten=LogKonsole._mitglieder
)
MITGLIED_JE = Art(
    "mitglied_je", lies=LogKonsole._lies_mitglied_je, kandidaten=LogKonsole._je_mitglieder
)
#: seek: a name the group knows (the model says why a former member cannot), current ones offered.
MITGLIED_SEEK = Art(
    "mitglied_seek", lies=LogKonsole._lies_mitglied_je, kandidaten=LogKonsole._mitglieder
)
MAX_POLL = Art("max_poll", lies=LogKonsole._lies_max_poll, kandidaten=LogKonsole._frist_vorschlaege)
SESSION = Art("session", lies=LogKonsole._lies_session, kandidaten=LogKonsole._frist_vorschlaege)
PARTITION = Art(
    "partition", lies=LogKonsole._lies_partition, kandidaten=LogKonsole._partitionen, zahl=True
)
ZIEL = Art("ziel", lies=LogKonsole._lies_ziel, kandidaten=LogKonsole._ziele)
#: Der Wert von produce: JSON, das der Handler liest (mit Meldungen, die die Stelle zeigen).
JSON = Art("json")

TOPIC = Wert("topic", "<topic>", TOPIC_ART)
GRUPPE = Wert("gruppe", "<gruppe>", GRUPPE_ART)


def _verweigert(name: str, kurz: str) -> Befehl:
    """A command a reader may expect of a database (``update``, ``delete``); it always explains
    why the log has none (``LogKonsole._unveraenderlich``)."""
    return Befehl(
        name=name,
        syntax=f"{name} …",
        kurz=kurz,
        beispiele=(),
        handler=LogKonsole._unveraenderlich,
        erklaerung=("Eine Korrektur ist ein neues Ereignis: produce.",),
        rest=TEXT,
        rest_pflicht=False,
        vervollstaendigen=False,
        zeigt_bild=False,
    )


def _frist_befehl(name: str, kurz: str, handler: Any, frist: Art, erklaerung: str) -> Befehl:
    """A limit of the group in ticks (``max-poll``, ``session-timeout``): set it, switch it off,
    or, without a value, show it (``LogKonsole._frist``)."""
    return befehl(
        f"{name} [<ticks>|off]",
        kurz,
        handler,
        f"{name} 3",
        f"{name} off",
        name,
        erklaerung=erklaerung,
        positionen=(Wert("frist", "<ticks>|off", frist),),
        letzte_optional=True,
    )


def _mitglied_befehl(name: str, kurz: str, handler: Any, erklaerung: str, **weiter: Any) -> Befehl:
    """A command about one live member of a group (``absturz``, ``leave``)."""
    return befehl(
        f"{name} group <gruppe> <mitglied>",
        kurz,
        handler,
        f"{name} group billing billing-2",
        erklaerung=erklaerung,
        woerter=("group",),
        positionen=(GRUPPE, Wert("mitglied", "<mitglied>", MITGLIED_AKTIV)),
        **weiter,
    )


BEFEHLE = setze_befehle(
    LogKonsole,
    [
        befehl(
            "create topic <topic> [partitions <n>]",
            "ein Topic anlegen",
            LogKonsole._create,
            "create topic orders partitions 3",
            erklaerung=(
                "Ein Topic hat eine feste Anzahl Partitionen (ohne partitions: 1). "
                f"Im Simulator höchstens {MAX_PARTITIONEN}.",
            ),
            woerter=("topic",),
            positionen=(Wert("topic", "<topic>", NEUES_TOPIC),),
            optionen=(Option("partitions", Wert("partitionen", "<n>", ZAHL, 1, MAX_PARTITIONEN)),),
        ),
        befehl(
            "topics",
            "die Topics auflisten",
            LogKonsole._topics,
        ),
        befehl(
            "produce <topic> [key=<schlüssel>] <json>",
            "ein Ereignis schreiben",
            LogKonsole._produce,
            'produce orders key=customer-7 {"order":61,"total":12.40}',
            'produce orders {"order":63}',
            erklaerung=(
                "Der Wert ist JSON. Mit Schlüssel: Partition = Hash des Schlüssels "
                "(Summe der Zeichencodes) modulo Partitionen; derselbe Schlüssel landet "
                "immer in derselben Partition. Ohne Schlüssel: reihum.",
            ),
            positionen=(TOPIC,),
            rest=JSON,
            rest_name='der Wert (JSON), z. B. {"order":61}',
            mit_schluessel=True,
            schluessel=LogKonsole._schluessel,
        ),
        befehl(
            "read <topic> [partition <n>] [from <offset>]",
            "Einträge zeigen, ohne etwas zu merken",
            LogKonsole._read,
            "read orders",
            "read orders partition 1 from 0",
            erklaerung=("p1:0 heißt Partition 1, Offset 0. read ändert keine Position.",),
            positionen=(TOPIC,),
            optionen=(
                Option("partition", Wert("partition", "<n>", PARTITION)),
                Option("from", Wert("start", "<offset>", ZAHL)),
            ),
        ),
        befehl(
            (
                "consume <topic> group <gruppe> [as <mitglied>] [max <n>] "
                "[from-beginning] [no-commit]"
            ),
            "als Gruppe lesen und die Position speichern",
            LogKonsole._consume,
            "consume orders group billing",
            "consume orders group billing as billing-2",
            "consume orders group analytics from-beginning",
            erklaerung=(
                "Ohne as liest das Mitglied <gruppe>-1. Die Partitionen werden unter den "
                "Mitgliedern aufgeteilt. Ein Mitglied liest ab seiner Leseposition weiter; "
                "wer eine Partition neu bekommt (neues Mitglied, Rebalancing, Neustart), "
                "beginnt an der gespeicherten Position der Gruppe. Eine neue Gruppe beginnt "
                "am Ende, mit from-beginning am Anfang. max begrenzt die Anzahl der Einträge. "
                "no-commit liest, ohne die Position zu speichern: Die Leseposition rückt "
                "trotzdem weiter (erst verarbeiten, dann mit commit speichern). Jedes consume "
                "setzt die Uhr des Max Poll Interval zurück (siehe max-poll).",
            ),
            positionen=(TOPIC,),
            optionen=(
                Option("group", Wert("gruppe", "<gruppe>", GRUPPE_NEU), pflicht=True),
                Option("as", Wert("mitglied", "<mitglied>", MITGLIED)),
                Option("max", Wert("max", "<n>", ZAHL, 1)),
                Option("from-beginning"),
                Option("no-commit"),
            ),
        ),
        befehl(
            "commit <topic> group <gruppe> [as <mitglied>]",
            "die Leseposition speichern (nach no-commit)",
            LogKonsole._commit,
            "commit orders group billing",
            "commit orders group billing as billing-2",
            erklaerung=(
                "Speichert die Leseposition des Mitglieds (bis dahin hat es gelesen, oder "
                "dorthin hat seek sie gesetzt), nur für seine eigenen Partitionen. Ein "
                "entferntes oder abgestürztes Mitglied kann nichts mehr speichern; ebenso "
                "nach einem Rebalancing seit dem Lesen (wie Kafkas CommitFailedException).",
            ),
            positionen=(TOPIC,),
            optionen=(
                Option("group", GRUPPE, pflicht=True),
                Option("as", Wert("mitglied", "<mitglied>", MITGLIED_JE)),
            ),
        ),
        befehl(
            "seek <topic> group <gruppe> [as <mitglied>] partition <n> to <offset>",
            "die Leseposition eines Mitglieds verschieben",
            LogKonsole._seek,
            "seek orders group billing partition 0 to 1",
            "seek orders group billing as billing-2 partition 2 to 0",
            erklaerung=(
                "Wie Kafkas seek: Das nächste consume des Mitglieds liest die Partition ab "
                "<offset>. Zurück, um einen Eintrag noch einmal zu versuchen; vor, um "
                "etwas zu überspringen. Gespeichert wird nichts, das tut erst commit. Nur "
                "für eine Partition, die das Mitglied gerade liest, und erst wenn es seit "
                "dem letzten Rebalancing gelesen hat.",
            ),
            positionen=(TOPIC,),
            optionen=(
                Option("group", GRUPPE, pflicht=True),
                Option("as", Wert("mitglied", "<mitglied>", MITGLIED_SEEK)),
                Option("partition", Wert("partition", "<n>", PARTITION), pflicht=True),
                Option("to", Wert("offset", "<offset>", ZAHL), pflicht=True),
            ),
        ),
        tick_befehl(
            LogKonsole._tick,
            "tick 4",
            "Hat ein Mitglied länger als das Max Poll Interval nicht gelesen (consume) oder ein "
            "abgestürztes länger als das Session Timeout keine Heartbeats geschickt, wird es "
            "aus seiner Gruppe entfernt, und die übrigen teilen seine Partitionen neu auf. ",
        ),
        _frist_befehl(
            "max-poll",
            "Max Poll Interval: so viele Ticks ohne consume",
            LogKonsole._max_poll,
            MAX_POLL,
            "Ein Mitglied, das länger als <ticks> Ticks nicht liest, verlässt bei tick die "
            "Gruppe, auch wenn es noch arbeitet: Zu langsam sieht aus wie tot. off: nie (so "
            "beginnt jede Konsole). Ohne Wert: zeigt die Einstellung. In Kafka: "
            "max.poll.interval.ms, die längste Pause zwischen zwei poll().",
        ),
        _frist_befehl(
            "session-timeout",
            "Session Timeout: so viele Ticks ohne Heartbeat",
            LogKonsole._session,
            SESSION,
            "Lebende Mitglieder schicken in jedem Tick von selbst Heartbeats (in Kafka ein "
            "Hintergrund-Thread des Clients). Nur ein abgestürztes (absturz) schickt keine "
            "mehr; nach mehr als <ticks> Ticks entfernt es tick aus der Gruppe. off: nie (so "
            "beginnt jede Konsole). In Kafka: session.timeout.ms.",
        ),
        _mitglied_befehl(
            "absturz",
            "ein Mitglied abstürzen lassen",
            LogKonsole._absturz,
            "Der Prozess ist weg: kein consume, kein commit, keine Heartbeats. Seine Partitionen "
            "hält es, und niemand liest sie, bis das Session Timeout abläuft (session-timeout); "
            "dann teilen die übrigen neu auf. Ein neues consume mit seinem Namen startet es neu, "
            "an der gespeicherten Position.",
            aliase=("crash",),
        ),
        _mitglied_befehl(
            "leave",
            "ein Mitglied geordnet austreten lassen",
            LogKonsole._leave,
            "Die übrigen Mitglieder teilen die Partitionen sofort neu auf, ohne auf eine Frist zu "
            "warten (wie consumer.close() in Kafka).",
        ),
        befehl(
            "offsets <topic>",
            "Ende jeder Partition, Position jeder Gruppe",
            LogKonsole._offsets,
            "offsets orders",
            positionen=(TOPIC,),
        ),
        befehl(
            "describe group <gruppe>",
            "Position, Ende und Lag einer Gruppe",
            LogKonsole._describe,
            "describe group billing",
            erklaerung=("Lag (der Rückstand) = Ende − Position.",),
            woerter=("group",),
            positionen=(GRUPPE,),
        ),
        befehl(
            "groups",
            "die Gruppen auflisten",
            LogKonsole._groups,
        ),
        befehl(
            "reset group <gruppe> to <0|earliest|latest> [topic <topic>]",
            "die Position einer Gruppe verschieben",
            LogKonsole._reset,
            "reset group analytics to 0",
            "reset group billing to latest",
            erklaerung=(
                "to 0 oder earliest: an den Anfang, latest: ans Ende, eine Zahl: dorthin "
                "(höchstens bis zum Ende). Ohne topic gilt es für jedes Topic der Gruppe. "
                "Andere Gruppen merken nichts.",
            ),
            woerter=("group",),
            positionen=(GRUPPE,),
            optionen=(
                Option("to", Wert("ziel", "<0|earliest|latest>", ZIEL), pflicht=True),
                Option("topic", TOPIC),
            ),
        ),
        _verweigert("update", "gibt es nicht: Einträge ändern sich nie"),
        _verweigert("delete", "gibt es nicht: Einträge werden nicht einzeln gelöscht"),
    ],
)


def _lies_frist(text: str, befehl: str) -> int | None:
    """The value of ``max-poll`` or ``session-timeout``: ticks from 1, or ``off``."""
    if text.lower() in ("off", "aus"):
        return None
    return zahl(text, f"Nach `{befehl}`", 1, MAX_TICKS)


def _eintraege(records: list[Record], einzug: str = "") -> list[str]:
    """Einträge als Zeilen ``p1:0  customer-7  {…}`` (höchstens ``MAX_ZEILEN``)."""
    gezeigt = records[:MAX_ZEILEN]
    zeilen = tabelle(
        ["", "", ""],
        [[r.adresse, r.key if r.key is not None else "-", zeige_json(r.value)] for r in gezeigt],
        einzug=einzug,
    )[1:]
    if len(records) > len(gezeigt):
        zeilen.append(f"{einzug}… und {len(records) - len(gezeigt)} weitere")
    return zeilen


def _n(log: Log, topic: str) -> int:
    return log.topic(topic).partitionen


def _leser(g: Gruppe, topic: str) -> list[str]:
    """Die Mitglieder von ``g``, die ``topic`` lesen (unter ihnen wird es aufgeteilt)."""
    return [m for m in g.mitglieder if topic in g.topics_von(m)]


def _aufteilung(mitglieder: list[str], zuteilung: dict[int, str]) -> list[str]:
    """Je Mitglied eine Zeile ``  billing-1: p0, p1`` (oder ``untätig``)."""
    if not mitglieder:
        return ["  niemand: Kein Mitglied liest dieses Topic mehr."]
    zeilen = []
    for m in mitglieder:
        partitionen = [f"p{p}" for p in sorted(zuteilung) if zuteilung[p] == m]
        zeilen.append(f"  {m}: {', '.join(partitionen) if partitionen else 'untätig'}")
    return zeilen


def _noch_einmal(
    meine: list[int],
    weiter: set[int],
    gespeichert: dict[int, int | None],
    offen: dict[int, tuple[int, int] | None],
) -> list[str]:
    """For each partition this member starts anew at the stored position although records after it
    were already read: which of them come again."""
    zeilen = []
    for p in meine:
        start, bereich = gespeichert.get(p), offen.get(p)
        if p in weiter or start is None or bereich is None or bereich[1] <= start:
            continue
        bis = bereich[1] - 1
        was = f"Offset {start} war" if bis == start else f"Offset {start} bis {bis} waren"
        zeilen.append(
            f"p{p} beginnt an der gespeicherten Position {start}: {was} schon "
            f"gelesen und {'kommt' if bis == start else 'kommen'} noch einmal."
        )
    return zeilen


def _lesepositionen(g: Gruppe) -> list[str]:
    """The members whose reading position is not the stored one (read or sought, not committed)."""
    zeilen = []
    for m in g.mitglieder:
        for topic in g.topics_von(m):
            stand = g.lesestand(m, topic) or {}
            for p, pos in sorted(stand.items()):
                gespeichert = g.position(topic, p)
                if pos != gespeichert:
                    zeilen.append(
                        f"  {m}: {topic} p{p} Leseposition {pos}, "
                        f"gespeichert {regeln.position_text(gespeichert)}"
                    )
    if zeilen:
        zeilen.insert(0, "Noch nicht gespeichert (Leseposition ≠ Position):")
    return zeilen


#: Diese Konsole für ``lessonkit``: der Block ``log-konsole``, ``kind="log"``.
KONSOLE = KonsolenArt(
    name="log",
    klasse=LogKonsole,
    modell="log",
    beschreibung="Topics, Partitionen, Consumer-Gruppen (Lektion „Ereignisströme“)",
)
