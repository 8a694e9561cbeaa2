"""``echo``: Jede Antwort bringt genau den Text zurück, der geschickt wurde (Maelstroms ``echo``).

Jede Operation ist ``f="echo"``; das ``invoke`` trägt den Text in ``value``, das ``ok`` den
Text der Antwort. Ohne Antwort (``info``) ist nichts falsch, aber nicht verfügbar.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .urteil import Befund, Urteil, aus_befunden, wer, wert, zeiten
from .verlauf import nur, operationen


def echo(history: Sequence[Mapping[str, object]]) -> Urteil:
    """Prüft, dass jede bestätigte Antwort den geschickten Text zurückbringt."""
    ops = operationen(history)
    nur(ops, ("echo",), "echo")
    befunde = [
        Befund(
            f"{wer(op)} schickte {wert(op.eingabe)} und bekam {wert(op.ausgabe)} zurück ({zeiten(op)}).",
            (op,),
        )
        for op in ops
        if op.typ == "ok" and op.ausgabe != op.eingabe
    ]
    ok = sum(1 for op in ops if op.typ == "ok")
    return aus_befunden(
        befunde,
        "Nicht jede Antwort ist das Echo ihrer Anfrage:",
        f"Jede der {ok} Antworten bringt ihren Text zurück.",
        {"bestaetigt": ok, "operationen": len(ops)},
    )
