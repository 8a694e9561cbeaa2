/**
 * The Pyodide memory snapshot: fetched and inflated (whatever the host does), still in
 * its stored form (lessonkit/node/snapshot_format.mjs: the pages that differ from the
 * WebAssembly module's own start), which the Python worker writes into the buffer it
 * gave Pyodide (`restoring`).
 *
 * The build compresses it with Zstandard (lessonkit/build/assets.py), which no browser
 * decodes by itself: zstddec, a WebAssembly build of zstd's decoder (zstd.ts), does it in about
 * 0.1 s (benchmarks/README.md). The inflated (still packed) bytes are
 * kept in the Cache API under the snapshot's content-hashed address: a reader's
 * next visit reads them from disk instead. Only the current snapshot is kept, in a
 * cache of this site (offline/protocol.ts). The inflate worker reads a kept copy; the
 * Python worker stores a new one itself (it opens the cache before it seals its scope,
 * sandbox.ts): what a worker started by a worker stores in the Cache API, WebKitGTK
 * 2.50 loses (tests/engines/test_journey.py).
 *
 * The snapshot's name ends with the SHA-256 of its inflated bytes (lessonkit/build/assets.py).
 * Both a kept copy and a download are checked against it before use: anything on the
 * origin can write into the Cache API, and memory a few bytes off starts a Python that
 * fails later, at a reader's run. A bad kept copy is dropped and downloaded again.
 */
import { keeper, keptCopy, sha256 } from "./kept";
import type { InflateReply } from "./inflate-worker";
import { fetchInflated, zstdDecoder, type OnProgress } from "./zstd";

export type { OnProgress };

/** The SHA-256 the snapshot's name ends with, or null (then nothing is kept or read). */
function expectedDigest(url: URL): string | null {
  return /-([0-9a-f]{64})\.lks\.zst$/.exec(url.pathname)?.[1] ?? null;
}

/** The snapshot's inflated bytes, and whether they were downloaded (then they are kept). */
export type Fetched = { packed: Uint8Array<ArrayBuffer>; downloaded: boolean };

/** The snapshot, got ready in two steps: begun early, taken once the start is chosen. */
export interface Begun {
  /**
   * The kept copy when it is intact, else the download, inflated and checked. With
   * `lookFirst` false (the WebAssembly came over the line: a first visit) the download
   * does not wait for the search for a kept copy, which only a copy already found ends.
   */
  take(lookFirst: boolean, onProgress?: OnProgress): Promise<Fetched>;
}

/**
 * Begin to get the snapshot at `url` ready before the start is chosen: look for a kept
 * copy and load the decoder (on a cold profile both took 0.1–0.3 s of a fast
 * connection's start, benchmarks/README.md).
 */
export function beginSnapshot(url: URL): Begun {
  const digest = expectedDigest(url);
  let found: Uint8Array<ArrayBuffer> | null = null;
  const kept = (digest ? keptCopy(url, digest) : Promise.resolve(null)).then((hit) => (found = hit));
  zstdDecoder().catch(() => undefined); // fetchInflated asks again and reports
  return {
    async take(lookFirst, onProgress = () => undefined) {
      const hit = lookFirst ? await kept : found;
      if (hit) return { packed: hit, downloaded: false };
      const packed = await fetchInflated(url, onProgress);
      if (digest && (await sha256(packed)) !== digest) throw new Error(`${url.pathname}: Prüfsumme stimmt nicht`);
      return { packed, downloaded: true };
    },
  };
}

/** What the Python worker tells the inflate worker: the snapshot's address, then to take it. */
export type InflateRequest = { url: string } | { lookFirst: boolean };

/**
 * The snapshot got ready in a worker of its own (inflate-worker.ts), begun at once;
 * should that worker fail, here (this worker's own `fetch` counts the bytes then,
 * worker/meter.ts). `take` keeps a download (already checked against the digest in its
 * name) for the next visit (kept.ts); `drop` ends the worker when another start was chosen.
 */
export function snapshotFetcher(url: URL, inflateWorker: URL): { take: Begun["take"]; drop: () => void } {
  // Only the current snapshot is kept (older ones are replaced).
  const keep = keeper(url, (other) => other.pathname.includes("/snapshot-"));
  const here = (lookFirst: boolean): Promise<Fetched> => beginSnapshot(url).take(lookFirst);
  type Waiting = { lookFirst: boolean; onProgress: OnProgress; resolve: (fetched: Promise<Fetched> | Fetched) => void; reject: (error: Error) => void };
  let waiting: Waiting | null = null;
  let worker: Worker | null = null;
  try {
    worker = new Worker(inflateWorker, { type: "module", name: "inflate" });
    worker.onmessage = (event: MessageEvent<InflateReply>) => {
      const reply = event.data;
      if (!waiting) return;
      if ("loaded" in reply) return waiting.onProgress(reply.loaded, reply.total, reply.done);
      worker?.terminate();
      if ("error" in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply);
    };
    // A worker that cannot start (its script not there) may fail before or after `take`.
    worker.onerror = () => {
      worker?.terminate();
      worker = null;
      if (waiting) waiting.resolve(here(waiting.lookFirst));
    };
    worker.postMessage({ url: url.href } satisfies InflateRequest);
  } catch {
    worker = null;
  }
  return {
    async take(lookFirst, onProgress = () => undefined) {
      const fetched = await new Promise<Fetched>((resolve, reject) => {
        if (!worker) return resolve(here(lookFirst));
        waiting = { lookFirst, onProgress, resolve, reject };
        worker.postMessage({ lookFirst } satisfies InflateRequest);
      });
      if (fetched.downloaded && expectedDigest(url)) void keep(fetched.packed);
      return fetched;
    },
    drop: () => worker?.terminate(),
  };
}
