"""``kafka_log``: ein Log nach Art von Kafka (Maelstroms Workload ``kafka``).

Die Operationen folgen Maelstroms RPCs (github.com/jepsen-io/maelstrom, doc/workloads.md):

- ``f="send"``, ``key`` das Log, ``value`` die Nachricht; das ``ok`` trägt in ``value`` den
  vergebenen Offset (``send_ok``: ``offset``) oder ``[nachricht, offset]``.
- ``f="poll"``, ``value`` ``{key: offset}`` (ab wo gelesen werden soll); das ``ok`` trägt
  ``{key: [[offset, nachricht], …]}`` (``poll_ok``: ``msgs``).
- ``f="commit_offsets"``, ``value`` ``{key: offset}`` (bis wohin verarbeitet ist).
- ``f="list_committed_offsets"``, ``value`` ``[key, …]``; das ``ok`` trägt ``{key: offset}``.

``None`` statt eines dicts oder einer Liste heißt: unbekannt (ein poll ohne bekannte Anfrage
wird nur in sich geprüft) oder leer (eine Antwort ohne Offsets oder Nachrichten).

Gefunden wird, was Maelstroms Dokumentation beschreibt: verlorene Nachrichten (*lost write*,
hier: ein bestätigter send, den kein poll je lieferte, obwohl ein poll schon einen höheren
Offset desselben Logs las), Offsets, die in einem poll nicht aufsteigen (*nonmonotonic*) oder einen
bekannten Offset überspringen (*skip*). Zwischen zwei polls vergleicht der Prüfer mit dem
angefragten Offset: Maelstroms Client fragt ab dem Offset nach dem zuletzt gelesenen an.
Dazu ein Offset mit zwei Nachrichten oder zwei sends, und eine Regel des Kurses, die
Maelstrom nicht prüft: Die gespeicherte Position (Commit) eines Logs geht nie zurück. Ein
list_committed_offsets meldet mindestens, was ein vorher bestätigter commit_offsets oder ein
vorher beendetes list_committed_offsets zeigte („vorher“: im Verlauf davor, auch im selben Tick). Ein bestätigter send, den (noch) kein poll
las, ist kein Fehler: Maelstrom verlangt keine Aktualität; ``angaben["unbeobachtet"]``
zählt sie.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Mapping, Sequence
from itertools import pairwise

from ..fehler import wert_text
from .urteil import Befund, Urteil, aus_befunden, und, wer, wert, zeiten
from .verlauf import Operation, UngueltigerVerlauf, einfrieren, ganzzahl, nur, operationen

ERLAUBT = ("send", "poll", "commit_offsets", "list_committed_offsets")

Stelle = tuple[Hashable, int]  # (log, offset)


def kafka_log(history: Sequence[Mapping[str, object]]) -> Urteil:
    """Prüft sends, polls und gespeicherte Positionen in ``history``."""
    ops = operationen(history)
    nur(ops, ERLAUBT, "kafka_log")
    sends: dict[Stelle, list[tuple[Operation, Hashable]]] = {}
    polls: list[
        tuple[Operation, dict[Hashable, int], dict[Hashable, list[tuple[int, Hashable]]]]
    ] = []
    for op in ops:
        if op.f == "send" and op.typ == "ok":
            if op.schluessel is None:
                raise UngueltigerVerlauf(
                    op.index, "Ein send braucht key: das Log, in das er schreibt."
                )
            o = _offset_des_send(op)
            sends.setdefault((op.schluessel, o), []).append((op, einfrieren(op.eingabe, op.index)))
        elif op.f == "poll" and op.typ == "ok":
            anfrage = _offsets(op.eingabe, op.index, "Ein poll")
            polls.append((op, anfrage, _nachrichten(op)))

    bekannt: dict[Hashable, list[int]] = {}
    for k, o in sends:
        bekannt.setdefault(k, []).append(o)
    for _, _, msgs in polls:
        for k, paare in msgs.items():
            bekannt.setdefault(k, []).extend(o for o, _ in paare)
    bekannt = {k: sorted(set(os)) for k, os in bekannt.items()}

    befunde = _doppelt(sends)
    gesehen: dict[Stelle, tuple[Operation, Hashable]] = {}
    hoechster: dict[Hashable, tuple[int, Operation]] = {}
    for p, anfrage, msgs in polls:
        for k, paare in msgs.items():
            befunde.extend(_ein_poll(p, k, anfrage.get(k), paare, bekannt[k], sends))
            for o, m in paare:
                befunde.extend(_widerspruch(p, k, o, m, sends, gesehen))
                gesehen.setdefault((k, o), (p, m))
                if k not in hoechster or o > hoechster[k][0]:
                    hoechster[k] = (o, p)
    unbeobachtet = 0
    for (k, o), [(s, _), *_] in sends.items():
        if (k, o) in gesehen:
            continue
        if k in hoechster and hoechster[k][0] > o:
            hoch, p = hoechster[k]
            befunde.append(
                Befund(
                    f"Verloren: {_send(s)} bekam Offset {o}, doch kein poll lieferte ihn, "
                    f"obwohl der poll von {wer(p)} ({zeiten(p)}) schon Offset {hoch} von {k} las.",
                    (s, p),
                )
            )
        else:
            unbeobachtet += 1
    befunde.extend(_positionen(ops))

    angaben = {
        "sends": sum(len(v) for v in sends.values()),
        "unbeobachtet": unbeobachtet,
        "polls": len(polls),
    }
    noch_nicht = (
        f" {unbeobachtet} bestätigte sends lieferte noch kein poll; das ist erlaubt (Maelstrom "
        "verlangt keine Aktualität)."
        if unbeobachtet
        else ""
    )
    return aus_befunden(
        befunde,
        "Log fehlerhaft:",
        f"Log in Ordnung: {angaben['sends']} bestätigte sends, keiner verloren; jeder der "
        f"{len(polls)} polls lieferte aufsteigende Offsets ohne Lücke über bekannte Offsets, "
        f"und keine gespeicherte Position ging zurück.{noch_nicht}",
        angaben,
    )


def _send(s: Operation) -> str:
    return f"send {wert(s.eingabe)} an {s.schluessel} ({wer(s)}, {zeiten(s)})"


def _poll(p: Operation) -> str:
    return f"Der poll von {wer(p)} ({zeiten(p)})"


def _offset_des_send(op: Operation) -> int:
    """Der Offset im ``ok`` eines send: ``offset`` oder ``[nachricht, offset]``."""
    v = op.ausgabe
    if isinstance(v, list | tuple) and len(v) == 2:
        v = v[1]
    return ganzzahl(
        v, op.index_ende, "Der Offset (value, oder [nachricht, offset]) eines „ok“ für send"
    )


def _offsets(v: object, index: int | None, was: str) -> dict[Hashable, int]:
    if v is None:
        return {}
    if not isinstance(v, Mapping):
        raise UngueltigerVerlauf(
            index, f"{was} trägt {{key: offset}} in value, nicht {wert_text(v, 30)}."
        )
    return {k: ganzzahl(o, index, f"Der Offset von {k}") for k, o in v.items()}


def _nachrichten(p: Operation) -> dict[Hashable, list[tuple[int, Hashable]]]:
    """Das ``msgs`` eines poll: ``{key: [(offset, nachricht), …]}``, geprüft."""
    v, i = p.ausgabe, p.index_ende
    if v is None:
        return {}
    if not isinstance(v, Mapping):
        raise UngueltigerVerlauf(
            i,
            f"Ein „ok“ für poll trägt {{key: [[offset, nachricht], …]}} in value, nicht {wert_text(v, 30)}.",
        )
    msgs = {}
    for k, paare in v.items():
        if not isinstance(paare, list | tuple) or not all(
            isinstance(x, list | tuple) and len(x) == 2 for x in paare
        ):
            raise UngueltigerVerlauf(
                i,
                f"Für {k} erwartet ein poll eine Liste von [offset, nachricht], nicht {wert_text(paare, 30)}.",
            )
        msgs[k] = [(ganzzahl(o, i, f"Ein Offset von {k}"), einfrieren(m, i)) for o, m in paare]
    return msgs


def _ein_poll(
    p: Operation,
    k: Hashable,
    ab: int | None,
    paare: Sequence[tuple[int, Hashable]],
    bekannt: Sequence[int],
    sends: Mapping[Stelle, Sequence[tuple[Operation, Hashable]]],
) -> list[Befund]:
    """Die Offsets eines poll für ein Log: aufsteigend, ab dem angefragten, ohne Lücke."""
    if not paare:
        return []
    befunde = []
    erster = paare[0][0]
    if ab is not None and erster < ab:
        befunde.append(
            Befund(
                f"{_poll(p)} fragte {k} ab Offset {ab} an, lieferte aber zuerst Offset {erster}.",
                (p,),
            )
        )
    elif ab is not None:
        befunde.extend(
            _luecke(
                p,
                k,
                ab - 1,
                erster,
                bekannt,
                sends,
                f"fragte {k} ab Offset {ab} an und beginnt bei {erster}",
            )
        )
    for (o1, _), (o2, _) in pairwise(paare):
        if o2 <= o1:
            befunde.append(
                Befund(
                    f"{_poll(p)} liefert für {k} Offset {o2} nach Offset {o1}: In einem poll müssen die Offsets aufsteigen.",
                    (p,),
                )
            )
            break
        luecke = _luecke(
            p, k, o1, o2, bekannt, sends, f"liefert für {k} nach Offset {o1} gleich {o2}"
        )
        if luecke:
            befunde.extend(luecke)
            break
    return befunde


def _luecke(
    p: Operation,
    k: Hashable,
    unten: int,
    oben: int,
    bekannt: Sequence[int],
    sends: Mapping[Stelle, Sequence[tuple[Operation, Hashable]]],
    was: str,
) -> list[Befund]:
    """Ein Befund, wenn bekannte Offsets echt zwischen ``unten`` und ``oben`` liegen."""
    dazwischen = list(
        bekannt[bisect.bisect_right(bekannt, unten) : bisect.bisect_left(bekannt, oben)]
    )
    if not dazwischen:
        return []
    namen = [str(o) for o in dazwischen[:5]] + (
        [f"{len(dazwischen) - 5} weitere"] if len(dazwischen) > 5 else []
    )
    es = (
        f"Offset {namen[0]} existiert"
        if len(dazwischen) == 1
        else f"die Offsets {und(namen)} existieren"
    )
    zeugen = [s for o in dazwischen[:5] for s, _ in sends.get((k, o), [])[:1]]
    return [Befund(f"{_poll(p)} {was}, obwohl {es}: Er überspringt Nachrichten.", (p, *zeugen))]


def _widerspruch(
    p: Operation,
    k: Hashable,
    o: int,
    m: Hashable,
    sends: Mapping[Stelle, Sequence[tuple[Operation, Hashable]]],
    gesehen: Mapping[Stelle, tuple[Operation, Hashable]],
) -> list[Befund]:
    """Ein Offset trägt genau eine Nachricht: die seines send und jedes früheren poll."""
    if (k, o) in sends:
        s, gesendet = sends[(k, o)][0]
        if gesendet != m:
            return [
                Befund(
                    f"Offset {o} von {k} trägt zwei Nachrichten: {_send(s)} bekam ihn, doch der poll von {wer(p)} ({zeiten(p)}) liefert dort {wert(m)}.",
                    (s, p),
                )
            ]
    elif (k, o) in gesehen and gesehen[(k, o)][1] != m:
        q, frueher = gesehen[(k, o)]
        return [
            Befund(
                f"Offset {o} von {k} trägt zwei Nachrichten: {wert(frueher)} im poll von {wer(q)} ({zeiten(q)}), {wert(m)} im poll von {wer(p)} ({zeiten(p)}).",
                (q, p),
            )
        ]
    return []


def _doppelt(sends: Mapping[Stelle, Sequence[tuple[Operation, Hashable]]]) -> list[Befund]:
    return [
        Befund(
            f"Offset {o} von {k} wurde {len(gleich)}-mal vergeben: an {und([_send(s) for s, _ in gleich])}.",
            tuple(s for s, _ in gleich),
        )
        for (k, o), gleich in sends.items()
        if len(gleich) > 1
    ]


def _positionen(ops: Sequence[Operation]) -> list[Befund]:
    """Die gespeicherte Position eines Logs geht nie zurück (Regel des Kurses)."""
    # Every confirmed commit and every answered list is a lower bound for lists begun later
    # (later in the history: within a tick too), ordered by where each was confirmed.
    schranken: list[tuple[int, Hashable, int, Operation]] = []
    abfragen: list[tuple[Operation, list[Hashable], dict[Hashable, int]]] = []
    for op in ops:
        if op.typ != "ok":
            continue
        if op.f == "commit_offsets":
            for k, a in _offsets(op.eingabe, op.index, "Ein commit_offsets").items():
                schranken.append((op.index_ende or 0, k, a, op))
        elif op.f == "list_committed_offsets":
            if op.eingabe is not None and not isinstance(op.eingabe, list | tuple):
                raise UngueltigerVerlauf(
                    op.index,
                    f"Ein list_committed_offsets trägt [key, …] in value, nicht {wert_text(op.eingabe, 30)}.",
                )
            gemeldet = _offsets(op.ausgabe, op.index_ende, "Ein „ok“ für list_committed_offsets")
            # Without the request, only the keys of the answer can be compared.
            gefragt = list(gemeldet) if op.eingabe is None else list(op.eingabe)
            abfragen.append((op, gefragt, gemeldet))
            for k, c in gemeldet.items():
                schranken.append((op.index_ende or 0, k, c, op))
    schranken.sort(key=lambda s: s[0])
    befunde = []
    hoechste: dict[Hashable, tuple[int, Operation]] = {}
    i = 0
    for op, gefragt, gemeldet in sorted(abfragen, key=lambda a: a[0].index):
        while i < len(schranken) and schranken[i][0] < op.index:
            _, k, a, quelle = schranken[i]
            if k not in hoechste or a > hoechste[k][0]:
                hoechste[k] = (a, quelle)
            i += 1
        for k in gefragt:
            if k not in hoechste or gemeldet.get(k, -1) >= hoechste[k][0]:
                continue
            a, quelle = hoechste[k]
            woher = (
                f"commit_offsets {k}={a} ({wer(quelle)}) war bei t={quelle.ende} bestätigt"
                if quelle.f == "commit_offsets"
                else f"list_committed_offsets von {wer(quelle)} meldete bei t={quelle.ende} {a}"
            )
            jetzt = gemeldet.get(k)
            befunde.append(
                Befund(
                    f"Die gespeicherte Position (Commit) von {k} ging zurück: {woher}, doch "
                    f"list_committed_offsets von {wer(op)} ({zeiten(op)}) meldet "
                    f"{'keine' if jetzt is None else jetzt}.",
                    (quelle, op),
                )
            )
    return befunde
