import assert from "node:assert/strict";
import { test } from "node:test";
import { FLOOD_MESSAGES, FLOOD_WINDOW_MS, FloodGuard } from "../src/runtime/flood";

test("the protocol's pace is no flood, however long it goes on", () => {
  const guard = new FloodGuard();
  // Output every 50 ms plus a busy stream of answers: 1,000 messages a second for a minute.
  for (let ms = 0; ms < 60_000; ms += 1) assert.equal(guard.arrived(ms), false);
});

test("more than the limit within one window is a flood", () => {
  const guard = new FloodGuard();
  for (let i = 0; i < FLOOD_MESSAGES; i++) assert.equal(guard.arrived(10 + i / 1000), false);
  assert.equal(guard.arrived(20), true);
});

test("a new window counts from zero", () => {
  const guard = new FloodGuard(3, 100);
  assert.deepEqual([0, 1, 2].map((ms) => guard.arrived(ms)), [false, false, false]);
  assert.equal(guard.arrived(99), true);
  assert.equal(guard.arrived(100 + FLOOD_WINDOW_MS), false);
});
