/**
 * Where the current page is, relative to the site's root (stable across deployments).
 *
 * The root is fixed once per visit. Material's `__config.base` is relative ("../..")
 * and instant navigation keeps the first page's `__config` while the address changes,
 * so resolving it against a later page's address names the wrong folder: every key
 * (drafts, progress) of every page at another depth went astray (issue 26). The page
 * script's own address does not change with the page: index.ts fixes the root from it.
 */

interface MaterialConfig {
  base?: string;
}

/** The page script lives at `<root>/assets/generated/js/lessonkit.js` (frontend/build.mjs). */
export const SCRIPT_TO_ROOT = "../../../";

let root: URL | null = null;

/** Fix the site root for this visit from the page script's address (`import.meta.url`). */
export function fixRootFromScript(scriptUrl: string | URL): void {
  root = new URL(SCRIPT_TO_ROOT, scriptUrl);
}

/** The root from the page's `__config` (falls back to the origin); right only on the page
 * the visit began on, hence remembered at its first use. */
function rootFromConfig(): URL {
  const script = document.getElementById("__config");
  try {
    const config = JSON.parse(script?.textContent ?? "{}") as MaterialConfig;
    if (config.base) return new URL(`${config.base.replace(/\/?$/, "/")}`, location.href);
  } catch {
    // no Material config: fall through
  }
  return new URL("/", location.href);
}

/** The site's root URL, the same on every page of this visit. */
export function siteRoot(): URL {
  root ??= rootFromConfig();
  return new URL(root);
}

/** A page URL relative to the site root, e.g. "lektionen/ereignisstroeme/". */
export function pagePath(url: string = location.href): string {
  const rootPath = siteRoot().pathname;
  const path = new URL(url, location.href).pathname;
  return path.startsWith(rootPath) ? path.slice(rootPath.length) : path;
}
