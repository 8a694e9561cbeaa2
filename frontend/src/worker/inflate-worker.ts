/**
 * A short-lived worker that gets the memory snapshot ready (snapshot.ts).
 *
 * Inflating takes a few hundred milliseconds of JavaScript-thread time; done in
 * the Python worker it would hold up Pyodide's own start (its module import and
 * WebAssembly compile), so the Python worker hands it to this one. This worker
 * reports the download's bytes as they arrive, then sends the finished memory back
 * as a transferred buffer, and then the verdict of its check, with the downloaded
 * packed bytes for the Python worker to keep (snapshot.ts says why it stores them
 * itself); it is ended after that.
 */
import type { Unpacked } from "../../../lessonkit/node/snapshot_format.mjs";
import { downloadSnapshot, type InflateRequest } from "./snapshot";

declare const self: DedicatedWorkerGlobalScope;

export type InflateReply =
  /** First: the inflated memory, still being checked. */
  | { memory: Unpacked }
  /** Then: it matches its digest; the packed bytes to keep (null: a kept copy). */
  | { checked: Uint8Array<ArrayBuffer> | null }
  | { error: string }
  /** Bytes of the download so far (the reader sees them arrive). */
  | { loaded: number; total: number; done: boolean };

self.onmessage = async (event: MessageEvent<InflateRequest>) => {
  try {
    const { memory, checked } = await downloadSnapshot(
      new URL(event.data.url),
      (loaded, total, done) => self.postMessage({ loaded, total, done } satisfies InflateReply),
      event.data.lookFirst,
    );
    // The memory goes at once: Pyodide starts from it while the packed bytes are checked.
    self.postMessage({ memory } satisfies InflateReply, [memory.snapshot.buffer]);
    const packed = await checked;
    self.postMessage({ checked: packed } satisfies InflateReply, packed ? [packed.buffer] : []);
  } catch (error) {
    self.postMessage({ error: String(error) } satisfies InflateReply);
  }
};
