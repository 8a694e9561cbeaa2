// chooseStart (worker/choose-start.ts): the snapshot on a fast line and for a returning
// reader, the bytecode on a slow line; a start the build fixed, when its files exist.
import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseStart, SLOW_LINE_BYTES_PER_SECOND, type Choices } from "../src/worker/choose-start";

const BOTH: Choices = { snapshot: "snapshot-1.lks.zst", bytecode: { stdlib: "s", packages: "p" } };
const came = (rate: number | null): Promise<number | null> => Promise.resolve(rate);

test("auto: the bytecode below the slow line's speed, the snapshot at or above it", async () => {
  assert.equal(await chooseStart(BOTH, came(1_000_000)), "bytecode"); // 8 Mbit/s
  assert.equal(await chooseStart(BOTH, came(2_500_000)), "bytecode"); // 20 Mbit/s
  assert.equal(await chooseStart(BOTH, came(SLOW_LINE_BYTES_PER_SECOND)), "snapshot");
  assert.equal(await chooseStart(BOTH, came(100_000_000)), "snapshot");
  assert.equal(await chooseStart({ ...BOTH, start: "auto" }, came(1_000_000)), "bytecode");
});

test("auto: nothing downloaded (kept copies) or no speed known: the snapshot", async () => {
  assert.equal(await chooseStart(BOTH, came(null)), "snapshot");
});

test("a start the build fixed is taken without waiting for the WebAssembly", async () => {
  const never = new Promise<number | null>(() => undefined);
  assert.equal(await chooseStart({ ...BOTH, start: "snapshot" }, never), "snapshot");
  assert.equal(await chooseStart({ ...BOTH, start: "bytecode" }, never), "bytecode");
});

test("a start whose files the build could not make is not taken", async () => {
  const never = new Promise<number | null>(() => undefined);
  assert.equal(await chooseStart({ snapshot: null, bytecode: BOTH.bytecode }, never), "bytecode");
  assert.equal(await chooseStart({ snapshot: BOTH.snapshot, start: "bytecode" }, never), "snapshot");
  assert.equal(await chooseStart({ snapshot: BOTH.snapshot }, came(1_000)), "snapshot");
  assert.equal(await chooseStart({ snapshot: null }, never), "plain");
});
