"""pysim.cluster: the lock service ``lease`` and the fencing store ``fence-kv`` (lesson 9)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim.cluster import Cluster, FencingKV, Knoten, LeaseDienst, LeaseRegister, Nachricht, lauf
from pysim.cluster.lasten import LASTEN
from tests.pyodide import PyodideRunner, run_natively
from tests.pysim.knoten_beispiele import LEASE_MIT_TOKEN, LEASE_OHNE_TOKEN


class Still(Knoten):
    """A node that does nothing: the tests talk to the services directly."""


def _dienste() -> tuple[Cluster, LeaseDienst, FencingKV, list[tuple[str, dict[str, Any]]]]:
    cluster = Cluster(Still, 3, seed=1)
    lease, speicher = LeaseDienst(cluster), FencingKV(cluster)
    antworten: list[tuple[str, dict[str, Any]]] = []
    cluster.sende = lambda src, dest, body, **_: antworten.append((dest, body))  # type: ignore[method-assign]
    return cluster, lease, speicher, antworten


def test_a_lease_goes_to_one_node_until_it_expires_and_every_grant_has_a_larger_token() -> None:
    cluster, lease, _, antworten = _dienste()
    lease.empfang(Nachricht("n1", "lease", {"type": "acquire", "msg_id": 1}))
    lease.empfang(Nachricht("n2", "lease", {"type": "acquire", "msg_id": 1}))
    assert antworten[0] == (
        "n1",
        {"type": "acquire_ok", "token": 1, "ttl": LeaseDienst.TTL, "in_reply_to": 1},
    )
    assert antworten[1][1]["code"] == 11
    assert antworten[1][1]["holder"] == "n1"
    assert "n1 hält die Lease noch" in antworten[1][1]["text"]
    # The holder renews: a new, larger token.
    lease.empfang(Nachricht("n1", "lease", {"type": "acquire"}))
    assert antworten[2][1]["token"] == 2
    # After the ttl the lease is free: n2 gets it, with a larger token still.
    cluster.laufe(LeaseDienst.TTL)
    lease.empfang(Nachricht("n2", "lease", {"type": "acquire"}))
    assert antworten[3] == ("n2", {"type": "acquire_ok", "token": 3, "ttl": LeaseDienst.TTL})


def test_release_frees_the_lease_only_for_its_holder_and_unknown_requests_are_named() -> None:
    _, lease, _, antworten = _dienste()
    lease.empfang(Nachricht("n1", "lease", {"type": "acquire"}))
    lease.empfang(Nachricht("n2", "lease", {"type": "release"}))
    lease.empfang(Nachricht("n2", "lease", {"type": "acquire"}))
    assert antworten[2][1]["code"] == 11
    lease.empfang(Nachricht("n1", "lease", {"type": "release"}))
    lease.empfang(Nachricht("n2", "lease", {"type": "acquire"}))
    assert antworten[4][1]["type"] == "acquire_ok"
    lease.empfang(Nachricht("n2", "lease", {"type": "lock"}))
    assert antworten[5][1] == {
        "type": "error",
        "code": 10,
        "text": "lease kennt „lock“ nicht, nur acquire und release",
    }


def test_the_store_rejects_an_older_token_and_checks_no_request_without_one() -> None:
    _, _, speicher, antworten = _dienste()

    def an(body: dict[str, Any]) -> dict[str, Any]:
        speicher.empfang(Nachricht("n1", "fence-kv", body))
        return antworten[-1][1]

    assert an({"type": "write", "key": 0, "value": 1, "token": 2}) == {"type": "write_ok"}
    assert an({"type": "write", "key": 0, "value": 9, "token": 1}) == {
        "type": "error",
        "code": 22,
        "text": "Token 1 ist älter als Token 2",
    }
    assert an({"type": "read", "key": 0, "token": 2}) == {"type": "read_ok", "value": 1}
    # A read raises the highest token too: a write begun under an older one is refused.
    assert an({"type": "read", "key": 0, "token": 3}) == {"type": "read_ok", "value": 1}
    assert an({"type": "write", "key": 0, "value": 5, "token": 2})["code"] == 22
    # Without a token nothing is checked (that is what fencing adds).
    assert an({"type": "write", "key": 0, "value": 7}) == {"type": "write_ok"}
    assert an({"type": "read", "key": 0}) == {"type": "read_ok", "value": 7}
    assert an({"type": "cas", "key": 0, "from": 7, "to": 8})["code"] == 10
    assert an({"type": "write", "key": 0, "value": 1, "token": "7"})["code"] == 12
    assert an({"type": "write", "key": 0, "value": 1, "token": True})["code"] == 12


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["read", "write"]), st.integers(0, 6)), max_size=30))
def test_no_request_with_an_older_token_than_an_accepted_one_is_ever_accepted(
    anfragen: list[tuple[str, int]],
) -> None:
    _, _, speicher, antworten = _dienste()
    angenommen: list[int] = []
    for typ, token in anfragen:
        speicher.empfang(
            Nachricht("n1", "fence-kv", {"type": typ, "key": 0, "value": 1, "token": token})
        )
        antwort = antworten[-1][1]
        if antwort.get("code") != 22:
            assert all(token >= frueher for frueher in angenommen)
            angenommen.append(token)
        else:
            assert token < max(angenommen)


def test_the_lease_workload_offers_the_two_services_and_mostly_cas() -> None:
    assert LASTEN["lease-kv"] is LeaseRegister
    assert LeaseRegister().dienste == ("lease", "fence-kv")

    class Nichts(Knoten):
        def bei_read(self, n: Nachricht) -> None:
            self.antworte(n, {"type": "error", "code": 11, "text": "nein"})

        bei_write = bei_cas = bei_read

    ergebnis = lauf(Nichts, LeaseRegister(), seed=1, dauer=60)
    arten = [e["f"] for e in ergebnis.geschichte if e["type"] == "invoke"]
    assert arten.count("cas") > arten.count("read") > 0
    assert all(e["key"] == 0 for e in ergebnis.geschichte)
    # A node that always refuses is safe: nothing wrong, nothing done.
    assert ergebnis.last.pruefe(ergebnis).ok


def test_the_lease_clients_write_first_and_a_cas_expects_what_a_client_saw_last() -> None:
    last = LeaseRegister()
    erste = next(g for g in last.plane(random.Random(7), 60, 3) if g.client == 0)
    assert (erste.f, erste.value) == ("write", 0)
    cluster = Cluster(Still, 3, seed=1)
    last.vorbereiten(cluster, lambda ziel, body: None)
    assert last.beim_aufruf("cas", 0, [1, 2]) == [1, 2]  # nothing seen yet: as planned
    assert last.ergebnis("write", 0, 2, {"type": "write_ok"}) == 2
    assert last.beim_aufruf("cas", 0, [1, 2]) == [2, 0]
    assert last.ergebnis("read", 0, None, {"type": "read_ok", "value": 1}) == 1
    assert last.beim_aufruf("cas", 0, [0, 1]) == [1, 2]
    assert last.ergebnis("cas", 0, [1, 2], {"type": "cas_ok"}) == [1, 2]
    assert last.beim_aufruf("cas", 0, [0, 1]) == [2, 0]
    assert last.beim_aufruf("write", 0, 1) == 1  # only a cas changes
    last.vorbereiten(cluster, lambda ziel, body: None)
    assert last.beim_aufruf("cas", 0, [0, 1]) == [0, 1]  # a new run has seen nothing


LEASE_URTEILE = """
import hashlib, json
from lessonkit.runtime import challenges
from pysim.cluster import FehlerAntwort, KeineAntwort, Knoten

{knoten}
vorgabe = challenges.Vorgabe(
    last="lease-kv", stoerungen=("pause", "absturz"), anzahl_stoerungen=2, seeds=5
)
seeds = []
for seed in range(1, 6):
    o = challenges.seed_outcome(LeaseKnoten, vorgabe, seed, "")
    seeds.append([o["ok"], o["urteil"], o["kennung"],
                  hashlib.sha256(o["svg"].encode()).hexdigest()])
print(json.dumps(seeds, ensure_ascii=False))
"""


def _zellen() -> list[dict[str, str]]:
    return [
        {"session": name, "code": LEASE_URTEILE.replace("{knoten}", quelle), "label": name}
        for name, quelle in (("ohne", LEASE_OHNE_TOKEN), ("mit", LEASE_MIT_TOKEN))
    ]


def _seeds(ergebnis: dict[str, Any]) -> list[list[Any]]:
    assert ergebnis["error"] is None, ergebnis["error"]
    return json.loads("".join(chunk for _, chunk in ergebnis["output"]))


def test_without_a_token_a_seed_fails_with_the_cas_named_and_with_tokens_every_seed_passes() -> (
    None
):
    ohne, mit = (_seeds(e) for e in run_natively(_zellen()))
    gescheitert = [s for s in ohne if not s[0]]
    assert gescheitert
    assert all("lässt sich nicht einordnen" in s[1][0] for s in gescheitert)
    assert gescheitert[0][1][0].startswith("Nicht linearisierbar: Schlüssel [0]. CAS [0]")
    assert all(s[0] for s in mit)


@pytest.mark.pyodide
def test_lease_challenge_verdicts_are_the_same_in_cpython_and_pyodide(
    pyodide: PyodideRunner,
) -> None:
    zellen = _zellen()
    theirs = pyodide.run([{"name": "lease", "cells": zellen}])["pages"][0]["results"]
    ours = run_natively(zellen)
    assert [_seeds(e) for e in theirs] == [_seeds(e) for e in ours]
