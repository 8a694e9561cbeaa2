/**
 * Progress of the reader, per exercise, in localStorage.
 *
 * Key: `lk:exercise:<page path>#<id>`; value: the exercise's content digest,
 * whether it is solved, and the reader's draft or answer. When the author
 * changes an exercise its digest changes, and an old draft is not silently
 * restored. Where storage is unavailable the page still works.
 */
import { pagePath } from "../../runtime/page";

export const PREFIX = "lk:exercise:";

export interface Progress {
  digest: string;
  solved: boolean;
  draft?: string;
  answer?: string;
}

/** True when localStorage can be written (not in some private windows, not when full). */
export function storageAvailable(): boolean {
  try {
    const probe = `${PREFIX}probe`;
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

export function progressKey(page: string, id: string): string {
  return `${PREFIX}${page}#${id}`;
}

export class ProgressStore {
  private readonly key: string;

  constructor(
    id: string,
    private readonly digest: string,
    page: string = pagePath(),
  ) {
    this.key = progressKey(page, id);
  }

  /** What is stored: current (same digest), stale (an older version), or nothing. */
  load(): { current: Progress | null; stale: Progress | null } {
    let stored: Progress | null = null;
    try {
      const text = window.localStorage.getItem(this.key);
      stored = text ? (JSON.parse(text) as Progress) : null;
    } catch {
      stored = null;
    }
    if (!stored) return { current: null, stale: null };
    return stored.digest === this.digest ? { current: stored, stale: null } : { current: null, stale: stored };
  }

  /** Merge `change` into the stored progress; false when it could not be saved. */
  save(change: Partial<Progress>): boolean {
    const { current } = this.load();
    const next: Progress = { digest: this.digest, solved: false, ...current, ...change };
    try {
      window.localStorage.setItem(this.key, JSON.stringify(next));
      return true;
    } catch {
      return false;
    }
  }

  clear(): void {
    try {
      window.localStorage.removeItem(this.key);
    } catch {
      // nothing stored
    }
  }
}
