"""Wie schnell pysim.pruefer prüft (Zahlen, keine Prüfungen).

    .venv/bin/python benchmarks/bench_pruefer.py

1. Linearisierbarkeit von 2 000 Operationen auf 10 Schlüsseln durch 5 Prozesse: ein Verlauf
   aus einem linearisierbaren Register (jede Operation wirkt in einem zufälligen Augenblick
   ihres Zeitfensters), mit 1 % unbestimmten und 1 % fehlgeschlagenen Operationen. Ziel:
   höchstens 2 s in CPython.
2. Derselbe Verlauf mit einem eingeschmuggelten veralteten Lesen: Urteil samt Erklärung. Und
   dieselben 2 000 Operationen auf nur einem Schlüssel (mehr Gleichzeitigkeit je Register).
3. Der schlimmste Fall für das Budget: n gleichzeitige Schreibende, danach Lesende, die sich
   nicht erklären lassen. Die Suche prüft bis zu n · 2^(n-1) Zustände; gemessen wird, wie
   viele Schritte sie braucht und wann ``MAX_SCHRITTE`` sie abbricht. Die Lesenden erklärt
   die Abkürzung für veraltetes Lesen ohne Suche; statt ihrer zwei bestätigte cas von 1
   brauchen auch für die Erklärung die Suche.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pysim.pruefer import MAX_SCHRITTE, Urteil, linearisierbar

Ereignis = dict[str, Any]


def register_verlauf(operationen: int, schluessel: int, prozesse: int, seed: int) -> list[Ereignis]:
    """Ein linearisierbarer Verlauf: Jeder Prozess führt nacheinander Operationen aus."""
    zufall = random.Random(seed)
    ops: list[dict[str, Any]] = []
    frei = [0] * prozesse
    name = list(range(prozesse))
    for _ in range(operationen):
        p = min(range(prozesse), key=lambda q: (frei[q], q))
        beginn = frei[p] + zufall.randint(0, 3)
        ende = beginn + zufall.randint(1, 20)
        f = zufall.choice(["read", "read", "write", "cas"])
        typ = zufall.choices(["ok", "info", "fail"], weights=[98, 1, 1])[0]
        if f == "read" and typ == "fail":
            typ = "ok"
        ops.append(
            {
                "process": name[p],
                "f": f,
                "key": f"k{zufall.randrange(schluessel)}",
                "wert": zufall.randint(0, 5),
                "neu": zufall.randint(0, 5),
                "typ": typ,
                "beginn": beginn,
                "ende": ende,
                "wirkung": zufall.uniform(beginn, ende),
            }
        )
        frei[p] = ende + 1
        if typ == "info":
            name[p] += prozesse  # like Jepsen: a process that lost an answer gets a new id
    zustand: dict[str, Any] = {}
    for o in sorted(ops, key=lambda o: o["wirkung"]):
        k = o["key"]
        if o["typ"] == "fail":
            continue
        if o["f"] == "read":
            o["aus"] = zustand.get(k)
        elif o["f"] == "write":
            zustand[k] = o["wert"]
        elif zustand.get(k) == o["wert"]:
            zustand[k] = o["neu"]
        elif o["typ"] == "ok":
            o["typ"] = "fail"  # a cas that did not match did nothing
    ereignisse: list[tuple[int, int, Ereignis]] = []
    for i, o in enumerate(ops):
        eingabe = {"read": None, "write": o["wert"], "cas": [o["wert"], o["neu"]]}[o["f"]]
        aus = o.get("aus") if o["f"] == "read" else eingabe
        gemeinsam = {"process": o["process"], "f": o["f"], "key": o["key"]}
        ereignisse.append(
            (
                o["beginn"],
                2 * i,
                {**gemeinsam, "type": "invoke", "value": eingabe, "time": o["beginn"]},
            )
        )
        ereignisse.append(
            (o["ende"], 2 * i + 1, {**gemeinsam, "type": o["typ"], "value": aus, "time": o["ende"]})
        )
    return [e for _, _, e in sorted(ereignisse, key=lambda x: (x[0], x[1]))]


def mit_veraltetem_lesen(verlauf: list[Ereignis]) -> list[Ereignis]:
    """Ein Lesen von k0 ganz am Ende, das den allerersten geschriebenen Wert liefert, nachdem
    ein anderer Wert bestätigt war."""
    ende = verlauf[-1]["time"]
    schreiben = [e for e in verlauf if e["f"] == "write" and e["type"] == "ok" and e["key"] == "k0"]
    alt = next(e["value"] for e in schreiben if e["value"] != schreiben[-1]["value"])
    return [
        *verlauf,
        {
            "process": "x",
            "type": "invoke",
            "f": "write",
            "key": "k0",
            "value": 99,
            "time": ende + 1,
        },
        {"process": "x", "type": "ok", "f": "write", "key": "k0", "value": 99, "time": ende + 2},
        {
            "process": "x",
            "type": "invoke",
            "f": "read",
            "key": "k0",
            "value": None,
            "time": ende + 3,
        },
        {"process": "x", "type": "ok", "f": "read", "key": "k0", "value": alt, "time": ende + 4},
    ]


def schlimmster_fall(n: int) -> list[Ereignis]:
    """n gleichzeitige Schreibende (Werte 1..n), danach n Lesende, die 1, 2, …, n lesen."""
    verlauf = [
        {"process": p, "type": "invoke", "f": "write", "key": "x", "value": p, "time": 0}
        for p in range(1, n + 1)
    ]
    verlauf += [
        {"process": p, "type": "ok", "f": "write", "key": "x", "value": p, "time": 100}
        for p in range(1, n + 1)
    ]
    for p in range(1, n + 1):
        verlauf += [
            {
                "process": p,
                "type": "invoke",
                "f": "read",
                "key": "x",
                "value": None,
                "time": 100 + p,
            },
            {"process": p, "type": "ok", "f": "read", "key": "x", "value": p, "time": 100 + p},
        ]
    return verlauf


def mit_zwei_cas(n: int) -> list[Ereignis]:
    """n gleichzeitige Schreibende, danach zwei gleichzeitige bestätigte cas von 1."""
    verlauf = schlimmster_fall(n)[: 2 * n]
    for p, neu in ((n + 1, 50), (n + 2, 51)):
        verlauf.append(
            {"process": p, "type": "invoke", "f": "cas", "key": "x", "value": [1, neu], "time": 101}
        )
    for p, neu in ((n + 1, 50), (n + 2, 51)):
        verlauf.append(
            {"process": p, "type": "ok", "f": "cas", "key": "x", "value": [1, neu], "time": 102}
        )
    return verlauf


def messen(lauf: Callable[[], Urteil], wiederholungen: int = 3) -> tuple[float, Urteil]:
    besten = float("inf")
    for _ in range(wiederholungen):
        gc.collect()
        start = time.perf_counter()
        urteil = lauf()
        besten = min(besten, time.perf_counter() - start)
    return besten, urteil


def main() -> None:
    print(f"Python {sys.version.split()[0]} ({sys.implementation.name}), bester von 3 Läufen")
    verlauf = register_verlauf(2_000, 10, 5, seed=1)
    for was, fall, ok, ziel in [
        ("10 Schlüssel / 5 Prozesse", verlauf, True, " (Ziel ≤ 2 s)"),
        (
            "10 Schlüssel, ein veraltetes Lesen, samt Erklärung",
            mit_veraltetem_lesen(verlauf),
            False,
            "",
        ),
        ("1 Schlüssel / 5 Prozesse", register_verlauf(2_000, 1, 5, seed=1), True, ""),
    ]:
        sekunden, urteil = messen(lambda fall=fall: linearisierbar(fall))
        assert urteil.ok is ok, urteil.erklaerung
        print(
            f"linearisierbar, 2.000 Operationen, {was}: {sekunden:.3f} s, "
            f"{urteil.angaben['schritte']} Schritte{ziel}"
        )
        if not ok:
            print(f"  {urteil.erklaerung[:160]}…")

    print(f"\nSchlimmster Fall (Budget MAX_SCHRITTE = {MAX_SCHRITTE:,}):")
    print(
        f"{'Fall':>5} {'n':>3} {'Schritte':>10} {'Erklärung':>10} {'Sekunden':>9} {'µs/Schritt':>10}  Urteil"
    )
    for art, n in [
        *(("lesen", n) for n in (8, 10, 12, 13, 14, 16)),
        *(("cas", n) for n in (10, 12, 13)),
    ]:
        fall = schlimmster_fall(n) if art == "lesen" else mit_zwei_cas(n)
        sekunden, urteil = messen(lambda fall=fall: linearisierbar(fall), 1)
        schritte = int(str(urteil.angaben["schritte"]))
        erklaerung = int(str(urteil.angaben.get("schritte_erklaerung", 0)))
        was = "nicht linearisierbar" if urteil.entschieden else "abgebrochen"
        je = sekunden / (schritte + erklaerung) * 1e6
        print(
            f"{art:>5} {n:>3} {schritte:>10,} {erklaerung:>10,} {sekunden:>9.3f} {je:>10.2f}  {was}"
        )


if __name__ == "__main__":
    main()
