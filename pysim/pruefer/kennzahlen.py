"""``kennzahlen``: die Zahlen eines Laufs auf virtueller Zeit, in jedem Lauf gleich."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..fehler import anzahl, pruefe_ganzzahl
from .verlauf import operationen


@dataclass(frozen=True)
class Kennzahlen:
    """Latenz in Ticks (nur bestätigte Operationen), Verfügbarkeit, Nachrichten je Operation.

    Die Perzentile sind Rangwerte (nearest rank): ``latenz_p99`` ist die kleinste gemessene
    Latenz, die mindestens 99 % der Latenzen erreicht – ein Wert, der wirklich vorkam.
    ``None``: nichts zu messen (keine bestätigte Operation, keine Nachrichtenzahl).
    """

    operationen: int
    ok: int
    fehlgeschlagen: int
    unbestimmt: int
    verfuegbarkeit: float | None
    latenz_p50: int | None
    latenz_p99: int | None
    latenz_max: int | None
    nachrichten: int | None
    nachrichten_je_operation: float | None

    def __str__(self) -> str:
        teile = [
            f"{anzahl(self.operationen, 'Operation', 'Operationen')}: {self.ok} ok, {self.fehlgeschlagen} "
            f"fehlgeschlagen, {self.unbestimmt} unbestimmt"
        ]
        if self.verfuegbarkeit is not None:
            teile[0] += f" (Verfügbarkeit {self.verfuegbarkeit:.0%})"
        if self.latenz_max is not None:
            teile.append(
                f"Latenz in Ticks: p50 {self.latenz_p50}, p99 {self.latenz_p99}, "
                f"max {self.latenz_max}"
            )
        if self.nachrichten_je_operation is not None and self.nachrichten is not None:
            je = f"{self.nachrichten_je_operation:.1f}".replace(".", ",")
            nachrichten = anzahl(self.nachrichten, "Nachricht", "Nachrichten")
            teile.append(f"{nachrichten}, {je} je Operation")
        return ". ".join(teile) + "."


def kennzahlen(
    history: Sequence[Mapping[str, object]], nachrichten: int | None = None
) -> Kennzahlen:
    """Die Kennzahlen von ``history``; ``nachrichten``: wie viele das Netz zählte.

    Die Verfügbarkeit ist der Anteil der Operationen mit ``ok``; Nachrichten je Operation
    teilt durch alle Operationen (auch die ohne Antwort: Auch sie kosteten Nachrichten).
    """
    if nachrichten is not None:
        pruefe_ganzzahl(nachrichten, "nachrichten", 0)
    ops = operationen(history)
    latenzen = sorted(op.ende - op.beginn for op in ops if op.typ == "ok" and op.ende is not None)
    anzahl = {typ: sum(op.typ == typ for op in ops) for typ in ("ok", "fail", "info")}
    return Kennzahlen(
        operationen=len(ops),
        ok=anzahl["ok"],
        fehlgeschlagen=anzahl["fail"],
        unbestimmt=anzahl["info"],
        verfuegbarkeit=anzahl["ok"] / len(ops) if ops else None,
        latenz_p50=_rang(latenzen, 50),
        latenz_p99=_rang(latenzen, 99),
        latenz_max=latenzen[-1] if latenzen else None,
        nachrichten=nachrichten,
        nachrichten_je_operation=nachrichten / len(ops)
        if nachrichten is not None and ops
        else None,
    )


def _rang(werte: Sequence[int], prozent: int) -> int | None:
    """Das Perzentil nach dem nächsten Rang: der Wert an Stelle ⌈p/100 · n⌉ (ab 1 gezählt)."""
    if not werte:
        return None
    stelle = -(-prozent * len(werte) // 100)  # integer ceiling: no float rounding
    return werte[max(stelle, 1) - 1]
