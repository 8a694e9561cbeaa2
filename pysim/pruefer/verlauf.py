"""Einen Verlauf (history) lesen: Ereignisse prüfen und zu Operationen paaren.

Der Vertrag steht im Docstring von ``pysim.pruefer``. Hier wird er durchgesetzt: Jeder Fehler
nennt den Index des Ereignisses, an dem der Verlauf nicht mehr stimmt.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from ..fehler import UngueltigeEingabe, wert_text

TYPEN = ("invoke", "ok", "fail", "info")
PFLICHT = ("process", "type", "f", "time")


class UngueltigerVerlauf(UngueltigeEingabe):
    """Ein Verlauf, der den Vertrag von ``pysim.pruefer`` verletzt.

    ``index`` ist die Stelle des schuldigen Ereignisses in der Liste (``None``, wenn der
    Verlauf als Ganzes falsch ist, z. B. keine Liste).
    """

    def __init__(self, index: int | None, meldung: str) -> None:
        self.index = index
        super().__init__(meldung if index is None else f"Ereignis {index}: {meldung}")


@dataclass(frozen=True)
class Operation:
    """Eine Operation: ein ``invoke`` und sein Abschluss (``ok``, ``fail``, ``info``).

    ``index`` und ``index_ende`` sind die Stellen der beiden Ereignisse im Verlauf: Sie ordnen
    Operationen in der Zeit. ``beginn`` und ``ende`` sind ihre Ticks, für Urteile und Kennzahlen.
    ``ende``/``index_ende`` sind ``None``, wenn nie ein Abschluss kam (dann ist ``typ``
    ``"info"``). ``eingabe`` ist das ``value`` des ``invoke``, ``ausgabe`` das des Abschlusses.
    """

    index: int
    prozess: int | str
    f: str
    schluessel: Hashable
    eingabe: object
    ausgabe: object
    typ: str
    beginn: int
    ende: int | None
    index_ende: int | None
    knoten: Hashable
    #: The name the history gives whoever ran it (``client``, e.g. "c7"), if any: a verdict
    #: names it, as the space-time picture does.
    client: str | None = None

    @property
    def wert(self) -> object:
        """Was die Operation las oder schrieb: bei ``ok`` die Ausgabe, sonst die Eingabe.

        Ein ``ok`` ohne ``value`` (oder mit ``None``) übernimmt die Eingabe, so wie Jepsen
        ein ``ok`` für ein Schreiben oft ohne Wert aufzeichnet.
        """
        if self.typ == "ok" and self.ausgabe is not None:
            return self.ausgabe
        return self.eingabe

    def vor(self, andere: Operation) -> bool:
        """War diese Operation bestätigt (``ok``), bevor ``andere`` begann?

        Die Stelle im Verlauf entscheidet, nicht der Tick: Steht das ``ok`` vor dem ``invoke``
        von ``andere``, liegt sie davor, auch im selben Tick (so folgen die Operationen eines
        Prozesses aufeinander). Eine unbestimmte Operation liegt vor nichts: Sie kann auch
        später noch gewirkt haben.
        """
        return self.typ == "ok" and self.index_ende is not None and self.index_ende < andere.index

    def begann_vor_ende(self, andere: Operation) -> bool:
        """Begann diese Operation, bevor ``andere`` bestätigt war (ihr ``invoke`` steht vor dem
        Abschluss von ``andere``; ohne Abschluss: immer)? Nur dann kann sie gewirkt haben, bevor
        ``andere`` endete."""
        return andere.index_ende is None or self.index < andere.index_ende


def operationen(verlauf: Sequence[Mapping[str, object]]) -> list[Operation]:
    """Prüft ``verlauf`` und gibt seine Operationen in der Reihenfolge ihrer ``invoke`` zurück.

    Ein ``invoke`` ohne Abschluss am Ende zählt als ``info`` (unbestimmt).
    """
    if isinstance(verlauf, str | bytes) or not isinstance(verlauf, Sequence):
        raise UngueltigerVerlauf(
            None,
            f"Ein Verlauf ist eine Liste von Ereignissen (dicts), nicht {wert_text(verlauf, 40)}.",
        )
    offen: dict[int | str, int] = {}
    fertig: dict[int, int] = {}
    vorige_zeit = 0
    for i, ereignis in enumerate(verlauf):
        prozess, typ, zeit = _felder(i, ereignis)
        if zeit < vorige_zeit:
            raise UngueltigerVerlauf(
                i,
                f"time {zeit} ist kleiner als die Zeit davor ({vorige_zeit}). Die Liste muss "
                "in zeitlicher Reihenfolge stehen.",
            )
        vorige_zeit = zeit
        if typ == "invoke":
            if prozess in offen:
                raise UngueltigerVerlauf(
                    i,
                    f"Prozess {prozess} beginnt eine neue Operation, obwohl seine Operation "
                    f"aus Ereignis {offen[prozess]} noch offen ist. Ein Prozess hat höchstens "
                    "eine offene Operation.",
                )
            offen[prozess] = i
            continue
        if prozess not in offen:
            raise UngueltigerVerlauf(
                i,
                f"„{typ}“ von Prozess {prozess} schließt nichts ab: Prozess {prozess} hat "
                "keine offene Operation (es fehlt ein „invoke“ davor).",
            )
        start = offen.pop(prozess)
        _passt(i, ereignis, start, verlauf[start])
        fertig[start] = i
    return [_operation(verlauf, i, fertig.get(i)) for i in sorted({*fertig, *offen.values()})]


def _felder(i: int, ereignis: object) -> tuple[int | str, str, int]:
    """``process``, ``type`` und ``time`` eines Ereignisses, geprüft."""
    if not isinstance(ereignis, Mapping):
        raise UngueltigerVerlauf(
            i,
            "Ein Ereignis ist ein dict mit process, type, f und time, nicht "
            f"{wert_text(ereignis, 40)}.",
        )
    fehlt = [name for name in PFLICHT if name not in ereignis]
    if fehlt:
        namen = ", ".join(f"„{name}“" for name in fehlt)
        fehlt_ = "Es fehlt" if len(fehlt) == 1 else "Es fehlen"
        raise UngueltigerVerlauf(i, f"{fehlt_} {namen} (Pflicht: process, type, f, time).")
    prozess, typ, f, zeit = (ereignis[name] for name in PFLICHT)
    if isinstance(prozess, bool) or not isinstance(prozess, int | str):
        raise UngueltigerVerlauf(
            i, f"process ist eine ganze Zahl oder ein Text, nicht {wert_text(prozess, 30)}."
        )
    if typ not in TYPEN:
        raise UngueltigerVerlauf(
            i,
            f"type ist „invoke“, „ok“, „fail“ oder „info“, nicht {wert_text(typ, 30)}.",
        )
    if not isinstance(f, str) or not f:
        raise UngueltigerVerlauf(i, f"f ist ein nicht leerer Text, nicht {wert_text(f, 30)}.")
    if isinstance(zeit, bool) or not isinstance(zeit, int) or zeit < 0:
        raise UngueltigerVerlauf(
            i, f"time ist eine ganze Zahl >= 0 (virtuelle Ticks), nicht {wert_text(zeit, 30)}."
        )
    _hashbar(i, ereignis, "key")
    _hashbar(i, ereignis, "node")
    return prozess, str(typ), zeit


def _hashbar(i: int, ereignis: Mapping[str, object], feld: str) -> None:
    wert = ereignis.get(feld)
    if not isinstance(wert, Hashable):
        raise UngueltigerVerlauf(
            i, f"{feld} ist ein Text oder eine Zahl, nicht {wert_text(wert, 30)}."
        )


def _passt(i: int, ende: Mapping[str, object], start: int, aufruf: Mapping[str, object]) -> None:
    """Ein Abschluss muss zur offenen Operation seines Prozesses passen (f, key, node)."""
    for feld in ("f", "key", "node"):
        if feld in ende and feld in aufruf and ende[feld] != aufruf[feld]:
            raise UngueltigerVerlauf(
                i,
                f"{feld}={wert_text(ende[feld], 30)} passt nicht zur offenen Operation aus "
                f"Ereignis {start} ({feld}={wert_text(aufruf[feld], 30)}).",
            )


def _operation(verlauf: Sequence[Mapping[str, object]], i: int, j: int | None) -> Operation:
    aufruf = verlauf[i]
    ende = verlauf[j] if j is not None else None
    typ = str(ende["type"]) if ende is not None else "info"
    schluessel = aufruf.get("key", ende.get("key") if ende is not None else None)
    knoten = aufruf.get("node", ende.get("node") if ende is not None else None)
    zeit = ende["time"] if ende is not None else None
    prozess = aufruf["process"]
    assert isinstance(prozess, int | str) and isinstance(aufruf["time"], int)
    assert zeit is None or isinstance(zeit, int)
    assert isinstance(schluessel, Hashable) and isinstance(knoten, Hashable)
    return Operation(
        index=i,
        prozess=prozess,
        f=str(aufruf["f"]),
        schluessel=schluessel,
        eingabe=aufruf.get("value"),
        ausgabe=ende.get("value") if ende is not None else None,
        typ=typ,
        beginn=aufruf["time"],
        ende=zeit,
        index_ende=j,
        knoten=knoten,
        client=client if isinstance(client := aufruf.get("client"), str) and client else None,
    )


def einfrieren(v: object, index: int | None) -> Hashable:
    """``v`` als hashbarer Wert zum Vergleichen: Listen werden Tupel, dicts Paarmengen.

    ``index`` nennt das Ereignis, falls ``v`` sich nicht vergleichen lässt.
    """
    if isinstance(v, list | tuple):
        return tuple(einfrieren(x, index) for x in v)
    if isinstance(v, dict):
        return frozenset((k, einfrieren(x, index)) for k, x in v.items())
    try:
        hash(v)
    except TypeError:
        raise UngueltigerVerlauf(
            index,
            f"Den Wert {wert_text(v, 30)} kann ich nicht vergleichen; erlaubt sind Zahlen, "
            "Texte, None, Listen und dicts davon.",
        ) from None
    return v


def nur(ops: Sequence[Operation], erlaubt: Sequence[str], pruefer: str) -> None:
    """Jede Operation hat ein ``f`` aus ``erlaubt``; sonst ein Fehler an ihrem ``invoke``."""
    for op in ops:
        if op.f not in erlaubt:
            namen = ", ".join(f"„{f}“" for f in erlaubt)
            raise UngueltigerVerlauf(
                op.index,
                f"{pruefer} kennt f={wert_text(op.f, 30)} nicht; erlaubt: {namen}.",
            )


def ganzzahl(v: object, index: int | None, was: str, minimum: int = 0) -> int:
    """``v``, wenn es eine ganze Zahl >= ``minimum`` ist (kein bool); sonst ein Fehler."""
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise UngueltigerVerlauf(
            index, f"{was} ist eine ganze Zahl >= {minimum}, nicht {wert_text(v, 30)}."
        )
    return v
