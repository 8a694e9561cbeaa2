"""What a front such as ``RaftSim`` needs from the cluster: a shared clock, the network's
random numbers, and the running object of a node (never handed to a node)."""

from __future__ import annotations

import random

import pytest

from pysim.cluster import Cluster, Knoten
from pysim.zeit import Zeit


class Ping(Knoten):
    def beim_start(self) -> None:
        if self.id == "n1":
            self.sende("n2", {"type": "ping"})

    def bei_ping(self, nachricht: object) -> None:
        self.speicher["ping"] = self.uhr()


def test_a_cluster_runs_on_a_clock_it_shares() -> None:
    uhr = Zeit()
    cluster = Cluster(Ping, 2, zeit=uhr, latenz=(3, 3))
    assert cluster.zeit is uhr
    uhr.tick(5)  # the other model's clock drives the cluster
    assert cluster.sendungen[0].schicksal == "zugestellt"
    assert cluster.objekt("n2").speicher == {"ping": 3}  # type: ignore[union-attr]


def test_the_network_draws_from_the_random_numbers_given() -> None:
    def ankunft(zufall: random.Random | None) -> int | None:
        cluster = Cluster(Ping, 2, latenz=(1, 100), netz_zufall=zufall)
        return cluster.sendungen[0].ankunft

    assert ankunft(random.Random(5)) == random.Random(5).randint(1, 100)
    assert ankunft(None) == random.Random(1 * 7919 + 1).randint(1, 100)  # as before


def test_a_front_can_draw_each_message_as_its_old_network_did() -> None:
    spannen: list[tuple[int, int]] = []

    def wurf(spanne: tuple[int, int]) -> tuple[int, ...]:
        spannen.append(spanne)
        return (7, 9) if len(spannen) == 1 else ()

    cluster = Cluster(Ping, 2, latenz=(2, 4), netz_wurf=wurf)
    assert [(s.ankunft, s.kopie) for s in cluster.sendungen] == [(7, 1), (9, 2)]
    assert spannen == [(2, 4)]
    cluster.zeit.tick(10)
    assert cluster.objekt("n2").speicher == {"ping": 9}  # type: ignore[union-attr]
    cluster.sende("n1", "n2", {"type": "ping"})  # the second draw: lost
    assert cluster.sendungen[-1].schicksal == "verloren" and cluster.sendungen[-1].ankunft is None


def test_the_object_of_a_node_is_none_while_it_is_crashed() -> None:
    cluster = Cluster(Ping, 2)
    erstes = cluster.objekt("n1")
    assert isinstance(erstes, Ping)
    cluster.absturz("n1")
    assert cluster.objekt("n1") is None
    cluster.neustart("n1")
    assert cluster.objekt("n1") is not erstes and isinstance(cluster.objekt("n1"), Ping)


class Redselig(Knoten):
    def beim_start(self) -> None:
        print(f"{self.id} startet")


def test_nodes_pysim_brings_print_to_the_caller_and_run_without_a_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cluster = Cluster(Redselig, 2, code_der_leserin=False, max_schritte=1)
    assert capsys.readouterr().out == "n1 startet\nn2 startet\n"
    assert not cluster.protokoll.geschrieben
    Cluster(Redselig, 2)  # the reader's nodes: into the run's log
    assert capsys.readouterr().out == ""
