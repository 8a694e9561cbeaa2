/**
 * The Pyodide memory snapshot: fetched, inflated (whatever the host does) and
 * with the zero pages put back that the build left out (lessonkit/node/snapshot_format.mjs).
 *
 * Inflating costs a quarter of a second, so the inflated (still packed) bytes are
 * kept in the Cache API under the snapshot's content-hashed address: a reader's
 * next visit reads 15 MB from disk instead. Only the current snapshot is kept.
 */
import { unpackPages } from "../../../lessonkit/node/snapshot_format.mjs";
import type { InflateReply } from "./inflate-worker";

const MEMORY_CACHE = "lessonkit-memory";

async function download(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function cached(url: URL): Promise<Uint8Array | null> {
  try {
    const hit = await (await caches.open(MEMORY_CACHE)).match(url);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null; // no Cache API here (not a secure context, storage blocked)
  }
}

/** Keep `packed` for the next visit, in place of any older snapshot. */
async function keep(url: URL, packed: Uint8Array<ArrayBuffer>): Promise<void> {
  try {
    const cache = await caches.open(MEMORY_CACHE);
    for (const request of await cache.keys()) if (request.url !== url.href) await cache.delete(request);
    await cache.put(url, new Response(packed));
  } catch {
    // storage full or blocked: the next visit inflates again
  }
}

/** The snapshot's memory, and a promise for when it is kept for the next visit. */
export async function fetchSnapshot(url: URL): Promise<{ memory: Uint8Array; kept: Promise<void> }> {
  const hit = await cached(url);
  if (hit) return { memory: unpackPages(hit), kept: Promise.resolve() };
  const packed = await download(url);
  const memory = unpackPages(packed);
  return { memory, kept: keep(url, packed) };
}

/** `fetchSnapshot` in a worker of its own (inflate-worker.ts), or here if that fails. */
export function fetchSnapshotElsewhere(url: URL, inflateWorker: URL): Promise<Uint8Array> {
  const here = () => fetchSnapshot(url).then(({ memory }) => memory);
  let worker: Worker;
  try {
    worker = new Worker(inflateWorker, { type: "module", name: "inflate" });
  } catch {
    return here();
  }
  return new Promise<Uint8Array>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<InflateReply>) => {
      const reply = event.data;
      if ("memory" in reply) {
        resolve(reply.memory);
        return; // the worker goes on storing the snapshot, then says "kept"
      }
      worker.terminate();
      if ("error" in reply) reject(new Error(reply.error));
    };
    worker.onerror = () => {
      worker.terminate();
      resolve(here());
    };
    worker.postMessage(url.href);
  });
}
