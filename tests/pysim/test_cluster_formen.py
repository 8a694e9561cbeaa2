"""Reply shapes, declared once per workload (``pysim.cluster.formen``).

- Every field of every reply, given a value of each wrong kind (a text, a truth value, a
  huge int, a list of lists, a set, nothing), is a German sentence naming the field and what
  came instead; so is a wrong ``type`` and a malformed error reply.
- The nodes the issue found crashing the checker (a text where a number belongs, a huge int,
  a list of lists where ints belong, a set) now get a verdict: the run ends, the operation is
  indeterminate, ``judge`` has a failed part naming client, operation, time and field, and
  ``seed_outcome`` returns it (no exception reaches the browser).
- What the clients of the course send fits the declarations.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from lessonkit.runtime import challenges
from pysim.cluster import FEHLERCODES, Knoten, lauf
from pysim.cluster.formen import (
    FORMEN,
    FORMFEHLER,
    GRENZE,
    antwortfehler,
    form,
    pruefe_anfrage,
    pruefe_antwort,
    zeige,
)
from pysim.cluster.lasten import LASTEN

# --- every field, every wrong kind ----------------------------------------------------------

#: A value of each kind a reader plausibly sends where it does not belong.
FALSCH: dict[str, Any] = {
    "text": "3",
    "wahrheitswert": True,
    "riesige Zahl": 10**5000,
    "Liste von Listen": [[1], [2]],
    "Menge": {1, 2},
    "Kommazahl": 2.5,
}


def _faelle() -> list[Any]:
    faelle = []
    for last, rpcs in FORMEN.items():
        for rpc in rpcs:
            if rpc.vorbereitung:
                continue
            for feld in rpc.antwort_felder:
                gut = {"type": rpc.antwort, **{f.name: f.beispiel for f in rpc.antwort_felder}}
                for art, wert in FALSCH.items():
                    if feld.art.abweichung(wert, feld.name) is None:
                        continue  # e.g. a text is a fine echo or ID
                    faelle.append(
                        pytest.param(
                            last,
                            rpc.anfrage,
                            feld.name,
                            {**gut, feld.name: wert},
                            wert,
                            id=f"{last}-{rpc.anfrage}-{feld.name}-{art}",
                        )
                    )
                ohne = {k: v for k, v in gut.items() if k != feld.name}
                faelle.append(
                    pytest.param(
                        last,
                        rpc.anfrage,
                        feld.name,
                        ohne,
                        None,
                        id=f"{last}-{rpc.anfrage}-{feld.name}-fehlt",
                    )
                )
    return faelle


@pytest.mark.parametrize(("last", "f", "feld", "body", "wert"), _faelle())
def test_jedes_feld_jede_falsche_art_ist_ein_satz(
    last: str, f: str, feld: str, body: dict[str, Any], wert: Any
) -> None:
    rpc = form(last, f)
    satz = pruefe_antwort(rpc, body)
    assert satz is not None
    art = next(x.art for x in rpc.antwort_felder if x.name == feld)
    if feld not in body:
        assert satz == (
            f"Die Antwort hat type „{rpc.antwort}“, aber kein Feld „{feld}“ (erwartet {art.name})."
        )
    else:
        assert satz.startswith(f"Die Antwort hat type „{rpc.antwort}“, aber „{feld}")
        a = art.abweichung(wert, feld)
        assert a is not None
        assert satz.endswith(f"„{a.pfad}“ ist {zeige(a.wert)}, erwartet {a.erwartet}.")
        if a.pfad == feld:  # the field itself, not an element inside it
            assert a.wert is wert


def test_jede_richtige_antwort_und_jeder_fehler_passen() -> None:
    for rpcs in FORMEN.values():
        for rpc in rpcs:
            gut = {"type": rpc.antwort, **{f.name: f.beispiel for f in rpc.antwort_felder}}
            assert pruefe_antwort(rpc, gut) is None, rpc
            assert pruefe_antwort(rpc, {**gut, "msg_id": 3, "extra": [1]}) is None
            for code in FEHLERCODES:
                assert pruefe_antwort(rpc, {"type": "error", "code": code}) is None
            assert pruefe_antwort(rpc, {"type": "error", "code": 1001, "text": "x"}) is None


@pytest.mark.parametrize(
    ("last", "f", "body", "satz"),
    [
        (
            "lin-kv",
            "read",
            {"type": "read_ok", "value": "3"},
            'Die Antwort hat type „read_ok“, aber „value“ ist "3" (ein Text), erwartet eine '
            "ganze Zahl oder None.",
        ),
        (
            "lin-kv",
            "write",
            {"type": "read_ok", "value": 3},
            "Die Antwort hat type „read_ok“, erwartet „write_ok“ (oder „error“ mit einem code).",
        ),
        (
            "g-counter",
            "read",
            {"type": "read_ok", "value": 10**5000},
            "Die Antwort hat type „read_ok“, aber „value“ ist eine ganze Zahl mit etwa 5001 "
            "Stellen, erwartet eine ganze Zahl ≥ 0 mit höchstens 64 Bit (bis 2⁶³ - 1).",
        ),
        (
            "g-counter",
            "read",
            {"type": "read_ok", "value": -1},
            "Die Antwort hat type „read_ok“, aber „value“ ist -1 (eine ganze Zahl), erwartet "
            "eine ganze Zahl ≥ 0.",
        ),
        (
            "broadcast",
            "read",
            {"type": "read_ok", "messages": [1, [2]]},
            "Die Antwort hat type „read_ok“, aber „messages[1]“ ist [2] (eine Liste), erwartet "
            "eine ganze Zahl.",
        ),
        (
            "kafka",
            "poll",
            {"type": "poll_ok", "msgs": {"k0": [[[0], 42]]}},
            'Die Antwort hat type „poll_ok“, aber „msgs["k0"][0][0]“ ist [0] (eine Liste), '
            "erwartet eine ganze Zahl ≥ 0.",
        ),
        (
            "kafka",
            "poll",
            {"type": "poll_ok", "msgs": {"k0": [42]}},
            'Die Antwort hat type „poll_ok“, aber „msgs["k0"][0]“ ist 42 (eine ganze Zahl), '
            "erwartet ein Paar [Offset, Nachricht].",
        ),
        (
            "kafka",
            "list_committed_offsets",
            {"type": "list_committed_offsets_ok", "offsets": {0: 3}},
            "Die Antwort hat type „list_committed_offsets_ok“, aber „offsets (ein Schlüssel)“ "
            "ist 0 (eine ganze Zahl), erwartet ein Text.",
        ),
        (
            "unique-ids",
            "generate",
            {"type": "generate_ok", "id": None},
            "Die Antwort hat type „generate_ok“, aber „id“ ist None, erwartet ein JSON-Wert "
            "außer None.",
        ),
        (
            "echo",
            "echo",
            {"type": "echo_ok", "echo": {1, 2}},
            "Die Antwort hat type „echo_ok“, aber „echo“ ist {1, 2} (eine Menge (set)), "
            "erwartet ein JSON-Wert: eine Zahl, ein Text, True/False, None, eine Liste oder "
            "ein dict mit Texten als Schlüsseln.",
        ),
        (
            "lin-kv",
            "cas",
            {"type": "error", "code": "22"},
            'Die Antwort hat type „error“, aber „code“ ist "22" (ein Text), erwartet eine '
            "ganze Zahl ≥ 0.",
        ),
        (
            "lin-kv",
            "cas",
            {"type": "error", "text": "anderer Wert"},
            "Die Antwort hat type „error“, aber kein Feld „code“ (erwartet eine ganze Zahl ≥ 0).",
        ),
        (
            "lease-kv",
            "read",
            {"type": "error", "code": 11, "text": ["n2"]},
            'Die Antwort hat type „error“, aber „text“ ist ["n2"] (eine Liste), erwartet ein Text.',
        ),
    ],
)
def test_saetze(last: str, f: str, body: dict[str, Any], satz: str) -> None:
    assert pruefe_antwort(form(last, f), body) == satz


def test_zeige_wirft_nie() -> None:
    tief: Any = 1
    for _ in range(5000):
        tief = [tief]
    assert zeige(tief).endswith("(eine Liste)")
    assert zeige(10**100_000) == "eine ganze Zahl mit etwa 100001 Stellen"
    assert zeige([10**5000]) == "[…] (eine Liste)"
    assert zeige("x" * 100) == '"' + "x" * 38 + "…" + " (ein Text)"
    assert zeige(-(GRENZE)) == f"{-GRENZE} (eine ganze Zahl)"


# --- the clients of the course send what is declared ---------------------------------------


@pytest.mark.parametrize("name", sorted(LASTEN))
def test_die_anfragen_der_clients_passen_zur_erklaerung(name: str) -> None:
    last = LASTEN[name]()
    for g in last.plane(random.Random(3), 200, 3):
        value = last.beim_aufruf(g.f, g.key, g.value)
        body = last.anfrage(g.f, g.key, value)
        assert pruefe_anfrage(last.form(g.f), body) is None, (
            body,
            pruefe_anfrage(last.form(g.f), body),
        )
    assert {rpc.anfrage for rpc in FORMEN[name] if not rpc.vorbereitung} >= {
        g.f for g in last.plane(random.Random(3), 200, 3)
    }


# --- the crashes from the issue are verdicts ------------------------------------------------


class ZaehlerMitText(Knoten):
    """g-counter: answers read with the sum as a text."""

    def beim_start(self) -> None:
        self.summe = 0

    def bei_add(self, n: Any) -> None:
        self.summe += n["delta"]
        self.antworte(n, {"type": "add_ok"})

    def bei_read(self, n: Any) -> None:
        self.antworte(n, {"type": "read_ok", "value": str(self.summe)})


class ZaehlerRiesig(ZaehlerMitText):
    def bei_read(self, n: Any) -> None:
        self.antworte(n, {"type": "read_ok", "value": 10**5000 + self.summe})


class BroadcastListen(Knoten):
    """broadcast: keeps each message as a one-element list."""

    def beim_start(self) -> None:
        self.werte: list[list[int]] = []

    def bei_topology(self, n: Any) -> None:
        self.antworte(n, {"type": "topology_ok"})

    def bei_broadcast(self, n: Any) -> None:
        self.werte.append([n["message"]])
        self.antworte(n, {"type": "broadcast_ok"})

    def bei_read(self, n: Any) -> None:
        self.antworte(n, {"type": "read_ok", "messages": self.werte})


class KafkaOffsetAlsText(Knoten):
    """kafka: a local log per key, offsets sent back as text, polls with nested offsets."""

    def beim_start(self) -> None:
        self.logs: dict[str, list[int]] = {}

    def bei_send(self, n: Any) -> None:
        log = self.logs.setdefault(n["key"], [])
        log.append(n["msg"])
        self.antworte(n, {"type": "send_ok", "offset": str(len(log) - 1)})

    def bei_poll(self, n: Any) -> None:
        msgs = {k: [[[i], m] for i, m in enumerate(log)] for k, log in self.logs.items()}
        self.antworte(n, {"type": "poll_ok", "msgs": msgs})

    def bei_commit_offsets(self, n: Any) -> None:
        self.antworte(n, {"type": "commit_offsets_ok"})

    def bei_list_committed_offsets(self, n: Any) -> None:
        self.antworte(n, {"type": "list_committed_offsets_ok", "offsets": {}})


class RegisterMitMenge(Knoten):
    """lin-kv, one node: reads answer a set of the values written."""

    def beim_start(self) -> None:
        self.werte: dict[int, set[int]] = {}

    def bei_write(self, n: Any) -> None:
        self.werte.setdefault(n["key"], set()).add(n["value"])
        self.antworte(n, {"type": "write_ok"})

    def bei_cas(self, n: Any) -> None:
        self.antworte(n, {"type": "error", "code": 22, "text": "nein"})

    def bei_read(self, n: Any) -> None:
        if n["key"] not in self.werte:
            self.antworte(n, {"type": "error", "code": 20})
        else:
            self.antworte(n, {"type": "read_ok", "value": self.werte[n["key"]]})


ABSTURZ_FAELLE = [
    pytest.param(ZaehlerMitText, "g-counter", 3, "read", '„value“ ist "', id="text-statt-zahl"),
    pytest.param(
        ZaehlerRiesig, "g-counter", 3, "read", "eine ganze Zahl mit etwa 5001", id="riesig"
    ),
    pytest.param(BroadcastListen, "broadcast", 1, "read", "„messages[0]“ ist [", id="listen"),
    pytest.param(KafkaOffsetAlsText, "kafka", 1, "send", '„offset“ ist "0"', id="offset-text"),
    pytest.param(RegisterMitMenge, "lin-kv", 1, "read", "(eine Menge (set))", id="menge"),
]


@pytest.mark.parametrize(("klasse", "last", "knoten", "f", "stueck"), ABSTURZ_FAELLE)
def test_eine_antwort_in_falscher_form_ist_ein_urteil_kein_absturz(
    klasse: type[Knoten], last: str, knoten: int, f: str, stueck: str
) -> None:
    run = lauf(klasse, LASTEN[last](), knoten=knoten, seed=1)
    falsch = [e for e in run.geschichte if e.get("error", [None])[0] == FORMFEHLER]
    assert falsch and all(e["type"] == "info" for e in falsch)
    run.last.pruefe(run)  # the workload's checker never sees the value: no exception
    form_ = antwortfehler(run.geschichte)
    assert form_ is not None
    erster = falsch[0]
    assert form_.text.startswith(
        f"Client {erster['client']}, {erster['f']} bei t={erster['time']}: Die Antwort hat type"
    ), form_.text
    assert erster["f"] == f and stueck in form_.text, form_.text
    assert run.geschichte[form_.zeugen[0]]["type"] == "invoke"
    assert form_.zeugen[-1] == run.geschichte.index(erster)

    vorgabe = challenges.Vorgabe(last, knoten=knoten, seeds=1)
    teile = challenges.judge(run, vorgabe, "")
    assert not teile[0].ok and teile[0].erklaerung == form_.text
    outcome = challenges.seed_outcome(klasse, vorgabe, 1, "")
    assert outcome["ok"] is False and outcome["error"] is None
    assert any(stueck in u and "Die Antwort hat type" in u for u in outcome["urteil"]), outcome


def test_fehler_20_zaehlt_nur_bei_lin_kv_als_none() -> None:
    """A g-counter read answered with error 20 was ``ok None`` (a crash of the checker)."""

    class Zaehler20(ZaehlerMitText):
        def bei_read(self, n: Any) -> None:
            self.antworte(n, {"type": "error", "code": 20})

    run = lauf(Zaehler20, LASTEN["g-counter"](), knoten=1, seed=1)
    lesen = [e for e in run.geschichte if e["f"] == "read" and e["type"] != "invoke"]
    assert lesen and all(e["type"] == "fail" for e in lesen)
    assert not run.last.pruefe(run).ok  # no read succeeded: the final value stays unchecked

    class Vergesslich(RegisterMitMenge):
        def bei_read(self, n: Any) -> None:
            self.antworte(n, {"type": "error", "code": 20})

    run = lauf(Vergesslich, LASTEN["lin-kv"](), knoten=1, seed=1)
    lesen = [e for e in run.geschichte if e["f"] == "read" and e["type"] != "invoke"]
    assert lesen and all(e["type"] == "ok" and e["value"] is None for e in lesen)
