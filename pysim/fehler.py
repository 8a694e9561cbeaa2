"""Die Fehler von pysim.

Jeder Fehler, den pysim absichtlich auslöst, ist ein ``SimFehler``. Die Meldung ist deutsch und sagt,
was falsch war und was richtig wäre. Ein Aufruf, der mit einem ``SimFehler`` endet, hat nichts
verändert: Die Simulation steht danach genau so da wie vorher.

Die Unterklassen erben zusätzlich von einer passenden Python-Ausnahme (``ValueError``,
``LookupError``, ``AttributeError``), damit auch allgemeiner Code sie richtig einordnet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar, cast

W = TypeVar("W")


class SimFehler(Exception):
    """Basisklasse aller Fehler der Simulation."""


class UngueltigeEingabe(SimFehler, ValueError):
    """Ein Argument hat den falschen Typ oder einen unerlaubten Wert."""


class UnbekanntesTopic(SimFehler, LookupError):
    """Ein Topic mit diesem Namen gibt es nicht."""


class TopicExistiertSchon(SimFehler):
    """``create_topic`` für einen Namen, den es schon gibt."""


class UnbekannteGruppe(SimFehler, LookupError):
    """Eine Consumer-Gruppe mit diesem Namen gibt es nicht."""


class CommitAbgelehnt(SimFehler):
    """Ein Mitglied will eine Position speichern, darf es aber nicht mehr.

    Es ist abgestürzt, wurde aus der Gruppe entfernt (Max Poll Interval oder Session Timeout), ist
    ausgetreten, oder die Gruppe wurde seit seinem Lesen neu verteilt. Wie Kafkas
    ``CommitFailedException``: Nichts wird gespeichert.
    """


class NichtZugeteilt(SimFehler):
    """``seek`` für eine Partition, die dem Mitglied gerade nicht zugeteilt ist.

    Wie Kafkas ``IllegalStateException`` aus ``KafkaConsumer.seek`` („No current assignment for
    partition“): Nur wer eine Partition liest, verschiebt ihre Leseposition. Nichts ändert sich.
    """


class UnbekannteNachricht(SimFehler, LookupError):
    """Eine Nachrichten-ID, die diese Queue nie vergeben hat."""


class UnbekannterStream(SimFehler, LookupError):
    """Ein Stream, in den noch nie ein Ereignis geschrieben wurde."""


class UnveraenderlichFehler(SimFehler, AttributeError):
    """Ein gespeicherter Eintrag oder ein Ereignis soll verändert oder gelöscht werden."""


class VersionsKonflikt(SimFehler):
    """Optimistische Nebenläufigkeit: Der Stream steht nicht bei der erwarteten Version."""


class UnbekannterKnoten(SimFehler, LookupError):
    """Ein Knoten oder Ereignis mit diesem Namen gibt es in der Welt nicht (``pysim.uhren``)."""


class SimulierterAbsturz(SimFehler):
    """Ein absichtlich herbeigeführter Absturz (siehe ``pysim.stoerung``)."""


def aufzaehlung(namen: Iterable[str]) -> str:
    """``["a", "b"]`` -> ``„a“, „b“``; eine leere Folge -> ``keine``."""
    teile = [f"„{n}“" for n in namen]
    return ", ".join(teile) if teile else "keine"


def nachschlagen(
    tabelle: Mapping[str, W],
    name: str,
    fehler: type[SimFehler],
    wen: str,
    vorhanden: str,
    *,
    warum: str = "",
    tipp: str = "",
) -> W:
    """``tabelle[name]``; ein unbekannter Name ist ``fehler`` mit einer Meldung wie
    „Das Topic „x“ gibt es nicht. Vorhandene Topics: „a“, „b“.“ und ``tipp`` dahinter."""
    try:
        return tabelle[name]
    except (KeyError, TypeError):
        raise fehler(
            f"{wen} „{name}“ gibt es nicht{warum}. Vorhandene {vorhanden}: "
            f"{aufzaehlung(sorted(tabelle))}.{tipp}"
        ) from None


def anzahl(n: int, einzahl: str, mehrzahl: str) -> str:
    """``anzahl(1, "Operation", "Operationen")`` -> ``1 Operation``; sonst die Mehrzahl."""
    return f"{n} {einzahl if n == 1 else mehrzahl}"


def kurz(wort: str, zeichen: int = 30) -> str:
    """Lange Eingaben in Meldungen abkürzen: ``abcdefghijkl…``. Text und Werte aus dem Code
    der Leserin kürzen ``gekuerzt``, ``meldung`` und ``wert_text``: Sie sagen, was fehlt."""
    return wort if len(wort) <= zeichen else wort[: zeichen - 1] + "…"


#: Höchstlängen für Text aus dem Code der Leserin in Meldungen, Urteilen und Bildern: die
#: Meldung einer Ausnahme ihres Knotens und ein Wert, den ein Urteil zitiert. Ein Urteil oder
#: Bild, das 5 MB Text zitiert, hielte die Seite sekundenlang an; es hilft auch niemandem.
MAX_MELDUNG = 500
MAX_WERT = 100


def _zahl(n: int) -> str:
    """``4999000`` -> ``4.999.000``."""
    return f"{n:,}".replace(",", ".")


def gekuerzt(text: str, zeichen: int) -> str:
    """``text`` mit höchstens ``zeichen`` Zeichen; was fehlt, sagt ein Vermerk:
    ``xxxx… (4.999.000 Zeichen mehr, gekürzt)``."""
    if len(text) <= zeichen:
        return text
    return f"{text[:zeichen]}… ({_zahl(len(text) - zeichen)} Zeichen mehr, gekürzt)"


def meldung(fehler: BaseException, zeichen: int = MAX_MELDUNG) -> str:
    """``Typ: Meldung`` einer Ausnahme aus fremdem Code, gekürzt (``gekuerzt``). Wirft nie:
    Eine Ausnahme, deren ``str`` selbst wirft, heißt „(Meldung nicht lesbar)“. ``str`` einer
    Ausnahme mit einem Text gibt genau diesen Text zurück; er wird hier nur angeschnitten."""
    try:
        text = str(fehler)
    except Exception:
        text = "(Meldung nicht lesbar)"
    name = kurz(type(fehler).__name__, 60)
    return f"{name}: {gekuerzt(text, zeichen)}" if text else name


#: Eingebaute Behälter (genau diese Typen), deren repr ``wert_text`` Stück für Stück
#: schreibt: (Anfang, Ende, leer, Verweis auf sich selbst).
_BEHAELTER: dict[type, tuple[str, str, str, str]] = {
    list: ("[", "]", "[]", "[...]"),
    tuple: ("(", ")", "()", "(...)"),
    dict: ("{", "}", "{}", "{...}"),
    set: ("{", "}", "set()", "set(...)"),
    frozenset: ("frozenset({", "})", "frozenset()", "frozenset(...)"),
}

#: Ab so vielen Bits schreibt Python eine ganze Zahl nicht mehr als Text (4300 Stellen).
_GROSSE_ZAHL = 14_000


class _Voll(Exception):
    """Der Text hat seine Länge erreicht."""


class _Text:
    """Sammelt Stücke bis ``zeichen`` Zeichen, dann ``_Voll``."""

    def __init__(self, zeichen: int) -> None:
        self.stuecke: list[str] = []
        self.rest = zeichen

    def dazu(self, stueck: str) -> None:
        if len(stueck) > self.rest:
            self.stuecke.append(stueck[: self.rest])
            self.rest = 0
            raise _Voll
        self.stuecke.append(stueck)
        self.rest -= len(stueck)


def wert_text(wert: object, zeichen: int = MAX_WERT) -> str:
    """``repr(wert)`` für einen Satz, höchstens ``zeichen`` Zeichen und ein Vermerk, was
    fehlt: ``'xxxx'… (1.999.900 Zeichen mehr, gekürzt)``, ``[0, 1, 2, … (1.000.000 Einträge,
    gekürzt)``. Texte und eingebaute Behälter werden nur so weit geschrieben, wie sie gezeigt
    werden (ein 5-MB-Text wird nie ganz kopiert); solange er passt, ist der Text genau
    ``repr(wert)``. Wirft nie, auch nicht bei riesigen Zahlen oder einem ``__repr__``, das
    wirft."""
    art = type(wert)
    if art in (str, bytes, bytearray):
        folge = cast("str | bytes | bytearray", wert)
        if len(folge) > zeichen:
            einheit = "Zeichen" if art is str else "Bytes"
            mehr = _zahl(len(folge) - zeichen)
            return f"{folge[:zeichen]!r}… ({mehr} {einheit} mehr, gekürzt)"
    elif art not in _BEHAELTER:
        return gekuerzt(_einzeln(wert), zeichen)
    geschrieben, voll = begrenzter_repr(wert, zeichen)
    if voll:
        if art in _BEHAELTER:
            anzahl = len(cast("list[object]", wert))
            vermerk = f"{_zahl(anzahl)} {'Eintrag' if anzahl == 1 else 'Einträge'}, gekürzt"
        else:  # ein Text, dessen repr länger ist als er selbst (Zeilenumbrüche als \n)
            vermerk = "gekürzt"
        return f"{geschrieben}… ({vermerk})"
    return geschrieben


def begrenzter_repr(wert: object, zeichen: int) -> tuple[str, bool]:
    """``repr(wert)``, höchstens ``zeichen`` Zeichen, und ob gekürzt wurde. Texte und
    eingebaute Behälter werden Stück für Stück geschrieben und nur so weit, wie sie gezeigt
    werden; solange er passt, ist der Text genau ``repr(wert)``. Wirft nie (``_einzeln``).
    Auch der Kern der Zellen nimmt ihn (``lessonkit.runtime.kernel.bounded_repr``)."""
    text = _Text(zeichen)
    try:
        _schreibe(wert, text, set())
    except _Voll:
        return "".join(text.stuecke), True
    return "".join(text.stuecke), False


def _einzeln(wert: object) -> str:
    """``repr`` eines Werts, der kein Text und kein eingebauter Behälter ist; wirft nie."""
    if isinstance(wert, int) and wert.bit_length() > _GROSSE_ZAHL:
        stellen = int(wert.bit_length() * 0.30103) + 1
        return f"<eine ganze Zahl mit etwa {_zahl(stellen)} Stellen>"
    try:
        return repr(wert)
    except Exception:
        return f"<{type(wert).__name__}>"


def _schreibe(wert: object, text: _Text, offen: set[int]) -> None:
    art = type(wert)
    if art in (str, bytes, bytearray):
        folge = cast("str | bytes | bytearray", wert)
        # Ein repr ist mindestens so lang wie der Text: sein Anfang genügt.
        text.dazu(repr(folge[: text.rest + 1]) if len(folge) > text.rest else repr(folge))
        return
    form = _BEHAELTER.get(art)
    if form is None:
        text.dazu(_einzeln(wert))
        return
    anfang, ende, leer, selbst = form
    behaelter = cast("list[object] | tuple[object, ...] | dict[object, object] | set[object]", wert)
    if not behaelter:
        text.dazu(leer)
        return
    if id(wert) in offen:  # wie repr: ein Behälter in sich selbst
        text.dazu(selbst)
        return
    offen.add(id(wert))
    try:
        text.dazu(anfang)
        if isinstance(behaelter, dict):
            for i, (schluessel, inhalt) in enumerate(behaelter.items()):
                if i:
                    text.dazu(", ")
                _schreibe(schluessel, text, offen)
                text.dazu(": ")
                _schreibe(inhalt, text, offen)
        else:
            for i, element in enumerate(behaelter):
                if i:
                    text.dazu(", ")
                _schreibe(element, text, offen)
        if art is tuple and len(behaelter) == 1:
            text.dazu(",")
        text.dazu(ende)
    finally:
        offen.discard(id(wert))


def pruefe_ganzzahl(wert: object, name: str, minimum: int | None = None) -> int:
    """Gibt ``wert`` zurück, wenn es eine ganze Zahl (kein bool) >= ``minimum`` ist."""
    if isinstance(wert, bool) or not isinstance(wert, int):
        raise UngueltigeEingabe(f"{name} muss eine ganze Zahl sein, nicht {wert!r}.")
    if minimum is not None and wert < minimum:
        raise UngueltigeEingabe(f"{name} muss mindestens {minimum} sein, nicht {wert}.")
    return wert


def pruefe_verzoegerung(wert: object, minimum: int, beispiel: tuple[int, int]) -> tuple[int, int]:
    """Gibt ``wert`` als Paar ``(kleinste, größte)`` ganzer Zahlen mit
    ``minimum <= kleinste <= größte`` zurück (die Laufzeit einer Nachricht in Ticks)."""
    if (
        not isinstance(wert, tuple | list)
        or len(wert) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in wert)
        or not minimum <= wert[0] <= wert[1]
    ):
        raise UngueltigeEingabe(
            "verzoegerung ist ein Paar ganzer Zahlen (kleinste, größte) mit "
            f"{minimum} <= kleinste <= größte, z. B. {beispiel}, nicht {wert!r}."
        )
    return (wert[0], wert[1])


def pruefe_wahrscheinlichkeit(wert: object, name: str) -> float:
    """Gibt ``wert`` als float zurück, wenn es eine Zahl von 0 bis 1 ist (kein bool)."""
    if isinstance(wert, bool) or not isinstance(wert, int | float) or not 0 <= wert <= 1:
        raise UngueltigeEingabe(f"{name} ist eine Wahrscheinlichkeit von 0 bis 1, nicht {wert!r}.")
    return float(wert)


def pruefe_name(wert: object, was: str) -> str:
    """Gibt ``wert`` zurück, wenn es ein nicht leerer Text ohne Leerzeichen ist."""
    if not isinstance(wert, str) or wert.split(None, 1) != [wert]:
        raise UngueltigeEingabe(
            f"{was} muss ein nicht leerer Text ohne Leerzeichen sein, nicht {wert!r}."
        )
    return wert
