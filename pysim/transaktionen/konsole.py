"""Die SQL-Konsole der Lektion „Transaktionen und Isolation“: zwei oder drei Sitzungen
nebeneinander, die SQL an dieselbe Datenbank schicken.

    >>> k = SqlKonsole()
    >>> print(k.run("t1 select * from test").text)
    T1: select * from test — 1 => 10, 2 => 20

Jede Zeile beginnt mit der Sitzung (``t1``, ``t2``, ``t3``), dahinter der Befehl, wie ihn
``pysim.transaktionen.sql`` versteht. Das Bild (``pysim.transaktionen.bild``) zeigt nach jedem
Befehl die Versionen jeder Zeile, die Sperren und wer auf wen wartet.
"""

from __future__ import annotations

from ..console.art import KonsolenArt, KonsolenOption
from ..console.basis import BasisKonsole, setze_befehle
from ..console.befehle import befehl
from ..console.ergebnis import ConsoleResult
from ..console.parser import TEXT, Aufruf, Befehl
from ..fehler import UngueltigeEingabe
from ..pruefer import transaktionen as pruefe_transaktionen
from ..pruefer.kreisbild import kreis_bild
from ..pruefer.transaktionen import STUFEN as PRUEF_STUFEN
from .bild import bild
from .datenbank import Datenbank
from .geschichte import geschichte
from .sql import READ_COMMITTED, STUFEN

#: At most this many sessions (t1 … t3): the lesson's cases need three.
MAX_SITZUNGEN = 3


class SqlKonsole(BasisKonsole[Datenbank]):
    """Die SQL-Konsole: ``SqlKonsole().run("t1 begin")``.

    ``db``: eine vorhandene ``Datenbank``; sonst eine neue mit ``test(id, value)`` =
    ``(1, 10), (2, 20)``. ``sitzungen``: 2 oder 3.
    """

    TITEL = "SQL-Konsole"
    HILFE_BEISPIEL = "t1"

    def __init__(self, db: Datenbank | None = None, sitzungen: int = 2) -> None:
        if not 1 <= sitzungen <= MAX_SITZUNGEN:
            raise UngueltigeEingabe(
                f"Die Konsole hat 1 bis {MAX_SITZUNGEN} Sitzungen, nicht {sitzungen}."
            )
        super().__init__(db if db is not None else Datenbank())
        self.sitzungen = sitzungen

    @property
    def db(self) -> Datenbank:
        """Die Datenbank hinter der Konsole (dasselbe wie ``modell``)."""
        return self.modell

    def _sql(self, aufruf: Aufruf) -> ConsoleResult:
        nummer = int(aufruf.befehl.name[1:])
        if nummer > self.sitzungen:
            raise UngueltigeEingabe(
                f"Diese Konsole hat {self.sitzungen} Sitzungen: "
                + ", ".join(f"t{i}" for i in range(1, self.sitzungen + 1))
                + "."
            )
        assert aufruf.rest is not None
        ergebnis = self.db.sql(f"T{nummer}", aufruf.rest)
        return self._ok(aufruf, str(ergebnis), bild(self.db).svg)

    def _status(self, aufruf: Aufruf) -> ConsoleResult:
        db = self.db
        tabelle = ", ".join(f"{k} => {v}" for k, v in db.tabelle().items()) or "leer"
        zeilen = [f"Committet: {tabelle}"]
        for i in range(1, self.sitzungen + 1):
            s = f"T{i}"
            tx = db.transaktion(s)
            if tx is None:
                zeilen.append(f"{s}: keine offene Transaktion ({READ_COMMITTED} für jeden Befehl)")
                continue
            zustand = (
                "nach einem Fehler abgebrochen: nur rollback" if tx.status != "aktiv" else "offen"
            )
            zeilen.append(f"{s}: {tx.stufe}, {zustand}")
        for k, s in db.sperren().items():
            zeilen.append(f"Zeile {k} gesperrt von {s}")
        for s, auf in db.wartet().items():
            zeilen.append(f"{s} wartet auf {auf}")
        return self._ok(aufruf, "\n".join(zeilen), bild(db).svg)

    def _pruefe(self, aufruf: Aufruf) -> ConsoleResult:
        stufe = " ".join((aufruf.rest or "serialisierbar").split()).lower()
        if stufe not in PRUEF_STUFEN:
            raise UngueltigeEingabe(
                f"Die Stufe „{stufe}“ kennt der Prüfer nicht; es gibt "
                + ", ".join(f"„{s}“" for s in PRUEF_STUFEN)
                + "."
            )
        urteil = pruefe_transaktionen(geschichte(self.db), stufe=stufe)
        kreise = urteil.angaben.get("kreise")
        svg = kreis_bild(urteil).svg if kreise else bild(self.db).svg
        return self._ok(aufruf, urteil.erklaerung, svg)


def _sitzung(n: int) -> Befehl:
    return befehl(
        f"t{n} <sql>",
        f"einen SQL-Befehl in der Sitzung T{n} ausführen"
        + (" (Konsolen mit drei Sitzungen)" if n == MAX_SITZUNGEN else ""),
        SqlKonsole._sql,
        f"t{n} begin",
        f"t{n} update test set value = value + 1 where id = 1",
        erklaerung=(
            "Befehle: begin, commit, rollback, set transaction isolation level "
            + " | ".join(STUFEN)
            + ", select * from test [where …] [for update], update test set value = … "
            "[where …], insert into test (id, value) values (3, 30), delete from test where ….",
            "Bedingungen: id = 1, id in (1, 2), value = 20, value % 3 = 0. Außerhalb einer "
            "Transaktion ist jeder Befehl eine eigene. Wartet ein Befehl auf eine Sperre, "
            "nimmt die Sitzung nichts an, bis die andere Transaktion endet.",
        ),
        rest=TEXT,
        rest_name="der SQL-Befehl",
    )


BEFEHLE = setze_befehle(
    SqlKonsole,
    [
        *(_sitzung(n) for n in range(1, MAX_SITZUNGEN + 1)),
        befehl(
            "status",
            "die committeten Zeilen, jede Sitzung, die Sperren und wer wartet",
            SqlKonsole._status,
        ),
        befehl(
            "pruefe [<stufe>]",
            "die beendeten Transaktionen mit dem Prüfer auf Anomalien prüfen",
            SqlKonsole._pruefe,
            "pruefe",
            "pruefe snapshot isolation",
            erklaerung=(
                "Stufen: read committed, snapshot isolation, serialisierbar (ohne Angabe). "
                "Der Prüfer (pysim.pruefer.transaktionen) sieht nur, was jede beendete "
                "Transaktion las und schrieb, nicht die Datenbank. Findet er einen Kreis, "
                "zeigt das Bild ihn.",
            ),
            rest=TEXT,
            rest_name="die Stufe",
            rest_pflicht=False,
        ),
    ],
)


#: Diese Konsole für ``lessonkit``: der Block ``sql-konsole``, ``kind="sql"``.
KONSOLE = KonsolenArt(
    name="sql",
    klasse=SqlKonsole,
    modell="db",
    beschreibung="Sitzungen, die SQL an eine Datenbank mit Isolationsstufen schicken "
    "(Lektion „Transaktionen und Isolation“)",
    optionen=(KonsolenOption("sitzungen", "2", "so viele Sitzungen (t1, t2, t3)"),),
)
