/** Types for snapshot_format.mjs (imported by the TypeScript worker). */
export function packPages(memory: Uint8Array, pageSize?: number): Uint8Array;
export function unpackPages(packed: Uint8Array): Uint8Array;
