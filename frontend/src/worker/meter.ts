/**
 * Counts the bytes of Python's runtime files as they arrive, for the reader's
 * "Python wird geladen … 3,1 von 12,4 MB" (runtime/python.ts, progressText).
 *
 * The worker's `fetch` is wrapped: a response body passes through a counting
 * stream (status, headers and type stay, so WebAssembly's streaming compile still
 * works). Sizes come from Content-Length when the response is not compressed on the
 * way (with Content-Encoding the length counts other bytes).
 */
import type { FromWorker } from "../runtime/protocol";

type Post = (message: FromWorker) => void;

export class Meter {
  private readonly files = new Map<string, { loaded: number; total: number; done: boolean }>();
  private lastPost = 0;
  private starting = false;

  constructor(private readonly post: Post) {}

  /** Replace `scope.fetch` with one that counts what arrives; returns the uncounted one. */
  wrapFetch(scope: { fetch: typeof fetch }): typeof fetch {
    const original = scope.fetch.bind(scope);
    scope.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = input instanceof Request ? input.url : String(input);
      // Against this script, not `location`: the worker's address is a blob (runtime/sandboxed-worker.ts).
      const name = new URL(url, import.meta.url).pathname;
      if (name.endsWith(".json")) return original(input, init);
      // Counted from the request on: Python "startet" only once every download has ended.
      this.update(name, 0, 0, false);
      // A download stopped on purpose (worker/wasm.ts: a kept copy was found) counts no more.
      init?.signal?.addEventListener("abort", () => this.update(name, 0, 0, true), { once: true });
      let response: Response;
      try {
        response = await original(input, init);
      } catch (error) {
        this.update(name, 0, 0, true);
        throw error;
      }
      if (!response.body || !response.ok) {
        this.update(name, 0, 0, true);
        return response;
      }
      const length = Number(response.headers.get("content-length") ?? 0);
      const total = response.headers.get("content-encoding") ? 0 : length;
      this.update(name, 0, total, false);
      let loaded = 0;
      const counter = new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          loaded += chunk.byteLength;
          this.update(name, loaded, total, false);
          controller.enqueue(chunk);
        },
        flush: () => this.update(name, loaded, total, true),
      });
      return new Response(response.body.pipeThrough(counter), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    return original;
  }

  private update(name: string, loaded: number, total: number, done: boolean): void {
    this.files.set(name, { loaded, total, done });
    const now = performance.now();
    if (!done && now - this.lastPost < 100) return;
    this.lastPost = now;
    this.report();
  }

  /** Pyodide itself is loading: once every download has ended, Python "startet". */
  startPhase(): void {
    this.starting = true;
    this.report();
  }

  private report(): void {
    const files = [...this.files.values()];
    if (this.starting && files.every((file) => file.done)) {
      this.post({ type: "progress", phase: "start", loaded: 0, total: 0 });
      return;
    }
    const loaded = files.reduce((sum, file) => sum + file.loaded, 0);
    // A total only while every size is known; otherwise the bytes alone.
    const known = files.every((file) => file.total > 0);
    const total = known ? files.reduce((sum, file) => sum + file.total, 0) : 0;
    this.post({ type: "progress", phase: "download", loaded, total });
  }
}
