import { storage, visit } from "./fakes";
import assert from "node:assert/strict";
import { test } from "node:test";
import type { WorkbenchData } from "../src/generated/contract";
import {
  checkLine,
  codeFor,
  firstChoices,
  keptKey,
  loadKept,
  optionsFrom,
  parseKept,
  saveKept,
  seedsToCheck,
  switchWorkload,
  withDraft,
} from "../src/components/werkbank/form";
import { seedOutcome } from "./outcomes";

const data: WorkbenchData = {
  lasten: [
    { name: "echo", prueft: "Echo.", seite: "../echo/", datei: "echo.md", titel: "Echo", start: "class E(Knoten): pass\n" },
    { name: "lin-kv", prueft: "Linearisierbar.", seite: "../register/", datei: "register.md", titel: "Register", start: "class R(Knoten): pass\n" },
  ],
  stoerungen: [
    { name: "teilung", text: "teilt", gezielt: false },
    { name: "absturz", text: "stürzt", gezielt: false },
    { name: "leader", text: "isoliert den Leader", gezielt: true },
  ],
  grenzen: { max_knoten: 9, min_dauer: 10, max_dauer: 300, max_fenster: 10, max_seed: 1000000, max_seeds: 100 },
  felder: { last: "Last" },
  voreinstellung: {
    last: "lin-kv",
    knoten: "3",
    dauer: "100",
    stoerungen: "",
    anzahl_stoerungen: "3",
    verlust_prozent: "0",
    seed: "1",
    seeds: "5",
  },
};

test("the form starts with the block's first choices", () => {
  assert.deepEqual(firstChoices(data), {
    last: "lin-kv",
    knoten: "3",
    dauer: "100",
    stoerungen: [],
    anzahl_stoerungen: "3",
    verlust_prozent: "0",
    seed: "1",
    seeds: "5",
  });
});

test("the choices go to Python as text, the fault kinds in the page's order, nothing clamped", () => {
  const choices = { ...firstChoices(data), knoten: " 12 ", stoerungen: ["leader", "teilung"], verlust_prozent: "12,5" };
  assert.deepEqual(optionsFrom(choices, data), {
    last: "lin-kv",
    knoten: "12", // Python names what is out of bounds, the page decides nothing
    dauer: "100",
    stoerungen: "teilung, leader",
    anzahl_stoerungen: "3",
    verlust_prozent: "12,5",
    seed: "1",
    seeds: "5",
  });
  // Prüfen runs its own seeds, whatever the form's seed says.
  assert.equal(optionsFrom({ ...choices, seed: "77" }, data, 4)["seed"], "4");
  assert.equal(optionsFrom({ ...firstChoices(data) }, data)["stoerungen"], "");
});

test("Prüfen goes through the form's number of seeds; anything else asks Python once", () => {
  const choices = firstChoices(data);
  assert.equal(seedsToCheck({ ...choices, seeds: "7" }, data), 7);
  assert.equal(seedsToCheck({ ...choices, seeds: "500" }, data), 100);
  assert.equal(seedsToCheck({ ...choices, seeds: "sieben" }, data), 1);
  assert.equal(seedsToCheck({ ...choices, seeds: "0" }, data), 1);
});

test("a switch of workload keeps the draft left and offers the chosen one's draft or start", () => {
  let kept = { choices: firstChoices(data), drafts: {} };
  kept = withDraft(kept, data, "lin-kv", "class Mein(Knoten): ...\n");
  const toEcho = switchWorkload(kept, data, "lin-kv", "class Mein(Knoten): mehr\n", "echo");
  assert.equal(toEcho.code, "class E(Knoten): pass\n"); // no draft for echo yet
  assert.equal(toEcho.kept.choices.last, "echo");
  assert.deepEqual(toEcho.kept.drafts, { "lin-kv": "class Mein(Knoten): mehr\n" });
  const back = switchWorkload(withDraft(toEcho.kept, data, "echo", "class Echo2(Knoten): ...\n"), data, "echo", "class Echo2(Knoten): ...\n", "lin-kv");
  assert.equal(back.code, "class Mein(Knoten): mehr\n");
  assert.deepEqual(back.kept.drafts, { "lin-kv": "class Mein(Knoten): mehr\n", echo: "class Echo2(Knoten): ...\n" });
  // Code equal to the starting code is no draft.
  assert.deepEqual(withDraft(back.kept, data, "echo", "class E(Knoten): pass\n").drafts, { "lin-kv": "class Mein(Knoten): mehr\n" });
  assert.equal(codeFor(back.kept, data, "echo"), "class Echo2(Knoten): ...\n");
});

test("what was kept is read back only in the shapes written, without what the page no longer offers", () => {
  const kept = {
    choices: { ...firstChoices(data), last: "echo", knoten: "5", stoerungen: ["absturz", "erdbeben"] },
    drafts: { echo: "class E2(Knoten): ...\n", kaffee: "x = 1" },
  };
  assert.deepEqual(parseKept(JSON.stringify(kept), data), {
    choices: { ...kept.choices, stoerungen: ["absturz"] },
    drafts: { echo: "class E2(Knoten): ...\n" },
  });
  assert.equal(parseKept("kein JSON", data), null);
  assert.equal(parseKept(JSON.stringify({ choices: {}, drafts: { echo: 3 } }), data), null);
  assert.equal(parseKept(JSON.stringify([1]), data), null);
  // A workload that is no more, or a field of the wrong type, takes the first choice.
  const odd = parseKept(JSON.stringify({ choices: { last: "kaffee", knoten: 4 }, drafts: {} }), data);
  assert.deepEqual(odd?.choices, firstChoices(data));
});

test("choices and drafts are kept per page under this site's key", () => {
  visit("herausforderungen/werkbank/");
  assert.equal(keptKey(), "lk:/kurs/:werkbank:herausforderungen/werkbank/");
  const kept = { choices: { ...firstChoices(data), knoten: "7" }, drafts: { echo: "class E3(Knoten): ...\n" } };
  assert.ok(saveKept(kept));
  assert.deepEqual(loadKept(data), kept);
  storage.broken = true;
  assert.equal(saveKept(kept), false);
  assert.deepEqual(loadKept(data), { choices: firstChoices(data), drafts: {} });
  storage.broken = false;
});

const outcome = seedOutcome({
  seed: 3,
  urteil: ["Nicht linearisierbar: …"],
  kennung: "lin-kv/k3/s3/d100/",
  operationen: 4,
  operationen_vorher: 90,
  kennzahlen: { ok_anteil: 1, latenz_p50: 0, latenz_p99: 0, latenz_max: 0 },
});

test("Prüfen's line says all passed, or the failing seed and those before it", () => {
  assert.deepEqual(checkLine({ first: 1, passed: 5, failed: null, error: null }, 5), {
    passed: true,
    text: "✓ Alle 5 Läufe bestanden (Seeds 1–5).",
  });
  assert.equal(checkLine({ first: 1, passed: 1, failed: null, error: null }, 1).text, "✓ Der Lauf bestand (Seed 1).");
  assert.equal(
    checkLine({ first: 1, passed: 2, failed: outcome, error: null }, 5).text,
    "✗ Seed 3 scheitert. Seeds 1–2 bestanden vorher. Unten steht, was der Prüfer fand, am kleinsten Lauf, der noch scheitert.",
  );
  assert.equal(checkLine({ first: 1, passed: 0, failed: null, error: { ...outcome, error: "x" } }, 5).passed, false);
});

