"""The ``werkbank`` block: one place where the reader picks a workload, the number of nodes
and the faults, and runs a node of their own (``lessonkit.runtime.workbench``).

Authors write::

    ```werkbank last="lin-kv"
    ```

The block has no body: what it offers comes from here and from ``pysim`` (every workload of
``pysim.cluster.lasten.LASTEN`` with a line on what its checker checks, a link to its challenge
page and a small starting node; every fault kind of ``FENSTER`` with its sentence; the limits
of ``lessonkit.runtime.workbench``). The build proves each starting node: it runs, it answers, and it
fails its workload's checker in at least one of a few runs (like a challenge's starting code),
so a reader begins with a node that works as a skeleton and is wrong where a real one must
work. Without JavaScript the block is a German text of what it offers; the page script
(``frontend/src/components/werkbank``) replaces it with the form and the editor.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from lessonkit.build.blocks import WorkbenchBlock
from lessonkit.build.contract import FaultChoice, WorkbenchData, WorkloadChoice
from lessonkit.build.errors import LessonError
from lessonkit.build.pagedata import data_element, site_path
from lessonkit.fences.kind import FenceKind, PageRun, refuse_body
from lessonkit.runtime import challenges, workbench
from lessonkit.runtime.challenges import Vorgabe
from pysim.cluster import FENSTER, GEZIELT
from pysim.cluster.lasten import LASTEN
from pysim.cluster.stoerungen import GEZIELT_TEXT


@dataclass(frozen=True)
class Angebot:
    """One workload on the workbench."""

    #: What its checker checks, one German sentence (docs/herausforderungen/werkbank.md says
    #: the same in its own words).
    prueft: str
    #: Its challenge page, relative to docs/.
    seite: str
    #: The node the form starts with: it answers, and it is wrong where a real one must work.
    start: str
    #: Under which the build proves that ``start`` fails (a seed of ``seeds`` fails).
    probe: Vorgabe


ECHO = """\
class EchoKnoten(Knoten):
    def bei_echo(self, nachricht):
        text = nachricht["echo"][:7]
        body = {"type": "echo_ok", "echo": text}
        self.antworte(nachricht, body)
"""

EINDEUTIG = """\
class Zaehlwerk(Knoten):
    def beim_start(self):
        self.naechste = 0

    def bei_generate(self, nachricht):
        self.naechste += 1
        body = {"type": "generate_ok", "id": self.naechste}
        self.antworte(nachricht, body)
"""

BROADCAST = """\
class Verteiler(Knoten):
    def beim_start(self):
        self.werte, self.nachbarn = set(), []

    def bei_topology(self, nachricht):
        self.nachbarn = nachricht["topology"][self.id]
        self.antworte(nachricht, {"type": "topology_ok"})

    def bei_broadcast(self, nachricht):
        self.werte.add(nachricht["message"])
        self.antworte(nachricht, {"type": "broadcast_ok"})

    def bei_read(self, nachricht):
        body = {"type": "read_ok",
                "messages": sorted(self.werte)}
        self.antworte(nachricht, body)
"""

ZAEHLER = """\
class Summe(Knoten):
    def beim_start(self):
        self.summe = 0

    def bei_add(self, nachricht):
        self.summe += nachricht["delta"]
        self.antworte(nachricht, {"type": "add_ok"})

    def bei_read(self, nachricht):
        body = {"type": "read_ok", "value": self.summe}
        self.antworte(nachricht, body)
"""

KAFKA = """\
class LogKnoten(Knoten):
    def beim_start(self):
        self.logs, self.commits = {}, {}

    def bei_send(self, nachricht):
        log = self.logs.setdefault(nachricht["key"], [])
        log.append(nachricht["msg"])
        body = {"type": "send_ok", "offset": len(log) - 1}
        self.antworte(nachricht, body)

    def bei_poll(self, nachricht):
        msgs = {}
        for key, ab in nachricht["offsets"].items():
            log = self.logs.get(key, [])
            msgs[key] = [[o, log[o]]
                         for o in range(ab, len(log))]
        self.antworte(nachricht,
                      {"type": "poll_ok", "msgs": msgs})

    def bei_commit_offsets(self, nachricht):
        self.commits.update(nachricht["offsets"])
        self.antworte(nachricht,
                      {"type": "commit_offsets_ok"})

    def bei_list_committed_offsets(self, nachricht):
        offsets = {k: self.commits[k]
                   for k in nachricht["keys"]
                   if k in self.commits}
        body = {"type": "list_committed_offsets_ok",
                "offsets": offsets}
        self.antworte(nachricht, body)
"""

REGISTER = """\
class KvKnoten(Knoten):
    def beim_start(self):
        self.werte = {}

    def bei_read(self, nachricht):
        key = nachricht["key"]
        if key in self.werte:
            body = {"type": "read_ok",
                    "value": self.werte[key]}
        else:
            body = {"type": "error", "code": 20,
                    "text": "unbekannt"}
        self.antworte(nachricht, body)

    def bei_write(self, nachricht):
        self.werte[nachricht["key"]] = nachricht["value"]
        self.antworte(nachricht, {"type": "write_ok"})

    def bei_cas(self, nachricht):
        key = nachricht["key"]
        if self.werte.get(key) == nachricht["from"]:
            self.werte[key] = nachricht["to"]
            body = {"type": "cas_ok"}
        else:
            body = {"type": "error", "code": 22,
                    "text": "anderer Wert"}
        self.antworte(nachricht, body)
"""

LEASE = """\
class Schreiber(Knoten):
    async def kv(self, body):
        try:
            antwort = await self.frage("fence-kv", body)
            return antwort.body
        except FehlerAntwort as fehler:
            return fehler.body
        except KeineAntwort:
            return {"type": "error", "code": 0,
                    "text": "keine Antwort"}

    async def bei_read(self, nachricht):
        body = {"type": "read", "key": nachricht["key"]}
        self.antworte(nachricht, await self.kv(body))

    async def bei_write(self, nachricht):
        body = {"type": "write", "key": nachricht["key"],
                "value": nachricht["value"]}
        self.antworte(nachricht, await self.kv(body))

    async def bei_cas(self, nachricht):
        key = nachricht["key"]
        alt = await self.kv({"type": "read", "key": key})
        if alt.get("value") != nachricht["from"]:
            body = {"type": "error", "code": 22,
                    "text": "anderer Wert"}
        else:
            neu = {"type": "write", "key": key,
                   "value": nachricht["to"]}
            body = await self.kv(neu)
            if body["type"] == "write_ok":
                body = {"type": "cas_ok"}
        self.antworte(nachricht, body)
"""

#: Every workload of ``LASTEN``, in the order of the challenges.
ANGEBOT: dict[str, Angebot] = {
    "echo": Angebot(
        "Jede Antwort bringt genau den Text ihrer Anfrage zurück.",
        "herausforderungen/echo.md",
        ECHO,
        Vorgabe("echo", knoten=1, seeds=3),
    ),
    "unique-ids": Angebot(
        "Keine ID, die ein Knoten bestätigt, gibt es im ganzen Cluster zweimal.",
        "herausforderungen/eindeutige-ids.md",
        EINDEUTIG,
        Vorgabe("unique-ids", seeds=3),
    ),
    "broadcast": Angebot(
        "Jeder bestätigte Wert steht am Ende im letzten Lesen jedes Knotens.",
        "herausforderungen/broadcast.md",
        BROADCAST,
        Vorgabe("broadcast", seeds=3),
    ),
    "g-counter": Angebot(
        "Das letzte Lesen jedes Knotens zeigt die Summe der Zuwächse, die bestätigt waren "
        "(dazu höchstens solche, die noch liefen), und kein Lesen zeigt mehr, als bis dahin "
        "hinzukam.",
        "herausforderungen/zaehler.md",
        ZAEHLER,
        Vorgabe("g-counter", seeds=3),
    ),
    "kafka": Angebot(
        "Jeder Offset eines Logs hat eine Nachricht, ein poll überspringt keinen bekannten "
        "Offset, und eine gespeicherte Position geht nie zurück.",
        "herausforderungen/kafka-log.md",
        KAFKA,
        Vorgabe("kafka", seeds=3),
    ),
    "lin-kv": Angebot(
        "read, write und cas sind linearisierbar: Jede Operation lässt sich in einem "
        "Augenblick zwischen Anfrage und Antwort wirken lassen.",
        "herausforderungen/register.md",
        REGISTER,
        Vorgabe("lin-kv", seeds=3),
    ),
    "lease-kv": Angebot(
        "Wie lin-kv, aber die Werte liegen im Storage fence-kv: Ein cas, das liest und dann "
        "schreibt, darf kein Update eines anderen Knotens verlieren.",
        "herausforderungen/lease.md",
        LEASE,
        Vorgabe("lease-kv", seeds=5),
    ),
}

#: What each fault kind does, one German phrase (the overview's table says the same, longer;
#: the targeted kinds' are the challenge pages' own, ``GEZIELT_TEXT``).
STOERUNG_TEXT: dict[str, str] = {
    "teilung": "teilt das Netz in zwei Seiten; was von der anderen Seite kommt, geht verloren",
    "isolation": "isoliert einen Knoten vom Rest des Netzes",
    "bruecke": "teilt das Netz in zwei Hälften, die sich einen Knoten teilen: er hört beide",
    "mehrheit": "teilt das Netz in eine Mehrheit und eine Minderheit",
    "absturz": "lässt einen Knoten abstürzen und neu starten: Attribute weg, self.speicher bleibt",
    "pause": "hält einen Knoten an; danach holt er nach, was ankam",
    "uhr": "verstellt die Uhr eines Knotens",
    **GEZIELT_TEXT,
    "nachlauf": "macht das letzte Fenster zu einer Netzpartition, die erst nach der letzten "
    "Anfrage der Clients heilt",
}


def _last(value: str) -> str:
    if value not in LASTEN:
        raise ValueError(f"last=„{value}“ gibt es nicht: {', '.join(sorted(LASTEN))}.")
    return value


_TITLE = re.compile(r"^# (.+)$", re.MULTILINE)


def _page_title(docs_dir: str, page: str, path: str, line: int) -> str:
    """The title of a challenge page the block links (its ``#`` heading)."""
    file = Path(docs_dir) / page
    if not file.is_file():
        raise LessonError(path, line, f"Werkbank: die Seite „{page}“ gibt es nicht in {docs_dir}/.")
    found = _TITLE.search(file.read_text(encoding="utf-8"))
    return found[1].strip() if found else page


def workbench_data(block: WorkbenchBlock, run: PageRun) -> WorkbenchData:
    """What the page script gets: the workloads with their links and starting nodes, the
    fault kinds, the limits and the form's first choices."""
    here = site_path(run.page.relative_path)
    lasten: list[WorkloadChoice] = []
    for name, angebot in ANGEBOT.items():
        target = site_path(angebot.seite)
        href = os.path.relpath(target or ".", here or ".").replace(os.sep, "/") + "/"
        lasten.append(
            {
                "name": name,
                "prueft": angebot.prueft,
                "seite": href,
                "datei": posixpath.relpath(
                    angebot.seite, posixpath.dirname(run.page.relative_path)
                ),
                "titel": _page_title(run.page.docs_dir, angebot.seite, run.path, block.line),
                "start": angebot.start,
            }
        )
    stoerungen: list[FaultChoice] = [
        {"name": art, "text": STOERUNG_TEXT[art], "gezielt": art in GEZIELT} for art in FENSTER
    ]
    return {
        "lasten": lasten,
        "stoerungen": stoerungen,
        "grenzen": {
            "max_knoten": workbench.MAX_KNOTEN,
            "min_dauer": workbench.MIN_DAUER,
            "max_dauer": workbench.MAX_DAUER,
            "max_fenster": workbench.MAX_FENSTER,
            "max_seed": workbench.MAX_SEED,
            "max_seeds": workbench.MAX_SEEDS,
        },
        "felder": dict(workbench.FELDER),
        "voreinstellung": {**workbench.VOREINSTELLUNG, "last": block.last},
    }


async def prove_start(name: str, angebot: Angebot) -> str | None:
    """What is wrong with a workload's starting node (German), or None: it must run, answer
    (a client's operation ends ``ok``) and fail one seed of its ``probe``."""
    klasse, error = await challenges.load_node(angebot.start)
    if klasse is None:
        return f"Der Startknoten für „{name}“ läuft nicht:\n{error}"
    answered, failed = False, False
    for seed in range(1, angebot.probe.seeds + 1):
        outcome = challenges.seed_outcome(klasse, angebot.probe, seed, "", verkleinern=False)
        answered = answered or outcome["kennzahlen"]["ok_anteil"] > 0
        failed = failed or outcome["ok"] is False
        if answered and failed:
            return None
    if not answered:
        return (
            f"Der Startknoten für „{name}“ soll antworten und dann scheitern; in keinem der "
            f"{angebot.probe.seeds} Läufe bekam ein Client eine Antwort."
        )
    return (
        f"Der Startknoten für „{name}“ besteht alle {angebot.probe.seeds} Läufe von "
        f"{angebot.probe.beschreibung()} Ein Startknoten soll dort falsch sein, wo ein echter "
        "Knoten arbeiten muss."
    )


class WorkbenchKind(FenceKind[WorkbenchBlock, WorkbenchData]):
    """``werkbank``: no body; ``last`` names the workload the form starts with."""

    #: Its choices and drafts are kept per page.
    one_per_page = (
        WorkbenchBlock,
        "Eine Seite hat höchstens eine Werkbank; die erste steht in Zeile {line}.",
    )

    def __init__(self) -> None:
        super().__init__({"last": _last})

    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> WorkbenchBlock:
        refuse_body(
            src,
            "werkbank",
            "Lasten, Startknoten und Störungen kommen aus lessonkit/fences/workbench.py.",
        )
        return WorkbenchBlock(
            slot=slot, line=line, last=options.get("last", workbench.VOREINSTELLUNG["last"])
        )

    def label(self, block: WorkbenchBlock, count: Callable[[str], int]) -> str:
        return "Werkbank"

    async def run(self, block: WorkbenchBlock, run: PageRun) -> WorkbenchData:
        missing = sorted(set(LASTEN) - set(ANGEBOT))
        if missing:
            raise LessonError(
                run.path,
                block.line,
                f"Werkbank: Für die Lasten {', '.join(missing)} fehlt ein Eintrag in ANGEBOT "
                "(lessonkit/fences/workbench.py): ein Satz, was ihr Prüfer prüft, ihre Seite und "
                "ein Startknoten.",
            )
        for name, angebot in ANGEBOT.items():
            problem = await prove_start(name, angebot)
            if problem is not None:
                raise LessonError(run.path, block.line, f"Werkbank: {problem}")
        return workbench_data(block, run)

    def render(self, block: WorkbenchBlock, result: WorkbenchData) -> str:
        return render_workbench(result)


def _link(titel: str, datei: str) -> str:
    """``[titel](datei)`` as the build writes an author's link in a block (``exercises.md``)."""
    from lessonkit.fences.exercises import md

    html = md(f"[{titel}]({datei})").strip()
    return html.removeprefix("<p>").removesuffix("</p>")


def render_workbench(data: WorkbenchData) -> str:
    """The block's HTML: its data, and what it offers in German for a page without
    JavaScript (the page script puts the form in its place)."""
    g = data["grenzen"]
    # The links as an author's Markdown links: converted like every other (MkDocs), or left
    # for Zensical, which converts the page's relative links itself (lessonkit/build/links.py).
    lasten = "".join(
        f"<li><code>{escape(last['name'])}</code>: {escape(last['prueft'])} "
        f"({_link(last['titel'], last['datei'])})</li>"
        for last in data["lasten"]
    )
    stoerungen = "".join(
        f"<li><code>{escape(s['name'])}</code>{' (gezielt)' if s['gezielt'] else ''}: "
        f"{escape(s['text'])}</li>"
        for s in data["stoerungen"]
    )
    return (
        '<div class="lk-werkbank" data-lk-werkbank>'
        f"{data_element('werkbank', data)}"
        '<div class="lk-werkbank__offer">'
        "<p><strong>Die Werkbank braucht JavaScript.</strong> Mit ihm wählst du hier eine "
        "Last, die Zahl der Knoten und die Störungen, schreibst deinen Knoten und lässt ihn "
        "laufen. Angeboten werden:</p>"
        f"<p>Lasten, jede mit dem, was ihr Prüfer prüft:</p><ul>{lasten}</ul>"
        f"<p>Störungen, beliebig kombiniert:</p><ul>{stoerungen}</ul>"
        f"<p>Grenzen: 1 bis {g['max_knoten']} Knoten, {g['min_dauer']} bis {g['max_dauer']} "
        f"Ticks Last, 1 bis {g['max_fenster']} Störfenster je Lauf, Nachrichtenverlust von 0 "
        f"bis 100 %, „Prüfen“ über 1 bis {g['max_seeds']} Läufe.</p>"
        "</div></div>"
    )


WORKBENCH = WorkbenchKind()
