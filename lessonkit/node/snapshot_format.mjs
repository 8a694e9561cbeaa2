// The stored form of the Pyodide memory snapshot ("LKS2"), shared by the build
// (make_snapshot.mjs), the browser's worker and the Node.js test runner.
//
// Two things make most of a snapshot redundant (benchmarks/README.md, issue 38):
// - about half of Python's memory is zero pages;
// - the first 4 MB are the WebAssembly module's data segments, which the reader's
//   browser writes into memory itself when it instantiates Pyodide: 9 in 10 of those
//   pages are unchanged when the snapshot is taken.
// So the snapshot is stored as its difference (XOR) to that "base" (the memory of a
// freshly instantiated module, taken the moment instantiation finished), and pages
// whose difference is zero are left out. The reader inflates the difference, and
// when Pyodide has instantiated its module (before any of its code ran, before the
// snapshot is copied in), adds the base back from the very memory it restores into
// (`addBaseOnInstantiation`). A base that differs from the build's (another module, a
// browser that writes memory at instantiation) is caught by its SHA-256 in the header;
// then the snapshot is made unusable, Pyodide refuses it, and the worker starts Python
// without it.
//
// Layout (integers little-endian uint32): magic "LKS2", total length, page size, page
// count, base length (bytes of base that can be nonzero), 32 bytes SHA-256 of those,
// the page numbers, then the pages' bytes. The snapshot itself starts with Pyodide's
// own header; its memory (which the base is aligned with) starts at the offset Pyodide
// writes at byte 4.

const MAGIC = [0x4c, 0x4b, 0x53, 0x32];
const HEADER = 20 + 32;

/** Where the memory starts within a Pyodide snapshot (Pyodide's header length). */
function memoryOffset(snapshot) {
  return new DataView(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength).getUint32(4, true);
}

/** The length of `base` that may hold nonzero bytes, rounded up to whole pages. */
function baseLength(base, pageSize) {
  let end = base.length;
  while (end > 0 && base[end - 1] === 0) end--;
  return Math.min(base.length, Math.ceil(end / pageSize) * pageSize);
}

/** XOR `base[0, length)` into `snapshot`'s memory, in place: four bytes at a time where
 * both are aligned (Pyodide's header is a multiple of 16 bytes, a base whole pages), which
 * took the worker's start 30 ms less than byte by byte (benchmarks/README.md). */
function xorBase(snapshot, base, length) {
  const offset = memoryOffset(snapshot);
  const end = Math.min(length, snapshot.length - offset, base.length);
  let index = 0;
  if ((snapshot.byteOffset + offset) % 4 === 0 && base.byteOffset % 4 === 0) {
    const words = end >>> 2;
    const into = new Uint32Array(snapshot.buffer, snapshot.byteOffset + offset, words);
    const from = new Uint32Array(base.buffer, base.byteOffset, words);
    for (; index < words; index++) into[index] ^= from[index];
    index *= 4;
  }
  for (; index < end; index++) snapshot[offset + index] ^= base[index];
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes.slice()));
}

/**
 * The stored form of `snapshot` (a Uint8Array from Pyodide's makeMemorySnapshot) as its
 * difference to `base` (the module's memory right after instantiation; empty: none).
 */
export async function packPages(snapshot, base = new Uint8Array(0), pageSize = 4096) {
  const length = snapshot.length ? baseLength(base, pageSize) : 0;
  const difference = snapshot.slice();
  if (length) xorBase(difference, base, length);
  const digest = await sha256(base.subarray(0, length));
  const pages = [];
  for (let start = 0; start < difference.length; start += pageSize) {
    const page = difference.subarray(start, Math.min(start + pageSize, difference.length));
    if (page.some((byte) => byte !== 0)) pages.push(start / pageSize);
  }
  const packed = new Uint8Array(HEADER + 4 * pages.length + pages.length * pageSize);
  const header = new DataView(packed.buffer);
  MAGIC.forEach((byte, index) => header.setUint8(index, byte));
  header.setUint32(4, difference.length, true);
  header.setUint32(8, pageSize, true);
  header.setUint32(12, pages.length, true);
  header.setUint32(16, length, true);
  packed.set(digest, 20);
  let offset = HEADER + 4 * pages.length;
  pages.forEach((page, index) => {
    header.setUint32(HEADER + 4 * index, page, true);
    const bytes = difference.subarray(page * pageSize, Math.min((page + 1) * pageSize, difference.length));
    packed.set(bytes, offset);
    offset += bytes.length;
  });
  return packed.subarray(0, offset);
}

/**
 * What `packPages` made, inflated: the snapshot still as its difference to the base,
 * with what `addBase` needs to finish it.
 */
export function unpackPages(packed) {
  const header = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.length < HEADER || !MAGIC.every((byte, index) => header.getUint8(index) === byte)) {
    throw new Error("Kein Speicherabbild im Format LKS2.");
  }
  const length = header.getUint32(4, true);
  const pageSize = header.getUint32(8, true);
  const count = header.getUint32(12, true);
  const base = { length: header.getUint32(16, true), digest: packed.slice(20, HEADER) };
  const snapshot = new Uint8Array(length);
  let offset = HEADER + 4 * count;
  for (let index = 0; index < count; index++) {
    const start = header.getUint32(HEADER + 4 * index, true) * pageSize;
    const size = Math.min(pageSize, length - start);
    snapshot.set(packed.subarray(offset, offset + size), start);
    offset += size;
  }
  if (offset !== packed.length) throw new Error("Speicherabbild unvollständig.");
  return { snapshot, base };
}

/**
 * Finish an unpacked snapshot with `memory` (the base: the module's memory right
 * after instantiation). Returns false, and leaves the snapshot unchanged, when that
 * memory is not the base the snapshot was made against.
 */
export async function addBase(unpacked, memory) {
  const { snapshot, base } = unpacked;
  if (memory.length < base.length) return false;
  const digest = await sha256(memory.subarray(0, base.length));
  if (!digest.every((byte, index) => byte === base.digest[index])) return false;
  if (snapshot.length) xorBase(snapshot, memory, base.length);
  return true;
}

/**
 * The memory of a WebAssembly instance of CPython (it exports `Py_Initialize`): Pyodide's,
 * not another module's the same thread makes meanwhile (the worker's zstd decoder has a
 * memory of 16 MB, worker/zstd.ts).
 */
function pythonMemoryOf(instance, imports) {
  if (typeof instance.exports.Py_Initialize !== "function") return null;
  const memory = instance.exports.memory ?? imports?.env?.memory;
  return memory instanceof WebAssembly.Memory ? memory : null;
}

/**
 * Call `use(bytes)` with the memory of the next instance of CPython made in this thread
 * (Pyodide's), the moment its instantiation finished, before the caller of
 * `WebAssembly.instantiate` / `instantiateStreaming` sees the instance. Returns a
 * function that undoes the hook.
 */
export function onNextInstance(use) {
  const originals = {
    instantiate: WebAssembly.instantiate,
    instantiateStreaming: WebAssembly.instantiateStreaming,
  };
  let seen = false;
  for (const name of Object.keys(originals)) {
    if (!originals[name]) continue;
    WebAssembly[name] = async function (source, imports) {
      const result = await originals[name].call(WebAssembly, source, imports);
      const memory = seen ? null : pythonMemoryOf(result.instance ?? result, imports);
      if (memory) {
        seen = true;
        await use(new Uint8Array(memory.buffer));
      }
      return result;
    };
  }
  return () => Object.assign(WebAssembly, originals);
}

/**
 * `unpacked` (a promise of `unpackPages`' result) as Pyodide's `_loadSnapshot`: the
 * snapshot, which is finished with the base once Pyodide has instantiated its module.
 * With another base the snapshot's magic number is cleared, so Pyodide refuses it
 * ("Snapshot has invalid magic number") and the caller starts without it. Call the
 * returned `undo` once `loadPyodide` has settled.
 */
export function restoring(unpacked) {
  const undo = onNextInstance(async (memory) => {
    // Never throw here: Pyodide would wait for its instance forever.
    let parts = null;
    try {
      parts = await unpacked;
      if (await addBase(parts, memory)) return;
      console.warn("lessonkit: Speicherabbild passt nicht zu diesem WebAssembly-Modul.");
    } catch (error) {
      console.warn("lessonkit: Speicherabbild nicht fertig geworden.", error);
    }
    parts?.snapshot.fill(0, 0, 4);
  });
  return { snapshot: unpacked.then((parts) => parts.snapshot), undo };
}
