// serveWasmFromZstd (worker/wasm.ts): Pyodide's request for its WebAssembly answered from
// the Zstandard copy, decoded as it is read; the plain file when the copy fails.
import assert from "node:assert/strict";
import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { MemoryCache, memoryCaches } from "./memory-cache";
import { siteOf } from "../src/worker/kept";
import { serveWasmFromZstd } from "../src/worker/wasm";
import { inflatingStream, zstdDecoder } from "../src/worker/zstd";

const WASM = new URL("https://kurs.example/assets/generated/pyodide/pyodide.asm.wasm");
const COPY = new URL("https://kurs.example/assets/generated/pyodide/pyodide.asm.wasm.zst");

/** A module of one exported function (`answer` → 42), padded with a custom section. */
function module(padding: number): Uint8Array {
  const custom = [0x00, ...leb(padding + 2), 0x01, 0x70, ...new Array<number>(padding).fill(7)];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...[0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f], // type: () -> i32
    ...[0x03, 0x02, 0x01, 0x00], // function 0 has type 0
    ...[0x07, 0x0a, 0x01, 0x06, ...Buffer.from("answer"), 0x00, 0x00], // export
    ...[0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b], // body: i32.const 42
    ...custom,
  ]);
}

function leb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    bytes.push(byte);
  } while (value);
  return bytes;
}

/** zstd -19 of `bytes` by the build's own Python and library (lessonkit/build/assets.py). */
function zstd(bytes: Uint8Array): Uint8Array {
  const code = "import sys, zstandard; sys.stdout.buffer.write(zstandard.ZstdCompressor(level=19, write_content_size=True).compress(sys.stdin.buffer.read()))";
  return new Uint8Array(execFileSync(process.env.LK_PYTHON ?? ".venv/bin/python", ["-c", code], { input: bytes }));
}

const stores = new Map<string, MemoryCache>();
Object.assign(globalThis, { caches: memoryCaches(stores) });
/** The kept copies of the site (kept.ts: one cache per site, MEMORY_KIND). */
const kept = (): Map<string, unknown> => stores.get("lessonkit:/:memory")?.entries ?? new Map();

const digest = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** Until the decoded copy was kept (it is stored after the response is read). */
async function settled(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

type Served = Record<string, Uint8Array | number>;

/** A scope whose `fetch` serves `files` (a number: that HTTP status) and logs requests,
 * and the requests stopped by their signal; with `held`, it answers only once that
 * resolves (a slow line), or fails when stopped first. */
function scope(files: Served, held?: Promise<void>): { fetch: typeof fetch; asked: string[]; aborted: string[] } {
  const asked: string[] = [];
  const aborted: string[] = [];
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const name = new URL(url).pathname.split("/").pop() ?? url;
    asked.push(name);
    const stopped = new Promise<never>((_, reject) =>
      init?.signal?.addEventListener(
        "abort",
        () => {
          aborted.push(name);
          reject(new DOMException("stopped", "AbortError"));
        },
        { once: true },
      ),
    );
    stopped.catch(() => undefined); // a download that finished may still be stopped
    if (held) await Promise.race([held, stopped]);
    const file = files[url];
    if (file === undefined || typeof file === "number") return new Response("", { status: file ?? 404 });
    return new Response(file.slice(), { headers: { "Content-Type": "application/octet-stream" } });
  };
  return { fetch: fetcher as typeof fetch, asked, aborted };
}

test("the request for the WebAssembly gets the copy's decoded bytes, which compile streaming", async () => {
  stores.clear();
  const wasm = module(400_000); // several of the decoder's 128 kB pieces
  const served = scope({ [COPY.href]: zstd(wasm), [WASM.href]: 404 });
  const rate = serveWasmFromZstd(served, WASM, COPY, digest(wasm));
  const response = await served.fetch(WASM);
  assert.equal(response.headers.get("Content-Type"), "application/wasm");
  const { instance } = await WebAssembly.instantiateStreaming(response, {});
  assert.equal((instance.exports.answer as () => number)(), 42);
  assert.deepEqual(served.asked, ["pyodide.asm.wasm.zst"]);
  // How fast the copy came: its bytes over the time from request to last byte.
  assert.ok(((await rate) ?? 0) > 0);

  // The next visit compiles the kept decoded bytes: the download, begun while the kept
  // copy was looked for (here a slow line), is stopped, and nothing is decoded.
  await settled();
  assert.deepEqual([...kept().keys()], [`${WASM.href}?sha256=${digest(wasm)}`]);
  const next = scope({ [COPY.href]: zstd(wasm), [WASM.href]: 404 }, new Promise(() => undefined));
  const nextRate = serveWasmFromZstd(next, WASM, COPY, digest(wasm));
  const again = await WebAssembly.instantiateStreaming(await next.fetch(WASM), {});
  assert.equal((again.instance.exports.answer as () => number)(), 42);
  assert.deepEqual(next.asked, ["pyodide.asm.wasm.zst"]);
  assert.deepEqual(next.aborted, ["pyodide.asm.wasm.zst"], "the download was stopped");
  assert.equal(await nextRate, null, "nothing counts as having come over the line");
});

/** A first visit (the caches cleared before) that decodes `wasm`'s copy and keeps it. */
async function firstVisitKeeps(wasm: Uint8Array): Promise<void> {
  stores.clear();
  const first = scope({ [COPY.href]: zstd(wasm) });
  serveWasmFromZstd(first, WASM, COPY, digest(wasm));
  await (await first.fetch(WASM)).arrayBuffer();
  await settled();
}

test("a download that ends before the search for a kept copy tells the line's speed, and the kept copy serves", async () => {
  const wasm = module(10);
  await firstVisitKeeps(wasm);
  // The Cache API answers only after the whole copy came (a fast line, a slow disk).
  const open = caches.open.bind(caches);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  Object.assign(caches, { open: async (name: string) => (await held, open(name)) });
  try {
    const next = scope({ [COPY.href]: new Uint8Array([1, 2, 3]) }); // not even Zstandard
    const rate = serveWasmFromZstd(next, WASM, COPY, digest(wasm));
    assert.ok(((await rate) ?? 0) > 0, "downloaded in full while the search waited");
    release();
    assert.deepEqual(new Uint8Array(await (await next.fetch(WASM)).arrayBuffer()), wasm);
  } finally {
    Object.assign(caches, { open });
  }
});

test("a kept copy of another Pyodide or with other bytes is not used, and is replaced", async () => {
  const old = module(20);
  await firstVisitKeeps(old);
  const [oldKey] = kept().keys();
  const wasm = module(30);
  // Someone on the origin swaps the kept bytes of the current version: they are not served.
  const planted = `${WASM.href}?sha256=${digest(wasm)}`;
  await (await caches.open("lessonkit:/:memory")).put(planted, new Response(old.slice()));
  const served = scope({ [COPY.href]: zstd(wasm) });
  serveWasmFromZstd(served, WASM, COPY, digest(wasm));
  assert.deepEqual(new Uint8Array(await (await served.fetch(WASM)).arrayBuffer()), wasm);
  assert.deepEqual(served.asked, ["pyodide.asm.wasm.zst"]);
  await settled();
  assert.deepEqual([...kept().keys()], [planted]);
  assert.notEqual(oldKey, planted);
  const entry = kept().get(planted) as { body: ArrayBuffer };
  assert.deepEqual(new Uint8Array(entry.body), wasm);
});

test("the copy is kept in the site's cache, below a sub-path too, and one kept a folder too deep is dropped", async () => {
  stores.clear();
  const wasm = module(12);
  const site = new URL("https://owner.example/kurs/assets/generated/pyodide/");
  const [at, copy] = [new URL("pyodide.asm.wasm", site), new URL("pyodide.asm.wasm.zst", site)];
  // Where the copy went until 2026-12 (`lessonkit:/kurs/assets/:memory`), beside another
  // site's entry that has nothing to do with this one.
  const misnamed = await caches.open("lessonkit:/kurs/assets/:memory");
  await misnamed.put(`${at.href}?sha256=alt`, new Response(new Uint8Array([1])));
  const served = scope({ [copy.href]: zstd(wasm) });
  serveWasmFromZstd(served, at, copy, digest(wasm));
  await (await served.fetch(at)).arrayBuffer();
  await settled();
  assert.deepEqual([...(stores.get("lessonkit:/kurs/:memory")?.entries.keys() ?? [])], [`${at.href}?sha256=${digest(wasm)}`]);
  assert.equal(stores.has("lessonkit:/kurs/assets/:memory"), false);
  assert.equal(siteOf(at), "/kurs/");
  assert.equal(siteOf(new URL("https://owner.example/kurs/assets/generated/snapshot-1.lks.zst")), "/kurs/");
  assert.equal(siteOf(new URL("https://owner.example/assets/generated/pyodide/pyodide.asm.wasm")), "/");
});

test("other requests pass through unchanged", async () => {
  const other = new URL("pyodide.asm.mjs", WASM);
  const served = scope({ [other.href]: new Uint8Array([1, 2, 3]) });
  serveWasmFromZstd(served, WASM, COPY, "0".repeat(64));
  assert.deepEqual(new Uint8Array(await (await served.fetch(other)).arrayBuffer()), new Uint8Array([1, 2, 3]));
  // The copy downloads from the start, before Pyodide asks for the WebAssembly.
  assert.deepEqual(served.asked.sort(), ["pyodide.asm.mjs", "pyodide.asm.wasm.zst"]);
});

test("a missing copy falls back to the plain file", async () => {
  const wasm = module(10);
  stores.clear();
  const served = scope({ [COPY.href]: 404, [WASM.href]: wasm });
  const rate = serveWasmFromZstd(served, WASM, COPY, digest(wasm));
  const bytes = new Uint8Array(await (await served.fetch(WASM.href)).arrayBuffer());
  assert.deepEqual(bytes, wasm);
  assert.equal(await rate, null, "no copy, no speed");
  assert.deepEqual(served.asked, ["pyodide.asm.wasm.zst", "pyodide.asm.wasm"]);
});

test("a damaged copy ends its stream with an error, and the next request takes the plain file", async () => {
  const wasm = module(300_000);
  const damaged = zstd(wasm);
  damaged.fill(0xff, 40, damaged.length);
  stores.clear();
  const served = scope({ [COPY.href]: damaged, [WASM.href]: wasm });
  serveWasmFromZstd(served, WASM, COPY, digest(wasm));
  await assert.rejects((await served.fetch(WASM)).arrayBuffer());
  const again = new Uint8Array(await (await served.fetch(WASM)).arrayBuffer());
  assert.deepEqual(again, wasm);
  assert.deepEqual(served.asked, ["pyodide.asm.wasm.zst", "pyodide.asm.wasm"]);
  await settled();
  assert.equal(kept().size, 0, "nothing damaged is kept");
});

test("the stream inflates to exactly the original bytes", async () => {
  const original = new Uint8Array(1_000_000).map((_, index) => (index * 7919) % 251);
  const stream = inflatingStream(await zstdDecoder(), zstd(original));
  assert.deepEqual(new Uint8Array(await new Response(stream).arrayBuffer()), original);
});
