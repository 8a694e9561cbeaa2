import "./fakes";
import assert from "node:assert/strict";
import { test } from "node:test";
import { figures } from "../src/components/exercise/figures";
import type { SeedOutcomeData } from "../src/generated/contract";

const outcome: SeedOutcomeData = {
  error: null,
  seed: 2,
  ok: false,
  urteil: ["Broadcast fehlerhaft: …"],
  kennung: "broadcast/k5/s2/d100/14:teile:n1|n2;31:heile/o13",
  operationen: 1,
  operationen_vorher: 205,
  kennzahlen: {
    nachrichten: 9,
    verloren: 3,
    je_operation: 2.5,
    ok_anteil: 0.875,
    latenz_p50: 1,
    latenz_p99: 4,
    latenz_max: 6,
  },
  svg: "",
};

test("a run's figures read as one German line, latency only when measured", () => {
  assert.equal(
    figures(outcome),
    "1 Operationen · 9 Nachrichten zwischen Knoten (2,5 je Operation, 3 verloren) · verfügbar 88 % · " +
      "Latenz p50 1, p99 4, max 6 Ticks",
  );
  const unmeasured = { ...outcome, kennzahlen: { ...outcome.kennzahlen, latenz_p50: null, latenz_p99: null, latenz_max: null } };
  assert.ok(!figures(unmeasured).includes("Latenz"));
});
