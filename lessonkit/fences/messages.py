"""The ``nachrichten`` block: the messages of a challenge's workload, as a table.

Authors write::

    ```nachrichten last="lin-kv"
    ```

and the build writes the table of what the clients of that workload ask and what a node
must answer, from the declarations the clients check every reply against
(``pysim.cluster.formen``): the page and the check cannot differ. Nothing runs in the
browser; the table is plain HTML, styled like any table of the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from lessonkit.build.blocks import MessagesBlock
from lessonkit.fences.kind import FenceError, FenceKind, PageRun, refuse_body
from pysim.cluster.formen import (
    FEHLER_FELDER,
    FORMEN,
    OHNE_CLIENTS,
    Feld,
    Rpc,
    beispiel,
    endgueltige_codes,
)


def _last(value: str) -> str:
    if value not in FORMEN and value not in OHNE_CLIENTS:
        names = ", ".join(sorted(FORMEN))
        raise ValueError(f"last=„{value}“ gibt es nicht: {names}.")
    return value


def _code(text: str) -> str:
    return f"<code>{escape(text)}</code>"


def _fields(fields: Sequence[Feld]) -> list[str]:
    return [
        f"{_code(f.name)}: {escape(f.bedeutung)} ({escape(f.art.name)}"
        f"{'' if f.pflicht else ', freiwillig'})"
        for f in fields
    ]


def _row(rpc: Rpc) -> str:
    ask = [_code(beispiel(rpc.anfrage, rpc.felder))]
    if rpc.vorbereitung:
        ask.append(f"Einmal vor allen anderen Anfragen: {escape(rpc.was)}.")
    else:
        ask.append(f"{escape(rpc.was[:1].upper() + rpc.was[1:])}.")
    ask += _fields(rpc.felder)
    answer = [_code(beispiel(rpc.antwort, rpc.antwort_felder)), *_fields(rpc.antwort_felder)]
    answer += [f"Fehler {_code(str(f.code))}: {escape(f.bedeutung)}." for f in rpc.fehler]
    if rpc.vorbereitung:
        answer.append("Auf diese Antwort wartet niemand.")
    return (
        f'<tr data-anfrage="{escape(rpc.anfrage)}"><td>{"<br>".join(ask)}</td>'
        f"<td>{'<br>'.join(answer)}</td></tr>"
    )


def render_messages(last: str) -> str:
    """The HTML of the block for the workload ``last``."""
    if last in OHNE_CLIENTS:  # elections only (challenge 8, stage 1)
        return (
            f'<div class="lk-nachrichten" data-last="{escape(last)}"><p>In dieser Last schicken '
            "keine Clients Anfragen: Es zählen nur die Nachrichten zwischen den Knoten.</p></div>"
        )
    codes = ", ".join(str(code) for code in endgueltige_codes())
    error = beispiel("error", FEHLER_FELDER)
    error_fields = ", ".join(_fields(FEHLER_FELDER))
    return (
        f'<div class="lk-nachrichten" data-last="{escape(last)}">'
        "<table><thead><tr><th>Anfrage</th><th>Antwort</th></tr></thead><tbody>"
        f"{''.join(_row(rpc) for rpc in FORMEN[last])}</tbody></table>"
        f"<p>Statt jeder Antwort darf ein Knoten einen Fehler schicken, etwa {_code(error)}, "
        f"mit {error_fields}. Die Codes {escape(codes)} heißen: sicher nicht geschehen; jeder "
        "andere (auch ein eigener ab 1000): vielleicht geschehen. Eine Antwort in einer anderen Form ist ein Fehler des "
        "Knotens: Das Urteil nennt Client, Operation, Feld und was stattdessen kam, und die "
        f"Operation zählt als unbestimmt. {_code('msg_id')} und {_code('in_reply_to')} setzt "
        "der Kurs; weitere Felder stören nicht. Eine ganze Zahl hat höchstens 64 Bit.</p>"
        "</div>"
    )


class MessagesKind(FenceKind[MessagesBlock, str]):
    """``nachrichten``: the workload's table; the fence has no body."""

    def __init__(self) -> None:
        super().__init__({"last": _last})

    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> MessagesBlock:
        refuse_body(src, "nachrichten", "Die Tabelle kommt aus pysim.cluster.formen.")
        last = options.get("last")
        if not last:
            names = ", ".join(sorted(FORMEN))
            raise FenceError(f'Der Block „nachrichten“ braucht last="…": {names}.')
        return MessagesBlock(slot=slot, line=line, last=last)

    def label(self, block: MessagesBlock, count: Callable[[str], int]) -> str:
        return "Nachrichten"

    async def run(self, block: MessagesBlock, run: PageRun) -> str:
        return render_messages(block.last)

    def render(self, block: MessagesBlock, result: str) -> str:
        return result


MESSAGES = MessagesKind()
