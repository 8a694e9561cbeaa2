/**
 * One Zstandard decoder per worker (zstddec: zstd's decoder built to WebAssembly, ~30 kB
 * gzip), loaded only when something compressed with it is downloaded: the memory
 * snapshot (snapshot.ts) and Pyodide's WebAssembly (wasm.ts). No browser decodes
 * Zstandard in `DecompressionStream` (benchmarks/README.md, issue 38).
 */
import type { ZSTDDecoder } from "zstddec/stream";

let decoder: Promise<ZSTDDecoder> | null = null;

/** The bytes of a `data:…;base64,` URL as a response, without a request. */
function dataResponse(url: string): Response {
  const comma = url.indexOf(",");
  const type = url.slice(5, comma).replace(/;base64$/, "");
  // A plain loop: `Uint8Array.from(text, mapper)` took 10–25 ms for the decoder's 59 kB in a
  // fresh worker, the loop a tenth of that (benchmarks/README.md).
  const text = atob(url.slice(comma + 1));
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return new Response(bytes, { headers: { "Content-Type": type } });
}

/**
 * zstddec's `init` fetches its own WebAssembly from a `data:` URL. A worker the service
 * worker serves may not fetch `data:` (its policy says `connect-src 'self'`), nor can an
 * offline one: so that one call of `fetch`, made synchronously by `init`, is answered here.
 */
async function initOffline(made: ZSTDDecoder): Promise<void> {
  const scope = globalThis as { fetch: typeof fetch };
  const original = scope.fetch;
  scope.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith("data:") ? dataResponse(url) : original(input, init);
  }) as typeof fetch;
  let started: Promise<void>;
  try {
    started = made.init();
  } finally {
    scope.fetch = original;
  }
  await started;
}

/** The worker's decoder, initialised once; a failed start is tried again next time. */
export function zstdDecoder(): Promise<ZSTDDecoder> {
  decoder ??= import("zstddec/stream").then(async ({ ZSTDDecoder }) => {
    const made = new ZSTDDecoder();
    await initOffline(made);
    return made;
  });
  decoder.catch(() => {
    decoder = null;
  });
  return decoder;
}

/** zstddec does not check zstd's error codes: damaged input yields empty pieces forever. */
const MOST_EMPTY_PIECES = 64;

/**
 * `compressed` (one whole Zstandard frame) inflated as a stream of pieces of ~128 kB,
 * each decoded when the reader of the stream asks for it: a consumer such as
 * WebAssembly's streaming compile works on the first pieces while later ones decode.
 * `on.piece` sees each piece as it is handed on, and null at the end (so a caller can keep
 * the bytes without a second reader, which would decode ahead of the consumer). Damaged
 * input ends the stream with an error (after `on.error`).
 */
export function inflatingStream(
  decoder: ZSTDDecoder,
  compressed: Uint8Array,
  on: { error?: (error: unknown) => void; piece?: (piece: Uint8Array | null) => void } = {},
): ReadableStream<Uint8Array> {
  const pieces = decoder.decodeStreaming([compressed]);
  let empty = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      try {
        for (;;) {
          const next = pieces.next();
          if (next.done) {
            on.piece?.(null);
            return controller.close();
          }
          if (next.value.byteLength) {
            on.piece?.(next.value);
            return controller.enqueue(next.value);
          }
          if (++empty > MOST_EMPTY_PIECES) throw new Error("Zstandard: beschädigte Daten");
        }
      } catch (error) {
        on.error?.(error);
        throw error;
      }
    },
  });
}

/** Bytes received so far of a download, its size (0: unknown), and whether it ended. */
export type OnProgress = (loaded: number, total: number, done: boolean) => void;

/**
 * A whole Zstandard file, downloaded (with `get`: the worker's `fetch` unless given) and
 * inflated; `onProgress` sees the compressed bytes arrive.
 */
export async function fetchInflated(
  url: URL,
  onProgress: OnProgress = () => undefined,
  get: typeof fetch = fetch,
): Promise<Uint8Array<ArrayBuffer>> {
  const response = await get(url);
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
