"""Wie eine Anfrage ihren Knoten findet: drei Wege (DDIA, Kapitel 6, „Request Routing“).

- ``CLIENT``: Der Client kennt die Karte (welcher Knoten welche Partition hat) und fragt direkt
  den Besitzer. Ist seine Karte alt, antwortet der gefragte Knoten mit ``MOVED`` und dem
  richtigen Knoten; der Client fragt dort nach und merkt es sich (Redis Cluster).
- ``SCHICHT``: Eine Routing-Schicht kennt die Karte und leitet weiter; der Client kennt nur sie
  (MongoDBs ``mongos``, Kafka-Clients fragen die Metadaten eines Brokers).
- ``KNOTEN``: Der Client fragt irgendeinen Knoten; der leitet weiter, wenn die Partition nicht
  seine ist (Cassandras Koordinator).

``Client(karte).frage(verteilung, schluessel, art)`` gibt den ``Weg`` zurück: die Stationen und
wie viele Nachrichten er brauchte (Hin und Zurück zählen beide).

Vereinfacht: Kein ``ASK`` während eine Partition gerade umzieht, keine Ausfälle, die Karte der
Routing-Schicht ist immer neu (in echt hält sie ZooKeeper, etcd oder ein Gossip-Protokoll aktuell).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fehler import UngueltigeEingabe
from .verteilung import Verteilung

__all__ = ["ARTEN", "CLIENT", "KNOTEN", "SCHICHT", "Client", "Weg"]

CLIENT = "client"
SCHICHT = "schicht"
KNOTEN = "knoten"
ARTEN = (CLIENT, SCHICHT, KNOTEN)


@dataclass(frozen=True)
class Weg:
    """Der Weg einer Anfrage: ``stationen`` der Reihe nach, ``nachrichten`` insgesamt, und ob ein
    Knoten den Client mit ``MOVED`` woandershin schickte."""

    schluessel: str
    art: str
    stationen: tuple[str, ...]
    nachrichten: int
    moved: bool

    def __str__(self) -> str:
        weg = " → ".join(self.stationen)
        zusatz = " (MOVED: die Karte des Clients war alt)" if self.moved else ""
        return f"{self.schluessel}: {weg}, {self.nachrichten} Nachrichten{zusatz}"


class Client:
    """Ein Client mit seiner Karte (einer ``Verteilung``, vielleicht veraltet)."""

    def __init__(self, karte: Verteilung) -> None:
        self.karte = karte

    def frage(
        self,
        verteilung: Verteilung,
        schluessel: str,
        art: str = CLIENT,
        einstieg: str | None = None,
    ) -> Weg:
        """Schickt eine Anfrage für ``schluessel`` an den Cluster mit der Verteilung
        ``verteilung``. ``einstieg``: der Knoten, den der Client bei ``KNOTEN`` fragt (ohne:
        der erste)."""
        besitzer = verteilung.besitzer(schluessel)
        if art == CLIENT:
            ziel = self.karte.besitzer(schluessel)
            if ziel not in verteilung.knoten:
                # the map names a node that left: the client asks one it knows is there
                ziel = verteilung.knoten[0]
                self.karte = verteilung
            if ziel == besitzer:
                return Weg(schluessel, art, ("Client", besitzer, "Client"), 2, False)
            # Redis: the node answers MOVED with the owner; the client asks again and
            # refreshes its map
            self.karte = verteilung
            stationen = ("Client", ziel, "Client", besitzer, "Client")
            return Weg(schluessel, art, stationen, 4, True)
        if art == SCHICHT:
            stationen = ("Client", "Router", besitzer, "Router", "Client")
            return Weg(schluessel, art, stationen, 4, False)
        if art == KNOTEN:
            erster = einstieg or verteilung.knoten[0]
            if erster not in verteilung.knoten:
                raise UngueltigeEingabe(
                    f"Einen Knoten {erster} gibt es nicht. Es gibt: {', '.join(verteilung.knoten)}."
                )
            if erster == besitzer:
                return Weg(schluessel, art, ("Client", besitzer, "Client"), 2, False)
            stationen = ("Client", erster, besitzer, erster, "Client")
            return Weg(schluessel, art, stationen, 4, False)
        raise UngueltigeEingabe(f"Einen Weg „{art}“ gibt es nicht. Es gibt: {', '.join(ARTEN)}.")
