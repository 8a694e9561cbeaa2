"""The same scenarios through Pyodide's JavaScript bridge (``PyodideGegenstelle``, as in the
browser's worker) under Node.js: the same results as CPython through the Node.js transport."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from lessonkit.build import tsnode
from lessonkit.build.assets import OUT, ROOT, build_packages
from tests.tsnode import szenarien

SKRIPT = """
import json, sys, types
modul = types.ModuleType("szenarien")
exec({quelle!r}, modul.__dict__)
from lessonkit_tsnode import handle
from pysim.cluster.ts_knoten import PyodideGegenstelle
json.dumps(modul.alle(PyodideGegenstelle(handle)))
"""


def test_the_scenarios_run_alike_in_pyodide_and_cpython(tmp_path: Path) -> None:
    tsnode.gegenstelle()  # builds the runtime's bundles when their sources changed
    paket = OUT / build_packages(OUT)
    skript = tmp_path / "szenarien.py"
    skript.write_text(SKRIPT.format(quelle=Path(szenarien.__file__).read_text()))
    lauf = subprocess.run(
        ["node", "tests/node/run_tsnode.mjs", str(paket), str(skript)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert lauf.returncode == 0, lauf.stderr[-3000:]
    im_browser = json.loads(lauf.stdout.strip().splitlines()[-1])
    assert im_browser == json.loads(json.dumps(szenarien.alle(tsnode.gegenstelle())))
