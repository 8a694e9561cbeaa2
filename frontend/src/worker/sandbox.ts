/**
 * What reader code in the Python worker must not reach.
 *
 * Python in Pyodide sees the worker's global scope through its `js` module. The Cache
 * API there is the origin's: a cell could overwrite what the service worker serves
 * (sw/service-worker.ts also checks every shell file's bytes) or the kept memory
 * snapshot. IndexedDB and the origin-private file system (`navigator.storage`
 * `.getDirectory()`, which the page sees too; storage buckets hold all three) are the
 * origin's too, and a nested worker would be a fresh global scope with all of them again.
 * Once Python has started, these names are removed from the scope and its prototypes,
 * where Web IDL defines them; nothing in the worker holds them afterwards, so `js` cannot
 * get them back.
 *
 * `close()` ended the worker without a word: every later run waited for ever until the
 * reader pressed Stopp. It is replaced, for good, by one that tells the page first
 * (`closed`), which restarts Python with a German note.
 */
import type { FromWorker } from "../runtime/protocol";

const REMOVED = [
  "caches",
  "indexedDB",
  "Worker",
  "SharedWorker",
  // Chromium's old file system API, in workers too.
  "webkitRequestFileSystem",
  "webkitRequestFileSystemSync",
  "webkitResolveLocalFileSystemURL",
  "webkitResolveLocalFileSystemSyncURL",
] as const;

/** On the worker's `navigator`: the service worker, the origin's storage (and its private file system), storage buckets. */
const REMOVED_FROM_NAVIGATOR = ["serviceWorker", "storage", "storageBuckets"] as const;

/** Remove `name` from `owner` and every prototype of it; shadow it for good where that fails. */
function remove(owner: object, name: string): void {
  for (let target: object | null = owner; target; target = Object.getPrototypeOf(target) as object | null) {
    if (Object.prototype.hasOwnProperty.call(target, name)) Reflect.deleteProperty(target, name);
  }
  if (name in owner) {
    // Not configurable in some engine: shadow it for good.
    Object.defineProperty(owner, name, { value: undefined, configurable: false, writable: false });
  }
}

/** `close()` that tells the page before the worker ends (the page restarts Python). */
function closeTellsThePage(): void {
  const close = self.close.bind(self);
  const post = self.postMessage.bind(self);
  remove(self, "close");
  Object.defineProperty(self, "close", {
    value: function close_(): void {
      const closed: FromWorker = { type: "closed" };
      post(closed);
      close();
    },
    configurable: false,
    writable: false,
  });
}

/** Remove the origin's storage and nested workers from this worker's scope; make `close()` tell the page. */
export function sealWorkerScope(): void {
  for (const name of REMOVED) remove(self, name);
  for (const name of REMOVED_FROM_NAVIGATOR) remove(navigator, name);
  closeTellsThePage();
}
