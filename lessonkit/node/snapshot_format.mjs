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
// whose difference is zero are left out. The reader copies the base when Pyodide has
// instantiated its module (before any of its code ran), inflates the difference and
// adds the base back before Pyodide copies the snapshot in (`restoring`). A base that
// differs from the build's (another module, a browser that writes memory at
// instantiation) is caught by its SHA-256 in the header; then the snapshot is made
// unusable, Pyodide refuses it, and the worker starts Python without it.
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

/** XOR `base[0, length)` into `snapshot`'s memory, in place (four bytes at a time where
 * both are aligned: Pyodide's header is a multiple of 16 bytes, a base whole pages). */
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

/** What the header of `packPages`' output says: the snapshot's length, and its base's. */
export function readLayout(packed) {
  const header = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.length < HEADER || !MAGIC.every((byte, index) => header.getUint8(index) === byte)) {
    throw new Error("Kein Speicherabbild im Format LKS2.");
  }
  return { length: header.getUint32(4, true), base: header.getUint32(16, true) };
}

/**
 * Write the pages `packPages` kept into `target` (zero bytes, as long as the snapshot):
 * the snapshot, still as its difference to the base. Returns what `addBase` needs.
 */
export function unpackInto(packed, target) {
  const { length } = readLayout(packed);
  if (target.length !== length) throw new Error("Speicherabbild hat eine andere Länge als angekündigt.");
  const header = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const pageSize = header.getUint32(8, true);
  const count = header.getUint32(12, true);
  let offset = HEADER + 4 * count;
  for (let index = 0; index < count; index++) {
    const start = header.getUint32(HEADER + 4 * index, true) * pageSize;
    const size = Math.min(pageSize, length - start);
    if (offset + size > packed.length) break;
    target.set(packed.subarray(offset, offset + size), start);
    offset += size;
  }
  if (offset !== packed.length) throw new Error("Speicherabbild unvollständig.");
  return { length: header.getUint32(16, true), digest: packed.slice(20, HEADER) };
}

/**
 * What `packPages` made, inflated: the snapshot still as its difference to the base,
 * with what `addBase` needs to finish it.
 */
export function unpackPages(packed) {
  const snapshot = new Uint8Array(readLayout(packed).length);
  return { snapshot, base: unpackInto(packed, snapshot) };
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
 * Pyodide's options for a start from a snapshot that is still on its way: `packed` (a
 * promise of `packPages`' output, inflated) of a memory of `layout.length` bytes against
 * a base of `layout.base` bytes (`readLayout`; the build writes both into runtime.json).
 *
 * Pyodide awaits a snapshot before it instantiates its module (it sizes the memory by
 * it), so a promise would hold up the WebAssembly's compile and Pyodide's own set-up
 * (about 0.3 s on the test machine, benchmarks/README.md) until the snapshot came. It is
 * given a buffer of the right length at once instead, filled when the snapshot comes:
 * Pyodide waits for that in `fsInit`, a step of its start that runs after the module is
 * instantiated and before the snapshot is read. The base is copied the moment the module
 * is instantiated (its memory changes after). With another base, or a snapshot that does
 * not come, the buffer's magic number stays zero: Pyodide refuses it ("Snapshot has
 * invalid magic number") and the caller starts without it. Call `undo` once `loadPyodide`
 * has settled.
 */
export function restoring(layout, packed) {
  const snapshot = new Uint8Array(layout.length);
  let base = null;
  const undo = onNextInstance((memory) => {
    base = memory.slice(0, layout.base);
  });
  // Unpacked as soon as it comes (no need of the base for that).
  const unpacked = Promise.resolve(packed).then((bytes) => ({ snapshot, base: unpackInto(bytes, snapshot) }));
  unpacked.catch(() => undefined); // reported in fsInit
  const fsInit = async () => {
    // Never throw here: Pyodide would report it, not start without the snapshot.
    try {
      const parts = await unpacked;
      if (!base) console.warn("lessonkit: Pyodides WebAssembly-Speicher nicht gesehen.");
      else if (await addBase(parts, base)) return;
      else console.warn("lessonkit: Speicherabbild passt nicht zu diesem WebAssembly-Modul.");
    } catch (error) {
      console.warn("lessonkit: Speicherabbild nicht fertig geworden.", error);
    }
    snapshot.fill(0, 0, 4);
  };
  return { options: { _loadSnapshot: snapshot, fsInit }, undo };
}
