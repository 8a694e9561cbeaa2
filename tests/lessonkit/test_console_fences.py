"""The console fences: transcript and picture from the build, errors with file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pymdownx.superfences import SuperFencesException

from lessonkit.build.errors import LessonError
from lessonkit.build.render import BIDI, render_console_entry, render_console_line
from pysim.console import LogKonsole
from tests.lessonkit.seiten import convert


def test_log_console_shows_its_setup_and_the_picture(tmp_path: Path) -> None:
    soup = convert(
        tmp_path,
        "```log-console\ncreate topic orders partitions 3\n"
        'produce orders key=customer-7 {"order":61}\n```\n',
    )
    console = soup.select_one("[data-lk-console]")
    commands = [cmd.get_text() for cmd in console.select(".lk-console__cmd")]
    assert commands == [
        "$ create topic orders partitions 3",
        '$ produce orders key=customer-7 {"order":61}',
    ]
    assert "Partition 1, Offset 0" in console.select_one(".lk-console__log").get_text()
    assert (
        console.select_one(".lk-console__picture svg title").get_text()
        == "Topic „orders“ mit 3 Partitionen"
    )
    data = json.loads(console.select_one(".lk-console__data")["data-lk-json"])
    assert data["kind"] == "log" and data["label"] == "Konsole 1"
    assert data["setup"][0] == "create topic orders partitions 3"


def test_hidden_setup_shows_only_the_picture(tmp_path: Path) -> None:
    soup = convert(tmp_path, "```log-console hidden\ncreate topic t partitions 2\n```\n")
    console = soup.select_one("[data-lk-console]")
    assert console.select(".lk-console__entry") == []
    assert console.select_one(".lk-console__picture svg") is not None


def test_consoles_of_one_session_share_their_state(tmp_path: Path) -> None:
    soup = convert(
        tmp_path,
        '```log-console session="shop"\ncreate topic orders partitions 3\n```\n\n'
        "Text\n\n"
        '```log-console session="shop"\nproduce orders {"order":1}\n```\n\n'
        "```log-console\ntopics\n```\n",
    )
    _, second, third = soup.select("[data-lk-console]")
    assert "Partition 0, Offset 0" in second.get_text()
    second_data = json.loads(second.select_one("[data-lk-json]")["data-lk-json"])
    assert second_data["setup"] == [
        "create topic orders partitions 3",
        'produce orders {"order":1}',
    ]
    assert "Noch keine" in third.select_one(".lk-console__out").get_text()


def test_queue_console_takes_its_visibility_timeout(tmp_path: Path) -> None:
    soup = convert(tmp_path, '```queue-console visibility_timeout="5"\nsend a\nreceive as A\n```\n')
    assert "bis t=5" in soup.select_one(".lk-console__log").get_text()


@pytest.mark.parametrize("option", ["max_receive_count", "max_versuche"])
def test_queue_console_takes_its_receive_count_under_either_name(
    tmp_path: Path, option: str
) -> None:
    soup = convert(
        tmp_path,
        f'```queue-konsole visibility_timeout="2" {option}="1"\nsend a\nreceive as A\ntick 3\n```\n',
    )
    assert "Nachricht 1 → Dead Letter Queue" in soup.select_one(".lk-console__log").get_text()
    data = json.loads(soup.select_one(".lk-console__data")["data-lk-json"])
    assert data["options"] == {"visibility_timeout": "2", "max_receive_count": "1"}


def test_an_option_and_its_old_name_together_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SuperFencesException, match="alte Name von „max_receive_count“"):
        convert(tmp_path, '```queue-konsole max_versuche="1" max_receive_count="2"\nsend a\n```\n')


def test_failing_setup_command_names_its_line(tmp_path: Path) -> None:
    text = "# T\n\n```log-console\ncreate topic orders partitions 3\nconsum orders group x\n```\n"
    with pytest.raises(LessonError) as info:
        convert(tmp_path, text)
    message = str(info.value)
    assert "seite.md:5: Konsole 1: der Befehl „consum orders group x“ scheitert" in message
    assert "Meintest du `consume`?" in message


def test_expected_failure_is_shown_and_must_fail(tmp_path: Path) -> None:
    soup = convert(tmp_path, "```log-console\ncreate topic t partitions 1\n! update t 0 x\n```\n")
    entries = soup.select(".lk-console__entry")
    assert entries[1]["class"][-1] == "lk-console__entry--error"
    assert entries[1].select_one(".lk-console__cmd").get_text() == "$ update t 0 x"
    with pytest.raises(LessonError, match=r"seite\.md:4: Konsole 1: „topics“ soll scheitern"):
        convert(tmp_path, "Text\n\n```log-console\n! topics\n```\n")


def test_bad_console_option_names_file_and_line(tmp_path: Path) -> None:
    with pytest.raises(SuperFencesException, match=r"seite\.md:1: .*visibility_timeout=„0“"):
        convert(tmp_path, '```queue-console visibility_timeout="0"\nsend a\n```\n')


def test_console_answers_are_a_block_per_line_with_the_text_unchanged(tmp_path: Path) -> None:
    # A line too long for a phone then wraps with a hanging indent (lessonkit.css).
    soup = convert(tmp_path, "```log-console\nhelp\n```\n")
    answer = soup.select_one(".lk-console__out")
    lines = answer.select(".lk-console__line")
    assert len(lines) > 5 and lines[0].get_text() == "Befehle der Log-Konsole:\n"
    assert all(line.get_text().count("\n") == 1 for line in lines)
    assert answer.get_text() == "".join(line.get_text() for line in lines)


@pytest.mark.parametrize(
    ("line", "html"),
    [
        ("Meintest du `produce`?", 'Meintest du <code class="lk-console__code">produce</code>?'),
        (
            "`hilfe` zeigt alle Befehle (vor `group <gruppe>`).",
            '<code class="lk-console__code">hilfe</code> zeigt alle Befehle (vor '
            '<code class="lk-console__code">group &lt;gruppe&gt;</code>).',
        ),
        # Markup inside code is text, never HTML.
        (
            "Nach `<img src=x onerror=alert(1)>` kommt `a&b`.",
            'Nach <code class="lk-console__code">&lt;img src=x onerror=alert(1)&gt;</code> '
            'kommt <code class="lk-console__code">a&amp;b</code>.',
        ),
        # Backticks inside data, a quote, a word or a lonely one stay backticks.
        ('{"a":"`x`"}', "{&quot;a&quot;:&quot;`x`&quot;}"),
        ("Den Befehl „`x`“ gibt es nicht.", "Den Befehl „`x`“ gibt es nicht."),
        ("a`b`c, ` x `, `` und `", "a`b`c, ` x `, `` und `"),
        # An indented line (records, examples) is shown as it is.
        ("  p0:0  -  `x`", "  p0:0  -  `x`"),
    ],
)
def test_console_lines_show_code_in_backticks_as_code(line: str, html: str) -> None:
    assert render_console_line(line) == html


def test_direction_switching_characters_never_reach_the_transcript() -> None:
    # A record value the reader produced (typed as a JSON escape, which the input filter lets
    # through) or a model an author prepared can hold U+202E; shown raw, it mirrored the rest
    # of the line. The build writes it as its code point, as transcript.ts does.
    c = LogKonsole()
    c.run("create topic orders partitions 1")
    c.run('produce orders {"name":"\\u202egnp.exe", "x":"\\u2066a\\u2069"}')
    result = c.run("read orders")
    assert "\u202e" in result.text
    html = render_console_entry("read orders \u202b# \u2068x", result)
    assert BIDI.search(html) is None
    assert "&lt;U+202E&gt;gnp.exe" in html and "&lt;U+2066&gt;a&lt;U+2069&gt;" in html
    assert "$ read orders &lt;U+202B&gt;# &lt;U+2068&gt;x" in html
    assert render_console_line("Meintest du `\u202eab`?") == (
        'Meintest du <code class="lk-console__code">&lt;U+202E&gt;ab</code>?'
    )


def test_a_console_answer_shows_code_as_code(tmp_path: Path) -> None:
    soup = convert(tmp_path, "```log-console\n! describ group billing\n```\n")
    codes = [code.get_text() for code in soup.select(".lk-console__out code.lk-console__code")]
    assert codes == ["describe", "hilfe"]
    assert "`" not in soup.select_one(".lk-console__out").get_text()


@pytest.mark.parametrize(
    ("header", "problem"),
    [
        (
            'kind="log" visibility_timeout="7" max_receive_count="2"',
            "Die Option „visibility_timeout“ gilt nicht für die Log-Konsole (kind=„log“). "
            "Sie hat keine Optionen.",
        ),
        (
            'kind="saga" max_receive_count="2"',
            "Die Option „max_receive_count“ gilt nicht für die Saga-Konsole",
        ),
    ],
)
def test_a_console_task_refuses_an_option_its_kind_does_not_know(
    tmp_path: Path, header: str, problem: str
) -> None:
    text = (
        f'# T\n\nText.\n\n```konsolen-aufgabe id="k" {header}\n--- pruefung\n'
        '@pruefe("x")\ndef _():\n    assert False\n--- loesung\ntopics\n```\n'
    )
    with pytest.raises(LessonError) as info:
        convert(tmp_path, text)
    assert f"seite.md:5: Block `konsolen-aufgabe`: {problem}" in str(info.value)


def test_a_console_task_of_the_queue_takes_the_queues_options(tmp_path: Path) -> None:
    text = (
        '```konsolen-aufgabe id="k" kind="queue" visibility_timeout="7"\n--- pruefung\n'
        '@pruefe("gesendet")\ndef _():\n    assert queue.visibility_timeout == 7\n'
        "    assert len(queue.verlauf()) > 0, 'Nichts gesendet.'\n--- loesung\nsend a\n```\n"
    )
    data = json.loads(convert(tmp_path, text).select_one(".lk-exercise__data")["data-lk-json"])
    assert (data["kind"], data["options"]) == ("queue", {"visibility_timeout": "7"})


def test_the_raft_console_shows_its_election_and_takes_its_options(tmp_path: Path) -> None:
    soup = convert(tmp_path, '```raft-konsole knoten="5" seed="3"\ntick 60\nstatus\n```\n')
    console = soup.select_one("[data-lk-console]")
    data = json.loads(console.select_one(".lk-console__data")["data-lk-json"])
    assert data["kind"] == "raft" and data["setup"] == ["tick 60", "status"]
    log = console.select_one(".lk-console__log").get_text()
    assert "ist Leader in Term" in log and "Mehrheit 3 von 5" in log
    assert "n5" in console.select_one(".lk-console__picture svg").get_text()


def test_a_console_task_of_raft_names_its_model_sim(tmp_path: Path) -> None:
    text = (
        '```konsolen-aufgabe id="k" kind="raft" knoten="5"\n--- pruefung\n'
        '@pruefe("Leader")\ndef _():\n    assert len(sim.namen) == 5\n'
        "    assert sim.leader() is not None, 'Noch kein Leader.'\n"
        "--- loesung\ntick 80\n```\n"
    )
    data = json.loads(convert(tmp_path, text).select_one(".lk-exercise__data")["data-lk-json"])
    assert (data["kind"], data["options"]) == ("raft", {"knoten": "5"})


def test_an_indented_line_is_a_row_that_keeps_its_columns() -> None:
    from lessonkit.build.render import render_console_lines

    html = render_console_lines("t=0, Leader n1\n  KNOTEN  ROLLE\n  n1      Leader\nUnterwegs: 0.")
    soup = BeautifulSoup(html, "html.parser")
    klassen = [" ".join(line["class"]) for line in soup.select(".lk-console__line")]
    assert klassen == [
        "lk-console__line",
        "lk-console__line lk-console__line--row",
        "lk-console__line lk-console__line--row",
        "lk-console__line",
    ]
