/**
 * Progress of the reader, per exercise, in localStorage.
 *
 * Key: `lk:<site path>:exercise:<page path>#<id>` (runtime/storage.ts); value: the
 * exercise's content digest, whether it is solved, the reader's draft or answer, how
 * many wrong tries were checked and whether the solution was shown, checked for their
 * types on every read (anything on the origin can write there). Values written before
 * tries and the shown solution were recorded lack both and read as none. When the author
 * changes an exercise its digest changes, and an old draft is not silently
 * restored. Where storage is unavailable the page still works.
 */
import { pagePath } from "../../runtime/page";
import { earlierPagePaths, misplacedPagePaths, pageKeyPath, readItem, recoverItem, removeItem, siteKey, writeItem } from "../../runtime/storage";

/** This site's progress keys start so (computed when asked: the root is fixed by then). */
export function exercisePrefix(): string {
  return siteKey("exercise");
}

export interface Progress {
  digest: string;
  solved: boolean;
  draft?: string;
  /** A challenge's node written in TypeScript (`draft` holds the Python one). */
  draft_ts?: string;
  answer?: string;
  /** Wrong answers checked so far (an invalid one does not count). */
  tries?: number;
  /** The reader saw the solution (asked for it, or the author's tries were used up). */
  revealed?: boolean;
}

/** True when localStorage can be written (not in some private windows, not when full). */
export function storageAvailable(): boolean {
  const probe = `${exercisePrefix()}probe`;
  const works = writeItem(probe, "1");
  removeItem(probe);
  return works;
}

/** The stored progress under `key`, or null (nothing stored, or unreadable). */
export function readProgress(key: string): Progress | null {
  return parseProgress(readItem(key));
}

function parseProgress(text: string | null): Progress | null {
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    return isProgress(value) ? value : null;
  } catch {
    return null;
  }
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function optionalCount(value: unknown): boolean {
  return value === undefined || (typeof value === "number" && Number.isSafeInteger(value) && value >= 0);
}

function optionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === "boolean";
}

/** Only a value with exactly the types this file writes counts as progress. */
function isProgress(value: unknown): value is Progress {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { digest, solved, draft, draft_ts, answer, tries, revealed } = value as Record<string, unknown>;
  return (
    typeof digest === "string" &&
    typeof solved === "boolean" &&
    optionalString(draft) &&
    optionalString(draft_ts) &&
    optionalString(answer) &&
    optionalCount(tries) &&
    optionalBoolean(revealed)
  );
}

export function progressKey(page: string, id: string): string {
  return `${exercisePrefix()}${pageKeyPath(page)}#${id}`;
}

/** Sent on `document` when an exercise on this page became solved or was reset. */
export const PROGRESS_EVENT = "lessonkit:progress";

function announceProgress(): void {
  document.dispatchEvent(new CustomEvent(PROGRESS_EVENT));
}

export class ProgressStore {
  private readonly key: string;
  /** Where an earlier page script may have put this progress (runtime/storage.ts). */
  private readonly misplaced: string[];

  /** `earlier`: digests this same exercise had under older builds (`digest_before`);
   * `movedFrom`: the page paths this page's exercises stood on before (`umgezogen`). */
  constructor(
    id: string,
    private readonly digest: string,
    page: string = pagePath(),
    private readonly earlier: string[] = [],
    movedFrom: string[] = earlierPagePaths(),
  ) {
    this.key = progressKey(page, id);
    this.misplaced = [...misplacedPagePaths(pageKeyPath(page)), ...movedFrom].map((other) => progressKey(other, id));
  }

  private ours(digest: string | undefined): boolean {
    return digest !== undefined && (digest === this.digest || this.earlier.includes(digest));
  }

  /** What is stored: current (this exercise's digest), stale (an older version), or nothing.
   * Progress under a misplaced key, or on a page the exercise stood on before, is taken
   * only with this exercise's digest: ids repeat across pages. */
  load(): { current: Progress | null; stale: Progress | null } {
    const text = recoverItem(this.key, this.misplaced, (value) => this.ours(parseProgress(value)?.digest));
    const stored = parseProgress(text);
    if (!stored) return { current: null, stale: null };
    return this.ours(stored.digest) ? { current: stored, stale: null } : { current: null, stale: stored };
  }

  /** Merge `change` into the stored progress; false when it could not be saved. A change of
   * `solved` is announced (PROGRESS_EVENT), so an overview on the same page follows it. */
  save(change: Partial<Progress>): boolean {
    const { current } = this.load();
    // Stored under this build's digest, also when it was found under an earlier one.
    const next: Progress = { solved: false, ...current, ...change, digest: this.digest };
    const saved = writeItem(this.key, JSON.stringify(next));
    if (saved && next.solved !== (current?.solved ?? false)) announceProgress();
    return saved;
  }

  clear(): void {
    removeItem(this.key);
    announceProgress();
  }
}
