/**
 * Stand-ins for the browser globals the front-end reads, for unit tests under Node.js.
 * Import this module first: some modules read `document` or `localStorage` when they load.
 */

/** localStorage in memory; `broken` makes every access throw, like a private window's. */
export class MemoryStorage implements Storage {
  readonly items = new Map<string, string>();
  broken = false;
  /** Full: writing throws QuotaExceededError, reading and removing work. */
  full = false;

  get length(): number {
    this.check();
    return this.items.size;
  }

  key(index: number): string | null {
    this.check();
    return [...this.items.keys()][index] ?? null;
  }

  getItem(key: string): string | null {
    this.check();
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.check();
    if (this.full) throw new DOMException("Speicher voll", "QuotaExceededError");
    this.items.set(key, String(value));
  }

  removeItem(key: string): void {
    this.check();
    this.items.delete(key);
  }

  clear(): void {
    this.items.clear();
  }

  private check(): void {
    if (this.broken) throw new DOMException("Speicher gesperrt", "SecurityError");
  }
}

/** Material's `__config` names the site's root relative to the page (`base`). */
export const SITE = "http://127.0.0.1:8000/kurs/";
export const storage = new MemoryStorage();
export const documentEvents = new EventTarget();

let base = "../..";

const fakeDocument = {
  getElementById: (id: string) => (id === "__config" ? { textContent: JSON.stringify({ base }) } : null),
  dispatchEvent: (event: Event) => documentEvents.dispatchEvent(event),
  addEventListener: documentEvents.addEventListener.bind(documentEvents),
};

const scope = globalThis as Record<string, unknown>;
scope["window"] = globalThis;
scope["document"] = fakeDocument;
scope["localStorage"] = storage;

/** Show the page at `path` (relative to the site root, like "lektionen/ereignisstroeme/"),
 * loaded anew: its `__config` comes with it. */
export function visit(path: string): void {
  scope["location"] = new URL(path, SITE);
  const depth = path.split("/").length - 1;
  base = depth === 0 ? "." : Array(depth).fill("..").join("/");
}

visit("lektionen/ereignisstroeme/");

/** Go to `path` as Material's instant navigation does: the address changes, the first
 * page's `__config` (its relative `base`) stays. */
export function navigate(path: string): void {
  scope["location"] = new URL(path, SITE);
}
