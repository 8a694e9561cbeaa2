"""The rules a course page keeps beyond its blocks, each finding in German with file:line.

What the start page says about a page and the page's header line agree; every lesson and
challenge is listed on the start page and in its ``fortschritt`` overview; a lesson ends with
its closing sections; links into the glossary name an entry; a page stays readable in one
sitting; the code a reader sees fits a phone; the prose uses the course's words, not the ones
it retired. ``tests/test_content.py`` runs these rules on
every page, ``python -m lessonkit.authoring.check_page`` on the pages an author names.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
START = "index.md"

#: A row of the start page's table: | [Title](path.md) | Track · Thema | ca. N Min. |
ROW = re.compile(
    r"^\| \[(?P<title>[^\]]+)\]\((?P<path>[^)]+\.md)\) \| (?P<track>[^|]+) \| (?P<dauer>[^|]+) \|$"
)
#: A lesson's header line: Track <Track> · <Thema> · ca. N Min.[ · Teil x von y]
HEADER = re.compile(
    r"^Track (?P<track>.+?) · (?P<thema>.+?) · (?P<dauer>ca\. \d+ Min\.)(?: · .+)?$"
)
#: The sections a lesson ends with, in this order.
LESSON_END = ("Merksatz", "Prüfstein", "Quellen und weiterlesen", "Über die Quellen hinaus")
#: What a challenge page has (shorter than a lesson).
CHALLENGE_PARTS = ("Worum es geht", "Quellen und weiterlesen", "Über die Quellen hinaus")
#: A page a reader can finish in one sitting (counted like ``wc -w``, code included).
MAX_WORDS = 7_500
#: The longest line of code a reader sees (docs/autoren.md: phones).
MAX_CODE_CHARS = 60
#: Cells published before the line rule was checked, by page and hash of their code: kept as
#: they are, because changing a cell's code hides a reader's draft of it. A cell the author
#: edits anyway loses its place here and must keep the rule.
KEPT_LONG_LINES = Path(__file__).resolve().parent / "kept_long_lines.json"


@dataclass(frozen=True)
class Finding:
    """One broken rule: where, and what to do, in German."""

    path: str  # relative to the project, e.g. docs/lektionen/sagas.md
    line: int | None
    message: str

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.line}: {self.message}"
            if self.line
            else f"{self.path}: {self.message}"
        )


def _rel(page: Path) -> str:
    """The page as the author names it: relative to the project (else as given)."""
    path = page.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(page)


def _in_docs(page: Path) -> str:
    """The page relative to docs/, as the start page links it."""
    path = page.resolve()
    if path.is_relative_to(DOCS):
        return path.relative_to(DOCS).as_posix()
    return f"{path.parent.name}/{path.name}"


def _line_of(text: str, needle: str) -> int | None:
    index = text.find(needle)
    return None if index < 0 else text.count("\n", 0, index) + 1


def kind_of(page: Path) -> str:
    """``lesson``, ``challenge`` (a page of ``herausforderungen/``) or ``other``."""
    parent = page.resolve().parent.name
    return {"lektionen": "lesson", "herausforderungen": "challenge"}.get(parent, "other")


def start_rows() -> dict[str, tuple[int, dict[str, str]]]:
    """The start page's table rows by page (relative to docs/), with their line."""
    rows = {}
    for number, line in enumerate((DOCS / START).read_text(encoding="utf-8").splitlines(), 1):
        match = ROW.match(line.strip())
        if match:
            rows[match["path"]] = (number, {k: v.strip() for k, v in match.groupdict().items()})
    return rows


def overview_pages() -> set[str]:
    """The pages the start page's ``fortschritt`` block lists."""
    text = (DOCS / START).read_text(encoding="utf-8")
    found: set[str] = set()
    for block in re.findall(r"^```fortschritt[^\n]*\n(.*?)^```", text, re.M | re.S):
        found |= {line.strip() for line in block.splitlines() if line.strip()}
    return found


def listed(page: Path) -> bool:
    """Must the start page list it? Every lesson and challenge page, and the first steps."""
    return kind_of(page) != "other" or page.name == "erste-schritte.md"


def check_start_page(page: Path) -> list[Finding]:
    """The start page lists the page, with the track, topic and time of its header line,
    and its ``fortschritt`` overview counts it."""
    if not listed(page):
        return []
    name = _in_docs(page)
    text = page.read_text(encoding="utf-8")
    findings = []
    rows = start_rows()
    head = next(
        ((n, line) for n, line in enumerate(text.splitlines()[:6], 1) if line.startswith("Track ")),
        None,
    )
    match = HEADER.match(head[1]) if head else None
    if head is None or match is None:
        findings.append(
            Finding(
                _rel(page),
                head[0] if head else 2,
                f"Die Kopfzeile „{head[1] if head else ''}“ hat nicht die Form "
                "„Track … · … · ca. N Min.“ (optional „· Teil 1 von 2“), in den ersten Zeilen.",
            )
        )
    if name not in rows:
        findings.append(
            Finding(
                f"docs/{START}",
                None,
                f"Die Startseite nennt „{name}“ nicht: Ergänze in ihrer Tabelle "
                f"„| [Titel]({name}) | Track · Thema | ca. N Min. |“.",
            )
        )
    elif match is not None:
        number, row = rows[name]
        track = f"{match['track']} · {match['thema']}"
        if row["track"] != track or row["dauer"] != match["dauer"]:
            findings.append(
                Finding(
                    f"docs/{START}",
                    number,
                    f"Die Zeile für „{name}“ sagt „{row['track']} | {row['dauer']}“, die "
                    f"Kopfzeile der Seite (Zeile {head[0] if head else '?'}) „{track} · "
                    f"{match['dauer']}“: Gleiche die beiden an.",
                )
            )
    exercises = re.search(
        r"^\s*```(vorhersage|aufgabe|konsolen-aufgabe|quiz|herausforderung)\b", text, re.M
    )
    if exercises and name not in overview_pages():
        findings.append(
            Finding(
                f"docs/{START}",
                _line_of((DOCS / START).read_text(encoding="utf-8"), "```fortschritt"),
                f"Der Block `fortschritt` der Startseite nennt „{name}“ nicht: Ergänze die "
                "Zeile, sonst zählt der Fortschritt ihre Übungen nicht.",
            )
        )
    return findings


def check_sections(page: Path) -> list[Finding]:
    """A lesson ends with its closing sections; a challenge page has its parts."""
    kind = kind_of(page)
    needed = {"lesson": LESSON_END, "challenge": CHALLENGE_PARTS}.get(kind, ())
    text = page.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+?)\s*$", text, flags=re.MULTILINE)
    return [
        Finding(
            _rel(page),
            None,
            f"Der Abschnitt „## {section}“ fehlt (eine "
            f"{'Lektion' if kind == 'lesson' else 'Herausforderung'} endet mit "
            f"{', '.join(f'„{s}“' for s in needed)}).",
        )
        for section in needed
        if section not in headings
    ]


def glossary_anchors() -> set[str]:
    text = (DOCS / "glossar.md").read_text(encoding="utf-8")
    return set(re.findall(r"\{#([a-z0-9-]+)\}", text))


def check_glossary_links(page: Path) -> list[Finding]:
    """Every ``glossar.md#anker`` names an entry of the glossary."""
    anchors = glossary_anchors()
    findings = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        for anchor in re.findall(r"glossar\.md#([A-Za-z0-9_-]+)", line):
            if anchor not in anchors:
                close = [a for a in sorted(anchors) if anchor.lower() in a or a in anchor.lower()]
                hint = f" Meintest du „{close[0]}“?" if close else ""
                findings.append(
                    Finding(
                        _rel(page),
                        number,
                        f"Den Eintrag glossar.md#{anchor} gibt es nicht.{hint} Die Einträge "
                        "tragen ihren Anker in der Überschrift: „### Begriff {#anker}“.",
                    )
                )
    return findings


#: A challenge's TypeScript twin of its Python sections (``--- start-ts`` and the rest), up to
#: the next section or the block's end: a reader reads one language, so it is not counted.
_TS_TWIN = re.compile(r"^--- ?(?:start|loesung|fehlversuch)-ts\b.*?(?=^--- |^```)", re.M | re.S)


def check_length(page: Path) -> list[Finding]:
    if kind_of(page) == "other":
        return []
    words = len(_TS_TWIN.sub("", page.read_text(encoding="utf-8")).split())
    if words <= MAX_WORDS:
        return []
    return [
        Finding(
            _rel(page),
            None,
            f"Die Seite hat {words} Wörter, höchstens {MAX_WORDS}: kürzen oder teilen "
            "(docs/autoren.md, „Seite geteilt oder Abschnitt verschoben“).",
        )
    ]


_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w-]*)(?P<rest>.*)$")
#: The sections of an exercise whose code the reader sees before solving it.
_SHOWN = {"code", "start"}


@dataclass
class _Open:
    fence: str
    lang: str
    rest: str
    indent: int
    line: int
    section: str = ""


def _fenced(text: str, any_fence: bool) -> Iterator[tuple[int, str, _Open | None, str]]:
    """Each line of ``text`` as ``(line, text, block, edge)``: ``block`` is the fenced block
    the line belongs to (``None`` outside any) and ``edge`` is ``"open"`` or ``"close"`` on
    its fence lines, ``""`` inside. A fence opens a block if it names a language, or with
    ``any_fence`` any fence; a bare fence as long as the opening one closes it."""
    block: _Open | None = None
    for number, line in enumerate(text.splitlines(), 1):
        match = _FENCE.match(line)
        if block is None:
            if match and (match["lang"] or (any_fence and match["fence"])):
                block = _Open(
                    match["fence"], match["lang"], match["rest"], len(match["indent"]), number
                )
                yield number, line, block, "open"
            else:
                yield number, line, None, ""
            continue
        if (
            match is not None
            and not match["lang"]
            and not match["rest"].strip()
            and match["fence"][0] == block.fence[0]
            and len(match["fence"]) >= len(block.fence)
        ):
            yield number, line, block, "close"
            block = None
            continue
        yield number, line, block, ""


def shown_code(text: str) -> list[tuple[int, str, int]]:
    """``(line, code, line of its block)`` of every line of code a reader sees: a cell
    that is not hidden, a ``ts-run``, a prediction's code, a task's or challenge's start."""
    out: list[tuple[int, str, int]] = []
    for number, line, block, edge in _fenced(text, any_fence=False):
        if block is None or edge:
            continue
        code = line[block.indent :]
        if block.lang in ("vorhersage", "aufgabe", "herausforderung"):
            if code.startswith("--- "):
                block.section = (code[4:].split() or [""])[0]
            elif block.section in _SHOWN:
                out.append((number, code, block.line))
        elif block.lang == "ts-run" or (
            block.lang == "pycell" and "hidden" not in block.rest and "pruefung" not in block.rest
        ):
            out.append((number, code, block.line))
    return out


def _block_hashes(shown: list[tuple[int, str, int]]) -> dict[int, str]:
    """A short hash of each block's shown code, by the block's line."""
    codes: dict[int, list[str]] = {}
    for _, code, start in shown:
        codes.setdefault(start, []).append(code)
    return {
        start: hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
        for start, lines in codes.items()
    }


def kept_long_lines() -> dict[str, list[str]]:
    if not KEPT_LONG_LINES.exists():
        return {}
    kept: dict[str, list[str]] = json.loads(KEPT_LONG_LINES.read_text(encoding="utf-8"))
    return kept


def long_code_lines(page: Path) -> list[tuple[int, int, str]]:
    """``(line, length, its block's hash)`` of each shown code line over ``MAX_CODE_CHARS``."""
    shown = shown_code(page.read_text(encoding="utf-8"))
    hashes = _block_hashes(shown)
    return [
        (number, len(code.rstrip()), hashes[start])
        for number, code, start in shown
        if len(code.rstrip()) > MAX_CODE_CHARS
    ]


def check_code_lines(page: Path) -> list[Finding]:
    """The code a reader sees fits a phone: at most ``MAX_CODE_CHARS`` characters a line."""
    kept = set(kept_long_lines().get(_rel(page), []))
    return [
        Finding(
            _rel(page),
            number,
            f"Die Codezeile ist {length} Zeichen lang, höchstens {MAX_CODE_CHARS} (Telefone): "
            "umbrechen oder kürzer benennen.",
        )
        for number, length, digest in long_code_lines(page)
        if digest not in kept
    ]


def check_nav(page: Path) -> list[Finding]:
    """A page the start page lists stands in mkdocs.yml's ``nav`` too."""
    if not listed(page):
        return []
    name = _in_docs(page)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    # The nav: from its key to the next key at the top level.
    nav = (
        re.split(r"\n\S", config.split("\nnav:", 1)[1], maxsplit=1)[0] if "\nnav:" in config else ""
    )
    if f": {name}" in nav or f"- {name}" in nav:
        return []
    return [
        Finding(
            "mkdocs.yml",
            _line_of(config, "\nnav:"),
            f"„{name}“ fehlt in `nav`: Ergänze unter den anderen Seiten seiner Art eine Zeile "
            f'„- "N · Titel": {name}“ (sonst bricht der strenge Build ab).',
        )
    ]


#: The sections of an exercise a reader reads as text (the others hold code or commands).
_PROSE_SECTIONS = {"aufgabe", "frage", "hinweis", "erklaerung", "richtig", "falsch"}
#: Inline code, a link's target, an HTML comment or tag, a heading's attributes: not prose.
_NOT_PROSE = re.compile(r"`[^`]*`|\]\([^)]*\)|<!--.*?-->|<[^>]+>|\{[#.][^}]*\}")
#: Fence options a reader sees (a diagram's title and description).
_SHOWN_OPTIONS = re.compile(r'\b(?:titel|beschreibung)="([^"]*)"')
#: The end of a sentence, for rules that look at the sentence around a word.
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every line a reader reads as prose: outside code blocks, the
    text sections of an exercise, a diagram's labels, title and description; without
    inline code, link targets, HTML tags and heading attributes."""
    out: list[tuple[int, str]] = []
    for number, line, block, edge in _fenced(text, any_fence=True):
        if block is None:
            out.append((number, _NOT_PROSE.sub(" ", line)))
            continue
        if edge == "open":
            shown = " ".join(_SHOWN_OPTIONS.findall(block.rest))
            if shown:
                out.append((number, shown))
        if edge:
            continue
        inner = line[block.indent :]
        if block.lang == "mermaid":
            out.append((number, inner))
        elif block.lang in ("vorhersage", "aufgabe", "konsolen-aufgabe", "quiz", "herausforderung"):
            if inner.startswith("--- "):
                block.section = (inner[4:].split() or [""])[0]
            elif block.section in _PROSE_SECTIONS:
                out.append((number, _NOT_PROSE.sub(" ", inner)))
    return out


def _paragraphs(lines: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """Prose lines grouped into paragraphs (split at blank lines and line gaps)."""
    groups: list[list[tuple[int, str]]] = []
    last = -1
    for number, line in lines:
        if not line.strip():
            last = -1
            continue
        if number != last + 1 or not groups:
            groups.append([])
        groups[-1].append((number, line))
        last = number
    return groups


@dataclass(frozen=True)
class RetiredWord:
    """A word the course no longer uses (docs/glossar.md, „Ein Wort je Sache“).

    ``wort`` matches the word, case-sensitive (a German noun is capitalised; the lower-case
    API names of pysim are never prose anyway). Where the word has an innocent meaning too,
    ``nur_mit`` must match in the same ``umfeld`` (``"absatz"`` or ``"satz"``) and
    ``ausser`` must not match right around the word (``ausser_davor``, ``ausser_danach``).
    """

    wort: re.Pattern[str]
    statt: str  # the course's word, as the finding names it
    nur_mit: re.Pattern[str] | None = None
    umfeld: str = "absatz"
    ausser_davor: re.Pattern[str] | None = None
    ausser_danach: re.Pattern[str] | None = None
    ausser_im_satz: re.Pattern[str] | None = None


#: The retired words and what the course says instead (docs/autoren.md, „Regeln für Sprache
#: und Inhalt“). A word written alone in German quotation marks („Replik“) is named, not
#: used: the glossary and the guide name the retired words that way.
RETIRED_WORDS = (
    RetiredWord(
        re.compile(r"\bReplik(?:en|s)?\b"),
        "Replikat (das Replikat, die Replikate); „Replik“ heißt Erwiderung",
    ),
    RetiredWord(
        re.compile(
            r"\b(?:[Ee]in|[Ee]inen|[Ee]inem|[Dd]as|[Dd]em|[Dd]es|[Jj]edes|[Jj]edem|[Kk]ein|"
            r"[Kk]einen|[Kk]einem)\s+Read[- ]Replica\b(?!s)"
        ),
        "„eine Read Replica“ (feminin: eine, der, die Read Replica)",
    ),
    RetiredWord(re.compile(r"\bAttrappen?\b"), "Fake oder Mock"),
    RetiredWord(
        re.compile(r"\bHalter(?:s|n|in|innen)?\b"),
        "Inhaber (einer Lease oder Sperre)",
        nur_mit=re.compile(r"Lease|Sperre|Lock|Mutex|Fencing|Token"),
    ),
    RetiredWord(re.compile(r"\bZusagen?\b"), "Garantie"),
    RetiredWord(re.compile(r"\bSperrdienst(?:e|es|s)?\b"), "Lock-Service"),
    RetiredWord(re.compile(r"\bWahl-Frist(?:en)?\b"), "Election-Timeout"),
    RetiredWord(re.compile(r"\bHerzschl(?:ag|ags|äge|ägen)\b"), "Heartbeat"),
    RetiredWord(re.compile(r"\bGrabstein(?:e|en|s)?\b"), "Tombstone"),
    RetiredWord(
        re.compile(r"\bTrennung(?:en)?\b"),
        "Netzpartition (für das geteilte Netz)",
        ausser_danach=re.compile(r"^\s+(?:von|zwischen|der|des|nach)\b"),
    ),
    RetiredWord(re.compile(r"\bNetz(?:werk)?trennung(?:en)?\b"), "Netzpartition"),
    RetiredWord(
        re.compile(r"\bGeschichten?\b"),
        "Verlauf (die Folge der Ereignisse oder Operationen; „Geschichte“ nur als Erzählung)",
        nur_mit=re.compile(
            r"Ereignis|Lauf|Läuf|Prüfer|Log\b|Topic|Stream|Operation|History|Eintr|Client|Knoten"
        ),
        ausser_davor=re.compile(r"\baus der\s+$"),
        ausser_danach=re.compile(r"^(?:\s+(?:von|vom|über|oben)\b|,\s+(?:dass|wie)\b)"),
    ),
    RetiredWord(
        re.compile(
            r"\b(?:ab)?(?:ge)?buch(?:e|en|st|t|te|ten)\b|\bgebuchte[nmrs]?\b|\babgebuchte[nmrs]?\b"
        ),
        "belasten (ein Konto, eine Karte); eine Zeile im Kassenbuch bleibt eine Buchung",
        nur_mit=re.compile(
            r"€|\bEuro\b|Geld|Kont(?:o|en)\b|Karte|Betrag|Zahlung|zahl|Abbuchung|Überweisung"
        ),
        umfeld="satz",
        ausser_im_satz=re.compile(r"Flug|Hotel|Mietwagen|Reise|Zimmer|Ticket|Termin"),
    ),
)


def _sentence_around(paragraph: str, start: int) -> str:
    begin = 0
    for cut in _SENTENCE_END.finditer(paragraph):
        if cut.start() >= start:
            return paragraph[begin : cut.start()]
        begin = cut.end()
    return paragraph[begin:]


def retired_words(text: str) -> list[tuple[int, str, str]]:
    """``(line, word, what to say instead)`` of each retired word the prose of ``text`` uses."""
    found: list[tuple[int, str, str]] = []
    for paragraph in _paragraphs(prose_lines(text)):
        joined, starts = "", []
        for number, line in paragraph:
            starts.append((len(joined), number))
            joined += line + "\n"
        for rule in RETIRED_WORDS:
            for match in rule.wort.finditer(joined):
                before, after = joined[: match.start()], joined[match.end() :]
                if before.endswith("„") and after.startswith(("“", "”")):
                    continue  # named, not used
                if rule.ausser_davor and rule.ausser_davor.search(before[-40:]):
                    continue
                if rule.ausser_danach and rule.ausser_danach.search(after[:40]):
                    continue
                umfeld = (
                    _sentence_around(joined, match.start()) if rule.umfeld == "satz" else joined
                )
                if rule.nur_mit and not rule.nur_mit.search(umfeld):
                    continue
                if rule.ausser_im_satz and rule.ausser_im_satz.search(
                    _sentence_around(joined, match.start())
                ):
                    continue
                at = max(n for offset, n in starts if offset <= match.start())
                found.append((at, " ".join(match[0].split()), rule.statt))
    return sorted(found)


def check_words(page: Path) -> list[Finding]:
    """The prose uses the course's words, not the ones it retired (docs/glossar.md)."""
    return [
        Finding(
            _rel(page),
            number,
            f"„{word}“ sagt der Kurs nicht mehr: Schreib {instead} "
            "(docs/glossar.md, „Ein Wort je Sache“).",
        )
        for number, word, instead in retired_words(page.read_text(encoding="utf-8"))
    ]


def diagram_lines(text: str) -> list[int]:
    """The line of each ``mermaid`` diagram a reader sees: a fence of its own, also inside
    a tab or a box, not one shown inside another block (the guide's Markdown examples)."""
    return [
        number
        for number, _, block, edge in _fenced(text, any_fence=False)
        if edge == "open" and block is not None and block.lang == "mermaid"
    ]


def check_diagram(page: Path) -> list[Finding]:
    """A lesson draws at least one mermaid diagram (a sequence of messages as a sequence
    diagram beside the simulation's picture: the idea beside it happening)."""
    if kind_of(page) != "lesson" or diagram_lines(page.read_text(encoding="utf-8")):
        return []
    return [
        Finding(
            _rel(page),
            None,
            "Die Lektion hat kein mermaid-Diagramm: Zeichne den Ablauf, den sie erklärt, "
            "als Sequenzdiagramm neben das Bild der Simulation (docs/autoren.md, „Diagramme“).",
        )
    ]


#: Every rule, in the order the one-page check reports them.
RULES = (
    check_nav,
    check_start_page,
    check_sections,
    check_glossary_links,
    check_length,
    check_code_lines,
    check_words,
    check_diagram,
)


def check(page: Path) -> list[Finding]:
    """Every rule on ``page``."""
    return [finding for rule in RULES for finding in rule(page)]
