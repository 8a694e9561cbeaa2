/**
 * The Pyodide memory snapshot: fetched, inflated (whatever the host does) and
 * with the pages put back that the build left out (lessonkit/node/snapshot_format.mjs);
 * still as its difference to the WebAssembly module's own start, which the Python
 * worker adds when Pyodide has instantiated it (`restoring`).
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
import { unpackPages, type Unpacked } from "../../../lessonkit/node/snapshot_format.mjs";
import { keeper, keptCopy, sha256 } from "./kept";
import type { InflateReply } from "./inflate-worker";
import { fetchInflated, type OnProgress } from "./zstd";

export type { OnProgress };

/** The SHA-256 the snapshot's name ends with, or null (then nothing is kept or read). */
function expectedDigest(url: URL): string | null {
  return /-([0-9a-f]{64})\.lks\.zst$/.exec(url.pathname)?.[1] ?? null;
}

type Fetched = { memory: Unpacked; packed: Uint8Array<ArrayBuffer> | null };

/** What the Python worker asks of the inflate worker: the snapshot's address, and whether
 * to look for a kept copy first (not when the WebAssembly came over the line: a first
 * visit, which finds none; the lookup held up the download by 70 ms, benchmarks/README.md). */
export type InflateRequest = { url: string; lookFirst: boolean };

/**
 * The snapshot's memory: the kept copy when it is intact (packed: null), else downloaded,
 * checked and inflated, with the packed bytes to keep.
 */
export async function downloadSnapshot(
  url: URL,
  onProgress: OnProgress = () => undefined,
  lookFirst = true,
): Promise<Fetched> {
  const digest = expectedDigest(url);
  const hit = digest && lookFirst ? await keptCopy(url, digest) : null;
  if (hit) return { memory: unpackPages(hit), packed: null };
  const packed = await fetchInflated(url, onProgress);
  if (digest && (await sha256(packed)) !== digest) throw new Error(`${url.pathname}: Prüfsumme stimmt nicht`);
  return { memory: unpackPages(packed), packed };
}

/**
 * `downloadSnapshot` in a worker of its own (inflate-worker.ts), which reports the
 * download's bytes as they arrive; or here if that fails (this worker's own `fetch`
 * counts them then, worker/meter.ts).
 */
function downloadElsewhere(url: URL, inflateWorker: URL, onProgress: OnProgress, lookFirst: boolean): Promise<Fetched> {
  let worker: Worker;
  try {
    worker = new Worker(inflateWorker, { type: "module", name: "inflate" });
  } catch {
    return downloadSnapshot(url, undefined, lookFirst);
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
      resolve(downloadSnapshot(url, undefined, lookFirst));
    };
    worker.postMessage({ url: url.href, lookFirst } satisfies InflateRequest);
  });
}

/**
 * The snapshot's memory, from a worker of its own. A download (already checked against
 * the digest in its name) is kept for the next visit by this worker (kept.ts).
 */
export async function fetchSnapshot(
  url: URL,
  inflateWorker: URL,
  onProgress: OnProgress,
  lookFirst = true,
): Promise<Unpacked> {
  // Only the current snapshot is kept (older ones are replaced).
  const keep = keeper(url, (other) => other.pathname.includes("/snapshot-"));
  const { memory, packed } = await downloadElsewhere(url, inflateWorker, onProgress, lookFirst);
  if (packed && expectedDigest(url)) void keep(packed);
  return memory;
}
