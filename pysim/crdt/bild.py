"""Der Verlauf einer ``CrdtSim`` als SVG (gezeichnet von ``pysim.raumzeit``): je Replikat eine
Spalte, die Zeit läuft nach unten.

- Jedes Ereignis ist ein Punkt auf der Linie seines Replikats: hell für eine lokale Änderung
  (``+2``, ``−1``, ``= rot``, ``+ milch``, ``− milch``), blau für ``sync`` (der Zustand geht an
  alle anderen), blau umrandet für ``merge`` (``← B``; „gleich“, wenn sich nichts änderte, etwa bei
  einem Duplikat). Darunter steht der Wert des Replikats danach.
- Ein Pfeil ist ein Zustand auf dem Weg, vom ``sync`` zum ``merge``. Rot gestrichelt mit ✗: Der
  Empfänger verwarf ihn, weil eine Netzpartition dazwischen lag (oder er abgestürzt war).
- Eine gestrichelte Linie quer über alle Spalten markiert den Beginn oder das Ende einer Netzpartition
  (oder den Absturz und Neustart eines Replikats).
- Ganz unten steht der Endstand jedes Replikats, ob alle gleich sind, und eine Legende der Punkte.
- Zeilen ohne Ereignis lässt das Bild weg: Der Abstand zweier Zeilen sagt nichts über die Dauer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..raumzeit import Bahn, Marke, Pfeil, Raumzeit, zeichne
from ..raumzeit import Ereignis as Ereignis_
from ..svg import Bild, Eintrag
from .typen import kurz_wert

if TYPE_CHECKING:
    from .modell import CrdtSim, Ereignis

SPALTE = 116
PUNKT = 10
ZEICHEN = 13  # so viele Zeichen passen neben einen Punkt (11 px, Monospace)
MAX_EREIGNISSE = 40

KURZ = {
    "erhoehe": "+",
    "verringere": "−",
    "hinzufuegen": "+ ",
    "entfernen": "− ",
    "setze": "= ",
}


def _hinten(text: str, zeichen: int = ZEICHEN) -> str:
    return text if len(text) <= zeichen else text[: zeichen - 1] + "…"


def _etikett(e: Ereignis) -> str:
    """Die Zeile neben dem Punkt: die Operation, kurz."""
    if e.art == "lokal":
        name, _, rest = e.text.partition("(")
        argumente = rest[:-1]
        if name in ("erhoehe", "verringere") and not argumente:
            argumente = "1"
        if argumente.startswith("'") and argumente.endswith("'") and "," not in argumente:
            argumente = argumente[1:-1]
        return KURZ.get(name, name + " ") + argumente
    if e.art == "senden":
        return "sync"
    if e.art == "merge":
        von = e.text.rsplit(" ", 1)[-1]
        return f"← {von}" + ("" if e.geaendert else ", gleich")
    von = e.text.split()[2]
    return f"✗ ← {von}"


#: The legend: (label, fill, border) of each kind of point, in the order drawn.
LEGENDE: tuple[tuple[str, str, str], ...] = (
    ("lokal geändert", "cell", "fg"),
    ("sync", "accent", "accent"),
    ("merge", "read", "accent"),
    ("verworfen", "bg", "warn"),
)


def beschreibung(sim: CrdtSim) -> str:
    """Was das Bild zeigt, in Worten (``<desc>`` für Screenreader)."""
    werte = "; ".join(f"{n}: {kurz_wert(sim[n].crdt)}" for n in sim.namen)
    merges = sum(1 for e in sim.ereignisse if e.art == "merge")
    verworfen = sum(1 for e in sim.ereignisse if e.art == "verworfen")
    verloren = len(sim.verloren())
    teile = [
        f"{len(sim.namen)} Replikate eines {sim.typ.NAME} bei t={sim.now}.",
        f"{len(sim.ereignisse)} Ereignisse, {merges} Zusammenführungen (merge)",
    ]
    if verworfen:
        teile[-1] += f", {verworfen} an einer Netzpartition verworfen"
    if verloren:
        teile[-1] += f", {verloren} Nachrichten verloren"
    teile[-1] += "."
    gleich = (
        "Alle Replikate sind gleich." if sim.konvergiert() else "Die Replikate sind verschieden."
    )
    teile.append(f"Stand jetzt: {werte}. {gleich}")
    if sim.netz.unterwegs:
        teile.append(f"{sim.netz.unterwegs} Zustände sind noch unterwegs.")
    return " ".join(teile)


def verlauf_bild(sim: CrdtSim, titel: str | None = None) -> Bild:
    """Zeichnet die ersten ``MAX_EREIGNISSE`` Ereignisse und den Stand jetzt."""
    namen = sim.namen
    gezeigt = sim.ereignisse[:MAX_EREIGNISSE]
    rest = len(sim.ereignisse) - len(gezeigt)
    spalte = SPALTE if len(namen) <= 3 else 96
    zeichen = (spalte - PUNKT - 14) * 100 // (11 * 62)
    eintraege: list[Ereignis_ | Marke] = []
    stelle: dict[int, int] = {}
    for e in gezeigt:
        if not e.knoten:  # a partition or a crash begins or ends: a mark across every replica
            farbe = "warn" if e.art in ("partition", "absturz") else "ok"
            eintraege.append(Marke(e.zeit, e.text, farbe))
            continue
        texte = [_hinten(_etikett(e), zeichen)]
        if e.art in ("lokal", "merge"):
            texte.append(_hinten("= " + e.wert, zeichen))
        stelle[e.nummer] = len(eintraege)
        eintraege.append(Ereignis_(e.knoten, e.zeit, e.art, tuple(texte)))
    nachrichten = {n.nummer: n for n in sim.nachrichten}
    pfeile = []
    for e in gezeigt:
        if e.art in ("merge", "verworfen") and e.nachricht is not None:
            n = nachrichten[e.nachricht]
            if n.ereignis in stelle and e.nummer in stelle:
                pfeile.append(
                    Pfeil(
                        _bahn(eintraege, stelle[n.ereignis]),
                        e.knoten,
                        schicksal="verworfen" if e.art == "verworfen" else "zugestellt",
                        von_ereignis=stelle[n.ereignis],
                        nach_ereignis=stelle[e.nummer],
                    )
                )
    hinweise: list[str] = []
    verloren = len(sim.verloren())
    if verloren:
        hinweise.append(f"{verloren} Zustände gingen im Netz verloren.")
    if sim.netz.unterwegs:
        hinweise.append(f"{sim.netz.unterwegs} Zustände sind noch unterwegs.")
    if rest:
        hinweise.append(f"… und {rest} weitere Ereignisse (sim.verlauf()).")
    gleich = sim.konvergiert()
    modell = Raumzeit(
        titel or f"{sim.typ.NAME}: {len(namen)} Replikate, t={sim.now}",
        tuple(Bahn(n, breite=spalte) for n in namen),
        beschreibung(sim),
        ereignisse=tuple(eintraege),
        pfeile=tuple(pfeile),
        zeitkopf="Zeit",
        zustand={n: {"": kurz_wert(sim[n].crdt)} for n in namen},
        zustand_titel=f"Stand t={sim.now}: " + ("alle gleich" if gleich else "verschieden"),
        zustand_farbe="ok" if gleich else "warn",
        legende=tuple(
            Eintrag(name, fuellung, rand, farbe_name="muted") for name, fuellung, rand in LEGENDE
        ),
        hinweise=tuple(hinweise),
    )
    return zeichne(modell)


def _bahn(eintraege: list[Ereignis_ | Marke], i: int) -> str:
    """The lane of the event at ``i`` (a mark has none)."""
    e = eintraege[i]
    return e.bahn if isinstance(e, Ereignis_) else ""
