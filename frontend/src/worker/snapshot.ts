/**
 * The Pyodide memory snapshot: fetched, inflated (whatever the host does) and
 * with the zero pages put back that the build left out (lessonkit/node/snapshot_format.mjs).
 */
import { unpackPages } from "../../../lessonkit/node/snapshot_format.mjs";
import type { InflateReply } from "./inflate-worker";

export async function fetchSnapshot(url: URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  return unpackPages(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** `fetchSnapshot` in a worker of its own (inflate-worker.ts), or here if that fails. */
export function fetchSnapshotElsewhere(url: URL, inflateWorker: URL): Promise<Uint8Array> {
  let worker: Worker;
  try {
    worker = new Worker(inflateWorker, { type: "module", name: "inflate" });
  } catch {
    return fetchSnapshot(url);
  }
  return new Promise<Uint8Array>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<InflateReply>) => {
      worker.terminate();
      if ("memory" in event.data) resolve(event.data.memory);
      else reject(new Error(event.data.error));
    };
    worker.onerror = () => {
      worker.terminate();
      resolve(fetchSnapshot(url));
    };
    worker.postMessage(url.href);
  });
}
