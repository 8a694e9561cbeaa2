"""Two positions per partition, as in Kafka's KafkaConsumer ("Offsets and Consumer Position").

A live member's reading position moves on with every ``consume``, committed or not; ``commit``
stores it; whoever takes a partition over (new member, rebalance, restart, removal) starts at the
stored position; ``seek`` moves a live owner's reading position and nothing else. The properties
(hypothesis) check the model against a small reference model of exactly these rules.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysim import CommitAbgelehnt, Log, NichtZugeteilt, SimFehler, UngueltigeEingabe
from pysim.console import LogKonsole

EINSTELLUNGEN = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def zustand(log: Log) -> str:
    return LogKonsole(log).state_dump()


def ein_topic(eintraege: int = 5, partitionen: int = 1) -> Log:
    log = Log()
    log.create_topic("t", partitions=partitionen)
    log.consume("t", "g")  # g-1 joins at the end (nothing yet) and stores 0
    for i in range(eintraege):
        log.produce("t", i)
    return log


def offsets(records: list) -> list[int]:
    return [r.offset for r in records]


# --- the reading position moves without a commit ---


def test_leseposition_rueckt_ohne_commit_weiter() -> None:
    log = ein_topic()
    assert offsets(log.consume("t", "g", max=2, commit=False)) == [0, 1]
    assert offsets(log.consume("t", "g", max=2, commit=False)) == [2, 3]
    g = log.group("g")
    assert g.position("t", 0) == 0  # nothing stored
    assert g.lesestand("g-1", "t") == {0: 4}
    assert g.leseposition("t", 0) == 4
    assert g.ungespeichert("t", 0) == (0, 4)
    # describe and offsets show the stored position, as kafka-consumer-groups does.
    assert [(z.position, z.lag) for z in log.describe("g")] == [(0, 5)]
    assert log.offsets("t").gruppen == {"g": (0,)}
    assert "Leseposition 4" in repr(g)


def test_ein_fehler_uebersprungen_und_spaeter_gespeichert_ist_verloren() -> None:
    log = ein_topic()
    verbucht = []
    for _ in range(5):
        for r in log.consume("t", "g", max=1, commit=False):
            if r.value == 1:
                continue  # the handler fails and skips the commit
            verbucht.append(r.value)
            log.commit("t", "g")
    assert verbucht == [0, 2, 3, 4]
    assert [z.lag for z in log.describe("g")] == [0]  # looks done, 1 is gone
    assert log.consume("t", "g") == []


def test_commit_speichert_den_naechsten_offset() -> None:
    log = ein_topic()
    (r,) = log.consume("t", "g", max=1, commit=False)
    assert r.offset == 0
    assert log.commit("t", "g") == {0: 1}  # the next record to read, like Kafka
    assert log.group("g").ungespeichert("t", 0) is None


# --- a new owner starts at the stored position ---


def test_neustart_beginnt_an_der_gespeicherten_position() -> None:
    log = ein_topic()
    log.consume("t", "g", max=1)  # 0, stored: 1
    assert offsets(log.consume("t", "g", max=2, commit=False)) == [1, 2]
    log.leave("g", "g-1")
    assert log.group("g").ungespeichert("t", 0) == (1, 3)
    assert offsets(log.consume("t", "g", commit=False)) == [1, 2, 3, 4]


def test_uebernahme_nach_neuverteilung_beginnt_an_der_gespeicherten_position() -> None:
    log = ein_topic(eintraege=0, partitionen=2)
    for i in range(6):
        log.produce("t", i)  # p0: 0, 2, 4  p1: 1, 3, 5
    assert offsets(log.consume("t", "g", commit=False)) == [0, 1, 2, 0, 1, 2]
    log.consume("t", "g", member="g-2")  # takes p1 over, stored there: 0
    g = log.group("g")
    assert g.zuteilung("t") == {0: "g-1", 1: "g-2"}
    assert g.position("t", 1) == 3  # g-2 read p1 from 0 and stored 3
    # g-1 kept p0, but in an eager rebalance every member starts over at the stored position.
    assert g.lesestand("g-1", "t") is None
    assert g.leseposition("t", 0) == 0
    assert offsets(log.consume("t", "g", commit=False)) == [0, 1, 2]


def test_uebernahme_nach_entfernen() -> None:
    log = Log(max_poll_interval=2)
    log.create_topic("t", partitions=2)
    log.consume("t", "g")
    log.consume("t", "g", member="g-2")
    for i in range(4):
        log.produce("t", i)
    assert offsets(log.consume("t", "g", member="g-2", commit=False)) == [0, 1]
    log.tick(2)
    log.consume("t", "g")
    (weg,) = log.tick()
    assert weg.member == "g-2"
    assert [r.value for r in log.consume("t", "g")] == [1, 3]  # p1 again from 0


def test_neues_mitglied_ohne_gespeicherte_position_beginnt_am_ende() -> None:
    log = Log()
    log.create_topic("t")
    log.produce("t", 0)
    assert log.consume("t", "g", commit=False) == []  # a new group starts at the end
    log.produce("t", 1)
    # The member continues from its reading position 1, not from the new end 2.
    assert [r.value for r in log.consume("t", "g", commit=False)] == [1]


def test_reset_vergisst_die_lesepositionen() -> None:
    log = ein_topic()
    log.consume("t", "g", commit=False)
    log.reset("g", to=2, topic="t")
    assert log.group("g").lesestand("g-1", "t") is None
    assert offsets(log.consume("t", "g")) == [2, 3, 4]


def test_commit_nach_neuverteilung_bleibt_abgelehnt() -> None:
    log = ein_topic(partitionen=2)
    log.consume("t", "g", commit=False)
    log.consume("t", "g", member="g-2")
    vorher = zustand(log)
    with pytest.raises(CommitAbgelehnt):
        log.commit("t", "g")
    assert zustand(log) == vorher


# --- seek ---


def test_seek_zurueck_liest_noch_einmal() -> None:
    log = ein_topic()
    assert offsets(log.consume("t", "g", max=2, commit=False)) == [0, 1]
    log.seek("t", "g", "g-1", 0, 1)
    g = log.group("g")
    assert g.position("t", 0) == 0 and g.leseposition("t", 0) == 1
    assert offsets(log.consume("t", "g", max=1, commit=False)) == [1]
    log.seek("t", "g", None, 0, 1)  # None: the member <group>-1
    assert offsets(log.consume("t", "g", max=1)) == [1]
    assert g.position("t", 0) == 2


def test_seek_vor_ueberspringt_und_commit_speichert_es() -> None:
    log = ein_topic()
    log.seek("t", "g", "g-1", 0, 3)
    assert log.commit("t", "g") == {0: 3}
    assert offsets(log.consume("t", "g")) == [3, 4]
    log.seek("t", "g", "g-1", 0, 5)  # up to the end is allowed
    assert log.consume("t", "g") == []


def test_seek_zaehlt_nicht_als_lebenszeichen() -> None:
    log = ein_topic()
    log.max_poll_interval = 1
    log.tick()
    log.seek("t", "g", "g-1", 0, 0)
    assert [e.member for e in log.tick()] == ["g-1"]


@pytest.mark.parametrize(
    ("aufruf", "fehler", "meldung"),
    [
        (("t", "g", "g-2", 0, 0), NichtZugeteilt, "p0 von „t“ liest g-1, nicht g-2"),
        (("t", "g", "g-1", 1, 0), NichtZugeteilt, "p1 von „t“ liest g-2, nicht g-1"),
        (("t", "g", "g-9", 0, 0), UngueltigeEingabe, "kein Mitglied"),
        (("t", "g", "g-1", 2, 0), UngueltigeEingabe, "Partitionen 0 bis 1, nicht 2"),
        (("t", "g", "g-1", 0, 9), UngueltigeEingabe, "seek geht auf 0 bis 3, nicht auf 9"),
        (("t", "g", "g-1", 0, -1), UngueltigeEingabe, "offset"),
        (("t", "g", "g-1", 0, True), UngueltigeEingabe, "offset"),
        (("x", "g", "g-1", 0, 0), SimFehler, "Das Topic „x“"),
        (("t", "x", "g-1", 0, 0), SimFehler, "Die Gruppe „x“"),
    ],
)
def test_seek_fehler_aendern_nichts(aufruf: tuple, fehler: type, meldung: str) -> None:
    log = ein_topic(eintraege=6, partitionen=2)
    log.consume("t", "g", member="g-2")
    log.consume("t", "g", commit=False)
    vorher = zustand(log)
    with pytest.raises(fehler, match=meldung):
        log.seek(*aufruf)
    assert zustand(log) == vorher


def test_seek_nach_neuverteilung_erst_nach_dem_lesen() -> None:
    log = ein_topic(partitionen=2)
    log.consume("t", "g", commit=False)
    log.consume("t", "g", member="g-2")  # g-1 has not read since
    vorher = zustand(log)
    with pytest.raises(NichtZugeteilt, match="seit dem letzten Rebalancing nicht gelesen"):
        log.seek("t", "g", "g-1", 0, 0)
    assert zustand(log) == vorher
    log.consume("t", "g")
    log.seek("t", "g", "g-1", 0, 0)


def test_seek_eines_ehemaligen_mitglieds() -> None:
    log = ein_topic()
    log.leave("g", "g-1")
    vorher = zustand(log)
    with pytest.raises(NichtZugeteilt, match="Es ist mit leave ausgetreten"):
        log.seek("t", "g", "g-1", 0, 0)
    assert zustand(log) == vorher


# --- properties: the model agrees with a reference of the rules above ---

MITGLIEDER = ["m-1", "m-2", "m-3"]

ops = st.lists(
    st.one_of(
        st.tuples(st.just("produce"), st.integers(0, 2)),
        st.tuples(
            st.just("consume"),
            st.sampled_from(MITGLIEDER),
            st.one_of(st.none(), st.integers(1, 3)),
            st.booleans(),
            st.booleans(),
        ),
        st.tuples(st.just("commit"), st.sampled_from(MITGLIEDER)),
        st.tuples(
            st.just("seek"), st.sampled_from(MITGLIEDER), st.integers(0, 2), st.integers(0, 3)
        ),
        st.tuples(st.just("tick"), st.integers(0, 3)),
        st.tuples(st.just("leave"), st.sampled_from(MITGLIEDER)),
        st.tuples(st.just("reset"), st.sampled_from([0, 2, "latest"])),
    ),
    max_size=40,
)


@EINSTELLUNGEN
@given(ops=ops, partitionen=st.integers(1, 3), timeout=st.one_of(st.none(), st.integers(1, 3)))
def test_positionen_folgen_den_regeln(ops, partitionen, timeout) -> None:
    log = Log(max_poll_interval=timeout)
    log.create_topic("t", partitions=partitionen)
    # Reference: member -> (generation of its last consume, {partition: reading position}).
    lesen: dict[str, tuple[int, dict[int, int]]] = {}
    gespeichert: dict[int, int] = {}
    for op in ops:
        vorher = zustand(log)
        g = log.group("g") if "g" in log.groups() else None
        generation = 0 if g is None else g.generation
        try:
            if op[0] == "produce":
                log.produce("t", 0, key=f"k{op[1]}")
            elif op[0] == "consume":
                _, m, maximum, von_anfang, commit = op
                bleibt = g is not None and m in g.mitglieder
                records = log.consume("t", "g", m, maximum, von_anfang, commit)
                g = log.group("g")
                meine = sorted(p for p, wer in g.zuteilung("t").items() if wer == m)
                alt = lesen.get(m)
                weiter = bleibt and alt is not None and alt[0] == generation == g.generation
                neu = {}
                for p in meine:
                    if weiter and alt is not None and p in alt[1]:
                        start = alt[1][p]
                    elif p in gespeichert:
                        start = gespeichert[p]
                    else:
                        start = 0 if von_anfang else len(log.read("t", p))
                    gelesen = [r.offset for r in records if r.partition == p]
                    assert gelesen == list(range(start, start + len(gelesen)))
                    neu[p] = start + len(gelesen)
                assert {r.partition for r in records} <= set(meine)
                lesen[m] = (g.generation, neu)
                if commit:
                    gespeichert.update(neu)
            elif op[0] == "commit":
                gespeichert_vorher = dict(gespeichert)
                ergebnis = log.commit("t", "g", member=op[1])
                alt = lesen[op[1]]
                assert alt[0] == generation  # only in the generation of the read
                assert ergebnis == alt[1]
                gespeichert = {**gespeichert_vorher, **ergebnis}
            elif op[0] == "seek":
                _, m, p, offset = op
                log.seek("t", "g", m, p, offset)
                alt = lesen[m]
                # Only the live owner, in the generation of its last read, within the partition.
                assert g is not None and g.zuteilung("t").get(p) == m
                assert alt[0] == generation and p in alt[1]
                assert offset <= len(log.read("t", p))
                lesen[m] = (alt[0], {**alt[1], p: offset})
            elif op[0] == "tick":
                log.tick(op[1])
            elif op[0] == "leave":
                log.leave("g", op[1])
            else:
                log.reset("g", to=op[1], topic="t")
                lesen.clear()
                enden = log.topic("t").enden()
                gespeichert = {
                    p: (enden[p] if op[1] == "latest" else min(op[1], enden[p]))
                    for p in range(partitionen)
                }
        except SimFehler:
            assert zustand(log) == vorher  # an error changes nothing
            continue
        g = log.group("g") if "g" in log.groups() else None
        stored = {p: pos for p in range(partitionen) if (pos := _position(log, p)) is not None}
        assert stored == gespeichert  # only commit, consume with commit and reset store
        if g is None:
            continue
        for m in g.mitglieder:
            stand = g.lesestand(m, "t")
            alt = lesen.get(m)
            if stand is not None:
                assert alt is not None and alt[0] == g.generation and stand == alt[1]
        for p in range(partitionen):
            pos = g.leseposition("t", p)
            assert pos is None or 0 <= pos <= len(log.read("t", p))


def _position(log: Log, p: int) -> int | None:
    return log.group("g").position("t", p) if "g" in log.groups() else None


@EINSTELLUNGEN
@given(ops=ops)
def test_gleiche_schritte_gleiche_positionen(ops) -> None:
    def lauf() -> str:
        log = Log(max_poll_interval=2)
        log.create_topic("t", partitions=3)
        for op in ops:
            try:
                if op[0] == "consume":
                    log.consume("t", "g", op[1], op[2], op[3], op[4])
                elif op[0] == "seek":
                    log.seek("t", "g", op[1], op[2], op[3])
                elif op[0] == "commit":
                    log.commit("t", "g", member=op[1])
            except SimFehler:
                pass
        return zustand(log) + log.bild("t").svg

    assert lauf() == lauf()


def test_bild_zeigt_gespeichert_ungespeichert_und_leseposition() -> None:
    log = ein_topic(eintraege=4)
    log.consume("t", "g", max=1)
    log.consume("t", "g", max=2, commit=False)
    svg = log.bild("t").svg
    assert svg.count('class="gelesen"') == 1  # offset 0: read and stored
    assert svg.count('class="ungespeichert"') == 2  # offsets 1 and 2: read, not stored
    assert "Position 1, Lag 3, Leseposition 3" in svg  # the <desc>
    assert "gefärbt: gespeichert" in svg
    marker = svg.split('class="marker" x="')[1].split('"')[0]
    zellen = svg.split('class="eintrag" x="')[1:]
    dritte = int(zellen[3].split('"')[0])  # the marker sits on the cell of offset 3
    assert abs(int(marker) - dritte) <= 44
    # Without a stored position, the member's reading position is still drawn.
    neu = Log()
    neu.create_topic("t")
    neu.consume("t", "g", commit=False)
    neu.produce("t", 0)
    neu.consume("t", "g", commit=False)
    svg = neu.bild("t", ["g"]).svg
    assert 'class="ungespeichert"' in svg and "Lag –" in svg
