/**
 * A short-lived worker that downloads and inflates the memory snapshot.
 *
 * Inflating 15 MB takes a few hundred milliseconds of JavaScript-thread time;
 * done in the Python worker it would hold up Pyodide's own start (its module
 * import and WebAssembly fetch), so the Python worker hands it to this one and
 * gets the finished memory back as a transferred buffer.
 */
import { fetchSnapshot } from "./snapshot";

declare const self: DedicatedWorkerGlobalScope;

export type InflateReply = { memory: Uint8Array } | { error: string };

self.onmessage = async (event: MessageEvent<string>) => {
  try {
    const memory = await fetchSnapshot(new URL(event.data));
    self.postMessage({ memory } satisfies InflateReply, [memory.buffer]);
  } catch (error) {
    self.postMessage({ error: String(error) } satisfies InflateReply);
  }
};
