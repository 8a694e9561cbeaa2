/**
 * Copies the Python worker keeps for a reader's next visit, in the Cache API: the
 * inflated memory snapshot (snapshot.ts) and Pyodide's decoded WebAssembly (wasm.ts), so
 * a returning reader neither downloads nor decodes them again. One cache per site
 * (offline/protocol.ts, MEMORY_KIND), not the service worker's: it stays when that goes.
 *
 * Each copy is named with the SHA-256 of its bytes and checked against it before use:
 * anything on the origin can write into the Cache API, and bytes a little off start a
 * Python that fails later, at a reader's run. A damaged copy is deleted.
 */
import { cacheName, MEMORY_KIND } from "../offline/protocol";

const GENERATED = "assets/generated/";

/**
 * The site path of a runtime file's address, `<site>/assets/generated/…` at any depth
 * below it: the snapshot lies in that folder, Pyodide's WebAssembly one deeper (counting
 * folders up from the file named `<site>/assets/` for that one).
 */
export function siteOf(url: URL): string {
  const at = url.pathname.lastIndexOf(`/${GENERATED}`);
  return at < 0 ? new URL("./", url).pathname : url.pathname.slice(0, at + 1);
}

/** The cache of the site `url` belongs to. */
function memoryCache(url: URL): string {
  return cacheName(siteOf(url), MEMORY_KIND);
}

/**
 * Until 2026-12 the decoded WebAssembly went into a cache named one folder too deep
 * (`lessonkit:<site>assets/:memory`). Its copies of this site's files are dropped (the
 * next start keeps one where it belongs), and the cache with them once it is empty.
 */
export async function dropMisnamedCopies(url: URL, store: CacheStorage): Promise<void> {
  try {
    const site = siteOf(url);
    const misnamed = cacheName(`${site}assets/`, MEMORY_KIND);
    if (!(await store.has(misnamed))) return;
    const cache = await store.open(misnamed);
    const requests = await cache.keys();
    const ours = requests.filter((request) => new URL(request.url).pathname.startsWith(`${site}${GENERATED}`));
    for (const request of ours) await cache.delete(request);
    if (ours.length === requests.length) await store.delete(misnamed);
  } catch {
    // no Cache API here: nothing was kept either
  }
}

export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The kept copy at `url` when its bytes have the SHA-256 `digest`; a damaged one is deleted. */
export async function keptCopy(url: URL, digest: string): Promise<Uint8Array<ArrayBuffer> | null> {
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

/**
 * A function that keeps bytes at `url` in place of the copies it `replaces` (older
 * versions of the same file). The cache is opened at once: the Python worker removes
 * `caches` from its scope before reader code runs (sandbox.ts), the storing may come later.
 */
export function keeper(url: URL, replaces: (other: URL) => boolean): (bytes: Uint8Array<ArrayBuffer>) => Promise<void> {
  // `caches` itself is taken now: the sandbox removes it from the scope before reader code.
  const store = typeof caches === "undefined" ? null : caches;
  const opened = store
    ? dropMisnamedCopies(url, store).then(() => store.open(memoryCache(url)))
    : Promise.reject(new Error("no Cache API"));
  opened.catch(() => undefined); // reported when something is to be kept
  return async (bytes) => {
    try {
      const cache = await opened;
      for (const request of await cache.keys()) {
        const other = new URL(request.url);
        if (other.href !== url.href && replaces(other)) await cache.delete(request);
      }
      await cache.put(url, new Response(bytes));
    } catch (error) {
      // storage full or blocked: the next visit downloads again
      console.warn(`lessonkit: ${url.pathname} nicht für den nächsten Besuch gespeichert.`, error);
    }
  };
}
