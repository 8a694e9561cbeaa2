"""Bilder des Logs: Partitionen als Zeilen von Zellen, Gruppen als Zeilen darunter.

- Jede Partition ist eine Zeile. Eine Zelle ist ein Eintrag: oben der Offset, darunter der ganze
  Schlüssel; passt er nicht in eine Zeile, steht er in zweien, vor seinem letzten Bindestrich
  getrennt (``customer`` über ``-7``), und die Zellen werden so breit wie die längste Zeile. So
  sind ``customer-7`` und ``product-7`` auch auf einem Telefon auseinanderzuhalten. Die
  gestrichelte Zelle ist die Stelle, an die der nächste Eintrag kommt.
- Unter jeder Partition hat jede Gruppe ihre eigene Zeile: Der gefärbte Teil ist gelesen und seine
  Position gespeichert, ▲ steht an der Stelle, an der die Gruppe als Nächstes liest (die
  Leseposition des Mitglieds, das die Partition liest; ohne sie die gespeicherte Position). Links
  steht, welches Mitglied die Partition liest (die Aufteilung), ein abgestürztes mit „(abgestürzt)“;
  nach einem Rebalancing steht dort ein anderer Name. Blau gestrichelte Zellen sind gelesen, aber ohne gespeicherte Position: Wer die
  Partition neu bekommt, liest sie noch einmal. Ohne gespeicherte Position und ohne Leseposition
  steht „–“ in der Zeile.
- Unter den Partitionen: untätige Mitglieder und Mitglieder, die eine der beiden Fristen (Max Poll
  Interval, Session Timeout) entfernt hat.
- Lange Partitionen zeigen nur ihre letzten Zellen, davor „…“.
- Ein Bild zeigt höchstens ``MAX_GRUPPEN`` Gruppen: die zuletzt geänderten (die des letzten
  Befehls zuerst); eine Zeile nennt, wie viele weitere es gibt. Ebenso höchstens ``MAX_HINWEISE``
  Zeilen über untätige und entfernte Mitglieder. So bleibt das Bild lesbar und schnell gezeichnet.
- Das Bild einer Gruppe zeigt höchstens ``MAX_TOPICS`` Topics mit zusammen höchstens
  ``MAX_PARTITIONEN_GRUPPE`` Partitionen (die ersten, wie ``describe group`` sie nennt); eine
  Zeile nennt, wie viele weitere es gibt. Sein Titel nennt höchstens ``MAX_MITGLIEDER`` Mitglieder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..svg import Bild, Eintrag, Legende, Zeichnung, textbreite
from . import regeln

if TYPE_CHECKING:
    from .modell import Gruppe, Log, Topic

RAND = 12
ZELLE = 44
SCHRITT = 48
PARTITION_H = 38
GRUPPE_H = 20
ABSTAND = 10
MAX_SPALTEN = 12
RECHTS = 110
UNTAETIG_H = 18
#: Schriftgröße des Schlüssels in einer Zelle und sein Rand links und rechts zusammen.
SCHLUESSEL_PX = 9
SCHLUESSEL_RAND = 8
#: So viele Zeichen hat eine Zeile des Schlüssels höchstens; eine längere wird in der Mitte
#: gekürzt (``abcdef…uvwxyz``), ihr Anfang und ihr Ende bleiben.
MAX_SCHLUESSEL_ZEICHEN = 12
#: Hier wird ein langer Schlüssel getrennt (vor dem letzten dieser Zeichen).
TRENNER = "-_.:/"
#: So viele Gruppen zeichnet ein Bild höchstens (die zuletzt geänderten).
MAX_GRUPPEN = 6
#: So viele Zeilen über untätige und entfernte Mitglieder zeigt ein Topic höchstens.
MAX_HINWEISE = 6
#: So viele untätige Mitglieder nennt eine Zeile höchstens.
MAX_UNTAETIGE = 4


def waehle_gruppen(gruppen: list[Gruppe]) -> tuple[list[Gruppe], int]:
    """(die Gruppen, die das Bild zeichnet, wie viele es weglässt): höchstens ``MAX_GRUPPEN``,
    die zuletzt geänderten, in der gegebenen Reihenfolge."""
    if len(gruppen) <= MAX_GRUPPEN:
        return list(gruppen), 0
    neueste = sorted(gruppen, key=lambda g: -g.zuletzt_geaendert)[:MAX_GRUPPEN]
    gezeigt = [g for g in gruppen if g in neueste]
    return gezeigt, len(gruppen) - len(gezeigt)


def weitere_text(anzahl: int) -> str:
    """Die Zeile unter einem Bild, das Gruppen weglässt."""
    gruppen = "weitere Gruppe" if anzahl == 1 else "weitere Gruppen"
    return f"… und {anzahl} {gruppen}, groups listet alle"


def _mitte_gekuerzt(text: str) -> str:
    if len(text) <= MAX_SCHLUESSEL_ZEICHEN:
        return text
    vorn = (MAX_SCHLUESSEL_ZEICHEN - 1) // 2
    return text[:vorn] + "…" + text[len(text) - (MAX_SCHLUESSEL_ZEICHEN - 1 - vorn) :]


def schluessel_zeilen(key: str) -> tuple[str, ...]:
    """Der Schlüssel, wie ihn eine Zelle zeigt: ganz in einer Zeile, wenn er in eine Zelle passt,
    sonst in zwei, vor seinem letzten Trennzeichen (``customer-7`` -> ``customer``, ``-7``;
    ohne Trennzeichen in der Mitte)."""
    if textbreite(key, SCHLUESSEL_PX) + SCHLUESSEL_RAND <= ZELLE:
        return (key,)
    stelle = max(key.rfind(t) for t in TRENNER)
    if stelle <= 0:
        stelle = (len(key) + 1) // 2
    return (_mitte_gekuerzt(key[:stelle]), _mitte_gekuerzt(key[stelle:]))


@dataclass(frozen=True)
class _Mass:
    """Die Maße der Zellen eines Bildes: breit genug für die längste Zeile eines Schlüssels,
    hoch genug für zwei Zeilen, wenn ein Schlüssel zwei braucht."""

    zelle: int = ZELLE
    zeilen: int = 1

    @property
    def schritt(self) -> int:
        return self.zelle + SCHRITT - ZELLE

    @property
    def partition_h(self) -> int:
        return PARTITION_H + (self.zeilen - 1) * 10

    @property
    def zelle_h(self) -> int:
        return self.partition_h - 4


def _mass(topics: list[Topic]) -> _Mass:
    """Die Maße für die Einträge, die das Bild von ``topics`` zeigt."""
    zeilen = [
        schluessel_zeilen(r.key)
        for t in topics
        for p in range(t.partitionen)
        for r in t.records(p, _fenster(t.ende(p))[1])
        if r.key is not None
    ]
    breite = max(
        [ZELLE] + [textbreite(z, SCHLUESSEL_PX) + SCHLUESSEL_RAND for k in zeilen for z in k]
    )
    return _Mass(breite, max([1] + [len(k) for k in zeilen]))


def _fenster(ende: int) -> tuple[bool, int]:
    """(gekürzt?, erster gezeigter Offset) für eine Partition mit ``ende`` Einträgen."""
    if ende + 1 <= MAX_SPALTEN:
        return False, 0
    return True, ende + 1 - (MAX_SPALTEN - 1)


def _spalten(ende: int) -> int:
    gekuerzt, erster = _fenster(ende)
    return (ende + 1 - erster) + (1 if gekuerzt else 0)


def _gruppen_label(gruppe: Gruppe, mitglied: str | None) -> str:
    if mitglied is None:
        return f"{gruppe.name} · niemand"
    if mitglied in gruppe.abgestuerzt():
        return f"{gruppe.name} · {mitglied} (abgestürzt)"
    return f"{gruppe.name} · {mitglied}"


def _untaetige(topic: Topic, gruppen: list[Gruppe]) -> list[str]:
    """Je Gruppe mit untätigen Mitgliedern (mehr Mitglieder als Partitionen) eine Zeile."""
    zeilen = []
    for g in gruppen:
        zuteilung = g.zuteilung(topic.name)
        leser = [m for m in g.mitglieder if topic.name in g.topics_von(m)]
        untaetig = [m for m in leser if m not in zuteilung.values()]
        if untaetig:
            genannt = ", ".join(untaetig[:MAX_UNTAETIGE])
            if len(untaetig) > MAX_UNTAETIGE:
                genannt += f" und {len(untaetig) - MAX_UNTAETIGE} weitere"
            zeilen.append(f"{g.name} · {genannt}: untätig, keine Partition frei")
    return zeilen


def _entfernte(topic: Topic, gruppen: list[Gruppe]) -> list[str]:
    """Je Mitglied, das eine der beiden Fristen entfernt hat und das dieses Topic las, eine Zeile."""
    return [
        f"{g.name} · {e.mitglied}: entfernt bei t={e.zeit} ("
        + (
            f"{e.ohne_lesen} Ticks ohne consume"
            if e.absturz is None
            else f"abgestürzt bei t={e.absturz}, Session Timeout {e.frist}"
        )
        + ")"
        for g in gruppen
        for e in g.entfernt()
        if any(t == topic.name for t, _, _ in e.uebernahme)
    ]


def _hinweise_mit_art(topic: Topic, gruppen: list[Gruppe]) -> list[tuple[str, str, str]]:
    """(Zeile, Klasse, Farbe) über untätige und entfernte Mitglieder, höchstens ``MAX_HINWEISE``."""
    alle = [(z, "untaetig", "muted") for z in _untaetige(topic, gruppen)]
    alle += [(z, "entfernt", "warn") for z in _entfernte(topic, gruppen)]
    if len(alle) <= MAX_HINWEISE:
        return alle
    rest = len(alle) - (MAX_HINWEISE - 1)
    weitere = f"… und {rest} weitere Zeilen über Mitglieder, describe group nennt sie"
    return [*alle[: MAX_HINWEISE - 1], (weitere, "weitere-hinweise", "muted")]


def _hinweise(topic: Topic, gruppen: list[Gruppe]) -> list[str]:
    """Die Zeilen über untätige und entfernte Mitglieder, höchstens ``MAX_HINWEISE``."""
    return [zeile for zeile, _, _ in _hinweise_mit_art(topic, gruppen)]


def _hoehe_topic(topic: Topic, gruppen: list[Gruppe], mass: _Mass) -> int:
    return (
        24
        + topic.partitionen * (mass.partition_h + len(gruppen) * (GRUPPE_H + 4) + ABSTAND)
        + UNTAETIG_H * len(_hinweise(topic, gruppen))
    )


def _eintraege(anzahl: int) -> str:
    return "1 Eintrag" if anzahl == 1 else f"{anzahl} Einträge"


#: So viele verschiedene Schlüssel einer Partition nennt die Beschreibung.
MAX_SCHLUESSEL_TEXT = 5


def _schluessel_text(topic: Topic, p: int) -> str:
    """`` (Schlüssel customer-7, product-7)``: die Schlüssel einer Partition, in ihrer Folge."""
    keys: list[str] = []
    for r in topic.records(p):
        if r.key is not None and r.key not in keys:
            keys.append(r.key)
            if len(keys) > MAX_SCHLUESSEL_TEXT:
                break
    if not keys:
        return ""
    mehr = ", …" if len(keys) > MAX_SCHLUESSEL_TEXT else ""
    return f" (Schlüssel {', '.join(keys[:MAX_SCHLUESSEL_TEXT])}{mehr})"


def beschreibung_topic(topic: Topic, gruppen: list[Gruppe]) -> str:
    """Was das Bild eines Topics zeigt, in Worten (``<desc>`` für Screenreader)."""
    teile = [
        f"Topic „{topic.name}“: "
        + ", ".join(
            f"P{p} {_eintraege(topic.ende(p))}{_schluessel_text(topic, p)}"
            for p in range(topic.partitionen)
        )
        + "."
    ]
    for g in gruppen:
        zeilen = []
        for p in range(topic.partitionen):
            mitglied = _gruppen_label(g, g.zuteilung(topic.name).get(p)).split(" · ", 1)[1]
            position = g.position(topic.name, p)
            lesen = g.leseposition(topic.name, p)
            weiter = "" if lesen is None or lesen == position else f", Leseposition {lesen}"
            if position is None:
                zeilen.append(f"P{p} liest {mitglied}, noch keine Position gespeichert{weiter}")
                continue
            zeile = (
                f"P{p} liest {mitglied}, Position {position}, Lag {topic.ende(p) - position}"
                f"{weiter}"
            )
            offen = g.ungespeichert(topic.name, p)
            if offen is not None and offen[1] > offen[0]:
                zeile += f", Offset {offen[0]} bis {offen[1] - 1} gelesen, aber nicht gespeichert"
            zeilen.append(zeile)
        teile.append(f"Gruppe „{g.name}“: " + "; ".join(zeilen) + ".")
    teile.extend(f"{hinweis}." for hinweis in _hinweise(topic, gruppen))
    return " ".join(teile)


def _zeichne_topic(
    z: Zeichnung,
    y: int,
    links: int,
    topic: Topic,
    gruppen: list[Gruppe],
    ueberschrift: str,
    mass: _Mass,
) -> int:
    """Zeichnet ein Topic ab Höhe ``y``; gibt die Höhe danach zurück."""
    z.text(RAND, y + 14, ueberschrift, fett=True, groesse=13)
    y += 24
    mitte = mass.zelle_h // 2 + 7
    for p in range(topic.partitionen):
        ende = topic.ende(p)
        gekuerzt, erster = _fenster(ende)
        x0 = links + (mass.schritt if gekuerzt else 0)
        z.text(RAND, y + mitte, f"P{p}", fett=True, groesse=13)
        if gekuerzt:
            z.text(links + mass.zelle // 2, y + mitte, "…", anker="middle", farbe_name="muted")
        for i, record in enumerate(topic.records(p, erster)):
            x = x0 + i * mass.schritt
            z.rechteck(x, y, mass.zelle, mass.zelle_h, fuellung="cell", rand="fg", klasse="eintrag")
            z.text(
                x + mass.zelle // 2,
                y + 16,
                str(record.offset),
                anker="middle",
                mono=True,
                groesse=13,
            )
            if record.key is not None:
                for n, zeile in enumerate(schluessel_zeilen(record.key)):
                    z.text(
                        x + mass.zelle // 2,
                        y + 28 + 10 * n,
                        zeile,
                        anker="middle",
                        groesse=SCHLUESSEL_PX,
                        farbe_name="muted",
                        klasse="schluessel",
                    )
        x = x0 + (ende - erster) * mass.schritt
        z.rechteck(
            x,
            y,
            mass.zelle,
            mass.zelle_h,
            fuellung=None,
            rand="next",
            gestrichelt=True,
            klasse="naechste",
        )
        z.text(
            x + mass.zelle // 2,
            y + 16,
            str(ende),
            anker="middle",
            mono=True,
            groesse=13,
            farbe_name="next",
        )
        y += mass.partition_h
        for g in gruppen:
            position = g.position(topic.name, p)
            lesen = g.leseposition(topic.name, p)
            mitglied = g.zuteilung(topic.name).get(p)
            offen = g.ungespeichert(topic.name, p)
            z.text(RAND + 8, y + 14, _gruppen_label(g, mitglied), groesse=11)
            if position is None and lesen is None:
                text = f"{regeln.position_text(None)}  noch keine Position gespeichert"
                z.text(links, y + 14, text, groesse=11, farbe_name="muted", klasse="ohne-position")
                y += GRUPPE_H + 4
                continue
            gespeichert = 0 if position is None else position
            marker = gespeichert if lesen is None else lesen
            for offset in range(erster, ende + 1):
                x = x0 + (offset - erster) * mass.schritt
                if offset < gespeichert:
                    z.rechteck(
                        x, y + 2, mass.zelle, 14, fuellung="read", rand="line", klasse="gelesen"
                    )
                elif offen is not None and offen[0] <= offset < offen[1]:
                    z.rechteck(
                        x,
                        y + 2,
                        mass.zelle,
                        14,
                        fuellung=None,
                        rand="accent",
                        gestrichelt=True,
                        klasse="ungespeichert",
                    )
                else:
                    z.rechteck(x, y + 2, mass.zelle, 14, fuellung=None, rand="line")
            if marker >= erster:
                mx = x0 + (marker - erster) * mass.schritt + mass.zelle // 2
            else:
                mx = links + mass.zelle // 2
            z.text(
                mx, y + 14, "▲", anker="middle", farbe_name="accent", groesse=12, klasse="marker"
            )
            z.text(
                z.breite - RAND,
                y + 14,
                f"Lag {regeln.position_text(None if position is None else ende - position)}",
                anker="end",
                groesse=11,
                farbe_name="muted",
            )
            y += GRUPPE_H + 4
        y += ABSTAND
    for zeile, klasse, farbe in _hinweise_mit_art(topic, gruppen):
        z.text(RAND + 8, y + 10, zeile, groesse=11, farbe_name=farbe, klasse=klasse)
        y += UNTAETIG_H
    return y


def _links(topics: list[Topic], gruppen: list[Gruppe]) -> int:
    labels = [f"P{t.partitionen - 1}" for t in topics]
    for g in gruppen:
        for m in [*g.mitglieder, *(e.mitglied for e in g.entfernt()), None]:
            labels.append(_gruppen_label(g, m))
    return RAND + max([textbreite(t, 11) + 8 for t in labels] + [40]) + 12


def _breite(links: int, topics: list[Topic], mass: _Mass) -> int:
    spalten = max([_spalten(t.ende(p)) for t in topics for p in range(t.partitionen)] + [1])
    return max(links + spalten * mass.schritt + RECHTS, 360)


LEGENDE = "gestrichelt: nächster Eintrag · gefärbt: gespeichert · ▲ nächste Leseposition"
LEGENDE_OFFEN = "blau gestrichelt: gelesen, Position nicht gespeichert"
LEGENDE_ZEILE = 14


def _mit_offenen(topics: list[Topic], gruppen: list[Gruppe]) -> bool:
    """Gibt es irgendwo gelesene Einträge ohne gespeicherte Position (in einer gezeichneten Zeile)?"""
    return any(
        g.ungespeichert(t.name, p) is not None
        and (g.position(t.name, p) is not None or g.leseposition(t.name, p) is not None)
        for t in topics
        for p in range(t.partitionen)
        for g in gruppen
    )


def _legende(mit_gruppen: bool, mit_offenen: bool = False) -> Legende:
    """Die Legende: was gestrichelt, gefärbt und ▲ heißen (ohne Gruppen nur das Erste)."""
    teile = LEGENDE.split(" · ") if mit_gruppen else LEGENDE.split(" · ")[:1]
    if mit_offenen:
        teile.append(LEGENDE_OFFEN)
    return Legende(
        tuple(Eintrag(teil, farbe_name="muted") for teil in teile),
        groesse=10,
        zeilenhoehe=LEGENDE_ZEILE,
        nur_text=True,
    )


def _breite_mit_texten(breite: int, topics: list[Topic], gruppen: list[Gruppe]) -> int:
    """Verbreitert das Bild, falls eine Zeile über untätige Mitglieder nicht hineinpasst."""
    texte = [zeile for t in topics for zeile in _hinweise(t, gruppen)]
    return max([breite] + [RAND + 8 + textbreite(t, 11) + RAND for t in texte])


def _weitere_zeile(z: Zeichnung, y: int, text: str, klasse: str) -> int:
    """The summary line of what a capped picture leaves out; the y below it."""
    z.text(RAND + 8, y + 10, text, groesse=11, farbe_name="muted", klasse=klasse)
    return y + UNTAETIG_H


def topic_bild(topic: Topic, gruppen: list[Gruppe]) -> Bild:
    """Ein Topic mit den Zeilen der angegebenen Gruppen (höchstens ``MAX_GRUPPEN`` davon)."""
    gruppen, weitere = waehle_gruppen(gruppen)
    if gruppen:
        titel = (
            f"Topic „{topic.name}“ mit {regeln.partitionen_text(topic.partitionen)} und den Gruppen "
            + ", ".join(f"„{g.name}“" for g in gruppen)
        )
        if weitere:
            titel += f" und {weitere} weiteren"
    else:
        titel = f"Topic „{topic.name}“ mit {regeln.partitionen_text(topic.partitionen)}"
    links = _links([topic], gruppen)
    mass = _mass([topic])
    breite = _breite_mit_texten(_breite(links, [topic], mass), [topic], gruppen)
    legende = _legende(bool(gruppen), _mit_offenen([topic], gruppen))
    hoehe = (
        8
        + _hoehe_topic(topic, gruppen, mass)
        + (UNTAETIG_H if weitere else 0)
        + 10
        + legende.hoehe(breite, RAND)
    )
    beschreibung = beschreibung_topic(topic, gruppen)
    if weitere:
        beschreibung += f" Nicht gezeigt: {weitere_text(weitere).removeprefix('… und ')}."
    z = Zeichnung(breite, hoehe, titel, beschreibung)
    y = _zeichne_topic(z, 8, links, topic, gruppen, f"Topic „{topic.name}“", mass)
    if weitere:
        y = _weitere_zeile(z, y, weitere_text(weitere), "weitere-gruppen")
    z.legende(legende, y - 2, RAND)
    return Bild(z.svg(), titel)


#: So viele Topics und Partitionen zeichnet das Bild einer Gruppe höchstens (die ersten Topics,
#: wie ``describe group`` sie nennt, mindestens eins); so viele Mitglieder nennt sein Titel.
MAX_TOPICS = 6
MAX_PARTITIONEN_GRUPPE = 24
MAX_MITGLIEDER = 6


def waehle_topics(topics: list[Topic]) -> list[Topic]:
    """Die ersten Topics, solange es höchstens ``MAX_TOPICS`` mit zusammen höchstens
    ``MAX_PARTITIONEN_GRUPPE`` Partitionen sind (das erste immer)."""
    gezeigt: list[Topic] = []
    partitionen = 0
    for t in topics[:MAX_TOPICS]:
        if gezeigt and partitionen + t.partitionen > MAX_PARTITIONEN_GRUPPE:
            break
        gezeigt.append(t)
        partitionen += t.partitionen
    return gezeigt


def weitere_topics_text(anzahl: int) -> str:
    """Die Zeile unter dem Bild einer Gruppe, das Topics weglässt."""
    topics = "weiteres Topic" if anzahl == 1 else "weitere Topics"
    return f"… und {anzahl} {topics}, describe group nennt alle"


def _mitglieder_text(gruppe: Gruppe) -> str:
    mitglieder = gruppe.mitglieder
    text = ", ".join(mitglieder[:MAX_MITGLIEDER]) or "keine"
    if len(mitglieder) > MAX_MITGLIEDER:
        text += f" und {len(mitglieder) - MAX_MITGLIEDER} weitere"
    return text


def gruppen_bild(log: Log, gruppe: Gruppe) -> Bild:
    """Für die Topics, in denen die Gruppe eine Position hat (höchstens ``MAX_TOPICS`` mit
    ``MAX_PARTITIONEN_GRUPPE`` Partitionen), die Partitionen mit ihrer Zeile; eine Zeile nennt,
    wie viele Topics fehlen."""
    namen = gruppe.topics()
    topics = waehle_topics([log.topic(n) for n in namen[:MAX_TOPICS]])
    weitere = len(namen) - len(topics)
    titel = f"Gruppe „{gruppe.name}“, Mitglieder: {_mitglieder_text(gruppe)}"
    links = _links(topics, [gruppe])
    mass = _mass(topics)
    breite = _breite_mit_texten(_breite(links, topics, mass), topics, [gruppe])
    if not topics:
        z = Zeichnung(max(breite, 420), 60, titel, "Noch keine gespeicherte Position.")
        z.text(RAND, 22, f"Gruppe „{gruppe.name}“", fett=True, groesse=13)
        z.text(RAND, 44, "Noch keine gespeicherte Position.", farbe_name="muted")
        return Bild(z.svg(), titel)
    legende = _legende(True, _mit_offenen(topics, [gruppe]))
    hoehe = (
        8
        + sum(_hoehe_topic(t, [gruppe], mass) for t in topics)
        + (UNTAETIG_H if weitere else 0)
        + 10
        + legende.hoehe(breite, RAND)
    )
    beschreibung = " ".join(beschreibung_topic(t, [gruppe]) for t in topics)
    if weitere:
        beschreibung += f" Nicht gezeigt: {weitere_topics_text(weitere).removeprefix('… und ')}."
    z = Zeichnung(breite, hoehe, titel, beschreibung)
    y = 8
    for t in topics:
        y = _zeichne_topic(z, y, links, t, [gruppe], f"Gruppe „{gruppe.name}“ in „{t.name}“", mass)
    if weitere:
        y = _weitere_zeile(z, y, weitere_topics_text(weitere), "weitere-topics")
    z.legende(legende, y - 2, RAND)
    return Bild(z.svg(), titel)
