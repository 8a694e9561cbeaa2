// Round trips through lessonkit/node/snapshot_format.mjs; exits non-zero on any mismatch.
// Run by tests/test_snapshot_format.py.
import assert from "node:assert/strict";
import { packPages, unpackPages } from "../../lessonkit/node/snapshot_format.mjs";

function memory(length, fill) {
  const bytes = new Uint8Array(length);
  for (const [start, end] of fill) bytes.fill(7, start, end);
  return bytes;
}

const cases = [
  ["empty", memory(0, [])],
  ["all zero", memory(3 * 4096, [])],
  ["one byte in a middle page", memory(5 * 4096, [[2 * 4096 + 17, 2 * 4096 + 18]])],
  ["partial last page", memory(3 * 4096 + 144, [[3 * 4096 + 100, 3 * 4096 + 144]])],
  ["first and last byte", memory(2 * 4096 + 1, [[0, 1], [2 * 4096, 2 * 4096 + 1]])],
  ["dense", memory(4 * 4096, [[0, 4 * 4096]])],
];
for (const [name, bytes] of cases) {
  const packed = packPages(bytes);
  assert.deepEqual(unpackPages(packed), bytes, name);
  const pages = Math.ceil(bytes.length / 4096);
  assert.ok(packed.length <= 16 + pages * (4 + 4096), `${name}: packed too large`);
}
assert.equal(packPages(memory(3 * 4096, [])).length, 16, "zero pages are left out");
assert.throws(() => unpackPages(new Uint8Array(16)), /Format LKS1/);
const truncated = packPages(memory(4096, [[0, 10]])).subarray(0, 100);
assert.throws(() => unpackPages(truncated), /unvollständig/);
console.log(`ok ${cases.length} cases`);
