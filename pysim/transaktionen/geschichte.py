"""Der Verlauf einer ``Datenbank`` als Verlauf von Transaktionen für ``pysim.pruefer``.

Jede beendete Transaktion wird eine Operation ``txn`` ihrer Sitzung: ``ok``, wenn sie
committet ist, ``fail``, wenn sie abbrach. Ihre Mikro-Operationen in der Reihenfolge ihrer
Befehle: ``["r", id, wert]`` für jede Zeile, die ein Befehl las (auch ein ``update`` liest die
Zeile, die es ersetzt), ``["w", id, wert]`` für jede Version, die sie schrieb, ein ``delete``
als ``["w", id, "gelöscht von T1"]``. Der Prüfer braucht je Zeile verschiedene Werte; darum
trägt jeder Wert, wer ihn schrieb: ``"11 von T1"`` (derselbe Wert zweimal von derselben
Sitzung: ``"11 von T1 (2)"``). Die Zeilen vom Anfang schreibt eine erste Transaktion der
Sitzung ``Anfang``. Offene Transaktionen fehlen: Von ihnen steht noch nicht fest, ob sie wirken.
"""

from __future__ import annotations

from typing import Any

from .datenbank import ABGEBROCHEN, AKTIV, Datenbank, Version

ANFANG = "Anfang"


def geschichte(db: Datenbank) -> list[dict[str, Any]]:
    """Der Verlauf (Jepsens Form, ``f="txn"``) der beendeten Transaktionen von ``db``."""
    namen: dict[int, str] = {}
    vergeben: set[tuple[int, str]] = set()

    def wert(v: Version, geloescht_von: str | None = None) -> str:
        if geloescht_von is None and id(v) in namen:
            return namen[id(v)]
        if geloescht_von is not None:
            text = f"gelöscht von {geloescht_von}"
        elif v.xmin == 0:
            text = str(v.wert)
        else:
            text = f"{v.wert} von {db.von(v.xmin).sitzung}"
        kandidat, zahl = text, 1
        while (v.schluessel, kandidat) in vergeben:
            zahl += 1
            kandidat = f"{text} ({zahl})"
        vergeben.add((v.schluessel, kandidat))
        if geloescht_von is None:
            namen[id(v)] = kandidat
        return kandidat

    anfang = [["w", k, wert(vs[0])] for k in db.ids() if (vs := db.versionen(k))[0].xmin == 0]
    ereignisse: list[tuple[int, int, dict[str, Any]]] = [
        (0, 0, _ereignis(ANFANG, "invoke", 0, [[f, k, None] for f, k, _ in anfang])),
        (0, 1, _ereignis(ANFANG, "ok", 1, anfang)),
    ]
    erste: dict[int, int] = {}
    letzte: dict[int, int] = {}
    for i, e in enumerate(db.verlauf, start=1):
        if e.transaktion is not None:
            erste.setdefault(e.transaktion, i)
            letzte[e.transaktion] = i
    for nr in sorted(erste):
        tx = db.von(nr)
        if tx.status == AKTIV:
            continue
        mops = []
        for art, v in tx.ops:
            if art == "r":
                mops.append(["r", v.schluessel, wert(v)])
            elif art == "w":
                mops.append(["w", v.schluessel, wert(v)])
            else:
                mops.append(["w", v.schluessel, wert(v, geloescht_von=tx.sitzung)])
        typ = "fail" if tx.status == ABGEBROCHEN else "ok"
        aufruf = [[f, k, None if f == "r" else w] for f, k, w in mops]
        ereignisse.append(
            (2 * erste[nr], 0, _ereignis(tx.sitzung, "invoke", 2 * erste[nr], aufruf))
        )
        ereignisse.append(
            (2 * letzte[nr] + 1, 1, _ereignis(tx.sitzung, typ, 2 * letzte[nr] + 1, mops))
        )
    return [e for _, _, e in sorted(ereignisse, key=lambda x: (x[0], x[1]))]


def _ereignis(sitzung: str, typ: str, zeit: int, mops: list[list[Any]]) -> dict[str, Any]:
    return {
        "process": sitzung,
        "type": typ,
        "f": "txn",
        "value": mops,
        "time": zeit,
        "client": sitzung,
    }
