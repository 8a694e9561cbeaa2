// Make a Pyodide memory snapshot with pysim and lessonkit already imported, so the
// reader's worker starts Python in a fraction of the time (lessonkit/build/assets.py).
// Usage: node make_snapshot.mjs <packages.zip> <output.lks>
// (the stored form, uncompressed: lessonkit/build/assets.py compresses it)
// The snapshot holds Python's memory, not its files: the worker writes the packages
// zip into the file system again after loading it (packages.mjs), for later imports.
//
// Reproducible: the same sources give the same bytes, so a deployment that changes no
// Python changes neither the snapshot's name nor sw.js, and returning readers keep the
// snapshot they have. What differed between two runs: the state of `random` (seeded from
// the operating system's entropy at import), str hashes (a random hash secret) and
// clock readings that imports keep (file times, monotonic stamps). So this process
// gives Python a fixed entropy stream, hash seed and clock. Nothing of it is a secret
// in the browser: every reader starts from the same snapshot anyway, and the worker
// seeds `random` anew from the browser's entropy (python-worker.ts).
import nodeCrypto from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
import { COURSE_IMPORTS } from "./course_imports.mjs";
import { installPackages } from "./packages.mjs";
import { onNextInstance, packPages } from "./snapshot_format.mjs";

/** A fixed stream of bytes for Emscripten's getrandom (xorshift32). */
let state = 0x9e3779b9;
function fixedFill(view) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[i] = state & 0xff;
  }
  return view;
}
// Emscripten reads entropy from node:crypto under Node.js, the clocks from Date and performance.
nodeCrypto.randomFillSync = fixedFill;
Object.defineProperty(globalThis.crypto, "getRandomValues", { value: fixedFill, configurable: true });
const BUILT_AT = Date.UTC(2026, 0, 1);
Date.now = () => BUILT_AT;
let monotonic = 0;
performance.now = () => (monotonic += 1);

const [zipPath, outPath] = process.argv.slice(2);
// The memory the module starts with, which the reader's browser makes itself (snapshot_format.mjs).
let base = null;
const undo = onNextInstance((memory) => {
  base = memory.slice();
});
const pyodide = await loadPyodide({ _makeSnapshot: true, env: { PYTHONHASHSEED: "0" } });
undo();
if (!base) throw new Error("Pyodide's WebAssembly memory was not seen at instantiation");
installPackages(pyodide, new Uint8Array(readFileSync(zipPath)));
pyodide.runPython(COURSE_IMPORTS);
// The reader starts without the standard library's zip; it comes when first needed.
pyodide.runPython("lessonkit.runtime.stdlib.install(lessonkit.runtime.stdlib.top_level_names())");
// The record of what judges (lessonkit/runtime/integrity.py), taken here, last: a reader's
// first run took it otherwise, which cost that run 70 ms (benchmarks/README.md). No reader
// code has run yet either way; the worker's start changes nothing it notes.
pyodide.runPython("import lessonkit.runtime.bridge\nlessonkit.runtime.bridge.judging.take()");
const snapshot = pyodide.makeMemorySnapshot();
// The stack below its pointer is unused; what earlier calls left there need not be stored.
const module = pyodide._module;
const memoryStart = new DataView(snapshot.buffer, snapshot.byteOffset).getUint32(4, true);
const stack = [module._emscripten_stack_get_end(), module._emscripten_stack_get_current() - 1024];
snapshot.fill(0, memoryStart + stack[0], memoryStart + stack[1]);
const packed = await packPages(snapshot, base);
writeFileSync(outPath, packed);
process.stdout.write(JSON.stringify({ bytes: snapshot.length, stored: packed.length }));
