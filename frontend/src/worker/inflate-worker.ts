/**
 * A short-lived worker that gets the memory snapshot ready (snapshot.ts): started with
 * the Python worker, it looks for a kept copy and loads its decoder while the start is
 * chosen, and is told then to take the snapshot (or ended, when the start is another).
 *
 * Inflating takes a few hundred milliseconds of JavaScript-thread time; done in
 * the Python worker it would hold up Pyodide's own start (its module import and
 * WebAssembly compile), so the Python worker hands it to this one. This worker
 * reports the download's bytes as they arrive, then sends the inflated bytes back as a
 * transferred buffer (the Python worker unpacks them into Pyodide's buffer, and keeps a
 * download: snapshot.ts says why it stores them itself); it is ended after that.
 */
import { beginSnapshot, type Begun, type Fetched, type InflateRequest } from "./snapshot";

declare const self: DedicatedWorkerGlobalScope;

export type InflateReply =
  | Fetched
  | { error: string }
  /** Bytes of the download so far (the reader sees them arrive). */
  | { loaded: number; total: number; done: boolean };

let begun: Begun | null = null;

self.onmessage = async (event: MessageEvent<InflateRequest>) => {
  const request = event.data;
  if ("url" in request) {
    begun = beginSnapshot(new URL(request.url));
    return;
  }
  try {
    if (!begun) throw new Error("Speicherabbild: keine Adresse");
    const fetched = await begun.take(request.lookFirst, (loaded, total, done) =>
      self.postMessage({ loaded, total, done } satisfies InflateReply),
    );
    self.postMessage(fetched satisfies InflateReply, [fetched.packed.buffer]);
  } catch (error) {
    self.postMessage({ error: String(error) } satisfies InflateReply);
  }
};
