/**
 * The Pyodide memory snapshot: fetched, inflated (whatever the host does) and
 * with the pages put back that the build left out (lessonkit/node/snapshot_format.mjs);
 * still as its difference to the WebAssembly module's own start, which the Python
 * worker adds when Pyodide has instantiated it (`restoring`).
 *
 * The build compresses it with Zstandard (lessonkit/assets.py), which no browser
 * decodes by itself: zstddec, a WebAssembly build of zstd's decoder (zstd.ts), does it in about
 * 0.1 s (benchmarks/README.md). The inflated (still packed) bytes are
 * kept in the Cache API under the snapshot's content-hashed address: a reader's
 * next visit reads them from disk instead. Only the current snapshot is kept, in a
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
import { unpackPages, type Unpacked } from "../../../lessonkit/node/snapshot_format.mjs";
import { cacheName, MEMORY_KIND } from "../offline/protocol";
import type { InflateReply } from "./inflate-worker";
import { zstdDecoder } from "./zstd";

/** The cache of the site the snapshot belongs to (its address is <site>/assets/generated/…). */
function memoryCache(url: URL): string {
  return cacheName(new URL("../../", url).pathname, MEMORY_KIND);
}

/** The SHA-256 the snapshot's name ends with, or null (then nothing is kept or read). */
function expectedDigest(url: URL): string | null {
  return /-([0-9a-f]{64})\.lks\.zst$/.exec(url.pathname)?.[1] ?? null;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Bytes received so far of a download, its size (0: unknown), and whether it ended. */
export type OnProgress = (loaded: number, total: number, done: boolean) => void;

async function download(url: URL, onProgress: OnProgress): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  const total = response.headers.get("content-encoding") ? 0 : Number(response.headers.get("content-length") ?? 0);
  let loaded = 0;
  let last = 0;
  const counter = new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      if (performance.now() - last > 100) {
        last = performance.now();
        onProgress(loaded, total, false);
      }
      controller.enqueue(chunk);
    },
    flush: () => onProgress(loaded, total, true),
  });
  // Loaded only for a download (a kept copy needs no decoder); compiled while the bytes arrive.
  const ready = zstdDecoder();
  const compressed = new Uint8Array(await new Response(response.body.pipeThrough(counter)).arrayBuffer());
  return (await ready).decode(compressed) as Uint8Array<ArrayBuffer>;
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

type Fetched = { memory: Unpacked; packed: Uint8Array<ArrayBuffer> | null };

/**
 * The snapshot's memory: the kept copy when it is intact (packed: null), else downloaded,
 * checked and inflated, with the packed bytes to keep.
 */
export async function downloadSnapshot(url: URL, onProgress: OnProgress = () => undefined): Promise<Fetched> {
  const digest = expectedDigest(url);
  const hit = digest ? await cached(url, digest) : null;
  if (hit) return { memory: unpackPages(hit), packed: null };
  const packed = await download(url, onProgress);
  if (digest && (await sha256(packed)) !== digest) throw new Error(`${url.pathname}: Prüfsumme stimmt nicht`);
  return { memory: unpackPages(packed), packed };
}

/**
 * `downloadSnapshot` in a worker of its own (inflate-worker.ts), which reports the
 * download's bytes as they arrive; or here if that fails (this worker's own `fetch`
 * counts them then, worker/meter.ts).
 */
function downloadElsewhere(url: URL, inflateWorker: URL, onProgress: OnProgress): Promise<Fetched> {
  let worker: Worker;
  try {
    worker = new Worker(inflateWorker, { type: "module", name: "inflate" });
  } catch {
    return downloadSnapshot(url);
  }
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<InflateReply>) => {
      const reply = event.data;
      if ("loaded" in reply) {
        onProgress(reply.loaded, reply.total, reply.done);
        return;
      }
      worker.terminate();
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

/**
 * The snapshot's memory, from a worker of its own. A download (already checked against
 * the digest in its name) is kept for the next visit by this worker: `keep` opens the
 * cache at once, before the Python worker seals its scope (sandbox.ts).
 */
export async function fetchSnapshot(url: URL, inflateWorker: URL, onProgress: OnProgress): Promise<Unpacked> {
  const { memory, packed } = await downloadElsewhere(url, inflateWorker, onProgress);
  if (packed && expectedDigest(url)) void keep(url, packed);
  return memory;
}
