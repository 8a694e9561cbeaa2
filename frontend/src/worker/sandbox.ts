/**
 * What reader code in the Python worker must not reach.
 *
 * Python in Pyodide sees the worker's global scope through its `js` module. The Cache
 * API there is the origin's: a cell could overwrite what the service worker serves
 * (sw/service-worker.ts also checks every shell file's bytes) or the kept memory
 * snapshot. IndexedDB is the origin's too, and a nested worker would be a fresh global
 * scope with all of them again. Once Python has started, these names are removed from
 * the scope and its prototypes, where Web IDL defines them; nothing in the worker
 * holds them afterwards, so `js` cannot get them back.
 */

const REMOVED = ["caches", "indexedDB", "Worker", "SharedWorker"] as const;

function remove(name: string): void {
  for (let target: object | null = self; target; target = Object.getPrototypeOf(target) as object | null) {
    if (Object.prototype.hasOwnProperty.call(target, name)) Reflect.deleteProperty(target, name);
  }
  if (name in self) {
    // Not configurable in some engine: shadow it for good.
    Object.defineProperty(self, name, { value: undefined, configurable: false, writable: false });
  }
}

/** Remove the origin's storage and nested workers from this worker's scope. */
export function sealWorkerScope(): void {
  for (const name of REMOVED) remove(name);
  const navigatorProto = Object.getPrototypeOf(navigator) as object;
  if ("serviceWorker" in navigator) Reflect.deleteProperty(navigatorProto, "serviceWorker");
}
