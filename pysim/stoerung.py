"""Störungen auf Bestellung: simulierte Abstürze für Prüfungen und Übungen.

``absturz_nach(con, n)`` gibt eine Hülle um eine ``sqlite3``-Verbindung zurück, die sich wie die
Verbindung verhält, aber nach dem ``n``-ten Schreibzugriff (INSERT, UPDATE, DELETE, REPLACE über
``execute``/``executemany``) abstürzt: Der Schreibzugriff ist ausgeführt, dann endet der „Prozess“.
Wie bei einem echten Absturz ist die offene Transaktion danach verworfen (die Hülle ruft
``rollback`` auf), und die Hülle ist tot: Jeder weitere Aufruf löst wieder ``SimulierterAbsturz``
aus. Bestätigte Transaktionen (``commit``) bleiben natürlich erhalten.

``absturz_bei_aufruf(funktion, n)`` ist dasselbe für eine beliebige Funktion: Der ``n``-te Aufruf
stürzt ab (vorher, oder mit ``nach_ausfuehrung=True`` nachdem die Funktion gelaufen ist).

Beispiel::

    con = sqlite3.connect(":memory:")
    ...
    kaputt = absturz_nach(con, 2)
    try:
        verarbeite(kaputt, msg)
    except SimulierterAbsturz:
        pass
    # jetzt prüfen: beides oder nichts ist passiert
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from .fehler import SimulierterAbsturz, UngueltigeEingabe, pruefe_ganzzahl

SCHREIBBEFEHLE = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def ist_schreibzugriff(sql: str) -> bool:
    """Beginnt die Anweisung (nach Leerraum und Kommentaren) mit einem Schreibbefehl?"""
    text = sql.lstrip()
    while text.startswith("--") or text.startswith("/*"):
        if text.startswith("--"):
            _, _, text = text.partition("\n")
        else:
            _, _, text = text.partition("*/")
        text = text.lstrip()
    wort = text[:7].upper()
    return wort.startswith(SCHREIBBEFEHLE)


class _Zaehler:
    """Gemeinsamer Zähler einer Verbindung und ihrer Cursor."""

    def __init__(self, con: sqlite3.Connection, n: int, vorher: bool) -> None:
        self.con = con
        self.n = n
        self.vorher = vorher
        self.schreibzugriffe = 0
        self.abgestuerzt = False

    def pruefe_tot(self) -> None:
        if self.abgestuerzt:
            raise SimulierterAbsturz(
                "Die Verbindung gehört zu einem abgestürzten Prozess und kann nichts mehr tun."
            )

    def ausfuehren(self, sql: str, aufruf: Callable[[], Any]) -> Any:
        self.pruefe_tot()
        if not ist_schreibzugriff(sql):
            return aufruf()
        self.schreibzugriffe += 1
        if self.schreibzugriffe == self.n and self.vorher:
            self._absturz(sql, "vor")
        ergebnis = aufruf()
        if self.schreibzugriffe == self.n:
            self._absturz(sql, "nach")
        return ergebnis

    def _absturz(self, sql: str, wann: str) -> None:
        self.abgestuerzt = True
        if self.con.in_transaction:
            self.con.rollback()  # was nicht bestätigt war, ist mit dem Prozess verloren
        befehl = " ".join(sql.split())[:60]
        raise SimulierterAbsturz(
            f"Simulierter Absturz {wann} dem {self.n}. Schreibzugriff ({befehl}). "
            f"Alles, was nicht mit commit bestätigt war, ist verloren."
        )


class AbsturzCursor:
    """Ein Cursor, der die Schreibzugriffe mitzählt."""

    # Set with object.__setattr__ (this class's own __setattr__ forwards to the cursor).
    _cursor: sqlite3.Cursor
    _zaehler: _Zaehler

    def __init__(self, cursor: sqlite3.Cursor, zaehler: _Zaehler) -> None:
        object.__setattr__(self, "_cursor", cursor)
        object.__setattr__(self, "_zaehler", zaehler)

    def execute(self, sql: str, parameter: Any = ()) -> AbsturzCursor:
        self._zaehler.ausfuehren(sql, lambda: self._cursor.execute(sql, parameter))
        return self

    def executemany(self, sql: str, parameter: Iterable[Any]) -> AbsturzCursor:
        self._zaehler.ausfuehren(sql, lambda: self._cursor.executemany(sql, parameter))
        return self

    def __iter__(self) -> Any:
        return iter(self._cursor)

    def __getattr__(self, name: str) -> Any:
        self._zaehler.pruefe_tot()
        return getattr(self._cursor, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._cursor, name, value)


class AbsturzVerbindung:
    """Verhält sich wie die ``sqlite3``-Verbindung, stürzt aber beim n-ten Schreibzugriff ab."""

    # Set with object.__setattr__ (this class's own __setattr__ forwards to the connection).
    _con: sqlite3.Connection
    _zaehler: _Zaehler

    def __init__(self, con: sqlite3.Connection, n: int, vorher: bool = False) -> None:
        object.__setattr__(self, "_con", con)
        object.__setattr__(self, "_zaehler", _Zaehler(con, n, vorher))

    @property
    def schreibzugriffe(self) -> int:
        """Wie viele Schreibzugriffe bisher gezählt wurden."""
        return self._zaehler.schreibzugriffe

    @property
    def abgestuerzt(self) -> bool:
        """Ist der simulierte Absturz schon passiert?"""
        return self._zaehler.abgestuerzt

    def execute(self, sql: str, parameter: Any = ()) -> AbsturzCursor:
        return self.cursor().execute(sql, parameter)

    def executemany(self, sql: str, parameter: Iterable[Any]) -> AbsturzCursor:
        return self.cursor().executemany(sql, parameter)

    def cursor(self, *args: Any, **kwargs: Any) -> AbsturzCursor:
        self._zaehler.pruefe_tot()
        return AbsturzCursor(self._con.cursor(*args, **kwargs), self._zaehler)

    def commit(self) -> None:
        self._zaehler.pruefe_tot()
        self._con.commit()

    def rollback(self) -> None:
        self._con.rollback()

    def __enter__(self) -> AbsturzVerbindung:
        self._zaehler.pruefe_tot()
        self._con.__enter__()
        return self

    def __exit__(self, typ: Any, wert: Any, tb: Any) -> Any:
        if self._zaehler.abgestuerzt:
            self._con.rollback()
            return False
        return self._con.__exit__(typ, wert, tb)

    def __getattr__(self, name: str) -> Any:
        self._zaehler.pruefe_tot()
        return getattr(self._con, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._con, name, value)

    def __repr__(self) -> str:
        z = self._zaehler
        zustand = "abgestürzt" if z.abgestuerzt else f"{z.schreibzugriffe} Schreibzugriffe bisher"
        return f"AbsturzVerbindung(Absturz beim {z.n}. Schreibzugriff, {zustand})"


def absturz_nach(con: sqlite3.Connection, n: int, vorher: bool = False) -> AbsturzVerbindung:
    """Eine Verbindung, die nach dem ``n``-ten Schreibzugriff abstürzt (``vorher=True``: davor)."""
    pruefe_ganzzahl(n, "n", 1)
    if not isinstance(con, sqlite3.Connection):
        raise UngueltigeEingabe(
            f"absturz_nach braucht eine sqlite3-Verbindung (sqlite3.connect(...)), nicht {con!r}."
        )
    return AbsturzVerbindung(con, n, vorher)


class AbsturzFunktion:
    """Eine Funktion, deren n-ter Aufruf abstürzt."""

    def __init__(self, funktion: Callable[..., Any], n: int, nach_ausfuehrung: bool) -> None:
        self.funktion = funktion
        self.n = n
        self.nach_ausfuehrung = nach_ausfuehrung
        self.aufrufe = 0
        self.abgestuerzt = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = getattr(self.funktion, "__name__", "Funktion")
        if self.abgestuerzt:
            raise SimulierterAbsturz(f"{name} gehört zu einem abgestürzten Prozess.")
        self.aufrufe += 1
        if self.aufrufe == self.n and not self.nach_ausfuehrung:
            self.abgestuerzt = True
            raise SimulierterAbsturz(f"Simulierter Absturz beim {self.n}. Aufruf von {name}.")
        ergebnis = self.funktion(*args, **kwargs)
        if self.aufrufe == self.n:
            self.abgestuerzt = True
            raise SimulierterAbsturz(
                f"Simulierter Absturz nach dem {self.n}. Aufruf von {name} "
                f"(der Aufruf ist ausgeführt, das Ergebnis geht verloren)."
            )
        return ergebnis

    def __repr__(self) -> str:
        return f"AbsturzFunktion({self.n}. Aufruf, bisher {self.aufrufe} Aufrufe)"


def absturz_bei_aufruf(
    funktion: Callable[..., Any], n: int, nach_ausfuehrung: bool = False
) -> AbsturzFunktion:
    """Hülle um ``funktion``: Der ``n``-te Aufruf stürzt ab (vorher oder nach der Ausführung)."""
    pruefe_ganzzahl(n, "n", 1)
    if not callable(funktion):
        raise UngueltigeEingabe(f"absturz_bei_aufruf braucht eine Funktion, nicht {funktion!r}.")
    return AbsturzFunktion(funktion, n, nach_ausfuehrung)
