/**
 * localStorage that never throws: private windows, policies and a full quota make
 * it fail, and the page must work anyway. Writers learn whether it worked.
 */
import { siteRoot } from "./page";

export function readItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** True when localStorage can be read (false in some private windows and under policies;
 * a full one still reads). */
export function storageReadable(): boolean {
  try {
    window.localStorage.getItem("lk:probe");
    return true;
  } catch {
    return false;
  }
}

/** False when the value could not be stored. */
export function writeItem(key: string, value: string): boolean {
  try {
    window.localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeItem(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // nothing stored, nothing to remove
  }
}

/** Every stored key that starts with one of `prefixes`. */
export function keysWith(...prefixes: string[]): string[] {
  const keys: string[] = [];
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key && prefixes.some((prefix) => key.startsWith(prefix))) keys.push(key);
    }
  } catch {
    // storage unavailable: nothing stored
  }
  return keys;
}

/**
 * Keys of this course site: `lk:<site path>:<kind>:<rest>`. Sites on one origin
 * (`<owner>.github.io/a/` and `/b/`) share localStorage; each reads, writes and resets
 * only its own keys. Page paths are relative to the site root, `…/index.html` as `…/`.
 */
export function siteKey(kind: string, rest = ""): string {
  migrateLegacyKeys();
  return `lk:${siteRoot().pathname}:${kind}:${rest}`;
}

/** A page path relative to the site root as keys use it: `a/index.html` and `a/` are one page. */
export function pageKeyPath(path: string): string {
  return path.replace(/(^|\/)index\.html$/, "$1");
}

/**
 * The page paths under which earlier versions of the page script wrote this page's
 * keys by mistake. After an instant page change they resolved the first page's relative
 * `__config.base` against the new address (runtime/page.ts), so a page was named by
 * the last d segments of its full path, d being the depth of the page the visit
 * began on: any suffix of the full path that starts after a slash, "" included.
 * `page` is the true page path (relative to the root, as keys use it).
 */
export function misplacedPagePaths(page: string): string[] {
  const full = `${siteRoot().pathname}${page}`.replace(/^\/+/, "");
  const paths = [full];
  for (let slash = full.indexOf("/"); slash >= 0; slash = full.indexOf("/", slash + 1)) {
    paths.push(full.slice(slash + 1));
  }
  return [...new Set(paths.map(pageKeyPath))].filter((path) => path !== page);
}

/**
 * The value stored under `key`. Where there is none, the first of `candidates` (keys
 * the same value may have been written under by mistake) whose value `belongs` is
 * moved to `key`: found where that can be told, never deleted blindly (a candidate
 * is removed only once its value is safely under `key`).
 */
export function recoverItem(key: string, candidates: string[], belongs: (value: string) => boolean): string | null {
  const stored = readItem(key);
  if (stored !== null) return stored;
  for (const candidate of candidates) {
    const value = readItem(candidate);
    if (value === null || !belongs(value)) continue;
    if (writeItem(key, value)) removeItem(candidate);
    return value;
  }
  return null;
}

/**
 * The pages this page's cells, exercises and consoles stood on before (its `umgezogen`
 * block, lessonkit/fences/moved.py), as page paths: what the reader made there moves here.
 */
export function earlierPagePaths(): string[] {
  if (typeof document === "undefined" || typeof document.querySelector !== "function") return [];
  const text = document.querySelector<HTMLElement>(".lk-umgezogen__data")?.dataset["lkJson"];
  try {
    const value: unknown = JSON.parse(text ?? "[]");
    return Array.isArray(value) ? value.filter((path): path is string => typeof path === "string") : [];
  } catch {
    return [];
  }
}

let migrated = false;

/**
 * Keys written before keys were per site: `lk:exercise:<page>#<id>` (page relative to
 * the root) and `lk:draft:<absolute path>#<cell>:<hash>`. Moved once per page load into
 * this site's keys, so no reader loses a draft or a solved exercise. Drafts below
 * another site's path stay; an exercise key names no site, so the first site of the
 * course that loads takes it.
 */
function migrateLegacyKeys(): void {
  if (migrated) return;
  migrated = true;
  const root = siteRoot().pathname;
  for (const key of keysWith("lk:exercise:", "lk:draft:")) {
    let kind: string;
    let rest: string;
    if (key.startsWith("lk:exercise:")) {
      kind = "exercise";
      rest = key.slice("lk:exercise:".length);
    } else {
      const path = key.slice("lk:draft:".length);
      if (!path.startsWith(root)) continue;
      kind = "draft";
      rest = path.slice(root.length);
    }
    const hash = rest.indexOf("#");
    if (hash < 0) continue;
    const target = `lk:${root}:${kind}:${pageKeyPath(rest.slice(0, hash))}${rest.slice(hash)}`;
    const value = readItem(key);
    if (value !== null && readItem(target) === null && !writeItem(target, value)) continue;
    removeItem(key);
  }
}
