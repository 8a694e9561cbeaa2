"""pysim: die Simulationen des Kurses „Verteilte Systeme“.

Reines Python ohne Abhängigkeiten, in CPython 3.11+ und in Pyodide gleich. Jeder Zufall kommt aus
einem festen Seed, jede Zeit ist simuliert (Ticks): Derselbe Code gibt überall dasselbe Ergebnis.

- ``FakeNetz``: verliert, verdoppelt und verzögert Nachrichten (Lektion 1),
- ``Queue``: Ack, Visibility Timeout, Dead Letter Queue (Lektion 1),
- ``Log``: Topics, Partitionen, Offsets, Consumer-Gruppen, Ausfall und Neuaufteilung wie Kafka
  (Lektion 2),
- ``EventStore``: Event Sourcing, Projektionen, Snapshots, CQRS (Lektion 3),
- ``EventLoop``: ein Modell der Event Loop von JavaScript, Reihenfolge wie Node.js (Lektion 3),
- ``Lastsim``: Last auf einem Dienst mit Workern, Timeouts, Retries (``Wiederholung``),
  Warteschlange mit Grenze und ``Schutzschalter`` (Lektion „Timeouts, Retries und Backpressure“),
- ``Welt``, ``Knoten``: Rechner mit eigenen Uhren, Lamport- und Vektoruhren, Raum-Zeit-Diagramm;
  ``LwwSpeicher`` und ``VersionsSpeicher``: last write wins gegen Versionsvektoren (Lektion
  „Zeit, Ordnung und Kausalität“),
- ``SagaSim``, ``Saga``, ``Schritt``, ``Dienst``: orchestrierte Sagas mit Kompensation,
  Idempotenzschlüsseln, Outbox und Störungen (Lektion „Sagas“),
- ``pysim.idempotenz``: ``ZahlungsSim``, Idempotency Keys in ``sqlite3`` (Lektion 0),
- ``pysim.replikation``: Leader, Follower, Lag, Failover, Quorum (Lektion „Replikation“),
- ``pysim.leases``: Leases, Pausen, Uhren mit Drift und Fencing Tokens (Lektion „Leases“),
- ``pysim.raft``: ``RaftSim``, Leader-Wahl und Log-Replikation mit Raft (Lektion „Konsens“),
- ``pysim.crdt``: Zähler, Register und Mengen, die ohne Absprache verschmelzen (Lektion
  „CRDTs“),
- ``pysim.cluster``: Knoten, die Leser schreiben, unter Störungen (die Herausforderungen),
- ``pysim.stoerung``: simulierte Abstürze für Übungen,
- ``pysim.pruefer``: Prüfer für Verläufe verteilter Läufe (Linearisierbarkeit, eindeutige IDs,
  Broadcast, Zähler, Kafka-Log, Kennzahlen) mit deutschen Urteilen,
- ``SimFehler``: die Basisklasse aller Fehler (deutsche Meldungen).
"""

from .eventloop import EventLoop
from .eventstore import Event, EventStore, Projektion, Projektor, bestand, kontostand
from .fehler import (
    CommitAbgelehnt,
    NichtZugeteilt,
    SimFehler,
    SimulierterAbsturz,
    TopicExistiertSchon,
    UnbekannteGruppe,
    UnbekannteNachricht,
    UnbekannterKnoten,
    UnbekannterStream,
    UnbekanntesTopic,
    UngueltigeEingabe,
    UnveraenderlichFehler,
    VersionsKonflikt,
)
from .last import Anfrage, Ergebnis, Lastsim, Wiederholung
from .last.bild import latenz_vergleich
from .last.schutzschalter import Schutzschalter, ZustandsFehler
from .log import Entfernt, Log, Record
from .netz import FakeNetz
from .queue import Queue
from .saga import (
    Abgelehnt,
    Dienst,
    OrchestratorAusgefallen,
    Saga,
    SagaSim,
    Schritt,
    UnbekannteSaga,
    bestellsaga,
    shop_dienste,
)
from .uhren import (
    Ereignis,
    Knoten,
    LamportUhr,
    Nachricht,
    VektorUhr,
    Welt,
    vereinige,
    vergleiche,
    zufallswelt,
)
from .uhren.versionen import LwwSpeicher, VersionsSpeicher
from .zeit import Zeit

__all__ = [
    "Abgelehnt",
    "Anfrage",
    "CommitAbgelehnt",
    "Dienst",
    "Entfernt",
    "Ereignis",
    "Ergebnis",
    "Event",
    "EventLoop",
    "EventStore",
    "FakeNetz",
    "Knoten",
    "LamportUhr",
    "Lastsim",
    "Log",
    "LwwSpeicher",
    "Nachricht",
    "NichtZugeteilt",
    "OrchestratorAusgefallen",
    "Projektion",
    "Projektor",
    "Queue",
    "Record",
    "Saga",
    "SagaSim",
    "Schritt",
    "Schutzschalter",
    "SimFehler",
    "SimulierterAbsturz",
    "TopicExistiertSchon",
    "UnbekannteGruppe",
    "UnbekannteNachricht",
    "UnbekannteSaga",
    "UnbekannterKnoten",
    "UnbekannterStream",
    "UnbekanntesTopic",
    "UngueltigeEingabe",
    "UnveraenderlichFehler",
    "VektorUhr",
    "VersionsKonflikt",
    "VersionsSpeicher",
    "Welt",
    "Wiederholung",
    "Zeit",
    "ZustandsFehler",
    "bestand",
    "bestellsaga",
    "kontostand",
    "latenz_vergleich",
    "shop_dienste",
    "vereinige",
    "vergleiche",
    "zufallswelt",
]
