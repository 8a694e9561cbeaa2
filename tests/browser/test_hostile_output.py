"""A reader's code cannot freeze, crash, cover or leak the page (issue 15, items 5-8).

Huge values, messages and pictures are cut by the kernel; many small prints reach the
page in a few batches; `input()` says in German why it cannot work; `Stopp` ends a
flood of prints and a long sleep; a hostile picture neither covers the page nor
loads anything from another origin, while pysim's pictures keep the palette.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RecordingPage
from tests.browser.pages import COUNT_OUTPUT_MESSAGES, FIRST_STEPS, RUN, Cell


def run_code(page: Page, code: str) -> Cell:
    """Type ``code`` into cell 6 of "Erste Schritte", run it, return the cell."""
    target = Cell.number(page, 6)
    target.run_code(code)
    return target


def start_code(page: Page, code: str) -> Cell:
    """Type and start ``code`` in cell 6 without waiting for the end."""
    target = Cell.number(page, 6)
    target.start_code(code)
    return target


def test_a_huge_value_shows_its_start_and_a_note(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    value = run_code(page, "list(range(10**6))").value
    expect(value).to_contain_text("[0, 1, 2, 3,")
    expect(value).to_contain_text("Wert gekürzt")
    assert len(value.inner_text()) < 11_000


def test_huge_strings_and_messages_do_not_crash_the_tab(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = run_code(page, "'a' * 10**8")
    expect(target.value).to_contain_text("Wert gekürzt")
    target = run_code(page, "raise ValueError('x' * 10**8)")
    error = target.error
    expect(error).to_contain_text("ValueError: xxxx")
    expect(error).to_contain_text("Meldung gekürzt")
    assert len(error.inner_text()) < 11_000
    target = run_code(page, "'<svg>' + ' ' * 50_000_000 + '</svg>'")  # a text, not a picture
    expect(target.value).to_contain_text("Wert gekürzt")
    assert page.evaluate("1 + 1") == 2


@pytest.mark.parametrize(
    ("inside", "says"),
    [
        ("' ' * 50_000_000", "Bild nicht gezeigt"),  # characters
        ("'<rect/>' * 65_000", "65.002 Elemente, erlaubt sind 10.000"),  # elements (issue 28)
    ],
)
def test_a_huge_picture_is_not_drawn(page: Page, site_url: str, inside: str, says: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = run_code(
        page,
        "class Riesig:\n    def _repr_svg_(self):\n"
        f"        return '<svg>' + {inside} + '</svg>'\nRiesig()",
    )
    expect(target.value).to_contain_text(says)
    assert target.root.locator(".lk-output__svg").count() == 0


#: The characters that switch the writing direction (embeddings, overrides, isolates).
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_direction_switching_characters_in_output_are_shown_as_code_points(
    page: Page, site_url: str
) -> None:
    # Raw, U+202E mirrored the rest of the line: "datei-exe.gnp" read as a picture's name.
    target = Cell.on(page, site_url + FIRST_STEPS, 6)
    code = (
        "import sys\n"
        "print('datei-\\u202egnp.exe, ende')\n"
        "print('\\u2066x\\u2069 \\u202a\\u202d', file=sys.stderr)\n"
        "raise ValueError('\\u202bkaputt')"
    )
    target.run_code(code, "error")
    expect(target.text.locator(".lk-stdout")).to_have_text("datei-<U+202E>gnp.exe, ende\n")
    expect(target.text.locator(".lk-stderr")).to_have_text("<U+2066>x<U+2069> <U+202A><U+202D>\n")
    expect(target.error).to_contain_text("ValueError: <U+202B>kaputt")
    shown = target.output.inner_text()
    assert not any(c in shown for c in BIDI)


def test_many_small_prints_reach_the_page_in_a_few_messages(page: Page, site_url: str) -> None:
    page.add_init_script(COUNT_OUTPUT_MESSAGES)
    page.goto(site_url + FIRST_STEPS)
    target = run_code(page, "for _ in range(300_000):\n    print('a', end='')")
    expect(target.text).to_contain_text("Ausgabe gekürzt")
    assert target.text.inner_text().startswith("a" * 1000)
    assert 0 < page.evaluate("window.lkOutputMessages") < 500  # one per print: 200,000


def test_stopp_ends_a_flood_of_prints(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = start_code(page, "for _ in range(10**7):\n    print('a', end='')")
    expect(target.text).to_contain_text("aaaa")
    target.stop()
    expect(target.root).to_have_attribute("data-state", "stopped")
    run_code(page, "print('weiter')")
    expect(target.output).to_have_text("weiter\n")


def test_input_says_that_cells_have_no_keyboard_input(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = run_code(page, "name = input('Wie heißt du? ')")
    expect(target.root).to_have_attribute("data-state", "error")
    expect(target.text).to_have_text("Wie heißt du? ")
    error = target.error
    expect(error).to_contain_text("EOFError: input() geht hier nicht")
    expect(error).to_contain_text("keine Tastatureingabe")


def test_a_long_sleep_blocks_only_its_cell_and_stopp_ends_it(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = start_code(page, "import time\nprint('schlafe')\ntime.sleep(600)")
    expect(target.text).to_have_text("schlafe")
    # The page stays usable: another cell can be asked to run; it waits its turn.
    other = Cell.number(page, 1)
    other.start()
    page.wait_for_timeout(1000)
    assert other.root.get_attribute("data-state") in ("queued", "running")
    expect(target.root).to_have_attribute("data-state", "running")
    target.stop()
    expect(target.root).to_have_attribute("data-state", "stopped")
    run_code(page, "print('wach')")
    expect(target.output).to_have_text("wach\n")


HOSTILE_PICTURE = r"""
class Boese:
    def _repr_svg_(self):
        return '''<svg xmlns="http://www.w3.org/2000/svg"
 xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 40" overflow="visible"
 class="md-header lk-cell eigenes-bild" data-md-component="header"
 style="position:fixed;inset:0;width:100vw;height:100vh;z-index:99999;
 background:url(https://fremd.example/bg.png);max-width:100px">
<style>@import url(https://fremd.example/a.css);
 body { display: none !important } .md-header { visibility: hidden }</style>
<rect width="100" height="40" style="fill:var(--pysim-cell,#f3f4f6);position:fixed;
 transform:scale(50)"/>
<rect width="10" height="10" fill="url(https://fremd.example/p.svg#p)"/>
<rect width="10" height="10" style="fill:url('https://fremd.example/q.svg#q')"/>
<rect width="10" height="10" style="fill:\75rl(https://fremd.example/e.svg#e)"/>
<rect width="10" height="10" cursor="url(https://fremd.example/c.cur), auto"/>
<image href="https://fremd.example/bild.png" width="10" height="10"/>
<image xlink:href="//fremd.example/bild2.png" width="10" height="10"/>
<use href="https://fremd.example/s.svg#x"/>
<filter id="f"><feImage href="https://fremd.example/f.png"/></filter>
<a href="https://fremd.example/"><text x="5" y="20">Link</text></a>
<foreignObject width="100" height="40"><div xmlns="http://www.w3.org/1999/xhtml"
 style="position:fixed;inset:0;background:red">Überdeckt</div></foreignObject>
</svg>'''
Boese()
"""


def test_a_hostile_picture_cannot_cover_the_page_or_load_from_elsewhere(
    recorded: RecordingPage, site_url: str
) -> None:
    page = recorded.page
    page.goto(site_url + FIRST_STEPS)
    target = run_code(page, HOSTILE_PICTURE)
    svg = target.svg
    expect(svg).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert recorded.foreign_requests() == []
    # Nothing of the picture escapes its box or restyles the page.
    assert target.root.locator(".lk-output__svg style, .lk-output__svg foreignObject").count() == 0
    assert svg.get_attribute("class") == "eigenes-bild"
    assert svg.get_attribute("data-md-component") is None
    positions = svg.evaluate(
        "(svg) => [svg, ...svg.querySelectorAll('*')].map((e) => getComputedStyle(e).position)"
    )
    assert set(positions) == {"static"}
    assert page.evaluate("getComputedStyle(document.body).display") != "none"
    expect(page.locator(".md-header")).to_be_visible()
    # The other cells stay clickable: nothing lies on top of them.
    Cell.number(page, 1).root.get_by_role("button", name=RUN).click(trial=True)
    box = svg.bounding_box()
    assert box is not None and box["width"] <= 100
    # What was safe is kept: the palette's colour of the first rectangle.
    style = svg.locator("rect").first.get_attribute("style") or ""
    assert "var(--pysim-cell" in style
    assert "position" not in style and "transform" not in style


PYSIM_PICTURE = """
from pysim.svg import Bild, Zeichnung
z = Zeichnung(120, 40, "Zwei Kästen")
z.rechteck(4, 4, 50, 30, fuellung="cell", rand="fg")
z.rechteck(64, 4, 50, 30, fuellung="ok", rand="warn")
Bild(z.svg(), "Zwei Kästen")
"""


def test_pysim_pictures_keep_the_palette_in_light_and_dark(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = run_code(page, PYSIM_PICTURE)
    rect = target.svg.locator("rect").last
    assert "var(--pysim-ok" in (rect.get_attribute("style") or "")
    # Both schemes in one task: the theme's script, which may arrive meanwhile, sets the
    # scheme too and must not come between a switch and its reading.
    colours = rect.evaluate(
        """(r) => ["default", "slate"].map((scheme) => {
            document.body.setAttribute("data-md-color-scheme", scheme);
            return [getComputedStyle(r).fill, getComputedStyle(r).stroke];
        })"""
    )
    # The palette's variables decide (their values are tuned for contrast in lessonkit.css):
    # both schemes paint, and each its own colours.
    black = "rgb(0, 0, 0)"
    assert black not in colours[0] and black not in colours[1] and "none" not in colours[0]
    assert colours[0][0] != colours[1][0] and colours[0][1] != colours[1][1]


#: The reader's code posts protocol messages of its own to the page (issue 28): three
#: chunks of 300,000 characters for every id a run of this page may have (the earlier
#: cells' runs take them as output of their background tasks), and a chunk whose stream
#: would become a class of the page's own.
FORGED_MESSAGES = """
import js
from pyodide.ffi import to_js
def post(message):
    js.postMessage(to_js(message, dict_converter=js.Object.fromEntries))
for i in range(1, 40):
    for _ in range(3):
        post({"type": "chunk", "id": i, "stream": "stdout", "text": "x" * 300_000})
    post({"type": "chunk", "id": i, "stream": "md-toast", "text": "Systemmeldung"})
"""


def test_forged_worker_messages_are_checked_and_capped(page: Page, site_url: str) -> None:
    page.goto(site_url + FIRST_STEPS)
    Cell.number(page, 1).run()  # a finished run: its cell takes later chunks of its id
    target = run_code(page, FORGED_MESSAGES)
    expect(target.root).to_have_attribute("data-state", "done")
    notice = page.get_by_text("Weitere Ausgabe wird nicht gezeigt")
    expect(notice.first).to_be_visible()
    lengths = page.locator(".lk-output__text").evaluate_all(
        "texts => texts.map((t) => t.textContent.length)"
    )
    assert lengths and max(lengths) <= 201_000, lengths
    assert page.locator(".lk-md-toast").count() == 0
    assert not any("Systemmeldung" in text for text in page.locator("output").all_text_contents())


#: A forged result for the run that posts it: a picture past the kernel's caps.
FORGED_PICTURE = """
import js, json
svg = "<svg>" + "<rect/>" * 65_000 + "</svg>"
result = {"output": [], "value": None, "svg": svg, "error": None, "error_type": None,
          "truncated": False}
for i in range(1, 40):  # JSON: None must arrive as null, as the kernel's results do
    js.postMessage(js.JSON.parse(json.dumps({"type": "result", "id": i, "result": result})))
"""


def test_a_forged_picture_of_too_many_elements_is_not_drawn_either(
    page: Page, site_url: str
) -> None:
    """Past the kernel (a result the reader's code posts itself): the page's own cap holds."""
    page.goto(site_url + FIRST_STEPS)
    target = run_code(page, FORGED_PICTURE)
    expect(target.output).to_contain_text("65.002 Elemente, erlaubt sind 10.000")
    assert target.root.locator(".lk-output__svg svg").count() == 0


PICTURE_WITH_IDS = """
class Mit_ids:
    def _repr_svg_(self):
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20">'
                '<defs><linearGradient id="verlauf"><stop offset="0" stop-color="red"/>'
                '</linearGradient></defs>'
                '<g id="erstes-quiz" name="erstes-quiz">'
                '<rect width="60" height="20" fill="url(#verlauf)"/></g></svg>')
Mit_ids()
"""


def test_ids_in_a_picture_cannot_take_over_an_address_of_the_page(
    page: Page, site_url: str
) -> None:
    page.goto(site_url + FIRST_STEPS)
    target = run_code(page, PICTURE_WITH_IDS)
    expect(target.svg).to_be_visible()
    # The exercise's anchor still names the exercise; the picture's own reference still works.
    assert page.evaluate("document.getElementById('erstes-quiz').dataset.lkExercise") is not None
    fill = target.svg.locator("rect").get_attribute("fill") or ""
    gradient = fill.removeprefix("url(#").removesuffix(")")
    assert gradient.endswith("verlauf") and gradient != "verlauf"
    assert target.svg.locator(f'[id="{gradient}"]').count() == 1
    assert target.svg.locator("[name]").count() == 0
