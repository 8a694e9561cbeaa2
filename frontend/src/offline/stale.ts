/**
 * The page's side of "one deployment per page" (runtime/deployment.ts): when the page and
 * a file it runs are of different deployments, say so and reload once, or stop.
 *
 * The reload keeps the reader's work: drafts, progress and console commands are written
 * to localStorage as they happen (components/cell/storage.ts, exercise/progress.ts,
 * console/saved.ts), and the page script's own check runs before anything is mounted.
 * Before reloading, the page's address is fetched once past the browser's cache, so the
 * reload finds the current page there (the host let the browser keep the old one).
 */
import { outOfDateNotice, type OutOfDate } from "../components/notice";
import { parseStaleNote, staleAction } from "../runtime/deployment";
import { pageKeyPath, siteKey } from "../runtime/storage";
import { pagePath } from "../runtime/page";

let handled = false;
/** Stored values as the page found them, written back before its reload (keepAcrossReload). */
const kept = new Map<string, string>();

/**
 * Remember what `keys` hold now, before anything is mounted, and put it back before an
 * out-of-date reload. A page whose worker turns out to be of another deployment mounted
 * its blocks first; its consoles then failed to replay the commands from before (Python
 * never started) and stored that nothing ran. No command can have run on such a page
 * (Python never answered), so what was stored at its start is the reader's work.
 */
export function keepAcrossReload(keys: string[]): void {
  try {
    for (const key of keys) {
      const value = localStorage.getItem(key);
      if (value !== null) kept.set(key, value);
    }
  } catch {
    // storage blocked: nothing was kept to lose
  }
}

function restoreKept(): void {
  try {
    for (const [key, value] of kept) localStorage.setItem(key, value);
  } catch {
    // storage blocked or full: the blocks have said so already
  }
}

function noteKey(): string {
  return siteKey("veraltet", pageKeyPath(pagePath()));
}

function readNote(): string | null {
  try {
    return sessionStorage.getItem(noteKey());
  } catch {
    return null; // storage blocked: no loop protection by note; the notice still says it
  }
}

function writeNote(mismatch: string): boolean {
  try {
    sessionStorage.setItem(noteKey(), JSON.stringify({ mismatch, at: Date.now() }));
    return true;
  } catch {
    return false;
  }
}

/** A page that passed its check forgets an earlier reload. */
export function currentPage(): void {
  try {
    sessionStorage.removeItem(noteKey());
  } catch {
    // nothing kept, nothing to forget
  }
}

function show(kind: OutOfDate): void {
  document.querySelector(".lk-out-of-date")?.remove();
  const notice = outOfDateNotice(kind);
  const article = document.querySelector("article") ?? document.body;
  article.prepend(notice);
}

/**
 * The page is out of date (`mismatch`: "<page version>→<what disagreed>"): reload once,
 * or, reloaded for the same reason a moment ago, stop and say so. Resolves when it stopped.
 */
export async function outOfDate(mismatch: string): Promise<void> {
  if (handled) return;
  handled = true;
  document.documentElement.dataset["lkOutOfDate"] = "true";
  const action = staleAction(parseStaleNote(readNote()), mismatch, Date.now());
  // Without a note a reload could not tell it had happened: stop rather than loop.
  if (action === "stop" || !writeNote(mismatch)) {
    show("stuck");
    document.documentElement.dataset["lkOutOfDate"] = "stuck";
    return;
  }
  show("reloading");
  try {
    // Past the browser's cache (and through the service worker, which stores what it may).
    await fetch(location.href, { cache: "reload", credentials: "same-origin" });
  } catch {
    // offline: the reload gets what the service worker has
  }
  restoreKept(); // last, after the blocks have reacted to Python's failed start
  location.reload();
}
