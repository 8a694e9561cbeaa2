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
 * cache of this site (offline/protocol.ts).
 *
 * All of it happens in the Python worker, which has nothing else to do meanwhile: Pyodide
 * sizes its memory by the snapshot, so it instantiates only once the snapshot is here. (A
 * worker of its own for this, until 2026-12, cost its start, a second compile of the
 * decoder and the hand-over: the first output came 20–30 ms later, benchmarks/README.md.)
 *
 * The snapshot's name ends with the SHA-256 of its inflated bytes (lessonkit/build/assets.py),
 * runtime.json has that of its compressed bytes. A kept copy is checked against the one,
 * a download against the other, before Python runs anything of the reader's: anything on
 * the origin can write into the Cache API, and memory a few bytes off starts a Python that
 * fails later, at a reader's run. A kept copy is checked before use; a bad one is dropped
 * and downloaded again. A download is checked while Pyodide already starts from it
 * (hashing the 16 MB first took 35 ms that Pyodide waited for, benchmarks/README.md): the
 * Python worker waits for the verdict before it says "ready", and starts without the
 * snapshot should it not match (python-worker.ts).
 */
import { unpackPages, type Unpacked } from "../../../lessonkit/node/snapshot_format.mjs";
import { keeper, keptCopy, sha256 } from "./kept";
import { zstdDecoder } from "./zstd";

/** The SHA-256 the snapshot's name ends with, or null (then nothing is kept or read). */
function expectedDigest(url: URL): string | null {
  return /-([0-9a-f]{64})\.lks\.zst$/.exec(url.pathname)?.[1] ?? null;
}

/** The snapshot's memory, and the verdict on it: resolves with the packed bytes to keep
 * when they match the digest in the snapshot's name (null: nothing to keep), rejects when
 * they do not. */
export type Fetched = { memory: Unpacked; checked: Promise<Uint8Array<ArrayBuffer> | null> };

/** Rejects unless `bytes` have the SHA-256 `digest` (hex). */
async function checkedAgainst(url: URL, bytes: Uint8Array<ArrayBuffer>, digest: string): Promise<void> {
  if ((await sha256(bytes)) !== digest) throw new Error(`${url.pathname}: Prüfsumme stimmt nicht`);
}

/**
 * The snapshot's memory: the kept copy when it is intact (checked already, nothing to
 * keep), else downloaded with this worker's `fetch` (which counts the bytes for the
 * reader, worker/meter.ts) and inflated, its check still under way (`checked`): by the
 * downloaded bytes' own SHA-256 (`compressedDigest`, runtime.json; 4.9 MB to hash where
 * the inflated bytes are 16 MB), else by the inflated bytes' (the name's). The download
 * starts beside the search for a kept copy, which stops it when it finds one (on a first
 * visit the search held the download up by 70 ms, benchmarks/README.md).
 */
export async function downloadSnapshot(url: URL, compressedDigest?: string): Promise<Fetched> {
  const digest = expectedDigest(url);
  const stop = new AbortController();
  const kept = digest ? keptCopy(url, digest) : Promise.resolve(null);
  void kept.then((copy) => copy && stop.abort(), () => undefined);
  const decoder = zstdDecoder(); // loads while the snapshot downloads
  const download = fetch(url, { signal: stop.signal }).then(async (response) => {
    if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  });
  download.catch(() => undefined); // stopped for a kept copy, or awaited below
  const hit = await kept;
  if (hit) return { memory: unpackPages(hit), checked: Promise.resolve(null) };
  const compressed = await download;
  const packed = (await decoder).decode(compressed) as Uint8Array<ArrayBuffer>;
  const memory = unpackPages(packed);
  const checked = compressedDigest
    ? checkedAgainst(url, compressed, compressedDigest)
    : digest
      ? checkedAgainst(url, packed, digest)
      : Promise.resolve(); // a name without a digest: nothing is checked or kept
  const verdict = checked.then(() => (digest ? packed : null));
  verdict.catch(() => undefined); // the Python worker awaits it (python-worker.ts)
  return { memory, checked: verdict };
}

/**
 * The snapshot's memory and the verdict on it (`Fetched`). A download is kept for the next
 * visit (kept.ts) once it passed its check and `later` resolved (after Python's start and
 * the reader's first run: the 16 MB written while the first run came held its output up,
 * benchmarks/README.md).
 */
export async function fetchSnapshot(
  url: URL,
  later: Promise<unknown> = Promise.resolve(),
  compressedDigest?: string,
): Promise<Fetched> {
  // Only the current snapshot is kept (older ones are replaced). The cache is opened now,
  // before the worker seals its scope (sandbox.ts).
  const keep = keeper(url, (other) => other.pathname.includes("/snapshot-"));
  const fetched = await downloadSnapshot(url, compressedDigest);
  void Promise.all([fetched.checked, later]).then(([packed]) => packed && keep(packed), () => undefined);
  return fetched;
}
