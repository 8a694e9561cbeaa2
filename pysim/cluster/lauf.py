"""Ein Lauf: der Knoten der Leserin unter einer Last und einem Störplan, mit seiner Geschichte.

``lauf(MeinKnoten, Broadcast(), knoten=5, seed=3, stoerungen="zufall")`` baut den Cluster,
plant die Operationen der Clients und die Störungen, lässt die Zeit laufen, heilt am Ende alles,
lässt die Schlussoperationen laufen (z. B. ein letztes ``read`` auf jedem Knoten) und gibt den
``Lauf`` zurück: Geschichte, Nachrichten, Störungen, Fehler der Handler. Die ``kennung`` nennt
alles, was den Lauf bestimmt; ``lauf_aus_kennung`` wiederholt ihn genau.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..fehler import UngueltigeEingabe, pruefe_ganzzahl
from .cluster import Cluster
from .dienste import DIENSTE
from .knoten import Knoten
from .lasten import Clients, Geplant, Last
from .stoerungen import FENSTER, Stoerung, als_text, plan_aus_text, zufaelliger_plan

#: After the operations: ticks without faults before the final operations.
RUHE = 40


@dataclass
class Lauf:
    """Was ein Lauf ergab. ``geschichte`` wie bei Jepsen (``pysim.cluster.lasten``)."""

    last: Last
    knoten: int
    seed: int
    dauer: int
    stoerungen: list[Stoerung]
    geplant: list[Geplant]
    cluster: Cluster
    geschichte: list[dict[str, Any]] = field(default_factory=list)

    @property
    def kennung(self) -> str:
        """Alles, was den Lauf bestimmt, in einer Zeile: ``broadcast/k5/s3/d100/12:teile:n1|n2.n3``.
        Die Operationen kommen aus dem Seed; ausgelassene (nach dem Verkleinern) stehen als
        ``-`` und ihre Nummern dahinter."""
        teile = [
            self.last.name,
            f"k{self.knoten}",
            f"s{self.seed}",
            f"d{self.dauer}",
            als_text(self.stoerungen),
        ]
        return "/".join(teile)

    @property
    def fehler(self) -> list[Any]:
        return self.cluster.fehler

    def nachrichten_je_operation(self) -> float:
        """Nachrichten zwischen Knoten je Operation eines Clients (ohne die Schlussoperationen)."""
        operationen = sum(
            1 for e in self.geschichte if e["type"] == "invoke" and e["process"] < 10_000
        )
        return self.cluster.zaehle()["gesendet"] / operationen if operationen else 0.0


def _zufall(seed: int, wofuer: int) -> random.Random:
    """An independent stream per purpose, so that fewer operations do not change the faults."""
    return random.Random(seed * 104_729 + wofuer)


def lauf(
    klasse: type[Knoten],
    last: Last,
    *,
    knoten: int = 3,
    seed: int = 1,
    dauer: int = 100,
    stoerungen: str | Sequence[Stoerung] | None = None,
    arten: Sequence[str] = ("teilung",),
    anzahl_stoerungen: int = 3,
    clients: int | None = None,
    geplant: Sequence[Geplant] | None = None,
    latenz: tuple[int, int] = (1, 5),
    verlust: float = 0.0,
    timeout: int = 30,
    absturz_bei_fehler: bool = False,
) -> Lauf:
    """Ein Lauf von ``klasse`` unter ``last``. ``stoerungen``: ``None`` (keine), ``"zufall"``
    (aus dem Seed gewürfelt, ``arten`` aus ``FENSTER``), ein Text wie aus ``Lauf.kennung``
    oder eine Liste von ``Stoerung``. ``geplant``: die Operationen selbst (sonst aus dem Seed)."""
    pruefe_ganzzahl(dauer, "Die Dauer", 1)
    cluster = Cluster(
        klasse,
        knoten,
        seed=seed,
        latenz=latenz,
        verlust=verlust,
        absturz_bei_fehler=absturz_bei_fehler,
    )
    for name in last.dienste:
        DIENSTE[name](cluster)
    if stoerungen == "zufall":
        plan = zufaelliger_plan(_zufall(seed, 1), cluster.ids, dauer, arten, anzahl_stoerungen)
    elif isinstance(stoerungen, str):
        plan = plan_aus_text(stoerungen, cluster.ids)
    elif stoerungen is None:
        plan = []
    else:
        plan = sorted(stoerungen, key=lambda s: s.zeit)
    for stoerung in plan:
        if not isinstance(stoerung, Stoerung):
            raise UngueltigeEingabe(
                f"Ein Störplan ist eine Liste von Stoerung, nicht {stoerung!r}."
            )
        cluster.zeit.schedule(max(0, stoerung.zeit), stoerung.anwenden, cluster)
    zahl = knoten if clients is None else pruefe_ganzzahl(clients, "Die Zahl der Clients", 1)
    arbeit = Clients(cluster, last, zahl, timeout=timeout)
    operationen = (
        list(geplant) if geplant is not None else last.plane(_zufall(seed, 2), dauer, zahl)
    )
    ergebnis = Lauf(last, knoten, seed, dauer, plan, operationen, cluster, arbeit.geschichte)

    def vorbereiten_senden(ziel: str, body: dict[str, Any]) -> None:
        cluster.sende("c0", ziel, {**body, "msg_id": 0})

    cluster.anmelden(
        "c0", lambda nachricht: None, client=True
    )  # sends setup (topology), ignores replies
    last.vorbereiten(cluster, vorbereiten_senden)
    arbeit.plane(operationen)
    cluster.laufe(dauer)
    _alles_heil(cluster)
    cluster.laufe(dauer + RUHE)
    for k, f, key, value in last.abschluss(list(cluster.ids)):
        arbeit.zusatz(k, f, key, value)
    cluster.laufe(dauer + RUHE + timeout + 1)
    return ergebnis


def _alles_heil(cluster: Cluster) -> None:
    """The end of the faults: the network whole, every node running (clocks stay as they are)."""
    cluster.heile()
    for k in cluster.ids:
        cluster.fortsetzen(k)
        cluster.neustart(k)


__all__ = ["FENSTER", "RUHE", "Lauf", "lauf"]
