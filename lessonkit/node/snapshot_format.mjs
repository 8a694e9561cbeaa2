// The stored form of the Pyodide memory snapshot ("LKS1"), shared by the build
// (make_snapshot.mjs), the browser's worker and the Node.js test runner.
//
// Much of Python's memory is zero pages. Only the others are stored: magic
// "LKS1", total length, page size, page count, the page numbers, then the pages'
// bytes (integers little-endian uint32). Gzipped on top, the file is as small as
// the gzipped full memory, and the reader inflates only the pages that are not zero.

const MAGIC = [0x4c, 0x4b, 0x53, 0x31];

/** Leave out the zero pages of `memory` (a Uint8Array). */
export function packPages(memory, pageSize = 4096) {
  const pages = [];
  for (let start = 0; start < memory.length; start += pageSize) {
    const page = memory.subarray(start, Math.min(start + pageSize, memory.length));
    if (page.some((byte) => byte !== 0)) pages.push(start / pageSize);
  }
  const packed = new Uint8Array(16 + 4 * pages.length + pages.length * pageSize);
  const header = new DataView(packed.buffer);
  MAGIC.forEach((byte, index) => header.setUint8(index, byte));
  header.setUint32(4, memory.length, true);
  header.setUint32(8, pageSize, true);
  header.setUint32(12, pages.length, true);
  let offset = 16 + 4 * pages.length;
  pages.forEach((page, index) => {
    header.setUint32(16 + 4 * index, page, true);
    const bytes = memory.subarray(page * pageSize, Math.min((page + 1) * pageSize, memory.length));
    packed.set(bytes, offset);
    offset += bytes.length;
  });
  return packed.subarray(0, offset);
}

/** The full memory again (a Uint8Array) from what `packPages` made. */
export function unpackPages(packed) {
  const header = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (!MAGIC.every((byte, index) => header.getUint8(index) === byte)) {
    throw new Error("Kein Speicherabbild im Format LKS1.");
  }
  const length = header.getUint32(4, true);
  const pageSize = header.getUint32(8, true);
  const count = header.getUint32(12, true);
  const memory = new Uint8Array(length);
  let offset = 16 + 4 * count;
  for (let index = 0; index < count; index++) {
    const start = header.getUint32(16 + 4 * index, true) * pageSize;
    const size = Math.min(pageSize, length - start);
    memory.set(packed.subarray(offset, offset + size), start);
    offset += size;
  }
  if (offset !== packed.length) throw new Error("Speicherabbild unvollständig.");
  return memory;
}
