import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { before, beforeEach, test } from "node:test";
import { MemoryCache, memoryCaches } from "./memory-cache";

/**
 * The service worker (frontend/src/sw/service-worker.ts) as built, in a fake
 * ServiceWorkerGlobalScope: an in-memory Cache API and a network the test controls.
 */
const ROOT = "http://127.0.0.1:8000/kurs/";
const VERSION = "0123456789abcdef";
const FILES: Record<string, string> = {
  "assets/generated/js/lessonkit.js": "// page script",
  "assets/generated/js/worker.js": "// python worker",
  "assets/generated/runtime.json": "{}",
};
const PAGES: Record<string, string> = {
  "lektionen/a/": "<h1>Lektion A</h1>",
  "lektionen/b/": "<h1>Lektion B</h1>",
  "assets/javascripts/bundle.1234.min.js": "// Material",
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** lessonkit/build/csp.py's record of the site's files (pages as `…/index.html`). */
const RECORD = {
  id: "feedc0de12345678",
  files: Object.fromEntries(
    Object.entries(PAGES).map(([path, body]) => [path.endsWith("/") ? `${path}index.html` : path, sha256(body)]),
  ),
};
const PAGE_CACHE = `lessonkit:/kurs/:pages-${RECORD.id}`;

/** A Response as a browser's fetch makes it: same-origin ("basic"). */
function basic(body: string, status = 200): Response {
  const response = new Response(body, { status });
  Object.defineProperty(response, "type", { value: "basic" });
  return response;
}

const stores = new Map<string, MemoryCache>();
const caches = memoryCaches(stores);

/** The network: the site's files; `offline` makes every request fail. */
const network = { offline: false, requested: [] as string[] };

async function fakeFetch(input: RequestInfo | URL): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url);
  network.requested.push(url.pathname + url.search);
  if (network.offline) throw new TypeError("Failed to fetch");
  const path = url.pathname.slice(new URL(ROOT).pathname.length);
  const body = FILES[path] ?? PAGES[path.replace(/index\.html$/, "")] ?? PAGES[path];
  return body === undefined ? basic("nicht da", 404) : basic(body);
}

type Handler = (event: Record<string, unknown>) => void;
/** The registration; `active` set: a worker of an earlier deployment controls pages. */
const registration: { scope: string; navigationPreload: unknown; active: unknown } = {
  scope: ROOT,
  navigationPreload: { enable: async () => undefined },
  active: null,
};
const skipped = { count: 0 };
const handlers = new Map<string, Handler>();

Object.assign(globalThis, {
  OFFLINE: { version: VERSION, precache: Object.fromEntries(Object.entries(FILES).map(([p, b]) => [p, sha256(b)])) },
  caches,
  fetch: fakeFetch,
  self: {
    LESSONKIT_RECORD: RECORD,
    registration,
    clients: { claim: async () => undefined },
    skipWaiting: async () => void (skipped.count += 1),
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
  },
});

/** Dispatch a lifecycle event and wait for what it asked to wait for. */
async function lifecycle(type: "install" | "activate"): Promise<void> {
  const waits: Promise<unknown>[] = [];
  handlers.get(type)?.({ waitUntil: (promise: Promise<unknown>) => waits.push(promise) });
  await Promise.all(waits);
}

/** What the service worker answers for a GET of `path` (below the site), or null: not handled. */
async function get(path: string, options: { mode?: string; referrer?: string; method?: string } = {}) {
  const request = {
    url: new URL(path, ROOT).href,
    method: options.method ?? "GET",
    mode: options.mode ?? "cors",
    referrer: options.referrer ?? "about:client",
    headers: new Headers(),
  };
  let answer: Promise<Response> | null = null;
  const waits: Promise<unknown>[] = [];
  handlers.get("fetch")?.({
    request,
    preloadResponse: Promise.resolve(undefined),
    respondWith: (response: Promise<Response>) => (answer = response),
    waitUntil: (promise: Promise<unknown>) => waits.push(promise),
  });
  if (answer === null) return null;
  const response: Response = await answer;
  await Promise.all(waits);
  return response;
}

const shell = () => stores.get(`lessonkit:/kurs/:shell-${VERSION}`)!;

before(async () => {
  await import("../src/sw/service-worker");
});

beforeEach(async () => {
  stores.clear();
  network.offline = false;
  registration.active = null;
  await lifecycle("install");
  await lifecycle("activate");
  network.requested = [];
});

test("install keeps every shell file of the deployment", () => {
  assert.deepEqual([...shell().entries.keys()].sort(), Object.keys(FILES).map((path) => ROOT + path).sort());
});

test("a visited page comes from the network, offline from the cache, however addressed", async () => {
  assert.equal(await (await get("lektionen/a/?h=queue", { mode: "navigate" }))!.text(), "<h1>Lektion A</h1>");
  network.offline = true;
  for (const path of ["lektionen/a/", "lektionen/a/index.html", "lektionen/a/?q=1"]) {
    assert.equal(await (await get(path, { mode: "navigate" }))!.text(), "<h1>Lektion A</h1>", path);
  }
  const never = (await get("lektionen/b/", { mode: "navigate" }))!;
  assert.equal(never.status, 503);
  assert.match(await never.text(), /Du bist offline/);
});

test("shell files come from the cache, and the Python worker with its own policy", async () => {
  network.offline = true;
  assert.equal(await (await get("assets/generated/js/lessonkit.js?v=" + VERSION))!.text(), "// page script");
  const worker = (await get("assets/generated/js/worker.js"))!;
  assert.equal(await worker.text(), "// python worker");
  assert.match(worker.headers.get("Content-Security-Policy") ?? "", /connect-src 'self'/);
  assert.deepEqual(network.requested, []);
});

test("a planted shell file is never served: dropped and fetched again", async () => {
  const key = ROOT + "assets/generated/js/lessonkit.js";
  await shell().put(key, new Response("alert('fremd')"));
  assert.equal(await (await get("assets/generated/js/lessonkit.js"))!.text(), "// page script");
  await shell().put(key, new Response("alert('fremd')"));
  network.offline = true;
  await assert.rejects(get("assets/generated/js/lessonkit.js"), TypeError);
  assert.equal(shell().entries.has(key), false);
});

test("a page of another deployment gets its runtime from the network", async () => {
  await get("assets/generated/js/lessonkit.js?v=fedcba9876543210");
  await get("assets/generated/runtime.json", { referrer: ROOT + "assets/generated/js/worker.js?v=fedcba9876543210" });
  assert.deepEqual(network.requested, [
    "/kurs/assets/generated/js/lessonkit.js?v=fedcba9876543210",
    "/kurs/assets/generated/runtime.json",
  ]);
});

test("other sites, other methods and source maps are left to the browser", async () => {
  assert.equal(await get("http://127.0.0.1:8000/anderer-kurs/"), null);
  assert.equal(await get("https://example.org/kurs/"), null);
  assert.equal(await get("lektionen/a/", { method: "POST" }), null);
  assert.equal(await get("assets/generated/js/lessonkit.js.map"), null);
});

test("activation deletes this site's older shells and leaves other sites' caches", async () => {
  await caches.open("lessonkit:/kurs/:shell-alt");
  await caches.open("lessonkit:/anderer-kurs/:shell-alt");
  await lifecycle("activate");
  assert.deepEqual((await caches.keys()).sort(), [
    "lessonkit:/anderer-kurs/:shell-alt",
    PAGE_CACHE,
    `lessonkit:/kurs/:shell-${VERSION}`,
  ]);
});

test("pages kept before caches were named per site move into this site's cache, with the record's bytes only", async () => {
  const legacy = await caches.open("lessonkit-pages");
  await legacy.put(ROOT + "lektionen/b/index.html", new Response("<h1>Lektion B</h1>"));
  await legacy.put(ROOT + "lektionen/a/index.html", new Response("<h1>Lektion A, alt</h1>"));
  await legacy.put("http://127.0.0.1:8000/anderer-kurs/", new Response("fremd"));
  await lifecycle("activate");
  assert.deepEqual([...legacy.entries.keys()], ["http://127.0.0.1:8000/anderer-kurs/"]);
  network.offline = true;
  assert.equal(await (await get("lektionen/b/", { mode: "navigate" }))!.text(), "<h1>Lektion B</h1>");
  assert.equal((await get("lektionen/a/", { mode: "navigate" }))!.status, 503);
});

test("a planted page or theme script is never served from the page cache", async () => {
  await get("lektionen/a/", { mode: "navigate" });
  await get("assets/javascripts/bundle.1234.min.js");
  const pages = stores.get(PAGE_CACHE)!;
  assert.equal(pages.entries.size, 2);
  await pages.put(ROOT + "lektionen/a/", new Response("<h1>Gefälscht</h1><script>alert(1)</script>"));
  await pages.put(ROOT + "assets/javascripts/bundle.1234.min.js", new Response("window.planted = true"));
  network.offline = true;
  const page = (await get("lektionen/a/", { mode: "navigate" }))!;
  assert.equal(page.status, 503);
  assert.match(await page.text(), /Du bist offline/);
  await assert.rejects(get("assets/javascripts/bundle.1234.min.js"), TypeError);
  assert.equal(pages.entries.size, 0); // both dropped
});

test("a page of another deployment's bytes is served online but not kept", async () => {
  const original = PAGES["lektionen/a/"];
  PAGES["lektionen/a/"] = "<h1>Lektion A, neu</h1>";
  try {
    assert.equal(await (await get("lektionen/a/", { mode: "navigate" }))!.text(), "<h1>Lektion A, neu</h1>");
  } finally {
    PAGES["lektionen/a/"] = original!;
  }
  assert.equal(stores.get(PAGE_CACHE)!.entries.size, 0);
});

test("a new service worker carries the visited pages over with its own bytes, and drops the rest", async () => {
  stores.clear();
  const older = await caches.open("lessonkit:/kurs/:pages-0000000000000000");
  await older.put(ROOT + "lektionen/a/", new Response("<h1>Lektion A, alt</h1>")); // changed since
  await older.put(ROOT + "lektionen/b/", new Response("<h1>Lektion B</h1>")); // unchanged
  await older.put(ROOT + "lektionen/weg/", new Response("<h1>Gibt es nicht mehr</h1>"));
  network.requested = [];
  await lifecycle("install");
  assert.deepEqual(network.requested.filter((path) => path.includes("lektionen")), ["/kurs/lektionen/a/"]);
  await lifecycle("activate");
  assert.deepEqual((await caches.keys()).filter((name) => name.includes(":pages")), [PAGE_CACHE]);
  network.offline = true;
  assert.equal(await (await get("lektionen/a/", { mode: "navigate" }))!.text(), "<h1>Lektion A</h1>");
  assert.equal(await (await get("lektionen/b/", { mode: "navigate" }))!.text(), "<h1>Lektion B</h1>");
  assert.equal((await get("lektionen/weg/", { mode: "navigate" }))!.status, 503);
});

test("a deployment of pages only takes over at once; a new runtime waits for the reader", async () => {
  stores.clear();
  registration.active = {};
  skipped.count = 0;
  await lifecycle("install"); // the active worker had this shell: only pages changed
  assert.equal(skipped.count, 1);
  stores.clear();
  await caches.open("lessonkit:/kurs/:shell-0000000000000000"); // the active worker's runtime
  await lifecycle("install");
  assert.equal(skipped.count, 1);
});

/** Send the service worker a message; resolves with its reply on the transferred port. */
async function message(data: unknown): Promise<unknown> {
  const channel = new MessageChannel();
  const reply = new Promise((resolve) => (channel.port1.onmessage = (event) => resolve(event.data)));
  const waits: Promise<unknown>[] = [];
  handlers.get("message")?.({ data, ports: [channel.port2], waitUntil: (p: Promise<unknown>) => waits.push(p) });
  await Promise.all(waits);
  const answer = await reply;
  channel.port1.close();
  return answer;
}

// Last: a retired worker stays retired for the rest of this module.
test("retired under live reload: caches gone but the kept snapshot, nothing answered or stored", { timeout: 5000 }, async () => {
  await get("lektionen/a/", { mode: "navigate" });
  await caches.open("lessonkit:/kurs/:memory");
  await caches.open("lessonkit:/anderer-kurs/:pages");
  assert.deepEqual(await message({ type: "retire" }), { type: "retired" });
  assert.deepEqual((await caches.keys()).sort(), ["lessonkit:/anderer-kurs/:pages", "lessonkit:/kurs/:memory"]);
  assert.equal(await get("lektionen/b/", { mode: "navigate" }), null);
  assert.equal(await get("assets/generated/js/lessonkit.js"), null);
  assert.deepEqual((await caches.keys()).sort(), ["lessonkit:/anderer-kurs/:pages", "lessonkit:/kurs/:memory"]);
});
