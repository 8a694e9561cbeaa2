/**
 * The reader's edits of a cell, kept in localStorage so a reload loses nothing.
 *
 * The key includes a hash of the author's code: when the author changes a
 * cell, an old draft is not silently put into the new cell. It names the site and the
 * page relative to the site root (runtime/storage.ts: `…/index.html` is the same page).
 */

import { pagePath } from "../../runtime/page";
import { misplacedPagePaths, pageKeyPath, recoverItem, removeItem, siteKey, writeItem } from "../../runtime/storage";

/** This site's draft keys start so (computed when asked: the root is fixed by then). */
export function draftPrefix(): string {
  return siteKey("draft");
}

/** A short, stable hash (FNV-1a) of a string, as hex. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export class DraftStore {
  private readonly key: string;
  /** Where an earlier page script may have put this draft (runtime/storage.ts). */
  private readonly misplaced: string[];

  /** `page`: the page's address or path (absolute or relative to the site root). */
  constructor(page: string, index: number, authorCode: string) {
    const path = pageKeyPath(pagePath(page));
    const cell = `#${index}:${hashText(authorCode)}`;
    this.key = `${draftPrefix()}${path}${cell}`;
    // The cell's index and the hash of its code identify a misplaced draft.
    this.misplaced = misplacedPagePaths(path).map((other) => `${draftPrefix()}${other}${cell}`);
  }

  load(): string | null {
    return recoverItem(this.key, this.misplaced, () => true);
  }

  /** Returns false when the draft could not be saved. */
  save(code: string): boolean {
    return writeItem(this.key, code);
  }

  clear(): void {
    removeItem(this.key);
  }
}
