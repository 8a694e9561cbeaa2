"""Die SQL-Befehle, die die Datenbank versteht: die Teilmenge, mit der Hermitage PostgreSQL testet.

Eine Tabelle ``test(id, value)``; ``select * from test [where …] [for update]``,
``update test set value = N | value + N | value - N [where …]``,
``insert into test (id, value) values (1, 10)[, (2, 20) …]``, ``delete from test where …``,
``begin``, ``commit``, ``abort``/``rollback``, ``set transaction isolation level …``
(auch ``begin isolation level …``). Bedingungen: ``id = N``, ``id in (N, …)``, ``value = N``,
``value % N = M``. Groß- und Kleinschreibung sind gleich, ein Semikolon am Ende ist erlaubt.
Alles andere ist eine ``UngueltigeEingabe`` mit einem Satz, der sagt, was ginge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..fehler import UngueltigeEingabe, kurz

#: The isolation levels PostgreSQL accepts; "read uncommitted" behaves as "read committed"
#: there (the documentation's table: PostgreSQL never allows dirty reads).
READ_COMMITTED = "read committed"
REPEATABLE_READ = "repeatable read"
SERIALIZABLE = "serializable"
STUFEN = (READ_COMMITTED, REPEATABLE_READ, SERIALIZABLE)
_STUFE_ALIAS = {"read uncommitted": READ_COMMITTED}

BEISPIELE = (
    "begin",
    "set transaction isolation level repeatable read",
    "select * from test where id = 1",
    "update test set value = value + 1 where id = 1",
    "insert into test (id, value) values (3, 30)",
    "delete from test where value = 20",
    "commit",
)


@dataclass(frozen=True)
class Bedingung:
    """Ein ``where``: ``art`` ist ``alle``, ``id``, ``wert`` oder ``rest`` (``value % n = m``)."""

    art: str
    werte: tuple[int, ...] = ()

    def trifft(self, schluessel: int, wert: int) -> bool:
        if self.art == "alle":
            return True
        if self.art == "id":
            return schluessel in self.werte
        if self.art == "wert":
            return wert == self.werte[0]
        teiler, rest = self.werte
        return wert % teiler == rest

    @property
    def schluessel(self) -> tuple[int, ...] | None:
        """Die ids, wenn die Bedingung nur sie nennt (ein Lesen über den Primärschlüssel);
        sonst ``None``: das Lesen geht über die ganze Tabelle."""
        return self.werte if self.art == "id" else None

    def __str__(self) -> str:
        if self.art == "alle":
            return ""
        if self.art == "id":
            if len(self.werte) == 1:
                return f"where id = {self.werte[0]}"
            return f"where id in ({', '.join(map(str, self.werte))})"
        if self.art == "wert":
            return f"where value = {self.werte[0]}"
        return f"where value % {self.werte[0]} = {self.werte[1]}"


ALLE = Bedingung("alle")


@dataclass(frozen=True)
class Befehl:
    """Ein erkannter Befehl. ``art``: ``begin``, ``commit``, ``abort``, ``stufe``, ``select``,
    ``update``, ``insert`` oder ``delete``."""

    art: str
    text: str
    wo: Bedingung = ALLE
    #: ``update``: ``("=", n)`` setzt den Wert, ``("+", n)`` addiert (``value - n``: ``-n``).
    setze: tuple[str, int] = ("=", 0)
    #: ``insert``: die Zeilen (id, value).
    zeilen: tuple[tuple[int, int], ...] = ()
    #: ``begin … isolation level`` und ``set transaction isolation level``.
    stufe: str | None = None
    fuer_update: bool = False

    @property
    def liest_oder_schreibt(self) -> bool:
        return self.art in ("select", "update", "insert", "delete")

    def neuer_wert(self, alt: int) -> int:
        op, n = self.setze
        return n if op == "=" else alt + n


_ZAHL = r"(-?\d+)"
_STUFE = r"isolation\s+level\s+(read\s+committed|read\s+uncommitted|repeatable\s+read|serializable)"
_MUSTER: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (art, re.compile(muster + r"$"))
    for art, muster in (
        ("begin", r"(?:begin|start\s+transaction)(?:\s+(?:transaction\s+)?" + _STUFE + r")?"),
        ("commit", r"(?:commit|end)"),
        ("abort", r"(?:abort|rollback)"),
        ("stufe", r"set\s+transaction\s+" + _STUFE),
        ("select", r"select\s+\*\s+from\s+test(?P<wo>\s+where\s+.+?)?(?P<fu>\s+for\s+update)?"),
        ("update", r"update\s+test\s+set\s+value\s*=\s*(?P<set>.+?)(?P<wo>\s+where\s+.+)?"),
        ("insert", r"insert\s+into\s+test\s*\(\s*id\s*,\s*value\s*\)\s*values\s*(?P<zeilen>.+)"),
        ("delete", r"delete\s+from\s+test(?P<wo>\s+where\s+.+)?"),
    )
)
_WO: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("id", re.compile(r"id\s*=\s*" + _ZAHL + r"$")),
    ("id_in", re.compile(r"id\s+in\s*\(\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*\)$")),
    ("wert", re.compile(r"value\s*=\s*" + _ZAHL + r"$")),
    ("rest", re.compile(r"value\s*%\s*(\d+)\s*=\s*" + _ZAHL + r"$")),
)
_SETZE = re.compile(r"(?:(value)\s*([+-])\s*(\d+)|" + _ZAHL + r")$")
_ZEILE = re.compile(r"\(\s*" + _ZAHL + r"\s*,\s*" + _ZAHL + r"\s*\)")


def _fehler(text: str, was: str) -> UngueltigeEingabe:
    return UngueltigeEingabe(
        f"„{kurz(text, 60)}“: {was} Die Datenbank versteht die Befehle, mit denen Hermitage "
        f"PostgreSQL testet, zum Beispiel „{BEISPIELE[2]}“, „{BEISPIELE[3]}“ oder „{BEISPIELE[1]}“."
    )


def _stufe(roh: str) -> str:
    name = " ".join(roh.split())
    return _STUFE_ALIAS.get(name, name)


def _bedingung(text: str, roh: str | None) -> Bedingung:
    if roh is None:
        return ALLE
    wo = " ".join(roh.split())[len("where ") :]
    for art, muster in _WO:
        treffer = muster.match(wo)
        if treffer is None:
            continue
        if art == "id_in":
            return Bedingung("id", tuple(int(z) for z in treffer.group(1).split(",")))
        werte = tuple(int(z) for z in treffer.groups())
        if art == "rest" and werte[0] == 0:
            raise _fehler(text, "Durch 0 kann man nicht teilen.")
        return Bedingung(art, werte)
    raise _fehler(
        text,
        "Diese Bedingung kennt die Datenbank nicht; es gibt „id = N“, „id in (N, M)“, "
        "„value = N“ und „value % N = M“.",
    )


#: Statements that only steer a transaction: they never wait, so others may follow them.
STEUERUNG = ("begin", "commit", "abort", "stufe")


def ohne_kommentar(text: str) -> str:
    """``text`` ohne SQL-Kommentare (``-- …`` bis zum Zeilenende), wie Hermitage sie schreibt."""
    return "\n".join(zeile.split("--", 1)[0] for zeile in text.splitlines())


def lies_alle(text: object) -> list[Befehl]:
    """Die Befehle eines Aufrufs, durch ``;`` getrennt, Kommentare (``-- T1``) entfernt.
    Mehrere gehen nur, wenn alle außer dem letzten die Transaktion steuern (``begin; set
    transaction isolation level …``): Nur die warten nie."""
    if not isinstance(text, str):
        return [lies(text)]
    teile = [t for t in ohne_kommentar(text).split(";") if t.strip()]
    if len(teile) <= 1:
        return [lies(teile[0] if teile else text)]
    befehle = [lies(t) for t in teile]
    if any(b.art not in STEUERUNG for b in befehle[:-1]):
        raise _fehler(
            text,
            "Mehrere Befehle in einem Aufruf gehen nur, wenn alle außer dem letzten begin, "
            "commit, rollback oder set transaction sind (etwa „begin; set transaction "
            "isolation level serializable“); schreibe die anderen nacheinander.",
        )
    return befehle


def lies(text: object) -> Befehl:
    """Erkennt einen Befehl (``UngueltigeEingabe`` mit Beispielen, wenn es keiner ist)."""
    if not isinstance(text, str):
        raise UngueltigeEingabe(
            f"Ein SQL-Befehl ist ein Text wie „{BEISPIELE[2]}“, nicht {type(text).__name__}."
        )
    sauber = " ".join(ohne_kommentar(text).strip().rstrip(";").split()).lower()
    if not sauber:
        raise _fehler(text, "Das ist leer.")
    if ";" in sauber:
        raise _fehler(text, "Ein Aufruf ist ein Befehl; schreibe mehrere nacheinander.")
    for art, muster in _MUSTER:
        treffer = muster.match(sauber)
        if treffer is None:
            continue
        gruppen = treffer.groupdict()
        if art in ("begin", "stufe"):
            roh = treffer.group(1)
            return Befehl(art, sauber, stufe=_stufe(roh) if roh else None)
        if art in ("select", "delete"):
            return Befehl(
                art,
                sauber,
                wo=_bedingung(text, gruppen.get("wo")),
                fuer_update=bool(gruppen.get("fu")),
            )
        if art == "update":
            setze = _SETZE.match(gruppen["set"].strip())
            if setze is None:
                raise _fehler(
                    text, "Ein Update setzt „value = N“, „value = value + N“ oder „value - N“."
                )
            if setze.group(4) is not None:
                wert: tuple[str, int] = ("=", int(setze.group(4)))
            else:
                n = int(setze.group(3))
                wert = ("+", n if setze.group(2) == "+" else -n)
            return Befehl(art, sauber, wo=_bedingung(text, gruppen.get("wo")), setze=wert)
        if art == "insert":
            roh = gruppen["zeilen"].strip()
            zeilen = tuple((int(a), int(b)) for a, b in _ZEILE.findall(roh))
            if not zeilen or _ZEILE.sub("", roh).replace(",", "").strip():
                raise _fehler(text, "Werte stehen als „(3, 30)“ oder „(3, 30), (4, 40)“ da.")
            return Befehl(art, sauber, zeilen=zeilen)
        return Befehl(art, sauber)
    if sauber.startswith(("select", "update", "insert", "delete")) and " test" not in sauber:
        raise _fehler(text, "Es gibt eine Tabelle: „test“ mit den Spalten id und value.")
    raise _fehler(text, "Diesen Befehl kennt die Datenbank nicht.")
