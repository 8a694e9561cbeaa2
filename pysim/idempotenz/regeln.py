"""Die Regeln eines Idempotenzschlüssels beim Server, als eine Tabelle.

Ein Schlüssel ist für den Server ``frei`` (nie gesehen, oder sein Eintrag ist abgelaufen),
``in Arbeit`` (eine Anfrage mit ihm wird gerade bearbeitet) oder ``gespeichert`` (Wirkung und
Antwort stehen in der Datenbank). Die Ereignisse:

- ``anfrage``: eine Anfrage mit dem Schlüssel kommt an. Frei: Die Bearbeitung beginnt. In Arbeit:
  Die Antwort ist ein Konflikt (409), es ändert sich nichts. Gespeichert: Der Server schickt die
  gespeicherte Antwort noch einmal, es ändert sich nichts.
- ``fertig``: die Bearbeitung ist abgeschlossen, Wirkung und Antwort sind gespeichert.
- ``absturz``: der Server stürzt ab. Was gerade bearbeitet wurde, ist verloren; ob die Wirkung
  trotzdem blieb, hängt davon ab, ob sie in derselben Transaktion stand wie die Antwort.
- ``ablauf``: der gespeicherte Eintrag ist älter als die Aufbewahrungszeit und wird gelöscht.

Nachgeschlagen wird mit ``pysim.uebergaenge`` (``UEBERGAENGE.uebergang``): ``None`` heißt
„erlaubt, nichts ändert sich“, ein fehlendes Paar ist ein Fehler in pysim.
"""

from __future__ import annotations

from ..uebergaenge import Regeltabelle

FREI = "frei"
IN_ARBEIT = "in Arbeit"
GESPEICHERT = "gespeichert"

ANFRAGE = "anfrage"
FERTIG = "fertig"
ABSTURZ = "absturz"
ABLAUF = "ablauf"

ZUSTAENDE = (FREI, IN_ARBEIT, GESPEICHERT)

#: (Zustand des Schlüssels, Ereignis) -> neuer Zustand, geschrieben je Zustand (``None``:
#: erlaubt, nichts ändert sich).
UEBERGAENGE = Regeltabelle.je_zustand(
    {
        FREI: {ANFRAGE: IN_ARBEIT, ABSTURZ: None},
        IN_ARBEIT: {
            ANFRAGE: None,  # 409 Conflict: the first attempt is still running
            FERTIG: GESPEICHERT,
            ABSTURZ: FREI,  # the lock dies with the process
        },
        GESPEICHERT: {
            ANFRAGE: None,  # the stored response, sent again
            ABSTURZ: None,  # committed rows survive a crash
            ABLAUF: FREI,
        },
    }
)

#: Wie der Server mit Anfragen umgeht (``ZahlungsSim(modus=…)``).
OHNE = "ohne"  # keine Schlüssel: jede Anfrage, die ankommt, belastet
GETRENNT = "getrennt"  # Schlüssel, aber Buchung und Antwort in zwei Transaktionen
ATOMAR = "atomar"  # Schlüssel, Buchung und Antwort in einer Transaktion

MODI = {
    OHNE: "ohne Idempotenzschlüssel",
    GETRENNT: "mit Schlüssel, Buchung und Antwort in zwei Transaktionen",
    ATOMAR: "mit Schlüssel, Buchung und Antwort in einer Transaktion",
}

#: Statuscodes, die der Server schickt, und ihr Wort im Verlauf.
STATUS = {
    201: "angelegt",
    409: "Konflikt: noch in Arbeit",
    422: "abgelehnt: anderer Inhalt",
}
