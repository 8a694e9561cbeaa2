"""A node that floods the network ends its run soon (issue 47): the cluster counts messages and
timers when they are scheduled, so a flood, which has as many messages on the wire as it has
handled, reaches the limit after about half the work; a correct node's run is unchanged."""

from __future__ import annotations

import pytest

from pysim.cluster import Cluster, Knoten, LaufAbgebrochen, Nachricht
from pysim.cluster.cluster import ZUGESTELLT


class Verdoppler(Knoten):
    """Answers every ping with two: the messages on the wire double every round."""

    def bei_ping(self, n: Nachricht) -> None:
        for _ in range(2):
            self.sende(n.src, {"type": "ping"})


def test_a_flood_ends_once_the_limit_is_scheduled_not_once_it_is_handled() -> None:
    cluster = Cluster(Verdoppler, 2, max_ereignisse=1_000)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("n2", "n1", {"type": "ping"})
    with pytest.raises(LaufAbgebrochen, match="nach 1000 Ereignissen ab"):
        cluster.laufe(10_000)
    zugestellt = sum(1 for s in cluster.sendungen if s.schicksal == ZUGESTELLT)
    assert len(cluster.sendungen) > 1_000  # what was sent, delivered or not
    assert zugestellt < 600  # handled: about half of it


def test_a_node_that_stops_after_many_messages_is_no_flood() -> None:
    class Zaehlt(Knoten):
        def bei_ping(self, n: Nachricht) -> None:
            if n["rest"]:
                self.sende(n.src, {"type": "ping", "rest": n["rest"] - 1})

    cluster = Cluster(Zaehlt, 2, max_ereignisse=1_000)
    cluster.sende("n2", "n1", {"type": "ping", "rest": 998})
    cluster.laufe(10_000)
    assert len(cluster.sendungen) == 999
