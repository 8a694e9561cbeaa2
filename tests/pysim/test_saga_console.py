"""The saga console: commands, German errors that change nothing, completion, picture."""

from __future__ import annotations

from lessonkit.runtime.consoles import KINDS
from pysim.console import SagaKonsole
from tests.pysim.konsolen import absaetze_ganz, ausfuehren


def test_ablehnung_und_kompensation() -> None:
    k = SagaKonsole()
    assert ausfuehren(k, "stoerung ablehnen versand").ok
    r = ausfuehren(k, "start b7")
    assert r.ok and r.svg
    assert "→ zahlung: abbuchen" in r.text
    r = ausfuehren(k, "tick 20")
    assert "versand lehnt ab" in r.text
    assert k.sim.zustand("b7") == "kompensiert"
    r = ausfuehren(k, "status")
    assert "Saga b7: kompensiert" in r.text
    assert "kunde=100" in r.text


def test_orchestrator_wartet_auf_neustart() -> None:
    k = SagaKonsole()
    for zeile in ("stoerung orchestrator lager", "start b7", "tick 10"):
        assert ausfuehren(k, zeile).ok
    assert not k.sim.orchestrator_laeuft
    assert "neustart orchestrator" in ausfuehren(k, "tick").text
    r = ausfuehren(k, "neustart orchestrator")
    assert "→ versand: beauftragen" in r.text
    ausfuehren(k, "tick 10")
    assert k.sim.zustand("b7") == "abgeschlossen"


def test_vervollstaendigung() -> None:
    k = SagaKonsole()
    ausfuehren(k, "start b7")
    assert k.complete("st") == ["start", "status", "stoerung"]
    assert k.complete("stoerung v") == ["verspaetet"]
    assert k.complete("stoerung doppelt ") == ["lager", "mail", "versand", "zahlung"]
    assert k.complete("stoerung doppelt zahlung ") == ["kompensation"]
    assert k.complete("status ") == ["b7"]
    assert k.complete("neustart ") == ["orchestrator"]


def test_hilfe_aus_der_tabelle() -> None:
    k = SagaKonsole()
    text = ausfuehren(k, "hilfe").text
    for name in ("start", "stoerung", "tick", "neustart", "status"):
        assert name in text
    assert "verspaetet" in ausfuehren(k, "hilfe stoerung").text
    absaetze_ganz(text)


def test_lessonkit_kennt_die_konsole() -> None:
    k = KINDS["saga"]({})
    assert isinstance(k, SagaKonsole)
    assert k.run("start b7").ok


def test_jede_konsole_zeigt_ihr_modell_als_modell() -> None:
    """Exercise checks read every kind's model the same way (``modell``)."""
    eigener_name = {
        "log": "log",
        "partition": "p",
        "queue": "queue",
        "raft": "sim",
        "replik": "speicher",
        "saga": "sim",
        "sql": "db",
    }
    assert set(KINDS) == set(eigener_name)
    for kind, neue_konsole in KINDS.items():
        konsole = neue_konsole({})
        assert konsole.modell is getattr(konsole, eigener_name[kind])
