/**
 * A short-lived worker that gets the memory snapshot ready (snapshot.ts).
 *
 * Inflating takes a few hundred milliseconds of JavaScript-thread time; done in
 * the Python worker it would hold up Pyodide's own start (its module import and
 * WebAssembly compile), so the Python worker hands it to this one and gets the
 * finished memory back as a transferred buffer. Then this worker stores the
 * inflated snapshot for the next visit and says "kept"; it is ended after that.
 */
import { fetchSnapshot } from "./snapshot";

declare const self: DedicatedWorkerGlobalScope;

export type InflateReply =
  | { memory: Uint8Array }
  | { error: string }
  | { kept: true }
  /** Bytes of the download so far (the reader sees them arrive). */
  | { loaded: number; total: number; done: boolean };

self.onmessage = async (event: MessageEvent<string>) => {
  try {
    const { memory, kept } = await fetchSnapshot(new URL(event.data), (loaded, total, done) =>
      self.postMessage({ loaded, total, done } satisfies InflateReply),
    );
    self.postMessage({ memory } satisfies InflateReply, [memory.buffer]);
    await kept;
    self.postMessage({ kept: true } satisfies InflateReply);
  } catch (error) {
    self.postMessage({ error: String(error) } satisfies InflateReply);
  }
};
