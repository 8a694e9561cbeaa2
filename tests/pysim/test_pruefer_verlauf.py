"""Ein Verlauf, der den Vertrag verletzt, gibt eine deutsche Meldung mit dem Index."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pysim import SimFehler, UngueltigeEingabe
from pysim.pruefer import UngueltigerVerlauf, linearisierbar, operationen
from tests.pysim.verlaeufe import op, verlauf


def ev(p=1, typ="invoke", f="write", t=0, **extra):
    return {"process": p, "type": typ, "f": f, "time": t, **extra}


@pytest.mark.parametrize(
    ("history", "index", "meldung"),
    [
        ([ev(), "ok"], 1, "Ein Ereignis ist ein dict mit process, type, f und time, nicht 'ok'."),
        (
            [ev(), {"process": 1, "type": "ok", "f": "write"}],
            1,
            "Es fehlt „time“ (Pflicht: process, type, f, time).",
        ),
        ([{"type": "invoke"}], 0, "Es fehlen „process“, „f“, „time“"),
        ([ev(typ="done")], 0, "type ist „invoke“, „ok“, „fail“ oder „info“, nicht 'done'."),
        ([ev(p=True)], 0, "process ist eine ganze Zahl oder ein Text, nicht True."),
        ([ev(p=[1])], 0, "process ist eine ganze Zahl oder ein Text, nicht [1]."),
        ([ev(f="")], 0, "f ist ein nicht leerer Text, nicht ''."),
        ([ev(t=-1)], 0, "time ist eine ganze Zahl >= 0 (virtuelle Ticks), nicht -1."),
        ([ev(t=1.5)], 0, "time ist eine ganze Zahl >= 0 (virtuelle Ticks), nicht 1.5."),
        ([ev(t=5), ev(typ="ok", t=3)], 1, "time 3 ist kleiner als die Zeit davor (5)."),
        (
            [ev(), ev(t=1)],
            1,
            "Prozess 1 beginnt eine neue Operation, obwohl seine Operation aus Ereignis 0 noch offen ist.",
        ),
        (
            [ev(), ev(p=2, typ="ok")],
            1,
            "„ok“ von Prozess 2 schließt nichts ab: Prozess 2 hat keine offene Operation",
        ),
        (
            [ev(), ev(typ="ok", f="read")],
            1,
            "f='read' passt nicht zur offenen Operation aus Ereignis 0 (f='write').",
        ),
        (
            [ev(key="x"), ev(typ="ok", key="y")],
            1,
            "key='y' passt nicht zur offenen Operation aus Ereignis 0 (key='x').",
        ),
        ([ev(key=["x"])], 0, "key ist ein Text oder eine Zahl, nicht ['x']."),
        ([ev(node={})], 0, "node ist ein Text oder eine Zahl, nicht {}."),
    ],
)
def test_kaputter_verlauf_nennt_den_index(history, index, meldung) -> None:
    with pytest.raises(UngueltigerVerlauf) as fehler:
        operationen(history)
    assert fehler.value.index == index
    assert str(fehler.value).startswith(f"Ereignis {index}: ")
    assert meldung in str(fehler.value)
    assert isinstance(fehler.value, SimFehler) and isinstance(fehler.value, UngueltigeEingabe)


def test_kein_verlauf() -> None:
    for falsch in ("abc", 5, {"process": 1}):
        with pytest.raises(
            UngueltigerVerlauf, match="Ein Verlauf ist eine Liste von Ereignissen"
        ) as fehler:
            linearisierbar(falsch)  # type: ignore[arg-type]
        assert fehler.value.index is None


@pytest.mark.parametrize(
    ("history", "meldung"),
    [
        (
            verlauf(op(1, "add", 1, 0, 1)),
            "Ereignis 0: Das Modell „register“ kennt f='add' nicht; erlaubt sind „read“, „write“ und „cas“.",
        ),
        (
            verlauf(op(1, "cas", 1, 0, 1)),
            "Ereignis 0: cas braucht value = [erwartet, neu], nicht 1.",
        ),
        (
            verlauf(op(1, "write", {1, 2}, 0, 1)),
            "Ereignis 0: Den Wert {1, 2} kann ich nicht vergleichen",
        ),
    ],
)
def test_register_prueft_seine_operationen(history, meldung) -> None:
    with pytest.raises(UngueltigerVerlauf) as fehler:
        linearisierbar(history)
    assert str(fehler.value).startswith(meldung)


def test_operationen_paaren_aufruf_und_abschluss() -> None:
    h = verlauf(op(1, "write", 1, 0, 4), op(2, "read", 1, 2, 3), op(3, "write", 2, 5, None))
    ops = operationen(h)
    assert [(o.prozess, o.index, o.index_ende, o.typ) for o in ops] == [
        (1, 0, 3, "ok"),
        (2, 1, 2, "ok"),
        (3, 4, None, "info"),
    ]
    assert ops[1].wert == 1 and ops[0].vor(ops[2]) and not ops[0].vor(ops[1])


def test_urteile_haengen_nicht_vom_hash_seed_ab() -> None:
    """Werte als Texte und dicts: Die Erklärung ist bei jedem Hash-Seed dieselbe."""
    programm = (
        "from pysim.pruefer import linearisierbar, broadcast\n"
        "from tests.pysim.verlaeufe import op, verlauf\n"
        "h = verlauf(op(1, 'write', {'a': 1, 'b': [2]}, 0, 5), op(2, 'write', 'z', 6, 7),"
        " op(3, 'read', {'b': [2], 'a': 1}, 8, 9), op(4, 'read', 'q', 8, 9, key='y'))\n"
        "print(linearisierbar(h))\n"
        "b = verlauf(op(1, 'broadcast', 'a', 0, 1, key=None),"
        " op(2, 'read', ['x', 'y', 'z', 'w'], 5, 6, key=None, node='n1'))\n"
        "print(broadcast(b))\n"
    )
    wurzel = Path(__file__).resolve().parents[2]
    ausgaben = {
        subprocess.run(
            [sys.executable, "-c", programm],
            cwd=wurzel,
            env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(wurzel)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "2")
    }
    assert len(ausgaben) == 1
    assert "Lesen x → {'b': [2], 'a': 1} (Prozess 3) lässt sich nicht einordnen" in ausgaben.pop()
