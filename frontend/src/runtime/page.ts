/** Where the current page is, relative to the site's root (stable across deployments). */

interface MaterialConfig {
  base?: string;
}

/** The site's root URL, from Material's `__config` (falls back to the origin). */
export function siteRoot(): URL {
  const script = document.getElementById("__config");
  try {
    const config = JSON.parse(script?.textContent ?? "{}") as MaterialConfig;
    if (config.base) return new URL(`${config.base.replace(/\/?$/, "/")}`, location.href);
  } catch {
    // no Material config: fall through
  }
  return new URL("/", location.href);
}

/** A page URL relative to the site root, e.g. "lektionen/ereignisstroeme/". */
export function pagePath(url: string = location.href): string {
  const root = siteRoot().pathname;
  const path = new URL(url, location.href).pathname;
  return path.startsWith(root) ? path.slice(root.length) : path;
}
