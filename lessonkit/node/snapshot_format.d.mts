/** Types for snapshot_format.mjs (imported by the TypeScript worker). */
export interface Unpacked {
  /** The snapshot as its difference to the base, until `addBase` finished it. */
  snapshot: Uint8Array;
  base: { length: number; digest: Uint8Array };
}
export function packPages(snapshot: Uint8Array, base?: Uint8Array, pageSize?: number): Promise<Uint8Array>;
/** The snapshot's length and its base's, from the header (runtime.json's `snapshotMemory`). */
export interface Layout {
  length: number;
  base: number;
}
export function readLayout(packed: Uint8Array): Layout;
export function unpackInto(packed: Uint8Array, target: Uint8Array): Unpacked["base"];
export function unpackPages(packed: Uint8Array): Unpacked;
export function addBase(unpacked: Unpacked, memory: Uint8Array): Promise<boolean>;
export function onNextInstance(use: (memory: Uint8Array) => Promise<void> | void): () => void;
/** Pyodide's `loadPyodide` options for a start from `packed` (inflated), given at once. */
export interface RestoreOptions {
  _loadSnapshot: Uint8Array;
  fsInit: () => Promise<void>;
}
export function restoring(layout: Layout, packed: Promise<Uint8Array> | Uint8Array): { options: RestoreOptions; undo: () => void };
