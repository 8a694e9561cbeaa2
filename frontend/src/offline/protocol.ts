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

/** Caches of the course before they were named per site (migrated, then deleted when empty). */
export const LEGACY_CACHE_PREFIX = "lessonkit-";

export type ToServiceWorker =
  /** Keep these URLs (the page and what it loaded before the service worker controlled it). */
  | { type: "keep"; urls: string[] }
  /** The reader chose to reload: a waiting service worker takes over now. */
  | { type: "skip-waiting" };

export interface KeptReply {
  type: "kept";
  /** The deployment the active service worker serves. */
  version: string;
  /** The runtime is fully cached and so is every URL the page named. */
  complete: boolean;
}
