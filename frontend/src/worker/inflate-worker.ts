/**
 * A short-lived worker that gets the memory snapshot ready (snapshot.ts).
 *
 * Inflating takes a few hundred milliseconds of JavaScript-thread time; done in
 * the Python worker it would hold up Pyodide's own start (its module import and
 * WebAssembly compile), so the Python worker hands it to this one. This worker
 * reports the download's bytes as they arrive, then sends the finished memory back
 * as a transferred buffer, with the downloaded packed bytes for the Python worker to
 * keep (snapshot.ts says why it stores them itself); it is ended after that.
 */
import type { Unpacked } from "../../../lessonkit/node/snapshot_format.mjs";
import { downloadSnapshot, type InflateRequest } from "./snapshot";

declare const self: DedicatedWorkerGlobalScope;

export type InflateReply =
  | { memory: Unpacked; packed: Uint8Array<ArrayBuffer> | null }
  | { error: string }
  /** Bytes of the download so far (the reader sees them arrive). */
  | { loaded: number; total: number; done: boolean };

self.onmessage = async (event: MessageEvent<InflateRequest>) => {
  try {
    const { memory, packed } = await downloadSnapshot(
      new URL(event.data.url),
      (loaded, total, done) => self.postMessage({ loaded, total, done } satisfies InflateReply),
      event.data.lookFirst,
    );
    const moved = packed ? [memory.snapshot.buffer, packed.buffer] : [memory.snapshot.buffer];
    self.postMessage({ memory, packed } satisfies InflateReply, moved);
  } catch (error) {
    self.postMessage({ error: String(error) } satisfies InflateReply);
  }
};
