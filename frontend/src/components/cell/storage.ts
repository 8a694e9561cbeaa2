/**
 * The reader's edits of a cell, kept in localStorage so a reload loses nothing.
 *
 * The key includes a hash of the author's code: when the author changes a
 * cell, an old draft is not silently put into the new cell.
 */

const PREFIX = "lk:draft:";

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

  constructor(page: string, index: number, authorCode: string) {
    this.key = `${PREFIX}${page}#${index}:${hashText(authorCode)}`;
  }

  load(): string | null {
    try {
      return window.localStorage.getItem(this.key);
    } catch {
      return null; // storage disabled (private window, policy): the page still works
    }
  }

  /** Returns false when the draft could not be saved. */
  save(code: string): boolean {
    try {
      window.localStorage.setItem(this.key, code);
      return true;
    } catch {
      return false;
    }
  }

  clear(): void {
    try {
      window.localStorage.removeItem(this.key);
    } catch {
      // nothing stored, nothing to clear
    }
  }
}
