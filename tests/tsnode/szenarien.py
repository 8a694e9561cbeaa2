"""Scenarios of the TypeScript node runtime, each a small cluster run with a TypeScript node,
returning what happened as JSON. The same scenarios run in CPython through the Node.js
transport (test_runtime.py asserts them) and in Pyodide through its JavaScript bridge
(test_runtime_pyodide.py compares): this module imports only pysim."""

from __future__ import annotations

from typing import Any

from pysim.cluster import Cluster, LaufAbgebrochen
from pysim.cluster.ts_knoten import Gegenstelle, UebersetzungsFehler, ts_knoten_klasse

FRAGER = """
class Frager extends Node {
  async onLos(msg: Message) {
    const log: string[] = (this.store.log ??= []);
    try {
      const antwort = await this.ask(
        msg.body.ziel as string, { type: "echo", echo: "x" }, { timeout: 8 });
      log.push(`antwort ${antwort.body.type} t=${this.clock()}`);
    } catch (e) {
      if (e instanceof ErrorReply) log.push(`fehler ${e.code}`);
      else if (e instanceof NoReply) log.push(`keine: ${e.message}`);
      else throw e;
    }
  }
  onEcho(msg: Message) {
    this.reply(msg, { type: "echo_ok", echo: msg.body.echo });
  }
}
"""

GRUPPEN = """
class Gruppen extends Node {
  async onLos(msg: Message) {
    const log: unknown[] = (this.store.log ??= []);
    const andere = this.nodeIds.filter((n) => n !== this.id);
    const erste = await this.first(1, andere.map(
      (n) => this.ask(n, { type: "echo", echo: n })));
    log.push(erste.map((m) => m.src));
    const mehr = await this.majority(andere.map(
      (n) => this.ask(n, { type: "echo", echo: n })));
    log.push(mehr.length);
    const [welches, wert] = await this.any(this.sleep(2), this.ask("n2", { type: "echo" }));
    log.push([welches, wert === undefined ? null : "antwort", this.clock()]);
    try {
      await this.first(2, [this.ask("n2", { type: "still" }), this.ask("n3", { type: "still" })]);
    } catch (e) {
      log.push(e instanceof TooFewReplies ? `zu wenige: ${e.replies.length}` : String(e));
    }
  }
  onEcho(msg: Message) {
    this.reply(msg, { type: "echo_ok" });
  }
}
"""

TIMER = """
class Wecker extends Node {
  onStart() {
    const log: number[] = (this.store.log ??= []);
    this.later(5, () => { log.push(this.clock()); });
    const weg = this.later(3, () => { log.push(-1); });
    weg.cancel();
    this.every(4, () => { if (this.clock() < 13) log.push(100 + this.clock()); });
    this.later(2, async () => {
      await this.sleep(7);
      log.push(1000 + this.clock());
    });
  }
}
"""

MERKER = """
class Merker extends Node {
  fluechtig: number | null = null;
  onMerke(msg: Message) {
    this.fluechtig = msg.body.wert as number;
    this.store.wert = msg.body.wert;
    this.reply(msg, { type: "merke_ok" });
  }
  onZeige(msg: Message) {
    this.reply(msg, { type: "zeige_ok", fluechtig: this.fluechtig,
                      gespeichert: this.store.wert });
  }
}
"""

REIHENFOLGE = """
class Ordner extends Node {
  onSetze(msg: Message) {
    for (const k of msg.body.keys as number[]) this.store[k] = k * 10;
    delete this.store[msg.body.weg as number];
    this.note(Object.keys(this.store).join(","));
  }
}
"""

OBEN = """
let gezaehlt = 0; // the module's top level: anew at every load, as a Python node's module
class Zaehlt extends Node {
  onLos(msg: Message) {
    gezaehlt += 1;
    this.note(`${gezaehlt}`);
  }
}
"""

ENDLOS = """
class Endlos extends Node {
  onLos(msg: Message) {
    let i = 0;
    while (true) {
      i++;
    }
  }
}
"""

FEHLER = {
    "json": """
class Knoten1 extends Node {
  onLos(msg: Message) {
    this.send("n1", { type: "x", werte: new Set([1, 2]) });
  }
}
""",
    "promise": """
class Knoten1 extends Node {
  async onLos(msg: Message) {
    const x = 1;
    await Promise.resolve(x);
  }
}
""",
    "settimeout": """
class Knoten1 extends Node {
  onLos(msg: Message) {
    const spaeter = 5;
    setTimeout(() => this.note("x"), spaeter);
  }
}
""",
    "rekursion": """
class Knoten1 extends Node {
  tief(n: number): number {
    return this.tief(n + 1) + 1;
  }
  onLos(msg: Message) {
    this.tief(0);
  }
}
""",
    "wurf": """
class Knoten1 extends Node {
  onLos(msg: Message) {
    const text = "kaputt";
    throw new TypeError(text);
  }
}
""",
    "ohne_await": """
class Knoten1 extends Node {
  async warte() {
    await this.sleep(3);
  }
  onLos(msg: Message) {
    this.warte();
  }
}
""",
    "konstruktor": """
class Knoten1 extends Node {
  constructor() {
    super();
    this.send("n1", { type: "x" });
  }
}
""",
}


def _cluster(gegenstelle: Gegenstelle, code: str, knoten: int = 1, **optionen: Any) -> Cluster:
    cluster = Cluster(ts_knoten_klasse(code, gegenstelle), knoten, **optionen)
    return cluster


def warten(gegenstelle: Gegenstelle) -> dict[str, Any]:
    """An ask answered, timed out behind a partition, answered with error 10."""
    ergebnisse: dict[str, Any] = {}
    for fall in ("antwort", "teile", "ohne_handler", "eigener_timeout"):
        code = FRAGER.replace("onEcho(", "nichtEcho(") if fall == "ohne_handler" else FRAGER
        if fall == "eigener_timeout":  # the class's own TIMEOUT when ask names none
            code = code.replace(
                "class Frager extends Node {", "class Frager extends Node {\n  static TIMEOUT = 5;"
            )
            code = code.replace(", { timeout: 8 })", ")")
        cluster = _cluster(gegenstelle, code, 2, seed=2)
        cluster.anmelden("c1", lambda n: None, client=True)
        if fall in ("teile", "eigener_timeout"):
            cluster.trenne(["n1"], ["n2"])
        cluster.sende("c1", "n1", {"type": "los", "ziel": "n2"})
        cluster.laufe(30)
        ergebnisse[fall] = cluster._plaetze["n1"].speicher.get("log")
    return ergebnisse


def gruppen(gegenstelle: Gegenstelle) -> Any:
    cluster = _cluster(gegenstelle, GRUPPEN, 3, seed=3)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "los"})
    cluster.laufe(80)
    return cluster._plaetze["n1"].speicher.get("log")


def timer(gegenstelle: Gegenstelle) -> Any:
    cluster = _cluster(gegenstelle, TIMER)
    cluster.laufe(20)
    return cluster._plaetze["n1"].speicher.get("log")


def absturz(gegenstelle: Gegenstelle) -> Any:
    cluster = _cluster(gegenstelle, MERKER)
    antworten: list[dict[str, Any]] = []
    cluster.anmelden("c1", lambda n: antworten.append(n.body), client=True)
    cluster.sende("c1", "n1", {"type": "merke", "wert": 7, "msg_id": 1})
    cluster.laufe(1)
    cluster.sende("c1", "n1", {"type": "zeige", "msg_id": 2})
    cluster.laufe(2)
    cluster.absturz("n1")
    cluster.neustart("n1")
    cluster.sende("c1", "n1", {"type": "zeige", "msg_id": 3})
    cluster.laufe(3)
    return [{k: a.get(k) for k in ("type", "fluechtig", "gespeichert")} for a in antworten]


def reihenfolge(gegenstelle: Gegenstelle) -> Any:
    """The store keeps the order its keys were set in, integer-like ones too, as a Python
    dict, across a restart: what JavaScript sees, the store and the panel's state."""
    cluster = _cluster(gegenstelle, REIHENFOLGE)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "setze", "keys": [2, 0, 1], "weg": 0})
    cluster.laufe(1)
    cluster.absturz("n1")
    cluster.neustart("n1")
    cluster.sende("c1", "n1", {"type": "setze", "keys": [0], "weg": 7})
    cluster.laufe(2)
    notizen = [z.text for z in cluster.protokoll.zeilen() if z.knoten == "n1"]
    return [notizen, list(cluster._plaetze["n1"].speicher), list(cluster.zustaende()["n1"])]


def neu_geladen(gegenstelle: Gegenstelle) -> list[list[str]]:
    """The same code loaded twice: what its top level keeps starts anew with each load."""
    ergebnisse = []
    for _ in range(2):
        cluster = _cluster(gegenstelle, OBEN)
        cluster.anmelden("c1", lambda n: None, client=True)
        for _ in range(2):
            cluster.sende("c1", "n1", {"type": "los"})
        cluster.laufe(1)
        ergebnisse.append([z.text for z in cluster.protokoll.zeilen()])
    return ergebnisse


def budget(gegenstelle: Gegenstelle) -> str:
    cluster = _cluster(gegenstelle, ENDLOS)
    cluster.anmelden("c1", lambda n: None, client=True)
    cluster.sende("c1", "n1", {"type": "los"})
    try:
        cluster.laufe(5)
    except LaufAbgebrochen as e:
        return str(e)
    return "lief durch"


def fehler(gegenstelle: Gegenstelle) -> dict[str, Any]:
    """Each broken node's first handler error: (message, line, code)."""
    ergebnisse: dict[str, Any] = {}
    for name, code in FEHLER.items():
        cluster = _cluster(gegenstelle, code)
        cluster.anmelden("c1", lambda n: None, client=True)
        cluster.sende("c1", "n1", {"type": "los"})
        try:
            cluster.laufe(5)
        except Exception as e:  # the constructor's error ends the start
            ergebnisse[name] = [type(e).__name__, str(e)[:300], None, ""]
            continue
        erster = cluster.fehler[0] if cluster.fehler else None
        ergebnisse[name] = (
            None if erster is None else [erster.fehler[:300], erster.zeile, erster.code]
        )
    return ergebnisse


def uebersetzung(gegenstelle: Gegenstelle) -> dict[str, Any]:
    ergebnisse: dict[str, Any] = {}
    for name, code in {
        "ohne_klasse": "const x = 1;",
        "syntax": "class A extends Node {\n  onLos( {\n}\n",
        "zwei": "class A extends Node {}\nclass B extends Node {}\n",
    }.items():
        try:
            ts_knoten_klasse(code, gegenstelle)
            ergebnisse[name] = None
        except UebersetzungsFehler as e:
            ergebnisse[name] = [str(e), e.zeile]
    return ergebnisse


#: A node with two type errors: an unknown field as a number, a body without "type".
TYPFEHLER = (
    "class A extends Node {\n"
    "  onEcho(msg: Message) {\n"
    "    const n: number = msg.body.echo;\n"
    "    this.reply(msg, { typ: 'echo_ok' });\n"
    "  }\n"
    "}\n"
)


def typpruefung(gegenstelle: Gegenstelle) -> Any:
    """``TYPFEHLER`` checked strictly: German messages with their lines."""
    return gegenstelle.rufe({"op": "check", "code": TYPFEHLER})["diagnostics"]


ALLE = {
    "warten": warten,
    "gruppen": gruppen,
    "timer": timer,
    "absturz": absturz,
    "reihenfolge": reihenfolge,
    "neu_geladen": neu_geladen,
    "budget": budget,
    "fehler": fehler,
    "uebersetzung": uebersetzung,
    "typpruefung": typpruefung,
}


def alle(gegenstelle: Gegenstelle) -> dict[str, Any]:
    return {name: szenario(gegenstelle) for name, szenario in ALLE.items()}
