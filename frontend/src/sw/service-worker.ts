/**
 * The course's service worker: a visited lesson keeps working without a network,
 * its cells and consoles included.
 *
 * frontend/build.mjs bundles this file into docs/sw.js, the site's root, so that its
 * scope covers every page, and bakes in OFFLINE:
 * - `version`: a hash of every file under assets/generated/ but source maps. A deployment
 *   that changes any of them changes sw.js, so browsers install the new service worker.
 * - `precache`: the runtime shell, relative to the site root, each with the SHA-256 of
 *   its bytes: the page bundle and its chunks, the Python worker, runtime.json with the
 *   package zip and memory snapshot it names, Pyodide's files, mermaid.
 * - `lazy`: those of them not fetched on install, kept (checked the same way) once a page
 *   asks for them: the TypeScript node runtime's chunk.
 *
 * Two caches, named per site (offline/protocol.ts: two course sites on one origin keep
 * their own):
 * - `shell-<version>`: assets/generated/, served cache-first. Filled on install; older
 *   versions are deleted on activate, so a deployment replaces the runtime whole.
 * - `pages-<record id>`: everything else of this site (pages, Material's theme,
 *   lessonkit.css, the search index), served network-first with the cached copy as the
 *   fallback, stored without query string. A new service worker carries the pages the
 *   reader had visited over into its own cache on install, with the bytes of its own
 *   deployment (fetched anew where they changed), so visited lessons stay available
 *   across deployments; activation deletes the older page caches.
 *
 * Integrity: anything on the origin can write into the Cache API (another site on the
 * same `<owner>.github.io`, or a script the reader runs). Nothing is served from a cache
 * unless its bytes have the SHA-256 the build recorded: a shell file that of the manifest
 * (otherwise the entry is dropped and fetched again, and never served when that fails),
 * every other file that of the record lessonkit/build/csp.py puts in front of this script
 * (`self.LESSONKIT_RECORD`; the browser fetches sw.js past every cache, so nothing planted
 * can change it). A page or theme file that is not the record's is dropped: offline, a
 * page then gets the German offline note. Only the record's bytes are stored. The Python
 * worker gets the Content-Security-Policy WORKER_CSP with its script: Python reaches the
 * site's own origin only.
 *
 * One deployment per page: a page stamps the version it belongs to on the URLs of its
 * page script and Python worker (`?v=`, lessonkit/build/csp.py); what they load carries it as
 * the referrer. A page of another deployment than this worker's (a page fetched after
 * a deployment, before the reader pressed "Neu laden") gets its runtime from the
 * network, never this worker's older one.
 *
 * Only same-origin GET requests are handled; only complete 200 responses are stored.
 * A new runtime waits until the reader chooses "Neu laden" (offline/register.ts). A
 * deployment that changed only pages (a new record, the same shell) takes over at once:
 * an open page keeps running the runtime it has, and its text needs no reload.
 *
 * Speed on a returning visit: navigation preload requests the page's HTML while this
 * worker starts. Chromium's static routes (`InstallEvent.addRoutes`) would answer the
 * shell without running this worker, but also without checking its bytes: not used.
 */
import {
  cacheName,
  LEGACY_CACHE_PREFIX,
  serviceWorkerCaches,
  type KeptReply,
  type RetiredReply,
  type ToServiceWorker,
} from "../offline/protocol";

/** lessonkit/build/csp.py: the SHA-256 of every file of the site but the shell, and its id. */
interface SiteRecord {
  id: string;
  files: Record<string, string>;
}

declare const self: ServiceWorkerGlobalScope & { LESSONKIT_RECORD?: SiteRecord };
declare const OFFLINE: { version: string; precache: Record<string, string>; lazy?: string[] };

const root = new URL(self.registration.scope);
const generated = new URL("assets/generated/", root).pathname;

/** Without a record (a build that skipped its last step) no page is served from the cache. */
const RECORD: SiteRecord = self.LESSONKIT_RECORD ?? { id: "ohne-record", files: {} };
/** Site-relative file path -> SHA-256 (hex) of the bytes this deployment wrote. */
const RECORDED = new Map(Object.entries(RECORD.files));

const SHELL = cacheName(root.pathname, `shell-${OFFLINE.version}`);
const PAGES_PREFIX = cacheName(root.pathname, "pages");
const PAGES = `${PAGES_PREFIX}-${RECORD.id}`;

/**
 * Set by the page under live reload ("retire"): from then on every request goes to the
 * network and nothing is stored. Lost if the browser stops this worker before the page
 * is left; the page's next load under live reload deletes the caches again.
 */
let retired = false;

/** Site-relative path -> SHA-256 (hex) of the bytes this deployment built. */
const MANIFEST = new Map(Object.entries(OFFLINE.precache));

/** Scripts of workers that run reader code, or start them: Python's network is this site. */
const WORKER_SCRIPTS = new Set(["assets/generated/js/worker.js"]);
const WORKER_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
].join("; ");

/** A URL this service worker may cache: this site, below its root. */
function isOwn(url: URL): boolean {
  return url.origin === root.origin && url.pathname.startsWith(root.pathname);
}

function isShell(url: URL): boolean {
  return url.pathname.startsWith(generated);
}

function siteRelative(url: URL): string {
  return url.pathname.slice(root.pathname.length);
}

/** Complete successes of this origin only: no errors, partial content, redirects or opaque responses. */
function storable(response: Response): boolean {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

// Files of one deployment are requested under one name; the host's Vary does not matter.
const MATCH: CacheQueryOptions = { ignoreVary: true };

async function sha256(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Where a shell file is kept: its address without query (`?v=`) or fragment. */
function shellKey(url: URL): URL {
  return new URL(url.pathname, url);
}

/**
 * Where a page is kept: without query string (search highlighting adds `?h=…`) and
 * `…/index.html` as `…/`, so one page is one entry, found however it is addressed.
 */
function pageKey(url: URL): URL {
  return new URL(url.pathname.replace(/\/index\.html$/, "/"), url);
}

/** The file a page key stands for, as the record names it (`a/` is `a/index.html`). */
function recordPath(key: URL): string {
  const path = siteRelative(key);
  return path === "" || path.endsWith("/") ? `${path}index.html` : path;
}

/** Whether `body` has the bytes the record holds for the page key `key`. */
async function recorded(key: URL, body: ArrayBuffer): Promise<boolean> {
  const expected = RECORDED.get(recordPath(key));
  return expected !== undefined && (await sha256(body)) === expected;
}

/** The cached copy of a page or theme file, only with the record's bytes; another is dropped. */
async function cachedPage(cache: Cache, key: URL): Promise<Response | null> {
  const cached = await cache.match(key, MATCH);
  if (!cached) return null;
  const body = await cached.arrayBuffer();
  if (await recorded(key, body)) return new Response(body, cached);
  await cache.delete(key, MATCH); // planted, or of another deployment: never served
  return null;
}

/**
 * Store `response` for `key` when it has the record's bytes; says whether it was stored.
 * The caller has checked that a response from the network is `storable` (a clone no longer says).
 */
async function storeRecorded(cache: Cache, key: URL, response: Response): Promise<boolean> {
  const body = await response.arrayBuffer();
  if (!(await recorded(key, body))) return false;
  await cache.put(key, new Response(body, response));
  return true;
}

/** The deployment a request belongs to: `?v=` on it, or on the shell script that made it. */
function wantedVersion(request: Request): string | null {
  for (const href of [request.url, request.referrer]) {
    if (!href.startsWith(root.origin)) continue; // "", "about:client", no-referrer
    const url = new URL(href);
    const version = url.searchParams.get("v");
    if (version && isShell(url)) return version;
  }
  return null;
}

/** `response` with `body`, and the worker policy when it is a worker's script. */
function serve(response: Response, body: ArrayBuffer, path: string): Response {
  const headers = new Headers(response.headers);
  // The body is decoded bytes now: a host's encoding or length no longer describe it.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  if (WORKER_SCRIPTS.has(path)) headers.set("Content-Security-Policy", WORKER_CSP);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** A shell file from the network, revalidated; stored when its bytes are the manifest's. */
async function fetchShellFile(url: URL, cache: Cache, event?: ExtendableEvent): Promise<Response> {
  const path = siteRelative(url);
  const response = await fetch(url, { cache: "no-cache" });
  if (!storable(response)) return response;
  const body = await response.arrayBuffer();
  if ((await sha256(body)) === MANIFEST.get(path)) {
    const stored = cache.put(url, new Response(body.slice(0), response));
    if (event) event.waitUntil(stored);
    else await stored;
  }
  // A mismatch is another deployment than this worker's, from this site: served, not kept.
  return serve(response, body, path);
}

/** A shell file of this deployment: from the cache when its bytes are intact. */
async function shellFile(url: URL, event?: ExtendableEvent): Promise<Response> {
  const key = shellKey(url);
  const path = siteRelative(key);
  const cache = await caches.open(SHELL);
  const cached = await cache.match(key, MATCH);
  if (cached) {
    const body = await cached.arrayBuffer();
    if ((await sha256(body)) === MANIFEST.get(path)) return serve(cached, body, path);
    await cache.delete(key, MATCH); // written by someone else: never served
  }
  return fetchShellFile(key, cache, event);
}

/** Shell files kept only once asked for (OFFLINE.lazy: the TypeScript runtime's chunk). */
const LAZY = new Set(OFFLINE.lazy ?? []);

async function precache(): Promise<void> {
  const cache = await caches.open(SHELL);
  await Promise.all(
    [...MANIFEST.keys()].filter((path) => !LAZY.has(path)).map(async (path) => {
      const url = new URL(path, root);
      const response = await shellFile(url);
      if (!(await cache.match(url, MATCH))) throw new Error(`${url.pathname}: HTTP ${response.status} or not this version`);
    }),
  );
}

async function removeStaleShells(): Promise<void> {
  const ownShells = cacheName(root.pathname, "shell-");
  for (const name of await caches.keys()) {
    if ((name.startsWith(ownShells) && name !== SHELL) || (name.startsWith(PAGES_PREFIX) && name !== PAGES)) {
      await caches.delete(name);
    }
  }
}

/**
 * The pages the reader visited, kept by an earlier service worker of this site, into this
 * one's cache: with this deployment's bytes (a copy still right is taken over, another is
 * fetched anew; what fails or is no longer part of the site stays behind and goes with
 * its cache on activation). A failure here never fails the install.
 */
async function carryOverPages(): Promise<void> {
  const ours = await caches.open(PAGES);
  for (const name of await caches.keys()) {
    if (!name.startsWith(PAGES_PREFIX) || name === PAGES) continue;
    const older = await caches.open(name);
    await Promise.all(
      (await older.keys()).map(async (request) => {
        const key = pageKey(new URL(request.url));
        if (!isOwn(key) || !RECORDED.has(recordPath(key)) || (await ours.match(key, MATCH))) return;
        const copy = await older.match(request);
        if (copy && (await storeRecorded(ours, key, copy))) return;
        try {
          const fresh = await fetch(key, { cache: "no-cache" });
          if (storable(fresh)) await storeRecorded(ours, key, fresh);
        } catch {
          // offline or gone: not carried over
        }
      }),
    );
  }
}

/**
 * A deployment that changed no runtime file (the same shell) needs no reload: take over at
 * once. Only when this site's one shell is this worker's, i.e. the active worker's too.
 */
async function sameRuntimeAsActive(): Promise<boolean> {
  if (!self.registration.active) return false;
  const shells = (await caches.keys()).filter((name) => name.startsWith(cacheName(root.pathname, "shell-")));
  return shells.length === 1 && shells[0] === SHELL;
}

/**
 * Caches named before they were named per site: move this site's pages into PAGES,
 * drop this site's other entries, delete a legacy cache once it is empty. Other
 * sites' entries stay for them.
 */
async function migrateLegacyCaches(): Promise<void> {
  const pages = await caches.open(PAGES);
  for (const name of await caches.keys()) {
    if (!name.startsWith(LEGACY_CACHE_PREFIX)) continue;
    const legacy = await caches.open(name);
    const requests = await legacy.keys();
    let left = requests.length;
    for (const request of requests) {
      const url = new URL(request.url);
      if (!isOwn(url)) continue;
      if (name === `${LEGACY_CACHE_PREFIX}pages` && !isShell(url)) {
        const response = await legacy.match(request);
        if (response && !(await pages.match(pageKey(url), MATCH))) await storeRecorded(pages, pageKey(url), response);
      }
      await legacy.delete(request);
      left -= 1;
    }
    if (left === 0) await caches.delete(name);
  }
}

async function deleteOwnCaches(): Promise<void> {
  for (const name of serviceWorkerCaches(await caches.keys(), root.pathname)) await caches.delete(name);
}

/** The shell is complete without the lazy files: a page that never asked for TypeScript
 * works offline without its runtime. */
async function shellComplete(): Promise<boolean> {
  const cache = await caches.open(SHELL);
  const needed = [...MANIFEST.keys()].filter((path) => !LAZY.has(path));
  const found = await Promise.all(needed.map((path) => cache.match(new URL(path, root), MATCH)));
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
      if (!isOwn(url)) return;
      if (isShell(url)) {
        if (MANIFEST.has(siteRelative(url))) await shellFile(url);
        return;
      }
      const key = pageKey(url);
      if (!RECORDED.has(recordPath(key))) return; // not of this deployment: nothing to keep
      const cache = await caches.open(PAGES);
      if (await cachedPage(cache, key)) return;
      // The page just loaded it: the HTTP cache may answer, with an older deployment's copy.
      const response = await fetch(url);
      if (storable(response) && (await storeRecorded(cache, key, response))) return;
      const fresh = await fetch(url, { cache: "no-cache" });
      if (!storable(fresh) || !(await storeRecorded(cache, key, fresh))) {
        throw new Error(`${key.pathname}: not the recorded bytes`);
      }
    }),
  );
  return results.every((result) => result.status === "fulfilled");
}

async function fromShell(request: Request, event: FetchEvent): Promise<Response> {
  const url = new URL(request.url);
  const wanted = wantedVersion(request);
  const path = siteRelative(shellKey(url));
  if ((wanted && wanted !== OFFLINE.version) || !MANIFEST.has(path)) {
    // Another deployment's page, or a file this build did not make (a chunk of another
    // version): the network has it; nothing of it is stored in this version's shell.
    let response: Response;
    try {
      response = await fetch(request, { cache: "no-cache" });
    } catch (error) {
      // Offline, a page kept from an older deployment: this version's runtime is the one
      // there is (mostly compatible; better than no Python at all).
      if (MANIFEST.has(path)) return shellFile(url, event);
      throw error;
    }
    if (!WORKER_SCRIPTS.has(path) || !storable(response)) return response;
    return serve(response, await response.arrayBuffer(), path);
  }
  return shellFile(url, event);
}

async function networkFirst(request: Request, event: FetchEvent): Promise<Response> {
  const cache = await caches.open(PAGES);
  const key = pageKey(new URL(request.url));
  try {
    // A navigation was already requested while this worker started (navigation preload).
    const preloaded =
      request.mode === "navigate" ? ((await event.preloadResponse) as Response | undefined) : undefined;
    const response = preloaded ?? (await fetch(request));
    // Kept only with the record's bytes (a copy of another deployment could not be served).
    if (storable(response)) event.waitUntil(storeRecorded(cache, key, response.clone()));
    return response;
  } catch (error) {
    const cached = await cachedPage(cache, key);
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

self.addEventListener("install", (event) => {
  // No skipWaiting for a new runtime: it waits until the reader asks for it.
  event.waitUntil(
    precache()
      .then(carryOverPages)
      .then(sameRuntimeAsActive)
      .then((same) => (same ? self.skipWaiting() : undefined)),
  );
});

async function enableNavigationPreload(): Promise<void> {
  await self.registration.navigationPreload?.enable().catch(() => undefined);
}

self.addEventListener("activate", (event) => {
  const ready = Promise.all([removeStaleShells(), migrateLegacyCaches(), enableNavigationPreload()]);
  event.waitUntil(ready.then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (retired || request.method !== "GET" || request.headers.has("range")) return;
  const url = new URL(request.url);
  if (!isOwn(url) || url.pathname.endsWith(".map")) return; // source maps: for developer tools, online
  event.respondWith(isShell(url) ? fromShell(request, event) : networkFirst(request, event));
});

self.addEventListener("message", (event) => {
  const message = event.data as ToServiceWorker;
  if (message.type === "skip-waiting") {
    event.waitUntil(self.skipWaiting());
  } else if (message.type === "retire") {
    retired = true;
    const port = event.ports[0];
    event.waitUntil(
      deleteOwnCaches().then(() => {
        const reply: RetiredReply = { type: "retired" };
        port?.postMessage(reply);
      }),
    );
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
