import "./fakes";
import assert from "node:assert/strict";
import { test } from "node:test";
import { figures } from "../src/components/exercise/figures";
import { checkVerdict, moreVerdict, progressText, runSeeds, runs, seedRange } from "../src/components/exercise/seeds";
import type { SeedOutcomeData } from "../src/generated/contract";
import { seedOutcome } from "./outcomes";

const outcome = seedOutcome({
  seed: 2,
  urteil: ["Broadcast fehlerhaft: …"],
  kennung: "broadcast/k5/s2/d100/14:teile:n1|n2;31:heile/o13",
  operationen: 1,
  operationen_vorher: 205,
  kennzahlen: { nachrichten: 9, verloren: 3, je_operation: 2.5, ok_anteil: 0.875, latenz_p50: 1, latenz_p99: 4, latenz_max: 6 },
});

test("a run's figures read as one German line, latency only when measured", () => {
  assert.equal(
    figures(outcome),
    "1 Operation · 9 Nachrichten zwischen Knoten (2,5 je Operation, 3 verloren) · verfügbar 88 % · " +
      "Latenz p50 1, p99 4, max 6 Ticks",
  );
  const unmeasured = { ...outcome, kennzahlen: { ...outcome.kennzahlen, latenz_p50: null, latenz_p99: null, latenz_max: null } };
  assert.ok(!figures(unmeasured).includes("Latenz"));
});

test("a broadcast run names how long a value took to reach every node", () => {
  const k = { ...outcome.kennzahlen, ausbreitung_median: 31, ausbreitung_max: 80 };
  assert.ok(figures({ ...outcome, kennzahlen: k }).endsWith("bis alle Knoten einen Wert kannten: Median 31, längstens 80 Ticks"));
});

test("a flood stopped at the event limit says its messages were on the way, not lost", () => {
  const k = { ...outcome.kennzahlen, nachrichten: 106913, verloren: 0, unterwegs: 57039, je_operation: 1781.88 };
  const line = figures({ ...outcome, operationen: 60, kennzahlen: k });
  assert.ok(line.startsWith("60 Operationen · 106.913 Nachrichten zwischen Knoten (1.781,88 je Operation, 0 verloren, 57.039 noch unterwegs, als der Lauf endete)"), line);
});

/** A seed's outcome: passed, or failed at `seed`. */
function judged(seed: number, ok: boolean): SeedOutcomeData {
  return { ...outcome, seed, ok, urteil: ok ? [] : outcome.urteil };
}

test("Prüfen runs the seeds in order and stops at the first that fails", async () => {
  const asked: number[] = [];
  const progress: number[] = [];
  const result = await runSeeds(
    1,
    40,
    async (seed) => {
      asked.push(seed);
      return judged(seed, seed !== 17);
    },
    (passed) => progress.push(passed),
  );
  assert.deepEqual(asked, Array.from({ length: 17 }, (_, i) => i + 1));
  assert.equal(result.passed, 16);
  assert.equal(result.failed?.seed, 17);
  assert.deepEqual(progress.at(-1), 16);
  assert.deepEqual(checkVerdict(result, 40), {
    kind: "wrong",
    text: "Seed 17 scheitert. Seeds 1–16 bestanden vorher. Unten steht, was der Prüfer fand, am kleinsten Lauf, der noch scheitert.",
  });
  assert.equal(progressText(12, 40), "12 von 40 Läufen bestanden …");
});

test("a node that passes every seed has solved it; code that does not run stops at once", async () => {
  const all = await runSeeds(1, 3, async (seed) => judged(seed, true));
  assert.deepEqual(checkVerdict(all, 3), { kind: "right", text: "Gelöst: alle 3 Läufe bestanden (Seeds 1–3)." });
  const first = await runSeeds(1, 5, async (seed) => judged(seed, seed !== 1));
  assert.equal(checkVerdict(first, 5).text, "Seed 1 scheitert. Unten steht, was der Prüfer fand, am kleinsten Lauf, der noch scheitert.");
  const asked: number[] = [];
  const broken = await runSeeds(1, 5, async (seed) => {
    asked.push(seed);
    return { ...judged(seed, false), error: "SyntaxError" };
  });
  assert.deepEqual(asked, [1]);
  assert.equal(checkVerdict(broken, 5).text, "Dein Code läuft nicht; die Meldung steht unten.");
});

test("Weitere Läufe says that what it finds does not change the verdict", async () => {
  const passed = await runSeeds(41, 60, async (seed) => judged(seed, true));
  assert.match(moreVerdict(passed, 60), /^Auch die weiteren 20 Läufe \(Seeds 41–60\) bestanden\. Sie zählen nicht zum Urteil/);
  const failed = await runSeeds(41, 60, async (seed) => judged(seed, seed !== 57));
  assert.match(moreVerdict(failed, 60), /^Seed 57 scheitert: Dein Knoten ist nicht richtig.*Am Urteil von „Prüfen“ ändert das nichts/);
  assert.equal(seedRange(4, 4), "Seed 4");
  assert.equal(runs(1), "1 Lauf");
});
