/** Types for snapshot_format.mjs (imported by the TypeScript worker). */
export interface Unpacked {
  /** The snapshot as its difference to the base, until `addBase` finished it. */
  snapshot: Uint8Array;
  base: { length: number; digest: Uint8Array };
}
export function packPages(snapshot: Uint8Array, base?: Uint8Array, pageSize?: number): Promise<Uint8Array>;
export function unpackPages(packed: Uint8Array): Unpacked;
export function addBase(unpacked: Unpacked, memory: Uint8Array): Promise<boolean>;
export function onNextInstance(use: (memory: Uint8Array) => Promise<void> | void): () => void;
export function restoring(unpacked: Promise<Unpacked>): { snapshot: Promise<Uint8Array>; undo: () => void };
