/**
 * Messages between the page (offline/register.ts) and the service worker (sw/service-worker.ts).
 */

/** Every cache of the course starts with this; the service worker deletes stale ones. */
export const CACHE_PREFIX = "lessonkit-";

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
