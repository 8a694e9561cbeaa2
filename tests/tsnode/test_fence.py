"""The challenge fence's TypeScript sections: the build type-checks them and proves the
TypeScript solution passes and its start and wrong attempts fail, naming the page's line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lessonkit.build.errors import LessonError
from tests.lessonkit.seiten import convert

PY_START = """class Zurufer(Knoten):
    def bei_echo(self, nachricht):
        self.sende(nachricht.src, {"type": "echo_ok", "echo": nachricht["echo"]})"""
PY_LOESUNG = PY_START.replace("self.sende(nachricht.src,", "self.antworte(nachricht,")
TS_START = """class Zurufer extends Node {
  onEcho(msg: Message) {
    this.send(msg.src, { type: "echo_ok", echo: msg.body.echo });
  }
}"""
TS_LOESUNG = TS_START.replace("this.send(msg.src,", "this.reply(msg,")
PRUEFUNG = """from pysim.pruefer import kennzahlen


@pruefe("Jede Anfrage bekommt eine Antwort")
def jede_anfrage_beantwortet():
    zahlen = kennzahlen(lauf.geschichte)
    assert zahlen.operationen == zahlen.ok, "Anfragen ohne Antwort"
"""


def page(ts: str = "", ts_start: str = TS_START, ts_loesung: str = TS_LOESUNG) -> str:
    teile = [
        '```herausforderung id="echo" last="echo" seeds="2"',
        "--- aufgabe\nAntworte.",
        f"--- start\n{PY_START}",
        f"--- pruefung\n{PRUEFUNG}",
        f"--- loesung\n{PY_LOESUNG}",
    ]
    if ts_start:
        teile.append(f"--- start-ts\n{ts_start}")
    if ts_loesung:
        teile.append(f"--- loesung-ts\n{ts_loesung}")
    if ts:
        teile.append(ts)
    return "\n".join(teile) + "\n```\n"


def test_typescript_sections_go_into_the_data_and_keep_the_digest(tmp_path: Path) -> None:
    mit = convert(tmp_path, page()).select_one(".lk-exercise__data")
    ohne = convert(tmp_path, page(ts_start="", ts_loesung="")).select_one(".lk-exercise__data")
    assert mit is not None and ohne is not None
    daten, vorher = json.loads(mit["data-lk-json"]), json.loads(ohne["data-lk-json"])
    assert (daten["start_ts"], daten["loesung_ts"]) == (TS_START, TS_LOESUNG)
    assert (vorher["start_ts"], vorher["loesung_ts"]) == (None, None)
    assert daten["digest"] == vorher["digest"]  # a TypeScript rendering keeps Python drafts


def _zeile(text: str, gesucht: str) -> int:
    """The 1-based line of the page holding ``gesucht``."""
    return next(i for i, z in enumerate(text.splitlines(), 1) if gesucht in z)


@pytest.mark.parametrize(
    ("text", "says", "zeile"),
    [
        (
            page(ts_loesung=TS_LOESUNG.replace("msg.body.echo", "msg.body.echo * 2")),
            "`--- loesung-ts` hat Typfehler (strict):\nZeile 3: TS18046",
            "msg.body.echo * 2",
        ),
        (page(ts_loesung=TS_START), "Die TypeScript-Lösung scheitert bei Seed 1", "--- loesung-ts"),
        (
            page(ts_start=TS_LOESUNG),
            "Der TypeScript-Startcode besteht schon alle 2 Seeds",
            "--- start-ts",
        ),
        (
            page(ts="--- fehlversuch-ts\n" + TS_LOESUNG.replace("Zurufer", "Falsch")),
            "Der TypeScript-Fehlversuch besteht alle Seeds",
            "class Falsch extends Node",
        ),
        (
            page(ts_loesung=TS_LOESUNG + "\nclass Zweiter extends Node {}"),
            "Die TypeScript-Lösung läuft nicht:\nDein Code definiert mehrere Knoten",
            "--- loesung-ts",
        ),
    ],
)
def test_mistakes_in_the_typescript_sections_are_named_at_their_line(
    tmp_path: Path, text: str, says: str, zeile: str
) -> None:
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, text)
    assert says in caught.value.message
    assert caught.value.line == _zeile(text, zeile)


def test_a_wrong_attempt_in_typescript_fails_with_the_rule_it_names(tmp_path: Path) -> None:
    convert(
        tmp_path, page(ts='--- fehlversuch-ts "Jede Anfrage bekommt eine Antwort"\n' + TS_START)
    )
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, page(ts='--- fehlversuch-ts "Eine Stimme je Term"\n' + TS_START))
    assert "Eine Stimme je Term" in caught.value.message


def test_the_typescript_sections_come_together(tmp_path: Path) -> None:
    with pytest.raises(LessonError) as caught:
        convert(tmp_path, page(ts_loesung=""))
    assert "braucht beide Abschnitte, `--- start-ts` und `--- loesung-ts`" in caught.value.message
