/**
 * Pyodide's WebAssembly from its Zstandard copy (issue 38): `pyodide.asm.wasm.zst` is
 * 2.9 MB where a static host's gzip sends 3.5 MB of `pyodide.asm.wasm`
 * (lessonkit/assets.py writes it; benchmarks/README.md has the figures).
 *
 * Pyodide fetches its WebAssembly with the worker's `fetch` and compiles it with
 * `WebAssembly.instantiateStreaming`. `serveWasmFromZstd` wraps that `fetch`: the request
 * for the plain file is answered with the copy's bytes, decoded piece by piece as the
 * compiler reads them (zstd.ts), with the type `application/wasm` that streaming compile
 * requires. Should the copy not come or not decode, the plain file is fetched instead (and
 * from then on: a start that failed on a damaged copy is tried again without it), so
 * Python starts either way. Every other request passes through unchanged.
 */
import { inflatingStream, zstdDecoder } from "./zstd";

type Scope = { fetch: typeof fetch };

/** Answer `scope`'s requests for `wasm` from `compressed` (both absolute URLs). */
export function serveWasmFromZstd(scope: Scope, wasm: URL, compressed: URL): void {
  const original = scope.fetch.bind(scope);
  let usable = true;
  const giveUp = (error: unknown): void => {
    usable = false;
    console.warn(`lessonkit: ${compressed.pathname} nicht nutzbar, lade ${wasm.pathname}.`, error);
  };
  scope.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (!usable || new URL(url, wasm).href !== wasm.href) return original(input, init);
    try {
      const decoder = zstdDecoder(); // loads while the copy downloads
      const response = await original(compressed);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return new Response(inflatingStream(await decoder, bytes, giveUp), {
        headers: { "Content-Type": "application/wasm" },
      });
    } catch (error) {
      giveUp(error);
      return original(input, init);
    }
  };
}
