/**
 * The reader's edits of a cell, kept in localStorage so a reload loses nothing.
 *
 * The key includes a hash of the author's code: when the author changes a
 * cell, an old draft is not silently put into the new cell. It names the site and the
 * page relative to the site root (runtime/storage.ts: `…/index.html` is the same page).
 */

import { pagePath } from "../../runtime/page";
import {
  earlierPagePaths,
  keysWith,
  misplacedPagePaths,
  pageKeyPath,
  recoverItem,
  removeItem,
  siteKey,
  writeItem,
} from "../../runtime/storage";

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
  /** Where the draft is kept (another tab of the page writes the same key). */
  readonly key: string;
  /** Where an earlier page script may have put this draft (runtime/storage.ts). */
  private readonly misplaced: string[];
  /** Key prefixes of the pages the cell stood on before (`umgezogen`). */
  private readonly moved: string[];
  private readonly codeHash: string;

  /** `page`: the page's address or path (absolute or relative to the site root);
   * `earlier`: the page paths this page's cells stood on before. */
  constructor(page: string, index: number, authorCode: string, earlier: string[] = earlierPagePaths()) {
    const path = pageKeyPath(pagePath(page));
    this.codeHash = hashText(authorCode);
    const cell = `#${index}:${this.codeHash}`;
    this.key = `${draftPrefix()}${path}${cell}`;
    // The cell's index and the hash of its code identify a misplaced draft.
    this.misplaced = misplacedPagePaths(path).map((other) => `${draftPrefix()}${other}${cell}`);
    this.moved = earlier.map((other) => `${draftPrefix()}${pageKeyPath(other)}#`);
  }

  load(): string | null {
    const found = recoverItem(this.key, this.misplaced, () => true);
    if (found !== null || this.moved.length === 0) return found;
    // On the page the cell stood on before, its index was another; the hash of its code
    // is the same (a cell the author changed while moving it starts from the new code).
    const ours = new RegExp(`^\\d+:${this.codeHash}$`);
    const candidates = this.moved.flatMap((prefix) =>
      keysWith(prefix).filter((key) => ours.test(key.slice(prefix.length))),
    );
    return recoverItem(this.key, candidates.sort(), () => true);
  }

  /** Returns false when the draft could not be saved. */
  save(code: string): boolean {
    return writeItem(this.key, code);
  }

  clear(): void {
    removeItem(this.key);
  }
}
