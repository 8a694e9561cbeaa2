"""``eindeutige_ids``: Keine ID wird zweimal vergeben (Maelstroms Workload ``unique-ids``).

Jede Operation ist ``f="generate"``; ihr ``ok`` trägt die vergebene ID in ``value``. Nur
bestätigte IDs zählen: Eine unbestimmte Anfrage hat ihre ID nie jemandem gegeben.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from .urteil import Befund, Urteil, aus_befunden, und, wer, wert, zeiten
from .verlauf import Operation, UngueltigerVerlauf, einfrieren, nur, operationen


def eindeutige_ids(history: Sequence[Mapping[str, object]]) -> Urteil:
    """Prüft, dass jede bestätigte ID nur einmal vorkommt, und misst die Verfügbarkeit."""
    ops = operationen(history)
    nur(ops, ("generate",), "eindeutige_ids")
    vergeben: dict[Hashable, list[Operation]] = {}
    for op in ops:
        if op.typ != "ok":
            continue
        if op.ausgabe is None:
            raise UngueltigerVerlauf(
                op.index_ende, "Ein „ok“ für generate braucht die ID in value."
            )
        vergeben.setdefault(einfrieren(op.ausgabe, op.index), []).append(op)
    befunde = [
        Befund(
            f"Die ID {wert(gleich[0].ausgabe)} wurde {len(gleich)}-mal vergeben: an "
            f"{und([f'{wer(op)} ({zeiten(op)})' for op in gleich])}.",
            tuple(gleich),
        )
        for gleich in vergeben.values()
        if len(gleich) > 1
    ]
    bestaetigt = sum(len(gleich) for gleich in vergeben.values())
    anteil = bestaetigt / len(ops) if ops else None
    verfuegbar = (
        f"Verfügbarkeit {anteil:.0%}: {bestaetigt} von {len(ops)} Anfragen bestätigt."
        if anteil is not None
        else "Es gab keine Anfragen."
    )
    angaben = {"ids": len(vergeben), "doppelt": len(befunde), "verfuegbarkeit": anteil}
    doppelt = "1 ID wurde" if len(befunde) == 1 else f"{len(befunde)} IDs wurden"
    return aus_befunden(
        befunde,
        f"Nicht eindeutig: {doppelt} mehrfach vergeben. {verfuegbar}",
        f"Eindeutig: {len(vergeben)} IDs, keine doppelt. {verfuegbar}",
        angaben,
    )
