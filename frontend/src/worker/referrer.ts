/**
 * The Python worker's requests name its script as their referrer.
 *
 * The worker is made from a `blob:` URL (runtime/sandboxed-worker.ts), and a blob's address
 * is never sent as a referrer: its requests came without one. The service worker reads the
 * deployment a request belongs to from `?v=` on the script that made it
 * (sw/service-worker.ts, `wantedVersion`), so every `fetch` of this worker names the real
 * script (`import.meta.url`, which carries `?v=`) unless the caller chose a referrer.
 */
export function referToScript(scope: { fetch: typeof fetch }, script: string): void {
  const original = scope.fetch.bind(scope);
  scope.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    original(input, { referrer: script, ...init });
}
