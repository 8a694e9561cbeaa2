"""Das Urteil eines Prüfers und die Bausteine seiner deutschen Sätze."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..fehler import wert_text
from .verlauf import Operation

#: So viele Befunde nennt eine Erklärung einzeln; der Rest wird gezählt.
HOECHSTENS = 5


@dataclass(frozen=True, repr=False)
class Urteil:
    """Was ein Prüfer über einen Verlauf sagt.

    ``ok``: bestanden. ``erklaerung``: deutsch, nennt bei einem Fehler die Operationen mit
    Prozess und virtueller Zeit. ``zeugen``: die Operationen, die den Fehler belegen (für ein
    Bild, das sie hervorhebt). ``entschieden`` ist ``False``, wenn die Prüfung vor dem Ende
    abbrach; dann ist auch ``ok`` ``False``. ``angaben``: Zahlen und Listen des Prüfers.
    """

    ok: bool
    erklaerung: str
    zeugen: tuple[Operation, ...] = ()
    entschieden: bool = True
    angaben: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.erklaerung

    def __repr__(self) -> str:
        # Short on purpose: a cell that ends with a verdict shows this, not every operation.
        zeugen = ", ".join(f"#{op.index}" for op in self.zeugen)
        return (
            f"Urteil(ok={self.ok}, entschieden={self.entschieden}, "
            f"erklaerung={self.erklaerung!r}, zeugen=[{zeugen}])"
        )


@dataclass(frozen=True)
class Befund:
    """Ein einzelner Fehler: ein Satz und die Operationen, die ihn belegen."""

    text: str
    zeugen: tuple[Operation, ...]


def aus_befunden(
    befunde: Sequence[Befund], titel: str, gut: str, angaben: Mapping[str, object]
) -> Urteil:
    """Ohne Befund ``ok`` mit ``gut``; sonst ``titel`` und die ersten Befunde."""
    alle = {**angaben, "befunde": [b.text for b in befunde]}
    if not befunde:
        return Urteil(True, gut, angaben=alle)
    gezeigt = befunde[:HOECHSTENS]
    saetze = [titel, *(b.text for b in gezeigt)]
    if len(befunde) > HOECHSTENS:
        rest = len(befunde) - HOECHSTENS
        saetze.append(
            f"Dazu {'kommt 1 weiterer Befund' if rest == 1 else f'kommen {rest} weitere Befunde'}."
        )
    zeugen = eindeutig(op for b in gezeigt for op in b.zeugen)
    return Urteil(False, " ".join(saetze), zeugen, angaben=alle)


def eindeutig(ops: Iterable[Operation]) -> tuple[Operation, ...]:
    """Jede Operation einmal, in der Reihenfolge ihres Beginns im Verlauf."""
    return tuple(sorted({op.index: op for op in ops}.values(), key=lambda op: op.index))


def zahl(n: int) -> str:
    """``1000000`` -> ``1.000.000``."""
    return f"{n:,}".replace(",", ".")


def wert(v: object) -> str:
    """Ein gelesener oder geschriebener Wert, wie Python ihn schreibt (``'a'``, ``None``);
    ein langer gekürzt, mit einem Vermerk, was fehlt (``pysim.fehler.wert_text``): Ein Knoten,
    der 2 MB zurückschickt, macht kein Urteil von Megabytes."""
    return wert_text(v)


def name(schluessel: object) -> str:
    """Ein Schlüssel in einem Satz: ``x`` und ``k0`` wie sie sind, andere in Klammern
    (``[1]``), damit ``Lesen [1] → 2`` nicht wie eine Zahl unter Zahlen aussieht."""
    if isinstance(schluessel, str) and schluessel.isidentifier():
        return schluessel
    return f"[{schluessel!r}]"


def sortiert(werte: Iterable[object]) -> list[object]:
    """Zahlen der Größe nach, dann alles andere nach seiner Schreibweise (fest, ohne Hash)."""
    return sorted(
        werte,
        key=lambda v: (
            (0, v, "")
            if isinstance(v, int | float) and not isinstance(v, bool)
            else (1, 0, repr(v))
        ),
    )


def und(teile: Sequence[str], wort: str = "und") -> str:
    """``["a", "b", "c"]`` -> ``a, b und c`` (``wort="oder"``: ``a, b oder c``)."""
    if len(teile) <= 1:
        return "".join(teile)
    return ", ".join(teile[:-1]) + f" {wort} " + teile[-1]


def zeiten(op: Operation) -> str:
    """``t=4–5`` (``t=4`` in einem Tick); ``ab t=4, unbestimmt`` für eine Operation mit ``info`` oder ohne Abschluss."""
    if op.typ == "info" or op.ende is None:
        return f"ab t={op.beginn}, unbestimmt"
    return f"t={op.beginn}" if op.ende == op.beginn else f"t={op.beginn}–{op.ende}"


def spaeter_und_fehl(
    ops: Iterable[Operation], leser: Operation
) -> tuple[list[Operation], list[Operation], str]:
    """Why none of ``ops`` wrote what ``leser`` read: those that began only after it ended and
    those that failed, and the words for when the first later one began."""
    ops = list(ops)
    spaeter = [o for o in ops if o.typ != "fail"]
    fehl = [o for o in ops if o.typ == "fail"]
    # Within the tick the read ended in, "later" is the history's order.
    wann = "danach, ebenfalls bei" if spaeter and spaeter[0].beginn == leser.ende else "bei"
    return spaeter, fehl, wann


def wer(op: Operation) -> str:
    """Who ran ``op``: its client's name when the history has one (the picture's), else the
    process number."""
    return f"Client {op.client}" if op.client else f"Prozess {op.prozess}"
