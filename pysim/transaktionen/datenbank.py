"""Eine kleine Datenbank mit mehreren Versionen je Zeile, wie PostgreSQL sie isoliert.

Eine Tabelle ``test(id, value)``, anfangs ``(1, 10), (2, 20)`` (wie in Hermitage). Sitzungen
(``T1``, ``T2``, …) schicken SQL (``sql``); jede hat höchstens eine offene Transaktion. Drei
Stufen, wie PostgreSQL sie baut:

- **read committed** (die Voreinstellung): Jeder Befehl sieht einen frischen Schnappschuss der
  committeten Daten. Wer eine Zeile ändert, sperrt sie bis zu seinem Ende; ein zweiter Schreiber
  wartet. Endet der erste mit ``commit``, nimmt der zweite die neue Version der Zeile und prüft
  sein ``where`` an ihr noch einmal (so kann ein ``delete … where value = 20`` eine Zeile
  verfehlen, die jetzt 30 hat, und eine andere, die jetzt 20 hat, nicht sehen).
- **repeatable read** (Snapshot Isolation): ein Schnappschuss je Transaktion, genommen beim
  ersten Lesen oder Schreiben. Hat eine andere Transaktion die Zeile seitdem geändert und
  committet, scheitert das Ändern mit 40001 („could not serialize access due to concurrent
  update“): Der erste Schreiber gewinnt.
- **serializable** (Serializable Snapshot Isolation): dazu merkt sich die Datenbank, wer was
  gelesen hat, und die rw-Abhängigkeiten zwischen gleichzeitigen Transaktionen (T1 las, was T2
  danach schrieb). Entsteht die gefährliche Struktur T_in →rw T_pivot →rw T_out, deren T_out
  zuerst committet hat, scheitert eine von ihnen mit 40001 („… read/write dependencies among
  transactions“).

Ein Fehler in einer Transaktion bricht sie ab (ihre Sperren sind frei); die Sitzung nimmt dann
nur noch ``rollback`` (oder ``commit``, das wie ``rollback`` wirkt). Ein Befehl außerhalb einer
Transaktion ist eine eigene (``read committed``, sofort committet).

Vereinfacht: eine Tabelle ohne Indexe; ein Lesen über ``id`` merkt sich die ids, jedes andere
Lesen die ganze Tabelle (PostgreSQL sperrt beim Durchsuchen einer kleinen Tabelle ohne Index
ebenso die ganze Relation); ein zweites ``insert`` derselben id scheitert sofort mit 23505
(PostgreSQL wartet, bis die Transaktion des ersten endet); kein Aufräumen alter Versionen (``VACUUM``); eine Verklemmung wird
sofort erkannt (PostgreSQL wartet ``deadlock_timeout``, 1 s).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..fehler import UngueltigeEingabe
from .sql import READ_COMMITTED, SERIALIZABLE, Befehl, lies_alle

#: Transaction states.
AKTIV = "aktiv"
BESTAETIGT = "committet"
ABGEBROCHEN = "abgebrochen"

#: SQLSTATE codes and PostgreSQL's own message, with the German sentence the course shows.
FEHLER_TEXTE = {
    "40001u": (
        "40001",
        "could not serialize access due to concurrent update",
        "Eine andere Transaktion hat die Zeile {zeile} seit dem Schnappschuss dieser "
        "Transaktion geändert und committet: Der erste Schreiber gewinnt, diese Transaktion "
        "ist abgebrochen.",
    ),
    "40001s": (
        "40001",
        "could not serialize access due to read/write dependencies among transactions",
        "{kette}: Keine serielle Reihenfolge passt zu dem, was diese Transaktionen gelesen und "
        "geschrieben haben. Diese Transaktion ist abgebrochen; versuche sie noch einmal.",
    ),
    "40P01": (
        "40P01",
        "deadlock detected",
        "Verklemmung: {kette}. Diese Transaktion ist abgebrochen, damit die andere weiterkommt.",
    ),
    "23505": (
        "23505",
        'duplicate key value violates unique constraint "test_pkey"',
        "Die id {zeile} gibt es schon.",
    ),
    "25P02": (
        "25P02",
        "current transaction is aborted, commands ignored until end of transaction block",
        "Diese Transaktion ist nach einem Fehler abgebrochen; nur „rollback“ beendet sie.",
    ),
    "25001": (
        "25001",
        "SET TRANSACTION ISOLATION LEVEL must be called before any query",
        "Die Stufe wählt man vor dem ersten Lesen oder Schreiben der Transaktion.",
    ),
}


@dataclass(frozen=True)
class SqlFehler:
    """Ein Fehler, wie PostgreSQL ihn meldet: ``code`` (SQLSTATE), ``meldung`` (PostgreSQLs
    englischer Text) und ``text`` (deutsch, was geschah)."""

    code: str
    meldung: str
    text: str

    def __str__(self) -> str:
        return f"FEHLER {self.code} ({self.meldung}): {self.text}"


def _sql_fehler(art: str, **werte: object) -> SqlFehler:
    code, meldung, text = FEHLER_TEXTE[art]
    return SqlFehler(code, meldung, text.format(**werte))


@dataclass
class Ergebnis:
    """Was ein Befehl ergab. ``wartet`` ist ``True``, solange er auf die Sperre einer anderen
    Transaktion wartet (``wartet_auf``: ihre Sitzung); endet sie, setzt die Datenbank hier
    ``wartet = False`` und das Ergebnis ein. ``zeilen``: was ein ``select`` sah,
    ``{id: value}``; ``anzahl``: geänderte Zeilen; ``fehler``: ``None`` oder ein ``SqlFehler``;
    ``hinweis``: eine Warnung, die nichts änderte (``begin`` in einer Transaktion …)."""

    sitzung: str
    befehl: str
    wartet: bool = False
    wartet_auf: str | None = None
    zeilen: dict[int, int] | None = None
    anzahl: int = 0
    fehler: SqlFehler | None = None
    hinweis: str | None = None
    #: What a ``commit``/``rollback`` let go on: the results of the statements that waited.
    geweckt: list[Ergebnis] = field(default_factory=list)
    #: The number of the transaction the statement ran in (``Datenbank.von``); ``None`` for a
    #: ``begin``, ``commit`` or ``rollback`` that changed nothing.
    transaktion: int | None = None

    def __str__(self) -> str:
        if self.wartet:
            return f"{self.sitzung}: {self.befehl} — wartet auf {self.wartet_auf}"
        if self.fehler is not None:
            return f"{self.sitzung}: {self.befehl} — {self.fehler}"
        teile = [f"{self.sitzung}: {self.befehl}"]
        if self.zeilen is not None:
            inhalt = ", ".join(f"{k} => {v}" for k, v in sorted(self.zeilen.items()))
            teile.append(inhalt or "keine Zeile")
        elif self.befehl.split()[0] in ("update", "insert", "delete"):
            teile.append(f"{self.anzahl} Zeile{'' if self.anzahl == 1 else 'n'}")
        if self.hinweis:
            teile.append(f"Hinweis: {self.hinweis}")
        zeilen = [" — ".join(teile)]
        zeilen += [f"  {g}" for g in self.geweckt]
        return "\n".join(zeilen)


@dataclass
class Version:
    """Eine Version einer Zeile: ``xmin`` schrieb sie, ``xmax`` ersetzte oder löschte sie
    (``nachfolger``: die neue Version; ``None`` bei ``delete``)."""

    schluessel: int
    wert: int
    xmin: int
    xmax: int | None = None
    nachfolger: Version | None = None


@dataclass
class Transaktion:
    nr: int
    sitzung: str
    stufe: str
    #: Commit number of the newest transaction this one sees (``None``: not taken yet).
    schnappschuss: int | None = None
    status: str = AKTIV
    bestaetigt_als: int | None = None
    autocommit: bool = False
    sperren: set[int] = field(default_factory=set)
    #: SSI: the ids this transaction read, or the whole table.
    gelesen: set[int] = field(default_factory=set)
    liest_tabelle: bool = False
    schrieb: bool = False
    #: SSI: rw-antidependencies, by transaction number (``rw_aus``: this one read what those
    #: wrote after it; ``rw_ein``: those read what this one wrote).
    rw_aus: set[int] = field(default_factory=set)
    rw_ein: set[int] = field(default_factory=set)
    #: What it read and wrote, in order, for its history (``geschichte``): ``("r", version)``
    #: for a row a statement read, ``("w", version)`` for a version it wrote, ``("d",
    #: version)`` for one it deleted.
    ops: list[tuple[str, Version]] = field(default_factory=list)


@dataclass
class _Offen:
    """A statement that waits: the rows it still has to change, in id order."""

    befehl: Befehl
    tx: Transaktion
    schnappschuss: int
    rest: list[Version]
    ergebnis: Ergebnis
    wartet_auf: int
    reihe: int


class Datenbank:
    """Die Datenbank. ``sql(sitzung, befehl)`` führt einen Befehl aus (siehe ``pysim.transaktionen``)."""

    def __init__(self, zeilen: Mapping[int, int] | None = None) -> None:
        start = {1: 10, 2: 20} if zeilen is None else dict(zeilen)
        for k, v in start.items():
            if not isinstance(k, int) or not isinstance(v, int):
                raise UngueltigeEingabe(
                    f"Zeilen sind ganze Zahlen, id und value, etwa {{1: 10}}; nicht {k!r}: {v!r}."
                )
        self._tx: dict[int, Transaktion] = {
            0: Transaktion(0, "(Anfang)", READ_COMMITTED, 0, BESTAETIGT, 0)
        }
        self._zeilen: dict[int, list[Version]] = {k: [Version(k, v, 0)] for k, v in start.items()}
        self._sperren: dict[int, int] = {}
        self._sitzungen: dict[str, Transaktion | None] = {}
        self._offen: dict[str, _Offen] = {}
        self._bestaetigt = 0
        self._reihe = 0
        #: Every statement and what it gave, in order (the lesson's picture reads it).
        self.verlauf: list[Ergebnis] = []

    # --- what the reader asks ---

    def sql(self, sitzung: str, befehl: str) -> Ergebnis:
        """Führt ``befehl`` in der Sitzung ``sitzung`` aus (``T1``, ``T2``, …)."""
        if not isinstance(sitzung, str) or not sitzung.strip():
            raise UngueltigeEingabe(f"Eine Sitzung hat einen Namen wie „T1“, nicht {sitzung!r}.")
        sitzung = sitzung.strip()
        befehle = lies_alle(befehl)
        if sitzung in self._offen:
            offen = self._offen[sitzung]
            raise UngueltigeEingabe(
                f"{sitzung} wartet noch auf {self._tx[offen.wartet_auf].sitzung} "
                f"(„{offen.befehl.text}“) und nimmt keinen Befehl an, bis die endet."
            )
        for b in befehle[:-1]:  # begin, set transaction …: never waits
            self._einer(sitzung, b)
        return self._einer(sitzung, befehle[-1])

    def _einer(self, sitzung: str, b: Befehl) -> Ergebnis:
        ergebnis = Ergebnis(sitzung, b.text)
        self.verlauf.append(ergebnis)
        tx = self._sitzungen.get(sitzung)
        if tx is not None:
            ergebnis.transaktion = tx.nr
        if b.art == "begin":
            if tx is not None:
                ergebnis.hinweis = "Es läuft schon eine Transaktion; nichts geändert."
            else:
                ergebnis.transaktion = self._beginne(sitzung, b.stufe or READ_COMMITTED).nr
            return ergebnis
        if b.art in ("commit", "abort"):
            if tx is None:
                ergebnis.hinweis = "Es läuft keine Transaktion; nichts geändert."
                ergebnis.transaktion = None
                return ergebnis
            if tx.status == ABGEBROCHEN or b.art == "abort":
                if b.art == "commit":
                    ergebnis.hinweis = (
                        "Die Transaktion war nach einem Fehler abgebrochen: rollback."
                    )
                self._sitzungen[sitzung] = None
                if tx.status == AKTIV:
                    self._beende(tx, ABGEBROCHEN, ergebnis)
                return ergebnis
            self._bestaetige(tx, ergebnis)
            return ergebnis
        if b.art == "stufe":
            assert b.stufe is not None
            if tx is None:
                ergebnis.hinweis = (
                    "set transaction wirkt nur in einer Transaktion (nach begin); nichts geändert."
                )
            elif tx.status == ABGEBROCHEN:
                ergebnis.fehler = _sql_fehler("25P02")
            elif tx.schnappschuss is not None:
                self._scheitere(tx, ergebnis, _sql_fehler("25001"))
            else:
                tx.stufe = b.stufe
            return ergebnis
        if tx is not None and tx.status == ABGEBROCHEN:
            ergebnis.fehler = _sql_fehler("25P02")
            return ergebnis
        if tx is None:
            tx = self._beginne(sitzung, READ_COMMITTED)
            tx.autocommit = True
            ergebnis.transaktion = tx.nr
        self._fuehre_aus(tx, b, ergebnis)
        return ergebnis

    def tabelle(self) -> dict[int, int]:
        """Die committeten Zeilen, wie ein neuer Befehl außerhalb jeder Transaktion sie sähe."""
        return {
            k: v.wert
            for k, vs in sorted(self._zeilen.items())
            for v in vs
            if self._sichtbar_fuer(v, None, self._bestaetigt)
        }

    def ids(self) -> list[int]:
        """Jede id, die je eine Version hatte (auch gelöschte und verworfene), sortiert."""
        return sorted(self._zeilen)

    def von(self, nr: int) -> Transaktion:
        """Die Transaktion mit der Nummer ``nr`` (``Version.xmin``/``xmax``; 0: der Anfang)."""
        return self._tx[nr]

    def versionen(self, schluessel: int) -> list[Version]:
        """Alle Versionen der Zeile ``schluessel``, älteste zuerst (auch abgebrochene)."""
        return list(self._zeilen.get(schluessel, ()))

    def wartet(self) -> dict[str, str]:
        """Wer auf wen wartet: Sitzung -> Sitzung der Transaktion mit der Sperre."""
        return {s: self._tx[o.wartet_auf].sitzung for s, o in sorted(self._offen.items())}

    def transaktion(self, sitzung: str) -> Transaktion | None:
        """Die offene Transaktion der Sitzung (oder ``None``)."""
        return self._sitzungen.get(sitzung)

    def sperren(self) -> dict[int, str]:
        """Gesperrte Zeilen: id -> Sitzung, die sie hält."""
        return {k: self._tx[t].sitzung for k, t in sorted(self._sperren.items())}

    # --- transactions ---

    def _beginne(self, sitzung: str, stufe: str) -> Transaktion:
        nr = len(self._tx)
        tx = Transaktion(nr, sitzung, stufe)
        self._tx[nr] = tx
        self._sitzungen[sitzung] = tx
        return tx

    def _bestaetige(self, tx: Transaktion, ergebnis: Ergebnis) -> None:
        if tx.stufe == SERIALIZABLE:
            gefahr = self._gefaehrlich(tx)
            if gefahr is not None:
                self._sitzungen[tx.sitzung] = None
                self._beende(tx, ABGEBROCHEN, ergebnis)
                ergebnis.fehler = _sql_fehler("40001s", kette=gefahr)
                return
        self._sitzungen[tx.sitzung] = None
        self._beende(tx, BESTAETIGT, ergebnis)

    def _scheitere(self, tx: Transaktion, ergebnis: Ergebnis, fehler: SqlFehler) -> None:
        """An error ends the transaction at once (its locks go); the session then waits for
        ``rollback``. An autocommit statement has no session state to keep."""
        ergebnis.fehler = fehler
        if tx.autocommit:
            self._sitzungen[tx.sitzung] = None
        self._beende(tx, ABGEBROCHEN, ergebnis)

    def _beende(self, tx: Transaktion, status: str, ergebnis: Ergebnis) -> None:
        tx.status = status
        if status == BESTAETIGT:
            self._bestaetigt += 1
            tx.bestaetigt_als = self._bestaetigt
        for k in sorted(tx.sperren):
            if self._sperren.get(k) == tx.nr:
                del self._sperren[k]
        tx.sperren.clear()
        wartende = sorted(
            (o for o in self._offen.values() if o.wartet_auf == tx.nr), key=lambda o: o.reihe
        )
        for offen in wartende:
            ergebnis.geweckt.append(offen.ergebnis)
            self._weiter(offen)

    # --- visibility ---

    def _sichtbar_fuer(self, v: Version, tx: Transaktion | None, schnappschuss: int) -> bool:
        if not self._wirkt(v.xmin, tx, schnappschuss):
            return False
        return v.xmax is None or not self._wirkt(v.xmax, tx, schnappschuss)

    def _wirkt(self, nr: int, tx: Transaktion | None, schnappschuss: int) -> bool:
        """Whether what transaction ``nr`` did is visible to ``tx`` with this snapshot."""
        if tx is not None and nr == tx.nr:
            return True
        t = self._tx[nr]
        return t.bestaetigt_als is not None and t.bestaetigt_als <= schnappschuss

    def _sicht(self, tx: Transaktion, schnappschuss: int) -> list[Version]:
        """The version of each row this snapshot sees, in id order."""
        return [
            v
            for _, vs in sorted(self._zeilen.items())
            for v in vs
            if self._sichtbar_fuer(v, tx, schnappschuss)
        ]

    # --- statements ---

    def _schnappschuss(self, tx: Transaktion) -> int:
        if tx.stufe == READ_COMMITTED:
            return self._bestaetigt
        if tx.schnappschuss is None:
            tx.schnappschuss = self._bestaetigt
        return tx.schnappschuss

    def _fuehre_aus(self, tx: Transaktion, b: Befehl, ergebnis: Ergebnis) -> None:
        schnappschuss = self._schnappschuss(tx)
        if tx.schnappschuss is None:
            tx.schnappschuss = schnappschuss  # read committed: the first statement's
        if tx.stufe == SERIALIZABLE and b.art != "insert":
            fehler = self._lies_ssi(tx, b, schnappschuss)
            if fehler is not None:
                self._scheitere(tx, ergebnis, fehler)
                return
        if b.art == "insert":
            self._einfuegen(tx, b, ergebnis)
            self._fertig(tx, ergebnis)
            return
        sicht = [v for v in self._sicht(tx, schnappschuss) if b.wo.trifft(v.schluessel, v.wert)]
        if b.art == "select" and not b.fuer_update:
            ergebnis.zeilen = {v.schluessel: v.wert for v in sicht}
            tx.ops += [("r", v) for v in sicht]
            self._fertig(tx, ergebnis)
            return
        self._reihe += 1
        offen = _Offen(b, tx, schnappschuss, sicht, ergebnis, -1, self._reihe)
        if b.fuer_update:
            ergebnis.zeilen = {}
        self._weiter(offen)

    def _fertig(self, tx: Transaktion, ergebnis: Ergebnis) -> None:
        """An autocommit statement commits when it is done (if it did not fail)."""
        if tx.autocommit and tx.status == AKTIV:
            self._sitzungen[tx.sitzung] = None
            self._bestaetige(tx, ergebnis)

    def _weiter(self, offen: _Offen) -> None:
        """Changes (or locks) the rows a statement chose, in id order, until one is locked by
        another transaction (it waits) or all are done."""
        tx, b, ergebnis = offen.tx, offen.befehl, offen.ergebnis
        self._offen.pop(tx.sitzung, None)
        ergebnis.wartet, ergebnis.wartet_auf = False, None
        while offen.rest:
            v = offen.rest[0]
            halter = self._sperren.get(v.schluessel)
            if halter is not None and halter != tx.nr:
                kreis = self._kreis(tx, halter)
                if kreis is not None:
                    self._scheitere(tx, ergebnis, _sql_fehler("40P01", kette=kreis))
                    return
                offen.wartet_auf = halter
                ergebnis.wartet, ergebnis.wartet_auf = True, self._tx[halter].sitzung
                self._offen[tx.sitzung] = offen
                return
            offen.rest.pop(0)
            ziel = self._neueste(v, tx)
            if ziel is not v:
                # changed and committed by another transaction since the snapshot
                if tx.stufe != READ_COMMITTED:
                    self._scheitere(tx, ergebnis, _sql_fehler("40001u", zeile=v.schluessel))
                    return
                # read committed: the newest version, and the where checked again on it
                if ziel is None or not b.wo.trifft(ziel.schluessel, ziel.wert):
                    continue
            assert ziel is not None
            self._sperren[ziel.schluessel] = tx.nr
            tx.sperren.add(ziel.schluessel)
            tx.ops.append(("r", ziel))
            if b.art == "select":
                assert ergebnis.zeilen is not None
                ergebnis.zeilen[ziel.schluessel] = ziel.wert
                continue
            fehler = self._schreibe_ssi(tx, ziel.schluessel)
            if fehler is not None:
                self._scheitere(tx, ergebnis, fehler)
                return
            ziel.xmax, ziel.nachfolger = tx.nr, None
            if b.art == "update":
                neu = Version(ziel.schluessel, b.neuer_wert(ziel.wert), tx.nr)
                ziel.nachfolger = neu
                self._zeilen[ziel.schluessel].append(neu)
                tx.ops.append(("w", neu))
            else:
                tx.ops.append(("d", ziel))
            tx.schrieb = True
            ergebnis.anzahl += 1
        self._fertig(tx, ergebnis)

    def _neueste(self, v: Version, tx: Transaktion) -> Version | None:
        """``v``, or the newest committed version after it (``None``: deleted)."""
        while v.xmax is not None and v.xmax != tx.nr:
            t = self._tx[v.xmax]
            if t.status != BESTAETIGT:
                break
            if v.nachfolger is None:
                return None
            v = v.nachfolger
        return v

    def _einfuegen(self, tx: Transaktion, b: Befehl, ergebnis: Ergebnis) -> None:
        for k, _ in b.zeilen:
            lebend = [
                v
                for v in self._zeilen.get(k, ())
                if self._tx[v.xmin].status != ABGEBROCHEN
                and (v.xmax is None or self._tx[v.xmax].status == ABGEBROCHEN)
            ]
            if lebend or (k in self._sperren and self._sperren[k] != tx.nr):
                self._scheitere(tx, ergebnis, _sql_fehler("23505", zeile=k))
                return
        for k, wert in b.zeilen:
            fehler = self._schreibe_ssi(tx, k)
            if fehler is not None:
                self._scheitere(tx, ergebnis, fehler)
                return
            neu = Version(k, wert, tx.nr)
            self._zeilen.setdefault(k, []).append(neu)
            tx.ops.append(("w", neu))
            self._sperren[k] = tx.nr
            tx.sperren.add(k)
            tx.schrieb = True
            ergebnis.anzahl += 1

    def _kreis(self, tx: Transaktion, halter: int) -> str | None:
        """If ``tx`` waiting for ``halter`` closes a cycle of waits: the cycle, as text."""
        kette = [tx.sitzung]
        nr: int | None = halter
        while nr is not None:
            t = self._tx[nr]
            kette.append(t.sitzung)
            if nr == tx.nr:
                return " wartet auf ".join(kette)
            offen = self._offen.get(t.sitzung)
            nr = offen.wartet_auf if offen is not None else None
        return None

    # --- serializable snapshot isolation ---

    def _gleichzeitig(self, a: Transaktion, b: Transaktion) -> bool:
        """Whether neither committed before the other took its snapshot."""
        for x, y in ((a, b), (b, a)):
            if x.bestaetigt_als is not None and (
                y.schnappschuss is None or x.bestaetigt_als <= y.schnappschuss
            ):
                return False
        return True

    def _ssi_andere(self, tx: Transaktion) -> Iterable[Transaktion]:
        for t in self._tx.values():
            if t is not tx and t.stufe == SERIALIZABLE and t.status != ABGEBROCHEN and t.nr:
                yield t

    def _lies_ssi(self, tx: Transaktion, b: Befehl, schnappschuss: int) -> SqlFehler | None:
        """Records what a statement reads; a version another (concurrent) transaction wrote
        and this snapshot does not see is an rw-antidependency: tx -> that writer."""
        ids = b.wo.schluessel
        if ids is None:
            tx.liest_tabelle = True
            gelesen: Iterable[int] = sorted(self._zeilen)
        else:
            tx.gelesen.update(ids)
            gelesen = [k for k in ids if k in self._zeilen]
        for k in gelesen:
            for v in self._zeilen[k]:
                for nr in (v.xmin, v.xmax):
                    if nr is None or nr == tx.nr or self._wirkt(nr, tx, schnappschuss):
                        continue
                    andere = self._tx[nr]
                    if andere.stufe == SERIALIZABLE and andere.status != ABGEBROCHEN:
                        fehler = self._rw(tx, andere, tx)
                        if fehler is not None:
                            return fehler
        return None

    def _schreibe_ssi(self, tx: Transaktion, schluessel: int) -> SqlFehler | None:
        """A write of ``schluessel``: every concurrent serializable reader of it gets an
        rw-antidependency reader -> tx."""
        if tx.stufe != SERIALIZABLE:
            return None
        for leser in self._ssi_andere(tx):
            if (leser.liest_tabelle or schluessel in leser.gelesen) and self._gleichzeitig(
                leser, tx
            ):
                fehler = self._rw(leser, tx, tx)
                if fehler is not None:
                    return fehler
        return None

    def _rw(self, leser: Transaktion, schreiber: Transaktion, wer: Transaktion) -> SqlFehler | None:
        if schreiber.nr in leser.rw_aus:
            return None
        leser.rw_aus.add(schreiber.nr)
        schreiber.rw_ein.add(leser.nr)
        for pivot in (leser, schreiber):
            if pivot.status == AKTIV and pivot is wer:
                gefahr = self._gefaehrlich(pivot)
                if gefahr is not None:
                    return _sql_fehler("40001s", kette=gefahr)
        return None

    def _gefaehrlich(self, pivot: Transaktion) -> str | None:
        """T_in ->rw pivot ->rw T_out where T_out committed first (before the pivot and T_in);
        a T_in that committed without writing counts only if T_out committed before its
        snapshot (PostgreSQL's rule for read-only transactions)."""
        for aus_nr in sorted(pivot.rw_aus):
            aus = self._tx[aus_nr]
            if aus.status != BESTAETIGT or aus.bestaetigt_als is None:
                continue
            for ein_nr in sorted(pivot.rw_ein):
                ein = self._tx[ein_nr]
                if ein.status == ABGEBROCHEN:
                    continue
                if ein is not aus and ein.bestaetigt_als is not None:
                    if ein.bestaetigt_als < aus.bestaetigt_als:
                        continue
                    if not ein.schrieb and (
                        ein.schnappschuss is None or aus.bestaetigt_als > ein.schnappschuss
                    ):
                        continue
                return (
                    f"{ein.sitzung} las, was {pivot.sitzung} danach schrieb, und "
                    f"{pivot.sitzung} las, was {aus.sitzung} danach schrieb und zuerst committete"
                )
        return None


__all__ = [
    "ABGEBROCHEN",
    "AKTIV",
    "BESTAETIGT",
    "Datenbank",
    "Ergebnis",
    "SqlFehler",
    "Transaktion",
    "Version",
]
