"""Rules every pysim picture keeps: valid SVG, a title, scalable, colours as variables,
no links or scripts, whole-number coordinates."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def allgemeine_regeln(svg: str) -> ET.Element:
    root = parse(svg)
    assert root.tag == NS + "svg"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", ""))
    assert root.get("width") == "100%"
    assert "max-width:" in root.get("style", "")
    titel = root.find(NS + "title")
    assert titel is not None and titel.text
    assert not list(root.iter(NS + "script"))
    assert "href" not in svg and "http://" not in svg.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )
    assert "url(" not in svg
    for el in root.iter():
        for attr in ("fill", "stroke"):
            assert el.get(attr) is None, "Farben nur als Stil mit Variable"
        stil = el.get("style") or ""
        for farbe in re.findall(r"(?:fill|stroke):([^;]+)", stil):
            assert farbe == "none" or re.fullmatch(r"var\(--pysim-[a-z]+,#[0-9a-f]{6}\)", farbe), (
                farbe
            )
        for zahl in ("x", "y", "width", "height"):
            wert = el.get(zahl)
            if wert is not None and wert != "100%":
                assert re.fullmatch(r"-?\d+", wert), (zahl, wert)
    return root
