/**
 * The Pyodide memory snapshot: fetched, inflated (whatever the host does) and
 * with the zero pages put back that the build left out (lessonkit/node/snapshot_format.mjs).
 *
 * Inflating costs a quarter of a second, so the inflated (still packed) bytes are
 * kept in the Cache API under the snapshot's content-hashed address: a reader's
 * next visit reads 15 MB from disk instead. Only the current snapshot is kept, in a
 * cache of this site (offline/protocol.ts). The inflate worker reads a kept copy; the
 * Python worker stores a new one itself (it opens the cache before it seals its scope,
 * sandbox.ts): what a worker started by a worker stores in the Cache API, WebKitGTK
 * 2.50 loses (tests/engines/test_journey.py).
 *
 * The snapshot's name ends with the SHA-256 of its inflated bytes (lessonkit/assets.py).
 * Both a kept copy and a download are checked against it before use: anything on the
 * origin can write into the Cache API, and memory a few bytes off starts a Python that
 * fails later, at a reader's run. A bad kept copy is dropped and downloaded again.
 */
import { unpackPages } from "../../../lessonkit/node/snapshot_format.mjs";
import { cacheName } from "../offline/protocol";
import type { InflateReply } from "./inflate-worker";

/** The cache of the site the snapshot belongs to (its address is <site>/assets/generated/…). */
function memoryCache(url: URL): string {
  return cacheName(new URL("../../", url).pathname, "memory");
}

/** The SHA-256 the snapshot's name ends with, or null (then nothing is kept or read). */
function expectedDigest(url: URL): string | null {
  return /-([0-9a-f]{64})\.lks\.gz$/.exec(url.pathname)?.[1] ?? null;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function download(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The kept copy when its bytes are intact; a damaged one is deleted. */
async function cached(url: URL, digest: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    const cache = await caches.open(memoryCache(url));
    const hit = await cache.match(url);
    if (!hit) return null;
    const bytes = new Uint8Array(await hit.arrayBuffer());
    if ((await sha256(bytes)) === digest) return bytes;
    await cache.delete(url);
    return null;
  } catch {
    return null; // no Cache API here (not a secure context, storage blocked)
  }
}

/** Keep `packed` for the next visit, in place of any older snapshot. */
async function keep(url: URL, packed: Uint8Array<ArrayBuffer>): Promise<void> {
  try {
    const cache = await caches.open(memoryCache(url));
    for (const request of await cache.keys()) if (request.url !== url.href) await cache.delete(request);
    await cache.put(url, new Response(packed));
  } catch (error) {
    // storage full or blocked: the next visit inflates again
    console.warn("lessonkit: Speicherabbild nicht für den nächsten Besuch gespeichert.", error);
  }
}

/**
 * The snapshot's memory: the kept copy when it is intact (packed: null), else downloaded,
 * checked and inflated, with the packed bytes to keep.
 */
export async function downloadSnapshot(url: URL): Promise<{ memory: Uint8Array; packed: Uint8Array<ArrayBuffer> | null }> {
  const digest = expectedDigest(url);
  const hit = digest ? await cached(url, digest) : null;
  if (hit) return { memory: unpackPages(hit), packed: null };
  const packed = await download(url);
  if (digest && (await sha256(packed)) !== digest) throw new Error(`${url.pathname}: Prüfsumme stimmt nicht`);
  return { memory: unpackPages(packed), packed };
}

/** `downloadSnapshot` in a worker of its own (inflate-worker.ts), or here if that fails. */
function downloadElsewhere(url: URL, inflateWorker: URL): Promise<{ memory: Uint8Array; packed: Uint8Array<ArrayBuffer> | null }> {
  let worker: Worker;
  try {
    worker = new Worker(inflateWorker, { type: "module", name: "inflate" });
  } catch {
    return downloadSnapshot(url);
  }
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<InflateReply>) => {
      worker.terminate();
      const reply = event.data;
      if ("error" in reply) reject(new Error(reply.error));
      else resolve(reply);
    };
    worker.onerror = () => {
      worker.terminate();
      resolve(downloadSnapshot(url));
    };
    worker.postMessage(url.href);
  });
}

/** The snapshot's memory, from a worker of its own; a downloaded one is kept for the next visit. */
export async function fetchSnapshot(url: URL, inflateWorker: URL): Promise<Uint8Array> {
  const { memory, packed } = await downloadElsewhere(url, inflateWorker);
  if (packed && expectedDigest(url)) void keep(url, packed);
  return memory;
}
