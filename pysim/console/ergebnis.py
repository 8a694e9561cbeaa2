"""Das Ergebnis eines Konsolenbefehls: Text, Bild und was die Oberfläche tun soll."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ConsoleResult:
    """Was ein Befehl der Konsole zurückgibt.

    - ``ok``: ``False`` bei jedem Fehler; der Zustand ist dann unverändert.
    - ``text``: einfacher deutscher Text. Eine Zeile ist ein ganzer Absatz oder eine Zeile
      einer Tabelle; die Seite bricht lange Zeilen selbst um (mit hängendem Einzug). Code
      steht in Backticks (``Meintest du `produce`?``); die Seite zeigt ihn als Code
      (``lessonkit.build.render.CODE``: ein Backtick mitten in Daten bleibt ein Backtick).
    - ``svg``: das Bild nach einem Befehl, der den Zustand ändert oder zeigt; sonst ``None``.
    - ``clear``: ``True`` für ``clear``: Die Oberfläche leert ihren Verlauf.
    - ``command``: das Befehlswort in Normalform (``"consume"``); ``""`` bei einer leeren Zeile,
      einem Kommentar oder einem unbekannten Befehl.
    """

    ok: bool
    text: str
    svg: str | None = None
    clear: bool = False
    command: str = ""

    def to_dict(self) -> dict[str, object]:
        """Die Felder als Dict (genau die fünf Schlüssel)."""
        return asdict(self)

    def to_json(self) -> str:
        """Die Felder als JSON-Text (so gibt der Worker das Ergebnis an die Seite)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def __str__(self) -> str:
        return self.text
