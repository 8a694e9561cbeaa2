"""Every console's refused lines, in one table: each names in German what was wrong, belongs
to the command it was meant for, and changes nothing (``konsolen.ausfuehren`` checks that)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pysim.console import LogKonsole, QueueKonsole, SagaKonsole
from pysim.console.basis import BasisKonsole
from pysim.partitionen.konsole import PartitionKonsole
from pysim.raft.konsole import RaftKonsole
from pysim.replikation.konsole import ReplikKonsole
from tests.pysim.konsolen import LOG_LEKTION_2, absaetze_ganz, ausfuehren, vorbereitet

#: Where each row starts: a console after a few lines.
AUSGANG: dict[str, Callable[[], BasisKonsole[Any]]] = {
    "log-leer": LogKonsole,
    "log": lambda: vorbereitet(LogKonsole(), LOG_LEKTION_2),
    "log-gruppe": lambda: vorbereitet(
        LogKonsole(),
        ["create topic orders partitions 3", "create topic stock", "consume stock group billing"],
    ),
    "queue": lambda: vorbereitet(QueueKonsole(), ["send zahlung-1"]),
    "saga": SagaKonsole,
    "saga-b7": lambda: vorbereitet(SagaKonsole(), ["stoerung orchestrator zahlung", "start b7"]),
    "saga-ausgefallen": lambda: vorbereitet(
        SagaKonsole(), ["stoerung orchestrator zahlung", "start b7", "tick 5"]
    ),
    "replik": lambda: vorbereitet(ReplikKonsole(), ["write x 1"]),
    "raft": lambda: vorbereitet(RaftKonsole(), ["tick 40"]),
    "raft-wartet": lambda: vorbereitet(RaftKonsole(), ["tick 40", "write x 1 as a"]),
    "raft-absturz": lambda: vorbereitet(RaftKonsole(), ["tick 40", "absturz n1"]),
    "partition": lambda: vorbereitet(PartitionKonsole(), ["fuelle 20"]),
    "partition-leer": PartitionKonsole,
}

FEHLER = [
    # (Ausgang, Zeile, Teil der Meldung, command)
    # the log console before anything was created, then after LOG_LEKTION_2
    (
        "log-leer",
        "read orders",
        "es gibt noch kein Topic.\nLege eins an: create topic orders partitions 3",
        "read",
    ),
    ("log", "consum orders group billing", "Meintest du `consume`?", ""),
    ("log", "prodcue orders {}", "Meintest du `produce`?", ""),
    ("log", "xyzzy", "Befehle: create, topics", ""),
    ("log", "consume orders", "Es fehlt `group <gruppe>`.", "consume"),
    ("log", "consume group billing", "Es fehlt <topic> (vor `group`).", "consume"),
    ("log", "consume orders group", "Nach `group` fehlt <gruppe>.", "consume"),
    ("log", "create orders partitions 3", "Nach `create` kommt das Wort `topic`", "create"),
    ("log", "create", "Nach `create` fehlt das Wort `topic`.", "create"),
    ("log", "create topic", "Es fehlt <topic>.", "create"),
    ("log", "describe billing", "Nach `describe` kommt das Wort `group`", "describe"),
    ("log", "reset group billing", "Es fehlt `to <0|earliest|latest>`.", "reset"),
    ("log", "reset group billing to", "Nach `to` fehlt", "reset"),
    (
        "log",
        "reset group billing to anfang",
        "Nach `to` kommt 0 (oder eine andere Zahl), earliest oder latest",
        "reset",
    ),
    ("log", "reset group billing to -1", "nicht „-1“", "reset"),
    ("log", "seek orders group billing partition 0", "Es fehlt `to <offset>`.", "seek"),
    ("log", "seek orders group billing to 0", "Es fehlt `partition <n>`.", "seek"),
    ("log", "seek orders partition 0 to 0", "Es fehlt `group <gruppe>`.", "seek"),
    ("log", "seek orders group billing partition 3 to 0", "Partitionen 0 bis 2, nicht 3.", "seek"),
    ("log", "seek orders group billing partition 0 to -1", "nicht „-1“", "seek"),
    (
        "log",
        "seek orders group billing partition 0 to 2",
        "seek geht auf 0 bis 1, nicht auf 2.",
        "seek",
    ),
    ("log", "seek orders group billing as b-9 partition 0 to 0", "war nie Mitglied", "seek"),
    ("log", "seek orders group nix partition 0 to 0", "Vorhandene Gruppen: „billing“.", "seek"),
    ("log", "topics extra", "Zu viele Wörter: „extra“ gehört nicht zu `topics`.", "topics"),
    ("log", "groups x", "Zu viele Wörter", "groups"),
    ("log", "offsets orders extra", "Zu viele Wörter", "offsets"),
    ("log", "clear all", "Zu viele Wörter", "clear"),
    (
        "log",
        "consume orders group billing frm-beginning",
        "Meintest du `from-beginning`?",
        "consume",
    ),
    ("log", "consume orders group billing max 2 max 3", "`max` steht zweimal da.", "consume"),
    (
        "log",
        "consume orders group billing max drei",
        "Nach `max` kommt eine ganze Zahl ab 1, nicht „drei“.",
        "consume",
    ),
    (
        "log",
        "consume orders group billing max 0",
        "Nach `max` kommt eine ganze Zahl ab 1, nicht 0.",
        "consume",
    ),
    ("log", "consume orders group billing max 99999999999", "ist zu groß", "consume"),
    ("log", "create topic x partitions 0", "von 1 bis 12, nicht 0", "create"),
    ("log", "create topic x partitions 13", "von 1 bis 12, nicht 13", "create"),
    ("log", "create topic x partitions 2.5", "nicht „2.5“", "create"),
    ("log", "create topic x partitions ٣", "nicht „٣“", "create"),
    ("log", "read orders partition 3", "hat die Partitionen 0 bis 2, nicht 3.", "read"),
    ("log", "read orders from -1", "nicht „-1“", "read"),
    ("log", "read orders partition", "Nach `partition` fehlt <n>.", "read"),
    ("log", 'produce orders {"order":61 "total":1}', "Hier fehlt ein Komma.", "produce"),
    ("log", 'produce orders {"order":61,}', "Dieses Komma ist zu viel", "produce"),
    ("log", "produce orders [1,2,]", "Dieses Komma ist zu viel", "produce"),
    (
        "log",
        "produce orders hallo",
        'Ein Text steht in doppelten Anführungszeichen: "hallo"',
        "produce",
    ),
    ("log", "produce orders {'a':1}", "doppelte Anführungszeichen", "produce"),
    ("log", 'produce orders {"a":1} key=x', "Der Schlüssel kommt vor den Wert", "produce"),
    ("log", 'produce orders {"a":"x', "Dieser Text endet nicht", "produce"),
    ("log", "produce orders NaN", "NaN gibt es in JSON nicht", "produce"),
    ("log", "produce orders 1e999", "ist zu groß", "produce"),
    ("log", "produce orders " + "1" * 100, "ist zu lang", "produce"),
    ("log", "produce orders " + "[" * 50 + "]" * 50, "zu tief verschachtelt", "produce"),
    ("log", "produce orders", "Es fehlt der Wert (JSON)", "produce"),
    ("log", "produce orders key=customer-7", "Es fehlt der Wert (JSON)", "produce"),
    ("log", "produce orders key= {}", "Nach `key=` fehlt der Schlüssel", "produce"),
    (
        "log",
        "produce orders key customer-7 {}",
        "Schreib den Schlüssel ohne Leerzeichen",
        "produce",
    ),
    (
        "log",
        'produce order {"a":1}',
        "Das Topic „order“ gibt es nicht. Meintest du „orders“?",
        "produce",
    ),
    ("log", "read nix", "Vorhandene Topics: „orders“.", "read"),
    (
        "log",
        "describe group bill",
        "Die Gruppe „bill“ gibt es nicht. Meintest du „billing“?",
        "describe",
    ),
    ("log", "reset group nix to 0", "Vorhandene Gruppen: „billing“.", "reset"),
    (
        "log",
        "create topic orders partitions 2",
        "Das Topic „orders“ gibt es schon (mit 3 Partitionen).",
        "create",
    ),
    ("log", "create topic or/ders", "besteht aus Buchstaben", "create"),
    ("log", "consume orders group bil<l>", "Ein Gruppenname besteht aus Buchstaben", "consume"),
    ("log", "consume orders group billing as " + "x" * 41, "zu lang", "consume"),
    ("log", "hilfe nix", "Den Befehl „nix“ gibt es nicht.", "hilfe"),
    ("log", "hilfe consume extra", "ist zu viel", "hilfe"),
    ("log", "x" * 2001, "Die Zeile ist zu lang", ""),
    ("log", "topics\ncreate topic a", "nur einen Befehl auf einmal", ""),
    # the queue console with one message sent
    ("queue", "sende zahlung-1", "Meintest du `send`?", ""),
    ("queue", "recieve", "Meintest du `receive`?", ""),
    ("queue", "send", "Es fehlt der Inhalt der Nachricht.", "send"),
    ("queue", "ack", "Es fehlt <id>.", "ack"),
    ("queue", "ack x", "Nach `ack` kommt eine ganze Zahl ab 1, nicht „x“.", "ack"),
    ("queue", "ack 0", "nicht 0", "ack"),
    ("queue", "ack 9", "nie eine Nachricht mit der ID 9", "ack"),
    ("queue", "ack 1 2", "Das Wort „2“ versteht `ack` hier nicht.", "ack"),
    ("queue", "ack 1 as", "Nach `as` fehlt <consumer>.", "ack"),
    ("queue", "ack 1 as A", "A hat Nachricht 1 nie bekommen:", "ack"),
    ("queue", "tick -1", "nicht „-1“", "tick"),
    ("queue", "tick 101", "von 0 bis 100, nicht 101", "tick"),
    ("queue", "tick 1 2", "Zu viele Wörter", "tick"),
    ("queue", "receive A", "Das Wort „A“ versteht `receive` hier nicht.", "receive"),
    ("queue", "receive as", "Nach `as` fehlt <consumer>.", "receive"),
    ("queue", "receive as a/b", "Der Name eines Consumers besteht aus", "receive"),
    ("queue", "status jetzt", "Zu viele Wörter", "status"),
    ("queue", "consume orders group x", "Den Befehl „consume“ gibt es nicht.", ""),
    # the log console with two topics and a group that read one of them
    ("log-gruppe", "tick x", "ganze Zahl", "tick"),
    ("log-gruppe", "tick 101", "von 0 bis 100", "tick"),
    ("log-gruppe", "max-poll 0", "von 1 bis 100", "max-poll"),
    ("log-gruppe", "max-poll nie", "ganze Zahl", "max-poll"),
    ("log-gruppe", "session-timeout 101", "von 1 bis 100", "session-timeout"),
    ("log-gruppe", "absturz group billing billing-9", "kein Mitglied der Gruppe", "absturz"),
    ("log-gruppe", "absturz billing billing-1", "das Wort `group`", "absturz"),
    ("log-gruppe", "leave group billing billing-9", "kein Mitglied der Gruppe", "leave"),
    ("log-gruppe", "leave group nope x", "gibt es nicht", "leave"),
    ("log-gruppe", "leave billing billing-1", "das Wort `group`", "leave"),
    ("log-gruppe", "commit orders", "Es fehlt `group <gruppe>`.", "commit"),
    ("log-gruppe", "commit orders group billing as billing-9", "war nie Mitglied", "commit"),
    ("log-gruppe", "commit orders group billing", "noch nicht gelesen", "commit"),
    # the saga console as it starts
    ("saga", "stoerung kaputt lager", "Arten", "stoerung"),
    ("saga", "stoerung absturz keller", "Schritte", "stoerung"),
    ("saga", "stoerung ablehnen mail", "Pivot", "stoerung"),
    ("saga", "stoerung ablehnen lager kompensation", "nicht endgültig", "stoerung"),
    ("saga", "stoerung doppelt mail kompensation", "keine Kompensation", "stoerung"),
    ("saga", "stoerung absturz", "Es fehlt <schritt>", "stoerung"),
    ("saga", "status b9", "gibt es nicht", "status"),
    ("saga", "neustart orchestrator", "läuft", "neustart"),
    ("saga", "neustart", "orchestrator", "neustart"),
    ("saga", "tick 101", "0 bis 100", "tick"),
    ("saga", "start", "Es fehlt <saga>", "start"),
    ("saga", "start zwei wörter", "Zu viele Wörter", "start"),
    ("saga", "strat b7", "Meintest du `start`?", ""),
    ("saga-b7", "start b7", "gibt es schon", "start"),
    ("saga-ausgefallen", "start b8", "neustart", "start"),
    # the replica console after one write
    ("replik", "read x from n7", "Das Replikat „n7“ gibt es nicht", "read"),
    ("replik", "write x", "So geht es", "write"),
    ("replik", "lag n2 99", "99", "lag"),
    ("replik", "failover n1", "schon der Leader", "failover"),
    ("replik", "quorum 3 4 1", "w ist höchstens n=3", "quorum"),
    ("replik", "sync 5", "höchstens 2", "sync"),
    ("replik", "wirte x 1", "Meintest du `write`?", ""),
    # the Raft console once n3 is leader
    ("raft", "partition n9", "Den Knoten „n9“ gibt es nicht. Es gibt: n1, n2, n3.", "partition"),
    ("raft", "partition n1 n1", "Nenne n1 nur einmal", "partition"),
    ("raft", "heal", "Es gibt keine Netzpartition", "heal"),
    ("raft", "neustart n1", "n1 läuft doch", "neustart"),
    ("raft", "pause n1 0", "0", "pause"),
    ("raft", "pause n1 500", "von 1 bis 200, nicht 500", "pause"),
    ("raft", "write x", "Es fehlt <wert>.", "write"),
    ("raft", "write x 1 to n7", "Den Knoten „n7“ gibt es nicht", "write"),
    ("raft", "tick 500", "von 0 bis 100, nicht 500", "tick"),
    ("raft", "wirte x 1", "Meintest du `write`?", ""),
    ("raft-wartet", "write x 2 as a", "Der Client a wartet noch auf eine Antwort", "write"),
    ("raft-absturz", "absturz n1", "schon abgestürzt", "absturz"),
    # the partition console with 20 keys on n1, n2, n3
    ("partition", "dazu n1", "Den Knoten n1 gibt es schon.", "dazu"),
    ("partition", "dazu N4", "beginnt mit einem Buchstaben", "dazu"),
    ("partition", "weg n9", "Den Knoten „n9“ gibt es nicht. Es gibt: n1, n2, n3.", "weg"),
    ("partition", "schreibe user$1", "Buchstaben, Ziffern und : . _ - { } #", "schreibe"),
    ("partition", "strategie zufall", "Die Strategie „zufall“ gibt es nicht", "strategie"),
    ("partition", "vergleiche n2", "Den Knoten n2 gibt es schon", "vergleiche"),
    ("partition", "heiss user:999 30", "Den Schlüssel user:999 gibt es nicht", "heiss"),
    ("partition", "heiss user:1 130", "von 0 bis 100, nicht 130", "heiss"),
    ("partition", "fuelle 20000", "von 1 bis 10000, nicht 20000", "fuelle"),
    ("partition", "dazuu n4", "Meintest du `dazu`?", ""),
    ("partition-leer", "vergleiche n4", "Noch keine Schlüssel", "vergleiche"),
]

#: A usage line followed by a note in parentheses: no sentence broken in two.
NICHT_FLIESSTEXT = {"hilfe consume extra"}


@pytest.mark.parametrize(("ausgang", "zeile", "meldung", "command"), FEHLER)
def test_a_refused_line_says_why_in_german_and_changes_nothing(
    ausgang: str, zeile: str, meldung: str, command: str
) -> None:
    r = ausfuehren(AUSGANG[ausgang](), zeile)
    assert not r.ok
    assert meldung in r.text or meldung in r.text.replace("\n", " "), r.text
    assert r.command == command
    if zeile not in NICHT_FLIESSTEXT:
        absaetze_ganz(r.text)
