"""``linearisierbar`` an Verläufen von Hand: Urteil, Erklärung und Zeugen."""

from __future__ import annotations

import time

import pytest

from pysim import SimFehler
from pysim.pruefer import linearisierbar, operationen
from pysim.pruefer.erklaerung import erklaere
from pysim.pruefer.grund import finde
from pysim.pruefer.register import REGISTER
from pysim.pruefer.suche import Budget
from tests.pysim.verlaeufe import index, op, verlauf


def zeugen(urteil) -> set[int]:
    return {o.index for o in urteil.zeugen}


def test_veraltetes_lesen_nach_bestaetigtem_schreiben() -> None:
    h = verlauf(
        op(1, "write", 0, 0, 5),
        op(1, "write", 1, 30, 37),
        op(2, "read", 0, 41, 45),
    )
    u = linearisierbar(h)
    assert not u.ok and u.entschieden
    assert u.erklaerung.startswith("Nicht linearisierbar: Schlüssel x. Lesen x → 0 (Prozess 2)")
    assert "(t=41–45)" in u.erklaerung
    assert (
        "Es begann bei t=41, nachdem Schreiben x=1 (Prozess 1) bei t=37 bestätigt war. "
        "Der Wert 0 stammt von Schreiben x=0 (Prozess 1, t=0–5), bestätigt, bevor Schreiben "
        "x=1 bei t=30 begann." in u.erklaerung
    )
    assert (
        "also stand 1 in x gleich nach Schreiben x=1, nach jedem Schreiben von 0 und vor "
        "Lesen x → 0, das 0 so nicht mehr vorfinden kann." in u.erklaerung
    )
    assert zeugen(u) == {index(h, 1, 0), index(h, 1, 30), index(h, 2, 41)}
    assert all(h[o.index]["type"] == "invoke" for o in u.zeugen)
    assert [h[o.index_ende]["time"] for o in u.zeugen] == [5, 37, 45]


def test_veraltetes_lesen_des_anfangswerts() -> None:
    h = verlauf(op(1, "write", 1, 30, 37), op(2, "read", None, 41, 45))
    u = linearisierbar(h)
    assert not u.ok
    assert "Lesen x → None (Prozess 2) lässt sich nicht einordnen" in u.erklaerung
    assert "nachdem Schreiben x=1 (Prozess 1) bei t=37 bestätigt war." in u.erklaerung
    assert zeugen(u) == {0, 2}


def test_wert_springt_zurueck_nachdem_beide_schreiben_fertig_waren() -> None:
    h = verlauf(
        op(1, "write", 1, 0, 10),
        op(2, "write", 2, 0, 10),
        op(3, "read", 2, 11, 12),
        op(4, "read", 1, 13, 14),
    )
    u = linearisierbar(h)
    assert not u.ok
    e = u.erklaerung
    assert "Lesen x → 1 (Prozess 4) lässt sich nicht einordnen (t=13–14)" in e
    assert "nachdem Lesen x → 2 (Prozess 3) bei t=12 bestätigt war." in e
    assert (
        "Der Wert 1 stammt von Schreiben x=1 (Prozess 1, t=0–10), bestätigt, bevor Lesen x → 2 "
        "bei t=11 begann." in e
    )
    assert "Der Wert 2 stammt von Schreiben x=2 (Prozess 2, t=0–10)." in e
    assert "also stand 2 in x gleich nach Lesen x → 2, nach jedem Schreiben von 1 und vor" in e
    # Both writes and both reads are the witnesses.
    assert zeugen(u) == {index(h, p, t) for p, t in ((1, 0), (2, 0), (3, 11), (4, 13))}


def test_gleichzeitige_operationen_sind_in_ordnung() -> None:
    h = verlauf(
        op(1, "write", 1, 0, 20),
        op(2, "write", 2, 5, 25),
        op(3, "read", 2, 6, 8),
        op(4, "read", 1, 9, 30),  # 2 was written first, then 1: both reads fit
        op(3, "read", 1, 31, 32),
    )
    u = linearisierbar(h)
    assert u.ok and u.entschieden and u.zeugen == ()
    assert u.erklaerung.startswith("Linearisierbar: 5 Operationen lassen sich so ordnen")


def test_im_selben_tick_ordnet_die_stelle_im_verlauf() -> None:
    # The write is confirmed at t=5, then the read begins at t=5: the history orders them.
    h = verlauf(op(1, "write", 1, 0, 5), op(2, "read", None, 5, 6))
    assert [e["type"] for e in h] == ["invoke", "ok", "invoke", "ok"]
    assert not linearisierbar(h).ok
    # The read began before the confirmation, in the same tick: they overlap.
    assert linearisierbar([h[0], h[2], h[1], h[3]]).ok


def test_unbestimmtes_schreiben_kann_wirken_oder_nicht() -> None:
    ohne_antwort = op(1, "write", 1, 0, None)
    assert linearisierbar(verlauf(ohne_antwort, op(2, "read", 1, 10, 11))).ok
    assert linearisierbar(verlauf(ohne_antwort, op(2, "read", None, 10, 11))).ok
    info = op(1, "write", 1, 0, 3, typ="info")
    assert linearisierbar(verlauf(info, op(2, "read", None, 10, 11), op(2, "read", 1, 12, 13))).ok
    # Once it took effect, it cannot be undone.
    u = linearisierbar(verlauf(info, op(2, "read", 1, 10, 11), op(2, "read", None, 12, 13)))
    assert not u.ok
    assert "Lesen x → None (Prozess 2) lässt sich nicht einordnen (t=12–13)" in u.erklaerung
    assert "Den Wert None hatte x nur am Anfang." in u.erklaerung
    assert "Der Wert 1 stammt von Schreiben x=1 (Prozess 1, ab t=0, unbestimmt)." in u.erklaerung
    assert zeugen(u) == {0, 2, 4}
    assert (
        "davon 1 unbestimmt" in linearisierbar(verlauf(info, op(2, "read", 1, 10, 11))).erklaerung
    )


def test_fehlgeschlagenes_schreiben_hat_nicht_gewirkt() -> None:
    fehl = op(1, "write", 7, 0, 3, typ="fail")
    assert linearisierbar(verlauf(fehl, op(2, "read", None, 10, 11))).ok
    u = linearisierbar(verlauf(fehl, op(2, "read", 7, 10, 11)))
    assert not u.ok
    assert "Den Wert 7 hat bis t=11 niemand geschrieben." in u.erklaerung
    assert "Schreiben x=7 (Prozess 1, t=0–3) schlug fehl (fail)" in u.erklaerung
    assert zeugen(u) == {0, 2}


def test_lesen_eines_nie_geschriebenen_werts() -> None:
    h = verlauf(op(1, "write", 1, 0, 10), op(3, "read", 9, 11, 12), op(1, "write", 9, 20, 25))
    u = linearisierbar(h)
    assert not u.ok
    assert "Lesen x → 9 (Prozess 3) lässt sich nicht einordnen (t=11–12)." in u.erklaerung
    assert "Den Wert 9 hat bis t=12 niemand geschrieben." in u.erklaerung
    assert "Schreiben x=9 (Prozess 1) begann erst bei t=20." in u.erklaerung
    assert "Die übrige Operation auf x ändert daran nichts" in u.erklaerung


def test_cas() -> None:
    schreiben = op(1, "write", 1, 0, 5)
    assert linearisierbar(
        verlauf(schreiben, op(2, "cas", [1, 2], 6, 8), op(3, "read", 2, 9, 10))
    ).ok
    # A confirmed cas needs the expected value in the register.
    u = linearisierbar(verlauf(schreiben, op(2, "cas", [0, 2], 6, 8)))
    assert not u.ok
    assert "CAS x 0→2 (Prozess 2) lässt sich nicht einordnen (t=6–8)" in u.erklaerung
    assert "Den Wert 0 hat bis t=8 niemand geschrieben." in u.erklaerung
    # A failed cas did nothing; an indeterminate one may have.
    fehl = op(2, "cas", [1, 2], 6, 8, typ="fail")
    assert linearisierbar(verlauf(schreiben, fehl, op(3, "read", 1, 9, 10))).ok
    assert not linearisierbar(verlauf(schreiben, fehl, op(3, "read", 2, 9, 10))).ok
    offen = op(2, "cas", [1, 2], 6, None)
    assert linearisierbar(verlauf(schreiben, offen, op(3, "read", 1, 9, 10))).ok
    assert linearisierbar(verlauf(schreiben, offen, op(3, "read", 2, 9, 10))).ok
    # Two confirmed cas from 1 cannot both have succeeded.
    zwei = verlauf(schreiben, op(2, "cas", [1, 2], 6, 8), op(3, "cas", [1, 3], 6, 8))
    u = linearisierbar(zwei)
    assert not u.ok
    assert (
        "CAS x 1→3 (Prozess 3)" in u.erklaerung and "CAS x 1→2 (Prozess 2, t=6–8)" in u.erklaerung
    )
    assert zeugen(u) == {0, 2, 3}


def test_unabhaengige_schluessel_werden_getrennt_geprueft() -> None:
    # Without keys this would be a stale read; on two keys each register is fine.
    h = verlauf(
        op(1, "write", 1, 0, 5, key="x"),
        op(2, "write", 2, 6, 9, key="y"),
        op(3, "read", 1, 10, 12, key="x"),
        op(3, "read", 2, 13, 14, key="y"),
    )
    u = linearisierbar(h)
    assert u.ok and "auf 2 Schlüsseln" in u.erklaerung
    ohne = [{k: v for k, v in e.items() if k != "key"} for e in h]
    assert not linearisierbar(ohne).ok
    assert linearisierbar(ohne).erklaerung.startswith("Nicht linearisierbar. Lesen → 1 (Prozess 3)")


def test_nur_der_falsche_schluessel_wird_genannt() -> None:
    h = verlauf(
        op(1, "write", 1, 0, 5, key="a"),
        op(1, "write", 1, 6, 9, key="b"),
        op(2, "write", 2, 6, 9, key="a"),
        op(3, "read", 1, 10, 12, key="b"),
        op(3, "read", 1, 13, 14, key="a"),
        op(4, "read", None, 20, 21, key="c"),
        op(4, "read", 5, 22, 23, key="c"),
    )
    u = linearisierbar(h)
    assert not u.ok
    assert u.erklaerung.startswith("Nicht linearisierbar: Schlüssel a. Lesen a → 1 (Prozess 3)")
    assert "Schlüssel b" not in u.erklaerung
    assert u.erklaerung.endswith("Auch Schlüssel c ist nicht linearisierbar.")
    assert {o.schluessel for o in u.zeugen} == {"a"}
    assert u.angaben["fehler_in"] == ["a", "c"]


def test_der_kleinste_grund_aus_einem_langen_verlauf() -> None:
    # An early stale read, then 60 harmless operations: only the three that matter are named.
    ops = [op(1, "write", 1, 0, 2), op(1, "write", 2, 3, 4), op(2, "read", 1, 5, 6)]
    t = 10
    for i in range(20):
        ops += [
            op(1, "write", i, t, t + 1),
            op(2, "read", i, t + 2, t + 3),
            op(3, "read", i, t + 2, t + 4),
        ]
        t += 5
    u = linearisierbar(verlauf(*ops))
    assert not u.ok
    assert "Lesen x → 1 (Prozess 2) lässt sich nicht einordnen (t=5–6)" in u.erklaerung
    assert {(o.prozess, o.beginn) for o in u.zeugen} == {(1, 0), (1, 3), (2, 5)}
    assert "Die übrigen 60 Operationen auf x ändern daran nichts" in u.erklaerung


def test_explodierende_suche_bricht_mit_deutscher_meldung_ab() -> None:
    # Many concurrent writes that nothing orders, then a read the model can never explain only
    # at the end of a long search: the budget stops it.
    ops = [op(p, "write", p, 0, 100) for p in range(1, 19)]
    ops += [op(p, "read", p, 101 + p, 101 + p) for p in range(1, 19)]
    h = verlauf(*ops)
    start = time.perf_counter()
    u = linearisierbar(h, max_schritte=20_000)
    assert time.perf_counter() - start < 10
    assert not u.ok and not u.entschieden
    assert u.erklaerung.startswith(
        "Die Prüfung brach nach 20.000 Schritten ab: Schlüssel x hat bis zu 18 gleichzeitige Operationen"
    )
    assert "das Urteil bleibt offen" in u.erklaerung
    assert "max_schritte" in u.erklaerung
    assert u.angaben["schritte"] == 20_000


def test_ein_gefundener_fehler_bleibt_trotz_abbruch_ein_fehler() -> None:
    schwer = [op(p, "write", p, 0, 100, key="b") for p in range(1, 19)]
    schwer += [op(p, "read", p, 101 + p, 101 + p, key="b") for p in range(1, 19)]
    leicht = [op(30, "write", 1, 0, 5, key="a"), op(31, "read", None, 6, 7, key="a")]
    u = linearisierbar(verlauf(*leicht, *schwer), max_schritte=20_000)
    assert not u.ok and u.entschieden
    assert u.erklaerung.startswith("Nicht linearisierbar: Schlüssel a.")


def test_unbekanntes_modell_und_falsches_budget() -> None:
    with pytest.raises(
        SimFehler, match=r"Das Modell „queue“ gibt es nicht\. Vorhandene Modelle: „register“\."
    ):
        linearisierbar([], model="queue")
    with pytest.raises(SimFehler, match="max_schritte muss mindestens 1 sein"):
        linearisierbar([], max_schritte=0)


def test_leerer_verlauf_ist_linearisierbar() -> None:
    u = linearisierbar([])
    assert u.ok and u.erklaerung.startswith("Linearisierbar: 0 Operationen")


def test_repr_ist_kurz() -> None:
    u = linearisierbar(verlauf(op(1, "write", 1, 0, 37), op(2, "read", None, 41, 45)))
    assert repr(u).startswith("Urteil(ok=False, entschieden=True, erklaerung='Nicht linearisierbar")
    assert repr(u).endswith("zeugen=[#0, #2])")
    assert str(u) == u.erklaerung


def test_zu_knappes_budget_fuer_die_zeugen_sagt_es() -> None:
    # Ten concurrent writes, then two confirmed cas from 1: only one of them can have worked.
    # With too few steps the reason stays true but may name more operations than needed.
    ops = [op(p, "write", p, 0, 100) for p in range(1, 11)]
    ops += [op(50, "cas", [1, 50], 101, 102), op(51, "cas", [1, 51], 101, 102)]
    h = verlauf(*ops)
    teil = operationen(h)
    handlungen = [a for o in teil if (a := REGISTER.handlung(o)) is not None]
    grund = finde(REGISTER, teil, handlungen, Budget(1_000))
    assert not grund.vollstaendig
    saetze, zeugen = erklaere(REGISTER, grund, teil, 1_000)
    assert saetze[-1] == (
        "(Die Suche nach den wenigsten Zeugen brach nach 1.000 Schritten ab; es können mehr "
        "Operationen genannt sein als nötig.)"
    )
    assert grund.schuldig.f == "cas" and grund.schuldig in zeugen
    # With enough steps: just the two cas and the write of 1.
    voll = linearisierbar(h)
    assert {(o.f, o.prozess) for o in voll.zeugen} == {("cas", 50), ("cas", 51), ("write", 1)}


def test_abbruch_nennt_die_geprueften_und_die_offenen_schluessel() -> None:
    leicht = [op(30, "write", 1, 0, 5, key="a"), op(31, "read", 1, 6, 7, key="a")]
    schwer = [op(p, "write", p, 0, 100, key="b") for p in range(1, 19)]
    schwer += [op(p, "read", p, 101 + p, 101 + p, key="b") for p in range(1, 19)]
    spaeter = [op(40, "read", None, 0, 1, key="c"), op(41, "read", None, 0, 1, key="d")]
    u = linearisierbar(verlauf(*leicht, *schwer, *spaeter), max_schritte=20_000)
    assert not u.entschieden
    assert (
        "In Schlüssel a fand sie keinen Fehler; Schlüssel b und 2 weitere Schlüssel bleiben "
        "offen." in u.erklaerung
    )
    assert linearisierbar(verlauf(op(1, "write", 1, 0, 5))).erklaerung == (
        "Linearisierbar: Die eine Operation wirkt in einem Augenblick zwischen ihrem Beginn "
        "und ihrer Bestätigung."
    )


def test_fehlgeschlagene_zaehlen_nicht_zu_den_uebrigen() -> None:
    # Had the failed write of 1 acted late, the read would be fine: it is not one of the
    # operations that "change nothing even if they had acted at any time".
    h = verlauf(
        op(1, "write", 1, 0, 2),
        op(2, "write", 1, 3, 4, typ="fail"),
        op(1, "write", 2, 5, 6),
        op(3, "read", 1, 7, 8),
        op(4, "read", None, 0, None),
    )
    u = linearisierbar(h)
    assert not u.ok
    assert "Die übrige Operation auf x ändert daran nichts" in u.erklaerung
    assert {(o.prozess, o.beginn) for o in u.zeugen} == {(1, 0), (1, 5), (3, 7)}


def test_schluessel_die_keine_namen_sind_stehen_in_klammern() -> None:
    h = verlauf(op(1, "write", 4, 0, 6, key=1), op(2, "read", None, 8, 9, key=1))
    u = linearisierbar(h)
    assert u.erklaerung.startswith(
        "Nicht linearisierbar: Schlüssel [1]. Lesen [1] → None (Prozess 2)"
    )
    assert "nachdem Schreiben [1]=4 (Prozess 1) bei t=6 bestätigt war." in u.erklaerung
    assert "Den Wert None hatte [1] nur am Anfang." in u.erklaerung
