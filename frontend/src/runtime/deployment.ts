/**
 * One deployment per page: the page script, the Python worker and the course's stylesheet
 * each carry the version of the build that made them, and they run only with a page of
 * that version (`<meta name="lessonkit-version">`, stamped by lessonkit/build/csp.py).
 *
 * A host lets the browser keep files for a while (GitHub Pages: ten minutes), so after a
 * deployment a page may come from the browser's cache while a runtime file comes new from
 * the network, or the other way round. Whoever notices first says so: the page script
 * before it mounts anything, the worker (whose `?v=` names the page's version) before it
 * loads anything. The page then reloads once (offline/stale.ts).
 *
 * Pure logic here, shared by the page script and the worker (no DOM, no worker globals).
 */

/*
 * The deployment's version is baked in by frontend/build.mjs (esbuild `define`
 * LESSONKIT_BUILD) where the entry scripts use it, never here: this module goes into a
 * shared chunk, whose name esbuild hashes before the version is written in, so a chunk
 * kept by the browser could carry another deployment's version under the same name.
 */

/** What the worker throws (and the page recognises) when it is not the page's deployment. */
export const STALE_WORKER = "lessonkit: Python-Worker einer anderen Fassung des Kurses";

/**
 * The first file that is not of the page's deployment, or null when all agree. `page`:
 * the page's stamp ("" or null on a page the build's last step never saw, e.g. under
 * `mkdocs serve`: nothing to compare); `files`: name -> the version the file carries
 * (null or "": it carries none, e.g. a stylesheet that did not load, which says nothing
 * about deployments).
 */
export function staleFile(page: string | null, files: Record<string, string | null>): string | null {
  if (!page) return null;
  for (const [name, version] of Object.entries(files)) {
    if (version && version !== page) return name;
  }
  return null;
}

/** The version a stylesheet carries in its custom property `--lk-version` (`"…"` or bare). */
export function cssVersion(value: string): string | null {
  const text = value.trim().replace(/^["']|["']$/g, "");
  return /^[0-9a-f]{16}$/.test(text) ? text : null;
}

/**
 * What the page does when it is out of date. It reloads once; when it was reloaded for
 * the same reason a moment ago (the server still sends the old page, e.g. a host's cache
 * that has not caught up), it says so and stops instead of reloading in a loop.
 *
 * `before`: what this tab noted before its last reload (sessionStorage), `now`: the clock.
 */
export interface StaleNote {
  /** The page's version and the file's, "page→file". */
  mismatch: string;
  at: number;
}

/** How long a note of a reload counts: a later mismatch is a new deployment, worth a reload. */
export const RELOAD_MEMORY_MS = 60_000;

export function staleAction(before: StaleNote | null, mismatch: string, now: number): "reload" | "stop" {
  if (before && before.mismatch === mismatch && now - before.at >= 0 && now - before.at < RELOAD_MEMORY_MS) return "stop";
  return "reload";
}

/** A note read back from storage, or null when it is not one (anything may be stored there). */
export function parseStaleNote(text: string | null): StaleNote | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== "object" || value === null) return null;
    const { mismatch, at } = value as Record<string, unknown>;
    return typeof mismatch === "string" && typeof at === "number" ? { mismatch, at } : null;
  } catch {
    return null;
  }
}
