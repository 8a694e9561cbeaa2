"""The challenge "Transaktionen" (``pysim.transaktionen.herausforderung``, last
``txn-rw-register``): the workload, its verdict (replies, convergence, availability), every
wrong attempt of the page failing with *its* anomaly, determinism and shrinking."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lessonkit.fences.exercises import sections_with_rows
from lessonkit.runtime import challenges
from lessonkit.runtime.challenges import VORSPANN, Vorgabe, vorgabe_aus_optionen
from pysim.cluster import Knoten, lauf
from pysim.cluster.lauf import Lauf, verkleinere
from pysim.fehler import UngueltigeEingabe
from pysim.transaktionen.herausforderung import TxnRwRegister, urteil
from tests.conftest import ROOT

SEITE = ROOT / "docs" / "herausforderungen" / "transaktionen.md"


@cache
def _bloecke() -> dict[str, tuple[dict[str, str], tuple[tuple[str, str], ...]]]:
    """The page's challenges by id: options and sections (name, text)."""
    text = SEITE.read_text(encoding="utf-8")
    aus = {}
    for kopf, rumpf in re.findall(r"^```herausforderung ([^\n]*)\n(.*?)^```$", text, re.M | re.S):
        optionen = dict(re.findall(r'(\w+)="([^"]*)"', kopf))
        aus[optionen["id"]] = (
            optionen,
            tuple((name, inhalt) for name, inhalt, _ in sections_with_rows(rumpf)),
        )
    return aus


def _vorgabe(stufe: str) -> Vorgabe:
    return vorgabe_aus_optionen(_bloecke()[stufe][0])


def _teil(stufe: str, name: str) -> list[str]:
    return [inhalt for n, inhalt in _bloecke()[stufe][1] if n == name]


def _knoten(code: str) -> type[Knoten]:
    namespace: dict[str, Any] = {"__name__": "herausforderung"}
    exec(VORSPANN + code, namespace)
    return challenges.node_class(namespace)


# --- the workload -------------------------------------------------------------------------------


def test_every_write_value_is_unique_and_every_node_reads_every_key_at_the_end() -> None:
    import random

    last = TxnRwRegister(3, "read committed")
    geplant = last.plane(random.Random(4), 100, 3)
    werte = [m[2] for g in geplant for m in g.value if m[0] == "w"]
    assert werte and len(werte) == len(set(werte))
    assert all(1 <= len(g.value) <= 4 and g.f == "txn" for g in geplant)
    assert last.abschluss(["n1", "n2"]) == [
        ("n1", "txn", None, [["r", 0, None], ["r", 1, None], ["r", 2, None]]),
        ("n2", "txn", None, [["r", 0, None], ["r", 1, None], ["r", 2, None]]),
    ]


def test_an_unknown_level_is_a_german_error_and_the_fence_names_the_levels() -> None:
    with pytest.raises(UngueltigeEingabe, match="isolation=„snapshot“ kennt der Prüfer nicht"):
        TxnRwRegister(2, "snapshot")
    with pytest.raises(ValueError, match="nimmt diese Optionen nicht"):
        vorgabe_aus_optionen({"last": "txn-rw-register", "isolation": "snapshot"})
    assert _vorgabe("transaktionen-3").neue_last().isolation == "read committed"  # type: ignore[attr-defined]


# --- the verdict --------------------------------------------------------------------------------


def _txn(
    p: int, knoten: str, typ: str, aufruf: list[list[Any]], antwort: Any, t: int
) -> list[dict[str, Any]]:
    return [
        {"process": p, "type": "invoke", "f": "txn", "value": aufruf, "time": t,
         "node": knoten, "client": f"c{p + 1}"},
        {"process": p, "type": typ, "f": "txn", "value": antwort, "time": t + 1,
         "node": knoten, "client": f"c{p + 1}"},
    ]  # fmt: skip


def _schluss(knoten: str, x: Any, p: int, t: int) -> list[dict[str, Any]]:
    return _txn(p, knoten, "ok", [["r", 0, None]], [["r", 0, x]], t)


def test_a_reply_that_does_not_fit_its_request_is_named() -> None:
    h = _txn(0, "n1", "ok", [["w", 0, 10], ["r", 0, None]], [["w", 0, 10]], 0)
    u = urteil(h, "read committed")
    assert u.erklaerung == (
        "Client c1, txn bei t=1: Die Antwort passt nicht zur Anfrage (1 Mikro-Operationen "
        "statt 2). txn_ok trägt dieselben Mikro-Operationen, nur die Lesen ausgefüllt."
    )


def test_nodes_that_disagree_at_the_end_are_named_with_key_and_values() -> None:
    h = [
        *_txn(0, "n1", "ok", [["w", 0, 10]], [["w", 0, 10]], 0),
        *_txn(1, "n2", "ok", [["w", 0, 20]], [["w", 0, 20]], 2),
        *_schluss("n1", 10, 10_001, 50),
        *_schluss("n2", 20, 10_002, 52),
    ]
    u = urteil(h, "read uncommitted")
    assert not u.ok
    assert u.erklaerung.startswith(
        "Nicht konvergiert: Nach dem Heilen und 40 Ticks Ruhe hat Schlüssel [0] auf n1 den Wert "
        "10, auf n2 den Wert 20."
    )


def test_an_unanswered_transaction_and_too_many_aborts_break_total_availability() -> None:
    h = [
        *_txn(0, "n1", "info", [["w", 0, 10]], [["w", 0, 10]], 3),
        *_schluss("n1", 10, 10_001, 50),
    ]
    assert urteil(h, "read committed").erklaerung.startswith(
        "Nicht total verfügbar: Client c1, txn bei t=3 auf n1, bekam keine Antwort."
    )
    abgebrochen = [
        e
        for i in range(8)
        for e in _txn(
            i, "n1", "fail" if i % 3 == 0 else "ok", [["w", 0, 10 + i]], [["w", 0, 10 + i]], 2 * i
        )
    ]
    abgebrochen += _schluss("n1", 17, 10_001, 50)
    assert urteil(abgebrochen, "read committed").erklaerung.startswith(
        "Zu viele Abbrüche: 3 von 8 Transaktionen endeten mit einem Fehler (erlaubt: höchstens "
        "25 %)."
    )
    # a short run (a shrunk one) is not held to the share: its anomaly stays what it shows
    assert urteil(abgebrochen[:12] + _schluss("n1", 15, 10_001, 50), "read committed").ok


def test_the_final_state_reaches_the_checker_and_shows_a_dirty_write() -> None:
    """Without the final reads' agreement the cycle of overwrites would stay invisible."""
    h = [
        *_txn(0, "n1", "ok", [["w", 0, 10], ["w", 1, 11]], [["w", 0, 10], ["w", 1, 11]], 0),
        *_txn(1, "n2", "ok", [["w", 0, 20], ["w", 1, 21]], [["w", 0, 20], ["w", 1, 21]], 2),
    ]
    for p, knoten, t in ((10_001, "n1", 50), (10_002, "n2", 52)):
        h += _txn(
            p, knoten, "ok", [["r", 0, None], ["r", 1, None]], [["r", 0, 20], ["r", 1, 11]], t
        )
    u = urteil(h, "read uncommitted")
    assert u.erklaerung.startswith("Read Uncommitted verletzt: G0: Client c1 (#0) →ww")


# --- the page's stages --------------------------------------------------------------------------

#: What each wrong attempt of the page must fail with (its anomaly), stage by stage.
GEBROCHEN = {
    "transaktionen-1": ["Innen:", "Verloren:"],
    "transaktionen-2": ["Nicht konvergiert", "G0:", "Nicht konvergiert", "Nicht konvergiert"],
    "transaktionen-3": ["G1b:", "G1a:", "Innen:"],
}


@pytest.mark.parametrize(
    ("stufe", "nummer", "anomalie"),
    [("transaktionen-2", 1, "G0:"), ("transaktionen-3", 0, "G1b:"), ("transaktionen-3", 1, "G1a:")],
)
def test_the_shrunk_run_a_reader_sees_still_names_the_anomaly(
    stufe: str, nummer: int, anomalie: str
) -> None:
    """What the page shows (``challenges.seed_outcome``: the first failing seed, shrunk)."""
    vorgabe = _vorgabe(stufe)
    klasse = _knoten(_teil(stufe, "fehlversuch")[nummer])
    seed = _erster_scheiternder(vorgabe, klasse)
    aus = challenges.seed_outcome(klasse, vorgabe, seed, "")
    assert aus["ok"] is False and aus["operationen_vorher"] is not None
    assert aus["operationen"] < aus["operationen_vorher"]
    assert any(anomalie in satz for satz in aus["urteil"]), aus["urteil"]


def _erster_scheiternder(vorgabe: Vorgabe, klasse: type[Knoten]) -> int:
    """The first seed of the page on which ``klasse`` fails (the test fails if none does)."""
    gescheitert = (
        seed
        for seed in range(1, vorgabe.seeds + 1)
        if not (run := vorgabe.laufe(klasse, seed)).last.pruefe(run).ok
    )
    seed = next(gescheitert, None)
    assert seed is not None, "Der Fehlversuch besteht jeden Seed der Seite."
    return seed


@pytest.mark.parametrize(
    ("stufe", "nummer"), [(s, i) for s, liste in GEBROCHEN.items() for i in range(len(liste))]
)
def test_every_wrong_attempt_fails_a_seed_of_the_page_with_its_anomaly(
    stufe: str, nummer: int
) -> None:
    versuche = _teil(stufe, "fehlversuch")
    assert len(versuche) == len(GEBROCHEN[stufe])
    vorgabe = _vorgabe(stufe)
    klasse = _knoten(versuche[nummer])
    run = vorgabe.laufe(klasse, _erster_scheiternder(vorgabe, klasse))
    erklaerung = run.last.pruefe(run).erklaerung
    assert GEBROCHEN[stufe][nummer] in erklaerung, erklaerung


def test_the_solution_of_each_stage_passes_the_later_stages_seeds_where_it_should() -> None:
    """Stage 3's solution passes stage 2 too; stage 2's fails stage 3 (it is a wrong attempt
    there); stage 1's start fails every stage with what it forgets."""
    loesung3 = _knoten(_teil("transaktionen-3", "loesung")[0])
    vorgabe2 = _vorgabe("transaktionen-2")
    for seed in range(1, 6):
        run = vorgabe2.laufe(loesung3, seed)
        assert run.last.pruefe(run).ok, seed
    start = _knoten(_teil("transaktionen-1", "start")[0])
    run = _vorgabe("transaktionen-3").laufe(start, 1)
    assert "Innen:" in run.last.pruefe(run).erklaerung


# --- determinism and shrinking ------------------------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(1, 10_000))
def test_the_same_seed_gives_the_same_run(seed: int) -> None:
    vorgabe = _vorgabe("transaktionen-3")
    klasse = _knoten(_teil("transaktionen-3", "loesung")[0])
    a, b = vorgabe.laufe(klasse, seed), vorgabe.laufe(klasse, seed)
    assert a.kennung == b.kennung
    assert a.geschichte == b.geschichte
    assert a.zustaende == b.zustaende
    assert a.last.pruefe(a).erklaerung == b.last.pruefe(b).erklaerung


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(1, 200))
def test_a_shrunk_failing_run_still_fails_with_its_anomaly_and_is_no_larger(seed: int) -> None:
    def g1b(r: Lauf) -> bool:  # the first wrong attempt of stage 3: intermediate reads
        return "G1b:" in r.last.pruefe(r).erklaerung

    run = _vorgabe("transaktionen-3").laufe(
        _knoten(_teil("transaktionen-3", "fehlversuch")[0]), seed
    )
    assume(g1b(run))
    klein = verkleinere(run, g1b, 40)
    assert g1b(klein)
    assert len(klein.geplant) <= len(run.geplant) and len(klein.stoerungen) <= len(run.stoerungen)


def test_a_run_on_the_plain_cluster_api_reads_the_workload_by_name() -> None:
    assert challenges.ALLE_LASTEN["txn-rw-register"] is TxnRwRegister
    run = lauf(_knoten(_teil("transaktionen-1", "loesung")[0]), TxnRwRegister(), knoten=1, seed=3)
    assert run.last.pruefe(run).ok
    assert run.kennung.startswith("txn-rw-register/k1/s3/")


def test_the_clients_ask_as_the_messages_table_says_and_a_malformed_reply_is_named_once() -> None:
    import random

    from pysim.cluster.formen import pruefe_anfrage

    last = TxnRwRegister(3)
    for g in last.plane(random.Random(3), 200, 3):
        assert pruefe_anfrage(last.form(g.f), last.anfrage(g.f, g.key, g.value)) is None

    class Zahl(Knoten):
        def bei_txn(self, n: Any) -> None:
            self.antworte(n, {"type": "txn_ok", "txn": 5})

    run = lauf(Zahl, TxnRwRegister(), knoten=1, seed=1)
    teile = challenges.judge(run, Vorgabe("txn-rw-register", knoten=1), "")
    falsch = [t.erklaerung for t in teile if not t.ok]
    assert falsch[0].startswith("Client c1, txn bei t=")
    assert "„txn“" in falsch[0]
    # the replies in the wrong form are not counted again as unanswered
    assert not any("Nicht total verfügbar" in satz for satz in falsch), falsch
    assert falsch[1] == (
        "Das letzte Lesen auf n1, 40 Ticks nach dem Heilen, bekam eine Antwort in falscher "
        "Form; ein Knoten antwortet auf jede Transaktion mit txn_ok."
    )
