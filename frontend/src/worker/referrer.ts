/**
 * The Python worker's requests name its script as their referrer.
 *
 * The worker is made from a `blob:` URL (runtime/sandboxed-worker.ts), and a blob's address
 * is never sent as a referrer: its requests came without one. The service worker reads the
 * deployment a request belongs to from `?v=` on the script that made it
 * (sw/service-worker.ts, `wantedVersion`), so every `fetch` of this worker names the real
 * script (`import.meta.url`, which carries `?v=`) unless the caller chose a referrer, and
 * a relative address is resolved against that script, as it was before.
 */
export function referToScript(scope: { fetch: typeof fetch }, script: string): void {
  const original = scope.fetch.bind(scope);
  scope.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    original(typeof input === "string" ? resolve(input, script) : input, { referrer: script, ...init });
}

/**
 * `address` resolved against the real script, as before the blob: a blob's address is no
 * base for a relative one (`fetch("/sitemap.xml")` failed with "Invalid URL").
 */
export function resolve(address: string, script: string): string {
  return new URL(address, script).href;
}
