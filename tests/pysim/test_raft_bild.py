"""The picture of a Raft cluster: the shared SVG rules, what it names, at phone width."""

from __future__ import annotations

from pysim.raft import RaftSim
from pysim.raft.bild import BREITE, SPALTEN

from .svg_regeln import NS, allgemeine_regeln


def klassen(svg: str, name: str) -> int:
    return sum(1 for el in allgemeine_regeln(svg).iter() if el.get("class") == name)


def texte(svg: str) -> list[str]:
    return [el.text or "" for el in allgemeine_regeln(svg).iter(NS + "text")]


def test_the_picture_shows_roles_terms_logs_and_the_verdict() -> None:
    sim = RaftSim(5, seed=2)
    sim.tick(60)
    alt = sim.leader()
    assert alt is not None
    sim.trenne([alt])
    sim.schreibe("c1", 41, an=alt)
    sim.tick(60)
    sim.schreibe("c2", 7)
    sim.tick(10)
    svg = sim.bild().svg
    root = allgemeine_regeln(svg)
    assert root.get("viewBox") == f"0 0 {BREITE} {root.get('viewBox', '').split()[3]}"
    assert BREITE <= 390
    t = texte(svg)
    assert all(n in t for n in sim.namen)
    assert t.count("Leader") == 2  # the old one in its minority and the new one
    assert "w41" in t and "w7" in t
    assert klassen(svg, "knoten") == 5
    fest = sum(k.commit for k in sim.knoten.values())
    offen = sum(len(k.log) - k.commit for k in sim.knoten.values())
    assert (klassen(svg, "fest"), klassen(svg, "offen")) == (fest, offen)
    assert any(x.startswith("Netzpartition: ") for x in t)
    assert "Verlauf: 2 Operationen: linearisierbar ✓" in t
    desc = root.find(NS + "desc")
    assert desc is not None and desc.text and "Term" in desc.text


def test_a_long_log_shows_its_last_entries_and_a_crash_is_named() -> None:
    sim = RaftSim(3, seed=1)
    sim.tick(60)
    for i in range(SPALTEN + 3):
        sim.schreibe("c", i)
        sim.tick(8)
    sim.absturz(sim.namen[0])
    sim.pausiere(sim.namen[1], 20)
    svg = sim.bild().svg
    t = texte(svg)
    assert "abgestürzt" in t and "…" in t
    assert klassen(svg, "pause") == 1 and "angehalten bis" in svg
    assert klassen(svg, "fest") + klassen(svg, "offen") <= 3 * SPALTEN
    assert f"w{SPALTEN + 2}" in t and "w0" not in t


def test_an_empty_cluster_draws() -> None:
    svg = RaftSim().bild().svg
    assert "noch keine Operation" in svg and "kein Leader" in svg


def test_the_ring_shows_cut_links_and_each_message_on_its_way() -> None:
    sim = RaftSim(5, seed=2)
    sim.tick(60)
    sim.trenne(["n1", "n2"])
    sim.tick(1)
    svg = sim.bild().svg
    root = allgemeine_regeln(svg)
    linien = [el.get("style") or "" for el in root.iter(NS + "line")]
    getrennt = [s for s in linien if "--pysim-warn" in s and "dasharray" in s]
    assert len(getrennt) == 2 * 3  # every link between {n1, n2} and {n3, n4, n5}
    assert len(linien) == 10  # five nodes, every pair
    assert klassen(svg, "kreis") == 5
    assert klassen(svg, "nachricht") == len(sim.unterwegs)
