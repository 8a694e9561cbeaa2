"""Die Replikat-Konsole der Lektion „Replikation und Konsistenz“: schreiben, von einem Replikat
lesen, Lag, Partition, Failover, Quorum, Verlauf.

    >>> k = ReplikKonsole()
    >>> print(k.run("write x 1").text)
    t=0: n1 schreibt x=1 (LSN 1) und bestätigt sofort (asynchron).

Das Bild zeigt die Replikate, die Nachrichten unterwegs und den Verlauf mit seinem Urteil
(``pysim.replikation.bild``); die Regeln stehen im Modell ``pysim.replikation.modell``.
"""

from __future__ import annotations

from typing import Any

from ..console.art import KonsolenArt, KonsolenOption
from ..console.basis import BasisKonsole, setze_befehle, tick_anzahl, tick_befehl, tick_kopf
from ..console.befehle import (
    befehl,
    client_wert,
    key_wert,
    namen_art,
    verlauf_zeilen,
    zahl_oder_wort,
)
from ..console.ergebnis import ConsoleResult
from ..console.parser import ZAHL, Art, Aufruf, Option, Wert
from ..console.werte import anzahl, tabelle
from .modell import MAX_LAG, MAX_REPLIKEN, Antwort, ReplikSpeicher, pruefe_wert
from .regeln import KOORDINATOR, QUORUM_MODUS

#: So viele Operationen zeigt ``history`` als Text (die letzten).
MAX_ZEILEN = 30


class ReplikKonsole(BasisKonsole[ReplikSpeicher]):
    """Die Replikat-Konsole: ``ReplikKonsole().run("write x 1")``.

    ``speicher``: ein vorhandener ``ReplikSpeicher``; sonst ein neuer mit ``repliken`` Replikaten
    und ``verzoegerung`` Ticks je Nachricht.
    """

    TITEL = "Replikat-Konsole"
    HILFE_BEISPIEL = "read"

    def __init__(
        self,
        speicher: ReplikSpeicher | None = None,
        repliken: int = 3,
        verzoegerung: int = 2,
    ) -> None:
        super().__init__(
            speicher
            if speicher is not None
            else ReplikSpeicher(repliken=repliken, verzoegerung=verzoegerung)
        )

    @property
    def speicher(self) -> ReplikSpeicher:
        """Der Speicher hinter der Konsole (dasselbe wie ``modell``)."""
        return self.modell

    # --- Arten von Werten ---

    def _keys(self, _werte: dict[str, Any]) -> list[str]:
        return sorted({str(e["key"]) for e in self.speicher.verlauf()})

    def _lies_wert(self, text: str, _werte: dict[str, Any]) -> int | str:
        wert = zahl_oder_wort(text)
        return wert if isinstance(wert, int) else pruefe_wert(wert)

    def _clients(self, _werte: dict[str, Any]) -> list[str]:
        return sorted({str(e["process"]) for e in self.speicher.verlauf()})

    def _bild(self) -> str:
        return self.speicher.bild().svg

    def _mit_ereignissen(
        self, bekannt: int, zeilen: list[str], satz: str = "", zeit: int = 0
    ) -> list[str]:
        """``zeilen``, then what happened in the store since event ``bekannt`` in the order of
        time, with ``satz`` (the outcome of an operation at ``zeit``) at its place."""
        neu = self.speicher.ereignisse()[bekannt:]
        vorher = [str(e) for e in neu if e.zeit <= zeit]
        nachher = [str(e) for e in neu if e.zeit > zeit]
        return [*zeilen, *vorher, *([satz] if satz else []), *nachher]

    # --- Befehle ---

    def _write(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.speicher
        w = aufruf.werte
        bekannt = len(s.ereignisse())
        a = s.write(w["key"], w["wert"], prozess=w.get("client", "client"), an=w.get("to"))
        zeilen = self._mit_ereignissen(bekannt, [], self._satz_write(a), a.ende)
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _satz_write(self, a: Antwort) -> str:
        s = self.speicher
        was = f"{a.key}={a.wert!r}"
        if a.typ == "fail":
            return f"t={a.beginn}: Schreiben {was} gescheitert: {a.grund}"
        if a.typ == "info":
            return f"t={a.ende}: Schreiben {was} unbestimmt (info): {a.grund}"
        if a.replik == KOORDINATOR:
            return (
                f"t={a.ende}: Quorum bestätigt {was} (Version {a.lsn}) nach "
                f"{a.ende - a.beginn} Ticks (w={s.w} von n={s.n})."
            )
        if a.ende == a.beginn:
            return f"t={a.ende}: {a.replik} schreibt {was} (LSN {a.lsn}) und bestätigt sofort (asynchron)."
        return (
            f"t={a.ende}: {a.replik} bestätigt {was} (LSN {a.lsn}) nach {a.ende - a.beginn} "
            f"Ticks: {'ein Follower hat' if s.sync == 1 else f'{s.sync} Follower haben'} es "
            "(synchron)."
        )

    def _read(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.speicher
        w = aufruf.werte
        bekannt = len(s.ereignisse())
        a = s.read(w["key"], von=w.get("from"), prozess=w.get("client", "client"))
        if a.typ != "ok":
            satz = f"t={a.ende}: Lesen {a.key} gescheitert: {a.grund}"
        elif a.replik == KOORDINATOR:
            satz = (
                f"t={a.ende}: Quorum liest {a.key} → {a.wert!r} (Version {a.lsn}, r={s.r} "
                f"von n={s.n})."
            )
        else:
            satz = f"t={a.ende}: {a.replik} liest {a.key} → {a.wert!r} (Stand LSN {a.lsn})."
        zeilen = self._mit_ereignissen(bekannt, [], satz, a.ende)
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _lag(self, aufruf: Aufruf) -> ConsoleResult:
        name, ticks = aufruf.werte["replik"], aufruf.werte["ticks"]
        self.speicher.setze_lag(name, ticks)
        text = f"Nachrichten von und zu {name} brauchen ab jetzt {anzahl(ticks, 'Tick', 'Ticks')}."
        return self._ok(aufruf, text, self._bild())

    def _sync(self, aufruf: Aufruf) -> ConsoleResult:
        k = aufruf.werte["anzahl"]
        self.speicher.setze_sync(k)
        if k == 0:
            text = "Asynchron: Der Leader bestätigt ein Schreiben sofort."
        else:
            wer = "ein Follower es hat" if k == 1 else f"{k} Follower es haben"
            text = f"Synchron: Der Leader bestätigt ein Schreiben, sobald {wer}."
        return self._ok(aufruf, text, self._bild())

    def _stoerung(self, aufruf: Aufruf, aktion: str) -> ConsoleResult:
        s = self.speicher
        bekannt = len(s.ereignisse())
        getattr(s, aktion)(aufruf.werte["replik"])
        return self._ok(aufruf, "\n".join(self._mit_ereignissen(bekannt, [])), self._bild())

    def _partition(self, aufruf: Aufruf) -> ConsoleResult:
        return self._stoerung(aufruf, "trenne")

    def _heal(self, aufruf: Aufruf) -> ConsoleResult:
        return self._stoerung(aufruf, "heile")

    def _absturz(self, aufruf: Aufruf) -> ConsoleResult:
        return self._stoerung(aufruf, "absturz")

    def _neustart(self, aufruf: Aufruf) -> ConsoleResult:
        return self._stoerung(aufruf, "neustart")

    def _failover(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.speicher
        bekannt = len(s.ereignisse())
        f = s.failover(aufruf.werte.get("replik"))
        zeilen = self._mit_ereignissen(bekannt, [])
        if f.verloren:
            teile = ", ".join(
                f"{e.key}={e.value!r} (LSN {e.lsn}"
                + (", bestätigt)" if e in f.bestaetigt_verloren else ", nie bestätigt)")
                for e in f.verloren
            )
            zeilen.append(f"Verloren: {teile}.")
        else:
            zeilen.append(f"Verloren: nichts, {f.neu} hatte jeden Eintrag.")
        alt = s.replik(f.alt)
        if not alt.ausgefallen and s.getrennt(f.alt):
            zeilen.append(
                f"Achtung: {f.alt} ist abgetrennt und hält sich weiter für den Leader "
                "(Split Brain)."
            )
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _quorum(self, aufruf: Aufruf) -> ConsoleResult:
        w = aufruf.werte
        s = self.speicher
        s.quorum(w["n"], w["w"], w["r"])
        if s.w + s.r > s.n:
            folge = "w + r > n: Jedes Lese-Quorum trifft jedes Schreib-Quorum."
        else:
            folge = "w + r ≤ n: Ein Lese-Quorum kann das letzte Schreib-Quorum verfehlen."
        text = f"Quorum-Modus: n={s.n}, w={s.w}, r={s.r}. {folge}"
        return self._ok(aufruf, text, self._bild())

    def _tick(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.speicher
        n = tick_anzahl(aufruf)
        bekannt = len(s.ereignisse())
        s.tick(n)
        zeilen = self._mit_ereignissen(bekannt, [tick_kopf(s.now, n)])
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _history(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.speicher
        zeilen = verlauf_zeilen(
            s.verlauf(), "PROZESS", _wert, lambda: s.urteil().erklaerung, MAX_ZEILEN
        )
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    def _status(self, aufruf: Aufruf) -> ConsoleResult:
        s = self.speicher
        if s.modus == QUORUM_MODUS:
            kopf = f"t={s.now}, Quorum n={s.n}, w={s.w}, r={s.r}"
        else:
            art = "asynchron" if s.sync == 0 else f"synchron (sync={s.sync})"
            kopf = f"t={s.now}, Leader {s.leader} (Epoche {s.epoche()}), {art}"
        reihen = []
        for name in s.namen:
            r = s.replik(name)
            zustand = (
                "ausgefallen" if r.ausgefallen else "abgetrennt" if s.getrennt(name) else "läuft"
            )
            werte = " ".join(f"{k}={v!r}" for k, v in r.inhalt().items()) or "leer"
            reihen.append([name, r.rolle, zustand, str(r.stand), str(s.lag[name]), werte])
        zeilen = [
            kopf,
            *tabelle(["REPLIK", "ROLLE", "ZUSTAND", "LSN", "LAG", "HÄLT"], reihen, "  "),
        ]
        unterwegs = s.unterwegs()
        zeilen.append(f"Unterwegs: {len(unterwegs)} Nachrichten.")
        return self._ok(aufruf, "\n".join(zeilen), self._bild())

    # --- Zustand ---

    def state_dump(self) -> str:
        """Der ganze Zustand (Replikate, Netz, Verlauf, Ereignisse) als fester Text."""
        s = self.speicher
        zeilen = [f"{s!r} timeout={s.timeout} verworfen={s.verworfen}"]
        for name in s.namen:
            r = s.replik(name)
            zeilen.append(
                f"  {name} {r.rolle} e={r.epoche} aus={r.ausgefallen} getrennt={s.getrennt(name)} "
                f"lag={s.lag[name]} log={r.log!r} daten={sorted(r.daten.items())!r} "
                f"bestaetigt={sorted(r.bestaetigt.items())!r}"
            )
        zeilen += [f"  unterwegs {m!r}" for m in s.unterwegs()]
        zeilen += [f"  {e!r}" for e in s.verlauf()]
        zeilen += [f"  {e}" for e in s.ereignisse()]
        return "\n".join(zeilen)


def _wert(e: dict[str, Any]) -> str:
    return repr(e["value"]) if "value" in e else ""


#: Eine Replik (Vorschläge: alle).
REPLIK = namen_art("replik", "Das Replikat", lambda k: k.speicher.namen)
#: Ein Wert: eine Zahl oder ein Wort.
WERT = Art("wert", lies=ReplikKonsole._lies_wert)
#: Der Name eines Clients (ein Prozess im Verlauf).
CLIENT = Option("as", client_wert("client", ReplikKonsole._clients))
REPLIK_WERT = Wert("replik", "<replikat>", REPLIK)

BEFEHLE = setze_befehle(
    ReplikKonsole,
    [
        befehl(
            "write <key> <wert> [to <replikat>] [as <client>]",
            "einen Wert schreiben (an den Leader; im Quorum-Modus an alle)",
            ReplikKonsole._write,
            "write x 1",
            "write x 2 to n1 as A",
            erklaerung=(
                "Ein Wert ist eine Zahl oder ein Wort. Mit „to“ geht das Schreiben an eine "
                "bestimmtes Replikat; ein Follower lehnt es ab. Mit „as“ schreibt ein benannter "
                "Client (ein Prozess im Verlauf).",
                "Danach vergeht ein Tick, damit die nächste Operation später beginnt.",
            ),
            positionen=(key_wert(ReplikKonsole._keys), Wert("wert", "<wert>", WERT)),
            optionen=(Option("to", Wert("to", "<replikat>", REPLIK)), CLIENT),
        ),
        befehl(
            "read <key> [from <replikat>] [as <client>]",
            "einen Wert lesen (vom Leader, von einem Replikat oder vom Quorum)",
            ReplikKonsole._read,
            "read x",
            "read x from n2",
            "read x from n3 as B",
            erklaerung="Ein Replikat antwortet sofort mit dem, was es hat. Ohne „from“ liest "
            "der Leader, im Quorum-Modus der Koordinator von r Replikaten.",
            positionen=(key_wert(ReplikKonsole._keys),),
            optionen=(Option("from", Wert("from", "<replikat>", REPLIK)), CLIENT),
        ),
        befehl(
            "lag <replikat> <ticks>",
            "Nachrichten von und zu einem Replikat verzögern",
            ReplikKonsole._lag,
            "lag n3 6",
            erklaerung="Eine Nachricht zwischen zwei Replikaten braucht den größeren Lag ihrer "
            "Enden. Es gilt für Nachrichten, die ab jetzt abgeschickt werden.",
            positionen=(REPLIK_WERT, Wert("ticks", "<ticks>", ZAHL, 0, MAX_LAG)),
        ),
        befehl(
            "sync <anzahl>",
            "auf so viele Follower wartet ein Schreiben (0: asynchron)",
            ReplikKonsole._sync,
            "sync 1",
            "sync 0",
            erklaerung="Mit sync 1 bestätigt der Leader erst, wenn ein Follower den Eintrag hat "
            "(irgendeiner). Antwortet keiner rechtzeitig, bleibt das Schreiben unbestimmt.",
            positionen=(Wert("anzahl", "<anzahl>", ZAHL, 0, MAX_REPLIKEN - 1),),
        ),
        befehl(
            "partition <replikat>",
            "ein Replikat von den anderen Replikaten trennen",
            ReplikKonsole._partition,
            "partition n2",
            erklaerung="Nachrichten von und zu ihr gehen verloren. Clients erreichen sie im "
            "Leader-Modus weiter; im Quorum-Modus erreicht sie der Koordinator nicht.",
            positionen=(REPLIK_WERT,),
        ),
        befehl(
            "heal <replikat>",
            "ein abgetrenntes Replikat wieder verbinden",
            ReplikKonsole._heal,
            "heal n2",
            erklaerung="Der Leader schickt ihr sein Log; ein alter Leader erfährt so vom neuen.",
            positionen=(REPLIK_WERT,),
        ),
        befehl(
            "absturz <replikat>",
            "ein Replikat ausfallen lassen (es behält seine Daten)",
            ReplikKonsole._absturz,
            "absturz n2",
            erklaerung="Sie antwortet nicht mehr; Nachrichten an sie gehen verloren.",
            positionen=(REPLIK_WERT,),
        ),
        befehl(
            "neustart <replikat>",
            "ein ausgefallenes Replikat wieder starten",
            ReplikKonsole._neustart,
            "neustart n2",
            erklaerung="Sie hat ihre Daten von vorher; der Leader schickt ihr sein Log.",
            positionen=(REPLIK_WERT,),
        ),
        befehl(
            "failover [<replikat>]",
            "einen Follower zum Leader befördern",
            ReplikKonsole._failover,
            "failover",
            "failover n3",
            erklaerung="Ohne <replikat>: der Follower, der läuft und das längste Log hat. Was "
            "er nicht hat, geht verloren, auch Bestätigtes.",
            positionen=(REPLIK_WERT,),
            letzte_optional=True,
        ),
        befehl(
            "quorum <n> <w> <r>",
            "in den Quorum-Modus wechseln (n Replikate, w schreiben, r lesen)",
            ReplikKonsole._quorum,
            "quorum 3 2 2",
            "quorum 3 1 1",
            erklaerung="Den Modus und n stellst du vor dem ersten Schreiben ein; danach ändern "
            "sich nur w und r.",
            positionen=tuple(Wert(n, f"<{n}>", ZAHL, 1, MAX_REPLIKEN) for n in "nwr"),
        ),
        tick_befehl(ReplikKonsole._tick, "tick 3", "Nachrichten kommen an. "),
        befehl(
            "history",
            "der Verlauf der Clients und das Urteil des Prüfers",
            ReplikKonsole._history,
            erklaerung="Das Urteil kommt von pysim.pruefer.linearisierbar; bei einem Fehler "
            "nennt es die Operation, die sich nicht einordnen lässt.",
            aliase=("verlauf",),
        ),
        befehl("status", "jedes Replikat mit Rolle, LSN, Lag und Inhalt", ReplikKonsole._status),
    ],
)


#: Diese Konsole für ``lessonkit``: der Block ``replik-konsole``, ``kind="replik"``.
KONSOLE = KonsolenArt(
    name="replik",
    klasse=ReplikKonsole,
    modell="speicher",
    beschreibung="Leader, Follower, Lag, Failover und Quorum (Lektion „Replikation und Konsistenz“)",
    optionen=(
        KonsolenOption("repliken", "3", "so viele Replikate (n1, n2, …; n1 ist der Leader)"),
        KonsolenOption("verzoegerung", "2", "so viele Ticks braucht eine Nachricht", minimum=0),
    ),
)
