"""Die Hilfetexte, erzeugt aus der Befehlstabelle (eine Quelle für Syntax und Beispiele)."""

from __future__ import annotations

from .parser import Befehl, Befehlstabelle


def uebersicht(tabelle: Befehlstabelle, titel: str, beispiel: str) -> str:
    """``hilfe``: jeder Befehl mit einer kurzen Beschreibung."""
    befehle = [b for b in tabelle.befehle if b.vervollstaendigen]
    breite = max(len(b.name) for b in befehle)
    zeilen = [titel]
    for b in befehle:
        zeilen.append(f"  {b.name:<{breite}}  {b.kurz}")
    versteckt = [b.name for b in tabelle.befehle if not b.vervollstaendigen]
    if versteckt:
        zeilen.append(f"  {' / '.join(versteckt)}: gibt es nicht (siehe hilfe {versteckt[0]})")
    zeilen.append(f"Mehr zu einem Befehl: hilfe <befehl>, z. B. hilfe {beispiel}")
    return "\n".join(zeilen)


def details(befehl: Befehl) -> str:
    """``hilfe <befehl>``: Syntax, Erklärung und Beispiele."""
    zeilen = [befehl.syntax]
    zeilen.append("")
    zeilen.append(befehl.kurz[0].upper() + befehl.kurz[1:] + ".")
    zeilen.extend(befehl.erklaerung)
    if befehl.beispiele:
        zeilen.append("Beispiel:" if len(befehl.beispiele) == 1 else "Beispiele:")
        zeilen.extend(f"  {b}" for b in befehl.beispiele)
    if befehl.aliase:
        zeilen.append("Auch: " + ", ".join(befehl.aliase))
    return "\n".join(zeilen)
