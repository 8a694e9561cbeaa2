"""pysim.pruefer.transaktionen: each anomaly by example, then against brute-force serial orders."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.fehler import UngueltigeEingabe
from pysim.pruefer import UngueltigerVerlauf, transaktionen

Mop = list[object]


def verlauf(*txns: tuple[str, Sequence[Mop]]) -> list[dict[str, object]]:
    """One process per transaction, one after another; ``typ`` ok, fail or info."""
    aus: list[dict[str, object]] = []
    for p, (typ, mops) in enumerate(txns):
        aufruf = [[f, k, None if f == "r" else v] for f, k, v in mops]
        aus.append({"process": p, "type": "invoke", "f": "txn", "value": aufruf, "time": 2 * p})
        aus.append(
            {
                "process": p,
                "type": typ,
                "f": "txn",
                "value": [list(m) for m in mops],
                "time": 2 * p + 1,
            }
        )
    return aus


OK = "ok"


@pytest.mark.parametrize(
    ("anomalie", "txns", "verboten_ab"),
    [
        (
            "G1a",
            [("fail", [["w", "x", 1]]), (OK, [["r", "x", 1]])],
            "read committed",
        ),
        (
            "G1b",
            [(OK, [["w", "x", 1], ["w", "x", 2]]), (OK, [["r", "x", 1]])],
            "read committed",
        ),
        (
            "G0",
            [
                (OK, [["r", "x", None], ["w", "x", 1], ["r", "y", 2], ["w", "y", 3]]),
                (OK, [["r", "y", None], ["w", "y", 2], ["r", "x", 1], ["w", "x", 4]]),
            ],
            "read committed",
        ),
        (
            "G1c",
            [
                (OK, [["w", "x", 1], ["r", "y", 2]]),
                (OK, [["w", "y", 2], ["r", "x", 1]]),
            ],
            "read committed",
        ),
        (
            "Lost Update",
            [
                (OK, [["r", "x", None], ["w", "x", 1]]),
                (OK, [["r", "x", None], ["w", "x", 2]]),
            ],
            "snapshot isolation",
        ),
        (
            "G-single",
            [
                (OK, [["r", "x", None], ["r", "y", 5]]),
                (OK, [["r", "x", None], ["w", "x", 1], ["r", "y", None], ["w", "y", 5]]),
            ],
            "snapshot isolation",
        ),
        (
            "G2-item",
            [
                (OK, [["r", "x", None], ["r", "y", None], ["w", "x", 1]]),
                (OK, [["r", "x", None], ["r", "y", None], ["w", "y", 2]]),
            ],
            "serialisierbar",
        ),
    ],
)
def test_jede_anomalie_wird_benannt_ab_der_stufe_die_sie_verbietet(
    anomalie: str, txns: list[tuple[str, Sequence[Mop]]], verboten_ab: str
) -> None:
    stufen = ["read committed", "snapshot isolation", "serialisierbar"]
    for stufe in stufen:
        u = transaktionen(verlauf(*txns), stufe=stufe)
        gefunden = anomalie in u.angaben["anomalien"]  # type: ignore[operator]
        assert gefunden == (stufen.index(stufe) >= stufen.index(verboten_ab)), (stufe, u)
        if gefunden:
            assert not u.ok and anomalie in u.erklaerung and u.zeugen


def test_der_kreis_nennt_transaktionen_und_kanten() -> None:
    u = transaktionen(
        verlauf(
            (OK, [["r", "x", None], ["r", "y", None], ["w", "x", 1]]),
            (OK, [["r", "x", None], ["r", "y", None], ["w", "y", 2]]),
        )
    )
    assert "G2-item: Prozess 0 (#0) →rw Prozess 1 (#2) →rw Prozess 0 (#0)." in u.erklaerung


def test_unbekannter_wert_und_inneres_lesen_sind_auf_jeder_stufe_fehler() -> None:
    u = transaktionen(
        verlauf((OK, [["r", "x", 7]]), (OK, [["w", "y", 1], ["r", "y", None]])),
        stufe="read committed",
    )
    assert u.angaben["anomalien"] == ["Unbekannter Wert", "Innen"]


@pytest.mark.parametrize(
    ("wert", "teil"),
    [
        (5, "Der Wert eines txn ist eine Liste"),
        ([["x", "k", 1]], "Eine Mikro-Operation ist"),
    ],
)
def test_ein_falscher_verlauf_sagt_wo(wert: object, teil: str) -> None:
    h = [
        {"process": 0, "type": "invoke", "f": "txn", "value": wert, "time": 0},
        {"process": 0, "type": "ok", "f": "txn", "value": wert, "time": 1},
    ]
    with pytest.raises(UngueltigerVerlauf, match=teil):
        transaktionen(h)


def test_ein_wert_zweimal_geschrieben_ist_ein_falscher_verlauf() -> None:
    with pytest.raises(UngueltigerVerlauf, match="schon einmal geschrieben"):
        transaktionen(verlauf((OK, [["w", "x", 1]]), (OK, [["w", "x", 1]])))


# --- against brute force ---


def _serialisierbar(
    txns: list[list[tuple[str, str, int | None]]], ende: dict[str, int | None] | None = None
) -> bool:
    """Is there an order of the (committed) transactions in which every read sees the state
    the ones before it left (and its own writes), and that ends in ``ende`` (when given)?"""
    for reihenfolge in itertools.permutations(range(len(txns))):
        stand: dict[str, int | None] = {}
        passt = True
        for i in reihenfolge:
            for f, k, v in txns[i]:
                if f == "w":
                    stand[k] = v
                elif stand.get(k) != v:
                    passt = False
                    break
            if not passt:
                break
        if passt and all(stand.get(k) == v for k, v in (ende or {}).items()):
            return True
    return False


@st.composite
def _verlaeufe(
    draw: st.DrawFn, lesen_vor_schreiben: bool
) -> list[list[tuple[str, str, int | None]]]:
    n = draw(st.integers(2, 4))
    zaehler = itertools.count(1)
    txns: list[list[tuple[str, str, int | None]]] = []
    schreibt = [
        [(k, next(zaehler)) for k in draw(st.lists(st.sampled_from("xy"), max_size=2, unique=True))]
        for _ in range(n)
    ]
    werte = {
        "x": [None] + [v for s in schreibt for k, v in s if k == "x"],
        "y": [None] + [v for s in schreibt for k, v in s if k == "y"],
    }
    for i in range(n):
        mops: list[tuple[str, str, int | None]] = []
        gelesen = draw(st.lists(st.sampled_from("xy"), max_size=2, unique=True))
        for k in gelesen:
            mops.append(("r", k, draw(st.sampled_from(werte[k]))))
        for k, v in schreibt[i]:
            if lesen_vor_schreiben and k not in gelesen:
                mops.append(("r", k, draw(st.sampled_from(werte[k]))))
            mops.append(("w", k, v))
        txns.append(mops)
    return txns


def _h(txns: list[list[tuple[str, str, int | None]]]) -> list[dict[str, object]]:
    return verlauf(*[(OK, [list(m) for m in t]) for t in txns])


@settings(max_examples=400, deadline=None)
@given(_verlaeufe(lesen_vor_schreiben=False))
def test_jeder_befund_ist_wirklich_nicht_serialisierbar(
    txns: list[list[tuple[str, str, int | None]]],
) -> None:
    """Sound: a finding at the serializable level means no serial order exists."""
    if not transaktionen(_h(txns)).ok:
        assert not _serialisierbar(txns)


@settings(max_examples=400, deadline=None)
@given(_verlaeufe(lesen_vor_schreiben=True))
def test_liest_jede_transaktion_vor_dem_schreiben_findet_der_pruefer_alles(
    txns: list[list[tuple[str, str, int | None]]],
) -> None:
    """Complete where the version order can be known: every writer read the key first."""
    assert transaktionen(_h(txns)).ok == _serialisierbar(txns)


def test_der_kreis_als_bild_nennt_transaktionen_und_kanten() -> None:
    from pysim.pruefer.kreisbild import kreis_bild

    u = transaktionen(
        verlauf(
            (OK, [["w", "x", 1]]),
            (OK, [["r", "x", 1], ["w", "y", 2]]),
            (OK, [["r", "y", 2], ["r", "z", None]]),
            (OK, [["r", "z", None], ["w", "z", 5], ["r", "x", None]]),
        )
    )
    kreis = u.angaben["kreise"][0]  # type: ignore[index]
    assert kreis["kanten"] == ["rw", "rw", "wr", "wr"]
    svg = kreis_bild(u).svg
    assert svg.count('class="') == 0 and svg.count("<rect") == 5  # background and 4 boxes
    assert "<title>Der Kreis der Anomalie G2-item</title>" in svg
    assert "Prozess 3 (#6) ersetzte, was Prozess 2 (#4) gelesen hatte." in svg
    assert svg.count("stroke-dasharray") == 2  # the two rw edges


def test_ein_urteil_ohne_kreis_hat_kein_bild() -> None:
    from pysim.pruefer.kreisbild import kreis_bild

    u = transaktionen(verlauf((OK, [["w", "x", 1]])))
    with pytest.raises(UngueltigeEingabe, match="keinen Kreis"):
        kreis_bild(u)
    with pytest.raises(UngueltigeEingabe, match="Nummer 0 bis 0"):
        kreis_bild(
            transaktionen(
                verlauf(
                    (OK, [["r", "x", None], ["r", "y", None], ["w", "x", 1]]),
                    (OK, [["r", "x", None], ["r", "y", None], ["w", "y", 2]]),
                )
            ),
            nummer=3,
        )


# --- the final state (``endstand``) ---

#: T1 and T2 both write x and y without reading first; at the end x has T2's value, y T1's.
_G0_OHNE_LESEN = [
    (OK, [["w", "x", 1], ["w", "y", 1]]),
    (OK, [["w", "x", 2], ["w", "y", 2]]),
]


def test_ohne_endstand_bleibt_ein_dirty_write_ohne_lesen_unsichtbar() -> None:
    assert transaktionen(verlauf(*_G0_OHNE_LESEN), stufe="read uncommitted").ok


def test_der_endstand_ordnet_die_versionen_und_zeigt_den_dirty_write() -> None:
    u = transaktionen(verlauf(*_G0_OHNE_LESEN), stufe="read uncommitted", endstand={"x": 2, "y": 1})
    assert not u.ok
    assert u.erklaerung.startswith("Read Uncommitted verletzt: G0: Prozess 0 (#0) →ww")
    assert u.angaben["kreise"][0]["kanten"] == ["ww", "ww"]  # type: ignore[index]
    # the same final state from one transaction: no cycle
    assert transaktionen(
        verlauf(*_G0_OHNE_LESEN), stufe="read uncommitted", endstand={"x": 2, "y": 2}
    ).ok


def test_ein_endstand_none_nach_bestaetigtem_schreiben_ist_verloren() -> None:
    u = transaktionen(
        verlauf((OK, [["w", "x", 1]]), ("info", [["w", "y", 2]])),
        stufe="read uncommitted",
        endstand={"x": None, "y": None},
    )
    assert u.erklaerung == (
        "Read Uncommitted verletzt: Verloren: Prozess 0 (#0) schrieb x = 1 und wurde "
        "bestätigt, aber am Ende hat x keinen Wert (None)."
    )


def test_ein_endstand_den_niemand_schrieb_wird_genannt() -> None:
    u = transaktionen(verlauf((OK, [["w", "x", 1]])), endstand={"x": 7})
    assert "Unbekannter Endstand: Am Ende hat x den Wert 7, den niemand schrieb." in u.erklaerung


def test_read_uncommitted_verbietet_nur_g0() -> None:
    g1a = verlauf(("fail", [["w", "x", 1]]), (OK, [["r", "x", 1]]))
    assert transaktionen(g1a, stufe="read uncommitted").ok
    assert not transaktionen(g1a, stufe="read committed").ok


@st.composite
def _mit_endstand(
    draw: st.DrawFn,
) -> tuple[list[list[tuple[str, str, int | None]]], dict[str, int | None]]:
    txns = draw(_verlaeufe(lesen_vor_schreiben=False))
    werte: dict[str, list[int | None]] = {"x": [None], "y": [None]}
    for t in txns:
        for f, k, v in t:
            if f == "w":
                werte[k].append(v)
    schluessel = draw(st.lists(st.sampled_from("xy"), max_size=2, unique=True))
    return txns, {k: draw(st.sampled_from(werte[k])) for k in schluessel}


@settings(max_examples=400, deadline=None)
@given(_mit_endstand())
def test_mit_endstand_ist_jeder_befund_wirklich_nicht_serialisierbar(
    fall: tuple[list[list[tuple[str, str, int | None]]], dict[str, int | None]],
) -> None:
    """Sound with the inference: a finding means no serial order ends in that final state."""
    txns, ende = fall
    if not transaktionen(_h(txns), endstand=ende).ok:
        assert not _serialisierbar(txns, ende)
