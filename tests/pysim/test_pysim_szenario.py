"""Das Drehbuch ``szenario.py`` gibt immer dieselbe Ausgabe: in CPython bei jedem Hash-Seed und
in Pyodide unter Node.js (Byte für Byte)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pyodide import PyodideRunner

HIER = Path(__file__).resolve().parent
WURZEL = HIER.parents[1]
SZENARIO = HIER / "szenario.py"


def cpython(hash_seed: str) -> bytes:
    umgebung = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONIOENCODING": "utf-8"}
    ergebnis = subprocess.run(
        [sys.executable, str(SZENARIO)], capture_output=True, env=umgebung, check=True, cwd=HIER
    )
    return ergebnis.stdout


def test_szenario_laeuft_und_zeigt_die_entwurfsergebnisse() -> None:
    text = cpython("0").decode("utf-8")
    assert (
        "['bestellung-1', 'bestellung-4', 'bestellung-3', 'bestellung-3', 'bestellung-5']" in text
    )
    assert "\n(2, 2, 0)\n" in text
    assert "\n((0, 0), (2, 0), (1, 0))\n" in text
    assert "\n(2, 3)\n" in text


def test_szenario_unabhaengig_vom_hash_seed() -> None:
    assert cpython("0") == cpython("4242") == cpython("random")


@pytest.mark.pyodide
def test_szenario_in_pyodide_byte_fuer_byte_gleich(pyodide: PyodideRunner) -> None:
    # Runs as a cell through the package zip the site ships, in real Pyodide under Node.js.
    page = {
        "name": "szenario",
        "cells": [
            {"session": "main", "code": SZENARIO.read_text(encoding="utf-8"), "label": "Szenario"}
        ],
    }
    result = pyodide.run([page])["pages"][0]["results"][0]
    assert result["error"] is None, result["error"]
    assert "".join(text for _, text in result["output"]).encode("utf-8") == cpython("0")
