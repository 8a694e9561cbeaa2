"""Die Prüfer an Geschichten echter Läufe von ``pysim.cluster``."""

from __future__ import annotations

from pysim.cluster import Broadcast, Knoten, Nachricht, Register, Stoerung, lauf
from pysim.pruefer import broadcast, kennzahlen, linearisierbar
from tests.pysim.knoten_beispiele import Arbeitsspeicher

TRENNUNG = [Stoerung(10, "teile", seiten=(("n1", "n2"), ("n3",))), Stoerung(40, "heile")]


class Weitersager(Knoten):
    """Gibt jeden neuen Wert einmal an alle anderen weiter, ohne Wiederholung."""

    def beim_start(self) -> None:
        self.werte: set[int] = set()

    def bei_topology(self, n: Nachricht) -> None:
        self.antworte(n, {"type": "topology_ok"})

    def bei_broadcast(self, n: Nachricht) -> None:
        if "msg_id" in n.body:
            self.antworte(n, {"type": "broadcast_ok"})
        if n["message"] not in self.werte:
            self.werte.add(n["message"])
            for k in self.knoten:
                if k != self.id:
                    self.sende(k, {"type": "broadcast", "message": n["message"]})

    def bei_read(self, n: Nachricht) -> None:
        self.antworte(n, {"type": "read_ok", "messages": sorted(self.werte)})


def test_broadcast_ohne_wiederholung_verliert_in_der_trennung() -> None:
    ergebnis = lauf(Weitersager, Broadcast("alle"), knoten=3, seed=1, dauer=60, stoerungen=TRENNUNG)
    u = broadcast(ergebnis.geschichte, geheilt=60)
    assert not u.ok
    assert "Knoten n3 fehlen" in u.erklaerung or "Knoten n3 kennt" in u.erklaerung
    gelesen = {o.knoten for o in u.zeugen if o.f == "read"}
    assert gelesen and all(o.beginn >= 60 for o in u.zeugen if o.f == "read")
    ohne = lauf(Weitersager, Broadcast("alle"), knoten=3, seed=1, dauer=60)
    assert broadcast(ohne.geschichte, geheilt=60).ok


def test_register_je_knoten_ist_nur_mit_einem_knoten_linearisierbar() -> None:
    einer = lauf(Arbeitsspeicher, Register(), knoten=1, seed=2, dauer=80)
    assert linearisierbar(einer.geschichte).ok
    drei = lauf(Arbeitsspeicher, Register(), knoten=3, seed=2, dauer=80)
    u = linearisierbar(drei.geschichte)
    assert not u.ok and u.entschieden
    assert u.erklaerung.startswith("Nicht linearisierbar: Schlüssel [")
    k = kennzahlen(drei.geschichte, nachrichten=drei.cluster.zaehle()["gesendet"])
    assert k.operationen == len([e for e in drei.geschichte if e["type"] == "invoke"])
