/**
 * Messages between the page (offline/register.ts) and the service worker (sw/service-worker.ts),
 * and the names of the course's caches.
 */

/**
 * Every cache of the course is named `lessonkit:<site path>:<kind>`: two course sites on
 * one origin (`<owner>.github.io/a/` and `/b/`) share the Cache API, and each deletes
 * and reads only its own caches.
 */
export function cacheName(sitePath: string, kind: string): string {
  return `lessonkit:${sitePath}:${kind}`;
}

/** The prefix of every cache of the site at `sitePath`. */
export function cachePrefix(sitePath: string): string {
  return cacheName(sitePath, "");
}

/**
 * The kind of the cache in which the Python worker keeps the inflated memory snapshot
 * (worker/snapshot.ts). It is not the service worker's: its one entry is named by the
 * SHA-256 of its bytes and checked before use, so it is never stale and stays when the
 * service worker goes.
 */
export const MEMORY_KIND = "memory";

/** Caches of the course before they were named per site (migrated, then deleted when empty). */
export const LEGACY_CACHE_PREFIX = "lessonkit-";

/**
 * Of the cache `names`, those that go with the service worker of the site at `sitePath`:
 * its own and the legacy ones, not the kept snapshot (MEMORY_KIND) or other sites' caches.
 */
export function serviceWorkerCaches(names: readonly string[], sitePath: string): string[] {
  const own = cachePrefix(sitePath);
  const memory = cacheName(sitePath, MEMORY_KIND);
  return names.filter((name) => name !== memory && (name.startsWith(own) || name.startsWith(LEGACY_CACHE_PREFIX)));
}

export type ToServiceWorker =
  /** Keep these URLs (the page and what it loaded before the service worker controlled it). */
  | { type: "keep"; urls: string[] }
  /** The reader chose to reload: a waiting service worker takes over now. */
  | { type: "skip-waiting" }
  /**
   * Live reload (mkdocs serve): stop answering and storing, delete this site's caches,
   * then reply (RetiredReply). The page unregisters the worker afterwards; until the page
   * is left the worker still controls it, and without this it would store what the page
   * loads next into a cache the page has just deleted.
   */
  | { type: "retire" };

export interface RetiredReply {
  type: "retired";
}

export interface KeptReply {
  type: "kept";
  /** The deployment the active service worker serves. */
  version: string;
  /** The runtime is fully cached and so is every URL the page named. */
  complete: boolean;
}
