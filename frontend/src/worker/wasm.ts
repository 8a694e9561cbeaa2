/**
 * Pyodide's WebAssembly from its Zstandard copy (issue 38): `pyodide.asm.wasm.zst` is
 * 2.9 MB where a static host's gzip sends 3.5 MB of `pyodide.asm.wasm`
 * (lessonkit/build/assets.py writes it; benchmarks/README.md has the figures).
 *
 * Pyodide fetches its WebAssembly with the worker's `fetch` and compiles it with
 * `WebAssembly.instantiateStreaming`. `serveWasmFromZstd` wraps that `fetch`: the request
 * for the plain file is answered with the copy's bytes, decoded piece by piece as the
 * compiler reads them (zstd.ts), with the type `application/wasm` that streaming compile
 * requires. The decoded bytes are kept for the next visit (kept.ts), named and checked by
 * their SHA-256 (runtime.json), so a returning reader decodes nothing; they are hashed and
 * stored once `later` resolves (after Python's start): done during the start, on two
 * cores, it made the first visit 0.2 s slower (benchmarks/README.md). Should the copy
 * not come or not decode, the plain file is fetched instead (and from then on: a start
 * that failed on a damaged copy is tried again without it), so Python starts either way.
 * Every other request passes through unchanged.
 */
import { keeper, keptCopy, sha256 } from "./kept";
import { inflatingStream, zstdDecoder } from "./zstd";

type Scope = { fetch: typeof fetch };

/** Bytes before the copy's end at which its speed is told (about a round trip's worth on
 * an 8 Mbit/s line: the chosen start's first request overlaps the copy's last bytes). */
export const NEARLY_THERE = 192 * 1024;

function wasmResponse(body: BodyInit): Response {
  return new Response(body, { headers: { "Content-Type": "application/wasm" } });
}

/**
 * Answer `scope`'s requests for `wasm` from `compressed` (both absolute URLs), whose
 * decoded bytes have the SHA-256 `digest` (hex); keep them once `later` resolves.
 * Returns how fast the copy came: bytes per second from its request until it was nearly
 * all there, or null when the download was stopped (a kept copy found first) or failed. The worker
 * chooses its start by it (python-worker.ts, chooseStart).
 */
export function serveWasmFromZstd(
  scope: Scope,
  wasm: URL,
  compressed: URL,
  digest: string,
  later: Promise<unknown> = Promise.resolve(),
): Promise<number | null> {
  const original = scope.fetch.bind(scope);
  const keptAt = new URL(`${wasm.pathname}?sha256=${digest}`, wasm);
  const keep = keeper(keptAt, (other) => other.pathname === wasm.pathname);
  const kept = keptCopy(keptAt, digest); // read while Pyodide's loader comes
  // The download starts at once, not when Pyodide asks (its loader and its own requests
  // come first: three round trips on a slow connection), nor after the search for a kept
  // copy (on a first visit the Cache API took 60–100 ms to find nothing,
  // benchmarks/README.md): a kept copy found meanwhile stops it.
  const stop = new AbortController();
  void kept.then((copy) => copy && stop.abort(), () => undefined);
  let told: (rate: number | null) => void = () => undefined;
  // Not held up by the search either: a download that ends before it is a fast line (or a
  // cache), and the snapshot's kept copy is looked for beside its download anyway.
  const rate = new Promise<number | null>((resolve) => (told = resolve));
  const download = (async (): Promise<Uint8Array<ArrayBuffer>> => {
    void zstdDecoder().catch(() => undefined); // loads while the copy downloads
    const asked = performance.now();
    const speed = (bytes: number): number => bytes / Math.max((performance.now() - asked) / 1000, 0.001);
    const response = await original(compressed, { signal: stop.signal });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    // The speed is told a little before the last byte (NEARLY_THERE), so the next file's
    // request is on its way while the line still carries this one's end.
    const total = response.headers.get("content-encoding") ? 0 : Number(response.headers.get("content-length") ?? 0);
    const reader = response.body.getReader();
    const parts: Uint8Array[] = [];
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      loaded += value.byteLength;
      if (total && loaded >= total - NEARLY_THERE) told(speed(loaded));
    }
    told(speed(loaded));
    return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
  })();
  // Failed, or stopped for a kept copy: nothing (more) came over the line.
  download.catch(() => told(null));
  let usable = true;
  const giveUp = (error: unknown): void => {
    usable = false;
    console.warn(`lessonkit: ${compressed.pathname} nicht nutzbar, lade ${wasm.pathname}.`, error);
  };
  scope.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (!usable || new URL(url, wasm).href !== wasm.href) return original(input, init);
    const copy = await kept;
    if (copy) return wasmResponse(copy);
    try {
      const decoder = zstdDecoder(); // loads while the copy downloads
      const bytes = await download;
      const pieces: Uint8Array[] = [];
      let decoded: (pieces: Uint8Array[]) => void = () => undefined;
      const whole = new Promise<Uint8Array[]>((resolve) => (decoded = resolve));
      const piece = (part: Uint8Array | null): void => (part ? void pieces.push(part) : decoded(pieces));
      void Promise.all([whole, later]).then(async ([parts]) => {
        const bytes = new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
        if ((await sha256(bytes)) === digest) await keep(bytes);
        else console.warn(`lessonkit: ${compressed.pathname} ergab andere Bytes als erwartet.`);
      });
      return wasmResponse(inflatingStream(await decoder, bytes, { error: giveUp, piece }));
    } catch (error) {
      giveUp(error);
      return original(input, init);
    }
  };
  return rate;
}
