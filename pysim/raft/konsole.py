"""Die Raft-Konsole der Lektion „Konsens: Leader-Wahl und Raft“: Zeit vorstellen, Knoten
abstürzen, trennen und anhalten lassen, über den Leader schreiben und lesen, Status, Verlauf und
das Urteil.

    >>> k = RaftKonsole()
    >>> print(k.run("status").text.splitlines()[0])
    t=0, kein Leader, Mehrheit 2 von 3

Das Bild zeigt die Knoten im Kreis mit den Nachrichten unterwegs und darunter ihre Logs
(``pysim.raft.bild``); die Regeln stehen im Modell ``pysim.raft.modell``.
"""

from __future__ import annotations

from typing import Any

from ..console.art import KonsolenArt, KonsolenOption
from ..console.basis import BasisKonsole, setze_befehle, tick_anzahl, tick_befehl, tick_kopf
from ..console.befehle import WERT, befehl, client_wert, key_wert, namen_art, verlauf_zeilen
from ..console.ergebnis import ConsoleResult
from ..console.parser import ZAHL, Aufruf, EingabeFehler, Option, Wert
from ..console.werte import anzahl, tabelle
from ..fehler import SimFehler
from .modell import RaftSim

#: So viele Ereignisse zeigt ``history`` als Text (die letzten).
MAX_ZEILEN = 30
#: Höchstens so lange hält ``pause`` einen Knoten an.
MAX_PAUSE = 200


class RaftKonsole(BasisKonsole[RaftSim]):
    """Die Raft-Konsole: ``RaftKonsole().run("tick 40")``.

    ``sim``: eine vorhandene ``RaftSim``; sonst eine neue mit ``knoten`` Knoten (3 oder 5) und
    dem ``seed`` für die zufälligen Election-Timeouts und Laufzeiten.
    """

    TITEL = "Raft-Konsole"
    HILFE_BEISPIEL = "partition"

    def __init__(self, sim: RaftSim | None = None, knoten: int = 3, seed: int = 0) -> None:
        super().__init__(sim if sim is not None else RaftSim(knoten, seed=seed))

    @property
    def sim(self) -> RaftSim:
        """Die Simulation hinter der Konsole (dasselbe wie ``modell``)."""
        return self.modell

    # --- Arten von Werten ---

    def _keys(self, _werte: dict[str, Any]) -> list[str]:
        return sorted({str(e["key"]) for e in self.sim.verlauf} | {"x"})

    def _clients(self, _werte: dict[str, Any]) -> list[str]:
        return sorted({str(e["process"]) for e in self.sim.verlauf})

    # --- Ausgabe ---

    def _bild(self) -> str:
        return self.sim.bild().svg

    def _stand(self) -> tuple[int, int]:
        return len(self.sim.protokoll), len(self.sim.verlauf)

    def _ereignisse(self, stand: tuple[int, int]) -> list[str]:
        """What happened since ``stand``, in the order of the clock: the model's notes and the
        answers the clients got."""
        s = self.sim
        zeilen: list[tuple[int, int, str]] = []
        for i, (t, text) in enumerate(s.protokoll[stand[0] :]):
            zeilen.append((t, i, f"t={t}: {text}."))
        for i, e in enumerate(s.verlauf[stand[1] :], start=len(zeilen)):
            if e["type"] != "invoke":
                zeilen.append((e["time"], i, f"t={e['time']}: {_antwort(e)}"))
        return [z for _, _, z in sorted(zeilen)]

    # --- Befehle ---

    def _tick(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.sim
        n = tick_anzahl(aufruf)
        zeilen = [tick_kopf(s.now + n, n)]
        for _ in range(n):  # one tick at a time: each event with the state of its moment
            stand = self._stand()
            s.tick(1)
            zeilen += self._ereignisse(stand)
        if len(zeilen) == 1:
            leader = s.leader()
            zeilen.append(
                f"Nichts Neues: {leader} schickt als Leader Heartbeats."
                if leader
                else "Nichts Neues; noch ist kein Election-Timeout abgelaufen."
            )
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _anfrage(self, aufruf: Aufruf, f: str) -> ConsoleResult:
        s = self.sim
        w = aufruf.werte
        client = w.get("as") or self._freier_client()
        if s.wartet(client):
            raise SimFehler(
                f"Der Client {client} wartet noch auf eine Antwort. Nimm einen anderen "
                f"(… as c9) oder warte (tick)."
            )
        an = w.get("to") or w.get("from")
        ziel = an or s.leader() or s.namen[0]
        stand = self._stand()
        if f == "write":
            s.schreibe(client, w["wert"], an=ziel, key=w["key"])
            was = f"schreibt {w['key']} = {w['wert']!r}"
        else:
            s.lies(client, an=ziel, key=w["key"])
            was = f"liest {w['key']}"
        s.tick(0)  # the node takes it at once: it refuses, or appends it to its log
        zeilen = [f"t={s.now}: {client} {was} über {ziel}."]
        k = s.knoten[ziel]
        neu = self._ereignisse(stand)
        if not neu and k.offen:
            index = max(k.offen)
            zeilen.append(
                f"{ziel} hängt es als Eintrag {index} (Term {k.term}) an sein Log und "
                "antwortet, sobald es committet ist."
            )
        zeilen += neu
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _freier_client(self) -> str:
        i = 1
        while self.sim.wartet(f"c{i}"):
            i += 1
        return f"c{i}"

    def _write(self, aufruf: Aufruf) -> ConsoleResult:
        return self._anfrage(aufruf, "write")

    def _read(self, aufruf: Aufruf) -> ConsoleResult:
        return self._anfrage(aufruf, "read")

    def _stoerung(self, aufruf: Aufruf, tun: Any) -> ConsoleResult:
        stand = self._stand()
        tun()
        zeilen = self._ereignisse(stand)
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _partition(self, aufruf: Aufruf) -> ConsoleResult:
        w = aufruf.werte
        gruppe = [w["knoten"], *([w["zweiter"]] if "zweiter" in w else [])]
        if len(set(gruppe)) < len(gruppe):
            raise EingabeFehler(f"Nenne {gruppe[0]} nur einmal: partition {gruppe[0]}")
        if len(gruppe) >= len(self.sim.namen):
            raise EingabeFehler("Lass mindestens einen Knoten auf der anderen Seite.")
        return self._stoerung(aufruf, lambda: self.sim.trenne(gruppe))

    def _heal(self, aufruf: Aufruf) -> ConsoleResult:
        if self.sim.gruppen is None:
            raise SimFehler("Es gibt keine Netzpartition; alle Nachrichten kommen an.")
        return self._stoerung(aufruf, self.sim.heile)

    def _absturz(self, aufruf: Aufruf) -> ConsoleResult:
        return self._stoerung(aufruf, lambda: self.sim.absturz(aufruf.werte["knoten"]))

    def _neustart(self, aufruf: Aufruf) -> ConsoleResult:
        return self._stoerung(aufruf, lambda: self.sim.neustart(aufruf.werte["knoten"]))

    def _pause(self, aufruf: Aufruf) -> ConsoleResult:
        w = aufruf.werte
        return self._stoerung(aufruf, lambda: self.sim.pausiere(w["knoten"], w["ticks"]))

    def _status(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.sim
        leader = s.leader()
        kopf = f"t={s.now}, " + (
            f"Leader {leader} (Term {s.knoten[leader].term})" if leader else "kein Leader"
        )
        kopf += f", Mehrheit {s.mehrheit} von {len(s.namen)}"
        if s.gruppen is not None:
            kopf += ", Netzpartition " + " | ".join(" ".join(sorted(g)) for g in s.gruppen)
        reihen = []
        for k in s.knoten.values():
            rolle = k.rolle + (" (Pause)" if k.pausiert_bis is not None else "")
            log = " ".join(e.kurz() for e in k.log[-8:]) or "leer"
            if len(k.log) > 8:
                log = "… " + log
            reihen.append([k.name, rolle, str(k.term), k.stimme or "-", str(k.commit), log])
        zeilen = [
            kopf,
            *tabelle(["KNOTEN", "ROLLE", "TERM", "STIMME", "COMMIT", "LOG"], reihen, "  "),
        ]
        zeilen.append(f"Unterwegs: {anzahl(len(s.unterwegs), 'Nachricht', 'Nachrichten')}.")
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _history(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.sim
        zeilen = verlauf_zeilen(
            s.verlauf, "CLIENT", _wert, lambda: s.urteil().erklaerung, MAX_ZEILEN
        )
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _urteil(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.sim
        zeilen = []
        if s.verletzungen:
            zeilen.append(
                f"Sicherheit verletzt ({anzahl(len(s.verletzungen), 'Befund', 'Befunde')}):"
            )
            zeilen += [f"  {v}" for v in s.verletzungen[:5]]
        else:
            terme = len(s.leader_je_term)
            zeilen.append(
                f"Sicherheit: höchstens ein Leader je Term ({anzahl(terme, 'Term', 'Terme')} "
                f"mit Leader), kein committeter Eintrag fehlt einem späteren Leader."
            )
        if not any(e["type"] == "invoke" for e in s.verlauf):
            zeilen.append("Verlauf: noch keine Operation der Clients.")
        else:
            zeilen.append("Verlauf: " + s.urteil().erklaerung)
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    # --- Zustand ---

    def state_dump(self) -> str:
        """Der ganze Zustand (Knoten, Netz, Verlauf, Protokoll) als fester Text."""
        s = self.sim
        zeilen = [f"{s!r} gruppen={s.gruppen!r} gesendet={s.gesendet}"]
        for k in s.knoten.values():
            zeilen.append(
                f"  {k.name} {k.rolle} term={k.term} stimme={k.stimme} commit={k.commit} "
                f"pause={k.pausiert_bis} log={k.log!r} register={sorted(k.register.items())!r}"
            )
        zeilen += [f"  unterwegs {n!r}" for n in s.unterwegs]
        zeilen += [f"  {e!r}" for e in s.verlauf]
        zeilen += [f"  {t} {text}" for t, text in s.protokoll]
        zeilen += [f"  ! {v}" for v in s.verletzungen]
        return "\n".join(zeilen)


def _wert(e: dict[str, Any]) -> str:
    return "" if e["value"] is None else repr(e["value"])


def _antwort(e: dict[str, Any]) -> str:
    """A client's answer in words."""
    was = f"write {e['key']} = {e['value']!r}" if e["f"] == "write" else f"read {e['key']}"
    if e["type"] == "ok":
        if e["f"] == "read":
            return f"{e['process']} bekommt ok von {e['node']}: {e['key']} = {e['value']!r}."
        return f"{e['process']} bekommt ok von {e['node']}: {was} ist committet."
    if e["type"] == "fail":
        return (
            f"{e['process']} bekommt fail von {e['node']} ({e.get('error', '')}): "
            f"{was} ist sicher nicht geschehen."
        )
    return (
        f"{e['process']} bekommt keine klare Antwort (info: {e.get('error', '')}): "
        f"ob {was} geschah, ist offen."
    )


#: Ein Knoten (Vorschläge: alle).
KNOTEN = namen_art("knoten", "Den Knoten", lambda k: k.sim.namen)
KNOTEN_WERT = Wert("knoten", "<knoten>", KNOTEN)
KEY = key_wert(RaftKonsole._keys)
CLIENT = Option("as", client_wert("as", RaftKonsole._clients))

BEFEHLE = setze_befehle(
    RaftKonsole,
    [
        tick_befehl(
            RaftKonsole._tick,
            "tick 40",
            "Election-Timeouts laufen ab, Nachrichten kommen an; jedes Ereignis steht mit seiner Zeit "
            "da. ",
        ),
        befehl(
            "write <key> <wert> [to <knoten>] [as <client>]",
            "einen Wert schreiben (über den Leader oder einen bestimmten Knoten)",
            RaftKonsole._write,
            "write x 5",
            "write x 6 to n2 as c9",
            erklaerung=(
                "Ein Wert ist eine Zahl oder ein Wort. Der Leader hängt das Schreiben an sein "
                "Log und antwortet ok, sobald eine Mehrheit es hat; ein Follower lehnt ab "
                "(fail).",
                "Ohne „as“ nimmt die Konsole den ersten freien Client c1, c2, …; ein Client "
                "wartet auf eine Antwort nach der anderen.",
            ),
            positionen=(KEY, Wert("wert", "<wert>", WERT)),
            optionen=(Option("to", Wert("to", "<knoten>", KNOTEN)), CLIENT),
        ),
        befehl(
            "read <key> [from <knoten>] [as <client>]",
            "einen Wert lesen (auch das Lesen geht durch das Log)",
            RaftKonsole._read,
            "read x",
            "read x from n3",
            erklaerung="Der Leader antwortet erst, wenn das Lesen committet ist; so liest er nie "
            "einen veralteten Wert, auch wenn er sein Amt schon verloren hat.",
            positionen=(KEY,),
            optionen=(Option("from", Wert("from", "<knoten>", KNOTEN)), CLIENT),
        ),
        befehl(
            "partition <knoten> [<knoten>]",
            "einen oder zwei Knoten per Netzpartition abschneiden",
            RaftKonsole._partition,
            "partition n1",
            "partition n1 n2",
            erklaerung="Nachrichten über die Grenze gehen verloren. Clients erreichen jeden "
            "Knoten weiter. Eine neue Netzpartition ersetzt die alte.",
            positionen=(KNOTEN_WERT, Wert("zweiter", "<knoten>", KNOTEN)),
            letzte_optional=True,
        ),
        befehl(
            "heal",
            "die Netzpartition aufheben",
            RaftKonsole._heal,
            erklaerung="Ab jetzt kommen alle Nachrichten an.",
        ),
        befehl(
            "absturz <knoten>",
            "einen Knoten abstürzen lassen",
            RaftKonsole._absturz,
            "absturz n2",
            erklaerung="Term, Stimme und Log liegen auf seiner Platte und bleiben; Rolle, "
            "Commit-Index und Register sind weg.",
            positionen=(KNOTEN_WERT,),
        ),
        befehl(
            "neustart <knoten>",
            "einen abgestürzten Knoten neu starten",
            RaftKonsole._neustart,
            "neustart n2",
            erklaerung="Er beginnt als Follower mit Term, Stimme und Log von der Platte.",
            positionen=(KNOTEN_WERT,),
        ),
        befehl(
            "pause <knoten> <ticks>",
            "einen Knoten anhalten (wie eine lange Garbage Collection)",
            RaftKonsole._pause,
            "pause n1 30",
            erklaerung="Er merkt nicht, dass Zeit vergeht; danach holt er nach, was ankam. Ein "
            "angehaltener Leader hält sich danach noch für den Leader, bis er einen höheren "
            "Term sieht.",
            positionen=(KNOTEN_WERT, Wert("ticks", "<ticks>", ZAHL, 1, MAX_PAUSE)),
            aliase=("pausiere",),
        ),
        befehl(
            "status",
            "jeder Knoten mit Rolle, Term, Stimme, Commit-Index und Log",
            RaftKonsole._status,
        ),
        befehl(
            "history",
            "der Verlauf der Clients und das Urteil des Prüfers",
            RaftKonsole._history,
            aliase=("verlauf",),
        ),
        befehl(
            "urteil",
            "hielt Raft seine Versprechen? (ein Leader je Term, nichts verloren, linearisierbar)",
            RaftKonsole._urteil,
            erklaerung="Die Sicherheit prüft die Simulation bei jeder Wahl und jedem Commit; den "
            "Verlauf prüft pysim.pruefer.linearisierbar.",
            aliase=("pruefe",),
        ),
    ],
)


#: Diese Konsole für ``lessonkit``: der Block ``raft-konsole``, ``kind="raft"``.
KONSOLE = KonsolenArt(
    name="raft",
    klasse=RaftKonsole,
    modell="sim",
    beschreibung="Leader-Wahl, Log, Commit und Störungen (Lektion „Konsens: Leader-Wahl und Raft“)",
    optionen=(
        KonsolenOption("knoten", "3", "so viele Knoten (3 oder 5)", minimum=3),
        KonsolenOption("seed", "0", "der Seed der Election-Timeouts und Laufzeiten", minimum=0),
    ),
)
