import assert from "node:assert/strict";
import { test } from "node:test";
import { addBase, onNextInstance, packPages, restoring, unpackPages } from "../../lessonkit/node/snapshot_format.mjs";

const PAGE = 4096;
/** Pyodide's own header in front of the memory (its length is written at byte 4). */
const PYODIDE_HEADER = 128;

/** A snapshot: Pyodide's header, then `length` bytes of memory, 7s in the `fill` ranges. */
function snapshotOf(length: number, fill: [number, number][]): Uint8Array {
  const bytes = new Uint8Array(PYODIDE_HEADER + length);
  new DataView(bytes.buffer).setUint32(4, PYODIDE_HEADER, true);
  bytes[0] = 0x73; // a magic number, which Pyodide checks
  for (const [start, end] of fill) bytes.fill(7, PYODIDE_HEADER + start, PYODIDE_HEADER + end);
  return bytes;
}

function memoryOf(length: number, fill: [number, number, number][]): Uint8Array {
  const bytes = new Uint8Array(length);
  for (const [start, end, value] of fill) bytes.fill(value, start, end);
  return bytes;
}

async function roundTrip(snapshot: Uint8Array, base: Uint8Array): Promise<Uint8Array> {
  const unpacked = unpackPages(await packPages(snapshot, base));
  assert.equal(await addBase(unpacked, base), true);
  return unpacked.snapshot;
}

const cases: [string, Uint8Array, Uint8Array][] = [
  ["all zero, no base", snapshotOf(3 * PAGE, []), new Uint8Array(0)],
  ["one byte in a middle page", snapshotOf(5 * PAGE, [[2 * PAGE + 17, 2 * PAGE + 18]]), new Uint8Array(0)],
  ["partial last page", snapshotOf(3 * PAGE + 144, [[3 * PAGE + 100, 3 * PAGE + 144]]), new Uint8Array(0)],
  ["dense", snapshotOf(4 * PAGE, [[0, 4 * PAGE]]), new Uint8Array(0)],
  ["base equal to memory", snapshotOf(4 * PAGE, [[0, 2 * PAGE]]), memoryOf(6 * PAGE, [[0, 2 * PAGE, 7]])],
  ["base partly changed", snapshotOf(4 * PAGE, [[0, 100]]), memoryOf(4 * PAGE, [[0, 3 * PAGE, 9]])],
  ["base longer than memory", snapshotOf(PAGE, [[0, 10]]), memoryOf(3 * PAGE, [[2 * PAGE, 3 * PAGE, 1]])],
];

for (const [name, snapshot, base] of cases) {
  test(`round trip: ${name}`, async () => {
    assert.deepEqual(await roundTrip(snapshot, base), snapshot);
  });
}

test("pages equal to the base and zero pages are left out", async () => {
  const snapshot = snapshotOf(4 * PAGE, [[PAGE, 3 * PAGE]]);
  const base = memoryOf(4 * PAGE, [[PAGE, 3 * PAGE, 7]]);
  const withBase = await packPages(snapshot, base);
  const without = await packPages(snapshot);
  // Only the page with Pyodide's header differs from the base; without it, three pages.
  assert.equal(unpackPages(withBase).snapshot.length, snapshot.length);
  assert.ok(without.length - withBase.length >= 2 * PAGE, `${without.length} vs ${withBase.length}`);
});

test("another base is refused and leaves the snapshot as it was", async () => {
  const snapshot = snapshotOf(2 * PAGE, [[0, 50]]);
  const base = memoryOf(2 * PAGE, [[0, PAGE, 3]]);
  const unpacked = unpackPages(await packPages(snapshot, base));
  const before = unpacked.snapshot.slice();
  assert.equal(await addBase(unpacked, memoryOf(2 * PAGE, [[0, PAGE, 4]])), false);
  assert.deepEqual(unpacked.snapshot, before);
});

/** A module with an exported memory of 17 pages (1.06 MB), data "AB" at 0, and with
 * `python` an exported function named `Py_Initialize`, as CPython's module has. */
function moduleWithMemory(python: boolean): Uint8Array<ArrayBuffer> {
  const name = [...new TextEncoder().encode("Py_Initialize")];
  const memoryExport = [0x06, ...new TextEncoder().encode("memory"), 0x02, 0x00];
  const exports = python ? [0x02, ...memoryExport, name.length, ...name, 0x00, 0x00] : [0x01, ...memoryExport];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...(python ? [0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00] : []), // () -> ()
    ...[0x05, 0x03, 0x01, 0x00, 0x11], // memory: 17 pages
    ...[0x07, exports.length, ...exports],
    ...(python ? [0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b] : []), // an empty body
    ...[0x0b, 0x08, 0x01, 0x00, 0x41, 0x00, 0x0b, 0x02, 0x41, 0x42], // data "AB" at 0
  ]);
}

test("restoring adds the base the moment CPython's module is instantiated, not another's", async () => {
  const wasm = moduleWithMemory(true);
  const { instance } = await WebAssembly.instantiate(wasm);
  const base = new Uint8Array((instance.exports.memory as WebAssembly.Memory).buffer).slice();
  assert.deepEqual([base[0], base[1]], [0x41, 0x42]);
  const snapshot = snapshotOf(PAGE, [[5, 6]]);
  snapshot[PYODIDE_HEADER] = 0x41; // as the base
  const restore = restoring(Promise.resolve(unpackPages(await packPages(snapshot, base))));
  const given = await restore.snapshot;
  assert.notDeepEqual(given, snapshot, "the base is added only at instantiation");
  // A module with memory that is not Python (a decoder's) is passed over, its memory untouched.
  const other = await WebAssembly.instantiate(moduleWithMemory(false));
  assert.notDeepEqual(given, snapshot);
  assert.equal(new Uint8Array((other.instance.exports.memory as WebAssembly.Memory).buffer)[0], 0x41);
  await WebAssembly.instantiate(wasm);
  restore.undo();
  assert.deepEqual(given, snapshot);
  const unchanged = WebAssembly.instantiate;
  const undo = onNextInstance(() => undefined);
  undo();
  assert.equal(WebAssembly.instantiate, unchanged);
});

test("another format and a cut-off file are refused in German", async () => {
  assert.throws(() => unpackPages(new Uint8Array(60)), /Format LKS2/);
  const truncated = (await packPages(snapshotOf(PAGE, [[0, 10]]))).subarray(0, 100);
  assert.throws(() => unpackPages(truncated), /unvollständig/);
});
