import assert from "node:assert/strict";
import { test } from "node:test";
import { packPages, unpackPages } from "../../lessonkit/node/snapshot_format.mjs";

const PAGE = 4096;

function memory(length: number, fill: [number, number][]): Uint8Array {
  const bytes = new Uint8Array(length);
  for (const [start, end] of fill) bytes.fill(7, start, end);
  return bytes;
}

const cases: [string, Uint8Array][] = [
  ["empty", memory(0, [])],
  ["all zero", memory(3 * PAGE, [])],
  ["one byte in a middle page", memory(5 * PAGE, [[2 * PAGE + 17, 2 * PAGE + 18]])],
  ["partial last page", memory(3 * PAGE + 144, [[3 * PAGE + 100, 3 * PAGE + 144]])],
  ["first and last byte", memory(2 * PAGE + 1, [[0, 1], [2 * PAGE, 2 * PAGE + 1]])],
  ["dense", memory(4 * PAGE, [[0, 4 * PAGE]])],
];

for (const [name, bytes] of cases) {
  test(`round trip: ${name}`, () => {
    const packed = packPages(bytes);
    assert.deepEqual(unpackPages(packed), bytes);
    const pages = Math.ceil(bytes.length / PAGE);
    assert.ok(packed.length <= 16 + pages * (4 + PAGE), "packed too large");
  });
}

test("zero pages are left out", () => {
  assert.equal(packPages(memory(3 * PAGE, [])).length, 16);
});

test("another format and a cut-off file are refused in German", () => {
  assert.throws(() => unpackPages(new Uint8Array(16)), /Format LKS1/);
  const truncated = packPages(memory(PAGE, [[0, 10]])).subarray(0, 100);
  assert.throws(() => unpackPages(truncated), /unvollständig/);
});
