/**
 * The course's service worker: a visited lesson keeps working without a network,
 * its cells and consoles included.
 *
 * frontend/build.mjs bundles this file into docs/sw.js, the site's root, so that its
 * scope covers every page, and bakes in OFFLINE:
 * - `version`: a hash of every file under assets/generated/ but source maps. A deployment
 *   that changes any of them changes sw.js, so browsers install the new service worker.
 * - `precache`: the runtime shell, relative to the site root: the page bundle and its
 *   chunks, the Python worker, runtime.json with the package zip and memory snapshot it
 *   names, Pyodide's files, mermaid.
 *
 * Two caches:
 * - `lessonkit-shell-<version>`: assets/generated/, served cache-first. Filled on install;
 *   older versions are deleted on activate, so a deployment replaces the runtime whole.
 * - `lessonkit-pages`: everything else of this site (pages, Material's theme,
 *   lessonkit.css, the search index), served network-first with the cached copy as the
 *   fallback. It survives deployments so that visited lessons stay available; each
 *   online visit refreshes a page.
 *
 * Only same-origin GET requests are handled; only complete 200 responses are stored.
 * A new version waits until the reader chooses "Neu laden" (offline/register.ts).
 *
 * Speed on a returning visit: every request a controlled page makes would first wait
 * for this worker's JavaScript. Two standard ways around it, measured in
 * benchmarks/bench_site.py (warm start):
 * - navigation preload: the page's HTML is requested while this worker starts;
 * - static routes (Chromium's `InstallEvent.addRoutes`): the browser answers
 *   assets/generated/ from the shell cache without running this worker at all.
 *   Elsewhere the fetch handler does the same, only slower.
 */
import { CACHE_PREFIX, type KeptReply, type ToServiceWorker } from "../offline/protocol";

declare const self: ServiceWorkerGlobalScope;
declare const OFFLINE: { version: string; precache: string[] };

const SHELL = `${CACHE_PREFIX}shell-${OFFLINE.version}`;
const PAGES = `${CACHE_PREFIX}pages`;

const root = new URL(self.registration.scope);
const generated = new URL("assets/generated/", root).pathname;

/** A URL this service worker may cache: this site, below its root. */
function isOwn(url: URL): boolean {
  return url.origin === root.origin && url.pathname.startsWith(root.pathname);
}

function cacheFor(url: URL): string {
  return url.pathname.startsWith(generated) ? SHELL : PAGES;
}

/** Complete successes of this origin only: no errors, partial content, redirects or opaque responses. */
function storable(response: Response): boolean {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

// Files of one deployment are requested under one name; the host's Vary does not matter.
const MATCH: CacheQueryOptions = { ignoreVary: true };

async function precache(): Promise<void> {
  const cache = await caches.open(SHELL);
  await Promise.all(
    OFFLINE.precache.map(async (path) => {
      const url = new URL(path, root);
      if (await cache.match(url, MATCH)) return; // an install that is tried again
      // Revalidate: an HTTP-cached copy from an older deployment must not enter this version.
      const response = await fetch(url, { cache: "no-cache" });
      if (!storable(response)) throw new Error(`${url.pathname}: HTTP ${response.status}`);
      await cache.put(url, response);
    }),
  );
}

async function removeStaleShells(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(`${CACHE_PREFIX}shell-`) && name !== SHELL) await caches.delete(name);
  }
}

async function shellComplete(): Promise<boolean> {
  const cache = await caches.open(SHELL);
  const found = await Promise.all(OFFLINE.precache.map((path) => cache.match(new URL(path, root), MATCH)));
  return found.every(Boolean);
}

/**
 * Store what a page loaded before this service worker controlled it. Only a network
 * failure counts against completeness; a missing file (a broken link) is skipped.
 */
async function keep(urls: string[]): Promise<boolean> {
  const results = await Promise.allSettled(
    urls.map(async (href) => {
      const url = new URL(href);
      url.hash = "";
      if (!isOwn(url)) return;
      const cache = await caches.open(cacheFor(url));
      if (await cache.match(url, MATCH)) return;
      // The page just loaded it: the HTTP cache may answer.
      const response = await fetch(url);
      if (storable(response)) await cache.put(url, response);
    }),
  );
  return results.every((result) => result.status === "fulfilled");
}

async function cacheFirst(request: Request, event: FetchEvent): Promise<Response> {
  const cache = await caches.open(SHELL);
  const cached = await cache.match(request, MATCH);
  if (cached) return cached;
  const response = await fetch(request);
  if (storable(response)) event.waitUntil(cache.put(request, response.clone()));
  return response;
}

async function networkFirst(request: Request, event: FetchEvent): Promise<Response> {
  const cache = await caches.open(PAGES);
  try {
    // A navigation was already requested while this worker started (navigation preload).
    const preloaded =
      request.mode === "navigate" ? ((await event.preloadResponse) as Response | undefined) : undefined;
    const response = preloaded ?? (await fetch(request));
    if (storable(response)) event.waitUntil(cache.put(request, response.clone()));
    return response;
  } catch (error) {
    const cached =
      (await cache.match(request, MATCH)) ??
      (request.mode === "navigate" ? await cache.match(request, { ...MATCH, ignoreSearch: true }) : undefined);
    if (cached) return cached;
    if (request.mode === "navigate") return offlinePage();
    throw error;
  }
}

/** Shown instead of the browser's error page for a page that was never visited. */
function offlinePage(): Response {
  const html = `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Offline</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Du bist offline</h1>
<p>Diese Seite hast du noch nicht mit Internetverbindung geöffnet, deshalb ist sie nicht gespeichert.
Seiten, die du schon besucht hast, funktionieren auch offline – samt Python.</p>
<p><a href="${root.pathname}">Zur Startseite</a></p>
</body></html>`;
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** A rule of the static routing API (not yet in TypeScript's library). */
interface RouterRule {
  condition: { urlPattern: { pathname: string }; requestMethod: string };
  source: { cacheName: string };
}

type RoutingInstallEvent = ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> };

/** Where the browser supports it, assets/generated/ is answered from the shell cache directly. */
function addShellRoute(event: RoutingInstallEvent): Promise<void> {
  const rule = {
    condition: { urlPattern: { pathname: `${generated}*` }, requestMethod: "get" },
    source: { cacheName: SHELL },
  };
  // A refused rule costs speed, not correctness: the fetch handler serves the same.
  return event.addRoutes ? event.addRoutes([rule]).catch(() => undefined) : Promise.resolve();
}

self.addEventListener("install", (event) => {
  // No skipWaiting: a new version waits until the reader asks for it.
  event.waitUntil(Promise.all([addShellRoute(event), precache()]));
});

async function enableNavigationPreload(): Promise<void> {
  await self.registration.navigationPreload?.enable().catch(() => undefined);
}

self.addEventListener("activate", (event) => {
  const ready = Promise.all([removeStaleShells(), enableNavigationPreload()]);
  event.waitUntil(ready.then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("range")) return;
  const url = new URL(request.url);
  if (!isOwn(url) || url.pathname.endsWith(".map")) return; // source maps: for developer tools, online
  event.respondWith(cacheFor(url) === SHELL ? cacheFirst(request, event) : networkFirst(request, event));
});

self.addEventListener("message", (event) => {
  const message = event.data as ToServiceWorker;
  if (message.type === "skip-waiting") {
    event.waitUntil(self.skipWaiting());
  } else if (message.type === "keep") {
    const port = event.ports[0];
    event.waitUntil(
      Promise.all([keep(message.urls), shellComplete()]).then(([kept, shell]) => {
        const reply: KeptReply = { type: "kept", version: OFFLINE.version, complete: kept && shell };
        port?.postMessage(reply);
      }),
    );
  }
});
