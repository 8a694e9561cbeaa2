/**
 * The page's side of offline use: registers the service worker (sw/service-worker.ts,
 * built to the site's root as sw.js), hands it what the page loaded before it took
 * control, and offers to reload when a new deployment is ready.
 *
 * `<html data-lk-offline="ready">` says that this page and the Python runtime are
 * cached ("incomplete" if something could not be stored); tests wait for it.
 * Under `mkdocs serve` with live reload nothing is registered and an earlier
 * registration on the same origin is removed, so authors always see fresh files.
 */
import { whenIdle } from "../runtime/idle";
import { siteRoot } from "../runtime/page";
import type { PythonRuntime } from "../runtime/python";
import { serviceWorkerCaches, type KeptReply, type RetiredReply, type ToServiceWorker } from "./protocol";

interface Observable {
  subscribe(next: () => void): unknown;
}

/** mkdocs serve's live-reload script defines `window.livereload` before module scripts run. */
function servedByMkdocs(): boolean {
  return typeof (window as unknown as { livereload?: unknown }).livereload === "function";
}

/**
 * Live reload: the worker that still controls this page stops storing and deletes its
 * caches (an older one that does not know "retire" is not waited for long), then it is
 * unregistered and what is left of its caches deleted. The kept snapshot stays.
 */
async function removeRegistration(root: URL): Promise<void> {
  const controller = navigator.serviceWorker.controller;
  // Only this site's worker: another course site's, at a parent path, keeps its caches.
  if (controller?.scriptURL === new URL("sw.js", root).href) {
    const channel = new MessageChannel();
    const retired = new Promise<unknown>((resolve) => {
      channel.port1.onmessage = (event: MessageEvent<RetiredReply>) => resolve(event.data);
      setTimeout(resolve, 2000);
    });
    send(controller, { type: "retire" }, [channel.port2]);
    await retired;
  }
  const registration = await navigator.serviceWorker.getRegistration(root.href);
  if (registration && registration.scope === root.href) await registration.unregister();
  for (const name of serviceWorkerCaches(await caches.keys(), root.pathname)) await caches.delete(name);
}

function send(worker: ServiceWorker, message: ToServiceWorker, transfer: Transferable[] = []): void {
  worker.postMessage(message, transfer);
}

/**
 * Material's search worker loads lunr with importScripts: those requests are not in this
 * page's resource timing, so they are named here (mkdocs.yml: search in German).
 */
const SEARCH_FILES = [
  "assets/javascripts/lunr/min/lunr.stemmer.support.min.js",
  "assets/javascripts/lunr/min/lunr.de.min.js",
];

/**
 * What this visit loaded from this site: the page shown now and the one the visit began
 * on (the reader may have moved on by instant navigation before the worker was
 * registered; later pages are in the resource timing, fetched by the theme), their
 * resources, the search's files.
 */
function loadedUrls(): string[] {
  const begun = performance.getEntriesByType("navigation").map((entry) => entry.name);
  const pages = [location.href, ...begun].map((href) => {
    const page = new URL(href);
    page.hash = "";
    return page.href;
  });
  const resources = performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((name) => new URL(name).origin === location.origin);
  const search = document.querySelector(".md-search")
    ? SEARCH_FILES.map((path) => new URL(path, siteRoot()).href)
    : [];
  return [...new Set([...pages, ...resources, ...search])];
}

/** Ask the active service worker to keep this page; mark the page when all is cached. */
async function keepPage(): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  const active = registration.active;
  if (!active) return;
  const channel = new MessageChannel();
  const reply = new Promise<KeptReply>((resolve) => {
    channel.port1.onmessage = (event: MessageEvent<KeptReply>) => resolve(event.data);
  });
  send(active, { type: "keep", urls: loadedUrls() }, [channel.port2]);
  const { complete } = await reply;
  document.documentElement.dataset["lkOffline"] = complete ? "ready" : "incomplete";
}

let reloadOnChange = false;

/** How long a newly installed worker may take to activate by itself (pages only). */
const UPDATE_SETTLES_MS = 1000;

/** A small notice with "Neu laden"; the page only reloads when the reader asks. */
function showUpdateNotice(registration: ServiceWorkerRegistration): void {
  if (document.querySelector(".lk-update")) return;
  const notice = document.createElement("div");
  notice.className = "lk-update";
  notice.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = "Eine neue Version des Kurses ist da.";
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "lk-button lk-button--run";
  reload.textContent = "Neu laden";
  reload.addEventListener("click", () => {
    const waiting = registration.waiting;
    if (!waiting) {
      // Another tab already switched to the new version.
      location.reload();
      return;
    }
    reload.disabled = true;
    reloadOnChange = true;
    send(waiting, { type: "skip-waiting" });
  });
  const later = document.createElement("button");
  later.type = "button";
  later.className = "lk-button";
  later.textContent = "Später";
  later.addEventListener("click", () => notice.remove());
  notice.append(text, reload, later);
  document.body.append(notice);
}

function watchForUpdates(registration: ServiceWorkerRegistration): void {
  // A waiting worker with a controller is an update; without a controller it is the first install.
  if (registration.waiting && navigator.serviceWorker.controller) showUpdateNotice(registration);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state !== "installed" || !navigator.serviceWorker.controller) return;
      // A deployment of pages only takes over at once (sw/service-worker.ts): nothing to
      // offer. One that still waits a moment later brings a new runtime.
      setTimeout(() => {
        if (installing.state === "installed" && registration.waiting === installing) showUpdateNotice(registration);
      }, UPDATE_SETTLES_MS);
    });
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloadOnChange) location.reload();
  });
}

/**
 * Resolves once the page has loaded and Python has settled: the service worker's first
 * install then finds the runtime in the HTTP cache instead of downloading Pyodide's
 * WebAssembly a second time alongside the Python worker. Then two seconds later: storing
 * the runtime takes the processor for a while, and the reader who runs a cell as soon as
 * Python is ready should not wait for it. Sizes: benchmarks/README.md.
 */
async function settled(runtime: Pick<PythonRuntime, "settled">): Promise<void> {
  if (document.readyState !== "complete") {
    await new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
  }
  await runtime.settled();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await whenIdle();
}

/** Register the service worker; call once per page load. */
export function registerOffline(runtime: Pick<PythonRuntime, "settled">): void {
  if (!("serviceWorker" in navigator)) return;
  const root = siteRoot();
  if (servedByMkdocs()) {
    void removeRegistration(root).catch(() => undefined);
    return;
  }
  const sw = new URL("sw.js", root);
  const registered = settled(runtime).then(() =>
    navigator.serviceWorker.register(sw, { updateViaCache: "none" }),
  );
  registered.then(watchForUpdates, (error: unknown) => {
    console.warn("lessonkit: Offline-Speicher nicht verfügbar.", error);
  });
  const keep = () => void registered.then(keepPage).catch(() => undefined);
  // Material publishes every page (also after instant navigation) on document$; an
  // instant page change is also a good moment to look for a new deployment.
  const document$ = (window as unknown as { document$?: Observable }).document$;
  if (document$) {
    let pages = 0;
    document$.subscribe(() => {
      pages += 1;
      if (pages > 1) void registered.then((registration) => registration.update()).catch(() => undefined);
      keep();
    });
  } else {
    keep();
  }
}
